package types

import "testing"

// TestIntervalStyleOutput checks interval_out in each IntervalStyle against
// PostgreSQL 15 (SET intervalstyle = ...; select 'IN'::interval).
func TestIntervalStyleOutput(t *testing.T) {
	cases := []struct{ in, sql, iso, verbose string }{
		{"0", "0", "PT0S", "@ 0"},
		{"1 year 2 mons", "1-2", "P1Y2M", "@ 1 year 2 mons"},
		{"-3 days -04:05:06.789", "-3 4:05:06.789", "P-3DT-4H-5M-6.789S", "@ 3 days 4 hours 5 mins 6.789 secs ago"},
		{"1 year -2 mons +3 days -04:05:06.5", "+0-10 +3 -4:05:06.5", "P10M3DT-4H-5M-6.5S", "@ 10 mons 3 days -4 hours -5 mins -6.5 secs"},
		{"-1 days +02:03", "+0-0 -1 +2:03:00", "P-1DT2H3M", "@ 1 day -2 hours -3 mins ago"},
		{"1 sec", "0:00:01", "PT1S", "@ 1 sec"},
		{"-0.000001 s", "-0:00:00.000001", "PT-0.000001S", "@ 0.000001 secs ago"},
		{"100:00:00", "100:00:00", "PT100H", "@ 100 hours"},
	}
	for _, c := range cases {
		v, err := ParseInterval(c.in)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []struct {
			st   IntervalStyle
			want string
		}{{IntervalStyleSQLStandard, c.sql}, {IntervalStyleISO8601, c.iso}, {IntervalStylePostgresVerbose, c.verbose}} {
			got := string(AppendTextConv(nil, TInterval, v, Conv{IntervalStyle: w.st}))
			if got != w.want {
				t.Errorf("%q in %s = %q, want %q", c.in, w.st, got, w.want)
			}
		}
	}
}

// TestIntervalStyleInput checks sql_standard's leading minus sign.
func TestIntervalStyleInput(t *testing.T) {
	for _, c := range []struct{ in, std, pg string }{
		{"-1 2:03:04", "-1 days -02:03:04", "-1 days +02:03:04"},
		{"-1 +2:03:04", "-1 days +02:03:04", "-1 days +02:03:04"},
		{"-1-2 3", "-1 years -2 mons -00:00:03", "-1 years -2 mons +00:00:03"},
		{"-1 day 2 hours", "-1 days -02:00:00", "-1 days +02:00:00"},
	} {
		for _, w := range []struct {
			st   IntervalStyle
			want string
		}{{IntervalStyleSQLStandard, c.std}, {IntervalStylePostgres, c.pg}} {
			v, err := ParseTextConv(TInterval, c.in, Conv{IntervalStyle: w.st})
			if err != nil {
				t.Fatal(err)
			}
			if got := FormatText(TInterval, v); got != w.want {
				t.Errorf("%q read in %s = %q, want %q", c.in, w.st, got, w.want)
			}
		}
	}
	if _, err := IntervalStyleByName("bogus"); err == nil {
		t.Error("bogus IntervalStyle accepted")
	}
	if s, err := IntervalStyleByName("ISO_8601"); err != nil || s != IntervalStyleISO8601 {
		t.Errorf("ISO_8601 = %v, %v", s, err)
	}
}

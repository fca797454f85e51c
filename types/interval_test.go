package types

import (
	"bytes"
	"testing"
	"time"
)

// intervalCases are interval_in/interval_out results of PostgreSQL 15.18
// (select 'INPUT'::interval), errors as the message.
var intervalCases = []struct{ in, out string }{
	{"1 day 02:00:00", "1 day 02:00:00"},
	{"6 hours", "06:00:00"},
	{"P1D", "1 day"},
	{"@ 1 hour ago", "-01:00:00"},
	{"1 year 2 months 3 days 4 hours 5 minutes 6 seconds", "1 year 2 mons 3 days 04:05:06"},
	{"1.5 hours", "01:30:00"},
	{"-1 days +02:03", "-1 days +02:03:00"},
	{"1.5 months", "1 mon 15 days"},
	{"1.5 years", "1 year 6 mons"},
	{"1.5 weeks", "10 days 12:00:00"},
	{"P1Y2M3DT4H5M6S", "1 year 2 mons 3 days 04:05:06"},
	{"P0001-02-03T04:05:06", "1 year 2 mons 3 days 04:05:06"},
	{"PT1.5S", "00:00:01.5"},
	{"1:30", "01:30:00"},
	{"1:30.5", "00:01:30.5"},
	{"10", "00:00:10"},
	{"1-2", "1 year 2 mons"},
	{"-1-2", "-1 years -2 mons"},
	{"100:00:00", "100:00:00"},
	{"1 week 2 days", "9 days"},
	{"@ 1 day 2 hours ago", "-1 days -02:00:00"},
	{"0", "00:00:00"},
	{"1 mon -1 day", "1 mon -1 days"},
	{"-00:00:01.5", "-00:00:01.5"},
	{"2 days 1 day", "invalid input syntax for type interval: \"2 days 1 day\""},
	{"PT36H", "36:00:00"},
	{"1e3 seconds", "invalid input syntax for type interval: \"1e3 seconds\""},
	{"1 millisecond", "00:00:00.001"},
	{"1 microsecond", "00:00:00.000001"},
	{"3 decades", "30 years"},
	{"2 centuries", "200 years"},
	{"1 millennium", "1000 years"},
	{"P1W", "7 days"},
	{"1 hour 30", "01:00:30"},
}

func TestIntervalTextPG(t *testing.T) {
	for _, c := range intervalCases {
		v, err := ParseText(TInterval, c.in)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = FormatText(TInterval, v)
		}
		if got != c.out {
			t.Errorf("%q: got %q, want %q", c.in, got, c.out)
		}
	}
}

func TestIntervalRoundTrip(t *testing.T) {
	vals := []IntervalValue{{}, {Months: 14, Days: -3, Micros: 3723000001}, {Months: -2147483648, Days: 2147483647, Micros: -9223372036854775807}, {Micros: -1500000}}
	for _, v := range vals {
		s := FormatText(TInterval, v)
		back, err := ParseText(TInterval, s)
		if err != nil || back != v {
			t.Errorf("text %v -> %q -> %v, %v", v, s, back, err)
		}
		b, err := EncodeBinary(TInterval, v)
		if err != nil || len(b) != 16 {
			t.Fatalf("binary %v: %x %v", v, b, err)
		}
		if back, err := DecodeBinary(TInterval, b); err != nil || back != v {
			t.Errorf("binary %v -> %v, %v", v, back, err)
		}
		d, err := EncodeDisk(TInterval, v)
		if err != nil || len(d) != 16 {
			t.Fatalf("disk %v: %x %v", v, d, err)
		}
		if back, err := DecodeDisk(TInterval, d); err != nil || back != v {
			t.Errorf("disk %v -> %v, %v", v, back, err)
		}
	}
	// Binary is big-endian time, day, month.
	b, _ := EncodeBinary(TInterval, IntervalValue{Months: 1, Days: 2, Micros: 3})
	if !bytes.Equal(b, []byte{0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1}) {
		t.Errorf("binary layout %x", b)
	}
	if _, err := DecodeBinary(TInterval, b[:15]); err == nil {
		t.Errorf("short binary interval accepted")
	}
}

func TestIntervalCompare(t *testing.T) {
	mon := IntervalValue{Months: 1}
	days30 := IntervalValue{Days: 30}
	hours720 := IntervalValue{Micros: 720 * USecsPerHour}
	if Compare(TInterval, mon, days30) != 0 || Compare(TInterval, days30, hours720) != 0 {
		t.Errorf("1 mon, 30 days, 720 hours should be equal")
	}
	if Hash(TInterval, mon) != Hash(TInterval, hours720) {
		t.Errorf("equal intervals hash differently")
	}
	neg := IntervalValue{Micros: -1}
	if Compare(TInterval, neg, IntervalValue{}) != -1 || bytes.Compare(AppendKey(nil, TInterval, neg), AppendKey(nil, TInterval, IntervalValue{})) != -1 {
		t.Errorf("-1us should sort below 0")
	}
}

func TestTimestampTZText(t *testing.T) {
	ny, _, ok := LoadZone("america/new_york")
	if !ok {
		t.Fatal("America/New_York not found")
	}
	// Results of PostgreSQL 15.18 with TimeZone America/New_York.
	cases := []struct{ in, out string }{
		{"2024-11-03 01:30", "2024-11-03 01:30:00-05"},
		{"2024-03-10 02:30", "2024-03-10 03:30:00-04"},
		{"1800-01-01", "1800-01-01 00:00:00-04:56:02"},
		{"0044-03-15 BC", "0044-03-15 00:00:00-04:56:02 BC"},
		{"2024-01-01 12:00 PST", "2024-01-01 15:00:00-05"},
		{"2024-01-01 12:00+05:30", "2024-01-01 01:30:00-05"},
		{"2024-07-01 12:00 Europe/Paris", "2024-07-01 06:00:00-04"},
		{"infinity", "infinity"},
	}
	for _, c := range cases {
		v, err := ParseTextIn(TTimestampTZ, c.in, ny)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := FormatTextIn(TTimestampTZ, v, ny); got != c.out {
			t.Errorf("%q: got %q, want %q", c.in, got, c.out)
		}
		b, _ := EncodeBinary(TTimestampTZ, v)
		if back, err := DecodeBinary(TTimestampTZ, b); err != nil || !back.(time.Time).Equal(v.(time.Time)) {
			t.Errorf("%q: binary round trip %v %v", c.in, back, err)
		}
	}
	if _, err := ParseTextIn(TTimestampTZ, "2024-01-01 12:00 Mars/Base", ny); err == nil || err.Error() != "time zone \"mars/base\" not recognized" {
		t.Errorf("unknown zone: %v", err)
	}
}

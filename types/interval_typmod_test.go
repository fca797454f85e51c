package types

import "testing"

// TestIntervalTypmod checks interval_in with a typmod and format_type against
// PostgreSQL 15 (select interval 'IN' RANGE, format_type(1186, typmod)).
func TestIntervalTypmod(t *testing.T) {
	const in = "1 year 2 months 3 days 04:05:06.789"
	all := IntervalMaskDay | IntervalMaskHour | IntervalMaskMinute | IntervalMaskSecond
	cases := []struct {
		in        string
		rng, prec int
		out, name string
	}{
		{in, IntervalMaskYear, IntervalFullPrecision, "1 year", "interval year"},
		{in, IntervalMaskMonth, IntervalFullPrecision, "1 year 2 mons", "interval month"},
		{in, IntervalMaskDay, IntervalFullPrecision, "1 year 2 mons 3 days", "interval day"},
		{in, IntervalMaskHour, IntervalFullPrecision, "1 year 2 mons 3 days 04:00:00", "interval hour"},
		{in, IntervalMaskHour | IntervalMaskMinute, IntervalFullPrecision, "1 year 2 mons 3 days 04:05:00", "interval hour to minute"},
		{in, all, 2, "1 year 2 mons 3 days 04:05:06.79", "interval day to second(2)"},
		{in, IntervalFullRange, 0, "1 year 2 mons 3 days 04:05:07", "interval(0)"},
		{"-04:05:06.5", IntervalMaskSecond, 0, "-04:05:07", "interval second(0)"},
		{"2", IntervalMaskYear | IntervalMaskMonth, IntervalFullPrecision, "2 mons", "interval year to month"},
		{"2", IntervalMaskDay | IntervalMaskHour, IntervalFullPrecision, "02:00:00", "interval day to hour"},
		{"1:2", IntervalMaskMinute | IntervalMaskSecond, IntervalFullPrecision, "00:01:02", "interval minute to second"},
		{"1:2", IntervalMaskHour | IntervalMaskMinute | IntervalMaskSecond, IntervalFullPrecision, "01:02:00", "interval hour to second"},
	}
	for _, c := range cases {
		typ := IntervalT(c.rng, c.prec)
		v, err := ParseText(typ, c.in)
		if err != nil {
			t.Errorf("%q %s: %v", c.in, c.name, err)
			continue
		}
		if got := FormatText(typ, v); got != c.out {
			t.Errorf("%q %s = %q, want %q", c.in, c.name, got, c.out)
		}
		if got := typ.Name(); got != c.name {
			t.Errorf("name %q, want %q", got, c.name)
		}
		back, err := TypeByName("interval", []int32{int32(c.rng), int32(c.prec)})
		if c.prec == IntervalFullPrecision {
			back, err = TypeByName("interval", []int32{int32(c.rng)})
		}
		if err != nil || back != typ {
			t.Errorf("TypeByName(%s) = %v, %v", c.name, back, err)
		}
	}
	if _, err := TypeByName("interval", []int32{1}); err == nil {
		t.Error("range mask 1 accepted")
	}
	if _, err := TypeByName("interval", []int32{IntervalFullRange, -1}); err == nil {
		t.Error("negative precision accepted")
	}
	// A cast between intervals applies the target's typmod.
	v, _ := ParseText(TInterval, "1 day 02:03:04.5678")
	got, err := Coerce(v, TInterval, IntervalT(IntervalMaskHour|IntervalMaskMinute, IntervalFullPrecision), true)
	if err != nil || FormatText(TInterval, got) != "1 day 02:03:00" {
		t.Errorf("cast to interval hour to minute = %v, %v", got, err)
	}
}

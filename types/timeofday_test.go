package types

import (
	"testing"
	"time"

	"minipg/pgerr"
)

func TestTimeTextRoundTrip(t *testing.T) {
	cv := Conv{Loc: time.UTC}
	for _, c := range []struct {
		typ     T
		in, out string
		errCode pgerr.Code
	}{
		{TTime, "04:05:06.789", "04:05:06.789", ""},
		{TTime, "04:05 PM", "16:05:00", ""},
		{TTime, "12:00 AM", "00:00:00", ""},
		{TTime, "040506", "04:05:06", ""},
		{TTime, "allballs", "00:00:00", ""},
		{TTime, "23:59:60", "24:00:00", ""},
		{TTime, "23:59:59.9999999", "24:00:00", ""},
		{TTime, "04:05:06 PST", "04:05:06", ""},
		{TTime, "2003-03-07 15:36:39 America/New_York", "15:36:39", ""},
		{TimeT(0), "23:59:59.5", "24:00:00", ""},
		{TimeT(2), "12:34:56.785", "12:34:56.79", ""},
		{TTime, "24:00:00.01", "", pgerr.DatetimeFieldOverflow},
		{TTime, "13:00 PM", "", pgerr.DatetimeFieldOverflow},
		{TTime, "abc", "", pgerr.InvalidDatetimeFormat},
		{TTime, "15:36:39 America/New_York", "", pgerr.InvalidDatetimeFormat},
		{TTimeTZ, "04:05:06.789-08:00", "04:05:06.789-08", ""},
		{TTimeTZ, "04:05:06-0830", "04:05:06-08:30", ""},
		{TTimeTZ, "04:05:06 +05", "04:05:06+05", ""},
		{TTimeTZ, "04:05:06-00:30:15", "04:05:06-00:30:15", ""},
		{TTimeTZ, "allballs", "00:00:00+00", ""},
		{TTimeTZ, "04:05:06 PST", "04:05:06-08", ""},
		{TTimeTZ, "2003-07-07 15:36:39 America/New_York", "15:36:39-04", ""},
		{TTimeTZ, "04:05:06+16", "", pgerr.InvalidTimeZoneDisplacementValue},
		{TTimeTZ, "04:05 foo/bar", "", pgerr.InvalidParameterValue},
	} {
		d, err := ParseTextConv(c.typ, c.in, cv)
		if c.errCode != "" {
			if pe, ok := err.(*pgerr.Error); !ok || pe.Code != c.errCode {
				t.Errorf("%s %q: err %v, want %s", c.typ, c.in, err, c.errCode)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %q: %v", c.typ, c.in, err)
			continue
		}
		if got := FormatText(c.typ, d); got != c.out {
			t.Errorf("%s %q: got %q, want %q", c.typ, c.in, got, c.out)
		}
		b, err := AppendBinary(nil, c.typ, d)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeBinary(c.typ, b)
		if err != nil || Compare(c.typ, back, d) != 0 {
			t.Errorf("%s %q: binary round trip gave %v, %v", c.typ, c.in, back, err)
		}
	}
}

func TestTimeTZOrder(t *testing.T) {
	parse := func(s string) Datum {
		d, err := ParseText(TTimeTZ, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	// By UTC time, then by zone.
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"04:00-08", "07:00-05", 1},
		{"12:00+01", "12:00+00", -1},
		{"12:00+01", "12:00+01", 0},
		{"11:00+00", "12:00+01", 1}, // same instant: zone 0 sorts after -3600
	} {
		a, b := parse(c.a), parse(c.b)
		if got := Compare(TTimeTZ, a, b); got != c.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
		ka, kb := string(AppendKey(nil, TTimeTZ, a)), string(AppendKey(nil, TTimeTZ, b))
		if got := cmpStrings(ka, kb); got != c.want {
			t.Errorf("keys of %s, %s order %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func cmpStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestTimeArithmeticAndCasts(t *testing.T) {
	if got := TimePlusMicros(23*USecsPerHour, 2*USecsPerHour); got != USecsPerHour {
		t.Errorf("23:00 + 2h = %d", got)
	}
	if got := TimePlusMicros(USecsPerHour, -3*USecsPerHour); got != 22*USecsPerHour {
		t.Errorf("01:00 - 3h = %d", got)
	}
	v, err := Coerce(IntervalValue{Micros: -USecsPerHour}, TInterval, TTime, true)
	if err != nil || v != TimeValue(23*USecsPerHour) {
		t.Errorf("interval '-1 hour'::time = %v, %v", v, err)
	}
	ts, _ := ParseText(TTimestampTZ, "2020-07-01 12:34:56+03")
	la, _, _ := LoadZone("America/Los_Angeles")
	v, err = CoerceIn(ts, TTimestampTZ, TTimeTZ, true, la)
	if err != nil || FormatText(TTimeTZ, v) != "02:34:56-07" {
		t.Errorf("timestamptz -> timetz = %v, %v", v, err)
	}
	if CastContextOf(Time, TimeTZ) != CastImplicit || CastContextOf(TimeTZ, Time) != CastAssignment ||
		CastContextOf(Time, Interval) != CastImplicit || CastContextOf(Date, Time) != CastNone {
		t.Error("pg_cast contexts of time")
	}
	if n := (T{TimeTZ, 3}).Name(); n != "time(3) with time zone" {
		t.Errorf("Name = %q", n)
	}
	if d, err := DecodeDisk(TTimeTZ, must(AppendDisk(nil, TTimeTZ, TimeTZValue{Micros: 5, Zone: -3600}))); err != nil || d != (TimeTZValue{Micros: 5, Zone: -3600}) {
		t.Errorf("disk round trip: %v, %v", d, err)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

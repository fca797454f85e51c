package executor

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// The date/time functions of PostgreSQL 15's section 9.9 over timestamp
// (without time zone) and date, now() and its siblings (timestamp with
// time zone, as in PostgreSQL), date +/- integer and date - date. The
// interval and timestamptz functions and operators are in
// func_interval.go.

func init() {
	// current_date is CURRENT_DATE's function (pg_proc has none; the
	// binder calls it for the SQL-standard spelling only).
	builtin("current_date", nil, dt, sql.Stable, func(env any, _ []types.Datum, _ *sql.Func) (types.Datum, error) {
		return currentDate(env), nil
	})
	for _, name := range []string{"now", "clock_timestamp", "statement_timestamp", "transaction_timestamp"} {
		vol := sql.Stable
		if name == "clock_timestamp" {
			vol = sql.Volatile
		}
		builtin(name, nil, tsz, vol, func(env any, _ []types.Datum, f *sql.Func) (types.Datum, error) {
			switch f.Name {
			case "clock_timestamp":
				return time.Now().UTC().Truncate(time.Microsecond), nil
			case "statement_timestamp":
				if x := env.(*evalCtx).x; x != nil && !x.start.IsZero() {
					return x.start, nil
				}
			}
			return session(env).txStart, nil
		})
	}
	builtin("date_trunc", oids(tx, ts), ts, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return dateTrunc(a[0].(string), a[1].(time.Time))
	})
	builtin("date_part", oids(tx, ts), f8, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return extract(a[0].(string), a[1].(time.Time), false, true)
	})
	builtin("date_part", oids(tx, dt), f8, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		t := a[1].(time.Time)
		if t.Equal(types.DateInfinity) {
			t = types.TimestampInfinity
		} else if t.Equal(types.DateNegInfinity) {
			t = types.TimestampNegInfinity
		}
		// PostgreSQL defines date_part(text, date) in SQL, over timestamp.
		v, err := extract(a[0].(string), t, false, true)
		if pe, ok := err.(*pgerr.Error); ok {
			pe.Where = `SQL function "date_part" statement 1`
		}
		return v, err
	})
	builtin("extract", oids(tx, ts), nu, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return extract(a[0].(string), a[1].(time.Time), false, false)
	})
	builtin("extract", oids(tx, dt), nu, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return extract(a[0].(string), a[1].(time.Time), true, false)
	})
	builtin("isfinite", oids(ts), bo, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		t := a[0].(time.Time)
		return !t.Equal(types.TimestampInfinity) && !t.Equal(types.TimestampNegInfinity), nil
	})
	builtin("isfinite", oids(dt), bo, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		t := a[0].(time.Time)
		return !t.Equal(types.DateInfinity) && !t.Equal(types.DateNegInfinity), nil
	})
	builtin("make_date", oids(i4, i4, i4), dt, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return makeDate(a[0].(int64), a[1].(int64), a[2].(int64))
	})
	builtin("make_timestamp", oids(i4, i4, i4, i4, i4, f8), ts, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		d, err := makeDate(a[0].(int64), a[1].(int64), a[2].(int64))
		if err != nil {
			return nil, err
		}
		h, m, s := a[3].(int64), a[4].(int64), a[5].(float64)
		if h < 0 || m < 0 || m > 59 || s < 0 || s > 60 || h > 24 || (h == 24 && (m > 0 || s > 0)) || math.IsNaN(s) {
			return nil, pgerr.New(pgerr.DatetimeFieldOverflow, "time field value out of range: %d:%02d:%s", h, m, cfmtG02(s))
		}
		us := types.TimestampMicros(d.(time.Time)) + (h*3600+m*60)*1e6 + int64(math.RoundToEven(s*1e6))
		return types.MicrosToTimestamp(us), nil
	})
	builtin("pg_sleep", oids(f8), types.Void, sql.Volatile, func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		secs := a[0].(float64)
		if secs > 0 && !math.IsNaN(secs) {
			d := time.Duration(math.Min(secs, 1e9) * float64(time.Second))
			var done <-chan struct{}
			if x := env.(*evalCtx).x; x != nil && x.ctx != nil {
				done = x.ctx.Done()
			}
			timer := time.NewTimer(d)
			defer timer.Stop()
			select {
			case <-timer.C:
			case <-done:
				return nil, mapCtxErr(env.(*evalCtx).x.ctx, env.(*evalCtx).x.ctx.Err())
			}
		}
		return "", nil
	})
	days := func(t time.Time) (int64, bool) {
		if t.Equal(types.DateInfinity) || t.Equal(types.DateNegInfinity) {
			return 0, false
		}
		return int64(types.DateDays(t)), true
	}
	datePlus := func(t time.Time, n int64) (types.Datum, error) {
		d, ok := days(t)
		if !ok {
			return t, nil
		}
		r := d + n
		if r < minDateDays || r >= endDateDays {
			return nil, pgerr.New(pgerr.DatetimeValueOutOfRange, "date out of range")
		}
		return types.DaysToDate(int32(r)), nil
	}
	builtin("date_pli", oids(dt, i4), dt, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return datePlus(a[0].(time.Time), a[1].(int64))
	})
	builtin("integer_pl_date", oids(i4, dt), dt, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return datePlus(a[1].(time.Time), a[0].(int64))
	})
	builtin("date_mii", oids(dt, i4), dt, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return datePlus(a[0].(time.Time), -a[1].(int64))
	})
	builtin("date_mi", oids(dt, dt), i4, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		x, ok1 := days(a[0].(time.Time))
		y, ok2 := days(a[1].(time.Time))
		if !ok1 || !ok2 {
			return nil, pgerr.New(pgerr.DatetimeValueOutOfRange, "cannot subtract infinite dates")
		}
		return x - y, nil
	})
}

// The valid date range in days since 2000-01-01 (end exclusive).
const (
	minDateDays = -2451545
	endDateDays = 2145031949
)

// cfmtG02 formats s as C's %02g does.
func cfmtG02(s float64) string {
	out := fmt.Sprintf("%g", s)
	if len(out) < 2 {
		out = "0" + out
	}
	return out
}

// makeDate is make_date: a negative year is BC.
func makeDate(y, m, d int64) (types.Datum, error) {
	bad := func() error {
		return pgerr.New(pgerr.DatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", y, m, d)
	}
	if y == 0 || m < 1 || m > 12 || d < 1 {
		return nil, bad()
	}
	ay := y
	if y < 0 {
		ay = y + 1
	}
	t := time.Date(int(ay), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
	if int64(t.Day()) != d {
		return nil, bad()
	}
	days := int64(types.DateDays(t))
	if days < minDateDays || days >= endDateDays {
		return nil, pgerr.New(pgerr.DatetimeValueOutOfRange, "date out of range: %d-%02d-%02d", y, m, d)
	}
	return t, nil
}

// unitNames maps the spellings PostgreSQL's DecodeUnits accepts to one
// field name.
var unitNames = map[string]string{
	"microsecond": "microseconds", "microseconds": "microseconds", "us": "microseconds", "usec": "microseconds", "usecs": "microseconds", "useconds": "microseconds",
	"millisecond": "milliseconds", "milliseconds": "milliseconds", "ms": "milliseconds", "msec": "milliseconds", "msecs": "milliseconds", "mseconds": "milliseconds",
	"second": "second", "seconds": "second", "s": "second", "sec": "second", "secs": "second",
	"minute": "minute", "minutes": "minute", "m": "minute", "min": "minute", "mins": "minute",
	"hour": "hour", "hours": "hour", "h": "hour", "hr": "hour", "hrs": "hour",
	"day": "day", "days": "day", "d": "day",
	"week": "week", "weeks": "week", "w": "week",
	"month": "month", "months": "month", "mon": "month", "mons": "month",
	"quarter": "quarter", "qtr": "quarter",
	"year": "year", "years": "year", "y": "year", "yr": "year", "yrs": "year",
	"decade": "decade", "decades": "decade", "dec": "decade", "decs": "decade",
	"century": "century", "centuries": "century", "c": "century", "cent": "century",
	"millennium": "millennium", "millennia": "millennium", "mil": "millennium", "mils": "millennium", "millenniums": "millennium",
	"epoch": "epoch", "dow": "dow", "isodow": "isodow", "doy": "doy", "isoyear": "isoyear", "julian": "julian", "j": "julian",
	"timezone": "timezone", "timezone_h": "timezone_hour", "timezone_hour": "timezone_hour", "timezone_m": "timezone_minute", "timezone_minute": "timezone_minute",
}

const tsTypeName = "timestamp without time zone"

func errUnitUnknown(unit, typ string) error {
	return pgerr.New(pgerr.InvalidParameterValue, "unit \"%s\" not recognized for type %s", unit, typ)
}

func errUnitUnsupported(unit, typ string) error {
	return pgerr.New(pgerr.FeatureNotSupported, "unit \"%s\" not supported for type %s", unit, typ)
}

// dateTrunc is timestamp_trunc.
func dateTrunc(unit string, t time.Time) (types.Datum, error) {
	lu := strings.ToLower(unit)
	field, ok := unitNames[lu]
	if !ok {
		return nil, errUnitUnknown(lu, tsTypeName)
	}
	if t.Equal(types.TimestampInfinity) || t.Equal(types.TimestampNegInfinity) {
		return t, nil
	}
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	us := t.Nanosecond() / 1000
	switch field {
	case "millennium":
		if y > 0 {
			y = ((y+999)/1000)*1000 - 999
		} else {
			y = -((999-(y-1))/1000)*1000 + 1
		}
		mo, d, h, mi, s, us = 1, 1, 0, 0, 0, 0
	case "century":
		if y > 0 {
			y = ((y+99)/100)*100 - 99
		} else {
			y = -((99-(y-1))/100)*100 + 1
		}
		mo, d, h, mi, s, us = 1, 1, 0, 0, 0, 0
	case "decade":
		if y <= 0 {
			y = -((8 - (y - 1)) / 10) * 10
		} else {
			y = (y / 10) * 10
		}
		mo, d, h, mi, s, us = 1, 1, 0, 0, 0, 0
	case "year":
		mo, d, h, mi, s, us = 1, 1, 0, 0, 0, 0
	case "quarter":
		mo = 3*((mo-1)/3) + 1
		d, h, mi, s, us = 1, 0, 0, 0, 0
	case "month":
		d, h, mi, s, us = 1, 0, 0, 0, 0
	case "week":
		back := (int(t.Weekday()) + 6) % 7 // days since Monday
		t0 := time.Date(y, mo, d, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -back)
		return t0, nil
	case "day":
		h, mi, s, us = 0, 0, 0, 0
	case "hour":
		mi, s, us = 0, 0, 0
	case "minute":
		s, us = 0, 0
	case "second":
		us = 0
	case "milliseconds":
		us = (us / 1000) * 1000
	case "microseconds":
	default:
		return nil, errUnitUnknown(lu, tsTypeName)
	}
	return time.Date(y, mo, d, h, mi, s, us*1000, time.UTC), nil
}

// extract is extract (numeric, onDate: for a date) and date_part (float8,
// asFloat) over a timestamp.
func extract(unit string, t time.Time, onDate, asFloat bool) (types.Datum, error) {
	lu := strings.ToLower(unit)
	typ := tsTypeName
	if onDate {
		typ = "date"
	}
	field, ok := unitNames[lu]
	if !ok {
		return nil, errUnitUnknown(lu, typ)
	}
	switch field {
	case "timezone", "timezone_hour", "timezone_minute":
		return nil, errUnitUnsupported(lu, typ)
	case "microseconds", "milliseconds", "second", "minute", "hour":
		if onDate {
			return nil, errUnitUnsupported(lu, typ)
		}
	}
	inf, neg := false, false
	if onDate {
		inf, neg = t.Equal(types.DateInfinity) || t.Equal(types.DateNegInfinity), t.Equal(types.DateNegInfinity)
	} else {
		inf, neg = t.Equal(types.TimestampInfinity) || t.Equal(types.TimestampNegInfinity), t.Equal(types.TimestampNegInfinity)
	}
	if inf {
		switch field {
		case "epoch", "julian", "year", "isoyear", "decade", "century", "millennium":
			if asFloat {
				if neg {
					return math.Inf(-1), nil
				}
				return math.Inf(1), nil
			}
			return &apd.Decimal{Form: apd.Infinite, Negative: neg}, nil
		}
		return nil, nil
	}
	y := t.Year()
	usOfMinute := int64(t.Second())*1e6 + int64(t.Nanosecond()/1000)
	var num *apd.Decimal // integral fields set n instead
	var n int64
	switch field {
	case "microseconds":
		n = usOfMinute
	case "milliseconds":
		num = apd.New(usOfMinute, -3)
	case "second":
		num = apd.New(usOfMinute, -6)
	case "minute":
		n = int64(t.Minute())
	case "hour":
		n = int64(t.Hour())
	case "day":
		n = int64(t.Day())
	case "month":
		n = int64(t.Month())
	case "quarter":
		n = int64((t.Month()-1)/3 + 1)
	case "week":
		_, w := t.ISOWeek()
		n = int64(w)
	case "year":
		n = int64(y)
		if y <= 0 {
			n = int64(y) - 1
		}
	case "decade":
		if y >= 0 {
			n = int64(y / 10)
		} else {
			n = -int64((8 - (y - 1)) / 10)
		}
	case "century":
		if y > 0 {
			n = int64((y + 99) / 100)
		} else {
			n = -int64((99 - (y - 1)) / 100)
		}
	case "millennium":
		if y > 0 {
			n = int64((y + 999) / 1000)
		} else {
			n = -int64((999 - (y - 1)) / 1000)
		}
	case "dow":
		n = int64(t.Weekday())
	case "isodow":
		n = int64(t.Weekday())
		if n == 0 {
			n = 7
		}
	case "doy":
		n = int64(t.YearDay())
	case "isoyear":
		iy, _ := t.ISOWeek()
		n = int64(iy)
		if iy <= 0 {
			n--
		}
	case "epoch":
		us := types.TimestampMicros(t) + 946684800*1e6
		if onDate {
			n = floorDivInt(us, 1e6)
		} else {
			num = apd.New(us, -6)
		}
	case "julian":
		days := int64(types.DateDays(t)) + 2451545
		if onDate {
			n = days
		} else {
			usOfDay := types.TimestampMicros(t) - int64(types.DateDays(t))*86400e6
			frac, err := types.Arith('/', types.TNumeric, types.NumericFromInt64(usOfDay), types.NumericFromInt64(86400e6))
			if err != nil {
				return nil, err
			}
			sum, err := types.Arith('+', types.TNumeric, types.NumericFromInt64(days), frac)
			if err != nil {
				return nil, err
			}
			num = sum.(*apd.Decimal)
		}
	default:
		return nil, errUnitUnsupported(lu, typ)
	}
	if num == nil {
		num = types.NumericFromInt64(n)
	}
	if asFloat {
		f, _ := num.Float64()
		return f, nil
	}
	return num, nil
}

func floorDivInt(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

package executor

import (
	"math"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// The time and time with time zone side of PostgreSQL 15's section 9.9:
// the operators behind + and - (time_pl_interval, time_mi_time,
// datetime_pl, datetimetz_pl, ...), date_part/extract over time and
// timetz (time_part_common, timetz_part_common), make_time, and the
// functions behind CURRENT_TIME and LOCALTIME. Comparisons go through
// types.Compare; casts through types.Coerce.

const (
	tm  = types.Time
	ttz = types.TimeTZ
)

func init() {
	imm, stable := sql.Immutable, sql.Stable
	timeArg := func(d types.Datum) int64 { return int64(d.(types.TimeValue)) }
	tzArg := func(d types.Datum) types.TimeTZValue { return d.(types.TimeTZValue) }
	plus := func(t int64, v types.IntervalValue, sign int64) types.TimeValue {
		return types.TimeValue(types.TimePlusMicros(t, sign*v.Micros))
	}
	tzPlus := func(t types.TimeTZValue, v types.IntervalValue, sign int64) types.TimeTZValue {
		t.Micros = types.TimePlusMicros(t.Micros, sign*v.Micros)
		return t
	}
	builtin("time_mi_time", oids(tm, tm), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return types.IntervalValue{Micros: timeArg(a[0]) - timeArg(a[1])}, nil
	})
	builtin("time_pl_interval", oids(tm, iv), tm, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return plus(timeArg(a[0]), a[1].(types.IntervalValue), 1), nil
	})
	builtin("interval_pl_time", oids(iv, tm), tm, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return plus(timeArg(a[1]), a[0].(types.IntervalValue), 1), nil
	})
	builtin("time_mi_interval", oids(tm, iv), tm, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return plus(timeArg(a[0]), a[1].(types.IntervalValue), -1), nil
	})
	builtin("timetz_pl_interval", oids(ttz, iv), ttz, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return tzPlus(tzArg(a[0]), a[1].(types.IntervalValue), 1), nil
	})
	builtin("interval_pl_timetz", oids(iv, ttz), ttz, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return tzPlus(tzArg(a[1]), a[0].(types.IntervalValue), 1), nil
	})
	builtin("timetz_mi_interval", oids(ttz, iv), ttz, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return tzPlus(tzArg(a[0]), a[1].(types.IntervalValue), -1), nil
	})
	builtin("datetime_pl", oids(dt, tm), ts, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return dateTimeTimestamp(a[0].(time.Time), timeArg(a[1]))
	})
	builtin("timedate_pl", oids(tm, dt), ts, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return dateTimeTimestamp(a[1].(time.Time), timeArg(a[0]))
	})
	builtin("datetimetz_pl", oids(dt, ttz), tsz, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return dateTimeTZTimestampTZ(a[0].(time.Time), tzArg(a[1]))
	})
	builtin("timetzdate_pl", oids(ttz, dt), tsz, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return dateTimeTZTimestampTZ(a[1].(time.Time), tzArg(a[0]))
	})
	builtin("date_part", oids(tx, tm), f8, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return timePart(a[0].(string), timeArg(a[1]), nil, false)
	})
	builtin("extract", oids(tx, tm), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return timePart(a[0].(string), timeArg(a[1]), nil, true)
	})
	builtin("date_part", oids(tx, ttz), f8, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		v := tzArg(a[1])
		return timePart(a[0].(string), v.Micros, &v, false)
	})
	builtin("extract", oids(tx, ttz), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		v := tzArg(a[1])
		return timePart(a[0].(string), v.Micros, &v, true)
	})
	builtin("make_time", oids(i4, i4, f8), tm, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return makeTime(a[0].(int64), a[1].(int64), a[2].(float64))
	})
	// current_time and localtime are CURRENT_TIME's and LOCALTIME's
	// functions (pg_proc has none; the binder calls them for the
	// SQL-standard spellings only).
	builtin("current_time", nil, ttz, stable, func(env any, _ []types.Datum, _ *sql.Func) (types.Datum, error) {
		return types.LocalTimeTZ(session(env).txStart, env.(*evalCtx).loc()), nil
	})
	builtin("localtime", nil, tm, stable, func(env any, _ []types.Datum, _ *sql.Func) (types.Datum, error) {
		return types.TimeValue(types.LocalTimeTZ(session(env).txStart, env.(*evalCtx).loc()).Micros), nil
	})
}

// dateTimeTimestamp is datetime_timestamp (date + time).
func dateTimeTimestamp(d time.Time, us int64) (types.Datum, error) {
	switch {
	case d.Equal(types.DateInfinity):
		return types.TimestampInfinity, nil
	case d.Equal(types.DateNegInfinity):
		return types.TimestampNegInfinity, nil
	}
	days := int64(types.DateDays(d))
	if days >= endTimestampUS/86400e6 {
		return nil, pgerr.New(pgerr.DatetimeValueOutOfRange, "date out of range for timestamp")
	}
	r := days*86400e6 + us
	if !validTS(r) {
		return nil, errTimestampRange()
	}
	return types.MicrosToTimestamp(r), nil
}

// dateTimeTZTimestampTZ is datetimetz_timestamptz (date + timetz): the
// date's midnight plus the time, in the timetz's own zone.
func dateTimeTZTimestampTZ(d time.Time, v types.TimeTZValue) (types.Datum, error) {
	switch {
	case d.Equal(types.DateInfinity):
		return types.TimestampInfinity, nil
	case d.Equal(types.DateNegInfinity):
		return types.TimestampNegInfinity, nil
	}
	days := int64(types.DateDays(d))
	if days >= endTimestampUS/86400e6 {
		return nil, pgerr.New(pgerr.DatetimeValueOutOfRange, "date out of range for timestamp")
	}
	r := days*86400e6 + types.TimeTZToUTCMicros(v)
	if !validTS(r) {
		return nil, pgerr.New(pgerr.DatetimeValueOutOfRange, "date out of range for timestamp")
	}
	return types.MicrosToTimestamp(r), nil
}

// timePart is time_part_common (tz nil) and timetz_part_common: us is the
// local time of day; numeric selects extract's numeric result over
// date_part's float8.
func timePart(unit string, us int64, tz *types.TimeTZValue, numeric bool) (types.Datum, error) {
	lu := strings.ToLower(unit)
	typ := "time without time zone"
	if tz != nil {
		typ = "time with time zone"
	}
	field, ok := unitNames[lu]
	if !ok {
		return nil, errUnitUnknown(lu, typ)
	}
	secUS := us % 60e6 // seconds and microseconds of the minute
	var n int64
	switch field {
	case "microseconds":
		n = secUS
	case "milliseconds":
		if numeric {
			return apd.New(secUS, -3), nil
		}
		return float64(secUS/1e6)*1000.0 + float64(secUS%1e6)/1000.0, nil
	case "second":
		if numeric {
			return apd.New(secUS, -6), nil
		}
		return float64(secUS/1e6) + float64(secUS%1e6)/1e6, nil
	case "minute":
		n = us / 60e6 % 60
	case "hour":
		n = us / 3600e6
	case "epoch":
		if tz != nil {
			if numeric {
				return apd.New(types.TimeTZToUTCMicros(*tz), -6), nil
			}
			return float64(tz.Micros)/1e6 + float64(tz.Zone), nil
		}
		if numeric {
			return apd.New(us, -6), nil
		}
		return float64(us) / 1e6, nil
	case "timezone", "timezone_hour", "timezone_minute":
		if tz == nil {
			return nil, errUnitUnsupported(lu, typ)
		}
		east := -int64(tz.Zone)
		switch field {
		case "timezone":
			n = east
		case "timezone_hour":
			n = east / 3600
		default:
			n = east / 60 % 60
		}
	default:
		return nil, errUnitUnsupported(lu, typ)
	}
	if numeric {
		return types.NumericFromInt64(n), nil
	}
	return float64(n), nil
}

// makeTime is make_time(hour, min, sec).
func makeTime(h, m int64, s float64) (types.Datum, error) {
	if h < 0 || h > 24 || m < 0 || m >= 60 || math.IsNaN(s) || s < 0 || s > 60 ||
		h*3600e6+m*60e6+int64(math.RoundToEven(s*1e6)) > 86400e6 {
		return nil, pgerr.New(pgerr.DatetimeFieldOverflow, "time field value out of range: %d:%02d:%s", h, m, cfmtG02(s))
	}
	return types.TimeValue(h*3600e6 + m*60e6 + int64(math.RoundToEven(s*1e6))), nil
}

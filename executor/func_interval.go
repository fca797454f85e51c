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

// The interval and timestamp with time zone side of PostgreSQL 15's
// section 9.9: the operators behind + - * / on date/time types
// (timestamp_pl_interval, timestamp_mi, interval_mul, ...), age,
// date_trunc and date_part/extract over interval and timestamptz,
// justify_*, make_interval, make_timestamptz, to_timestamp(double),
// isfinite. Calendar steps of a timestamptz (months, days, truncation to a
// day or more) are taken in the session's TimeZone, as PostgreSQL takes
// them in session_timezone.

const (
	iv  = types.Interval
	tsz = types.TimestampTZ
)

func errTimestampRange() error {
	return pgerr.New(pgerr.DatetimeValueOutOfRange, "timestamp out of range")
}

func isFiniteTS(t time.Time) bool {
	return !t.Equal(types.TimestampInfinity) && !t.Equal(types.TimestampNegInfinity)
}

// Valid timestamp range in microseconds (MIN_TIMESTAMP, END_TIMESTAMP).
const (
	minTimestampUS int64 = -211813488000000000
	endTimestampUS int64 = 9223371331200000000
)

func validTS(us int64) bool { return us >= minTimestampUS && us < endTimestampUS }

// splitLocal splits microseconds since 2000-01-01 into a civil date and the
// microseconds of its day.
func splitLocal(us int64) (y int, m time.Month, d int, tod int64) {
	days := floorDivInt(us, 86400e6)
	tod = us - days*86400e6
	y, m, d = types.DaysToDate(int32(days)).Date()
	return
}

func joinLocal(y int, m time.Month, d int, tod int64) int64 {
	days := int64(types.DateDays(time.Date(y, m, d, 0, 0, 0, 0, time.UTC)))
	return days*86400e6 + tod
}

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// addMonthsDays is the calendar part of timestamp_pl_interval on a local
// time: months keep the day of month (clamped to the month's end), then
// days are added.
func addMonthsDays(local int64, months, days int32) (int64, error) {
	if months != 0 {
		if !validTS(local) {
			return 0, errTimestampRange()
		}
		y, m, d, tod := splitLocal(local)
		mon := int64(m) + int64(months)
		yy := int64(y)
		if mon > 12 {
			yy += (mon - 1) / 12
			mon = (mon-1)%12 + 1
		} else if mon < 1 {
			yy += mon/12 - 1
			mon = mon%12 + 12
		}
		if yy > 300000 || yy < -5000 {
			return 0, errTimestampRange()
		}
		if dm := daysIn(int(yy), time.Month(mon)); d > dm {
			d = dm
		}
		local = joinLocal(int(yy), time.Month(mon), d, tod)
		if !validTS(local) {
			return 0, errTimestampRange()
		}
	}
	if days != 0 {
		if !validTS(local) {
			return 0, errTimestampRange()
		}
		local += int64(days) * 86400e6
		if !validTS(local) {
			return 0, errTimestampRange()
		}
	}
	return local, nil
}

// timestampPlInterval is timestamp_pl_interval; loc nil means timestamp
// without time zone, else the zone the calendar steps are taken in.
func timestampPlInterval(t time.Time, v types.IntervalValue, loc *time.Location) (types.Datum, error) {
	if !isFiniteTS(t) {
		return t, nil
	}
	us := types.TimestampMicros(t)
	if v.Months != 0 || v.Days != 0 {
		if loc == nil {
			r, err := addMonthsDays(us, v.Months, v.Days)
			if err != nil {
				return nil, err
			}
			us = r
		} else {
			local, _ := types.UTCToLocal(us, loc)
			if v.Months != 0 {
				r, err := addMonthsDays(local, v.Months, 0)
				if err != nil {
					return nil, err
				}
				local = r
				us = types.LocalToUTC(local, loc)
			}
			if v.Days != 0 {
				local, _ = types.UTCToLocal(us, loc)
				r, err := addMonthsDays(local, 0, v.Days)
				if err != nil {
					return nil, err
				}
				us = types.LocalToUTC(r, loc)
			}
		}
	}
	r := us + v.Micros
	if (v.Micros > 0 && r < us) || (v.Micros < 0 && r > us) || !validTS(r) {
		return nil, errTimestampRange()
	}
	return types.MicrosToTimestamp(r), nil
}

func negInterval(v types.IntervalValue) (types.IntervalValue, error) {
	if v.Months == math.MinInt32 || v.Days == math.MinInt32 || v.Micros == math.MinInt64 {
		return v, types.ErrIntervalOutOfRange()
	}
	return types.IntervalValue{Months: -v.Months, Days: -v.Days, Micros: -v.Micros}, nil
}

func addInterval(a, b types.IntervalValue, sign int64) (types.Datum, error) {
	m := int64(a.Months) + sign*int64(b.Months)
	d := int64(a.Days) + sign*int64(b.Days)
	us := a.Micros + sign*b.Micros
	if sign > 0 && ((b.Micros > 0 && us < a.Micros) || (b.Micros < 0 && us > a.Micros)) ||
		sign < 0 && ((b.Micros < 0 && us < a.Micros) || (b.Micros > 0 && us > a.Micros)) ||
		m < math.MinInt32 || m > math.MaxInt32 || d < math.MinInt32 || d > math.MaxInt32 {
		return nil, types.ErrIntervalOutOfRange()
	}
	return types.IntervalValue{Months: int32(m), Days: int32(d), Micros: us}, nil
}

// justifyHours is interval_justify_hours.
func justifyHours(v types.IntervalValue) (types.IntervalValue, error) {
	whole := v.Micros / types.USecsPerDay
	v.Micros -= whole * types.USecsPerDay
	d := int64(v.Days) + whole
	if d < math.MinInt32 || d > math.MaxInt32 {
		return v, types.ErrIntervalOutOfRange()
	}
	v.Days = int32(d)
	if v.Days > 0 && v.Micros < 0 {
		v.Micros += types.USecsPerDay
		v.Days--
	} else if v.Days < 0 && v.Micros > 0 {
		v.Micros -= types.USecsPerDay
		v.Days++
	}
	return v, nil
}

func addMonthsOK(v *types.IntervalValue, whole int32) error {
	m := int64(v.Months) + int64(whole)
	if m < math.MinInt32 || m > math.MaxInt32 {
		return types.ErrIntervalOutOfRange()
	}
	v.Months = int32(m)
	return nil
}

// justifyDays is interval_justify_days.
func justifyDays(v types.IntervalValue) (types.IntervalValue, error) {
	whole := v.Days / types.DaysPerMonth
	v.Days -= whole * types.DaysPerMonth
	if err := addMonthsOK(&v, whole); err != nil {
		return v, err
	}
	if v.Months > 0 && v.Days < 0 {
		v.Days += types.DaysPerMonth
		v.Months--
	} else if v.Months < 0 && v.Days > 0 {
		v.Days -= types.DaysPerMonth
		v.Months++
	}
	return v, nil
}

// justifyInterval is interval_justify_interval.
func justifyInterval(v types.IntervalValue) (types.IntervalValue, error) {
	if (v.Days > 0 && v.Micros > 0) || (v.Days < 0 && v.Micros < 0) {
		whole := v.Days / types.DaysPerMonth
		v.Days -= whole * types.DaysPerMonth
		if err := addMonthsOK(&v, whole); err != nil {
			return v, err
		}
	}
	wholeDay := v.Micros / types.USecsPerDay
	v.Micros -= wholeDay * types.USecsPerDay
	d := int64(v.Days) + wholeDay
	if d < math.MinInt32 || d > math.MaxInt32 {
		return v, types.ErrIntervalOutOfRange()
	}
	v.Days = int32(d)
	whole := v.Days / types.DaysPerMonth
	v.Days -= whole * types.DaysPerMonth
	if err := addMonthsOK(&v, whole); err != nil {
		return v, err
	}
	if v.Months > 0 && (v.Days < 0 || (v.Days == 0 && v.Micros < 0)) {
		v.Days += types.DaysPerMonth
		v.Months--
	} else if v.Months < 0 && (v.Days > 0 || (v.Days == 0 && v.Micros > 0)) {
		v.Days -= types.DaysPerMonth
		v.Months++
	}
	if v.Days > 0 && v.Micros < 0 {
		v.Micros += types.USecsPerDay
		v.Days--
	} else if v.Days < 0 && v.Micros > 0 {
		v.Micros -= types.USecsPerDay
		v.Days++
	}
	return v, nil
}

// timestampMi is timestamp_mi (also timestamptz_mi): the difference in
// microseconds, whole days moved out by justify_hours.
func timestampMi(a, b time.Time) (types.Datum, error) {
	if !isFiniteTS(a) || !isFiniteTS(b) {
		return nil, pgerr.New(pgerr.DatetimeValueOutOfRange, "cannot subtract infinite timestamps")
	}
	x, y := types.TimestampMicros(a), types.TimestampMicros(b)
	d := x - y
	if (y < 0 && d < x) || (y > 0 && d > x) {
		return nil, types.ErrIntervalOutOfRange()
	}
	return justifyHours(types.IntervalValue{Micros: d})
}

func fitsInt32(f float64) bool {
	return !math.IsNaN(f) && f >= math.MinInt32 && f < -float64(math.MinInt32)
}
func fitsInt64(f float64) bool {
	return !math.IsNaN(f) && f >= math.MinInt64 && f < -float64(math.MinInt64)
}

func tsRound(f float64) float64 { return math.RoundToEven(f*1e6) / 1e6 }

// intervalMul is interval_mul (div: interval_div, factor is the divisor).
func intervalMul(v types.IntervalValue, factor float64, div bool) (types.Datum, error) {
	scale := func(x float64) float64 {
		if div {
			return x / factor
		}
		return x * factor
	}
	if div && factor == 0 {
		return nil, pgerr.New(pgerr.DivisionByZero, "division by zero")
	}
	mf := scale(float64(v.Months))
	if !fitsInt32(mf) {
		return nil, types.ErrIntervalOutOfRange()
	}
	df := scale(float64(v.Days))
	if !fitsInt32(df) {
		return nil, types.ErrIntervalOutOfRange()
	}
	r := types.IntervalValue{Months: int32(mf), Days: int32(df)}
	monthRem := tsRound((mf - float64(r.Months)) * types.DaysPerMonth)
	secRem := tsRound((df - float64(r.Days) + monthRem - float64(int32(monthRem))) * 86400)
	if math.Abs(secRem) >= 86400 {
		whole := int64(secRem / 86400)
		d := int64(r.Days) + whole
		if d < math.MinInt32 || d > math.MaxInt32 {
			return nil, types.ErrIntervalOutOfRange()
		}
		r.Days = int32(d)
		secRem -= float64(whole * 86400)
	}
	d := int64(r.Days) + int64(int32(monthRem))
	if d < math.MinInt32 || d > math.MaxInt32 {
		return nil, types.ErrIntervalOutOfRange()
	}
	r.Days = int32(d)
	tf := math.RoundToEven(scale(float64(v.Micros)) + secRem*1e6)
	if !fitsInt64(tf) {
		return nil, types.ErrIntervalOutOfRange()
	}
	r.Micros = int64(tf)
	return r, nil
}

// localFields is a timestamp's wall clock: for timestamptz in loc.
func localTime(t time.Time, loc *time.Location) (time.Time, int) {
	if loc == nil {
		return t, 0
	}
	l, off := types.UTCToLocal(types.TimestampMicros(t), loc)
	return types.MicrosToTimestamp(l), off
}

// timestampAge is timestamp_age / timestamptz_age (loc non-nil).
func timestampAge(a, b time.Time, loc *time.Location) (types.Datum, error) {
	if !isFiniteTS(a) || !isFiniteTS(b) {
		return nil, errTimestampRange()
	}
	t1, _ := localTime(a, loc)
	t2, _ := localTime(b, loc)
	us1, us2 := types.TimestampMicros(t1), types.TimestampMicros(t2)
	y1, m1, d1, tod1 := splitLocal(us1)
	y2, m2, d2, tod2 := splitLocal(us2)
	fsec := tod1%1e6 - tod2%1e6
	sec := (tod1/1e6)%60 - (tod2/1e6)%60
	min := (tod1/60e6)%60 - (tod2/60e6)%60
	hour := tod1/3600e6 - tod2/3600e6
	mday := int64(d1 - d2)
	mon := int64(m1 - m2)
	year := int64(y1 - y2)
	before := types.TimestampMicros(a) < types.TimestampMicros(b)
	if before {
		fsec, sec, min, hour, mday, mon, year = -fsec, -sec, -min, -hour, -mday, -mon, -year
	}
	for fsec < 0 {
		fsec += 1e6
		sec--
	}
	for sec < 0 {
		sec += 60
		min--
	}
	for min < 0 {
		min += 60
		hour--
	}
	for hour < 0 {
		hour += 24
		mday--
	}
	for mday < 0 {
		if before {
			mday += int64(daysIn(y1, m1))
		} else {
			mday += int64(daysIn(y2, m2))
		}
		mon--
	}
	for mon < 0 {
		mon += 12
		year--
	}
	if before {
		fsec, sec, min, hour, mday, mon, year = -fsec, -sec, -min, -hour, -mday, -mon, -year
	}
	months := year*12 + mon
	if months < math.MinInt32 || months > math.MaxInt32 {
		return nil, types.ErrIntervalOutOfRange()
	}
	return types.IntervalValue{Months: int32(months), Days: int32(mday), Micros: ((hour*60+min)*60+sec)*1e6 + fsec}, nil
}

// intervalUnit resolves a unit name as DecodeUnits does for interval.
func intervalUnit(unit string) (field string, ok bool) {
	f, ok := unitNames[strings.ToLower(unit)]
	return f, ok
}

// intervalTrunc is interval_trunc.
func intervalTrunc(unit string, v types.IntervalValue) (types.Datum, error) {
	lu := strings.ToLower(unit)
	field, ok := intervalUnit(lu)
	switch field {
	case "epoch", "dow", "isodow", "doy", "isoyear", "julian", "timezone", "timezone_hour", "timezone_minute":
		ok = false
	}
	if !ok {
		return nil, errUnitUnknown(lu, "interval")
	}
	year, mon := int64(v.Months/12), int64(v.Months%12)
	mday := int64(v.Days)
	t := v.Micros
	hour := t / types.USecsPerHour
	t -= hour * types.USecsPerHour
	min := t / types.USecsPerMin
	t -= min * types.USecsPerMin
	sec := t / types.USecsPerSec
	us := t - sec*types.USecsPerSec
	level := map[string]int{"millennium": 0, "century": 1, "decade": 2, "year": 3, "quarter": 4, "month": 5, "day": 6, "hour": 7, "minute": 8, "second": 9}
	switch field {
	case "milliseconds":
		us = us / 1000 * 1000
	case "microseconds":
	default:
		lv, ok := level[field]
		if !ok {
			e := errUnitUnsupported(lu, "interval")
			if field == "week" {
				e.(*pgerr.Error).WithDetail("Months usually have fractional weeks.")
			}
			return nil, e
		}
		if lv <= 0 {
			year = year / 1000 * 1000
		}
		if lv <= 1 {
			year = year / 100 * 100
		}
		if lv <= 2 {
			year = year / 10 * 10
		}
		if lv <= 3 {
			mon = 0
		}
		if lv <= 4 {
			mon = 3 * (mon / 3)
		}
		if lv <= 5 {
			mday = 0
		}
		if lv <= 6 {
			hour = 0
		}
		if lv <= 7 {
			min = 0
		}
		if lv <= 8 {
			sec = 0
		}
		us = 0
	}
	return types.IntervalValue{Months: int32(year*12 + mon), Days: int32(mday), Micros: ((hour*60+min)*60+sec)*1e6 + us}, nil
}

// intervalPart is interval_part (float8) and extract over an interval
// (numeric).
func intervalPart(unit string, v types.IntervalValue, asFloat bool) (types.Datum, error) {
	lu := strings.ToLower(unit)
	field, ok := intervalUnit(lu)
	if !ok {
		return nil, errUnitUnknown(lu, "interval")
	}
	year, mon := int64(v.Months/12), int64(v.Months%12)
	t := v.Micros
	hour := t / types.USecsPerHour
	t -= hour * types.USecsPerHour
	min := t / types.USecsPerMin
	t -= min * types.USecsPerMin
	sec := t / types.USecsPerSec
	us := t - sec*types.USecsPerSec
	var n int64
	var num *apd.Decimal
	var f float64
	isF := false
	switch field {
	case "microseconds":
		n = sec*1e6 + us
	case "milliseconds":
		num, f, isF = apd.New(sec*1e6+us, -3), float64(sec)*1000+float64(us)/1000, true
	case "second":
		num, f, isF = apd.New(sec*1e6+us, -6), float64(sec)+float64(us)/1e6, true
	case "minute":
		n = min
	case "hour":
		n = hour
	case "day":
		n = int64(v.Days)
	case "month":
		n = mon
	case "quarter":
		n = mon/3 + 1
	case "year":
		n = year
	case "decade":
		n = year / 10
	case "century":
		n = year / 100
	case "millennium":
		n = year / 1000
	case "epoch":
		f = float64(v.Micros)/1e6 + 365.25*86400*float64(v.Months/12) + 30.0*86400*float64(v.Months%12) + 86400.0*float64(v.Days)
		secs := (int64(4*365.25)*int64(v.Months/12) + 4*30*int64(v.Months%12) + 4*int64(v.Days)) * (86400 / 4)
		a := types.NumericFromInt64(secs)
		b := apd.New(v.Micros, -6)
		sum := new(apd.Decimal)
		if _, err := apd.BaseContext.WithPrecision(40).Add(sum, a, b); err != nil {
			return nil, err
		}
		if sum.Exponent > -6 {
			q := new(apd.Decimal)
			_, _ = apd.BaseContext.WithPrecision(40).Quantize(q, sum, -6)
			sum = q
		}
		num, isF = sum, true
	default:
		return nil, errUnitUnsupported(lu, "interval")
	}
	if asFloat {
		if isF {
			return f, nil
		}
		return float64(n), nil
	}
	if num == nil {
		num = types.NumericFromInt64(n)
	}
	return num, nil
}

// makeInterval is make_interval.
func makeInterval(a []types.Datum) (types.Datum, error) {
	var p [6]int64
	secs := 0.0
	for i, x := range a {
		if i < 6 {
			p[i] = x.(int64)
		} else {
			secs = x.(float64)
		}
	}
	if math.IsInf(secs, 0) || math.IsNaN(secs) {
		return nil, types.ErrIntervalOutOfRange()
	}
	months := p[0]*12 + p[1]
	days := p[2]*7 + p[3]
	if months < math.MinInt32 || months > math.MaxInt32 || days < math.MinInt32 || days > math.MaxInt32 {
		return nil, types.ErrIntervalOutOfRange()
	}
	s := math.RoundToEven(secs * 1e6)
	if !fitsInt64(s) {
		return nil, types.ErrIntervalOutOfRange()
	}
	us := p[4]*types.USecsPerHour + p[5]*types.USecsPerMin
	r := us + int64(s)
	if (s > 0 && r < us) || (s < 0 && r > us) {
		return nil, types.ErrIntervalOutOfRange()
	}
	return types.IntervalValue{Months: int32(months), Days: int32(days), Micros: r}, nil
}

// timestamptzTrunc is timestamptz_trunc: truncation on the local time;
// for a day or more the offset is determined again for the result.
func timestamptzTrunc(unit string, t time.Time, loc *time.Location) (types.Datum, error) {
	lu := strings.ToLower(unit)
	if f, ok := unitNames[lu]; !ok || f == "epoch" || f == "dow" || f == "isodow" || f == "doy" || f == "isoyear" || f == "julian" || strings.HasPrefix(f, "timezone") {
		if ok {
			return nil, errUnitUnsupported(lu, "timestamp with time zone")
		}
		return nil, errUnitUnknown(lu, "timestamp with time zone")
	}
	if !isFiniteTS(t) {
		return t, nil
	}
	lt, off := localTime(t, loc)
	r, err := dateTrunc(lu, lt)
	if err != nil {
		return nil, err
	}
	local := types.TimestampMicros(r.(time.Time))
	switch unitNames[lu] {
	case "hour", "minute", "second", "milliseconds", "microseconds":
		return types.MicrosToTimestamp(local - int64(off)*1e6), nil
	}
	return types.MicrosToTimestamp(types.LocalToUTC(local, loc)), nil
}

// extractTZ is extract/date_part over a timestamptz: the fields of the
// local time, the epoch of the instant, and the zone's offset.
func extractTZ(unit string, t time.Time, loc *time.Location, asFloat bool) (types.Datum, error) {
	lu := strings.ToLower(unit)
	field, ok := unitNames[lu]
	if !ok {
		return nil, errUnitUnknown(lu, "timestamp with time zone")
	}
	if isFiniteTS(t) {
		_, off := localTime(t, loc)
		var n int64
		switch field {
		case "timezone":
			n = int64(off)
		case "timezone_hour":
			n = int64(off / 3600)
		case "timezone_minute":
			n = int64(off / 60 % 60)
		case "epoch":
			return extract(lu, t, false, asFloat)
		default:
			lt, _ := localTime(t, loc)
			return extract(lu, lt, false, asFloat)
		}
		if asFloat {
			return float64(n), nil
		}
		return types.NumericFromInt64(n), nil
	}
	if strings.HasPrefix(field, "timezone") {
		return nil, nil
	}
	return extract(lu, t, false, asFloat)
}

func init() {
	imm := sql.Immutable
	stable := sql.Stable
	// Operators.
	builtin("interval_um", oids(iv), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return negInterval(a[0].(types.IntervalValue))
	})
	builtin("interval_pl", oids(iv, iv), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return addInterval(a[0].(types.IntervalValue), a[1].(types.IntervalValue), 1)
	})
	builtin("interval_mi", oids(iv, iv), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return addInterval(a[0].(types.IntervalValue), a[1].(types.IntervalValue), -1)
	})
	builtin("interval_mul", oids(iv, f8), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return intervalMul(a[0].(types.IntervalValue), a[1].(float64), false)
	})
	builtin("mul_d_interval", oids(f8, iv), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return intervalMul(a[1].(types.IntervalValue), a[0].(float64), false)
	})
	builtin("interval_div", oids(iv, f8), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return intervalMul(a[0].(types.IntervalValue), a[1].(float64), true)
	})
	tsPl := func(sign int, tz bool, ivFirst bool) sql.BuiltinFn {
		return func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			t, v := a[0], a[1]
			if ivFirst {
				t, v = v, t
			}
			span := v.(types.IntervalValue)
			if sign < 0 {
				var err error
				if span, err = negInterval(span); err != nil {
					return nil, err
				}
			}
			var loc *time.Location
			if tz {
				loc = env.(*evalCtx).loc()
			}
			return timestampPlInterval(t.(time.Time), span, loc)
		}
	}
	builtin("timestamp_pl_interval", oids(ts, iv), ts, imm, tsPl(1, false, false))
	builtin("interval_pl_timestamp", oids(iv, ts), ts, imm, tsPl(1, false, true))
	builtin("timestamp_mi_interval", oids(ts, iv), ts, imm, tsPl(-1, false, false))
	builtin("timestamptz_pl_interval", oids(tsz, iv), tsz, stable, tsPl(1, true, false))
	builtin("interval_pl_timestamptz", oids(iv, tsz), tsz, stable, tsPl(1, true, true))
	builtin("timestamptz_mi_interval", oids(tsz, iv), tsz, stable, tsPl(-1, true, false))
	// date +/- interval is timestamp: the date is cast first.
	datePl := func(sign int, ivFirst bool) sql.BuiltinFn {
		inner := tsPl(sign, false, ivFirst)
		return func(env any, a []types.Datum, f *sql.Func) (types.Datum, error) {
			i := 0
			if ivFirst {
				i = 1
			}
			b := append([]types.Datum(nil), a...)
			d, err := types.Coerce(a[i], types.TDate, types.TTimestamp, false)
			if err != nil {
				return nil, err
			}
			b[i] = d
			return inner(env, b, f)
		}
	}
	builtin("date_pl_interval", oids(dt, iv), ts, imm, datePl(1, false))
	builtin("interval_pl_date", oids(iv, dt), ts, imm, datePl(1, true))
	builtin("date_mi_interval", oids(dt, iv), ts, imm, datePl(-1, false))
	builtin("timestamp_mi", oids(ts, ts), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return timestampMi(a[0].(time.Time), a[1].(time.Time))
	})
	builtin("timestamptz_mi", oids(tsz, tsz), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return timestampMi(a[0].(time.Time), a[1].(time.Time))
	})

	// Functions.
	builtin("age", oids(ts, ts), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return timestampAge(a[0].(time.Time), a[1].(time.Time), nil)
	})
	builtin("age", oids(tsz, tsz), iv, stable, func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return timestampAge(a[0].(time.Time), a[1].(time.Time), env.(*evalCtx).loc())
	})
	builtin("age", oids(ts), iv, stable, func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		today := currentDate(env)
		return timestampAge(today, a[0].(time.Time), nil)
	})
	builtin("age", oids(tsz), iv, stable, func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		loc := env.(*evalCtx).loc()
		today, err := types.TimestampToTZ(currentDate(env), loc)
		if err != nil {
			return nil, err
		}
		return timestampAge(today, a[0].(time.Time), loc)
	})
	builtin("date_trunc", oids(tx, iv), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return intervalTrunc(a[0].(string), a[1].(types.IntervalValue))
	})
	builtin("date_trunc", oids(tx, tsz), tsz, stable, func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return timestamptzTrunc(a[0].(string), a[1].(time.Time), env.(*evalCtx).loc())
	})
	builtin("date_trunc", oids(tx, tsz, tx), tsz, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		loc, _, ok := types.LoadZone(a[2].(string))
		if !ok {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" not recognized", a[2].(string))
		}
		return timestamptzTrunc(a[0].(string), a[1].(time.Time), loc)
	})
	builtin("date_part", oids(tx, iv), f8, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return intervalPart(a[0].(string), a[1].(types.IntervalValue), true)
	})
	builtin("extract", oids(tx, iv), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return intervalPart(a[0].(string), a[1].(types.IntervalValue), false)
	})
	builtin("date_part", oids(tx, tsz), f8, stable, func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return extractTZ(a[0].(string), a[1].(time.Time), env.(*evalCtx).loc(), true)
	})
	builtin("extract", oids(tx, tsz), nu, stable, func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return extractTZ(a[0].(string), a[1].(time.Time), env.(*evalCtx).loc(), false)
	})
	builtin("justify_days", oids(iv), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return justifyDays(a[0].(types.IntervalValue))
	})
	builtin("justify_hours", oids(iv), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return justifyHours(a[0].(types.IntervalValue))
	})
	builtin("justify_interval", oids(iv), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return justifyInterval(a[0].(types.IntervalValue))
	})
	// make_interval(years, months, weeks, days, hours, mins int, secs
	// double precision), every parameter defaulting to 0: one overload per
	// number of leading arguments given.
	mk := []types.OID{i4, i4, i4, i4, i4, i4, f8}
	for n := 0; n <= len(mk); n++ {
		builtin("make_interval", append([]types.OID(nil), mk[:n]...), iv, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			return makeInterval(a)
		})
	}
	builtin("isfinite", oids(iv), bo, imm, func(_ any, _ []types.Datum, _ *sql.Func) (types.Datum, error) {
		return true, nil
	})
	builtin("isfinite", oids(tsz), bo, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return isFiniteTS(a[0].(time.Time)), nil
	})
	mkTS := func(env any, a []types.Datum, zone *time.Location) (types.Datum, error) {
		d, err := makeDate(a[0].(int64), a[1].(int64), a[2].(int64))
		if err != nil {
			return nil, err
		}
		h, m, s := a[3].(int64), a[4].(int64), a[5].(float64)
		if h < 0 || m < 0 || m > 59 || s < 0 || s > 60 || h > 24 || (h == 24 && (m > 0 || s > 0)) || math.IsNaN(s) {
			return nil, pgerr.New(pgerr.DatetimeFieldOverflow, "time field value out of range: %d:%02d:%s", h, m, cfmtG02(s))
		}
		local := types.TimestampMicros(d.(time.Time)) + (h*3600+m*60)*1e6 + int64(math.RoundToEven(s*1e6))
		if !validTS(local) {
			return nil, errTimestampRange()
		}
		if zone == nil {
			zone = env.(*evalCtx).loc()
		}
		return types.MicrosToTimestamp(types.LocalToUTC(local, zone)), nil
	}
	builtin("make_timestamptz", oids(i4, i4, i4, i4, i4, f8), tsz, stable, func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return mkTS(env, a, nil)
	})
	builtin("make_timestamptz", oids(i4, i4, i4, i4, i4, f8, tx), tsz, stable, func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		loc, ok := zoneArg(a[6].(string))
		if !ok {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" not recognized", a[6].(string))
		}
		return mkTS(env, a, loc)
	})
	builtin("to_timestamp", oids(f8), tsz, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return floatToTimestamp(a[0].(float64))
	})
	builtin("localtimestamp", nil, ts, stable, func(env any, _ []types.Datum, _ *sql.Func) (types.Datum, error) {
		lt, _ := localTime(session(env).txStart, env.(*evalCtx).loc())
		return lt, nil
	})
}

// zoneArg resolves a zone argument: a tz name, an abbreviation or a
// numeric offset such as +05 or -03:30 (ISO sign: east positive).
func zoneArg(s string) (*time.Location, bool) {
	if loc, _, ok := types.LoadZone(s); ok {
		return loc, true
	}
	if v, err := types.ParseText(types.TTimestampTZ, "2000-01-01 00:00 "+s); err == nil {
		off := -int(types.TimestampMicros(v.(time.Time)) / 1e6)
		return time.FixedZone(s, off), true
	}
	return nil, false
}

// currentDate is CURRENT_DATE as a timestamp (midnight, local date of the
// transaction start in the session's TimeZone).
func currentDate(env any) time.Time {
	lt, _ := localTime(session(env).txStart, env.(*evalCtx).loc())
	y, m, d := lt.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// floatToTimestamp is to_timestamp(double precision): Unix seconds.
func floatToTimestamp(s float64) (types.Datum, error) {
	if math.IsNaN(s) {
		return nil, pgerr.New(pgerr.DatetimeValueOutOfRange, "timestamp cannot be NaN")
	}
	if math.IsInf(s, 1) {
		return types.TimestampInfinity, nil
	}
	if math.IsInf(s, -1) {
		return types.TimestampNegInfinity, nil
	}
	const minSec = -210866803200.0 // 4714-11-24 BC in Unix seconds
	const endSec = 9224318016000.0 // 294277-01-01 in Unix seconds
	if s < minSec || s >= endSec {
		return nil, pgerr.New(pgerr.DatetimeValueOutOfRange, "timestamp out of range: \"%s\"", cfmtG(s))
	}
	us := math.RoundToEven((s - 946684800) * 1e6)
	if !validTS(int64(us)) {
		return nil, pgerr.New(pgerr.DatetimeValueOutOfRange, "timestamp out of range: \"%s\"", cfmtG(s))
	}
	return types.MicrosToTimestamp(int64(us)), nil
}

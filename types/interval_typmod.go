package types

import (
	"strconv"

	"minipg/pgerr"
)

// Interval typmods, as PostgreSQL encodes them: the field range (a mask of
// the datetime.h field numbers YEAR, MONTH, DAY, HOUR, MINUTE, SECOND) in
// the high 16 bits, the fractional-second precision (0..6, 0xFFFF for none)
// in the low 16. The grammar hands the range as the first modifier and the
// precision as the second: INTERVAL(3) is [IntervalFullRange, 3], INTERVAL
// DAY TO SECOND(2) is [DAY|HOUR|MINUTE|SECOND, 2].
const (
	IntervalMaskMonth  = 1 << 1
	IntervalMaskYear   = 1 << 2
	IntervalMaskDay    = 1 << 3
	IntervalMaskHour   = 1 << 10
	IntervalMaskMinute = 1 << 11
	IntervalMaskSecond = 1 << 12
	// IntervalFullRange is INTERVAL_FULL_RANGE: every field.
	IntervalFullRange = 0x7FFF
	// IntervalFullPrecision is INTERVAL_FULL_PRECISION: no rounding.
	IntervalFullPrecision = 0xFFFF
	// MaxIntervalPrecision is MAX_INTERVAL_PRECISION.
	MaxIntervalPrecision = 6
)

// intervalRanges are the field ranges the grammar can produce, with the
// words intervaltypmodout prints for them.
var intervalRanges = map[int32]string{
	IntervalMaskYear:                     " year",
	IntervalMaskMonth:                    " month",
	IntervalMaskDay:                      " day",
	IntervalMaskHour:                     " hour",
	IntervalMaskMinute:                   " minute",
	IntervalMaskSecond:                   " second",
	IntervalMaskYear | IntervalMaskMonth: " year to month",
	IntervalMaskDay | IntervalMaskHour:   " day to hour",
	IntervalMaskDay | IntervalMaskHour | IntervalMaskMinute:                      " day to minute",
	IntervalMaskDay | IntervalMaskHour | IntervalMaskMinute | IntervalMaskSecond: " day to second",
	IntervalMaskHour | IntervalMaskMinute:                                        " hour to minute",
	IntervalMaskHour | IntervalMaskMinute | IntervalMaskSecond:                   " hour to second",
	IntervalMaskMinute | IntervalMaskSecond:                                      " minute to second",
	IntervalFullRange:                                                            "",
}

// IntervalT returns the interval type with field range rng (a mask, or
// IntervalFullRange) and fractional-second precision prec
// (IntervalFullPrecision for none).
func IntervalT(rng, prec int) T {
	return T{Interval, int32((rng&0x7FFF)<<16 | (prec & 0xFFFF))}
}

// IntervalRangePrec returns an interval typmod's field range and precision;
// without a typmod, the full range and precision.
func (t T) IntervalRangePrec() (rng, prec int) {
	if t.OID != Interval || t.Typmod < 0 {
		return IntervalFullRange, IntervalFullPrecision
	}
	return int(t.Typmod>>16) & 0x7FFF, int(t.Typmod) & 0xFFFF
}

// intervalTypmodIn is intervaltypmodin.
func intervalTypmodIn(mods []int32) (T, error) {
	switch len(mods) {
	case 1:
		if _, ok := intervalRanges[mods[0]]; !ok {
			return T{}, pgerr.New(pgerr.InvalidParameterValue, "invalid INTERVAL type modifier")
		}
		return IntervalT(int(mods[0]), IntervalFullPrecision), nil
	case 2:
		if mods[1] < 0 {
			return T{}, pgerr.New(pgerr.InvalidParameterValue, "INTERVAL(%d) precision must not be negative", mods[1])
		}
		p := mods[1]
		if p > MaxIntervalPrecision {
			// PostgreSQL warns "INTERVAL(%d) precision reduced to maximum
			// allowed, 6" and goes on.
			p = MaxIntervalPrecision
		}
		return IntervalT(int(mods[0]), int(p)), nil
	}
	return T{}, pgerr.New(pgerr.InvalidParameterValue, "invalid INTERVAL type modifier")
}

// intervalName is format_type of an interval type (intervaltypmodout).
func intervalName(t T) string {
	if t.Typmod < 0 {
		return "interval"
	}
	rng, prec := t.IntervalRangePrec()
	s := "interval" + intervalRanges[int32(rng)]
	if prec != IntervalFullPrecision {
		s += "(" + strconv.Itoa(prec) + ")"
	}
	return s
}

var intervalScales = [MaxIntervalPrecision + 1]int64{1000000, 100000, 10000, 1000, 100, 10, 1}

// IntervalApplyTypmod is AdjustIntervalForTypmod: the fields outside the
// range are zeroed or truncated (toward zero, as C's division) and the
// seconds rounded to the precision (half away from zero).
func IntervalApplyTypmod(v IntervalValue, typmod int32) IntervalValue {
	if typmod < 0 {
		return v
	}
	rng, prec := T{Interval, typmod}.IntervalRangePrec()
	switch rng {
	case IntervalMaskYear:
		v.Months = (v.Months / monthsPerYear) * monthsPerYear
		v.Days, v.Micros = 0, 0
	case IntervalMaskMonth, IntervalMaskYear | IntervalMaskMonth:
		v.Days, v.Micros = 0, 0
	case IntervalMaskDay:
		v.Micros = 0
	case IntervalMaskHour, IntervalMaskDay | IntervalMaskHour:
		v.Micros = (v.Micros / USecsPerHour) * USecsPerHour
	case IntervalMaskMinute, IntervalMaskDay | IntervalMaskHour | IntervalMaskMinute,
		IntervalMaskHour | IntervalMaskMinute:
		v.Micros = (v.Micros / USecsPerMin) * USecsPerMin
	}
	if prec != IntervalFullPrecision && prec >= 0 && prec <= MaxIntervalPrecision {
		sc := intervalScales[prec]
		off := sc / 2
		if sc == 1 {
			off = 0
		}
		if v.Micros >= 0 {
			v.Micros = ((v.Micros + off) / sc) * sc
		} else {
			v.Micros = -(((-v.Micros + off) / sc) * sc)
		}
	}
	return v
}

// rightmostIntervalField is the unit DecodeInterval gives a bare number
// for a typmod's field range: the range's smallest field.
func rightmostIntervalField(rng int) int {
	switch rng {
	case IntervalMaskYear:
		return dtkYear
	case IntervalMaskMonth, IntervalMaskYear | IntervalMaskMonth:
		return dtkMonth
	case IntervalMaskDay:
		return dtkDay
	case IntervalMaskHour, IntervalMaskDay | IntervalMaskHour:
		return dtkHour
	case IntervalMaskMinute, IntervalMaskHour | IntervalMaskMinute,
		IntervalMaskDay | IntervalMaskHour | IntervalMaskMinute:
		return dtkMinute
	}
	return dtkSecond
}

package types

import (
	"strconv"
	"strings"
	"time"

	"minipg/pgerr"
)

// IntervalStyle is the IntervalStyle setting: how interval values are
// written, and (sql_standard) how a leading minus sign is read.
type IntervalStyle uint8

// The IntervalStyle values (INTSTYLE_*).
const (
	IntervalStylePostgres IntervalStyle = iota
	IntervalStylePostgresVerbose
	IntervalStyleSQLStandard
	IntervalStyleISO8601
)

var intervalStyleNames = [...]string{"postgres", "postgres_verbose", "sql_standard", "iso_8601"}

// String is the setting's value as SHOW prints it.
func (s IntervalStyle) String() string { return intervalStyleNames[s] }

// IntervalStyleByName reads a value of the IntervalStyle setting (case
// insensitive); 22023 with the list of values otherwise, as PostgreSQL's
// enum settings.
func IntervalStyleByName(v string) (IntervalStyle, error) {
	lv := strings.ToLower(strings.TrimSpace(v))
	for i, n := range intervalStyleNames {
		if lv == n {
			return IntervalStyle(i), nil
		}
	}
	return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", "IntervalStyle", v).
		WithHint("Available values: postgres, postgres_verbose, sql_standard, iso_8601.")
}

// Conv is the session state that text input and output and casts read: the
// TimeZone (timestamp with time zone) and the IntervalStyle.
type Conv struct {
	Loc           *time.Location
	IntervalStyle IntervalStyle
	// Now is the current transaction's start, which 'now', 'today',
	// 'tomorrow' and 'yesterday' read; zero: the clock.
	Now time.Time
	// ByteaEscape is bytea_output = escape (false: hex).
	ByteaEscape bool
	// FloatCut is how far extra_float_digits is below 1: 0 (the default
	// 1, or more) prints floats in their shortest exact form; n > 0 prints
	// DBL_DIG + 1 - n (FLT_DIG + 1 - n for real) significant digits, as
	// PostgreSQL's %g does for extra_float_digits <= 0.
	FloatCut int
}

// nowMicros is c.Now (or the clock) as microseconds since 2000-01-01.
func (c Conv) nowMicros() int64 {
	if c.Now.IsZero() {
		return TimestampMicros(time.Now())
	}
	return TimestampMicros(c.Now)
}

func (c Conv) loc() *time.Location {
	if c.Loc == nil {
		return time.UTC
	}
	return c.Loc
}

// intervalFields is interval2itm: the interval broken into the fields the
// output styles print.
type intervalFields struct {
	year, mon, mday, hour, min, sec, fsec int64
}

func splitInterval(v IntervalValue) intervalFields {
	f := intervalFields{year: int64(v.Months / 12), mon: int64(v.Months % 12), mday: int64(v.Days)}
	t := v.Micros
	f.hour = t / USecsPerHour
	t -= f.hour * USecsPerHour
	f.min = t / USecsPerMin
	t -= f.min * USecsPerMin
	f.sec = t / USecsPerSec
	f.fsec = t - f.sec*USecsPerSec
	return f
}

// appendSeconds is AppendSeconds with full precision: |sec| (two digits
// when pad), then the fraction without trailing zeros.
func appendSeconds(buf []byte, sec, fsec int64, pad bool) []byte {
	if pad {
		buf = appendPadU(buf, abs64(sec), 2)
	} else {
		buf = strconv.AppendUint(buf, abs64(sec), 10)
	}
	return appendFracSec(buf, fsec)
}

// appendIntervalStyle is interval_out (EncodeInterval) in style.
func appendIntervalStyle(buf []byte, v IntervalValue, style IntervalStyle) []byte {
	switch style {
	case IntervalStyleSQLStandard:
		return appendIntervalSQL(buf, splitInterval(v))
	case IntervalStyleISO8601:
		return appendIntervalISO(buf, splitInterval(v))
	case IntervalStylePostgresVerbose:
		return appendIntervalVerbose(buf, splitInterval(v))
	}
	return appendInterval(buf, v)
}

func appendIntervalSQL(buf []byte, f intervalFields) []byte {
	neg := f.year < 0 || f.mon < 0 || f.mday < 0 || f.hour < 0 || f.min < 0 || f.sec < 0 || f.fsec < 0
	pos := f.year > 0 || f.mon > 0 || f.mday > 0 || f.hour > 0 || f.min > 0 || f.sec > 0 || f.fsec > 0
	hasYM := f.year != 0 || f.mon != 0
	hasDT := f.mday != 0 || f.hour != 0 || f.min != 0 || f.sec != 0 || f.fsec != 0
	standard := !(neg && pos) && !(hasYM && hasDT)
	if neg && standard {
		buf = append(buf, '-')
		f = intervalFields{-f.year, -f.mon, -f.mday, -f.hour, -f.min, -f.sec, -f.fsec}
	}
	switch {
	case !neg && !pos:
		return append(buf, '0')
	case !standard:
		sign := func(neg bool) byte {
			if neg {
				return '-'
			}
			return '+'
		}
		buf = append(buf, sign(f.year < 0 || f.mon < 0))
		buf = strconv.AppendUint(buf, abs64(f.year), 10)
		buf = append(buf, '-')
		buf = strconv.AppendUint(buf, abs64(f.mon), 10)
		buf = append(buf, ' ', sign(f.mday < 0))
		buf = strconv.AppendUint(buf, abs64(f.mday), 10)
		buf = append(buf, ' ', sign(f.hour < 0 || f.min < 0 || f.sec < 0 || f.fsec < 0))
		buf = strconv.AppendUint(buf, abs64(f.hour), 10)
		buf = append(buf, ':')
		buf = appendPadU(buf, abs64(f.min), 2)
		buf = append(buf, ':')
		return appendSeconds(buf, f.sec, f.fsec, true)
	case hasYM:
		buf = strconv.AppendInt(buf, f.year, 10)
		buf = append(buf, '-')
		return strconv.AppendInt(buf, f.mon, 10)
	}
	if f.mday != 0 {
		buf = strconv.AppendInt(buf, f.mday, 10)
		buf = append(buf, ' ')
	}
	buf = strconv.AppendInt(buf, f.hour, 10)
	buf = append(buf, ':')
	buf = appendPadU(buf, abs64(f.min), 2)
	buf = append(buf, ':')
	return appendSeconds(buf, f.sec, f.fsec, true)
}

func appendIntervalISO(buf []byte, f intervalFields) []byte {
	if f == (intervalFields{}) {
		return append(buf, "PT0S"...)
	}
	part := func(v int64, unit byte) {
		if v != 0 {
			buf = strconv.AppendInt(buf, v, 10)
			buf = append(buf, unit)
		}
	}
	buf = append(buf, 'P')
	part(f.year, 'Y')
	part(f.mon, 'M')
	part(f.mday, 'D')
	if f.hour != 0 || f.min != 0 || f.sec != 0 || f.fsec != 0 {
		buf = append(buf, 'T')
	}
	part(f.hour, 'H')
	part(f.min, 'M')
	if f.sec != 0 || f.fsec != 0 {
		if f.sec < 0 || f.fsec < 0 {
			buf = append(buf, '-')
		}
		buf = appendSeconds(buf, f.sec, f.fsec, false)
		buf = append(buf, 'S')
	}
	return buf
}

func appendIntervalVerbose(buf []byte, f intervalFields) []byte {
	isZero, isBefore := true, false
	part := func(v int64, unit string) {
		if v == 0 {
			return
		}
		if isZero {
			isBefore = v < 0
			if v < 0 {
				v = -v
			}
		} else if isBefore {
			v = -v
		}
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, v, 10)
		buf = append(buf, ' ')
		buf = append(buf, unit...)
		if v != 1 {
			buf = append(buf, 's')
		}
		isZero = false
	}
	buf = append(buf, '@')
	part(f.year, "year")
	part(f.mon, "mon")
	part(f.mday, "day")
	part(f.hour, "hour")
	part(f.min, "min")
	if f.sec != 0 || f.fsec != 0 {
		buf = append(buf, ' ')
		if f.sec < 0 || (f.sec == 0 && f.fsec < 0) {
			if isZero {
				isBefore = true
			} else if !isBefore {
				buf = append(buf, '-')
			}
		} else if isBefore {
			buf = append(buf, '-')
		}
		buf = appendSeconds(buf, f.sec, f.fsec, false)
		buf = append(buf, " sec"...)
		if abs64(f.sec) != 1 || f.fsec != 0 {
			buf = append(buf, 's')
		}
		isZero = false
	}
	if isZero {
		buf = append(buf, " 0"...)
	}
	if isBefore {
		buf = append(buf, " ago"...)
	}
	return buf
}

// sqlStandardNegative reports whether, in IntervalStyle sql_standard, an
// interval literal's leading minus sign applies to all its fields: the
// first field has one and no other field has a sign of its own.
func sqlStandardNegative(toks []dtToken) bool {
	if len(toks) == 0 || toks[0].s == "" || toks[0].s[0] != '-' {
		return false
	}
	for _, t := range toks[1:] {
		if t.s != "" && (t.s[0] == '-' || t.s[0] == '+') {
			return false
		}
	}
	return true
}

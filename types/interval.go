package types

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"

	"minipg/pgerr"
)

// IntervalValue is an interval Datum as PostgreSQL stores it: months, days and
// microseconds, each kept apart (a month is not a fixed number of days,
// nor a day of microseconds, across daylight-saving changes).
type IntervalValue struct {
	Months int32
	Days   int32
	Micros int64
}

// Interval arithmetic constants (PostgreSQL's DAYS_PER_MONTH, USECS_PER_*).
const (
	DaysPerMonth  = 30
	USecsPerDay   = 86400e6
	USecsPerHour  = 3600e6
	USecsPerMin   = 60e6
	USecsPerSec   = 1e6
	monthsPerYear = 12
)

// itmIn is PostgreSQL's pg_itm_in: the fields an interval literal sets
// before they are folded into an Interval.
type itmIn struct {
	usec  int64
	mday  int64
	mon   int64
	year  int64
	bad   bool // a field overflowed
	fmask int
}

func (it *itmIn) addUsec(v int64) {
	s := it.usec + v
	if (v > 0 && s < it.usec) || (v < 0 && s > it.usec) {
		it.bad = true
	}
	it.usec = s
}

func mulOK(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	if c/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return c, true
}

func int32OK(v int64) bool { return v >= math.MinInt32 && v <= math.MaxInt32 }

// adjustFractMicros is AdjustFractMicroseconds.
func (it *itmIn) adjustFractMicros(frac float64, scale int64) {
	if frac == 0 {
		return
	}
	frac *= float64(scale)
	us := int64(frac)
	frac -= float64(us)
	us += int64(math.RoundToEven(frac))
	it.addUsec(us)
}

// adjustFractDays is AdjustFractDays.
func (it *itmIn) adjustFractDays(frac float64, scale int64) {
	if frac == 0 {
		return
	}
	frac *= float64(scale)
	extra := int64(frac)
	it.mday += extra
	if !int32OK(it.mday) {
		it.bad = true
	}
	frac -= float64(extra)
	it.adjustFractMicros(frac, USecsPerDay)
}

// adjustFractYears is AdjustFractYears.
func (it *itmIn) adjustFractYears(frac float64, scale int64) {
	if frac == 0 {
		return
	}
	it.mon += int64(math.RoundToEven(frac * float64(scale) * monthsPerYear))
	if !int32OK(it.mon) {
		it.bad = true
	}
}

func (it *itmIn) adjustMicros(val int64, frac float64, scale int64) {
	v, ok := mulOK(val, scale)
	if !ok {
		it.bad = true
		return
	}
	it.addUsec(v)
	it.adjustFractMicros(frac, scale)
}

func (it *itmIn) adjustDays(val, scale int64) {
	v, ok := mulOK(val, scale)
	if !ok || !int32OK(v) {
		it.bad = true
		return
	}
	it.mday += v
	if !int32OK(it.mday) {
		it.bad = true
	}
}

func (it *itmIn) adjustMonths(val int64) {
	if !int32OK(val) {
		it.bad = true
		return
	}
	it.mon += val
	if !int32OK(it.mon) {
		it.bad = true
	}
}

func (it *itmIn) adjustYears(val, scale int64) {
	v, ok := mulOK(val, scale)
	if !ok || !int32OK(v) {
		it.bad = true
		return
	}
	it.year += v
	if !int32OK(it.year) {
		it.bad = true
	}
}

// Date/time field kinds of an interval literal (DTK_* of datetime.h).
const (
	dtkNone = iota
	dtkMicrosec
	dtkMillisec
	dtkSecond
	dtkMinute
	dtkHour
	dtkDay
	dtkWeek
	dtkMonth
	dtkQuarter
	dtkYear
	dtkDecade
	dtkCentury
	dtkMillennium
	dtkTZ
	dtkIgnore // "@"
	dtkAgo
)

// Field masks for the duplicate-field check.
const (
	mYear = 1 << iota
	mMonth
	mDay
	mHour
	mMinute
	mSecond
	mMillisec
	mMicrosec
	mWeek
	mDecade
	mCentury
	mMillennium
	mTime    = mHour | mMinute | mAllSecs // DTK_TIME_M
	mAllSecs = mSecond | mMillisec | mMicrosec
)

// intervalUnits is PostgreSQL's deltatktbl (looked up with the token cut
// to 10 characters, TOKMAXLEN).
var intervalUnits = map[string]int{
	"@": dtkIgnore, "ago": dtkAgo,
	"c": dtkCentury, "cent": dtkCentury, "centuries": dtkCentury, "century": dtkCentury,
	"d": dtkDay, "day": dtkDay, "days": dtkDay,
	"dec": dtkDecade, "decade": dtkDecade, "decades": dtkDecade, "decs": dtkDecade,
	"h": dtkHour, "hour": dtkHour, "hours": dtkHour, "hr": dtkHour, "hrs": dtkHour,
	"m": dtkMinute, "min": dtkMinute, "mins": dtkMinute, "minute": dtkMinute, "minutes": dtkMinute,
	"microsecon": dtkMicrosec, "us": dtkMicrosec, "usec": dtkMicrosec, "microsecond": dtkMicrosec,
	"useconds": dtkMicrosec, "usecs": dtkMicrosec,
	"mil": dtkMillennium, "millennia": dtkMillennium, "millennium": dtkMillennium, "mils": dtkMillennium,
	"millisecon": dtkMillisec, "ms": dtkMillisec, "msec": dtkMillisec, "millisecond": dtkMillisec,
	"mseconds": dtkMillisec, "msecs": dtkMillisec,
	"mon": dtkMonth, "mons": dtkMonth, "month": dtkMonth, "months": dtkMonth,
	"qtr": dtkQuarter, "quarter": dtkQuarter,
	"s": dtkSecond, "sec": dtkSecond, "second": dtkSecond, "seconds": dtkSecond, "secs": dtkSecond,
	"timezone": dtkTZ, "timezone_h": dtkTZ, "timezone_m": dtkTZ,
	"w": dtkWeek, "week": dtkWeek, "weeks": dtkWeek,
	"y": dtkYear, "year": dtkYear, "years": dtkYear, "yr": dtkYear, "yrs": dtkYear,
}

// Token kinds of ParseDateTime.
const (
	ftNumber = iota
	ftTime
	ftDate
	ftString
	ftTZ
	ftSpecial
)

type dtToken struct {
	s    string
	kind int
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isSpaceC(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
func isPunct(c byte) bool { return c > ' ' && c < 0x7f && !isDigit(c) && !isAlpha(c) }
func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// parseDateTimeTokens is ParseDateTime's lexer as interval input uses it;
// ok is false on a bad format.
func parseDateTimeTokens(str string) ([]dtToken, bool) {
	var out []dtToken
	i := 0
	n := len(str)
	for i < n {
		c := str[i]
		if isSpaceC(c) {
			i++
			continue
		}
		var b []byte
		kind := ftNumber
		switch {
		case isDigit(c):
			for i < n && isDigit(str[i]) {
				b = append(b, str[i])
				i++
			}
			switch {
			case i < n && str[i] == ':':
				kind = ftTime
				for i < n && (isDigit(str[i]) || str[i] == ':' || str[i] == '.') {
					b = append(b, str[i])
					i++
				}
			case i < n && (str[i] == '-' || str[i] == '/' || str[i] == '.'):
				delim := str[i]
				b = append(b, delim)
				i++
				if i < n && isDigit(str[i]) {
					kind = ftDate
					if delim == '.' {
						kind = ftNumber
					}
					for i < n && isDigit(str[i]) {
						b = append(b, str[i])
						i++
					}
					if i < n && str[i] == delim {
						kind = ftDate
						for i < n && (isDigit(str[i]) || str[i] == delim) {
							b = append(b, str[i])
							i++
						}
					}
				} else {
					kind = ftDate
					for i < n && (isDigit(str[i]) || isAlpha(str[i]) || str[i] == delim) {
						b = append(b, lower(str[i]))
						i++
					}
				}
			}
		case c == '.':
			b = append(b, c)
			i++
			for i < n && isDigit(str[i]) {
				b = append(b, str[i])
				i++
			}
		case isAlpha(c):
			kind = ftString
			for i < n && isAlpha(str[i]) {
				b = append(b, lower(str[i]))
				i++
			}
			isDate := false
			if i < n && (str[i] == '-' || str[i] == '/' || str[i] == '.') {
				isDate = true
			} else if i < n && (str[i] == '+' || isDigit(str[i])) {
				isDate = !dateTokenKeyword[string(b)]
			}
			if isDate {
				kind = ftDate
				for {
					b = append(b, lower(str[i]))
					i++
					if i >= n {
						break
					}
					c := str[i]
					if !(c == '+' || c == '-' || c == '/' || c == '_' || c == '.' || c == ':' || isDigit(c) || isAlpha(c)) {
						break
					}
				}
			}
		case c == '+' || c == '-':
			b = append(b, c)
			i++
			for i < n && isSpaceC(str[i]) {
				i++
			}
			switch {
			case i < n && isDigit(str[i]):
				kind = ftTZ
				for i < n && (isDigit(str[i]) || str[i] == ':' || str[i] == '.' || str[i] == '-') {
					b = append(b, str[i])
					i++
				}
			case i < n && isAlpha(str[i]):
				kind = ftSpecial
				for i < n && isAlpha(str[i]) {
					b = append(b, lower(str[i]))
					i++
				}
			default:
				return nil, false
			}
		case isPunct(c):
			i++
			continue
		default:
			return nil, false
		}
		out = append(out, dtToken{string(b), kind})
	}
	return out, true
}

// dateTokenKeyword are the words of PostgreSQL's datetktbl that may be
// followed directly by a digit without starting a time zone name.
var dateTokenKeyword = map[string]bool{
	"ad": true, "allballs": true, "am": true, "at": true, "bc": true, "d": true, "epoch": true,
	"h": true, "infinity": true, "isodow": true, "isoyear": true, "j": true, "julian": true,
	"m": true, "mm": true, "now": true, "on": true, "pm": true, "s": true, "t": true,
	"today": true, "tomorrow": true, "y": true, "yesterday": true, "z": true, "zulu": true,
	"jan": true, "january": true, "feb": true, "february": true, "mar": true, "march": true,
	"apr": true, "april": true, "may": true, "jun": true, "june": true, "jul": true, "july": true,
	"aug": true, "august": true, "sep": true, "sept": true, "september": true, "oct": true,
	"october": true, "nov": true, "november": true, "dec": true, "december": true,
	"sun": true, "sunday": true, "mon": true, "monday": true, "tue": true, "tues": true,
	"tuesday": true, "wed": true, "wednes": true, "wednesday": true, "thu": true, "thur": true,
	"thurs": true, "thursday": true, "fri": true, "friday": true, "sat": true, "saturday": true,
	"dow": true, "doy": true,
}

// Results of the interval decoders (DTERR_*).
const (
	dtOK = iota
	dtBadFormat
	dtOverflow
)

// strtoi64 parses a leading optionally signed integer; end is where it
// stopped (0 digits: end == start).
func strtoi64(s string) (v int64, rest string, ok, overflow bool) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	j := i
	var u uint64
	for j < len(s) && isDigit(s[j]) {
		d := uint64(s[j] - '0')
		if u > (math.MaxUint64-d)/10 {
			overflow = true
		}
		u = u*10 + d
		j++
	}
	if j == i {
		return 0, s, false, false
	}
	if neg {
		if u > 1<<63 {
			overflow = true
		}
		v = -int64(u)
	} else {
		if u > math.MaxInt64 {
			overflow = true
		}
		v = int64(u)
	}
	return v, s[j:], true, overflow
}

// parseFraction is ParseFraction: s starts with '.'.
func parseFraction(s string) (float64, bool) {
	if len(s) == 1 {
		return 0, true
	}
	for i := 1; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat("0"+s, 64)
	return f, err == nil
}

// decodeTimeForInterval is DecodeTime + DecodeTimeForInterval: hh:mm,
// hh:mm:ss[.fff], mm:ss.fff.
func decodeTimeForInterval(s string, rng int, it *itmIn) int {
	h, rest, ok, of := strtoi64(s)
	if !ok || len(rest) == 0 || rest[0] != ':' {
		return dtBadFormat
	}
	m, rest, ok, of2 := strtoi64(rest[1:])
	if !ok {
		return dtBadFormat
	}
	var sec, fsec int64
	switch {
	case rest == "":
		// Two fields of a MINUTE TO SECOND interval are mm:ss.
		if rng == IntervalMaskMinute|IntervalMaskSecond {
			sec, m, h = m, h, 0
		}
	case rest[0] == '.':
		f, ok := parseFraction(rest)
		if !ok {
			return dtBadFormat
		}
		fsec = int64(math.RoundToEven(f * 1e6))
		sec, m, h = m, h, 0
	case rest[0] == ':':
		var of3 bool
		sec, rest, ok, of3 = strtoi64(rest[1:])
		if !ok {
			return dtBadFormat
		}
		of2 = of2 || of3
		if rest != "" {
			if rest[0] != '.' {
				return dtBadFormat
			}
			f, ok := parseFraction(rest)
			if !ok {
				return dtBadFormat
			}
			fsec = int64(math.RoundToEven(f * 1e6))
		}
	default:
		return dtBadFormat
	}
	if of || of2 || m > math.MaxInt32 || sec > math.MaxInt32 {
		return dtOverflow
	}
	if h < 0 || m < 0 || m > 59 || sec < 0 || sec > 60 || fsec < 0 || fsec > 1e6 {
		return dtOverflow
	}
	if it.fmask&mTime != 0 {
		return dtBadFormat
	}
	it.fmask |= mTime
	t, ok1 := mulOK(h, USecsPerHour)
	if !ok1 {
		return dtOverflow
	}
	rest64 := m*USecsPerMin + sec*USecsPerSec + fsec
	if t > math.MaxInt64-rest64 {
		return dtOverflow
	}
	t += rest64
	it.usec = t
	return dtOK
}

// decodeInterval is DecodeInterval; rng is the typmod's field range
// (IntervalFullRange without one), which gives a bare number its unit.
func decodeInterval(toks []dtToken, rng int, it *itmIn) int {
	typ := dtkNone
	isBefore := false
	for i := len(toks) - 1; i >= 0; i-- {
		tok := toks[i]
		tmask := 0
		switch tok.kind {
		case ftTime:
			if r := decodeTimeForInterval(tok.s, rng, it); r != dtOK {
				return r
			}
			typ = dtkDay
			continue
		case ftTZ, ftDate, ftNumber:
			if tok.kind == ftTZ && strings.IndexByte(tok.s[1:], ':') >= 0 {
				save := *it
				if r := decodeTimeForInterval(tok.s[1:], rng, it); r == dtOK {
					if tok.s[0] == '-' {
						it.usec = -it.usec
					}
					typ = dtkDay
					continue
				}
				*it = save
			}
			if typ == dtkNone {
				typ = rightmostIntervalField(rng)
			}
			val, rest, ok, of := strtoi64(tok.s)
			if of {
				return dtOverflow
			}
			if !ok {
				// strtoi64 of no digits leaves val 0 and rest unchanged.
				rest = tok.s
				if rest != "" && (rest[0] == '+' || rest[0] == '-') {
					rest = rest[1:]
				}
			}
			var fval float64
			switch {
			case rest != "" && rest[0] == '-':
				v2, r2, ok2, of2 := strtoi64(rest[1:])
				if !ok2 {
					return dtBadFormat
				}
				if of2 || v2 < 0 || v2 >= monthsPerYear || !int32OK(v2) {
					return dtOverflow
				}
				if r2 != "" {
					return dtBadFormat
				}
				typ = dtkMonth
				if tok.s[0] == '-' {
					v2 = -v2
				}
				v, ok := mulOK(val, monthsPerYear)
				if !ok {
					return dtOverflow
				}
				val = v + v2
			case rest != "" && rest[0] == '.':
				f, ok := parseFraction(rest)
				if !ok {
					return dtBadFormat
				}
				fval = f
				if tok.s[0] == '-' {
					fval = -fval
				}
			case rest == "":
			default:
				return dtBadFormat
			}
			switch typ {
			case dtkMicrosec:
				it.adjustMicros(val, fval, 1)
				tmask = mMicrosec
			case dtkMillisec:
				it.adjustMicros(val, fval, 1000)
				tmask = mMillisec
			case dtkSecond:
				it.adjustMicros(val, fval, USecsPerSec)
				if fval == 0 {
					tmask = mSecond
				} else {
					tmask = mAllSecs
				}
			case dtkMinute:
				it.adjustMicros(val, fval, USecsPerMin)
				tmask = mMinute
			case dtkHour:
				it.adjustMicros(val, fval, USecsPerHour)
				tmask = mHour
				typ = dtkDay
			case dtkDay:
				it.adjustDays(val, 1)
				it.adjustFractMicros(fval, USecsPerDay)
				tmask = mDay
			case dtkWeek:
				it.adjustDays(val, 7)
				it.adjustFractDays(fval, 7)
				tmask = mWeek
			case dtkMonth:
				it.adjustMonths(val)
				it.adjustFractDays(fval, DaysPerMonth)
				tmask = mMonth
			case dtkYear:
				it.adjustYears(val, 1)
				it.adjustFractYears(fval, 1)
				tmask = mYear
			case dtkDecade:
				it.adjustYears(val, 10)
				it.adjustFractYears(fval, 10)
				tmask = mDecade
			case dtkCentury:
				it.adjustYears(val, 100)
				it.adjustFractYears(fval, 100)
				tmask = mCentury
			case dtkMillennium:
				it.adjustYears(val, 1000)
				it.adjustFractYears(fval, 1000)
				tmask = mMillennium
			default:
				return dtBadFormat
			}
			if it.bad {
				return dtOverflow
			}
		case ftString, ftSpecial:
			key := tok.s
			if len(key) > 10 {
				key = key[:10]
			}
			u, ok := intervalUnits[key]
			if !ok {
				return dtBadFormat
			}
			switch u {
			case dtkIgnore:
				continue
			case dtkAgo:
				isBefore = true
			default:
				typ = u
			}
		default:
			return dtBadFormat
		}
		if tmask&it.fmask != 0 {
			return dtBadFormat
		}
		it.fmask |= tmask
	}
	if it.fmask == 0 {
		return dtBadFormat
	}
	if isBefore {
		it.usec, it.mday, it.mon, it.year = -it.usec, -it.mday, -it.mon, -it.year
		if it.usec == math.MinInt64 {
			return dtOverflow
		}
	}
	return dtOK
}

// ParseInterval is interval_in (IntervalStyle postgres, no typmod).
func ParseInterval(in string) (IntervalValue, error) {
	return ParseIntervalTypmod(in, -1)
}

// ParseIntervalTypmod is interval_in with a typmod: its field range decides
// what a bare number counts (interval '1' year is a year) and the result is
// adjusted to it (IntervalApplyTypmod).
func ParseIntervalTypmod(in string, typmod int32) (IntervalValue, error) {
	return ParseIntervalStyle(in, typmod, IntervalStylePostgres)
}

// ParseIntervalStyle is ParseIntervalTypmod under an IntervalStyle: in
// sql_standard a leading minus sign with no other sign negates every field
// ('-1 2:03' is minus one day, two hours and three minutes).
func ParseIntervalStyle(in string, typmod int32, style IntervalStyle) (IntervalValue, error) {
	v, err := parseInterval(in, T{Interval, typmod}, style)
	if err != nil {
		return v, err
	}
	return IntervalApplyTypmod(v, typmod), nil
}

func parseInterval(in string, t T, style IntervalStyle) (IntervalValue, error) {
	rng, _ := t.IntervalRangePrec()
	var it itmIn
	r := dtBadFormat
	if toks, ok := parseDateTimeTokens(in); ok {
		r = decodeInterval(toks, rng, &it)
		if r == dtOK && style == IntervalStyleSQLStandard && sqlStandardNegative(toks) {
			if it.usec > 0 {
				it.usec = -it.usec
			}
			if it.mday > 0 {
				it.mday = -it.mday
			}
			if it.mon > 0 {
				it.mon = -it.mon
			}
			if it.year > 0 {
				it.year = -it.year
			}
		}
	}
	if r == dtBadFormat {
		it = itmIn{}
		r = decodeISO8601Interval(in, &it)
	}
	switch r {
	case dtBadFormat:
		return IntervalValue{}, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type interval: \"%s\"", in)
	case dtOverflow:
		return IntervalValue{}, pgerr.New(pgerr.IntervalFieldOverflow, "interval field value out of range: \"%s\"", in)
	}
	months := it.year*monthsPerYear + it.mon
	if !int32OK(months) || !int32OK(it.mday) {
		return IntervalValue{}, errIntervalRange()
	}
	return IntervalValue{Months: int32(months), Days: int32(it.mday), Micros: it.usec}, nil
}

func errIntervalRange() error {
	return pgerr.New(pgerr.DatetimeValueOutOfRange, "interval out of range")
}

// ErrIntervalOutOfRange is 22008 "interval out of range".
func ErrIntervalOutOfRange() error { return errIntervalRange() }

func abs64(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

// appendPostgresIntPart is AddPostgresIntPart.
func appendPostgresIntPart(buf []byte, v int64, unit string, isZero, isBefore *bool) []byte {
	if v == 0 {
		return buf
	}
	if !*isZero {
		buf = append(buf, ' ')
	}
	if *isBefore && v > 0 {
		buf = append(buf, '+')
	}
	buf = strconv.AppendInt(buf, v, 10)
	buf = append(buf, ' ')
	buf = append(buf, unit...)
	if v != 1 {
		buf = append(buf, 's')
	}
	*isBefore = v < 0
	*isZero = false
	return buf
}

// appendInterval is interval_out with IntervalStyle postgres.
func appendInterval(buf []byte, v IntervalValue) []byte {
	year := int64(v.Months / 12)
	mon := int64(v.Months % 12)
	t := v.Micros
	hour := t / USecsPerHour
	t -= hour * USecsPerHour
	min := t / USecsPerMin
	t -= min * USecsPerMin
	sec := t / USecsPerSec
	fsec := t - sec*USecsPerSec
	isZero, isBefore := true, false
	buf = appendPostgresIntPart(buf, year, "year", &isZero, &isBefore)
	buf = appendPostgresIntPart(buf, mon, "mon", &isZero, &isBefore)
	buf = appendPostgresIntPart(buf, int64(v.Days), "day", &isZero, &isBefore)
	if isZero || hour != 0 || min != 0 || sec != 0 || fsec != 0 {
		minus := hour < 0 || min < 0 || sec < 0 || fsec < 0
		if !isZero {
			buf = append(buf, ' ')
		}
		if minus {
			buf = append(buf, '-')
		} else if isBefore {
			buf = append(buf, '+')
		}
		buf = appendPadU(buf, abs64(hour), 2)
		buf = append(buf, ':')
		buf = appendPadU(buf, abs64(min), 2)
		buf = append(buf, ':')
		buf = appendPadU(buf, abs64(sec), 2)
		buf = appendFracSec(buf, fsec)
	}
	return buf
}

// appendFracSec appends .ffffff for fsec microseconds, trailing zeros
// trimmed, nothing for 0 (AppendSeconds' fraction).
func appendFracSec(buf []byte, fsec int64) []byte {
	if fsec == 0 {
		return buf
	}
	s := strconv.FormatUint(abs64(fsec)+1000000, 10)[1:]
	buf = append(buf, '.')
	return append(buf, strings.TrimRight(s, "0")...)
}

func appendPadU(buf []byte, v uint64, width int) []byte {
	s := strconv.FormatUint(v, 10)
	for i := len(s); i < width; i++ {
		buf = append(buf, '0')
	}
	return append(buf, s...)
}

// FormatInterval is interval_out.
func FormatInterval(v IntervalValue) string { return string(appendInterval(nil, v)) }

// intervalCmpParts is interval_cmp_value as a pair: whole days (a month
// counting 30) and the microseconds of the last day, in [0, USecsPerDay).
func intervalCmpParts(v IntervalValue) (days int64, us int64) {
	q := floorDiv(v.Micros, USecsPerDay)
	return int64(v.Months)*DaysPerMonth + int64(v.Days) + q, v.Micros - q*USecsPerDay
}

// CompareInterval is interval_cmp: months count 30 days, days 24 hours.
func CompareInterval(a, b IntervalValue) int {
	ad, au := intervalCmpParts(a)
	bd, bu := intervalCmpParts(b)
	switch {
	case ad < bd:
		return -1
	case ad > bd:
		return 1
	case au < bu:
		return -1
	case au > bu:
		return 1
	}
	return 0
}

func asInterval(t T, d Datum) (IntervalValue, error) {
	if v, ok := d.(IntervalValue); ok {
		return v, nil
	}
	return IntervalValue{}, badDatum(t, d)
}

// decodeInterval16 reads the 16 bytes of an interval (binary or disk).
func decodeInterval16(order binary.ByteOrder, b []byte) IntervalValue {
	return IntervalValue{Micros: int64(order.Uint64(b)), Days: int32(order.Uint32(b[8:])), Months: int32(order.Uint32(b[12:]))}
}

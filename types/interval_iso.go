package types

// The ISO 8601 forms of interval input (DecodeISO8601Interval of
// PostgreSQL's datetime.c): the format with designators (P1Y2M3DT4H5M6S)
// and the alternative format (P0001-02-03T04:05:06). interval.go holds the
// rest of interval_in and the type itself.

import (
	"math"
	"strconv"
)

// parseISO8601Number is ParseISO8601Number: a strtod prefix of s whose
// integer and fraction parts are returned apart.
func parseISO8601Number(s string) (ipart int64, fpart float64, rest string, r int) {
	if s == "" || !(isDigit(s[0]) || s[0] == '-' || s[0] == '.') {
		return 0, 0, s, dtBadFormat
	}
	i := 0
	if s[i] == '-' || s[i] == '+' {
		i++
	}
	digits := 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, 0, s, dtBadFormat
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
		}
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil && !math.IsInf(v, 0) {
		return 0, 0, s, dtBadFormat
	}
	if math.IsNaN(v) || v < -1e15 || v > 1e15 {
		return 0, 0, s, dtOverflow
	}
	if v >= 0 {
		ipart = int64(math.Floor(v))
	} else {
		ipart = -int64(math.Floor(-v))
	}
	return ipart, v - float64(ipart), s[i:], dtOK
}

func iso8601IntegerWidth(s string) int {
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

// decodeISO8601Interval is DecodeISO8601Interval: P1Y2M3DT4H5M6S, the
// alternative formats P0001-02-03T04:05:06 and P00010203T040506.
func decodeISO8601Interval(str string, it *itmIn) int {
	if len(str) < 2 || str[0] != 'P' {
		return dtBadFormat
	}
	str = str[1:]
	datePart, haveField := true, false
	for str != "" {
		if str[0] == 'T' {
			datePart, haveField = false, false
			str = str[1:]
			continue
		}
		fieldStart := str
		val, fval, rest, r := parseISO8601Number(str)
		if r != dtOK {
			return r
		}
		str = rest
		var unit byte
		if str != "" {
			unit = str[0]
			str = str[1:]
		}
		if datePart {
			switch unit {
			case 'Y':
				it.adjustYears(val, 1)
				it.adjustFractYears(fval, 1)
			case 'M':
				it.adjustMonths(val)
				it.adjustFractDays(fval, DaysPerMonth)
			case 'W':
				it.adjustDays(val, 7)
				it.adjustFractDays(fval, 7)
			case 'D':
				it.adjustDays(val, 1)
				it.adjustFractMicros(fval, USecsPerDay)
			case 'T', 0, '-':
				if unit != '-' && iso8601IntegerWidth(fieldStart) == 8 && !haveField {
					it.adjustYears(val/10000, 1)
					it.adjustMonths((val / 100) % 100)
					it.adjustDays(val%100, 1)
					it.adjustFractMicros(fval, USecsPerDay)
					if it.bad {
						return dtOverflow
					}
					if unit == 0 {
						return dtOK
					}
					datePart, haveField = false, false
					continue
				}
				if haveField {
					return dtBadFormat
				}
				it.adjustYears(val, 1)
				it.adjustFractYears(fval, 1)
				if it.bad {
					return dtOverflow
				}
				if unit == 0 {
					return dtOK
				}
				if unit == 'T' {
					datePart, haveField = false, false
					continue
				}
				val, fval, str, r = parseISO8601Number(str)
				if r != dtOK {
					return r
				}
				it.adjustMonths(val)
				it.adjustFractDays(fval, DaysPerMonth)
				if it.bad {
					return dtOverflow
				}
				if str == "" {
					return dtOK
				}
				if str[0] == 'T' {
					datePart, haveField = false, false
					str = str[1:]
					continue
				}
				if str[0] != '-' {
					return dtBadFormat
				}
				val, fval, str, r = parseISO8601Number(str[1:])
				if r != dtOK {
					return r
				}
				it.adjustDays(val, 1)
				it.adjustFractMicros(fval, USecsPerDay)
				if it.bad {
					return dtOverflow
				}
				if str == "" {
					return dtOK
				}
				if str[0] == 'T' {
					datePart, haveField = false, false
					str = str[1:]
					continue
				}
				return dtBadFormat
			default:
				return dtBadFormat
			}
		} else {
			switch unit {
			case 'H':
				it.adjustMicros(val, fval, USecsPerHour)
			case 'M':
				it.adjustMicros(val, fval, USecsPerMin)
			case 'S':
				it.adjustMicros(val, fval, USecsPerSec)
			case 0, ':':
				if unit == 0 && iso8601IntegerWidth(fieldStart) == 6 && !haveField {
					it.adjustMicros(val/10000, 0, USecsPerHour)
					it.adjustMicros((val/100)%100, 0, USecsPerMin)
					it.adjustMicros(val%100, 0, USecsPerSec)
					it.adjustFractMicros(fval, 1)
					if it.bad {
						return dtOverflow
					}
					return dtOK
				}
				if haveField {
					return dtBadFormat
				}
				it.adjustMicros(val, fval, USecsPerHour)
				if unit == 0 {
					if it.bad {
						return dtOverflow
					}
					return dtOK
				}
				val, fval, str, r = parseISO8601Number(str)
				if r != dtOK {
					return r
				}
				it.adjustMicros(val, fval, USecsPerMin)
				if str == "" {
					if it.bad {
						return dtOverflow
					}
					return dtOK
				}
				if str[0] != ':' {
					return dtBadFormat
				}
				val, fval, str, r = parseISO8601Number(str[1:])
				if r != dtOK {
					return r
				}
				it.adjustMicros(val, fval, USecsPerSec)
				if it.bad {
					return dtOverflow
				}
				if str == "" {
					return dtOK
				}
				return dtBadFormat
			default:
				return dtBadFormat
			}
		}
		if it.bad {
			return dtOverflow
		}
		haveField = true
	}
	return dtOK
}

package executor

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The date/time template of PostgreSQL 15's formatting.c, shared by
// to_char (timestamp, timestamptz, interval: func_dch_tochar.go) and
// to_timestamp / to_date (func_dch_fromchar.go). A template is parsed
// into nodes as parse_format does: at each position one prefix (FM, TM),
// then a keyword of dchKeywords (first match wins; the list is
// PostgreSQL's DCH_keywords, whose order puts longer spellings first),
// then one postfix (TH, th, SP); anything else is a character node, a
// separator (ASCII punctuation) or a space, and text in double quotes is
// character nodes (backslash escapes the next character).

// dchMode is FromCharDateMode: the date convention a keyword belongs to.
type dchMode uint8

const (
	dchModeNone dchMode = iota
	dchModeGregorian
	dchModeISOWeek
)

// dchKeyword is one template pattern. id is the pattern's upper-case
// spelling (the same for MONTH, Month and month); name is its spelling.
type dchKeyword struct {
	name    string
	id      string
	isDigit bool
	mode    dchMode
}

var dchKeywords = func() []dchKeyword {
	const (
		n = dchModeNone
		g = dchModeGregorian
		i = dchModeISOWeek
	)
	upper := []struct {
		name    string
		isDigit bool
		mode    dchMode
	}{
		{"A.D.", false, n}, {"A.M.", false, n}, {"AD", false, n}, {"AM", false, n},
		{"B.C.", false, n}, {"BC", false, n}, {"CC", true, n},
		{"DAY", false, n}, {"DDD", true, g}, {"DD", true, g}, {"DY", false, n},
		{"Day", false, n}, {"Dy", false, n}, {"D", true, g},
		{"FF1", true, n}, {"FF2", true, n}, {"FF3", true, n}, {"FF4", true, n}, {"FF5", true, n}, {"FF6", true, n},
		{"FX", false, n}, {"HH24", true, n}, {"HH12", true, n}, {"HH", true, n},
		{"IDDD", true, i}, {"ID", true, i}, {"IW", true, i}, {"IYYY", true, i}, {"IYY", true, i}, {"IY", true, i}, {"I", true, i},
		{"J", true, n}, {"MI", true, n}, {"MM", true, g}, {"MONTH", false, g}, {"MON", false, g}, {"MS", true, n},
		{"Month", false, g}, {"Mon", false, g}, {"OF", false, n},
		{"P.M.", false, n}, {"PM", false, n}, {"Q", true, n}, {"RM", false, g},
		{"SSSSS", true, n}, {"SSSS", true, n}, {"SS", true, n},
		{"TZH", false, n}, {"TZM", true, n}, {"TZ", false, n}, {"US", true, n},
		{"WW", true, g}, {"W", true, g},
		{"Y,YYY", true, g}, {"YYYY", true, g}, {"YYY", true, g}, {"YY", true, g}, {"Y", true, g},
	}
	var kws []dchKeyword
	for _, k := range upper {
		kws = append(kws, dchKeyword{name: k.name, id: strings.ToUpper(k.name), isDigit: k.isDigit, mode: k.mode})
	}
	// The lower-case spellings, in the same order.
	for _, k := range upper {
		if k.name != strings.ToUpper(k.name) {
			continue
		}
		kws = append(kws, dchKeyword{name: strings.ToLower(k.name), id: k.name, isDigit: k.isDigit, mode: k.mode})
	}
	return kws
}()

// Suffixes (DCH_S_*).
const (
	dchFM = 1 << iota
	dchTH
	dchth
	dchSP
	dchTM
)

type dchNodeType uint8

const (
	dchAction dchNodeType = iota
	dchChar
	dchSeparator
	dchSpace
)

// dchNode is a FormatNode.
type dchNode struct {
	typ    dchNodeType
	key    *dchKeyword
	char   string
	suffix int
}

func (n *dchNode) fm() bool   { return n.suffix&dchFM != 0 }
func (n *dchNode) thth() bool { return n.suffix&(dchTH|dchth) != 0 }

// isSeparatorChar is is_separator_char: printable ASCII, not a letter or
// a digit.
func isSeparatorChar(c byte) bool {
	return c > 0x20 && c < 0x7F && !(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9')
}

// isCSpace is C's isspace.
func isCSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// charLen is pg_mblen in UTF-8.
func charLen(s string) int {
	if s == "" {
		return 0
	}
	_, n := utf8.DecodeRuneInString(s)
	return n
}

// parseDCH is parse_format for the date/time template.
func parseDCH(f string) []dchNode {
	var nodes []dchNode
	for len(f) > 0 {
		suffix := 0
		switch {
		case strings.HasPrefix(f, "FM"), strings.HasPrefix(f, "fm"):
			suffix, f = dchFM, f[2:]
		case strings.HasPrefix(f, "TM"), strings.HasPrefix(f, "tm"):
			suffix, f = dchTM, f[2:]
		}
		if len(f) == 0 {
			break
		}
		if k := matchDCHKeyword(f); k != nil {
			f = f[len(k.name):]
			switch {
			case strings.HasPrefix(f, "TH"):
				suffix, f = suffix|dchTH, f[2:]
			case strings.HasPrefix(f, "th"):
				suffix, f = suffix|dchth, f[2:]
			case strings.HasPrefix(f, "SP"):
				suffix, f = suffix|dchSP, f[2:]
			}
			nodes = append(nodes, dchNode{typ: dchAction, key: k, suffix: suffix})
			continue
		}
		if f[0] == '"' {
			f = f[1:]
			for len(f) > 0 {
				if f[0] == '"' {
					f = f[1:]
					break
				}
				if f[0] == '\\' && len(f) > 1 {
					f = f[1:]
				}
				l := charLen(f)
				nodes = append(nodes, dchNode{typ: dchChar, char: f[:l]})
				f = f[l:]
			}
			continue
		}
		if f[0] == '\\' && len(f) > 1 && f[1] == '"' {
			f = f[1:]
		}
		l := charLen(f)
		n := dchNode{typ: dchChar, char: f[:l]}
		switch {
		case isSeparatorChar(f[0]):
			n.typ = dchSeparator
		case isCSpace(f[0]):
			n.typ = dchSpace
		}
		nodes = append(nodes, n)
		f = f[l:]
	}
	return nodes
}

func matchDCHKeyword(f string) *dchKeyword {
	for i := range dchKeywords {
		if strings.HasPrefix(f, dchKeywords[i].name) {
			return &dchKeywords[i]
		}
	}
	return nil
}

// date2j is PostgreSQL's date2j: the Julian day of a proleptic Gregorian
// date (year 0 is 1 BC), with C's truncating division.
func date2j(y, m, d int64) int64 {
	if m > 2 {
		m++
		y += 4800
	} else {
		m += 13
		y += 4799
	}
	century := y / 100
	julian := y*365 - 32167
	julian += y/4 - century + century/4
	julian += 7834*m/256 + d
	return julian
}

// j2date is date2j's inverse.
func j2date(jd int64) (year, month, day int64) {
	julian := uint32(jd) + 32044
	quad := julian / 146097
	extra := (julian-quad*146097)*4 + 3
	julian += 60 + quad*3 + extra/146097
	quad = julian / 1461
	julian -= quad * 1461
	y := int64(julian * 4 / 1461)
	var j int64
	if y != 0 {
		j = (int64(julian)+305)%365 + 123
	} else {
		j = (int64(julian)+306)%366 + 123
	}
	y += int64(quad) * 4
	year = y - 4800
	q := j * 2141 / 65536
	day = j - 7834*q/256
	month = (q+10)%12 + 1
	return
}

// j2day is the day of the week of a Julian day, 0 = Sunday.
func j2day(d int64) int64 {
	d = (d + 1) % 7
	if d < 0 {
		d += 7
	}
	return d
}

// isoweek2j is the Julian day of the Monday of ISO week week of year.
func isoweek2j(year, week int64) int64 {
	day4 := date2j(year, 1, 4)
	day0 := j2day(day4 - 1)
	return (week-1)*7 + (day4 - day0)
}

// date2isoweek is the ISO week number of a date.
func date2isoweek(year, mon, mday int64) int64 {
	dayn := date2j(year, mon, mday)
	day4 := date2j(year, 1, 4)
	day0 := j2day(day4 - 1)
	if dayn < day4-day0 {
		day4 = date2j(year-1, 1, 4)
		day0 = j2day(day4 - 1)
	}
	result := (dayn-(day4-day0))/7 + 1
	if result >= 52 {
		day4 = date2j(year+1, 1, 4)
		day0 = j2day(day4 - 1)
		if dayn >= day4-day0 {
			result = (dayn-(day4-day0))/7 + 1
		}
	}
	return result
}

// date2isoyear is the ISO year a date belongs to.
func date2isoyear(year, mon, mday int64) int64 {
	dayn := date2j(year, mon, mday)
	day4 := date2j(year, 1, 4)
	day0 := j2day(day4 - 1)
	if dayn < day4-day0 {
		day4 = date2j(year-1, 1, 4)
		day0 = j2day(day4 - 1)
		year--
	}
	result := (dayn-(day4-day0))/7 + 1
	if result >= 52 {
		day4 = date2j(year+1, 1, 4)
		day0 = j2day(day4 - 1)
		if dayn >= day4-day0 {
			year++
		}
	}
	return year
}

// date2isoyearday is the day of a date within its ISO year.
func date2isoyearday(year, mon, mday int64) int64 {
	return date2j(year, mon, mday) - isoweek2j(date2isoyear(year, mon, mday), 1) + 1
}

func isLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// cPad is C's "%0*d" with width w (0: no padding); a negative value
// counts its sign in the width.
func cPad(v int64, w int) string {
	s := strconv.FormatInt(v, 10)
	if v < 0 {
		digits := s[1:]
		for len(digits)+1 < w {
			digits = "0" + digits
		}
		return "-" + digits
	}
	for len(s) < w {
		s = "0" + s
	}
	return s
}

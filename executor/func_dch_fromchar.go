package executor

import (
	"math"
	"strings"
	"time"

	"minipg/pgerr"
	"minipg/types"
)

// to_timestamp(text, text) and to_date(text, text): DCH_from_char reads
// the input against the template into a tmFromChar, and do_to_timestamp
// turns that into a date and time, range-checking as PostgreSQL 15 does.
//
// Outside FX mode spaces are skipped at the start of the input, before
// each field and after each field, and a separator or space of the
// template matches one space or separator of the input or nothing; a
// character of the template consumes one input character whatever it is,
// unless spaces were skipped for it already. In FX mode every template
// character, separators included, consumes exactly one input character.
// A numeric field reads as many digits as there are (strtol) in fill mode
// (FM) or when the next template item is not a digit field; otherwise
// exactly its width.

// tmFromChar is TmFromChar.
type tmFromChar struct {
	mode                                 dchMode
	hh, pm, mi, ss, ssss, d, dd, ddd, mm int
	ms, year, bc, ww, w, cc, j, us       int
	yysz                                 int
	clock12                              bool
	tzsign, tzh, tzm, ff                 int
}

// parsedTimestamp is do_to_timestamp's result.
type parsedTimestamp struct {
	year, mon, mday, hour, min, sec int64
	fsec                            int64
	fprec                           int
	hasTZ                           bool
	tzEast                          int
}

func errDTFormat(format string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.InvalidDatetimeFormat, format, args...)
}

// setInt is from_char_set_int.
func setInt(dest *int, v int, n *dchNode) error {
	if *dest != 0 && *dest != v {
		return errDTFormat("conflicting values for \"%s\" field in formatting string", n.key.name).
			WithDetail("This value contradicts a previous setting for the same field type.")
	}
	*dest = v
	return nil
}

// cStrtol is strtol(s, &end, 10): leading white space, a sign, digits.
// It returns the value (clamped, with overflow set, past int64) and the
// bytes consumed, 0 when there are no digits.
func cStrtol(s string) (v int64, n int, overflow bool) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var u uint64
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if u > (math.MaxUint64-9)/10 {
			overflow = true
		} else {
			u = u*10 + uint64(s[i]-'0')
		}
		i++
	}
	if i == start {
		return 0, 0, false
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
	return v, i, overflow
}

// isNextSeparator is is_next_separator: whether the item after node i
// cannot be a digit, so that a numeric field may read any number of digits.
func isNextSeparator(nodes []dchNode, i int) bool {
	if nodes[i].typ == dchAction && nodes[i].thth() {
		return true
	}
	if i+1 >= len(nodes) {
		return true
	}
	next := &nodes[i+1]
	if next.typ == dchAction {
		return !next.key.isDigit
	}
	return !(len(next.char) == 1 && next.char[0] >= '0' && next.char[0] <= '9')
}

// dchFromChar is DCH_from_char (to_timestamp's non-standard mode).
func dchFromChar(nodes []dchNode, in string, out *tmFromChar) error {
	s := in
	pos := 0 // bytes of in consumed
	advance := func(k int) {
		s = s[k:]
		pos += k
	}
	fx := false
	extraSkip := 0
	skipSpaces := func() {
		for len(s) > 0 && isCSpace(s[0]) {
			advance(1)
			extraSkip++
		}
	}
	// parseIntLen is from_char_parse_int_len; it returns the number of
	// bytes consumed.
	parseIntLen := func(dest *int, width int, i int) (int, error) {
		n := &nodes[i]
		init := pos
		for len(s) > 0 && isCSpace(s[0]) {
			advance(1)
		}
		cp := s
		if len(cp) > width {
			cp = cp[:width]
		}
		var result int64
		var overflow bool
		if n.fm() || isNextSeparator(nodes, i) {
			v, k, of := cStrtol(in[init:])
			result, overflow = v, of
			if k > 0 {
				s = in[init+k:]
				pos = init + k
			} else {
				s = in[init:]
				pos = init
			}
		} else {
			if len(cp) < width {
				return 0, errDTFormat("source string too short for \"%s\" formatting field", n.key.name).
					WithDetail("Field requires %d characters, but only %d remain.", width, len(cp)).
					WithHint("If your source string is not fixed-width, try using the \"FM\" modifier.")
			}
			v, used, of := cStrtol(cp)
			result, overflow = v, of
			if used > 0 && used < width {
				return 0, errDTFormat("invalid value \"%s\" for \"%s\"", cp, n.key.name).
					WithDetail("Field requires %d characters, but only %d could be parsed.", width, used).
					WithHint("If your source string is not fixed-width, try using the \"FM\" modifier.")
			}
			advance(used)
		}
		if pos == init {
			return 0, errDTFormat("invalid value \"%s\" for \"%s\"", cp, n.key.name).
				WithDetail("Value must be an integer.")
		}
		if overflow || result < math.MinInt32 || result > math.MaxInt32 {
			return 0, pgerr.New(pgerr.DatetimeValueOutOfRange, "value for \"%s\" in source string is out of range", n.key.name).
				WithDetail("Value must be in the range %d to %d.", math.MinInt32, math.MaxInt32)
		}
		if dest != nil {
			if err := setInt(dest, int(result), n); err != nil {
				return 0, err
			}
		}
		return pos - init, nil
	}
	parseInt := func(dest *int, i int) (int, error) {
		return parseIntLen(dest, len(nodes[i].key.name), i)
	}
	// seqSearch is from_char_seq_search over a list matched without
	// regard to case, first entry first.
	seqSearch := func(list []string, n *dchNode) (int, error) {
		if s != "" {
			for k, cand := range list {
				if len(s) >= len(cand) && strings.EqualFold(s[:len(cand)], cand) {
					advance(len(cand))
					return k, nil
				}
			}
		}
		word := s
		for k := 0; k < len(word); k++ {
			if isCSpace(word[k]) {
				word = word[:k]
				break
			}
		}
		return 0, errDTFormat("invalid value \"%s\" for \"%s\"", word, n.key.name).
			WithDetail("The given value did not match any of the allowed values for this field.")
	}
	skipTH := func(n *dchNode) {
		if n.thth() {
			for k := 0; k < 2 && len(s) > 0; k++ {
				advance(charLen(s))
			}
		}
	}

	for i := 0; i < len(nodes) && len(s) > 0; i++ {
		n := &nodes[i]
		if !fx && (n.typ != dchAction || n.key.id != "FX") && (n.typ == dchAction || i == 0) {
			skipSpaces()
		}
		switch n.typ {
		case dchSpace, dchSeparator:
			if !fx {
				extraSkip--
				if len(s) > 0 && (isCSpace(s[0]) || isSeparatorChar(s[0])) {
					advance(1)
					extraSkip++
				}
			} else {
				advance(charLen(s))
			}
			continue
		case dchChar:
			if !fx && extraSkip > 0 {
				extraSkip--
			} else {
				advance(charLen(s))
			}
			continue
		}
		if n.key.mode != dchModeNone {
			if out.mode == dchModeNone {
				out.mode = n.key.mode
			} else if out.mode != n.key.mode {
				return errDTFormat("invalid combination of date conventions").
					WithHint("Do not mix Gregorian and ISO week date conventions in a formatting template.")
			}
		}
		var err error
		var k int
		switch n.key.id {
		case "FX":
			fx = true
		case "A.M.", "P.M.":
			if k, err = seqSearch([]string{"a.m.", "p.m.", "A.M.", "P.M."}, n); err == nil {
				err = setInt(&out.pm, k%2, n)
				out.clock12 = true
			}
		case "AM", "PM":
			if k, err = seqSearch([]string{"am", "pm", "AM", "PM"}, n); err == nil {
				err = setInt(&out.pm, k%2, n)
				out.clock12 = true
			}
		case "HH", "HH12":
			if _, err = parseIntLen(&out.hh, 2, i); err == nil {
				out.clock12 = true
				skipTH(n)
			}
		case "HH24":
			_, err = parseIntLen(&out.hh, 2, i)
			skipTH(n)
		case "MI":
			_, err = parseInt(&out.mi, i)
			skipTH(n)
		case "SS":
			_, err = parseInt(&out.ss, i)
			skipTH(n)
		case "MS":
			var l int
			if l, err = parseIntLen(&out.ms, 3, i); err == nil {
				switch l {
				case 1:
					out.ms *= 100
				case 2:
					out.ms *= 10
				}
				skipTH(n)
			}
		case "FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "US":
			width := 6
			if n.key.id != "US" {
				out.ff = int(n.key.id[2] - '0')
				width = out.ff
			}
			var l int
			if l, err = parseIntLen(&out.us, width, i); err == nil {
				if l >= 1 && l <= 5 {
					out.us *= int(math.Pow10(6 - l))
				}
				skipTH(n)
			}
		case "SSSS", "SSSSS":
			_, err = parseInt(&out.ssss, i)
			skipTH(n)
		case "TZ", "OF":
			err = pgerr.New(pgerr.FeatureNotSupported, "formatting field \"%s\" is only supported in to_char", n.key.name)
		case "TZH":
			if len(s) > 0 && (s[0] == '+' || s[0] == '-' || s[0] == ' ') {
				out.tzsign = 1
				if s[0] == '-' {
					out.tzsign = -1
				}
				advance(1)
			} else if extraSkip > 0 && pos > 0 && in[pos-1] == '-' {
				out.tzsign = -1
			} else {
				out.tzsign = 1
			}
			_, err = parseIntLen(&out.tzh, 2, i)
		case "TZM":
			if out.tzsign == 0 {
				out.tzsign = 1
			}
			_, err = parseIntLen(&out.tzm, 2, i)
		case "A.D.", "B.C.":
			if k, err = seqSearch([]string{"a.d.", "b.c.", "A.D.", "B.C."}, n); err == nil {
				err = setInt(&out.bc, k%2, n)
			}
		case "AD", "BC":
			if k, err = seqSearch([]string{"ad", "bc", "AD", "BC"}, n); err == nil {
				err = setInt(&out.bc, k%2, n)
			}
		case "MONTH":
			if k, err = seqSearch(monthNames, n); err == nil {
				err = setInt(&out.mm, k+1, n)
			}
		case "MON":
			if k, err = seqSearch(monthAbbrevs, n); err == nil {
				err = setInt(&out.mm, k+1, n)
			}
		case "MM":
			_, err = parseInt(&out.mm, i)
			skipTH(n)
		case "DAY":
			if k, err = seqSearch(dayNames, n); err == nil {
				if err = setInt(&out.d, k, n); err == nil {
					out.d++
				}
			}
		case "DY":
			if k, err = seqSearch(dayAbbrevs, n); err == nil {
				if err = setInt(&out.d, k, n); err == nil {
					out.d++
				}
			}
		case "DDD":
			_, err = parseInt(&out.ddd, i)
			skipTH(n)
		case "IDDD":
			_, err = parseIntLen(&out.ddd, 3, i)
			skipTH(n)
		case "DD":
			_, err = parseInt(&out.dd, i)
			skipTH(n)
		case "D":
			_, err = parseInt(&out.d, i)
			skipTH(n)
		case "ID":
			if _, err = parseIntLen(&out.d, 1, i); err == nil {
				if out.d++; out.d > 7 {
					out.d = 1
				}
				skipTH(n)
			}
		case "WW", "IW":
			_, err = parseInt(&out.ww, i)
			skipTH(n)
		case "Q":
			_, err = parseInt(nil, i)
			skipTH(n)
		case "CC":
			_, err = parseInt(&out.cc, i)
			skipTH(n)
		case "Y,YYY":
			millennia, k1, _ := cStrtol(s)
			ok := k1 > 0 && k1 < len(s) && s[k1] == ','
			var years int64
			var nch int
			if ok {
				rest := s[k1+1:]
				sp := 0
				for sp < len(rest) && isCSpace(rest[sp]) {
					sp++
				}
				lim := rest[sp:]
				if len(lim) > 3 {
					lim = lim[:3]
				}
				var k2 int
				years, k2, _ = cStrtol(lim)
				ok = k2 > 0
				nch = k1 + 1 + sp + k2
			}
			if !ok {
				err = errDTFormat("invalid input string for \"Y,YYY\"")
				break
			}
			if err = setInt(&out.year, int(int32(years+millennia*1000)), n); err == nil {
				out.yysz = 4
				advance(nch)
				skipTH(n)
			}
		case "YYYY", "IYYY":
			_, err = parseInt(&out.year, i)
			out.yysz = 4
			skipTH(n)
		case "YYY", "IYY", "YY", "IY", "Y", "I":
			var l int
			if l, err = parseInt(&out.year, i); err == nil {
				digits := len(n.key.id)
				if l < 4 {
					out.year = adjustPartialYear(out.year)
				}
				out.yysz = digits
				skipTH(n)
			}
		case "RM":
			if k, err = seqSearch(romanMonthsUpper, n); err == nil {
				err = setInt(&out.mm, 12-k, n)
			}
		case "W":
			_, err = parseInt(&out.w, i)
			skipTH(n)
		case "J":
			_, err = parseInt(&out.j, i)
			skipTH(n)
		}
		if err != nil {
			return err
		}
		if !fx {
			extraSkip = 0
			skipSpaces()
		}
	}
	return nil
}

// adjustPartialYear is adjust_partial_year_to_2020: a year given in
// fewer than four digits, moved toward 2020.
func adjustPartialYear(year int) int {
	switch {
	case year < 70:
		return year + 2000
	case year < 100:
		return year + 1900
	case year < 520:
		return year + 2000
	case year < 1000:
		return year + 1000
	}
	return year
}

func errFieldOverflow(in string) error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", in)
}

// doToTimestamp is do_to_timestamp.
func doToTimestamp(in, format string) (*parsedTimestamp, error) {
	var tmfc tmFromChar
	if format != "" {
		if err := dchFromChar(parseDCH(format), in, &tmfc); err != nil {
			return nil, err
		}
	}
	tm := &parsedTimestamp{mon: 1, mday: 1}
	const (
		fYear = 1 << iota
		fMonth
		fDay
	)
	fmask := 0
	if tmfc.ssss != 0 {
		x := int64(tmfc.ssss)
		tm.hour = x / 3600
		x %= 3600
		tm.min = x / 60
		tm.sec = x % 60
	}
	if tmfc.ss != 0 {
		tm.sec = int64(tmfc.ss)
	}
	if tmfc.mi != 0 {
		tm.min = int64(tmfc.mi)
	}
	if tmfc.hh != 0 {
		tm.hour = int64(tmfc.hh)
	}
	if tmfc.clock12 {
		if tm.hour < 1 || tm.hour > 12 {
			return nil, errDTFormat("hour \"%d\" is invalid for the 12-hour clock", tm.hour).
				WithHint("Use the 24-hour clock, or give an hour between 1 and 12.")
		}
		if tmfc.pm != 0 && tm.hour < 12 {
			tm.hour += 12
		} else if tmfc.pm == 0 && tm.hour == 12 {
			tm.hour = 0
		}
	}
	// The year arithmetic is C's int arithmetic, wrapping as it does.
	var year int32
	cc := int32(tmfc.cc)
	if tmfc.bc != 0 && cc != 0 && (tmfc.year == 0 || tmfc.yysz <= 2) {
		cc = -cc
	}
	if tmfc.year != 0 {
		if cc != 0 && tmfc.yysz <= 2 {
			year = int32(tmfc.year % 100)
			if year != 0 {
				if cc >= 0 {
					year += (cc - 1) * 100
				} else {
					year = (cc+1)*100 - year + 1
				}
			} else {
				year = cc * 100
				if cc < 0 {
					year++
				}
			}
		} else {
			year = int32(tmfc.year)
			if tmfc.bc != 0 {
				year = -year
			}
			if year < 0 {
				year++
			}
		}
		fmask |= fYear
	} else if cc != 0 {
		if cc >= 0 {
			year = (cc-1)*100 + 1
		} else {
			year = cc*100 + 1
		}
		fmask |= fYear
	}
	tm.year = int64(year)
	if tmfc.j != 0 {
		tm.year, tm.mon, tm.mday = j2date(int64(tmfc.j))
		fmask |= fYear | fMonth | fDay
	}
	if tmfc.ww != 0 {
		if tmfc.mode == dchModeISOWeek {
			jday := isoweek2j(tm.year, int64(tmfc.ww))
			if tmfc.d != 0 {
				if tmfc.d > 1 {
					jday += int64(tmfc.d) - 2
				} else {
					jday += 6
				}
			}
			tm.year, tm.mon, tm.mday = j2date(jday)
			fmask |= fYear | fMonth | fDay
		} else {
			tmfc.ddd = (tmfc.ww-1)*7 + 1
		}
	}
	if tmfc.w != 0 {
		tmfc.dd = (tmfc.w-1)*7 + 1
	}
	if tmfc.dd != 0 {
		tm.mday = int64(tmfc.dd)
		fmask |= fDay
	}
	if tmfc.mm != 0 {
		tm.mon = int64(tmfc.mm)
		fmask |= fMonth
	}
	if tmfc.ddd != 0 && (tm.mon <= 1 || tm.mday <= 1) {
		if tm.year == 0 && tmfc.bc == 0 {
			return nil, errDTFormat("cannot calculate day of year without year information")
		}
		if tmfc.mode == dchModeISOWeek {
			j0 := isoweek2j(tm.year, 1) - 1
			tm.year, tm.mon, tm.mday = j2date(j0 + int64(tmfc.ddd))
			fmask |= fYear | fMonth | fDay
		} else {
			ysum := [2][13]int64{
				{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365},
				{0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366}}
			y := ysum[boolInt(isLeap(tm.year))]
			i := 1
			for ; i <= 12; i++ {
				if int64(tmfc.ddd) <= y[i] {
					break
				}
			}
			if tm.mon <= 1 {
				tm.mon = int64(i)
			}
			if tm.mday <= 1 {
				tm.mday = int64(tmfc.ddd) - y[i-1]
			}
			fmask |= fMonth | fDay
		}
	}
	if tmfc.ms != 0 {
		tm.fsec += int64(tmfc.ms) * 1000
	}
	if tmfc.us != 0 {
		tm.fsec += int64(tmfc.us)
	}
	tm.fprec = tmfc.ff
	if fmask != 0 {
		// ValidateDate
		if fmask&fMonth != 0 && (tm.mon < 1 || tm.mon > 12) {
			return nil, errFieldOverflow(in)
		}
		if fmask&fDay != 0 && (tm.mday < 1 || tm.mday > 31) {
			return nil, errFieldOverflow(in)
		}
		if fmask == fYear|fMonth|fDay && tm.mday > daysInMonth(tm.year, tm.mon) {
			return nil, errFieldOverflow(in)
		}
	}
	if tm.hour < 0 || tm.hour >= 24 || tm.min < 0 || tm.min >= 60 || tm.sec < 0 || tm.sec >= 60 || tm.fsec < 0 || tm.fsec >= 1e6 {
		return nil, errFieldOverflow(in)
	}
	if tmfc.tzsign != 0 {
		if tmfc.tzh < 0 || tmfc.tzh > 15 || tmfc.tzm < 0 || tmfc.tzm >= 60 {
			return nil, pgerr.New(pgerr.InvalidTimeZoneDisplacementValue, "time zone displacement out of range: \"%s\"", in)
		}
		tm.hasTZ = true
		tm.tzEast = tmfc.tzsign * (tmfc.tzh*3600 + tmfc.tzm*60)
	}
	return tm, nil
}

func daysInMonth(y, m int64) int64 {
	days := [12]int64{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	if m == 2 && isLeap(y) {
		return 29
	}
	return days[m-1]
}

// validJulian is IS_VALID_JULIAN.
func validJulian(y, m int64) bool {
	return (y > -4713 || (y == -4713 && m >= 11)) && (y < 5874898 || (y == 5874898 && m < 6))
}

// toTimestamp is to_timestamp(text, text): the local time read from in,
// placed in the zone TZH/TZM gave or else in loc.
func toTimestamp(in, format string, loc *time.Location) (types.Datum, error) {
	tm, err := doToTimestamp(in, format)
	if err != nil {
		return nil, err
	}
	errRange := pgerr.New(pgerr.DatetimeValueOutOfRange, "timestamp out of range")
	if !validJulian(tm.year, tm.mon) {
		return nil, errRange
	}
	date := date2j(tm.year, tm.mon, tm.mday) - 2451545
	tod := ((tm.hour*60+tm.min)*60+tm.sec)*1e6 + tm.fsec
	local := date*types.USecsPerDay + tod
	if (local-tod)/types.USecsPerDay != date || (local < 0 && date > 0) || (local > 0 && date < -1) {
		return nil, errRange
	}
	var us int64
	if tm.hasTZ {
		us = local - int64(tm.tzEast)*1e6
	} else {
		us = types.LocalToUTC(local, loc)
	}
	const minTimestamp, endTimestamp = -211813488000000000, 9223371331200000000
	if us < minTimestamp || us >= endTimestamp {
		return nil, errRange
	}
	if tm.fprec > 0 && tm.fprec < 6 {
		scale := int64(math.Pow10(6 - tm.fprec))
		if us >= 0 {
			us = (us + scale/2) / scale * scale
		} else {
			us = -(((-us) + scale/2) / scale * scale)
		}
	}
	return types.MicrosToTimestamp(us), nil
}

// toDate is to_date(text, text).
func toDate(in, format string) (types.Datum, error) {
	tm, err := doToTimestamp(in, format)
	if err != nil {
		return nil, err
	}
	errRange := pgerr.New(pgerr.DatetimeValueOutOfRange, "date out of range: \"%s\"", in)
	if !validJulian(tm.year, tm.mon) {
		return nil, errRange
	}
	d := date2j(tm.year, tm.mon, tm.mday) - 2451545
	if d < -2451545 || d >= 2145031949 {
		return nil, errRange
	}
	return types.DaysToDate(int32(d)), nil
}

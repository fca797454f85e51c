package executor

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// The data type formatting functions of PostgreSQL 15's section 9.8:
// to_char over timestamp (and date, through its implicit cast) and the
// numeric types, to_number and to_date. No maintained Go library
// implements PostgreSQL's patterns, so the patterns are tables here:
// dtPatterns for dates and times, and the number patterns 9 0 . D , G S MI
// PL SG PR FM TH RN EEEE in numFormat. to_char over timestamptz formats
// the local time in the session's TimeZone (the zone patterns TZ, OF, TZH
// and TZM are not built yet); to_timestamp(text, text) and to_char over
// interval are not built yet.

func init() {
	stable := sql.Stable
	builtin("to_char", oids(ts, tx), tx, stable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		t := a[0].(time.Time)
		if a[1].(string) == "" || t.Equal(types.TimestampInfinity) || t.Equal(types.TimestampNegInfinity) {
			return nil, nil
		}
		return toCharTime(t, a[1].(string)), nil
	})
	builtin("to_char", oids(tsz, tx), tx, stable, func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		t := a[0].(time.Time)
		if a[1].(string) == "" || !isFiniteTS(t) {
			return nil, nil
		}
		lt, _ := localTime(t, env.(*evalCtx).loc())
		return toCharTime(lt, a[1].(string)), nil
	})
	for _, t := range []types.OID{i4, i8, nu} {
		builtin("to_char", oids(t, tx), tx, stable, func(_ any, a []types.Datum, f *sql.Func) (types.Datum, error) {
			var d *apd.Decimal
			switch v := a[0].(type) {
			case int64:
				d = types.NumericFromInt64(v)
			case *apd.Decimal:
				d = v
			}
			return numFormat(d, a[1].(string), -1)
		})
	}
	// float4 and float8 print at most FLT_DIG (6) and DBL_DIG (15)
	// significant digits: the fraction gets what the integer part leaves,
	// and format positions past it print nothing (float4_to_char,
	// float8_to_char).
	for _, fl := range []struct {
		t      types.OID
		digits int
		bits   int
	}{{types.Float4, 6, 32}, {f8, 15, 64}} {
		builtin("to_char", oids(fl.t, tx), tx, stable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			v, format := a[0].(float64), a[1].(string)
			if format == "" {
				return nil, nil
			}
			n, err := parseNumFormat(format)
			if err != nil {
				return nil, err
			}
			if math.IsNaN(v) || math.IsInf(v, 0) || n.eeee || n.roman != 0 {
				d, _, err := apd.NewFromString(strconv.FormatFloat(v, 'g', fl.digits, fl.bits))
				if err != nil {
					return strings.Repeat("#", len(format)), nil
				}
				return numFormat(d, format, -1)
			}
			preLen := len(strconv.FormatFloat(math.Abs(v), 'f', 0, fl.bits))
			post := n.post
			if preLen >= fl.digits {
				post = 0
			} else if preLen+post > fl.digits {
				post = fl.digits - preLen
			}
			d, _, err := apd.NewFromString(strconv.FormatFloat(v, 'f', post, fl.bits))
			if err != nil {
				return nil, err
			}
			return numFormat(d, format, post)
		})
	}
	builtin("to_number", oids(tx, tx), nu, stable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return toNumber(a[0].(string), a[1].(string))
	})
	builtin("to_date", oids(tx, tx), dt, stable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return toDate(a[0].(string), a[1].(string))
	})
}

// dtPattern is one date/time template pattern: its spellings (matched
// case-sensitively, longest first) and its output.
type dtPattern struct {
	names []string
	out   func(t time.Time, fm bool, name string) string
}

var monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
var dayNames = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
var romanMonths = []string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"}

// pad0 is %0*d with width w, or %d in fill mode.
func pad0(v int, w int, fm bool) string {
	if fm {
		return strconv.Itoa(v)
	}
	if v < 0 {
		return "-" + fmt.Sprintf("%0*d", w, -v)
	}
	return fmt.Sprintf("%0*d", w, v)
}

// casedName renders a name as the pattern's case asks (MONTH, Month,
// month), padded to width unless in fill mode.
func casedName(name, pattern string, width int, fm bool) string {
	switch {
	case pattern == strings.ToUpper(pattern):
		name = strings.ToUpper(name)
	case pattern == strings.ToLower(pattern):
		name = strings.ToLower(name)
	}
	if !fm && len(name) < width {
		name += strings.Repeat(" ", width-len(name))
	}
	return name
}

// bcYear is the year as PostgreSQL prints it: 1 BC is 1.
func bcYear(t time.Time) int {
	if y := t.Year(); y <= 0 {
		return 1 - y
	}
	return t.Year()
}

var dtPatterns = []dtPattern{
	{[]string{"HH24", "hh24"}, func(t time.Time, fm bool, _ string) string { return pad0(t.Hour(), 2, fm) }},
	{[]string{"HH12", "hh12", "HH", "hh"}, func(t time.Time, fm bool, _ string) string {
		h := t.Hour() % 12
		if h == 0 {
			h = 12
		}
		return pad0(h, 2, fm)
	}},
	{[]string{"MI", "mi"}, func(t time.Time, fm bool, _ string) string { return pad0(t.Minute(), 2, fm) }},
	{[]string{"SSSSS", "sssss", "SSSS", "ssss"}, func(t time.Time, _ bool, _ string) string {
		return strconv.Itoa(t.Hour()*3600 + t.Minute()*60 + t.Second())
	}},
	{[]string{"SS", "ss"}, func(t time.Time, fm bool, _ string) string { return pad0(t.Second(), 2, fm) }},
	{[]string{"MS", "ms"}, func(t time.Time, fm bool, _ string) string { return pad0(t.Nanosecond()/1e6, 3, fm) }},
	{[]string{"US", "us"}, func(t time.Time, fm bool, _ string) string { return pad0(t.Nanosecond()/1e3, 6, fm) }},
	{[]string{"FF1", "ff1", "FF2", "ff2", "FF3", "ff3", "FF4", "ff4", "FF5", "ff5", "FF6", "ff6"}, func(t time.Time, fm bool, name string) string {
		n := int(name[2] - '0')
		v := t.Nanosecond() / 1000
		for i := 6; i > n; i-- {
			v /= 10
		}
		return pad0(v, n, fm)
	}},
	{[]string{"A.M.", "P.M.", "a.m.", "p.m.", "AM", "PM", "am", "pm"}, func(t time.Time, _ bool, name string) string {
		s := "AM"
		if t.Hour() >= 12 {
			s = "PM"
		}
		if strings.Contains(name, ".") {
			s = s[:1] + "." + s[1:] + "."
		}
		if name[0] >= 'a' {
			s = strings.ToLower(s)
		}
		return s
	}},
	{[]string{"B.C.", "A.D.", "b.c.", "a.d.", "BC", "AD", "bc", "ad"}, func(t time.Time, _ bool, name string) string {
		s := "AD"
		if t.Year() <= 0 {
			s = "BC"
		}
		if strings.Contains(name, ".") {
			s = s[:1] + "." + s[1:] + "."
		}
		if name[0] >= 'a' {
			s = strings.ToLower(s)
		}
		return s
	}},
	{[]string{"Y,YYY", "y,yyy"}, func(t time.Time, _ bool, _ string) string {
		y := bcYear(t)
		return fmt.Sprintf("%d,%03d", y/1000, y%1000)
	}},
	{[]string{"YYYY", "yyyy"}, func(t time.Time, fm bool, _ string) string { return pad0(bcYear(t), 4, fm) }},
	{[]string{"YYY", "yyy"}, func(t time.Time, fm bool, _ string) string { return pad0(bcYear(t)%1000, 3, fm) }},
	{[]string{"YY", "yy"}, func(t time.Time, fm bool, _ string) string { return pad0(bcYear(t)%100, 2, fm) }},
	{[]string{"IYYY", "iyyy"}, func(t time.Time, fm bool, _ string) string { y, _ := t.ISOWeek(); return pad0(y, 4, fm) }},
	{[]string{"IDDD", "iddd"}, func(t time.Time, fm bool, _ string) string {
		_, w := t.ISOWeek()
		return pad0((w-1)*7+(int(t.Weekday())+6)%7+1, 3, fm)
	}},
	{[]string{"IYY", "iyy"}, func(t time.Time, fm bool, _ string) string { y, _ := t.ISOWeek(); return pad0(y%1000, 3, fm) }},
	{[]string{"IY", "iy"}, func(t time.Time, fm bool, _ string) string { y, _ := t.ISOWeek(); return pad0(y%100, 2, fm) }},
	{[]string{"ID", "id"}, func(t time.Time, _ bool, _ string) string { return strconv.Itoa((int(t.Weekday())+6)%7 + 1) }},
	{[]string{"IW", "iw"}, func(t time.Time, fm bool, _ string) string { _, w := t.ISOWeek(); return pad0(w, 2, fm) }},
	{[]string{"I", "i"}, func(t time.Time, _ bool, _ string) string { y, _ := t.ISOWeek(); return strconv.Itoa(y % 10) }},
	{[]string{"Y", "y"}, func(t time.Time, _ bool, _ string) string { return strconv.Itoa(bcYear(t) % 10) }},
	{[]string{"MONTH", "Month", "month"}, func(t time.Time, fm bool, name string) string {
		return casedName(monthNames[t.Month()-1], name, 9, fm)
	}},
	{[]string{"MON", "Mon", "mon"}, func(t time.Time, _ bool, name string) string {
		return casedName(monthNames[t.Month()-1][:3], name, 0, true)
	}},
	{[]string{"MM", "mm"}, func(t time.Time, fm bool, _ string) string { return pad0(int(t.Month()), 2, fm) }},
	{[]string{"DAY", "Day", "day"}, func(t time.Time, fm bool, name string) string {
		return casedName(dayNames[t.Weekday()], name, 9, fm)
	}},
	{[]string{"DY", "Dy", "dy"}, func(t time.Time, _ bool, name string) string {
		return casedName(dayNames[t.Weekday()][:3], name, 0, true)
	}},
	{[]string{"DDD", "ddd"}, func(t time.Time, fm bool, _ string) string { return pad0(t.YearDay(), 3, fm) }},
	{[]string{"DD", "dd"}, func(t time.Time, fm bool, _ string) string { return pad0(t.Day(), 2, fm) }},
	{[]string{"D", "d"}, func(t time.Time, _ bool, _ string) string { return strconv.Itoa(int(t.Weekday()) + 1) }},
	{[]string{"WW", "ww"}, func(t time.Time, fm bool, _ string) string { return pad0((t.YearDay()-1)/7+1, 2, fm) }},
	{[]string{"W", "w"}, func(t time.Time, _ bool, _ string) string { return strconv.Itoa((t.Day()-1)/7 + 1) }},
	{[]string{"CC", "cc"}, func(t time.Time, fm bool, _ string) string {
		y := t.Year()
		var c int
		if y > 0 {
			c = (y + 99) / 100
		} else {
			c = -((99 - (y - 1)) / 100)
		}
		return pad0(c, 2, fm)
	}},
	{[]string{"J", "j"}, func(t time.Time, _ bool, _ string) string { return strconv.Itoa(int(types.DateDays(t)) + 2451545) }},
	{[]string{"Q", "q"}, func(t time.Time, _ bool, _ string) string { return strconv.Itoa(int(t.Month()-1)/3 + 1) }},
	{[]string{"RM", "rm"}, func(t time.Time, fm bool, name string) string {
		return casedName(romanMonths[t.Month()-1], name, 4, fm)
	}},
	{[]string{"TZH", "tzh", "TZM", "tzm", "TZ", "tz", "OF", "of"}, func(time.Time, bool, string) string { return "" }},
}

// ordinal is the English suffix of n (st, nd, rd, th).
func ordinal(n int, upper bool) string {
	if n < 0 {
		n = -n
	}
	s := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			s = "st"
		case 2:
			s = "nd"
		case 3:
			s = "rd"
		}
	}
	if upper {
		return strings.ToUpper(s)
	}
	return s
}

// matchDT finds the pattern at the start of f.
func matchDT(f string) (*dtPattern, string) {
	for i := range dtPatterns {
		for _, n := range dtPatterns[i].names {
			if strings.HasPrefix(f, n) {
				return &dtPatterns[i], n
			}
		}
	}
	return nil, ""
}

// toCharTime is timestamp_to_char.
func toCharTime(t time.Time, f string) string {
	var b strings.Builder
	for len(f) > 0 {
		fm := false
		for {
			switch {
			case strings.HasPrefix(f, "FM") || strings.HasPrefix(f, "fm"):
				fm, f = true, f[2:]
				continue
			case strings.HasPrefix(f, "TM") || strings.HasPrefix(f, "tm"), strings.HasPrefix(f, "FX") || strings.HasPrefix(f, "fx"):
				f = f[2:]
				continue
			}
			break
		}
		if len(f) == 0 {
			break
		}
		if p, name := matchDT(f); p != nil {
			out := p.out(t, fm, name)
			b.WriteString(out)
			f = f[len(name):]
			if strings.HasPrefix(f, "TH") || strings.HasPrefix(f, "th") {
				if n, err := strconv.Atoi(strings.TrimSpace(out)); err == nil {
					b.WriteString(ordinal(n, f[0] == 'T'))
				}
				f = f[2:]
			}
			continue
		}
		switch f[0] {
		case '"':
			f = f[1:]
			for len(f) > 0 && f[0] != '"' {
				if f[0] == '\\' && len(f) > 1 {
					f = f[1:]
				}
				b.WriteByte(f[0])
				f = f[1:]
			}
			if len(f) > 0 {
				f = f[1:]
			}
			continue
		case '\\':
			if len(f) > 1 && f[1] == '"' {
				b.WriteByte('"')
				f = f[2:]
				continue
			}
		}
		b.WriteByte(f[0])
		f = f[1:]
	}
	return b.String()
}

// numToken is one element of a number format.
type numToken struct {
	kind byte // '9' '0' '.' ',' 'S' 'M'(MI) 'P'(PL) 'G'(SG) 'R'(PR) 'T'(TH) 't'(th) 'E'(EEEE) 'N'(RN) 'n'(rn) 'L' literal
	lit  string
}

// numFmt is a parsed number format.
type numFmt struct {
	toks           []numToken
	pre, post      int
	zeroStart      int // index of the first 0 among the integer digits, -1 if none
	fm, sign, eeee bool
	decimal, pr    bool
	roman          byte
	multi          int // digits after V: the value is multiplied by 10^multi
	v              bool
}

func parseNumFormat(f string) (*numFmt, error) {
	n := &numFmt{zeroStart: -1}
	for len(f) > 0 {
		up := strings.ToUpper(f)
		add := func(k byte, w int) {
			n.toks = append(n.toks, numToken{kind: k})
			f = f[w:]
		}
		switch {
		case f[0] == '9' || f[0] == '0':
			if n.v {
				n.multi++
			}
			if n.decimal {
				n.post++
			} else {
				if f[0] == '0' && n.zeroStart < 0 {
					n.zeroStart = n.pre
				}
				n.pre++
			}
			add(f[0], 1)
		case up[0] == 'V':
			if n.decimal {
				return nil, pgerr.New(pgerr.SyntaxError, "cannot use \"V\" and decimal point together")
			}
			n.v = true
			f = f[1:]
		case f[0] == '.' || up[0] == 'D':
			if n.decimal {
				return nil, pgerr.New(pgerr.SyntaxError, "multiple decimal points")
			}
			if n.v {
				return nil, pgerr.New(pgerr.SyntaxError, "cannot use \"V\" and decimal point together")
			}
			n.decimal = true
			add('.', 1)
		case f[0] == ',' || up[0] == 'G' && !strings.HasPrefix(up, "GS"):
			add(',', 1)
		case strings.HasPrefix(up, "FM"):
			n.fm = true
			f = f[2:]
		case strings.HasPrefix(up, "MI"):
			n.sign = true
			add('M', 2)
		case strings.HasPrefix(up, "PL"):
			// PL adds a plus sign and keeps the sign position.
			add('P', 2)
		case strings.HasPrefix(up, "SG"):
			n.sign = true
			add('G', 2)
		case strings.HasPrefix(up, "PR"):
			n.pr, n.sign = true, true
			add('R', 2)
		case strings.HasPrefix(up, "TH"):
			add(f[0], 2)
		case strings.HasPrefix(up, "EEEE"):
			n.eeee = true
			add('E', 4)
		case strings.HasPrefix(up, "RN"):
			n.roman = f[0]
			add('N', 2)
		case up[0] == 'S':
			n.sign = true
			add('S', 1)
		case f[0] == '"':
			f = f[1:]
			for len(f) > 0 && f[0] != '"' {
				n.toks = append(n.toks, numToken{kind: 'L', lit: f[:1]})
				f = f[1:]
			}
			if len(f) > 0 {
				f = f[1:]
			}
		default:
			n.toks = append(n.toks, numToken{kind: 'L', lit: f[:1]})
			f = f[1:]
		}
	}
	return n, nil
}

// roman renders 1..3999 in Roman numerals.
func roman(v int) string {
	vals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var b strings.Builder
	for i, x := range vals {
		for v >= x {
			b.WriteString(syms[i])
			v -= x
		}
	}
	return b.String()
}

// numFormat is numeric_to_char (and int4/int8/float8_to_char). maxPost,
// when not -1, is the number of fraction digits the value has: format
// positions past them print nothing.
func numFormat(d *apd.Decimal, format string, maxPost int) (types.Datum, error) {
	if format == "" {
		return nil, nil
	}
	n, err := parseNumFormat(format)
	if err != nil {
		return nil, err
	}
	if n.roman != 0 {
		r := types.NumericRound(d, 0)
		v, err := r.Int64()
		var s string
		if err != nil || v < 1 || v > 3999 || d.Form != apd.Finite {
			s = strings.Repeat("#", 15)
		} else {
			s = roman(int(v))
			if !n.fm {
				s = fmt.Sprintf("%15s", s)
			}
		}
		if n.roman == 'r' {
			s = strings.ToLower(s)
		}
		return s, nil
	}
	if n.multi > 0 && d.Form == apd.Finite {
		m := new(apd.Decimal).Set(d)
		m.Exponent += int32(n.multi)
		d = m
	}
	neg := d.Negative && !d.IsZero()
	var intStr, fracStr, expStr string
	if n.eeee {
		if d.Form != apd.Finite {
			return strings.Repeat("#", n.pre+n.post+6), nil
		}
		exp := 0
		m := new(apd.Decimal).Set(d)
		m.Negative = false
		if !m.IsZero() {
			exp = numDweight(m)
			m.Exponent -= int32(exp)
			m = types.NumericRound(m, n.post)
			if m.Cmp(apd.New(10, 0)) >= 0 {
				exp++
				m.Exponent--
				m = types.NumericRound(m, n.post)
			}
		} else {
			m = types.NumericRound(m, n.post)
		}
		s := m.Text('f')
		intStr, fracStr, _ = strings.Cut(s, ".")
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		expStr = fmt.Sprintf("e%s%02d", sign, exp)
	} else {
		r := types.NumericRound(d, n.post)
		r.Negative = false
		s := r.Text('f')
		intStr, fracStr, _ = strings.Cut(s, ".")
		if r.IsZero() {
			neg = false
		}
	}
	overflow := len(intStr) > n.pre && !n.eeee || d.Form != apd.Finite
	if intStr == "0" && n.post > 0 && n.zeroStart < 0 && !n.eeee {
		intStr = "" // IS_PREDEC_SPACE: 0.5 with 9.9 is " .5"
	}
	// Fill mode drops the fraction's trailing zeros printed by 9s.
	lastRelevant := len(fracStr)
	if n.fm {
		for lastRelevant > 0 && fracStr[lastRelevant-1] == '0' {
			lastRelevant--
		}
		// Digits up to the last 0 in the format stay.
		j := 0
		for _, t := range n.toks {
			if t.kind == '9' || t.kind == '0' {
				if j >= n.pre && t.kind == '0' {
					lastRelevant = max(lastRelevant, j-n.pre+1)
				}
				j++
			}
		}
	}
	outPreSpaces := n.pre - len(intStr)
	var b strings.Builder
	signWritten := n.sign && !hasLeadingS(n)
	writeSign := func() {
		if signWritten {
			return
		}
		signWritten = true
		switch {
		case hasLeadingS(n):
			if neg {
				b.WriteByte('-')
			} else {
				b.WriteByte('+')
			}
		case neg:
			b.WriteByte('-')
		case !n.fm:
			b.WriteByte(' ')
		}
	}
	i, j := 0, 0
	printed := false
	for k, t := range n.toks {
		switch t.kind {
		case '9', '0':
			if overflow {
				if !n.decimal || i < n.pre {
					if k == firstDigit(n) {
						writeSign()
					}
					b.WriteByte('#')
					i++
				} else {
					if maxPost < 0 || j < maxPost {
						b.WriteByte('#')
					}
					j++
				}
				continue
			}
			if i < n.pre {
				if i < outPreSpaces {
					if n.zeroStart >= 0 && i >= n.zeroStart {
						writeSign()
						b.WriteByte('0')
						printed = true
					} else if !n.fm {
						b.WriteByte(' ')
					}
				} else {
					writeSign()
					b.WriteByte(intStr[i-outPreSpaces])
					printed = true
				}
				i++
				continue
			}
			if j < len(fracStr) && (maxPost < 0 || j < maxPost) && (t.kind == '0' || j < lastRelevant || !n.fm) {
				b.WriteByte(fracStr[j])
			}
			j++
		case '.':
			writeSign()
			// A float with no digits left for the fraction has no point.
			if maxPost != 0 || overflow {
				b.WriteByte('.')
			}
		case ',':
			if printed {
				b.WriteByte(',')
			} else if !n.fm {
				b.WriteByte(' ')
			}
		case 'S':
			if !hasLeadingS(n) {
				if neg {
					b.WriteByte('-')
				} else {
					b.WriteByte('+')
				}
			}
		case 'M':
			if neg {
				b.WriteByte('-')
			} else if !n.fm {
				b.WriteByte(' ')
			}
		case 'P':
			if !neg {
				b.WriteByte('+')
			} else if !n.fm {
				b.WriteByte(' ')
			}
		case 'G':
			if neg {
				b.WriteByte('-')
			} else {
				b.WriteByte('+')
			}
		case 'R':
		case 'T', 't':
			if !overflow && !neg {
				v, _ := strconv.Atoi(intStr)
				b.WriteString(ordinal(v, t.kind == 'T'))
			}
		case 'E':
			if overflow {
				b.WriteString("####")
			} else {
				b.WriteString(expStr)
			}
		case 'L':
			b.WriteString(t.lit)
		}
	}
	if !signWritten {
		writeSign()
	}
	out := b.String()
	if n.pr {
		if neg {
			out = "<" + out + ">"
		} else if !n.fm {
			out = " " + out + " "
		}
	}
	return out, nil
}

// hasLeadingS reports whether the format has an S before its first digit
// (a sign that floats to the number).
func hasLeadingS(n *numFmt) bool {
	for _, t := range n.toks {
		switch t.kind {
		case 'S':
			return true
		case '9', '0', '.':
			return false
		}
	}
	return false
}

func firstDigit(n *numFmt) int {
	for k, t := range n.toks {
		if t.kind == '9' || t.kind == '0' {
			return k
		}
	}
	return -1
}

// toNumber is numeric_to_number: the input read against the format's
// digits, separators, decimal point and sign.
func toNumber(in, format string) (types.Datum, error) {
	n, err := parseNumFormat(format)
	if err != nil {
		return nil, err
	}
	if n.eeee {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "\"EEEE\" not supported for input")
	}
	var digits strings.Builder
	neg, inFrac, fracDigits := false, false, 0
	s := in
	skipSpaces := func() {
		for len(s) > 0 && s[0] == ' ' {
			s = s[1:]
		}
	}
	readSign := func() {
		skipSpaces()
		if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
			neg = s[0] == '-'
			s = s[1:]
		}
	}
	if n.pr {
		skipSpaces()
		if strings.HasPrefix(s, "<") {
			neg = true
			s = strings.TrimSuffix(strings.TrimSpace(s[1:]), ">")
		}
	}
	if !n.sign {
		readSign()
	}
	for _, t := range n.toks {
		if len(s) == 0 {
			break
		}
		switch t.kind {
		case '9', '0':
			if s[0] == ' ' && !inFrac && digits.Len() == 0 {
				s = s[1:]
				continue
			}
			if s[0] == '-' && !n.sign && digits.Len() == 0 {
				neg = true
				s = s[1:]
			}
			if len(s) > 0 && s[0] >= '0' && s[0] <= '9' {
				digits.WriteByte(s[0])
				if inFrac {
					fracDigits++
				}
				s = s[1:]
			}
		case '.':
			if s[0] == '.' {
				inFrac = true
				s = s[1:]
			}
		case ',':
			if s[0] == ',' {
				s = s[1:]
			}
		case 'S', 'M', 'P', 'G':
			readSign()
		case 'L':
			s = s[1:]
		}
	}
	if digits.Len() == 0 {
		return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type numeric: \" \"")
	}
	c, ok := new(apd.BigInt).SetString(digits.String(), 10)
	if !ok {
		return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type numeric: \"%s\"", in)
	}
	d := apd.NewWithBigInt(c, int32(-fracDigits))
	d.Negative = neg && !d.IsZero()
	return d, nil
}

// toDate is to_date: the input read against the date patterns YYYY YYY YY
// Y MM MON Month DD DDD J (others are skipped over as their width).
func toDate(in, format string) (types.Datum, error) {
	year, month, day, doy, jd := 0, 1, 1, 0, -1
	yearSet := false
	s := in
	f := format
	bc := false
	readInt := func(name string, maxDigits int) (int, error) {
		for len(s) > 0 && s[0] == ' ' {
			s = s[1:]
		}
		k := 0
		for k < len(s) && k < maxDigits && (s[k] >= '0' && s[k] <= '9' || k == 0 && s[k] == '-') {
			k++
		}
		v, err := strconv.Atoi(s[:k])
		if err != nil {
			word := s
			if i := strings.IndexAny(word, " -/.,"); i >= 0 {
				word = word[:i]
			}
			if len(word) > maxDigits && maxDigits < 100 {
				word = word[:maxDigits]
			}
			return 0, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid value \"%s\" for \"%s\"", word, name).
				WithDetail("Value must be an integer.")
		}
		s = s[k:]
		return v, nil
	}
	readName := func(name string, names []string, abbrev bool) (int, error) {
		for len(s) > 0 && s[0] == ' ' {
			s = s[1:]
		}
		for i, full := range names {
			cand := full
			if abbrev {
				cand = full[:3]
			}
			if len(s) >= len(cand) && strings.EqualFold(s[:len(cand)], cand) {
				s = s[len(cand):]
				return i, nil
			}
		}
		word := s
		if len(word) > 3 && abbrev {
			word = word[:3]
		}
		if i := strings.IndexAny(word, " -/.,"); i >= 0 {
			word = word[:i]
		}
		return 0, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid value \"%s\" for \"%s\"", word, name).
			WithDetail("The given value did not match any of the allowed values for this field.")
	}
	var err error
	for len(f) > 0 {
		if strings.HasPrefix(strings.ToUpper(f), "FM") || strings.HasPrefix(strings.ToUpper(f), "FX") {
			f = f[2:]
			continue
		}
		p, name := matchDT(f)
		if p == nil {
			// A separator or literal in the format skips one input
			// character; spaces in the input are skipped freely.
			if len(s) > 0 && !(s[0] >= '0' && s[0] <= '9') {
				s = s[1:]
			}
			f = f[1:]
			continue
		}
		f = f[len(name):]
		up := strings.ToUpper(name)
		switch up {
		case "YYYY", "IYYY":
			year, err = readInt(name, 4+boolInt(!nextIsDigitPattern(f)))
			yearSet = true
		case "YYY":
			year, err = readInt(name, 3)
			year += 2000
			if year > 2500 {
				year -= 1000
			}
			yearSet = true
		case "YY":
			year, err = readInt(name, 2)
			if year < 70 {
				year += 2000
			} else {
				year += 1900
			}
			yearSet = true
		case "Y":
			year, err = readInt(name, 1)
			year += 2000
			yearSet = true
		case "MM":
			month, err = readInt(name, 2)
		case "MONTH":
			month, err = readName(name, monthNames, false)
			month++
		case "MON":
			month, err = readName(name, monthNames, true)
			month++
		case "DD":
			day, err = readInt(name, 2)
		case "DDD":
			doy, err = readInt(name, 3)
		case "J":
			jd, err = readInt(name, 100)
		case "BC", "B.C.":
			if strings.HasPrefix(strings.ToUpper(s), "BC") {
				bc = true
				s = s[2:]
			} else if strings.HasPrefix(strings.ToUpper(s), "AD") {
				s = s[2:]
			}
		case "DAY":
			_, err = readName(name, dayNames, false)
		case "DY":
			_, err = readName(name, dayNames, true)
		default:
			// Time fields and the rest: read a number and ignore it.
			_, err = readInt(name, 6)
		}
		if err != nil {
			return nil, err
		}
	}
	if jd >= 0 {
		return types.DaysToDate(int32(jd - 2451545)), nil
	}
	if !yearSet {
		year = 1
	}
	if bc {
		year = -year + 1
	}
	if doy > 0 {
		t := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, doy-1)
		return t, nil
	}
	if month < 1 || month > 12 || day < 1 || day > 31 {
		return nil, pgerr.New(pgerr.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", in)
	}
	t := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if t.Day() != day {
		return nil, pgerr.New(pgerr.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", in)
	}
	return t, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// nextIsDigitPattern reports whether the format continues with a numeric
// pattern right away (YYYYMMDD), which limits YYYY to four digits.
func nextIsDigitPattern(f string) bool {
	p, _ := matchDT(f)
	return p != nil
}

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
// to_char over timestamp (and date, through its implicit cast),
// timestamptz, interval and the numeric types, to_number, to_date and
// to_timestamp(text, text). No maintained Go library implements
// PostgreSQL's patterns, so they are tables here: the date/time template
// in func_dch.go (to_char in func_dch_tochar.go, to_timestamp and to_date
// in func_dch_fromchar.go), and the number patterns 9 0 . D , G S MI PL SG
// PR FM TH RN EEEE in numFormat. to_char over timestamptz formats the
// local time in the session's TimeZone, whose abbreviation and offset the
// zone patterns TZ, tz, TZH, TZM and OF print.

func init() {
	stable := sql.Stable
	builtin("to_char", oids(ts, tx), tx, stable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		t := a[0].(time.Time)
		if a[1].(string) == "" || !isFiniteTS(t) {
			return nil, nil
		}
		return dchToChar(tmFromTime(t), a[1].(string))
	})
	builtin("to_char", oids(tsz, tx), tx, stable, func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		t := a[0].(time.Time)
		if a[1].(string) == "" || !isFiniteTS(t) {
			return nil, nil
		}
		loc := env.(*evalCtx).loc()
		lt, off := localTime(t, loc)
		tm := tmFromTime(lt)
		tm.gmtoff, tm.hasZone = off, true
		tm.zone, _ = t.In(loc).Zone()
		return dchToChar(tm, a[1].(string))
	})
	builtin("to_char", oids(iv, tx), tx, stable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		if a[1].(string) == "" {
			return nil, nil
		}
		return dchToChar(tmFromInterval(a[0].(types.IntervalValue)), a[1].(string))
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
	builtin("to_timestamp", oids(tx, tx), tsz, stable, func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return toTimestamp(a[0].(string), a[1].(string), env.(*evalCtx).loc())
	})
}

var monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
var dayNames = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}

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

// numToken is one element of a number format.
type numToken struct {
	kind byte // '9' '0' '.' ',' 'S' 'M'(MI) 'P'(PL) 'G'(SG) 'R'(PR) 'T'(TH) 't'(th) 'E'(EEEE) 'N'(RN) 'n'(rn) 'C' currency (L) 'L' literal
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
		case up[0] == 'L':
			// The locale's currency symbol; PostgreSQL writes a blank
			// for a locale without one (C, the one minipg has).
			add('C', 1)
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
		case 'C':
			b.WriteString(" ")
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
		case 'C':
			if s[0] == ' ' { // the currency symbol, if it is there
				s = s[1:]
			}
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

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

package executor

import (
	"crypto/md5"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// The string functions of PostgreSQL 15's section 9.4 over text (varchar
// converts to text implicitly; char(n) loses its padding on the way, except
// for the functions PostgreSQL also defines over bpchar), and format().
// Lengths and positions count characters, not bytes.

// maxAllocSize bounds a string a function builds (MaxAllocSize).
const maxAllocSize = 0x3fffffff

func errLengthTooLarge() error {
	return pgerr.New(pgerr.ProgramLimitExceeded, "requested length too large")
}

// textFn registers a strict immutable function of string arguments.
func textFn(name string, args []types.OID, result types.OID, fn func(s []string, a []types.Datum) (types.Datum, error)) {
	builtin(name, args, result, sql.Immutable, func(_ any, a []types.Datum, f *sql.Func) (types.Datum, error) {
		s := make([]string, len(a))
		for i, v := range a {
			if str, ok := v.(string); ok {
				s[i] = str
			}
		}
		return fn(s, a)
	})
}

func init() {
	for _, name := range []string{"length", "char_length", "character_length"} {
		textFn(name, oids(tx), i4, func(s []string, _ []types.Datum) (types.Datum, error) {
			return int64(utf8.RuneCountInString(s[0])), nil
		})
		textFn(name, oids(bp), i4, func(s []string, _ []types.Datum) (types.Datum, error) {
			return int64(utf8.RuneCountInString(strings.TrimRight(s[0], " "))), nil
		})
	}
	textFn("octet_length", oids(tx), i4, func(s []string, _ []types.Datum) (types.Datum, error) { return int64(len(s[0])), nil })
	textFn("octet_length", oids(bp), i4, func(s []string, _ []types.Datum) (types.Datum, error) { return int64(len(s[0])), nil })
	textFn("bit_length", oids(tx), i4, func(s []string, _ []types.Datum) (types.Datum, error) { return int64(8 * len(s[0])), nil })
	textFn("lower", oids(tx), tx, func(s []string, _ []types.Datum) (types.Datum, error) { return strings.ToLower(s[0]), nil })
	textFn("upper", oids(tx), tx, func(s []string, _ []types.Datum) (types.Datum, error) { return strings.ToUpper(s[0]), nil })
	textFn("initcap", oids(tx), tx, func(s []string, _ []types.Datum) (types.Datum, error) { return initcap(s[0]), nil })
	for _, name := range []string{"substr", "substring"} {
		textFn(name, oids(tx, i4), tx, func(s []string, a []types.Datum) (types.Datum, error) {
			return substr(s[0], a[1].(int64), 0, false)
		})
		textFn(name, oids(tx, i4, i4), tx, func(s []string, a []types.Datum) (types.Datum, error) {
			return substr(s[0], a[1].(int64), a[2].(int64), true)
		})
	}
	// substring(string FROM pattern), textregexsubstr: the part of string
	// the POSIX regular expression matches, or the part its first
	// parenthesized subexpression matches; NULL without a match.
	textFn("substring", oids(tx, tx), tx, func(s []string, _ []types.Datum) (types.Datum, error) {
		re, err := compileRegex(s[1], false)
		if err != nil {
			return nil, err
		}
		m := re.FindStringSubmatchIndex(s[0])
		switch {
		case m == nil:
			return nil, nil
		case len(m) > 2:
			if m[2] < 0 {
				return nil, nil
			}
			return s[0][m[2]:m[3]], nil
		}
		return s[0][m[0]:m[1]], nil
	})
	overlay := func(str, sub string, from, count int64) (types.Datum, error) {
		head, err := substr(str, 1, from-1, true)
		if err != nil {
			return nil, err
		}
		if e := from + count; e > math.MaxInt32 || e < math.MinInt32 {
			return nil, pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
		}
		tail, _ := substr(str, from+count, 0, false)
		return head.(string) + sub + tail.(string), nil
	}
	textFn("overlay", oids(tx, tx, i4, i4), tx, func(s []string, a []types.Datum) (types.Datum, error) {
		return overlay(s[0], s[1], a[2].(int64), a[3].(int64))
	})
	textFn("overlay", oids(tx, tx, i4), tx, func(s []string, a []types.Datum) (types.Datum, error) {
		return overlay(s[0], s[1], a[2].(int64), int64(utf8.RuneCountInString(s[1])))
	})
	for _, name := range []string{"strpos", "position"} {
		textFn(name, oids(tx, tx), i4, func(s []string, _ []types.Datum) (types.Datum, error) {
			i := strings.Index(s[0], s[1])
			if i < 0 {
				return int64(0), nil
			}
			return int64(utf8.RuneCountInString(s[0][:i]) + 1), nil
		})
	}
	textFn("left", oids(tx, i4), tx, func(s []string, a []types.Datum) (types.Datum, error) {
		rs, n := []rune(s[0]), a[1].(int64)
		if n < 0 {
			n = max(int64(len(rs))+n, 0)
		}
		return string(rs[:min(n, int64(len(rs)))]), nil
	})
	textFn("right", oids(tx, i4), tx, func(s []string, a []types.Datum) (types.Datum, error) {
		rs, n := []rune(s[0]), a[1].(int64)
		if n < 0 {
			n = max(int64(len(rs))+n, 0)
		}
		n = min(n, int64(len(rs)))
		return string(rs[int64(len(rs))-n:]), nil
	})
	for _, name := range []string{"lpad", "rpad"} {
		left := name == "lpad"
		textFn(name, oids(tx, i4), tx, func(s []string, a []types.Datum) (types.Datum, error) {
			return pad(s[0], a[1].(int64), " ", left)
		})
		textFn(name, oids(tx, i4, tx), tx, func(s []string, a []types.Datum) (types.Datum, error) {
			return pad(s[0], a[1].(int64), s[2], left)
		})
	}
	for _, name := range []string{"btrim", "ltrim", "rtrim"} {
		l, r := name != "rtrim", name != "ltrim"
		textFn(name, oids(tx), tx, func(s []string, _ []types.Datum) (types.Datum, error) { return trimChars(s[0], " ", l, r), nil })
		textFn(name, oids(tx, tx), tx, func(s []string, _ []types.Datum) (types.Datum, error) { return trimChars(s[0], s[1], l, r), nil })
	}
	textFn("repeat", oids(tx, i4), tx, func(s []string, a []types.Datum) (types.Datum, error) {
		n := a[1].(int64)
		if n <= 0 || s[0] == "" {
			return "", nil
		}
		if int64(len(s[0]))*n > maxAllocSize {
			return nil, errLengthTooLarge()
		}
		return strings.Repeat(s[0], int(n)), nil
	})
	textFn("replace", oids(tx, tx, tx), tx, func(s []string, _ []types.Datum) (types.Datum, error) {
		if s[1] == "" {
			return s[0], nil
		}
		return strings.ReplaceAll(s[0], s[1], s[2]), nil
	})
	textFn("reverse", oids(tx), tx, func(s []string, _ []types.Datum) (types.Datum, error) {
		rs := []rune(s[0])
		for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
			rs[i], rs[j] = rs[j], rs[i]
		}
		return string(rs), nil
	})
	textFn("split_part", oids(tx, tx, i4), tx, func(s []string, a []types.Datum) (types.Datum, error) {
		n := a[2].(int64)
		if n == 0 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "field position must not be zero")
		}
		if s[0] == "" {
			return "", nil
		}
		var parts []string
		if s[1] == "" {
			parts = []string{s[0]}
		} else {
			parts = strings.Split(s[0], s[1])
		}
		if n < 0 {
			n += int64(len(parts)) + 1
		}
		if n < 1 || n > int64(len(parts)) {
			return "", nil
		}
		return parts[n-1], nil
	})
	textFn("md5", oids(tx), tx, func(s []string, _ []types.Datum) (types.Datum, error) {
		h := md5.Sum([]byte(s[0]))
		return hex.EncodeToString(h[:]), nil
	})
	textFn("ascii", oids(tx), i4, func(s []string, _ []types.Datum) (types.Datum, error) {
		if s[0] == "" {
			return int64(0), nil
		}
		r, _ := utf8.DecodeRuneInString(s[0])
		return int64(r), nil
	})
	builtin("chr", oids(i4), tx, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		n := a[0].(int64)
		switch {
		case n < 0:
			return nil, pgerr.New(pgerr.ProgramLimitExceeded, "character number must be positive")
		case n == 0:
			return nil, pgerr.New(pgerr.ProgramLimitExceeded, "null character not permitted")
		case n > 0x10FFFF:
			return nil, pgerr.New(pgerr.ProgramLimitExceeded, "requested character too large for encoding: %d", n)
		case n >= 0xD800 && n <= 0xDFFF:
			return nil, pgerr.New(pgerr.ProgramLimitExceeded, "requested character not valid for encoding: %d", n)
		}
		return string(rune(n)), nil
	})
	textFn("starts_with", oids(tx, tx), bo, func(s []string, _ []types.Datum) (types.Datum, error) {
		return strings.HasPrefix(s[0], s[1]), nil
	})
	textFn("translate", oids(tx, tx, tx), tx, func(s []string, _ []types.Datum) (types.Datum, error) {
		to := []rune(s[2])
		var b strings.Builder
		for _, r := range s[0] {
			i := strings.IndexRune(s[1], r)
			if i < 0 {
				b.WriteRune(r)
				continue
			}
			k := utf8.RuneCountInString(s[1][:i])
			if k < len(to) {
				b.WriteRune(to[k])
			}
		}
		return b.String(), nil
	})
	builtin("to_hex", oids(i4), tx, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return strconv.FormatUint(uint64(uint32(a[0].(int64))), 16), nil
	})
	builtin("to_hex", oids(i8), tx, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return strconv.FormatUint(uint64(a[0].(int64)), 16), nil
	})
	textFn("quote_ident", oids(tx), tx, func(s []string, _ []types.Datum) (types.Datum, error) { return quoteIdent(s[0]), nil })
	textFn("quote_literal", oids(tx), tx, func(s []string, _ []types.Datum) (types.Datum, error) { return quoteLiteral(s[0]), nil })
	// quote_literal(anyelement) and quote_nullable(anyelement) quote the
	// value's text form (stable: the output function may depend on
	// settings).
	builtin("quote_literal", oids(sql.AnyOID), tx, sql.Stable, func(env any, a []types.Datum, f *sql.Func) (types.Datum, error) {
		return quoteLiteral(asTextConv(f.Args[0].Type(), a[0], convOf(env))), nil
	})
	for _, arg := range []types.OID{tx, sql.AnyOID} {
		vol := sql.Immutable
		if arg == sql.AnyOID {
			vol = sql.Stable
		}
		sql.RegisterBuiltin(sql.Builtin{Name: "quote_nullable", Args: oids(arg), Result: tx, Volatility: vol,
			Fn: func(env any, a []types.Datum, f *sql.Func) (types.Datum, error) {
				if a[0] == nil {
					return "NULL", nil
				}
				return quoteLiteral(asTextConv(f.Args[0].Type(), a[0], convOf(env))), nil
			}})
	}
	sql.RegisterBuiltin(sql.Builtin{Name: "concat", Args: oids(sql.AnyOID), Variadic: true, Result: tx, Volatility: sql.Stable,
		Fn: func(env any, a []types.Datum, f *sql.Func) (types.Datum, error) {
			a, ts, ok := variadicArgs(a, f)
			if !ok {
				return nil, nil
			}
			cv := convOf(env)
			var b strings.Builder
			for i, v := range a {
				if v != nil {
					b.Write(types.AppendTextConv(nil, ts[i], v, cv))
				}
			}
			return b.String(), nil
		}})
	sql.RegisterBuiltin(sql.Builtin{Name: "concat_ws", Args: oids(tx, sql.AnyOID), Variadic: true, Result: tx, Volatility: sql.Stable,
		Fn: func(env any, a []types.Datum, f *sql.Func) (types.Datum, error) {
			if a[0] == nil {
				return nil, nil
			}
			a, ts, ok := variadicArgs(a, f)
			if !ok {
				return nil, nil
			}
			sep := a[0].(string)
			cv := convOf(env)
			var parts []string
			for i, v := range a[1:] {
				if v != nil {
					parts = append(parts, string(types.AppendTextConv(nil, ts[i+1], v, cv)))
				}
			}
			return strings.Join(parts, sep), nil
		}})
	formatFn := func(env any, a []types.Datum, f *sql.Func) (types.Datum, error) {
		if a[0] == nil {
			return nil, nil
		}
		a, ts, _ := variadicArgs(a, f) // format(f, VARIADIC NULL) has no arguments
		return format(a[0].(string), a[1:], ts[1:], convOf(env))
	}
	sql.RegisterBuiltin(sql.Builtin{Name: "format", Args: oids(tx), Result: tx, Volatility: sql.Stable, Fn: formatFn})
	sql.RegisterBuiltin(sql.Builtin{Name: "format", Args: oids(tx, sql.AnyOID), Variadic: true, Result: tx, Volatility: sql.Stable, Fn: formatFn})
}

// initcap upper-cases the first letter of each run of letters and digits
// and lower-cases the rest.
func initcap(s string) string {
	var b strings.Builder
	inWord := false
	for _, r := range s {
		if inWord {
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(unicode.ToUpper(r))
		}
		inWord = unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return b.String()
}

// substr is text_substr: start is 1-based and may be before the string.
func substr(s string, start, n int64, withLen bool) (types.Datum, error) {
	rs := []rune(s)
	end := int64(len(rs)) + 1
	if withLen {
		if n < 0 {
			return nil, pgerr.New(pgerr.SubstringError, "negative substring length not allowed")
		}
		end = start + n
	}
	start = max(start, 1)
	end = min(end, int64(len(rs))+1)
	if start >= end {
		return "", nil
	}
	return string(rs[start-1 : end-1]), nil
}

// pad is lpad or rpad: s cut or filled to n characters with fill.
func pad(s string, n int64, fill string, left bool) (types.Datum, error) {
	if n <= 0 {
		return "", nil
	}
	if n*4 > maxAllocSize {
		return nil, errLengthTooLarge()
	}
	rs := []rune(s)
	if int64(len(rs)) >= n {
		return string(rs[:n]), nil
	}
	fr := []rune(fill)
	if len(fr) == 0 {
		return s, nil
	}
	var p []rune
	for i := 0; int64(len(p)) < n-int64(len(rs)); i++ {
		p = append(p, fr[i%len(fr)])
	}
	if left {
		return string(p) + s, nil
	}
	return s + string(p), nil
}

// trimChars removes the characters of set from s's ends.
func trimChars(s, set string, left, right bool) string {
	in := func(r rune) bool { return strings.ContainsRune(set, r) }
	if left {
		s = strings.TrimLeftFunc(s, in)
	}
	if right {
		s = strings.TrimRightFunc(s, in)
	}
	return s
}

// quoteIdent is quote_identifier (sql.QuoteIdentifier).
func quoteIdent(s string) string { return sql.QuoteIdentifier(s) }

// quoteLiteral is quote_literal: quotes and backslashes doubled, and an E
// prefix when there is a backslash.
func quoteLiteral(s string) string {
	q := "'" + strings.ReplaceAll(strings.ReplaceAll(s, "'", "''"), `\`, `\\`) + "'"
	if strings.Contains(s, `\`) {
		return "E" + q
	}
	return q
}

func errFormat(msg string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameterValue, msg, args...)
}

// format is text_format: %[position$][flags][width]type with types s, I
// and L, and %%.
func format(fmtStr string, args []types.Datum, ts []types.T, cv types.Conv) (types.Datum, error) {
	var b strings.Builder
	rs := []rune(fmtStr)
	next := 0
	hint := `For a single "%" use "%%".`
	unterminated := func() error {
		return errFormat("unterminated format() type specifier").WithHint("%s", hint)
	}
	// number reads digits at rs[i:]; ok is false when there are none.
	number := func(i int) (n, j int, ok bool, err error) {
		j = i
		for j < len(rs) && rs[j] >= '0' && rs[j] <= '9' {
			n = n*10 + int(rs[j]-'0')
			if n > 1<<30 {
				return 0, 0, false, errFormat("number is out of range")
			}
			j++
		}
		return n, j, j > i, nil
	}
	argAt := func(k int) (types.Datum, types.T, error) {
		if k >= len(args) {
			return nil, types.T{}, errFormat("too few arguments for format()")
		}
		return args[k], ts[k], nil
	}
	for i := 0; i < len(rs); i++ {
		if rs[i] != '%' {
			b.WriteRune(rs[i])
			continue
		}
		i++
		if i >= len(rs) {
			return nil, unterminated()
		}
		if rs[i] == '%' {
			b.WriteRune('%')
			continue
		}
		argPos := -1
		if n, j, ok, err := number(i); err != nil {
			return nil, err
		} else if ok && j < len(rs) && rs[j] == '$' {
			if n == 0 {
				return nil, errFormat("format specifies argument 0, but arguments are numbered from 1")
			}
			argPos, i = n-1, j+1
		}
		minus := false
		for i < len(rs) && rs[i] == '-' {
			minus = true
			i++
		}
		width := 0
		if i < len(rs) && rs[i] == '*' {
			i++
			wpos := next
			if n, j, ok, err := number(i); err != nil {
				return nil, err
			} else if ok && j < len(rs) && rs[j] == '$' {
				if n == 0 {
					return nil, errFormat("format specifies argument 0, but arguments are numbered from 1")
				}
				wpos, i = n-1, j+1
			} else {
				next++
			}
			v, t, err := argAt(wpos)
			if err != nil {
				return nil, err
			}
			if argPos < 0 && wpos >= next-1 {
				next = wpos + 1
			}
			if v != nil {
				// The width goes through its type's output function and
				// integer's input function.
				w, err := types.ParseText(types.TInt4, string(types.AppendTextConv(nil, t, v, cv)))
				if err != nil {
					return nil, err
				}
				width = int(w.(int64))
				if width < 0 {
					minus, width = true, -width
				}
			}
		} else if n, j, ok, err := number(i); err != nil {
			return nil, err
		} else if ok {
			width, i = n, j
		}
		if i >= len(rs) {
			return nil, unterminated()
		}
		if argPos < 0 {
			argPos = next
		}
		next = argPos + 1
		conv := rs[i]
		if conv != 's' && conv != 'I' && conv != 'L' {
			return nil, errFormat("unrecognized format() type specifier \"%c\"", conv).WithHint("%s", hint)
		}
		v, t, err := argAt(argPos)
		if err != nil {
			return nil, err
		}
		var out string
		switch {
		case v == nil && conv == 'I':
			return nil, pgerr.New(pgerr.NullValueNotAllowed, "null values cannot be formatted as an SQL identifier")
		case v == nil && conv == 'L':
			out = "NULL"
		case v == nil:
		case conv == 's':
			out = string(types.AppendTextConv(nil, t, v, cv))
		case conv == 'I':
			out = quoteIdent(string(types.AppendTextConv(nil, t, v, cv)))
		default:
			out = quoteLiteral(string(types.AppendTextConv(nil, t, v, cv)))
		}
		if n := utf8.RuneCountInString(out); n < width {
			fill := strings.Repeat(" ", width-n)
			if minus {
				out += fill
			} else {
				out = fill + out
			}
		}
		b.WriteString(out)
	}
	return b.String(), nil
}

// variadicArgs is the arguments of a call to a function with a variadic
// "any" parameter and their types: a as it is, or, for a VARIADIC array
// (f.VariadicArray), the arguments before it and then its elements. ok is
// false when that array is NULL, which leaves only the arguments before
// it.
func variadicArgs(a []types.Datum, f *sql.Func) (args []types.Datum, ts []types.T, ok bool) {
	for _, x := range f.Args {
		ts = append(ts, x.Type())
	}
	if !f.VariadicArray {
		return a, ts, true
	}
	n := len(a) - 1
	args, ts = a[:n:n], ts[:n:n]
	if a[n] == nil {
		return args, ts, false
	}
	et := types.T{OID: types.ElemOID(f.Args[n].Type().OID), Typmod: -1}
	for _, v := range a[n].(*types.Array).Elems {
		args = append(args, v)
		ts = append(ts, et)
	}
	return args, ts, true
}

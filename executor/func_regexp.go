package executor

// Regular expressions (section 9.7.3 of PostgreSQL's documentation):
// ~ ~* !~ !~*, regexp_replace, regexp_match, regexp_matches,
// regexp_split_to_table and regexp_split_to_array. PostgreSQL's ARE syntax
// is run by Go's regexp (RE2), which shares most of it: what RE2 cannot
// express (backreferences, lookahead and lookbehind, \m and \M) is
// refused with 2201B rather than matched differently. As in ARE, . and
// bracket expressions match a newline and ^ $ anchor at the ends of the
// string; \y \Y \Z are rewritten to RE2's \b \B \z.

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

var reCache struct {
	sync.Mutex
	m map[string]*regexp.Regexp
}

func errRegex(msg string) error {
	return pgerr.New(pgerr.InvalidRegularExpression, "invalid regular expression: %s", msg)
}

// compileRegex compiles an ARE pattern, case-insensitive when fold.
func compileRegex(pat string, fold bool) (*regexp.Regexp, error) {
	key := pat
	if fold {
		key = "i\x00" + pat
	} else {
		key = "c\x00" + pat
	}
	reCache.Lock()
	re := reCache.m[key]
	reCache.Unlock()
	if re != nil {
		return re, nil
	}
	src, err := translateARE(pat)
	if err != nil {
		return nil, err
	}
	prefix := "(?s)"
	if fold {
		prefix = "(?si)"
	}
	re, err = regexp.Compile(prefix + src)
	if err == nil {
		preferLongest(re, prefix+src)
	}
	if err != nil {
		msg := err.Error()
		if se, ok := err.(*syntax.Error); ok {
			switch se.Code {
			case syntax.ErrMissingParen, syntax.ErrUnexpectedParen:
				msg = "parentheses () not balanced"
			case syntax.ErrMissingBracket:
				msg = "brackets [] not balanced"
			case syntax.ErrMissingRepeatArgument:
				msg = "quantifier operand invalid"
			case syntax.ErrInvalidRepeatSize:
				msg = "invalid repetition count(s)"
			case syntax.ErrTrailingBackslash, syntax.ErrInvalidEscape:
				msg = "invalid escape \\ sequence"
			case syntax.ErrInvalidCharRange:
				msg = "invalid character range"
			case syntax.ErrInvalidPerlOp, syntax.ErrInvalidNamedCapture:
				msg = "lookahead, lookbehind and other (? constructs are not supported"
			}
		}
		return nil, errRegex(msg)
	}
	reCache.Lock()
	if reCache.m == nil || len(reCache.m) > 256 {
		reCache.m = map[string]*regexp.Regexp{}
	}
	reCache.m[key] = re
	reCache.Unlock()
	return re, nil
}

// preferLongest makes re match as PostgreSQL's ARE does when none of its
// quantifiers is non-greedy: the longest match at the leftmost position
// ('.|...' takes all of 'xyz'), where RE2 takes the first alternative that
// matches. An RE with a non-greedy quantifier keeps RE2's preference.
func preferLongest(re *regexp.Regexp, src string) {
	t, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return
	}
	var nonGreedy func(*syntax.Regexp) bool
	nonGreedy = func(r *syntax.Regexp) bool {
		switch r.Op {
		case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
			if r.Flags&syntax.NonGreedy != 0 {
				return true
			}
		}
		for _, sub := range r.Sub {
			if nonGreedy(sub) {
				return true
			}
		}
		return false
	}
	if !nonGreedy(t) {
		re.Longest()
	}
}

// translateARE rewrites the ARE escapes RE2 spells differently and
// refuses those it lacks.
func translateARE(p string) (string, error) {
	var b strings.Builder
	inBracket := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case inBracket:
			if c == ']' && !(i > 0 && (p[i-1] == '[' || (p[i-1] == '^' && i > 1 && p[i-2] == '['))) {
				inBracket = false
			}
			if c == '\\' && i+1 < len(p) {
				b.WriteByte(c)
				i++
				c = p[i]
			}
		case c == '[':
			inBracket = true
		case c == '\\' && i+1 < len(p):
			n := p[i+1]
			switch {
			case n >= '1' && n <= '9':
				return "", errRegex("backreferences are not supported")
			case n == 'm' || n == 'M':
				return "", errRegex("word-boundary escapes \\m and \\M are not supported")
			case n == 'y':
				b.WriteString(`\b`)
				i++
				continue
			case n == 'Y':
				b.WriteString(`\B`)
				i++
				continue
			case n == 'Z':
				b.WriteString(`\z`)
				i++
				continue
			}
			b.WriteByte(c)
			i++
			c = n
		}
		b.WriteByte(c)
	}
	return b.String(), nil
}

// regexFlags parses the flags argument: g (global), i (case-insensitive),
// c (case-sensitive, the default); others are 22023 as in PostgreSQL for
// an unknown option (the ARE options minipg does not implement too).
func regexFlags(f string) (global, fold bool, err error) {
	for _, c := range f {
		switch c {
		case 'g':
			global = true
		case 'i':
			fold = true
		case 'c':
			fold = false
		default:
			return false, false, pgerr.New(pgerr.InvalidParameterValue, "invalid regular expression option: \"%c\"", c)
		}
	}
	return global, fold, nil
}

func init() {
	T := types.Text
	match := func(fold, negate bool) sql.BuiltinFn {
		return func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			re, err := compileRegex(a[1].(string), fold)
			if err != nil {
				return nil, err
			}
			return re.MatchString(a[0].(string)) != negate, nil
		}
	}
	builtin("textregexeq", oids(T, T), types.Bool, sql.Immutable, match(false, false))
	builtin("texticregexeq", oids(T, T), types.Bool, sql.Immutable, match(true, false))
	builtin("textregexne", oids(T, T), types.Bool, sql.Immutable, match(false, true))
	builtin("texticregexne", oids(T, T), types.Bool, sql.Immutable, match(true, true))

	builtin("regexp_replace", oids(T, T, T), T, sql.Immutable, regexpReplace)
	builtin("regexp_replace", oids(T, T, T, T), T, sql.Immutable, regexpReplace)
	textArr := types.ArrayOID(types.Text)
	builtin("regexp_match", oids(T, T), textArr, sql.Immutable, regexpMatch)
	builtin("regexp_match", oids(T, T, T), textArr, sql.Immutable, regexpMatch)
	builtin("regexp_split_to_array", oids(T, T), textArr, sql.Immutable, regexpSplitToArray)
	builtin("regexp_split_to_array", oids(T, T, T), textArr, sql.Immutable, regexpSplitToArray)
}

// regexpReplace is regexp_replace(source, pattern, replacement [, flags]):
// the first match (every one with g) replaced; in the replacement \1..\9
// are the groups, \& the whole match and \\ a backslash.
func regexpReplace(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
	flags := ""
	if len(a) > 3 {
		flags = a[3].(string)
	}
	global, fold, err := regexFlags(flags)
	if err != nil {
		return nil, err
	}
	re, err := compileRegex(a[1].(string), fold)
	if err != nil {
		return nil, err
	}
	src, repl := a[0].(string), a[2].(string)
	n := 1
	if global {
		n = -1
	}
	ms := re.FindAllStringSubmatchIndex(src, n)
	var b strings.Builder
	last := 0
	for _, m := range ms {
		b.WriteString(src[last:m[0]])
		for i := 0; i < len(repl); i++ {
			c := repl[i]
			if c != '\\' || i+1 >= len(repl) {
				b.WriteByte(c)
				continue
			}
			i++
			switch d := repl[i]; {
			case d >= '1' && d <= '9':
				g := int(d - '0')
				if 2*g+1 < len(m) && m[2*g] >= 0 {
					b.WriteString(src[m[2*g]:m[2*g+1]])
				}
			case d == '&':
				b.WriteString(src[m[0]:m[1]])
			case d == '\\':
				b.WriteByte('\\')
			default:
				b.WriteByte('\\')
				b.WriteByte(d)
			}
		}
		last = m[1]
	}
	b.WriteString(src[last:])
	return b.String(), nil
}

// matchArray is a match as regexp_match returns it: the groups, or the
// whole match when the pattern has none (a group that did not take part
// is NULL).
func matchArray(src string, m []int) *types.Array {
	if len(m) == 2 {
		return types.NewArray([]types.Datum{src[m[0]:m[1]]})
	}
	elems := make([]types.Datum, 0, len(m)/2-1)
	for g := 1; 2*g < len(m); g++ {
		if m[2*g] < 0 {
			elems = append(elems, nil)
			continue
		}
		elems = append(elems, src[m[2*g]:m[2*g+1]])
	}
	return types.NewArray(elems)
}

func regexpMatch(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
	flags := ""
	if len(a) > 2 {
		flags = a[2].(string)
	}
	global, fold, err := regexFlags(flags)
	if err != nil {
		return nil, err
	}
	if global {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "regexp_match() does not support the \"global\" option").
			WithHint("Use the regexp_matches function instead.")
	}
	re, err := compileRegex(a[1].(string), fold)
	if err != nil {
		return nil, err
	}
	m := re.FindStringSubmatchIndex(a[0].(string))
	if m == nil {
		return nil, nil
	}
	return matchArray(a[0].(string), m), nil
}

// splitFields is regexp_split_to_*: the text between matches, ignoring a
// zero-length match at either end of the string.
func splitFields(a []types.Datum, fn string) ([]string, error) {
	flags := ""
	if len(a) > 2 {
		flags = a[2].(string)
	}
	global, fold, err := regexFlags(flags)
	if err != nil {
		return nil, err
	}
	if global {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "%s() does not support the \"global\" option", fn)
	}
	re, err := compileRegex(a[1].(string), fold)
	if err != nil {
		return nil, err
	}
	src := a[0].(string)
	var out []string
	last := 0
	for _, m := range re.FindAllStringIndex(src, -1) {
		if m[0] == m[1] && (m[0] == 0 || m[0] == len(src)) {
			continue
		}
		out = append(out, src[last:m[0]])
		last = m[1]
	}
	return append(out, src[last:]), nil
}

func regexpSplitToArray(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
	fields, err := splitFields(a, "regexp_split_to_array")
	if err != nil {
		return nil, err
	}
	elems := make([]types.Datum, len(fields))
	for i, f := range fields {
		elems[i] = f
	}
	return types.NewArray(elems), nil
}

// startRegexpSeq starts regexp_matches and regexp_split_to_table.
func startRegexpSeq(f *sql.SRFCall, args []types.Datum) (seq, bool, error) {
	switch f.Name {
	case "regexp_split_to_table":
		fields, err := splitFields(args, f.Name)
		if err != nil {
			return nil, true, err
		}
		elems := make([]types.Datum, len(fields))
		for i, s := range fields {
			elems[i] = s
		}
		return &arraySeq{elems: elems}, true, nil
	case "regexp_matches":
		flags := ""
		if len(args) > 2 {
			flags = args[2].(string)
		}
		global, fold, err := regexFlags(flags)
		if err != nil {
			return nil, true, err
		}
		re, err := compileRegex(args[1].(string), fold)
		if err != nil {
			return nil, true, err
		}
		src := args[0].(string)
		n := 1
		if global {
			n = -1
		}
		var elems []types.Datum
		for _, m := range re.FindAllStringSubmatchIndex(src, n) {
			elems = append(elems, matchArray(src, m))
		}
		return &arraySeq{elems: elems}, true, nil
	}
	return nil, false, nil
}

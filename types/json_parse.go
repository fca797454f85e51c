package types

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"minipg/pgerr"
)

// The JSON lexer and recursive-descent parser of PostgreSQL 15's
// src/common/jsonapi.c, with its error reports (json_errdetail and
// report_json_context in jsonfuncs.c): a malformed input is 22P02 "invalid
// input syntax for type json" with a DETAIL naming the offending token and
// a CONTEXT quoting the input up to it ("JSON data, line 1: {"a"=...").

type jsonTok uint8

const (
	jtInvalid jsonTok = iota
	jtString
	jtNumber
	jtObjectStart
	jtObjectEnd
	jtArrayStart
	jtArrayEnd
	jtComma
	jtColon
	jtTrue
	jtFalse
	jtNull
	jtEnd
)

// jsonErr is a JsonParseErrorType.
type jsonErr uint8

const (
	jeOK jsonErr = iota
	jeEscapingInvalid
	jeEscapingRequired
	jeExpectedArrayFirst
	jeExpectedArrayNext
	jeExpectedColon
	jeExpectedEnd
	jeExpectedJSON
	jeExpectedMore
	jeExpectedObjectFirst
	jeExpectedObjectNext
	jeExpectedString
	jeInvalidToken
	jeCodePointZero
	jeEscapeFormat
	jeHighSurrogate
	jeLowSurrogate
)

// jsonLexer is JsonLexContext. Offsets are byte offsets into in;
// tokStart is -1 at the end of the input.
type jsonLexer struct {
	in        string
	tokStart  int
	tokEnd    int // token_terminator
	tok       jsonTok
	line      int
	lineStart int
	// escapes makes strings de-escaped into str (jsonb, and json's
	// processing functions); json_in only validates and leaves it off.
	escapes bool
	str     strings.Builder
}

func jsonAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// lex is json_lex: it reads the next token into l.tok.
func (l *jsonLexer) lex() jsonErr {
	s := l.tokEnd
	for s < len(l.in) && (l.in[s] == ' ' || l.in[s] == '\t' || l.in[s] == '\n' || l.in[s] == '\r') {
		if l.in[s] == '\n' {
			l.line++
			l.lineStart = s + 1
		}
		s++
	}
	l.tokStart = s
	if s >= len(l.in) {
		l.tokStart = -1
		l.tokEnd = s
		l.tok = jtEnd
		return jeOK
	}
	single := func(t jsonTok) jsonErr {
		l.tokEnd = s + 1
		l.tok = t
		return jeOK
	}
	switch c := l.in[s]; c {
	case '{':
		return single(jtObjectStart)
	case '}':
		return single(jtObjectEnd)
	case '[':
		return single(jtArrayStart)
	case ']':
		return single(jtArrayEnd)
	case ',':
		return single(jtComma)
	case ':':
		return single(jtColon)
	case '"':
		if e := l.lexString(); e != jeOK {
			return e
		}
		l.tok = jtString
		return jeOK
	case '-':
		if e := l.lexNumber(s + 1); e != jeOK {
			return e
		}
		l.tok = jtNumber
		return jeOK
	default:
		if c >= '0' && c <= '9' {
			if e := l.lexNumber(s); e != jeOK {
				return e
			}
			l.tok = jtNumber
			return jeOK
		}
		p := s
		for p < len(l.in) && jsonAlnum(l.in[p]) {
			p++
		}
		if p == s {
			l.tokEnd = s + 1
			return jeInvalidToken
		}
		l.tokEnd = p
		switch l.in[s:p] {
		case "true":
			l.tok = jtTrue
		case "false":
			l.tok = jtFalse
		case "null":
			l.tok = jtNull
		default:
			return jeInvalidToken
		}
		return jeOK
	}
}

// lexNumber is json_lex_number; s is just after an optional minus sign.
func (l *jsonLexer) lexNumber(s int) jsonErr {
	in, bad := l.in, false
	digit := func(i int) bool { return i < len(in) && in[i] >= '0' && in[i] <= '9' }
	switch {
	case s < len(in) && in[s] == '0':
		s++
	case digit(s):
		for digit(s) {
			s++
		}
	default:
		bad = true
	}
	if s < len(in) && in[s] == '.' {
		s++
		if !digit(s) {
			bad = true
		} else {
			for digit(s) {
				s++
			}
		}
	}
	if s < len(in) && (in[s] == 'e' || in[s] == 'E') {
		s++
		if s < len(in) && (in[s] == '+' || in[s] == '-') {
			s++
		}
		if !digit(s) {
			bad = true
		} else {
			for digit(s) {
				s++
			}
		}
	}
	for s < len(in) && jsonAlnum(in[s]) {
		s++
		bad = true
	}
	l.tokEnd = s
	if bad {
		return jeInvalidToken
	}
	return jeOK
}

// charEnd is the offset after the (possibly multibyte) character at s.
func (l *jsonLexer) charEnd(s int) int {
	if s >= len(l.in) {
		return s
	}
	_, n := utf8.DecodeRuneInString(l.in[s:])
	return s + n
}

func hexDigit(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0'), true
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10, true
	}
	return 0, false
}

// lexString is json_lex_string: the token starts at the quote at
// l.tokStart. With l.escapes the de-escaped value goes to l.str.
func (l *jsonLexer) lexString() jsonErr {
	in := l.in
	s := l.tokStart
	hi := -1
	l.str.Reset()
	failStart := func(e jsonErr) jsonErr { l.tokEnd = s; return e }
	failEnd := func(e jsonErr) jsonErr { l.tokEnd = l.charEnd(s); return e }
	for {
		s++
		if s >= len(in) {
			return failStart(jeInvalidToken)
		}
		c := in[s]
		switch {
		case c == '"':
			if hi != -1 {
				return failEnd(jeLowSurrogate)
			}
			l.tokEnd = s + 1
			return jeOK
		case c < 0x20:
			return failStart(jeEscapingRequired)
		case c == '\\':
			s++
			if s >= len(in) {
				return failStart(jeInvalidToken)
			}
			if in[s] == 'u' {
				ch := 0
				for i := 0; i < 4; i++ {
					s++
					if s >= len(in) {
						return failStart(jeInvalidToken)
					}
					d, ok := hexDigit(in[s])
					if !ok {
						return failEnd(jeEscapeFormat)
					}
					ch = ch*16 + d
				}
				if !l.escapes {
					continue
				}
				switch {
				case ch >= 0xd800 && ch <= 0xdbff:
					if hi != -1 {
						return failEnd(jeHighSurrogate)
					}
					hi = ch
					continue
				case ch >= 0xdc00 && ch <= 0xdfff:
					if hi == -1 {
						return failEnd(jeLowSurrogate)
					}
					ch = 0x10000 + (hi-0xd800)<<10 + (ch - 0xdc00)
					hi = -1
				}
				if hi != -1 {
					return failEnd(jeLowSurrogate)
				}
				if ch == 0 {
					return failEnd(jeCodePointZero)
				}
				l.str.WriteRune(rune(ch))
				continue
			}
			if l.escapes {
				if hi != -1 {
					return failEnd(jeLowSurrogate)
				}
				switch in[s] {
				case '"', '\\', '/':
					l.str.WriteByte(in[s])
				case 'b':
					l.str.WriteByte('\b')
				case 'f':
					l.str.WriteByte('\f')
				case 'n':
					l.str.WriteByte('\n')
				case 'r':
					l.str.WriteByte('\r')
				case 't':
					l.str.WriteByte('\t')
				default:
					l.tokStart = s
					return failEnd(jeEscapingInvalid)
				}
			} else if !strings.ContainsRune(`"\/bfnrtu`, rune(in[s])) {
				l.tokStart = s
				return failEnd(jeEscapingInvalid)
			}
		default:
			if hi != -1 {
				return failEnd(jeLowSurrogate)
			}
			// Copy the run of ordinary bytes at once.
			e := s
			for e < len(in) && in[e] != '"' && in[e] != '\\' && in[e] >= 0x20 {
				e++
			}
			if l.escapes {
				l.str.WriteString(in[s:e])
			}
			s = e - 1
		}
	}
}

// token is extract_token: the current token's text.
func (l *jsonLexer) token() string {
	if l.tokStart < 0 {
		return ""
	}
	return l.in[l.tokStart:l.tokEnd]
}

// jsonError is json_ereport_error for e at the lexer's position.
func (l *jsonLexer) jsonError(e jsonErr) error {
	var detail string
	switch e {
	case jeEscapingInvalid:
		detail = `Escape sequence "\` + l.token() + `" is invalid.`
	case jeEscapingRequired:
		detail = "Character with value 0x" + strconv.FormatUint(uint64(l.in[l.tokEnd])|0x100, 16)[1:] + " must be escaped."
	case jeExpectedEnd:
		detail = `Expected end of input, but found "` + l.token() + `".`
	case jeExpectedArrayFirst:
		detail = `Expected array element or "]", but found "` + l.token() + `".`
	case jeExpectedArrayNext:
		detail = `Expected "," or "]", but found "` + l.token() + `".`
	case jeExpectedColon:
		detail = `Expected ":", but found "` + l.token() + `".`
	case jeExpectedJSON:
		detail = `Expected JSON value, but found "` + l.token() + `".`
	case jeExpectedMore:
		detail = "The input string ended unexpectedly."
	case jeExpectedObjectFirst:
		detail = `Expected string or "}", but found "` + l.token() + `".`
	case jeExpectedObjectNext:
		detail = `Expected "," or "}", but found "` + l.token() + `".`
	case jeExpectedString:
		detail = `Expected string, but found "` + l.token() + `".`
	case jeInvalidToken:
		detail = `Token "` + l.token() + `" is invalid.`
	case jeCodePointZero:
		detail = `\u0000 cannot be converted to text.`
	case jeEscapeFormat:
		detail = `"\u" must be followed by four hexadecimal digits.`
	case jeHighSurrogate:
		detail = "Unicode high surrogate must not follow a high surrogate."
	case jeLowSurrogate:
		detail = "Unicode low surrogate must follow a high surrogate."
	}
	var err *pgerr.Error
	if e == jeCodePointZero {
		err = pgerr.New(pgerr.UntranslatableCharacter, "unsupported Unicode escape sequence")
	} else {
		err = pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type json")
	}
	err.Detail = detail
	err.Where = l.context()
	return err
}

// context is report_json_context: the current line up to the end of the
// current token, at most about 50 bytes of it.
func (l *jsonLexer) context() string {
	start, end := l.lineStart, l.tokEnd
	for end-start >= 50 {
		start = l.charEnd(start)
	}
	if start-l.lineStart <= 3 {
		start = l.lineStart
	}
	prefix, suffix := "", ""
	if start > l.lineStart {
		prefix = "..."
	}
	if l.tok != jtEnd && end < len(l.in) && l.in[end] != '\n' && l.in[end] != '\r' {
		suffix = "..."
	}
	return "JSON data, line " + strconv.Itoa(l.line) + ": " + prefix + l.in[start:end] + suffix
}

// jsonParser builds a JsonValue tree while parsing (pg_parse_json with the
// semantic actions of jsonb_in, or json's processing functions).
type jsonParser struct {
	l *jsonLexer
	// build makes the tree; without it the input is only validated.
	build bool
	// raw keeps each value's source text and objects as written
	// (duplicate keys and their order), for the json type.
	raw   bool
	depth int
}

// maxJSONDepth bounds the nesting of arrays and objects. PostgreSQL's
// recursive parser stops at max_stack_depth (2MB by default: between
// 10,000 and 20,000 levels); minipg fails the same way at a fixed depth.
const maxJSONDepth = 15000

// nest enters an array or object.
func (p *jsonParser) nest() {
	p.depth++
	if p.depth > maxJSONDepth {
		panic(pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded").
			WithHint("Increase the configuration parameter \"max_stack_depth\" (currently 2048kB), after ensuring the platform's stack depth limit is adequate."))
	}
}

type jsonParseError struct{ e jsonErr }

func (p *jsonParser) fail(e jsonErr) { panic(jsonParseError{e}) }

func (p *jsonParser) next() {
	if e := p.l.lex(); e != jeOK {
		p.fail(e)
	}
}

// expect is lex_expect.
func (p *jsonParser) expect(ctx jsonErr, t jsonTok) {
	if p.l.tok != t {
		p.parseError(ctx)
	}
	p.next()
}

// parseError is report_parse_error: the input ended, or ctx's error.
func (p *jsonParser) parseError(ctx jsonErr) {
	if p.l.tokStart < 0 || p.l.tok == jtEnd {
		p.fail(jeExpectedMore)
	}
	p.fail(ctx)
}

func (p *jsonParser) value() *JsonValue {
	switch p.l.tok {
	case jtObjectStart:
		return p.object()
	case jtArrayStart:
		return p.array()
	}
	return p.scalar()
}

func (p *jsonParser) scalar() *JsonValue {
	var v *JsonValue
	start := p.l.tokStart
	switch p.l.tok {
	case jtString:
		if p.build {
			v = &JsonValue{Kind: JsonString, Str: p.l.str.String()}
		}
	case jtNumber:
		if p.build {
			v = &JsonValue{Kind: JsonNumber, Str: p.l.token()}
			if !p.raw {
				n, err := parseNumeric(v.Str)
				if err != nil {
					panic(err)
				}
				v.Num, v.Str = n, ""
			}
		}
	case jtTrue, jtFalse:
		if p.build {
			v = &JsonValue{Kind: JsonBool, Bool: p.l.tok == jtTrue}
		}
	case jtNull:
		if p.build {
			v = &JsonValue{Kind: JsonNull}
		}
	default:
		p.parseError(jeExpectedJSON)
	}
	end := p.l.tokEnd
	p.next()
	if v != nil && p.raw {
		v.Raw = p.l.in[start:end]
	}
	return v
}

func (p *jsonParser) object() *JsonValue {
	p.nest()
	defer func() { p.depth-- }()
	start := p.l.tokStart
	p.next()
	var v *JsonValue
	if p.build {
		v = &JsonValue{Kind: JsonObject, Pairs: []JsonPair{}}
	}
	field := func() {
		if p.l.tok != jtString {
			p.parseError(jeExpectedString)
		}
		key := ""
		if p.build {
			key = p.l.str.String()
		}
		p.next()
		p.expect(jeExpectedColon, jtColon)
		val := p.value()
		if p.build {
			v.Pairs = append(v.Pairs, JsonPair{Key: key, Value: val})
		}
	}
	switch p.l.tok {
	case jtString:
		field()
		for p.l.tok == jtComma {
			p.next()
			field()
		}
	case jtObjectEnd:
	default:
		p.parseError(jeExpectedObjectFirst)
	}
	if p.l.tok != jtObjectEnd {
		p.parseError(jeExpectedObjectNext)
	}
	end := p.l.tokEnd
	p.next()
	if v != nil {
		if p.raw {
			v.Raw = p.l.in[start:end]
		} else {
			v.Pairs = uniqueifyPairs(v.Pairs)
		}
	}
	return v
}

func (p *jsonParser) array() *JsonValue {
	p.nest()
	defer func() { p.depth-- }()
	start := p.l.tokStart
	p.next()
	var v *JsonValue
	if p.build {
		v = &JsonValue{Kind: JsonArray, Elems: []*JsonValue{}}
	}
	if p.l.tok != jtArrayEnd {
		e := p.value()
		if p.build {
			v.Elems = append(v.Elems, e)
		}
		for p.l.tok == jtComma {
			p.next()
			e := p.value()
			if p.build {
				v.Elems = append(v.Elems, e)
			}
		}
	}
	if p.l.tok != jtArrayEnd {
		p.parseError(jeExpectedArrayNext)
	}
	end := p.l.tokEnd
	p.next()
	if v != nil && p.raw {
		v.Raw = p.l.in[start:end]
	}
	return v
}

// parseJSONText is pg_parse_json over s: one value and nothing after it.
// build and raw are jsonParser's; escapes is jsonLexer's.
func parseJSONText(s string, build, raw, escapes bool) (v *JsonValue, err error) {
	l := &jsonLexer{in: s, line: 1, escapes: escapes}
	p := &jsonParser{l: l, build: build, raw: raw}
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(jsonParseError)
			if !ok {
				if e, isErr := r.(error); isErr {
					v, err = nil, e
					return
				}
				panic(r)
			}
			v, err = nil, l.jsonError(pe.e)
		}
	}()
	p.next()
	v = p.value()
	if l.tok != jtEnd {
		p.parseError(jeExpectedEnd)
	}
	return v, nil
}

// ValidateJSON is json_in's check: s must be one JSON value. Escapes are
// checked for form only (\u0000 passes, as in PostgreSQL).
func ValidateJSON(s string) error {
	_, err := parseJSONText(s, false, false, false)
	return err
}

// ParseJSONB is jsonb_in: the value, with objects' keys sorted and
// deduplicated and numbers as numeric.
func ParseJSONB(s string) (*JsonValue, error) {
	return parseJSONText(s, true, false, true)
}

// ParseJSONTree parses a json value for the json processing functions:
// every node keeps its source text (Raw) and objects their keys as
// written, duplicates included; strings are de-escaped, so the escape
// errors jsonb_in reports can occur here too.
func ParseJSONTree(s string) (*JsonValue, error) {
	return parseJSONText(s, true, true, true)
}

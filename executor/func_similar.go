package executor

import (
	"strings"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// similar_to_escape is what x SIMILAR TO pattern [ESCAPE e] calls (the
// parser writes it x ~ similar_to_escape(pattern, e)): it turns an SQL
// regular expression into a POSIX one anchored at both ends, as
// PostgreSQL's similar_escape_internal does: % is .*, _ is ., ( opens a
// non-capturing group, the characters special to POSIX but not to SQL
// are escaped, a bracket expression is copied as it is, and the escape
// character (backslash by default, none for ”) makes the next character
// literal. The escaped double quotes that delimit SUBSTRING's match are
// refused.
func init() {
	fn := func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		esc := "\\"
		if len(a) > 1 {
			esc = a[1].(string)
		}
		return similarToRegex(a[0].(string), esc)
	}
	builtin("similar_to_escape", oids(types.Text), types.Text, sql.Immutable, fn)
	builtin("similar_to_escape", oids(types.Text, types.Text), types.Text, sql.Immutable, fn)
}

func similarToRegex(pat, esc string) (string, error) {
	var escRune rune = -1
	switch n := len([]rune(esc)); {
	case n == 1:
		escRune = []rune(esc)[0]
	case n > 1:
		return "", pgerr.New(pgerr.Code("22025"), "invalid escape string").
			WithHint("Escape string must be empty or one character.")
	}
	var b strings.Builder
	b.WriteString("^(?:")
	afterEscape := false
	inClass := false
	classStart := 0 // runes written since the class's '[' (a ']' there is literal)
	for _, c := range pat {
		switch {
		case afterEscape:
			if c == '"' && !inClass {
				return "", pgerr.New(pgerr.FeatureNotSupported, "escaped double quotes in SIMILAR TO patterns are not supported")
			}
			b.WriteByte('\\')
			b.WriteRune(c)
			afterEscape = false
		case c == escRune:
			afterEscape = true
		case inClass:
			if c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteRune(c)
			classStart++
			if c == ']' && classStart > 1 {
				inClass = false
			} else if c == '^' && classStart == 1 {
				classStart = 0 // [^]...] : the ']' after '^' is literal too
			}
		case c == '[':
			b.WriteRune(c)
			inClass, classStart = true, 0
		case c == '%':
			b.WriteString(".*")
		case c == '_':
			b.WriteByte('.')
		case c == '(':
			b.WriteString("(?:")
		case c == '\\' || c == '.' || c == '^' || c == '$':
			b.WriteByte('\\')
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteString(")$")
	return b.String(), nil
}

package sql

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"

	"minipg/pgerr"
)

// Split splits a simple-query string into its statements (text only,
// surrounding blanks trimmed); empty statements are dropped.
func Split(query string) ([]string, error) {
	if err := checkEncoding(query); err != nil {
		return nil, err
	}
	parts, err := pg_query.SplitWithParser(query, true)
	if err != nil {
		return nil, parseError(query, err)
	}
	out := parts[:0]
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out, nil
}

// parseOne parses query, which must hold at most one statement. It returns
// nil for an empty or comment-only query.
func parseOne(query string) (*pg_query.Node, error) {
	if err := checkEncoding(query); err != nil {
		return nil, err
	}
	res, err := pg_query.Parse(query)
	if err != nil {
		return nil, parseError(query, err)
	}
	switch len(res.Stmts) {
	case 0:
		return nil, nil
	case 1:
		return res.Stmts[0].Stmt, nil
	}
	return nil, pgerr.New(pgerr.SyntaxError, "cannot insert multiple commands into a prepared statement")
}

// maxIdentLen is NAMEDATALEN-1: longer identifiers are truncated.
const maxIdentLen = 63

// truncationNotices returns PostgreSQL's NOTICE (42622) for each identifier
// in query longer than maxIdentLen bytes, which the parser truncates.
func truncationNotices(query string) []*pgerr.Error {
	// Cheap test first: a long run of identifier bytes, or a quoted name.
	run, long := 0, strings.IndexByte(query, '"') >= 0
	for i := 0; i < len(query) && !long; i++ {
		c := query[i]
		if c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			run++
			long = run > maxIdentLen
		} else {
			run = 0
		}
	}
	if !long {
		return nil
	}
	res, err := pg_query.Scan(query)
	if err != nil {
		return nil
	}
	var out []*pgerr.Error
	for _, t := range res.Tokens {
		if t.Token != pg_query.Token_IDENT || t.End-t.Start <= maxIdentLen || int(t.End) > len(query) {
			continue
		}
		id := query[t.Start:t.End]
		if strings.HasPrefix(id, `"`) {
			id = strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(id, `"`), `"`), `""`, `"`)
		} else {
			id = strings.Map(func(r rune) rune {
				if r >= 'A' && r <= 'Z' {
					return r + 'a' - 'A'
				}
				return r
			}, id)
		}
		if len(id) <= maxIdentLen {
			continue
		}
		n := maxIdentLen
		for n > 0 && !utf8.RuneStart(id[n]) {
			n--
		}
		e := pgerr.New(pgerr.NameTooLong, "identifier \"%s\" will be truncated to \"%s\"", id, id[:n])
		e.Severity = pgerr.SeverityNotice
		out = append(out, e)
	}
	return out
}

// checkEncoding rejects a query that is not valid UTF-8 as PostgreSQL's
// pg_verify_mbstr does: 22021 naming the bytes of the bad character.
func checkEncoding(query string) error {
	if utf8.ValidString(query) {
		return nil
	}
	for i := 0; i < len(query); {
		r, size := utf8.DecodeRuneInString(query[i:])
		if r != utf8.RuneError || size > 1 {
			i += size
			continue
		}
		n := 1
		switch c := query[i]; {
		case c >= 0xc0 && c < 0xe0:
			n = 2
		case c >= 0xe0 && c < 0xf0:
			n = 3
		case c >= 0xf0 && c < 0xf8:
			n = 4
		}
		n = min(n, len(query)-i)
		hex := make([]string, n)
		for j := range hex {
			hex[j] = fmt.Sprintf("0x%02x", query[i+j])
		}
		return pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": %s", strings.Join(hex, " "))
	}
	return nil
}

func parseError(query string, err error) error {
	var pe *pgparser.Error
	if errors.As(err, &pe) {
		code := pgerr.SyntaxError
		if strings.HasPrefix(pe.Message, "invalid byte sequence for encoding") {
			code = pgerr.CharacterNotInRepertoire
		}
		e := pgerr.New(code, "%s", pe.Message)
		if pe.Cursorpos > 0 && code == pgerr.SyntaxError {
			e.Position = int32(pe.Cursorpos)
		}
		return e
	}
	return pgerr.New(pgerr.SyntaxError, "%s", err.Error())
}

// charPos converts a 0-based byte location into PostgreSQL's 1-based
// character position (0 when unknown).
func charPos(query string, loc int32) int32 {
	if loc < 0 || int(loc) > len(query) {
		return 0
	}
	return int32(utf8.RuneCountInString(query[:loc])) + 1
}

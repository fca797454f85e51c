package sql

import (
	"errors"
	"strings"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"

	"minipg/pgerr"
)

// Split splits a simple-query string into its statements (text only,
// surrounding blanks trimmed); empty statements are dropped.
func Split(query string) ([]string, error) {
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

func parseError(query string, err error) error {
	var pe *pgparser.Error
	if errors.As(err, &pe) {
		e := pgerr.New(pgerr.SyntaxError, "%s", pe.Message)
		if pe.Cursorpos > 0 {
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

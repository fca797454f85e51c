package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
)

// CopyTo is COPY t [(cols)] TO STDOUT or COPY (SELECT ...) TO STDOUT:
// Query produces the rows (for a table, a SELECT of its columns); Options
// carries the format options (its Table, Cols and Defaults are unused);
// Names are the output columns' names (HEADER); ForceQuote[i] is whether
// column i is always quoted (CSV).
type CopyTo struct {
	Query      *Select
	Options    *Copy
	Names      []string
	ForceQuote []bool
}

func (*CopyTo) stmt() {}

// quoteIdent quotes a name for the SELECT a table COPY is rewritten to.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// QuoteIdentifier is PostgreSQL's quote_identifier: s as it is when it is
// a lower-case name that is not a keyword PostgreSQL reserves in some
// context, else in double quotes with embedded quotes doubled.
func QuoteIdentifier(s string) string {
	safe := s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] == '_')
	for i := 0; safe && i < len(s); i++ {
		c := s[i]
		safe = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
	}
	if safe {
		if res, err := pg_query.Scan(s); err == nil && len(res.Tokens) == 1 {
			k := res.Tokens[0].KeywordKind
			safe = k == pg_query.KeywordKind_NO_KEYWORD || k == pg_query.KeywordKind_UNRESERVED_KEYWORD
		}
	}
	if safe {
		return s
	}
	return quoteIdent(s)
}

func (b *binder) copyTo(s *pg_query.CopyStmt) (*CopyTo, error) {
	if s.Filename != "" || s.IsProgram {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY TO a file or program is not supported").
			WithHint("Use COPY ... TO STDOUT, or psql's \\copy.")
	}
	if s.WhereClause != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "WHERE clause not allowed with COPY TO")
	}
	opts := &Copy{Format: "text", Delimiter: '\t', Null: `\N`, Quote: '"', Escape: '"'}
	if err := b.copyOptions(opts, s.Options, false); err != nil {
		return nil, err
	}
	out := &CopyTo{Options: opts}
	var sel *pg_query.SelectStmt
	if s.Query != nil {
		sel = s.Query.GetSelectStmt()
		if sel == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY (query) TO supports SELECT only")
		}
		if len(s.Attlist) > 0 {
			return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near \"(\"")
		}
	} else {
		t, err := b.table(s.Relation)
		if err != nil {
			// COPY opens its table outside the parser: no position.
			if pe, ok := err.(*pgerr.Error); ok && pe.Code == pgerr.UndefinedTable {
				pe.Position = 0
			}
			return nil, err
		}
		var cols []string
		if len(s.Attlist) == 0 {
			for _, c := range t.Columns {
				if !c.Dropped {
					cols = append(cols, quoteIdent(c.Name))
				}
			}
		} else {
			seen := map[string]bool{}
			for _, a := range s.Attlist {
				name := a.GetString_().GetSval()
				if colIndex(t, name) < 0 {
					return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, t.Name)
				}
				if seen[name] {
					return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", name)
				}
				seen[name] = true
				cols = append(cols, quoteIdent(name))
			}
		}
		list := strings.Join(cols, ", ")
		q := "SELECT " + list + " FROM " + quoteIdent(t.Name)
		if len(cols) == 0 {
			q = "SELECT FROM " + quoteIdent(t.Name)
		}
		n, err := parseOne(q)
		if err != nil {
			return nil, err
		}
		sel = n.GetSelectStmt()
	}
	q, err := b.selectStmt(sel)
	if err != nil {
		return nil, err
	}
	out.Query = q
	for _, c := range q.Columns {
		out.Names = append(out.Names, c.Name)
	}
	out.ForceQuote = make([]bool, len(q.Columns))
	for i := range out.ForceQuote {
		out.ForceQuote[i] = opts.ForceQuoteAll
	}
	for _, name := range opts.ForceQuote {
		i := -1
		for j, n := range out.Names {
			if n == name {
				i = j
			}
		}
		if i < 0 {
			if s.Relation != nil {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, s.Relation.Relname)
			}
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", name)
		}
		out.ForceQuote[i] = true
	}
	return out, nil
}

package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
)

// Comment is a bound COMMENT ON TABLE | VIEW | INDEX | SEQUENCE | COLUMN |
// SCHEMA ... IS 'text' | NULL. The executor resolves the names.
type Comment struct {
	Kind     string // "TABLE", "VIEW", "INDEX", "SEQUENCE", "COLUMN" or "SCHEMA"
	Relation string // the relation, or the column's (or the schema's name)
	Column   string // for COLUMN
	Text     string // "" removes the comment (IS NULL or IS '')
}

func (*Comment) stmt() {}

func (b *binder) commentStmt(s *pg_query.CommentStmt) (*Comment, error) {
	out := &Comment{Text: s.Comment}
	var names []string
	if l := s.Object.GetList(); l != nil {
		for _, n := range l.Items {
			names = append(names, n.GetString_().GetSval())
		}
	} else if str := s.Object.GetString_(); str != nil {
		names = []string{str.Sval}
	}
	switch s.Objtype {
	case pg_query.ObjectType_OBJECT_TABLE, pg_query.ObjectType_OBJECT_VIEW, pg_query.ObjectType_OBJECT_INDEX, pg_query.ObjectType_OBJECT_SEQUENCE:
		out.Kind = objectTypeName(s.Objtype)
	case pg_query.ObjectType_OBJECT_COLUMN:
		out.Kind = "COLUMN"
		if len(names) < 2 {
			return nil, pgerr.New(pgerr.SyntaxError, "column name must be qualified")
		}
		out.Column, names = names[len(names)-1], names[:len(names)-1]
	case pg_query.ObjectType_OBJECT_SCHEMA:
		out.Kind = "SCHEMA"
		if len(names) != 1 || names[0] != "public" && names[0] != "pg_catalog" && names[0] != "information_schema" {
			return nil, pgerr.New(pgerr.Code("3F000"), "schema \"%s\" does not exist", names[len(names)-1])
		}
		out.Relation = names[0]
		return out, nil
	default:
		return nil, pgerr.Unimplemented("COMMENT ON " + objectTypeName(s.Objtype))
	}
	switch len(names) {
	case 1:
	case 2:
		if names[0] != "public" {
			return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", names[0], names[1])
		}
	default:
		return nil, pgerr.New(pgerr.SyntaxError, "improper relation name (too many dotted names)")
	}
	out.Relation = names[len(names)-1]
	return out, nil
}

package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"

	"minipg/catalog"
	"minipg/pgerr"
)

// Rename is a bound ALTER TABLE | INDEX | SEQUENCE | VIEW ... RENAME TO,
// ALTER TABLE ... RENAME [COLUMN] a TO b and ALTER TABLE ... RENAME
// CONSTRAINT. The executor resolves the names.
type Rename struct {
	Kind     RenameKind
	Relation string // the relation named by the statement
	Column   string // the column or constraint renamed (RenameColumn, RenameConstraint)
	NewName  string
	IfExists bool
	// Stmt is the statement's object type as written: "TABLE", "INDEX",
	// "SEQUENCE" or "VIEW" (ALTER VIEW renames only views, ALTER
	// SEQUENCE only sequences; ALTER TABLE and ALTER INDEX any relation).
	Stmt string
}

// RenameKind is what a Rename renames.
type RenameKind int

// The kinds of Rename.
const (
	RenameRelation RenameKind = iota
	RenameColumn
	RenameConstraint
)

func (*Rename) stmt() {}

func (b *binder) renameStmt(s *pg_query.RenameStmt) (*Rename, error) {
	if s.Relation == nil {
		return nil, pgerr.Unimplemented("ALTER ... RENAME of " + objectTypeName(s.RenameType))
	}
	if sc := s.Relation.Schemaname; sc != "" && sc != "public" {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", sc, s.Relation.Relname)
	}
	out := &Rename{Relation: s.Relation.Relname, Column: s.Subname, NewName: s.Newname, IfExists: s.MissingOk}
	kind := s.RenameType
	if kind == pg_query.ObjectType_OBJECT_COLUMN || kind == pg_query.ObjectType_OBJECT_TABCONSTRAINT {
		kind = s.RelationType
		out.Kind = RenameColumn
		if s.RenameType == pg_query.ObjectType_OBJECT_TABCONSTRAINT {
			out.Kind, kind = RenameConstraint, pg_query.ObjectType_OBJECT_TABLE
		}
	}
	switch kind {
	case pg_query.ObjectType_OBJECT_TABLE, pg_query.ObjectType_OBJECT_INDEX, pg_query.ObjectType_OBJECT_SEQUENCE, pg_query.ObjectType_OBJECT_VIEW:
		out.Stmt = objectTypeName(kind)
	default:
		return nil, pgerr.Unimplemented("ALTER " + objectTypeName(kind) + " ... RENAME")
	}
	if out.Kind == RenameColumn && out.Stmt == "VIEW" {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER VIEW ... RENAME COLUMN is not supported")
	}
	if len(out.NewName) >= catalog.NameDataLen {
		out.NewName = out.NewName[:catalog.NameDataLen-1]
	}
	return out, nil
}

func objectTypeName(t pg_query.ObjectType) string {
	switch t {
	case pg_query.ObjectType_OBJECT_TABLE:
		return "TABLE"
	case pg_query.ObjectType_OBJECT_INDEX:
		return "INDEX"
	case pg_query.ObjectType_OBJECT_SEQUENCE:
		return "SEQUENCE"
	case pg_query.ObjectType_OBJECT_VIEW:
		return "VIEW"
	case pg_query.ObjectType_OBJECT_MATVIEW:
		return "MATERIALIZED VIEW"
	}
	s := t.String()
	if len(s) > 7 && s[:7] == "OBJECT_" {
		s = s[7:]
	}
	return s
}

// RenameInQuery rewrites a view's stored query for a relation renamed
// from old to name: each reference to old (unqualified or in public) names
// the new one, under the alias old when it had none, so that the
// query's qualified column references still resolve. ok is false when the
// query also uses old as a WITH query's name, whose references cannot be
// told apart from the relation's here.
func RenameInQuery(query, old, name string) (out string, ok bool, err error) {
	tree, err := pg_query.Parse(query)
	if err != nil {
		return "", false, err
	}
	shadowed := false
	walkProto(tree.ProtoReflect(), func(m protoreflect.Message) {
		if cte, isCTE := m.Interface().(*pg_query.CommonTableExpr); isCTE && cte.Ctename == old {
			shadowed = true
		}
	})
	if shadowed {
		return "", false, nil
	}
	walkProto(tree.ProtoReflect(), func(m protoreflect.Message) {
		rv, isRV := m.Interface().(*pg_query.RangeVar)
		if !isRV || rv.Relname != old || rv.Schemaname != "" && rv.Schemaname != "public" {
			return
		}
		rv.Relname = name
		if rv.Alias == nil {
			rv.Alias = &pg_query.Alias{Aliasname: old}
		}
	})
	out, err = pg_query.Deparse(tree)
	return out, err == nil, err
}

// walkProto calls f on m and every message below it.
func walkProto(m protoreflect.Message, f func(protoreflect.Message)) {
	f(m)
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				walkProto(l.Get(i).Message(), f)
			}
		case fd.Message() != nil && !fd.IsMap():
			walkProto(v.Message(), f)
		}
		return true
	})
}

package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// scopeTable is one table visible to column references.
type scopeTable struct {
	table *catalog.Table
	alias string // name the table is referred to by
	base  int    // slot of its first column in the row
	left  bool   // right side of a LEFT JOIN
	on    []*pg_query.Node
}

// scope is the FROM clause visible to column references.
type scope struct {
	tables []scopeTable
}

// singleScope is the scope of one table under alias (UPDATE, DELETE,
// RETURNING).
func singleScope(t *catalog.Table, alias string) *scope {
	return &scope{tables: []scopeTable{{table: t, alias: alias}}}
}

// columnRef resolves a column reference, qualified or not, against the
// tables in scope (ctid included); an unqualified name must match only one.
func (b *binder) columnRef(cr *pg_query.ColumnRef) (Expr, error) {
	var names []string
	for _, f := range cr.Fields {
		if f.GetAStar() != nil {
			return nil, b.errAt(cr.Location, pgerr.FeatureNotSupported, "* is not supported in this context")
		}
		names = append(names, f.GetString_().GetSval())
	}
	var tbl, col string
	switch len(names) {
	case 1:
		col = names[0]
	case 2:
		tbl, col = names[0], names[1]
	default:
		return nil, b.errAt(cr.Location, pgerr.FeatureNotSupported, "qualified names with schema are not supported: %s", strings.Join(names, "."))
	}
	if b.sc == nil || len(b.sc.tables) == 0 {
		if tbl != "" {
			return nil, b.errAt(cr.Location, pgerr.UndefinedTable, "missing FROM-clause entry for table \"%s\"", tbl)
		}
		return nil, b.errAt(cr.Location, pgerr.UndefinedColumn, "column \"%s\" does not exist", col)
	}
	var found *ColRef
	tableSeen := false
	for _, st := range b.sc.tables {
		if tbl != "" && tbl != st.alias {
			continue
		}
		tableSeen = true
		t := st.table
		var ref *ColRef
		for i, c := range t.Columns {
			if c.Name == col {
				ref = &ColRef{Idx: st.base + i, T: types.T{OID: types.OID(c.TypeOID), Typmod: c.Typmod}, Name: col}
				break
			}
		}
		if ref == nil && col == "ctid" {
			ref = &ColRef{Idx: st.base + len(t.Columns), T: types.TTID, Name: "ctid"}
		}
		if ref == nil {
			continue
		}
		if found != nil {
			return nil, b.errAt(cr.Location, pgerr.AmbiguousColumn, "column reference \"%s\" is ambiguous", col)
		}
		found = ref
	}
	if found != nil {
		return found, nil
	}
	if tbl != "" && !tableSeen {
		return nil, b.errAt(cr.Location, pgerr.UndefinedTable, "missing FROM-clause entry for table \"%s\"", tbl)
	}
	if tbl != "" {
		return nil, b.errAt(cr.Location, pgerr.UndefinedColumn, "column %s.%s does not exist", tbl, col)
	}
	return nil, b.errAt(cr.Location, pgerr.UndefinedColumn, "column \"%s\" does not exist", col)
}

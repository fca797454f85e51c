package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// scopeCol is a column visible by name: a slot of the row, or the merged
// column of a JOIN ... USING.
type scopeCol struct {
	name string
	e    Expr
	qual string // alias of the FROM item it belongs to ("" for a merged column)
	// table and attnum name the table column it is, for the column
	// dependencies of a view (0 for other columns).
	table  uint32
	attnum int16
}

// scopeTable is one FROM item visible to column references: a table, a
// subquery or a function, known by its alias.
type scopeTable struct {
	table *catalog.Table // nil for a subquery or a function
	alias string         // name the item is referred to by
	base  int            // slot of its first column in the row
	// cols are its columns: slot base+i, or for a table the slot of the
	// attribute (dropped columns have a slot and no scopeCol); a table's
	// ctid follows its attributes.
	cols []scopeCol
	// lateralRefused marks an item a LATERAL item may not read: the left
	// side of its RIGHT or FULL join (a reference is 42P10).
	lateralRefused bool
}

// scope is the FROM clause visible to column references: its items, and
// the columns an unqualified name or * sees, in the order * expands them
// (the merged columns of JOIN ... USING once, first in their join).
type scope struct {
	tables  []scopeTable
	exposed []scopeCol
	width   int // slots of the joined row
}

// outerScope is the scope of a query enclosing the one being bound, and
// the flag that marks the subquery nested in it as correlated.
type outerScope struct {
	sc         *scope
	correlated *bool
}

// tableCols are table t's columns as slots from base: attribute i is slot
// base+i; a dropped column has its slot (always NULL) but is not in scope.
func tableCols(t *catalog.Table, base int) []scopeCol {
	cols := make([]scopeCol, 0, len(t.Columns))
	for i, c := range t.Columns {
		if c.Dropped {
			continue
		}
		cols = append(cols, scopeCol{name: c.Name, e: &ColRef{Idx: base + i, T: types.T{OID: types.OID(c.TypeOID), Typmod: c.Typmod}, Name: c.Name},
			table: t.OID, attnum: int16(i + 1)})
	}
	return cols
}

// singleScope is the scope of one table under alias (UPDATE, DELETE,
// RETURNING).
func singleScope(t *catalog.Table, alias string) *scope {
	cols := tableCols(t, 0)
	return &scope{tables: []scopeTable{{table: t, alias: alias, cols: cols}}, exposed: cols, width: len(t.Columns) + 1}
}

// useCol is the expression of column c as a reference takes it, noting
// the table column it reads for a view's column dependencies.
func (b *binder) useCol(c scopeCol) Expr {
	if b.colDeps != nil && c.table != 0 {
		b.colDeps[ColumnDep{Table: c.table, AttNum: c.attnum}] = true
	}
	return c.e
}

// columnRef resolves a column reference, qualified or not, against the
// FROM items in scope (ctid included), then against the scopes of the
// enclosing queries (an OuterRef, which makes the subqueries in between
// correlated). An unqualified name must match only one column.
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
	e, _, tableSeen, err := b.lookup(b.sc, tbl, col, cr.Location)
	if err != nil || e != nil {
		return e, err
	}
	for level := 1; level <= len(b.outer); level++ {
		os := b.outer[len(b.outer)-level]
		oe, qual, seen, err := b.lookup(os.sc, tbl, col, cr.Location)
		if err != nil {
			return nil, err
		}
		tableSeen = tableSeen || seen
		if oe == nil {
			continue
		}
		for _, o := range b.outer[len(b.outer)-level:] {
			*o.correlated = true
		}
		name := col
		if qual != "" {
			name = qual + "." + col
		}
		return Rewrite(oe, func(x Expr) (Expr, bool) {
			switch r := x.(type) {
			case *ColRef:
				return &OuterRef{Level: level, Idx: r.Idx, T: r.T, Name: name, loc: cr.Location}, true
			case *OuterRef:
				return &OuterRef{Level: level + r.Level, Idx: r.Idx, T: r.T, Name: r.Name, loc: r.loc}, true
			}
			return nil, false
		}), nil
	}
	if tbl == "" {
		for i, name := range b.fnParams {
			if name == col {
				return &Param{Idx: i, T: types.T{OID: b.noteParam(i), Typmod: -1}}, nil
			}
		}
	}
	if !tableSeen {
		if err := b.hiddenRef(tbl, col, cr.Location); err != nil {
			return nil, err
		}
	}
	if tbl != "" && !tableSeen {
		return nil, b.missingTable(tbl, cr.Location)
	}
	if tbl != "" {
		return nil, b.errAt(cr.Location, pgerr.UndefinedColumn, "column %s.%s does not exist", tbl, col)
	}
	return nil, b.errAt(cr.Location, pgerr.UndefinedColumn, "column \"%s\" does not exist", col)
}

// lookup finds column col (of item tbl when tbl is not "") in sc: nil
// when absent, with tableSeen telling whether item tbl exists; qual is the
// alias of the item it belongs to.
func (b *binder) lookup(sc *scope, tbl, col string, loc int32) (e Expr, qual string, tableSeen bool, err error) {
	if sc == nil {
		return nil, "", false, nil
	}
	if tbl == "" {
		for _, c := range sc.exposed {
			if c.name != col {
				continue
			}
			if e != nil {
				return nil, "", false, b.errAt(loc, pgerr.AmbiguousColumn, "column reference \"%s\" is ambiguous", col)
			}
			e, qual = b.useCol(c), c.qual
		}
		if e == nil {
			for _, st := range sc.tables {
				if st.lateralRefused && slices.ContainsFunc(st.cols, func(c scopeCol) bool { return c.name == col }) {
					return nil, "", false, lateralRefusedErr(b, st, loc)
				}
			}
		}
		if e != nil || !IsSystemColumnName(col) {
			return e, qual, false, nil
		}
	}
	for _, st := range sc.tables {
		if tbl != "" && tbl != st.alias {
			continue
		}
		if st.lateralRefused && tbl != "" {
			return nil, "", false, lateralRefusedErr(b, st, loc)
		}
		tableSeen = true
		var ref Expr
		for _, c := range st.cols {
			if c.name == col {
				ref = b.useCol(c)
				break
			}
		}
		if ref == nil && IsSystemColumnName(col) && st.table != nil {
			ref = systemColumn(st, col)
			if col == "tableoid" && b.checkTable != nil {
				// A CHECK constraint reads the row before it has a
				// ctid: its table is known.
				ref = &Const{T: types.TOid, Val: int64(st.table.OID)}
			}
		}
		if ref == nil {
			continue
		}
		if e != nil {
			return nil, "", false, b.errAt(loc, pgerr.AmbiguousColumn, "column reference \"%s\" is ambiguous", col)
		}
		e, qual = ref, st.alias
	}
	return e, qual, tableSeen, nil
}

// hiddenRef is PostgreSQL's error for a reference that only the hidden
// target table of UPDATE ... FROM or DELETE ... USING could satisfy
// (b.hidden): 42P10 from a LATERAL item, else 42P01 for a qualified name
// and 42703 for a column name; nil when it has no such column.
func (b *binder) hiddenRef(tbl, col string, loc int32) error {
	h := b.hidden
	if h == nil {
		return nil
	}
	entry := func(code pgerr.Code, name string) error {
		return b.errAt(loc, code, "invalid reference to FROM-clause entry for table \"%s\"", name).
			WithHint("There is an entry for table \"%s\", but it cannot be referenced from this part of the query.", h.alias)
	}
	if tbl != "" {
		switch {
		case tbl == h.alias && b.hiddenLateral:
			return entry(pgerr.InvalidColumnReference, tbl)
		case tbl == h.alias || (h.table != nil && tbl == h.table.Name):
			return entry(pgerr.UndefinedTable, tbl)
		}
		return nil
	}
	if !slices.ContainsFunc(h.cols, func(c scopeCol) bool { return c.name == col }) {
		return nil
	}
	if b.hiddenLateral {
		return entry(pgerr.InvalidColumnReference, h.alias)
	}
	return b.errAt(loc, pgerr.UndefinedColumn, "column \"%s\" does not exist", col).
		WithHint("There is a column named \"%s\" in table \"%s\", but it cannot be referenced from this part of the query.", col, h.alias)
}

// lateralRefusedErr is PostgreSQL's error for a LATERAL item's reference
// to the left side of its RIGHT or FULL join.
func lateralRefusedErr(b *binder, st scopeTable, loc int32) error {
	return b.errAt(loc, pgerr.InvalidColumnReference, "invalid reference to FROM-clause entry for table \"%s\"", st.alias).
		WithDetail("The combining JOIN type must be INNER or LEFT for a LATERAL reference.")
}

// missingTable is the error for a reference to table tbl that no FROM item
// in scope is called: PostgreSQL's hint when a table of that name is in
// scope under an alias.
func (b *binder) missingTable(tbl string, loc int32) error {
	for _, sc := range append([]*scope{b.sc}, outerScopes(b.outer)...) {
		if sc == nil {
			continue
		}
		for _, st := range sc.tables {
			if st.table != nil && st.table.Name == tbl && st.alias != tbl {
				return b.errAt(loc, pgerr.UndefinedTable, "invalid reference to FROM-clause entry for table \"%s\"", tbl).
					WithHint("Perhaps you meant to reference the table alias \"%s\".", st.alias)
			}
		}
	}
	return b.errAt(loc, pgerr.UndefinedTable, "missing FROM-clause entry for table \"%s\"", tbl)
}

// outerScopes are the scopes of the queries around the one being bound.
func outerScopes(outer []outerScope) []*scope {
	out := make([]*scope, len(outer))
	for i, o := range outer {
		out[i] = o.sc
	}
	return out
}

// systemColumn is system column col of table item st: ctid is the slot
// after its attributes; xmin, xmax, cmin, cmax and tableoid are read from
// the header of the version at that ctid (Func.SysColumn), so that they
// follow the ctid wherever the row goes (joins, subqueries, RETURNING) and
// are NULL where it is (the NULL side of an outer join).
func systemColumn(st scopeTable, col string) Expr {
	ctid := &ColRef{Idx: st.base + len(st.table.Columns), T: types.TTID, Name: "ctid"}
	t := types.TXid
	switch col {
	case "ctid":
		return ctid
	case "cmin", "cmax":
		t = types.TCid
	case "tableoid":
		t = types.TOid
	}
	return &Func{Name: col, T: t, SysColumn: true,
		Args: []Expr{ctid, &Const{T: types.TOid, Val: int64(st.table.OID)}}}
}

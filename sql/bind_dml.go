package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

func colType(c catalog.Column) types.T {
	return types.T{OID: types.OID(c.TypeOID), Typmod: c.Typmod}
}

// Defaults binds the DEFAULT expressions of t's columns (nil: NULL).
func Defaults(t *catalog.Table) ([]Expr, error) {
	out := make([]Expr, len(t.Columns))
	for i, c := range t.Columns {
		if c.Default == "" {
			continue
		}
		e, err := ParseExpr(c.Default, colType(c))
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// returning binds a RETURNING list over the table's row (its columns,
// then ctid), or with from over the joined row of UPDATE ... FROM or
// DELETE ... USING, whose scope is b.sc.
func (b *binder) returning(t *catalog.Table, alias string, list []*pg_query.Node, from *DMLFrom) ([]Expr, []ResultCol, error) {
	if len(list) == 0 {
		return nil, nil, nil
	}
	source := func(idx int) (uint32, int16) {
		if idx < len(t.Columns) {
			return t.OID, int16(idx + 1)
		}
		return 0, 0
	}
	if vd := b.targetView; vd != nil {
		b.sc = vd.scope()
	} else if from == nil {
		b.sc = singleScope(t, alias)
	} else {
		source = from.Source.source
	}
	sc := b.sc
	b.agg, b.aggErr = nil, "RETURNING"
	var exprs []Expr
	var cols []ResultCol
	add := func(e Expr, name string) {
		rc := ResultCol{Name: name, T: e.Type()}
		if c, ok := e.(*ColRef); ok {
			rc.TableOID, rc.AttNum = source(c.Idx)
		}
		exprs = append(exprs, e)
		cols = append(cols, rc)
	}
	for _, n := range list {
		rt := n.GetResTarget()
		if cr := rt.Val.GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			star := sc.exposed
			if len(cr.Fields) == 2 {
				name := cr.Fields[0].GetString_().GetSval()
				star = nil
				i := slices.IndexFunc(sc.tables, func(st scopeTable) bool { return st.alias == name })
				if i < 0 {
					return nil, nil, b.missingTable(name, cr.Location)
				}
				star = sc.tables[i].cols
			}
			for _, c := range star {
				add(b.useCol(c), c.name)
			}
			continue
		}
		e, err := b.expr(rt.Val)
		if err != nil {
			return nil, nil, err
		}
		if isUnknown(e) {
			if _, ok := e.(*Param); !ok {
				if e, err = b.coerce(e, types.TText, types.CastImplicit, rt.Location); err != nil {
					return nil, nil, err
				}
			}
		}
		name := rt.Name
		if name == "" {
			name, _ = figureColname(rt.Val)
		}
		add(e, name)
	}
	if len(exprs) == 0 {
		return nil, nil, b.errAt(exprLocation(list[0]), pgerr.SyntaxError, "RETURNING must have at least one column")
	}
	return exprs, cols, nil
}

// insertStmt binds INSERT: the target columns, then the rows (DEFAULT
// VALUES, VALUES lists or a SELECT), each value assigned to its column's
// type, then RETURNING.
func (b *binder) insertStmt(s *pg_query.InsertStmt) (*Insert, error) {
	t, vd, alias, err := b.dmlTargetRel(s.Relation, "insert into")
	if err != nil {
		return nil, err
	}
	saved := b.targetView
	b.targetView = vd
	defer func() { b.targetView = saved }()
	if vd != nil && s.OnConflictClause != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "INSERT ... ON CONFLICT on a view is not supported")
	}
	out := &Insert{Table: t}
	if vd != nil {
		out.ViewChecks = vd.checks
	}
	if out.Cols, err = b.insertColumns(t, s.Cols); err != nil {
		return nil, err
	}
	if vd != nil && len(s.Cols) == 0 {
		if out.Cols, err = b.viewInsertColumns(vd, s); err != nil {
			return nil, err
		}
	}
	for _, c := range out.Cols {
		out.ColTypes = append(out.ColTypes, colType(t.Columns[c]))
	}
	if out.Defaults, err = Defaults(t); err != nil {
		return nil, err
	}
	sel := s.SelectStmt.GetSelectStmt()
	switch {
	case sel == nil:
		// DEFAULT VALUES
		out.Cols, out.ColTypes = nil, nil
		out.Values = [][]Expr{{}}
	case len(sel.ValuesLists) > 0:
		err = b.insertValues(s, sel.ValuesLists, out)
	default:
		err = b.insertSelect(s, sel, out)
	}
	if err != nil {
		return nil, err
	}
	if err := identityValues(s, sel, out); err != nil {
		return nil, err
	}
	if s.Relation.Alias != nil && s.Relation.Alias.Aliasname != "" {
		out.Alias = alias
	}
	var target *conflictTarget
	if oc := s.OnConflictClause; oc != nil {
		if out.OnConflict, target, err = b.onConflict(oc, t, alias); err != nil {
			return nil, err
		}
		if out.OnConflict.Update {
			// RETURNING may not read EXCLUDED, and PostgreSQL says so.
			b.hidden = &scopeTable{alias: excludedName, cols: tableCols(t, 0)}
		}
	}
	out.Returning, out.Columns, err = b.returning(t, alias, s.ReturningList, nil)
	b.hidden = nil
	if err != nil {
		return nil, err
	}
	if out.OnConflict != nil {
		if out.OnConflict.Arbiters, err = arbiters(target, t); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// insertColumns resolves INSERT's column list to column indexes (all
// columns, in order, without one).
func (b *binder) insertColumns(t *catalog.Table, list []*pg_query.Node) ([]int, error) {
	var cols []int
	if len(list) == 0 {
		return t.LiveColumns(), nil
	}
	seen := map[int]string{}
	for _, cn := range list {
		rt := cn.GetResTarget()
		if len(rt.Indirection) > 0 {
			return nil, b.errAt(rt.Location, pgerr.FeatureNotSupported, "assignment to a field or array element is not supported")
		}
		idx, err := b.targetColumn(t, rt.Name, rt.Location, "insert into")
		if err != nil {
			return nil, err
		}
		if name, ok := seen[idx]; ok {
			if name != rt.Name {
				// Two columns of a view that are one column of its table.
				return nil, sameColumnTwice(t, idx)
			}
			return nil, b.errAt(rt.Location, pgerr.DuplicateColumn, "column \"%s\" specified more than once", rt.Name)
		}
		seen[idx] = rt.Name
		cols = append(cols, idx)
	}
	return cols, nil
}

// insertValues binds INSERT ... VALUES: each row's items are assigned to
// the target columns (DEFAULT items stay nil, for the column default).
func (b *binder) insertValues(s *pg_query.InsertStmt, lists []*pg_query.Node, out *Insert) error {
	return b.insertValuesIn(s, lists, out, nil)
}

// insertValuesIn is insertValues with the values' expressions bound in
// scope sc (MERGE's INSERT reads the source row; nil: no columns).
func (b *binder) insertValuesIn(s *pg_query.InsertStmt, lists []*pg_query.Node, out *Insert, sc *scope) error {
	t := out.Table
	b.sc, b.agg, b.aggErr = sc, nil, "VALUES"
	for _, vl := range lists {
		items := vl.GetList().GetItems()
		if len(items) > len(out.Cols) {
			return b.errAt(exprLocation(items[len(out.Cols)]), pgerr.SyntaxError, "INSERT has more expressions than target columns")
		}
		if len(items) < len(out.Cols) && len(s.Cols) > 0 {
			return b.errAt(exprLocation(s.Cols[len(items)]), pgerr.SyntaxError, "INSERT has more target columns than expressions")
		}
		row := make([]Expr, len(items))
		for i, it := range items {
			if it.GetSetToDefault() != nil {
				continue
			}
			e, err := b.expr(it)
			if err != nil {
				return err
			}
			col := t.Columns[out.Cols[i]]
			if row[i], err = b.assign(e, colType(col), col.Name, exprLocation(it)); err != nil {
				return err
			}
		}
		out.Values = append(out.Values, row)
	}
	if len(s.Cols) == 0 && len(out.Values) > 0 {
		// Without a column list, VALUES fills the leading columns.
		n := len(out.Values[0])
		for _, r := range out.Values {
			if len(r) != n {
				return pgerr.New(pgerr.SyntaxError, "VALUES lists must all be the same length")
			}
		}
		out.Cols, out.ColTypes = out.Cols[:n], out.ColTypes[:n]
	}
	return nil
}

// insertSelect binds INSERT ... SELECT: the SELECT's visible targets are
// assigned to the target columns (its unknown literals take their types).
func (b *binder) insertSelect(s *pg_query.InsertStmt, sel *pg_query.SelectStmt, out *Insert) error {
	t := out.Table
	b.insertSource = true
	src, err := b.selectStmt(sel)
	if err != nil {
		return err
	}
	if src.NVisible > len(out.Cols) {
		return b.errAt(src.targetLoc(len(out.Cols)), pgerr.SyntaxError, "INSERT has more expressions than target columns")
	}
	if src.NVisible < len(out.Cols) {
		if len(s.Cols) > 0 {
			return b.errAt(exprLocation(s.Cols[src.NVisible]), pgerr.SyntaxError, "INSERT has more target columns than expressions")
		}
		out.Cols, out.ColTypes = out.Cols[:src.NVisible], out.ColTypes[:src.NVisible]
	}
	for i := 0; i < src.NVisible; i++ {
		col := t.Columns[out.Cols[i]]
		e, err := b.assign(src.Targets[i], colType(col), col.Name, src.targetLoc(i))
		if err != nil {
			return err
		}
		src.Targets[i] = e
	}
	out.Source = src
	return nil
}

// dmlScope resolves the table an UPDATE or DELETE changes and binds its
// FROM (USING) list: b.sc is the target alone, under its alias if it has
// one, or its join with the FROM items.
func (b *binder) dmlScope(rv *pg_query.RangeVar, from []*pg_query.Node, where *pg_query.Node, what string) (*catalog.Table, string, *DMLFrom, error) {
	t, vd, alias, err := b.dmlTargetRel(rv, what)
	if err != nil {
		return nil, "", nil, err
	}
	b.targetView = vd
	if vd != nil {
		if len(from) > 0 {
			return nil, "", nil, pgerr.New(pgerr.FeatureNotSupported, "UPDATE ... FROM and DELETE ... USING on a view are not supported")
		}
		b.sc = vd.scope()
		return t, alias, nil, nil
	}
	if len(from) == 0 {
		b.sc = singleScope(t, alias)
		return t, alias, nil, nil
	}
	f, err := b.dmlFrom(t, alias, from, where)
	return t, alias, f, err
}

func (b *binder) updateStmt(s *pg_query.UpdateStmt) (*Update, error) {
	t, alias, from, err := b.dmlScope(s.Relation, s.FromClause, s.WhereClause, "update")
	if err != nil {
		return nil, err
	}
	defer func() { b.targetView = nil }()
	sc := b.sc
	out := &Update{Table: t, From: from}
	if vd := b.targetView; vd != nil {
		out.ViewChecks = vd.checks
	}
	if out.Set, out.Multi, err = b.setList(t, s.TargetList); err != nil {
		return nil, err
	}
	if out.Where, err = b.dmlWhere(s.WhereClause, sc, from); err != nil {
		return nil, err
	}
	b.sc = sc
	if out.Returning, out.Columns, err = b.returning(t, alias, s.ReturningList, from); err != nil {
		return nil, err
	}
	return out, nil
}

// setList binds the SET list of UPDATE (and of INSERT ... ON CONFLICT DO
// UPDATE) over b.sc: each item's value assigned to its column's type, and
// the subqueries of SET (a, b) = (SELECT ...), each bound once.
func (b *binder) setList(t *catalog.Table, list []*pg_query.Node) ([]SetItem, []*SubPlan, error) {
	var set []SetItem
	var multis []*SubPlan
	b.agg, b.aggErr = nil, "UPDATE"
	var defaults []Expr
	var err error
	seen := map[int]bool{}
	for _, n := range list {
		rt := n.GetResTarget()
		if len(rt.Indirection) > 0 {
			// SET t.col = ...: PostgreSQL reads "t" as a column name.
			if _, err := b.targetColumn(t, rt.Name, rt.Location, "update"); err != nil {
				return nil, nil, err
			}
			return nil, nil, b.errAt(rt.Location, pgerr.FeatureNotSupported, "assignment to a field or array element is not supported")
		}
		val := rt.Val
		var multi *SubPlan
		if mar := val.GetMultiAssignRef(); mar != nil {
			// SET (a, b) = (x, y) or ROW(x, y): each column takes its
			// item of the row. SET (a, b) = (SELECT ...): each takes its
			// column of the subquery's row; every column's item holds a
			// copy of the subquery, bound once, for the first.
			if sl := mar.Source.GetSubLink(); sl != nil && sl.SubLinkType == pg_query.SubLinkType_EXPR_SUBLINK {
				if mar.Colno == 1 {
					sp, err := b.rowSubLink(sl)
					if err != nil {
						return nil, nil, err
					}
					multis = append(multis, sp)
				}
				multi = multis[len(multis)-1]
				if int(mar.Ncolumns) != multi.Select.NVisible {
					return nil, nil, b.errAt(sl.Location, pgerr.SyntaxError, "number of columns does not match number of values")
				}
			} else {
				row := mar.Source.GetRowExpr()
				if row == nil {
					return nil, nil, b.errAt(exprLocation(mar.Source), pgerr.SyntaxError, "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression")
				}
				if int(mar.Ncolumns) != len(row.Args) {
					return nil, nil, b.errAt(row.Location, pgerr.SyntaxError, "number of columns does not match number of values")
				}
				val = row.Args[mar.Colno-1]
			}
		}
		idx, cerr := b.targetColumn(t, rt.Name, rt.Location, "update")
		if cerr != nil {
			return nil, nil, cerr
		}
		if seen[idx] {
			// PostgreSQL's rewriter finds it, without a position.
			return nil, nil, sameColumnTwice(t, idx)
		}
		seen[idx] = true
		col := t.Columns[idx]
		var e Expr
		if multi != nil {
			// The subquery's column, assigned to the column's type.
			j := int(val.GetMultiAssignRef().Colno) - 1
			if col.Identity == "a" {
				return nil, nil, generatedAlwaysErr(col.Name)
			}
			e = &ColRef{Idx: j, T: multi.Select.Targets[j].Type(), Name: multi.Select.Columns[j].Name}
			if e, err = b.assign(e, colType(col), col.Name, multi.Select.targetLoc(j)); err != nil {
				return nil, nil, err
			}
			set = append(set, SetItem{Col: idx, E: e, Multi: len(multis)})
			continue
		}
		if val.GetSetToDefault() != nil {
			if defaults == nil {
				if defaults, err = Defaults(t); err != nil {
					return nil, nil, err
				}
			}
			e = defaults[idx]
			if e == nil {
				e = &Const{T: colType(col)}
			}
		} else {
			if col.Identity == "a" {
				return nil, nil, generatedAlwaysErr(col.Name)
			}
			if e, err = b.expr(val); err != nil {
				return nil, nil, err
			}
			if e, err = b.assign(e, colType(col), col.Name, exprLocation(val)); err != nil {
				return nil, nil, err
			}
		}
		set = append(set, SetItem{Col: idx, E: e})
	}
	return set, multis, nil
}

// generatedAlwaysErr is the error for a value other than DEFAULT
// assigned to a GENERATED ALWAYS identity column.
func generatedAlwaysErr(name string) error {
	return pgerr.New(pgerr.GeneratedAlways, "column \"%s\" can only be updated to DEFAULT", name).
		WithDetail("Column \"%s\" is an identity column defined as GENERATED ALWAYS.", name)
}

// rowSubLink binds the subquery of SET (a, b) = (SELECT ...): a SubPlan of
// Kind "row" over the row SET reads; its outputs of unknown type are text.
func (b *binder) rowSubLink(sl *pg_query.SubLink) (*SubPlan, error) {
	inner, correlated, err := b.subLinkSelect(sl)
	if err != nil {
		return nil, err
	}
	// No expression reads it as a value: it has no type of its own.
	return &SubPlan{Kind: "row", Select: inner, Correlated: correlated}, nil
}

// dmlWhere binds the WHERE clause of UPDATE or DELETE over scope sc; with
// a FROM (USING) list it is also the join's condition.
func (b *binder) dmlWhere(where *pg_query.Node, sc *scope, from *DMLFrom) (Expr, error) {
	var w Expr
	if where != nil {
		b.sc = sc
		var err error
		if w, err = b.condition(where, "WHERE", "WHERE"); err != nil {
			return nil, err
		}
		if from != nil {
			from.Source.Where = w
		}
	}
	if vd := b.targetView; vd != nil {
		// A view's rows are those its WHERE gives (never with FROM).
		w = andWhere(vd.where, w)
	}
	return w, nil
}

func (b *binder) deleteStmt(s *pg_query.DeleteStmt) (*Delete, error) {
	t, alias, from, err := b.dmlScope(s.Relation, s.UsingClause, s.WhereClause, "delete from")
	if err != nil {
		return nil, err
	}
	defer func() { b.targetView = nil }()
	sc := b.sc
	out := &Delete{Table: t, From: from}
	if out.Where, err = b.dmlWhere(s.WhereClause, sc, from); err != nil {
		return nil, err
	}
	b.sc = sc
	if out.Returning, out.Columns, err = b.returning(t, alias, s.ReturningList, from); err != nil {
		return nil, err
	}
	return out, nil
}

// colIndex returns the 0-based position of column name in t, or -1 (a
// dropped column is not found).
func colIndex(t *catalog.Table, name string) int { return t.ColumnIndex(name) }

// identityValues applies the identity column rules to a bound INSERT: a
// value for a GENERATED ALWAYS column needs OVERRIDING SYSTEM VALUE
// (428C9); OVERRIDING USER VALUE replaces the values given for identity
// columns by their sequence.
func identityValues(s *pg_query.InsertStmt, sel *pg_query.SelectStmt, out *Insert) error {
	for i, c := range out.Cols {
		col := out.Table.Columns[c]
		if col.Identity == "" {
			continue
		}
		given := sel != nil && len(sel.ValuesLists) == 0 // INSERT ... SELECT
		for _, row := range out.Values {
			if i < len(row) && row[i] != nil {
				given = true
				if s.Override == pg_query.OverridingKind_OVERRIDING_USER_VALUE {
					row[i] = nil
				}
			}
		}
		if !given {
			continue
		}
		switch {
		case s.Override == pg_query.OverridingKind_OVERRIDING_USER_VALUE && out.Source != nil:
			return pgerr.New(pgerr.FeatureNotSupported, "INSERT ... OVERRIDING USER VALUE with a SELECT is not supported")
		case col.Identity == "a" && s.Override != pg_query.OverridingKind_OVERRIDING_SYSTEM_VALUE && s.Override != pg_query.OverridingKind_OVERRIDING_USER_VALUE:
			return pgerr.New(pgerr.GeneratedAlways, "cannot insert a non-DEFAULT value into column \"%s\"", col.Name).
				WithDetail("Column \"%s\" is an identity column defined as GENERATED ALWAYS.", col.Name).
				WithHint("Use OVERRIDING SYSTEM VALUE to override.")
		}
	}
	return nil
}

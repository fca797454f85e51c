package sql

import (
	"fmt"
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// setOp binds UNION, INTERSECT and EXCEPT, with or without ALL. The parse
// tree already has PostgreSQL's precedence (INTERSECT binds tighter than
// UNION and EXCEPT, which associate to the left; parentheses make an arm of
// a whole query). Each arm is bound as a SELECT of its own (an arm that is
// itself a set operation first), a plain arm keeping its unknown literals
// so that they take the common type, as PostgreSQL's
// transformSetOperationTree leaves them for select_common_type; the
// columns are converted to the common type of each position ("UNION types
// %s and %s cannot be matched", at the expression that does not match).
// The result is a Select reading one FROM item, the set operation (a
// Select with Union set and SetOp saying which): UNION's arms are read one
// after the other and UNION without ALL makes the reader DISTINCT;
// INTERSECT and EXCEPT are computed by the executor from the counts of
// each distinct row in the two arms. ORDER BY and LIMIT apply to the whole
// and name output columns by name or position.
func (b *binder) setOp(s *pg_query.SelectStmt) (*Select, error) {
	var kind SetOpKind
	var what string
	switch s.Op {
	case pg_query.SetOperation_SETOP_UNION:
		kind, what = SetOpUnion, "UNION"
	case pg_query.SetOperation_SETOP_INTERSECT:
		kind, what = SetOpIntersect, "INTERSECT"
	case pg_query.SetOperation_SETOP_EXCEPT:
		kind, what = SetOpExcept, "EXCEPT"
	}
	if len(s.LockingClause) > 0 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "FOR UPDATE is not allowed with UNION/INTERSECT/EXCEPT")
	}
	if into := leftmostInto(s.Rarg); into != nil {
		return nil, b.errAt(into.Rel.Location, pgerr.SyntaxError, "INTO is only allowed on first SELECT of UNION/INTERSECT/EXCEPT")
	}
	u, cols, err := b.setOpTree(s, kind, what)
	if err != nil {
		return nil, err
	}
	return b.unionResult(s, u, cols, kind == SetOpUnion && !s.All, what)
}

// setOpArm binds one arm of a set operation: a nested set operation as a
// query of its own (its column types already decided), a plain SELECT
// keeping its unknown literals for the common type.
func (b *binder) setOpArm(a *pg_query.SelectStmt) (*Select, error) {
	b.insertSource = false
	if a.Op == pg_query.SetOperation_SETOP_NONE || a.Op == pg_query.SetOperation_SET_OPERATION_UNDEFINED {
		if len(a.ValuesLists) == 0 {
			b.insertSource = true // keep unknown literals for the common type
		}
	}
	return b.selectStmt(a)
}

// setOpTree binds the arms of s and the set operation over them: the
// Select with Union set, and the scope of its output columns.
func (b *binder) setOpTree(s *pg_query.SelectStmt, kind SetOpKind, what string) (*Select, []scopeCol, error) {
	var arms []*Select
	for _, a := range []*pg_query.SelectStmt{s.Larg, s.Rarg} {
		arm, err := b.setOpArm(a)
		if err != nil {
			return nil, nil, err
		}
		if len(a.ValuesLists) > 0 {
			// A VALUES arm's columns have no location in PostgreSQL's
			// errors (they are Vars of the VALUES list).
			arm.targetLocs = nil
		}
		arms = append(arms, arm)
	}
	n := arms[0].NVisible
	if arms[1].NVisible != n {
		// PostgreSQL points at the right arm's first column.
		loc := int32(-1)
		if arms[1].NVisible > 0 {
			loc = arms[1].targetLoc(0)
		}
		return nil, nil, b.errAt(loc, pgerr.SyntaxError, "each %s query must have the same number of columns", what)
	}
	u := &Select{Union: arms, UnionAll: s.All, SetOp: kind, NVisible: n}
	cols := make([]scopeCol, n)
	for i := 0; i < n; i++ {
		es := []Expr{arms[0].Targets[i], arms[1].Targets[i]}
		t, bad, ok := selectCommonType(es)
		if !ok {
			return nil, nil, b.errAt(arms[1].targetLoc(i), pgerr.DatatypeMismatch, "%s types %s and %s cannot be matched", what, t.Name(), bad.Name())
		}
		// The typmod survives when both arms have the common type with
		// the same typmod (select_common_typmod).
		if es[0].Type() == es[1].Type() && es[0].Type().OID == t.OID {
			t = es[0].Type()
		}
		// The output column's location is that of the expression whose
		// type was chosen (select_common_type's which_expr).
		loc := arms[0].targetLoc(i)
		if isUnknown(es[0]) || (es[0].Type().OID != t.OID && es[1].Type().OID == t.OID) {
			loc = arms[1].targetLoc(i)
		}
		u.targetLocs = append(u.targetLocs, loc)
		if t.OID == types.JSON && !s.All {
			return nil, nil, b.errAt(loc, pgerr.UndefinedFunction, "could not identify an equality operator for type json")
		}
		for _, arm := range arms {
			x, err := b.coerce(arm.Targets[i], t, types.CastImplicit, arm.targetLoc(i))
			if err == errMismatch {
				return nil, nil, b.errAt(arm.targetLoc(i), pgerr.DatatypeMismatch, "%s could not convert type %s to %s", what, arm.Targets[i].Type().Name(), t.Name())
			}
			if err != nil {
				return nil, nil, err
			}
			arm.Targets[i] = x
			arm.Columns[i].T = t
		}
		name := arms[0].Columns[i].Name
		u.Targets = append(u.Targets, &ColRef{Idx: i, T: t, Name: name})
		u.Columns = append(u.Columns, ResultCol{Name: name, T: t})
		cols[i] = scopeCol{name: name, e: &ColRef{Idx: i, T: t, Name: name}}
	}
	return u, cols, nil
}

// valuesList binds VALUES (...), (...) outside INSERT: each row is bound as
// a SELECT of its expressions (unknown literals kept), the columns are
// named column1 .. columnN and converted to the common type of all the
// rows (select_common_type: "VALUES types %s and %s cannot be matched"),
// and the rows are read one after the other, as a UNION ALL's arms.
// ORDER BY and LIMIT apply to the whole.
func (b *binder) valuesList(s *pg_query.SelectStmt) (*Select, error) {
	if len(s.LockingClause) > 0 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "FOR UPDATE cannot be applied to VALUES")
	}
	n := -1
	var arms []*Select
	var locs [][]int32 // each row's items' locations
	for _, row := range s.ValuesLists {
		items := row.GetList().GetItems()
		if n >= 0 && len(items) != n {
			loc := int32(-1)
			if len(items) > 0 {
				loc = exprLocation(items[0])
			}
			return nil, b.errAt(loc, pgerr.SyntaxError, "VALUES lists must all be the same length")
		}
		n = len(items)
		tl := make([]*pg_query.Node, n)
		loc := make([]int32, n)
		for j, it := range items {
			loc[j] = exprLocation(it)
			tl[j] = &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{
				Name: fmt.Sprintf("column%d", j+1), Val: it, Location: loc[j]}}}
		}
		locs = append(locs, loc)
		b.insertSource = true // keep unknown literals for the common type
		b.valuesRow = true
		arm, err := b.selectStmt(&pg_query.SelectStmt{TargetList: tl})
		if err != nil {
			return nil, err
		}
		arms = append(arms, arm)
	}
	u := &Select{Union: arms, UnionAll: true, NVisible: n}
	cols := make([]scopeCol, n)
	es := make([]Expr, len(arms))
	for i := 0; i < n; i++ {
		for k, arm := range arms {
			es[k] = arm.Targets[i]
		}
		t, bad, ok := selectCommonType(es)
		if !ok {
			// The error points at the first row whose type clashes.
			at := int32(-1)
			for k := range es {
				if _, _, ok := selectCommonType(es[:k+1]); !ok {
					at = locs[k][i]
					break
				}
			}
			return nil, b.errAt(at, pgerr.DatatypeMismatch, "VALUES types %s and %s cannot be matched", t.Name(), bad.Name())
		}
		// The typmod survives when every row has it (select_common_typmod).
		if slices.IndexFunc(es, func(e Expr) bool { return e.Type() != es[0].Type() }) < 0 && es[0].Type().OID == t.OID {
			t = es[0].Type()
		}
		for k, arm := range arms {
			x, err := b.coerce(arm.Targets[i], t, types.CastImplicit, locs[k][i])
			if err == errMismatch {
				return nil, b.errAt(locs[k][i], pgerr.DatatypeMismatch, "VALUES could not convert type %s to %s", arm.Targets[i].Type().Name(), t.Name())
			}
			if err != nil {
				return nil, err
			}
			arm.Targets[i] = x
			arm.Columns[i].T = t
		}
		name := fmt.Sprintf("column%d", i+1)
		u.Targets = append(u.Targets, &ColRef{Idx: i, T: t, Name: name})
		u.Columns = append(u.Columns, ResultCol{Name: name, T: t})
		cols[i] = scopeCol{name: name, e: &ColRef{Idx: i, T: t, Name: name}}
	}
	return b.unionResult(s, u, cols, false, "VALUES")
}

// unionResult is the Select reading u's rows (a set operation's or a
// VALUES list's), DISTINCT when distinct, with s's ORDER BY (output
// columns by name or position) and LIMIT; what names the construct in
// errors.
func (b *binder) unionResult(s *pg_query.SelectStmt, u *Select, cols []scopeCol, distinct bool, what string) (*Select, error) {
	n := u.NVisible
	locs := u.targetLocs
	if locs == nil {
		locs = u.Union[0].targetLocs
	}
	// The reader has its own targets and columns: an enclosing set
	// operation converts them to its common types, not u's.
	out := &Select{From: []FromTable{{Sub: u, Base: 0, Width: n}}, Join: &JoinNode{Item: 0}, NVisible: n,
		Distinct: distinct, Targets: slices.Clone(u.Targets), Columns: slices.Clone(u.Columns), targetLocs: locs}
	for _, sb := range s.SortClause {
		sort := sb.GetSortBy()
		idx, err := b.setOpSortColumn(sort.Node, cols, what)
		if err != nil {
			if e, ok := err.(*pgerr.Error); ok && e.Code == pgerr.UndefinedColumn && what != "VALUES" {
				// As PostgreSQL's errorMissingColumn: name the first
				// arm ("*SELECT* n", arms numbered left to right) that
				// has such a column.
				name := sort.Node.GetColumnRef().Fields[0].GetString_().Sval
				for n, leaf := range setOpLeaves(s, u, nil) {
					if slices.ContainsFunc(leaf.Columns[:leaf.NVisible], func(c ResultCol) bool { return c.Name == name }) {
						e.WithHint("There is a column named \"%s\" in table \"*SELECT* %d\", but it cannot be referenced from this part of the query.", name, n+1)
						break
					}
				}
			}
			return nil, err
		}
		desc := sort.SortbyDir == pg_query.SortByDir_SORTBY_DESC
		nullsFirst := desc
		switch sort.SortbyNulls {
		case pg_query.SortByNulls_SORTBY_NULLS_FIRST:
			nullsFirst = true
		case pg_query.SortByNulls_SORTBY_NULLS_LAST:
			nullsFirst = false
		}
		out.Sort = append(out.Sort, SortKey{Idx: idx, Desc: desc, NullsFirst: nullsFirst, T: cols[idx].e.Type()})
	}
	if err := b.limitClause(s, out); err != nil {
		return nil, err
	}
	return out, nil
}

// setOpSortColumn resolves an ORDER BY item of a set operation or VALUES
// list to an output column: a position or a column name, with
// PostgreSQL's errors for the rest (a set operation's ORDER BY sees only
// its result columns: transformSetOperationStmt).
func (b *binder) setOpSortColumn(node *pg_query.Node, cols []scopeCol, what string) (int, error) {
	if c := node.GetAConst(); c != nil {
		if c.GetIval() == nil {
			return 0, b.errAt(c.Location, pgerr.SyntaxError, "non-integer constant in ORDER BY")
		}
		idx := int(c.GetIval().Ival) - 1
		if idx < 0 || idx >= len(cols) {
			return 0, b.errAt(c.Location, pgerr.InvalidColumnReference, "ORDER BY position %d is not in select list", idx+1)
		}
		return idx, nil
	}
	if what == "VALUES" {
		if cr := node.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
			for i, c := range cols {
				if c.name == cr.Fields[0].GetString_().Sval {
					return i, nil
				}
			}
		}
		return 0, b.errAt(exprLocation(node), pgerr.FeatureNotSupported,
			"ORDER BY on a VALUES result must name an output column")
	}
	if cr := node.GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetString_() != nil {
		if len(cr.Fields) > 1 {
			tab := cr.Fields[0].GetString_()
			if tab == nil {
				return 0, b.errAt(cr.Location, pgerr.FeatureNotSupported, "this ORDER BY item is not supported")
			}
			return 0, b.errAt(cr.Location, pgerr.UndefinedTable, "missing FROM-clause entry for table %q", tab.Sval)
		}
		name := cr.Fields[0].GetString_().Sval
		idx := -1
		for i, c := range cols {
			if c.name == name {
				if idx >= 0 {
					return 0, b.errAt(cr.Location, pgerr.AmbiguousColumn, "ORDER BY %q is ambiguous", name)
				}
				idx = i
			}
		}
		if idx < 0 {
			return 0, b.errAt(cr.Location, pgerr.UndefinedColumn, "column %q does not exist", name)
		}
		return idx, nil
	}
	return 0, b.errAt(exprLocation(node), pgerr.FeatureNotSupported, "invalid UNION/INTERSECT/EXCEPT ORDER BY clause").
		WithDetail("Only result column names can be used, not expressions or functions.").
		WithHint("Add the expression/function to every SELECT, or move the UNION into a FROM clause.")
}

// setOpLeaves appends the queries under the set operation s (bound as u)
// that PostgreSQL's transformSetOperationTree takes as leaves, left to
// right: plain SELECTs, VALUES lists, and set operations in parentheses
// with their own ORDER BY, LIMIT or WITH.
func setOpLeaves(s *pg_query.SelectStmt, u *Select, out []*Select) []*Select {
	for k, arm := range []*pg_query.SelectStmt{s.Larg, s.Rarg} {
		bound := u.Union[k]
		nested := arm.Op != pg_query.SetOperation_SETOP_NONE && arm.Op != pg_query.SetOperation_SET_OPERATION_UNDEFINED
		if nested && len(arm.SortClause) == 0 && arm.LimitCount == nil && arm.LimitOffset == nil && arm.WithClause == nil &&
			len(bound.From) == 1 && bound.From[0].Sub != nil && len(bound.From[0].Sub.Union) == 2 {
			out = setOpLeaves(arm, bound.From[0].Sub, out)
			continue
		}
		out = append(out, bound)
	}
	return out
}

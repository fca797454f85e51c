package sql

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// setOp binds UNION [ALL]: each arm is bound as a SELECT of its own, their
// columns are converted to the common type of each position
// (select_common_type, "UNION types %s and %s cannot be matched"), and the
// result is a Select reading one FROM item, the arms' rows one after the
// other (a Select with Union set); UNION without ALL makes it DISTINCT.
// ORDER BY and LIMIT apply to the whole and name output columns by name or
// position. INTERSECT and EXCEPT are 0A000.
func (b *binder) setOp(s *pg_query.SelectStmt) (*Select, error) {
	if s.Op != pg_query.SetOperation_SETOP_UNION {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "INTERSECT and EXCEPT are not supported")
	}
	if len(s.LockingClause) > 0 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "FOR UPDATE is not allowed with UNION/INTERSECT/EXCEPT")
	}
	var arms []*Select
	for _, a := range []*pg_query.SelectStmt{s.Larg, s.Rarg} {
		arm, err := b.selectStmt(a)
		if err != nil {
			return nil, err
		}
		arms = append(arms, arm)
	}
	n := arms[0].NVisible
	if arms[1].NVisible != n {
		return nil, pgerr.New(pgerr.SyntaxError, "each UNION query must have the same number of columns")
	}
	u := &Select{Union: arms, UnionAll: s.All, NVisible: n}
	cols := make([]scopeCol, n)
	for i := 0; i < n; i++ {
		es := []Expr{arms[0].Targets[i], arms[1].Targets[i]}
		t, bad, ok := selectCommonType(es)
		if !ok {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "UNION types %s and %s cannot be matched", t.Name(), bad.Name())
		}
		if arms[0].Targets[i].Type().Typmod == arms[1].Targets[i].Type().Typmod && arms[0].Targets[i].Type().OID == t.OID {
			t = arms[0].Targets[i].Type()
		}
		for _, arm := range arms {
			x, err := b.coerce(arm.Targets[i], t, types.CastImplicit, -1)
			if err == errMismatch {
				return nil, pgerr.New(pgerr.DatatypeMismatch, "UNION could not convert type %s to %s", arm.Targets[i].Type().Name(), t.Name())
			}
			if err != nil {
				return nil, err
			}
			arm.Targets[i] = x
			arm.Columns[i].T = t
		}
		name := arms[0].Columns[i].Name
		u.Targets = append(u.Targets, &ColRef{Idx: i, T: t, Name: name})
		u.Columns = append(u.Columns, ResultCol{Name: name, T: t})
		cols[i] = scopeCol{name: name, e: &ColRef{Idx: i, T: t, Name: name}}
	}
	return b.unionResult(s, u, cols, !s.All, "UNION")
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

// unionResult is the Select reading u's rows (a UNION's or a VALUES list's
// arms), DISTINCT when distinct, with s's ORDER BY (output columns by name
// or position) and LIMIT; what names the construct in errors.
func (b *binder) unionResult(s *pg_query.SelectStmt, u *Select, cols []scopeCol, distinct bool, what string) (*Select, error) {
	n := u.NVisible
	out := &Select{From: []FromTable{{Sub: u, Base: 0, Width: n}}, Join: &JoinNode{Item: 0}, NVisible: n,
		Distinct: distinct, Targets: u.Targets, Columns: u.Columns, targetLocs: u.Union[0].targetLocs}
	for _, sb := range s.SortClause {
		sort := sb.GetSortBy()
		idx := -1
		if c := sort.Node.GetAConst(); c != nil && c.GetIval() != nil {
			idx = int(c.GetIval().Ival) - 1
			if idx < 0 || idx >= n {
				return nil, b.errAt(c.Location, pgerr.InvalidColumnReference, "ORDER BY position %d is not in select list", idx+1)
			}
		} else if cr := sort.Node.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
			for i, c := range cols {
				if c.name == cr.Fields[0].GetString_().Sval {
					idx = i
					break
				}
			}
		}
		if idx < 0 {
			return nil, b.errAt(exprLocation(sort.Node), pgerr.FeatureNotSupported,
				"ORDER BY on a %s result must name an output column", what)
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

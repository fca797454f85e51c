package sql

import (
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
	out := &Select{From: []FromTable{{Sub: u, Base: 0, Width: n}}, Join: &JoinNode{Item: 0}, NVisible: n,
		Distinct: !s.All, Targets: u.Targets, Columns: u.Columns}
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
				"ORDER BY on a UNION result must name an output column")
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

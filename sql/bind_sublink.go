package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// subLinkSelect binds a sublink's SELECT: it sees its own FROM clause,
// then the scopes of the queries around it; correlated reports whether it
// read one of those.
func (b *binder) subLinkSelect(sl *pg_query.SubLink) (*Select, bool, error) {
	if b.noSubquery != "" {
		return nil, false, b.errAt(sl.Location, pgerr.FeatureNotSupported, "cannot use subquery in %s", b.noSubquery)
	}
	sel := sl.Subselect.GetSelectStmt()
	if sel == nil {
		return nil, false, b.errAt(sl.Location, pgerr.FeatureNotSupported, "this subquery is not supported")
	}
	correlated := false
	savedSc, savedAgg, savedErr, savedVirt, savedSRF := b.sc, b.agg, b.aggErr, b.allowVirtual, b.srfOK
	b.outer = append(b.outer, outerScope{sc: b.sc, correlated: &correlated})
	inner, err := b.selectStmt(sel)
	b.outer = b.outer[:len(b.outer)-1]
	b.sc, b.agg, b.aggErr, b.allowVirtual, b.srfOK = savedSc, savedAgg, savedErr, savedVirt, savedSRF
	return inner, correlated, err
}

// subLink binds a subquery (EXISTS, scalar, IN / = ANY, ARRAY(...)): the inner SELECT sees its own FROM clause, then
// the scopes of the queries around it; a reference to one of those makes it
// correlated.
func (b *binder) subLink(sl *pg_query.SubLink) (Expr, error) {
	inner, correlated, err := b.subLinkSelect(sl)
	if err != nil {
		return nil, err
	}
	switch sl.SubLinkType {
	case pg_query.SubLinkType_EXISTS_SUBLINK:
		return &SubPlan{Kind: "exists", Select: inner, T: types.TBool, Correlated: correlated}, nil
	case pg_query.SubLinkType_EXPR_SUBLINK:
		if inner.NVisible != 1 {
			return nil, b.errAt(sl.Location, pgerr.SyntaxError, "subquery must return only one column")
		}
		t := inner.Targets[0].Type()
		if t.OID == types.Unknown {
			t = types.TText
		}
		return &SubPlan{Kind: "scalar", Select: inner, T: t, Correlated: correlated}, nil
	case pg_query.SubLinkType_ARRAY_SUBLINK:
		if inner.NVisible != 1 {
			return nil, b.errAt(sl.Location, pgerr.SyntaxError, "subquery must return only one column")
		}
		t := inner.Targets[0].Type()
		if t.OID == types.Unknown {
			t = types.TText
		}
		at := types.ArrayOf(t)
		if types.IsArray(t.OID) || at.OID == 0 {
			return nil, b.errAt(sl.Location, pgerr.UndefinedObject, "could not find array type for data type %s", t.Name())
		}
		return &SubPlan{Kind: "array", Select: inner, T: at, Correlated: correlated}, nil
	case pg_query.SubLinkType_ANY_SUBLINK:
		if op := opName(sl.OperName); op != "" && op != "=" {
			return nil, b.errAt(sl.Location, pgerr.FeatureNotSupported, "%s ANY (subquery) is not supported", op)
		}
		if isRow(sl.Testexpr) {
			return b.rowInSubLink(sl, inner, correlated)
		}
		if inner.NVisible != 1 {
			return nil, b.errAt(sl.Location, pgerr.SyntaxError, "subquery has too many columns")
		}
		x, err := b.expr(sl.Testexpr)
		if err != nil {
			return nil, err
		}
		x, ct, err := b.inOperand(x, inner.Targets[0].Type(), sl.Location, sl.Location)
		if err != nil {
			return nil, err
		}
		return &SubPlan{Kind: "in", Select: inner, X: x, CT: ct, T: types.TBool, Correlated: correlated}, nil
	}
	return nil, b.errAt(sl.Location, pgerr.FeatureNotSupported, "this kind of subquery is not supported")
}

// inOperand resolves x = ANY (subquery column of type it): an unknown x
// takes the column's type (errors at litLoc), then both compare in their
// common type, to which x is cast (errors at loc).
func (b *binder) inOperand(x Expr, it types.T, litLoc, loc int32) (Expr, types.T, error) {
	var err error
	if isUnknown(x) {
		if x, err = b.coerce(x, types.T{OID: it.OID, Typmod: -1}, types.CastImplicit, litLoc); err != nil {
			return nil, types.T{}, err
		}
	}
	ct, ok := commonType(x.Type(), it)
	if !ok {
		return nil, types.T{}, b.opError(loc, "=", x.Type(), it)
	}
	if x, err = b.castTo(x, ct, loc); err != nil {
		return nil, types.T{}, err
	}
	return x, ct, nil
}

package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// subLink binds an uncorrelated subquery: the inner SELECT sees only its
// own FROM clause.
func (b *binder) subLink(sl *pg_query.SubLink) (Expr, error) {
	sel := sl.Subselect.GetSelectStmt()
	if sel == nil {
		return nil, b.errAt(sl.Location, pgerr.FeatureNotSupported, "this subquery is not supported")
	}
	savedSc, savedAgg, savedErr, savedVirt := b.sc, b.agg, b.aggErr, b.allowVirtual
	inner, err := b.selectStmt(sel)
	b.sc, b.agg, b.aggErr, b.allowVirtual = savedSc, savedAgg, savedErr, savedVirt
	if err != nil {
		if pgerr.CodeOf(err) == pgerr.UndefinedColumn || pgerr.CodeOf(err) == pgerr.UndefinedTable {
			if pe, ok := err.(*pgerr.Error); ok && pe.Hint == "" {
				pe.Hint = "Correlated subqueries (referring to the outer query) are not supported."
			}
		}
		return nil, err
	}
	switch sl.SubLinkType {
	case pg_query.SubLinkType_EXISTS_SUBLINK:
		return &SubPlan{Kind: "exists", Select: inner, T: types.TBool}, nil
	case pg_query.SubLinkType_EXPR_SUBLINK:
		if inner.NVisible != 1 {
			return nil, b.errAt(sl.Location, pgerr.SyntaxError, "subquery must return only one column")
		}
		t := inner.Targets[0].Type()
		if t.OID == types.Unknown {
			t = types.TText
		}
		return &SubPlan{Kind: "scalar", Select: inner, T: t}, nil
	case pg_query.SubLinkType_ANY_SUBLINK:
		if op := opName(sl.OperName); op != "" && op != "=" {
			return nil, b.errAt(sl.Location, pgerr.FeatureNotSupported, "%s ANY (subquery) is not supported", op)
		}
		if inner.NVisible != 1 {
			return nil, b.errAt(sl.Location, pgerr.SyntaxError, "subquery has too many columns")
		}
		x, err := b.expr(sl.Testexpr)
		if err != nil {
			return nil, err
		}
		it := inner.Targets[0].Type()
		if isUnknown(x) {
			if x, err = b.coerce(x, types.T{OID: it.OID, Typmod: -1}, types.CastImplicit, sl.Location); err != nil {
				return nil, err
			}
		}
		ct, ok := commonType(x.Type(), it)
		if !ok {
			return nil, b.opError(sl.Location, "=", x.Type(), it)
		}
		if x, err = b.castTo(x, ct, sl.Location); err != nil {
			return nil, err
		}
		return &SubPlan{Kind: "in", Select: inner, X: x, CT: ct, T: types.TBool}, nil
	}
	return nil, b.errAt(sl.Location, pgerr.FeatureNotSupported, "this kind of subquery is not supported")
}

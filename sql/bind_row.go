package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// Row comparisons: (a, b) op (c, d) with =, <>, <, <=, >, >=, IS [NOT]
// DISTINCT FROM, and (a, b) [NOT] IN ((c, d), ...), bound as PostgreSQL's
// make_row_comparison_op means them, pair by pair: = is the AND of the
// pairs' =, <> the OR of their <>, and an ordering operator decides at the
// first pair that is not equal (NULL if that pair holds a NULL), spelled
// out as a1 < b1 OR (a1 = b1 AND (a2 < b2 ...)). Each pair resolves its
// own types. A row anywhere else (ROW(...) as a value, a row compared with
// a subquery) is still refused.

// rowArgs returns the fields of a row constructor, nil if n is not one.
func rowArgs(n *pg_query.Node) []*pg_query.Node {
	if r := n.GetRowExpr(); r != nil {
		return r.Args
	}
	return nil
}

// isRow reports whether n is a row constructor with at least two fields
// or written ROW(...).
func isRow(n *pg_query.Node) bool {
	return n != nil && n.GetRowExpr() != nil
}

// rowCompare binds l op r over two row constructors.
func (b *binder) rowCompare(op string, l, r *pg_query.Node, loc int32) (Expr, error) {
	la, ra := rowArgs(l), rowArgs(r)
	if len(la) != len(ra) {
		return nil, b.errAt(loc, pgerr.SyntaxError, "unequal number of entries in row expressions")
	}
	if len(la) == 0 {
		return nil, b.errAt(loc, pgerr.FeatureNotSupported, "cannot compare rows of zero length")
	}
	pair := func(op string, i int) (Expr, error) {
		x, err := b.expr(la[i])
		if err != nil {
			return nil, err
		}
		y, err := b.expr(ra[i])
		if err != nil {
			return nil, err
		}
		if op == "IS DISTINCT FROM" || op == "IS NOT DISTINCT FROM" {
			c, err := b.binary("=", x, y, loc)
			if err != nil {
				return nil, err
			}
			cmp, ok := c.(*Cmp)
			if !ok {
				return nil, b.errAt(loc, pgerr.FeatureNotSupported, "IS DISTINCT FROM of these types is not supported")
			}
			cmp.Op = op
			return cmp, nil
		}
		return b.binary(op, x, y, loc)
	}
	var parts []Expr
	switch op {
	case "=", "<>", "!=", "IS DISTINCT FROM", "IS NOT DISTINCT FROM":
		if op == "!=" {
			op = "<>"
		}
		for i := range la {
			c, err := pair(op, i)
			if err != nil {
				return nil, err
			}
			parts = append(parts, c)
		}
		if op == "<>" || op == "IS DISTINCT FROM" {
			return boolOf("OR", parts), nil
		}
		return boolOf("AND", parts), nil
	case "<", "<=", ">", ">=":
		strict := op[:1]
		// From the last pair back: last op, then a_i strict b_i OR (a_i = b_i AND rest).
		rest, err := pair(op, len(la)-1)
		if err != nil {
			return nil, err
		}
		for i := len(la) - 2; i >= 0; i-- {
			lt, err := pair(strict, i)
			if err != nil {
				return nil, err
			}
			eq, err := pair("=", i)
			if err != nil {
				return nil, err
			}
			rest = &BoolOp{Op: "OR", Args: []Expr{lt, &BoolOp{Op: "AND", Args: []Expr{eq, rest}}}}
		}
		return rest, nil
	}
	return nil, b.errAt(loc, pgerr.FeatureNotSupported, "row comparison with operator %s is not supported", op)
}

func boolOf(op string, parts []Expr) Expr {
	if len(parts) == 1 {
		return parts[0]
	}
	return &BoolOp{Op: op, Args: parts}
}

// rowInList binds (a, b) [NOT] IN ((c, d), ...): the OR of the row
// equalities (NOT IN: the AND of the row inequalities).
func (b *binder) rowInList(a *pg_query.A_Expr, op string) (Expr, error) {
	items := a.Rexpr.GetList().GetItems()
	cmpOp, join := "=", "OR"
	if op == "<>" {
		cmpOp, join = "<>", "AND"
	}
	var parts []Expr
	for _, it := range items {
		if !isRow(it) {
			return nil, b.errAt(exprLocation(it), pgerr.FeatureNotSupported, "a row compared with a value that is not a row constructor is not supported")
		}
		c, err := b.rowCompare(cmpOp, a.Lexpr, it, a.Location)
		if err != nil {
			return nil, err
		}
		parts = append(parts, c)
	}
	return boolOf(join, parts), nil
}

// rowInSubLink binds (a, b) IN (SELECT x, y ...): each field compared with
// its column of the subquery in their common type (a SubPlan of Kind
// "rowin"), true when a row of the subquery equals the row, NULL when none
// does but some comparison was NULL, as PostgreSQL's row equality over the
// subquery's rows gives.
func (b *binder) rowInSubLink(sl *pg_query.SubLink, inner *Select, correlated bool) (Expr, error) {
	fields := rowArgs(sl.Testexpr)
	switch {
	case len(fields) > inner.NVisible:
		return nil, b.errAt(sl.Location, pgerr.SyntaxError, "subquery has too few columns")
	case len(fields) < inner.NVisible:
		return nil, b.errAt(sl.Location, pgerr.SyntaxError, "subquery has too many columns")
	}
	out := &SubPlan{Kind: "rowin", Select: inner, T: types.TBool, Correlated: correlated}
	for i, f := range fields {
		x, err := b.expr(f)
		if err != nil {
			return nil, err
		}
		x, ct, err := b.inOperand(x, inner.Targets[i].Type(), exprLocation(f), sl.Location)
		if err != nil {
			return nil, err
		}
		out.Xs = append(out.Xs, x)
		out.CTs = append(out.CTs, ct)
	}
	return out, nil
}

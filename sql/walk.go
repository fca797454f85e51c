package sql

import (
	"fmt"
	"strings"
)

// mapChildren returns e with each direct child replaced by fn(child).
func mapChildren(e Expr, fn func(Expr) (Expr, error)) (Expr, error) {
	var err error
	m := func(x Expr) Expr {
		if x == nil || err != nil {
			return x
		}
		var y Expr
		y, err = fn(x)
		return y
	}
	ms := func(xs []Expr) []Expr {
		out := make([]Expr, len(xs))
		for i, x := range xs {
			out[i] = m(x)
		}
		return out
	}
	switch e := e.(type) {
	case *Arith:
		c := *e
		c.L, c.R = m(e.L), m(e.R)
		return &c, err
	case *Neg:
		c := *e
		c.X = m(e.X)
		return &c, err
	case *Concat:
		c := *e
		c.L, c.R = m(e.L), m(e.R)
		return &c, err
	case *Cmp:
		c := *e
		c.L, c.R = m(e.L), m(e.R)
		return &c, err
	case *BoolOp:
		c := *e
		c.Args = ms(e.Args)
		return &c, err
	case *IsNull:
		c := *e
		c.X = m(e.X)
		return &c, err
	case *InList:
		c := *e
		c.X = m(e.X)
		c.List = ms(e.List)
		return &c, err
	case *Cast:
		c := *e
		c.X = m(e.X)
		return &c, err
	case *GroupingFunc:
		c := *e
		c.Args = ms(e.Args)
		c.Set = m(e.Set)
		return &c, err
	case *Like:
		c := *e
		c.X, c.Pattern = m(e.X), m(e.Pattern)
		return &c, err
	case *Func:
		c := *e
		c.Args = ms(e.Args)
		return &c, err
	case *SubPlan:
		if e.X == nil && e.Xs == nil {
			return e, nil
		}
		c := *e
		c.X = m(e.X)
		if e.Xs != nil {
			c.Xs = ms(e.Xs)
		}
		return &c, err
	case *Case:
		c := *e
		c.Whens, c.Results = ms(e.Whens), ms(e.Results)
		c.Else = m(e.Else)
		return &c, err
	case *Coalesce:
		c := *e
		c.Args = ms(e.Args)
		return &c, err
	case *Agg:
		c := *e
		c.Arg = m(e.Arg)
		c.Extra = ms(e.Extra)
		c.Direct = ms(e.Direct)
		c.Filter = m(e.Filter)
		c.Order = make([]AggOrder, len(e.Order))
		for i, o := range e.Order {
			c.Order[i] = o
			c.Order[i].X = m(o.X)
		}
		return &c, err
	case *ArrayExpr:
		c := *e
		c.Elems = ms(e.Elems)
		return &c, err
	case *Subscript:
		c := *e
		c.X = m(e.X)
		c.Idx = ms(e.Idx)
		c.Lower, c.Upper = ms(e.Lower), ms(e.Upper)
		return &c, err
	case *ScalarArrayOp:
		c := *e
		c.L, c.R = m(e.L), m(e.R)
		return &c, err
	case *SRFCall:
		c := *e
		c.Args = ms(e.Args)
		return &c, err
	case *WinFunc:
		c := *e
		c.Args = ms(e.Args)
		c.Filter = m(e.Filter)
		if e.Agg != nil && e.Agg.Arg != nil && len(c.Args) > 0 {
			a := *e.Agg
			a.Arg, a.Extra = c.Args[0], c.Args[1:]
			c.Agg = &a
		}
		return &c, err
	}
	return e, nil
}

// Walk calls fn on e and every expression below it (pre-order).
func Walk(e Expr, fn func(Expr)) {
	if e == nil {
		return
	}
	fn(e)
	_, _ = mapChildren(e, func(x Expr) (Expr, error) {
		Walk(x, fn)
		return x, nil
	})
}

// exprKey is a structural fingerprint: equal keys mean equal expressions.
func exprKey(e Expr) string {
	var b strings.Builder
	writeKey(&b, e)
	return b.String()
}

func writeKey(b *strings.Builder, e Expr) {
	if e == nil {
		b.WriteString("nil")
		return
	}
	switch e := e.(type) {
	case *Const:
		fmt.Fprintf(b, "const(%d,%d,%T:%v)", e.T.OID, e.T.Typmod, e.Val, e.Val)
		return
	case *Param:
		fmt.Fprintf(b, "$%d", e.Idx+1)
		return
	case *ColRef:
		fmt.Fprintf(b, "col%d", e.Idx)
		return
	case *OuterRef:
		fmt.Fprintf(b, "outer%d.%d", e.Level, e.Idx)
		return
	case *Arith:
		fmt.Fprintf(b, "arith%c%d", e.Op, e.T.OID)
	case *Neg:
		b.WriteString("neg")
	case *Concat:
		b.WriteString("concat")
	case *Cmp:
		fmt.Fprintf(b, "cmp%s%d", e.Op, e.CT.OID)
	case *BoolOp:
		b.WriteString(e.Op)
	case *IsNull:
		fmt.Fprintf(b, "isnull%v", e.Not)
	case *InList:
		fmt.Fprintf(b, "in%v", e.Not)
	case *Cast:
		fmt.Fprintf(b, "cast%d,%d,%v", e.T.OID, e.T.Typmod, e.Explicit)
	case *Like:
		fmt.Fprintf(b, "like%v%v", e.Not, e.Fold)
	case *Case:
		fmt.Fprintf(b, "case%d,%v", len(e.Whens), e.Else != nil)
	case *SubPlan:
		fmt.Fprintf(b, "subplan%p", e.Select)
	case *Func:
		b.WriteString("f:" + e.Name)
	case *Coalesce:
		fmt.Fprintf(b, "coalesce%c", e.MinMax+'0')
	case *Agg:
		fmt.Fprintf(b, "agg:%s%v%d,%d%v", e.Name, e.Distinct, len(e.Extra), len(e.Direct), e.Filter != nil)
		for _, o := range e.Order {
			fmt.Fprintf(b, "o%v%v", o.Desc, o.NullsFirst)
		}
	case *ArrayExpr:
		fmt.Fprintf(b, "array%d,%d", e.T.OID, e.T.Typmod)
	case *Subscript:
		fmt.Fprintf(b, "sub%v,%d,", e.Slice, len(e.Idx))
		for i := range e.Lower {
			fmt.Fprintf(b, "%v%v", e.Lower[i] != nil, e.Upper[i] != nil)
		}
	case *ScalarArrayOp:
		fmt.Fprintf(b, "sao%s%v%d", e.Op, e.All, e.CT.OID)
	case *SRFCall:
		fmt.Fprintf(b, "srf%p", e)
	case *WinFunc:
		fmt.Fprintf(b, "win:%s,%d,%v", e.Name, e.def, e.Filter != nil)
	default:
		fmt.Fprintf(b, "%T", e)
	}
	b.WriteByte('(')
	_, _ = mapChildren(e, func(x Expr) (Expr, error) {
		writeKey(b, x)
		b.WriteByte(',')
		return x, nil
	})
	b.WriteByte(')')
}

// Rewrite returns e with every node for which fn returns (x, true) replaced
// by x (children of a replaced node are not visited).
func Rewrite(e Expr, fn func(Expr) (Expr, bool)) Expr {
	if e == nil {
		return nil
	}
	if x, ok := fn(e); ok {
		return x
	}
	out, _ := mapChildren(e, func(c Expr) (Expr, error) { return Rewrite(c, fn), nil })
	return out
}

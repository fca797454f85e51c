package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// caseExpr binds CASE, simple (CASE x WHEN v ...) or searched (CASE WHEN
// cond ...): the results are resolved to their common type (text if all are
// unknown literals).
func (b *binder) caseExpr(ce *pg_query.CaseExpr) (Expr, error) {
	out := &Case{}
	var arg Expr
	var err error
	if ce.Arg != nil {
		if arg, err = b.expr(ce.Arg); err != nil {
			return nil, err
		}
	}
	for _, wn := range ce.Args {
		w := wn.GetCaseWhen()
		var cond Expr
		if arg != nil {
			v, err := b.expr(w.Expr)
			if err != nil {
				return nil, err
			}
			if cond, err = b.binary("=", arg, v, w.Location); err != nil {
				return nil, err
			}
		} else {
			if cond, err = b.expr(w.Expr); err != nil {
				return nil, err
			}
			if cond, err = b.requireBool(cond, "CASE/WHEN", w.Location); err != nil {
				return nil, err
			}
		}
		r, err := b.expr(w.Result)
		if err != nil {
			return nil, err
		}
		out.Whens = append(out.Whens, cond)
		out.Results = append(out.Results, r)
	}
	if ce.Defresult != nil {
		if out.Else, err = b.expr(ce.Defresult); err != nil {
			return nil, err
		}
	}
	// Result type: the common type of the non-unknown results, else text,
	// the ELSE result first as in PostgreSQL's transformCaseExpr (it
	// decides among string types and names the first type in errors).
	var all []Expr
	if out.Else != nil {
		all = append(all, out.Else)
	}
	all = append(all, out.Results...)
	if err := b.srfWithin("set-returning functions are not allowed in CASE", append(append(all, out.Whens...), arg)...); err != nil {
		return nil, err
	}
	t, bad, ok := selectCommonType(all)
	if !ok {
		return nil, b.errAt(ce.Location, pgerr.DatatypeMismatch, "CASE types %s and %s cannot be matched", t.Name(), bad.Name())
	}
	out.T = t
	for i, r := range out.Results {
		if out.Results[i], err = b.coerce(r, t, types.CastImplicit, ce.Location); err != nil {
			return nil, err
		}
	}
	if out.Else != nil {
		if out.Else, err = b.coerce(out.Else, t, types.CastImplicit, ce.Location); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// coalesceExpr binds COALESCE: its arguments are resolved to their common
// type, as CASE results are.
func (b *binder) coalesceExpr(ce *pg_query.CoalesceExpr) (Expr, error) {
	var args []Expr
	for _, a := range ce.Args {
		x, err := b.expr(a)
		if err != nil {
			return nil, err
		}
		args = append(args, x)
	}
	if err := b.srfWithin("set-returning functions are not allowed in COALESCE", args...); err != nil {
		return nil, err
	}
	t, bad, ok := selectCommonType(args)
	if !ok {
		return nil, b.errAt(ce.Location, pgerr.DatatypeMismatch, "COALESCE types %s and %s cannot be matched", t.Name(), bad.Name())
	}
	for i, a := range args {
		x, err := b.coerce(a, t, types.CastImplicit, ce.Location)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	return &Coalesce{Args: args, T: t}, nil
}

// minMaxExpr binds GREATEST and LEAST: the arguments converted to their
// common type, as COALESCE's.
func (b *binder) minMaxExpr(me *pg_query.MinMaxExpr) (Expr, error) {
	name, op := "GREATEST", byte('>')
	if me.Op == pg_query.MinMaxOp_IS_LEAST {
		name, op = "LEAST", '<'
	}
	var args []Expr
	for _, a := range me.Args {
		x, err := b.expr(a)
		if err != nil {
			return nil, err
		}
		args = append(args, x)
	}
	if err := b.srfWithin("set-returning functions are not allowed in "+name, args...); err != nil {
		return nil, err
	}
	t, bad, ok := selectCommonType(args)
	if !ok {
		loc := me.Location
		for i, a := range args {
			if a.Type() == bad {
				loc = exprLocation(me.Args[i])
				break
			}
		}
		return nil, b.errAt(loc, pgerr.DatatypeMismatch, "%s types %s and %s cannot be matched", name, t.Name(), bad.Name())
	}
	for i, a := range args {
		x, err := b.coerce(a, t, types.CastImplicit, exprLocation(me.Args[i]))
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	return &Coalesce{Args: args, T: t, MinMax: op}, nil
}

// booleanTest binds x IS [NOT] TRUE, FALSE or UNKNOWN as IS [NOT]
// DISTINCT FROM true or false, or IS [NOT] NULL; x must be boolean.
func (b *binder) booleanTest(bt *pg_query.BooleanTest) (Expr, error) {
	var what string
	var val, not bool
	switch bt.Booltesttype {
	case pg_query.BoolTestType_IS_TRUE:
		what, val = "IS TRUE", true
	case pg_query.BoolTestType_IS_NOT_TRUE:
		what, val, not = "IS NOT TRUE", true, true
	case pg_query.BoolTestType_IS_FALSE:
		what = "IS FALSE"
	case pg_query.BoolTestType_IS_NOT_FALSE:
		what, not = "IS NOT FALSE", true
	case pg_query.BoolTestType_IS_UNKNOWN:
		what = "IS UNKNOWN"
	default:
		what, not = "IS NOT UNKNOWN", true
	}
	x, err := b.expr(bt.Arg)
	if err != nil {
		return nil, err
	}
	if x, err = b.requireBool(x, what, exprLocation(bt.Arg)); err != nil {
		return nil, err
	}
	if strings.HasSuffix(what, "UNKNOWN") {
		return &IsNull{X: x, Not: not}, nil
	}
	op := "IS NOT DISTINCT FROM"
	if not {
		op = "IS DISTINCT FROM"
	}
	return &Cmp{Op: op, L: x, R: &Const{Val: val, T: types.TBool}, CT: types.TBool}, nil
}

package sql

import (
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

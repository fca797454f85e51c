package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// aggCtx collects aggregate calls while binding a SELECT's targets.
type aggCtx struct {
	aggs  []*Agg
	inAgg bool
}

// aggNames are the aggregate functions minipg implements.
var aggNames = map[string]bool{"count": true, "sum": true, "min": true, "max": true, "avg": true}

// aggCall binds an aggregate call where the clause allows one (b.agg set),
// not nested in another, and records it in b.agg.
func (b *binder) aggCall(name string, fc *pg_query.FuncCall) (Expr, error) {
	if b.agg == nil {
		clause := b.aggErr
		if clause == "" {
			clause = "this context"
		}
		return nil, b.errAt(fc.Location, pgerr.GroupingError, "aggregate functions are not allowed in %s", clause)
	}
	if b.agg.inAgg {
		return nil, b.errAt(fc.Location, pgerr.GroupingError, "aggregate function calls cannot be nested")
	}
	if len(fc.AggOrder) > 0 || fc.AggFilter != nil {
		return nil, b.errAt(fc.Location, pgerr.FeatureNotSupported, "aggregate ORDER BY and FILTER are not supported")
	}
	a := &Agg{Name: name, Distinct: fc.AggDistinct}
	if fc.AggStar {
		if name != "count" {
			return nil, b.errAt(fc.Location, pgerr.SyntaxError, "%s(*) specified, but %s is not an aggregate function", name, name)
		}
		a.T = types.TInt8
		b.agg.aggs = append(b.agg.aggs, a)
		return a, nil
	}
	if len(fc.Args) == 0 && name == "count" {
		return nil, b.errAt(fc.Location, pgerr.WrongObjectType, "count(*) must be used to call a parameterless aggregate function")
	}
	if len(fc.Args) != 1 {
		var names []string
		b.agg.inAgg = true
		for _, a := range fc.Args {
			x, err := b.expr(a)
			if err != nil {
				b.agg.inAgg = false
				return nil, err
			}
			names = append(names, baseName(x.Type()))
		}
		b.agg.inAgg = false
		return nil, b.errAt(fc.Location, pgerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(names, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	b.agg.inAgg = true
	x, err := b.expr(fc.Args[0])
	b.agg.inAgg = false
	if err != nil {
		return nil, err
	}
	if isUnknown(x) {
		if name == "sum" || name == "avg" {
			return nil, b.errAt(fc.Location, pgerr.AmbiguousFunction, "function %s(unknown) is not unique", name).
				WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
		}
		if x, err = b.coerce(x, types.TText, types.CastImplicit, fc.Location); err != nil {
			return nil, err
		}
	}
	a.Arg = x
	if a.T, err = b.aggResultType(name, x.Type(), fc.Location); err != nil {
		return nil, err
	}
	b.agg.aggs = append(b.agg.aggs, a)
	return a, nil
}

// aggResultType is the result type of aggregate name over an argument of
// type at (count is bigint; sum and avg widen; min and max keep the type),
// or 42883 when the aggregate has no such variant.
func (b *binder) aggResultType(name string, at types.T, loc int32) (types.T, error) {
	bad := func() error {
		return b.errAt(loc, pgerr.UndefinedFunction, "function %s(%s) does not exist", name, baseName(at)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	switch name {
	case "count":
		return types.TInt8, nil
	case "sum":
		switch at.OID {
		case types.Int2, types.Int4:
			return types.TInt8, nil
		case types.Int8, types.Numeric:
			return types.TNumeric, nil
		case types.Float4, types.Float8:
			return types.T{OID: at.OID, Typmod: -1}, nil
		}
	case "avg":
		switch at.OID {
		case types.Int2, types.Int4, types.Int8, types.Numeric:
			return types.TNumeric, nil
		case types.Float4, types.Float8:
			return types.TFloat8, nil
		}
	case "min", "max":
		switch at.OID {
		case types.Bool: // there is no min(boolean) or max(boolean)
		case types.Varchar:
			return types.TText, nil
		default:
			return types.T{OID: at.OID, Typmod: -1}, nil
		}
	}
	return types.T{}, bad()
}

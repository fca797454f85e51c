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
var aggNames = map[string]bool{"count": true, "sum": true, "min": true, "max": true, "avg": true,
	"string_agg": true, "array_agg": true, "bool_and": true, "bool_or": true, "every": true,
	"stddev": true, "stddev_samp": true, "stddev_pop": true, "variance": true, "var_samp": true, "var_pop": true}

// aggArity is how many arguments an aggregate takes (1 unless listed).
var aggArity = map[string]int{"string_agg": 2}

// aggCall binds an aggregate call where the clause allows one (b.agg set),
// not nested in another, and records it in b.agg: its arguments, DISTINCT,
// ORDER BY inside the call and FILTER (WHERE ...).
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
	a := &Agg{Name: name, Distinct: fc.AggDistinct}
	if fc.AggStar {
		if name != "count" {
			return nil, b.errAt(fc.Location, pgerr.SyntaxError, "%s(*) specified, but %s is not an aggregate function", name, name)
		}
		a.T = types.TInt8
		if err := b.aggFilter(a, fc); err != nil {
			return nil, err
		}
		b.agg.aggs = append(b.agg.aggs, a)
		return a, nil
	}
	if len(fc.Args) == 0 && name == "count" {
		return nil, b.errAt(fc.Location, pgerr.WrongObjectType, "count(*) must be used to call a parameterless aggregate function")
	}
	b.agg.inAgg = true
	var args []Expr
	for _, n := range fc.Args {
		x, err := b.expr(n)
		if err != nil {
			b.agg.inAgg = false
			return nil, err
		}
		args = append(args, x)
	}
	b.agg.inAgg = false
	arity := aggArity[name]
	if arity == 0 {
		arity = 1
	}
	if len(args) != arity {
		var names []string
		for _, x := range args {
			names = append(names, baseName(x.Type()))
		}
		return nil, b.errAt(fc.Location, pgerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(names, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	written := typesOf(args)
	var err error
	if args, err = b.aggArgs(name, args, fc.Location); err != nil {
		return nil, err
	}
	a.Arg, a.Extra = args[0], args[1:]
	if a.T, err = b.aggResultType(name, args, written, fc.Location); err != nil {
		return nil, err
	}
	if err := b.aggOrder(a, fc); err != nil {
		return nil, err
	}
	if a.Distinct && len(a.Order) == 0 {
		// PostgreSQL finds the distinct inputs by sorting them, so they
		// reach the aggregate in the order of the arguments.
		for _, x := range args {
			a.Order = append(a.Order, AggOrder{X: x})
		}
	}
	if err := b.aggFilter(a, fc); err != nil {
		return nil, err
	}
	b.agg.aggs = append(b.agg.aggs, a)
	return a, nil
}

// aggArgs resolves unknown literal arguments to the type the aggregate's
// overloads agree on (text for string_agg, min and max; boolean for
// bool_and, bool_or and every; double precision for the statistics), or
// reports the call ambiguous as PostgreSQL does.
func (b *binder) aggArgs(name string, args []Expr, loc int32) ([]Expr, error) {
	var t types.T
	switch name {
	case "sum", "avg", "array_agg":
		for _, x := range args {
			if isUnknown(x) {
				return nil, b.errAt(loc, pgerr.AmbiguousFunction, "function %s(unknown) is not unique", name).
					WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
			}
		}
		return args, nil
	case "bool_and", "bool_or", "every":
		t = types.TBool
	case "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop":
		t = types.TFloat8
	default:
		t = types.TText
	}
	for i, x := range args {
		if isUnknown(x) {
			y, err := b.coerce(x, t, types.CastImplicit, exprLoc(x, loc))
			if err != nil {
				return nil, err
			}
			args[i] = y
		}
	}
	return args, nil
}

// aggOrder binds ORDER BY inside the call; with DISTINCT every ORDER BY
// expression must be one of the arguments.
func (b *binder) aggOrder(a *Agg, fc *pg_query.FuncCall) error {
	b.agg.inAgg = true
	defer func() { b.agg.inAgg = false }()
	for _, n := range fc.AggOrder {
		sb := n.GetSortBy()
		if sb == nil {
			return pgerr.New(pgerr.InternalError, "unexpected aggregate ORDER BY item")
		}
		if sb.SortbyDir == pg_query.SortByDir_SORTBY_USING {
			return b.errAt(sb.Location, pgerr.FeatureNotSupported, "ORDER BY USING is not supported")
		}
		x, err := b.expr(sb.Node)
		if err != nil {
			return err
		}
		if isUnknown(x) {
			if x, err = b.coerce(x, types.TText, types.CastImplicit, exprLocation(sb.Node)); err != nil {
				return err
			}
		}
		o := AggOrder{X: x, Desc: sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC}
		o.NullsFirst = o.Desc
		switch sb.SortbyNulls {
		case pg_query.SortByNulls_SORTBY_NULLS_FIRST:
			o.NullsFirst = true
		case pg_query.SortByNulls_SORTBY_NULLS_LAST:
			o.NullsFirst = false
		}
		if a.Distinct {
			k, found := exprKey(x), false
			for _, arg := range append([]Expr{a.Arg}, a.Extra...) {
				found = found || exprKey(arg) == k
			}
			if !found {
				return b.errAt(exprLocation(sb.Node), pgerr.InvalidColumnReference, "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list")
			}
		}
		a.Order = append(a.Order, o)
	}
	return nil
}

// aggFilter binds FILTER (WHERE cond), evaluated over the input row.
func (b *binder) aggFilter(a *Agg, fc *pg_query.FuncCall) error {
	if fc.AggFilter == nil {
		return nil
	}
	b.agg.inAgg = true
	defer func() { b.agg.inAgg = false }()
	x, err := b.expr(fc.AggFilter)
	if err != nil {
		return err
	}
	a.Filter, err = b.requireBool(x, "FILTER", exprLocation(fc.AggFilter))
	return err
}

// aggResultType is the result type of aggregate name over an argument of
// type at (count is bigint; sum and avg widen; min and max keep the type),
// or 42883 when the aggregate has no such variant.
func (b *binder) aggResultType(name string, args []Expr, written []types.T, loc int32) (types.T, error) {
	at := args[0].Type()
	bad := func() error {
		var names []string
		for _, t := range written {
			names = append(names, baseName(t))
		}
		return b.errAt(loc, pgerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(names, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	switch name {
	case "string_agg":
		if at.Category() == 'S' && args[1].Type().Category() == 'S' {
			return types.TText, nil
		}
	case "array_agg":
		if types.IsArray(at.OID) {
			return types.T{}, b.errAt(loc, pgerr.FeatureNotSupported, "array_agg of arrays is not supported")
		}
		if t := types.ArrayOf(types.T{OID: at.OID, Typmod: -1}); t.OID != 0 {
			return t, nil
		}
	case "bool_and", "bool_or", "every":
		if at.OID == types.Bool {
			return types.TBool, nil
		}
	case "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop":
		switch at.OID {
		case types.Int2, types.Int4, types.Int8, types.Numeric:
			return types.TNumeric, nil
		case types.Float4, types.Float8:
			return types.TFloat8, nil
		}
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

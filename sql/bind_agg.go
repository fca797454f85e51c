package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// aggCtx collects aggregate calls while binding a SELECT's targets.
type aggCtx struct {
	aggs     []*Agg
	inAgg    bool
	inFilter bool // binding an aggregate's FILTER (inAgg is set too)
}

// aggNames are the aggregate functions minipg implements.
var aggNames = map[string]bool{"count": true, "sum": true, "min": true, "max": true, "avg": true,
	"string_agg": true, "array_agg": true, "bool_and": true, "bool_or": true, "every": true,
	"stddev": true, "stddev_samp": true, "stddev_pop": true, "variance": true, "var_samp": true, "var_pop": true,
	"json_agg": true, "jsonb_agg": true, "json_object_agg": true, "jsonb_object_agg": true}

// aggArity is how many arguments an aggregate takes (1 unless listed).
var aggArity = map[string]int{"string_agg": 2, "json_object_agg": 2, "jsonb_object_agg": 2}

// aggCall binds an aggregate call where the clause allows one (b.agg set),
// not nested in another, and records it in b.agg: its arguments, DISTINCT,
// ORDER BY inside the call and FILTER (WHERE ...).
func (b *binder) aggCall(name string, fc *pg_query.FuncCall) (Expr, error) {
	if err := b.aggAllowed(fc); err != nil {
		return nil, err
	}
	var args []Expr
	if !fc.AggStar {
		var err error
		if len(fc.Args) == 1 {
			b.agg.inAgg = true
			row, ok, err := b.jsonAggRecordArg(name, fc.Args[0])
			b.agg.inAgg = false
			if err != nil {
				return nil, err
			}
			if ok {
				args = []Expr{row}
			}
		}
		if args == nil {
			if args, err = b.bindAggArgs(fc.Args); err != nil {
				return nil, err
			}
		}
		if err := b.srfWithin("aggregate function calls cannot contain set-returning function calls", args...); err != nil {
			return nil, err
		}
	}
	a, err := b.aggOf(name, fc, args)
	if err != nil {
		return nil, err
	}
	if a.Arg != nil {
		if err := b.aggOrder(a, fc, false); err != nil {
			return nil, err
		}
		if a.Distinct && len(a.Order) == 0 {
			// PostgreSQL finds the distinct inputs by sorting them, so they
			// reach the aggregate in the order of the arguments.
			for _, x := range append([]Expr{a.Arg}, a.Extra...) {
				a.Order = append(a.Order, AggOrder{X: x})
			}
		}
	}
	if a.Distinct && a.Arg != nil {
		for i, x := range append([]Expr{a.Arg}, a.Extra...) {
			if x.Type().OID == types.JSON {
				return nil, b.errAt(exprLocation(fc.Args[i]), pgerr.UndefinedFunction, "could not identify an equality operator for type json")
			}
		}
	}
	if err := b.aggFilter(a, fc); err != nil {
		return nil, err
	}
	return b.addAgg(a, fc.Location)
}

// aggOf is aggregate name over its bound arguments args (none for
// count(*)): the arguments resolved and the result type, or the error for
// a call no variant of the aggregate takes.
func (b *binder) aggOf(name string, fc *pg_query.FuncCall, args []Expr) (*Agg, error) {
	a := &Agg{Name: name, Distinct: fc.AggDistinct}
	if fc.AggStar {
		if name != "count" {
			return nil, b.undefinedAgg(name, nil, fc.Location) // name(*) is name()
		}
		a.T = types.TInt8
		return a, nil
	}
	if len(fc.Args) == 0 && name == "count" {
		return nil, b.errAt(fc.Location, pgerr.WrongObjectType, "count(*) must be used to call a parameterless aggregate function")
	}
	arity := aggArity[name]
	if arity == 0 {
		arity = 1
	}
	if len(args) != arity {
		return nil, b.undefinedAgg(name, typesOf(args), fc.Location)
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
	return a, nil
}

// aggAllowed reports 42803 unless the clause being bound allows an
// aggregate call (b.agg set) outside another one.
func (b *binder) aggAllowed(fc *pg_query.FuncCall) error {
	if b.agg == nil {
		clause := b.aggErr
		if clause == "" {
			clause = "this context"
		}
		return b.errAt(fc.Location, pgerr.GroupingError, "aggregate functions are not allowed in %s", clause)
	}
	if b.agg.inAgg {
		return b.errAt(fc.Location, pgerr.GroupingError, "aggregate function calls cannot be nested")
	}
	return nil
}

// aggArgs resolves unknown literal arguments to the type the aggregate's
// overloads agree on (text for string_agg, min and max; boolean for
// bool_and, bool_or and every; double precision for the statistics), or
// reports the call ambiguous as PostgreSQL does.
func (b *binder) aggArgs(name string, args []Expr, loc int32) ([]Expr, error) {
	var t types.T
	switch name {
	case "sum", "avg", "array_agg", "json_agg", "jsonb_agg":
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
func (b *binder) aggOrder(a *Agg, fc *pg_query.FuncCall, keepUnknown bool) error {
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
		if isUnknown(x) && !keepUnknown {
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
	b.agg.inAgg, b.agg.inFilter = true, true
	defer func() { b.agg.inAgg, b.agg.inFilter = false, false }()
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
	bad := func() error { return b.undefinedAgg(name, written, loc) }
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
	case "json_agg", "json_object_agg":
		return types.TJSON, nil
	case "jsonb_agg", "jsonb_object_agg":
		return types.TJSONB, nil
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

// orderedSetAggs are the ordered-set aggregates minipg implements: their
// input is the ORDER BY of WITHIN GROUP, and percentile_cont and
// percentile_disc take the fraction (or an array of fractions) as a direct
// argument, evaluated once per group.
var orderedSetAggs = map[string]bool{"percentile_cont": true, "percentile_disc": true, "mode": true}

// withinGroup binds name(direct args) WITHIN GROUP (ORDER BY x), and a
// call of an ordered-set aggregate without WITHIN GROUP or of another
// function with it (for which PostgreSQL finds no function). The Agg's
// Arg is x, its Direct the direct argument and its Order the ORDER BY
// item, so that the group's values reach it sorted as asked (DESC
// reverses the percentiles).
func (b *binder) withinGroup(name string, fc *pg_query.FuncCall) (Expr, error) {
	if !orderedSetAggs[name] || !fc.AggWithinGroup {
		return nil, b.noOrderedSetAgg(name, fc)
	}
	if err := b.aggAllowed(fc); err != nil {
		return nil, err
	}
	direct, err := b.bindAggArgs(fc.Args)
	if err != nil {
		return nil, err
	}
	a := &Agg{Name: name}
	if err := b.aggOrder(a, fc, true); err != nil {
		return nil, err
	}
	undefined := func() error {
		written := typesOf(direct)
		for _, o := range a.Order {
			written = append(written, o.X.Type())
		}
		return b.undefinedAgg(name, written, fc.Location)
	}
	if len(a.Order) != 1 || (name == "mode") != (len(direct) == 0) || len(direct) > 1 {
		return nil, undefined()
	}
	multi := false
	if len(direct) == 1 {
		// The fraction: double precision or an array of them.
		loc := exprLocation(fc.Args[0])
		f, err := b.coerce(direct[0], types.TFloat8, types.CastImplicit, loc)
		if err == errMismatch {
			f, err = b.coerce(direct[0], types.ArrayOf(types.TFloat8), types.CastImplicit, loc)
			if err != nil {
				return nil, undefined()
			}
			multi = true
		}
		if err != nil {
			return nil, err // an unknown literal that is no number
		}
		a.Direct = []Expr{f}
	}
	x := a.Order[0].X
	elem := types.T{OID: x.Type().OID, Typmod: -1}
	switch {
	case name == "percentile_cont" && elem.OID != types.Interval:
		// Interpolation: double precision or interval.
		y, err := b.coerce(x, types.TFloat8, types.CastImplicit, exprLocation(fc.AggOrder[0].GetSortBy().GetNode()))
		if err == errMismatch {
			return nil, undefined()
		}
		if err != nil {
			return nil, err // an unknown literal that is no number
		}
		x, elem = y, types.TFloat8
	case name != "percentile_cont" && isUnknown(x):
		return nil, pgerr.New(pgerr.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
	}
	a.Arg, a.Order[0].X, a.T = x, x, elem
	if multi {
		if a.T = types.ArrayOf(elem); a.T.OID == 0 {
			return nil, undefined()
		}
	}
	if a.Distinct && a.Arg != nil {
		for i, x := range append([]Expr{a.Arg}, a.Extra...) {
			if x.Type().OID == types.JSON {
				return nil, b.errAt(exprLocation(fc.Args[i]), pgerr.UndefinedFunction, "could not identify an equality operator for type json")
			}
		}
	}
	if err := b.aggFilter(a, fc); err != nil {
		return nil, err
	}
	return b.addAgg(a, fc.Location)
}

// noOrderedSetAgg is 42883 for a call that names no ordered-set aggregate
// as written, its argument types those of the arguments and then of the
// WITHIN GROUP items.
func (b *binder) noOrderedSetAgg(name string, fc *pg_query.FuncCall) error {
	var written []types.T
	for _, n := range fc.Args {
		x, err := b.expr(n)
		if err != nil {
			return err
		}
		written = append(written, x.Type())
	}
	for _, n := range fc.AggOrder {
		x, err := b.expr(n.GetSortBy().GetNode())
		if err != nil {
			return err
		}
		written = append(written, x.Type())
	}
	return b.undefinedAgg(name, written, fc.Location)
}

// undefinedAgg is 42883 for aggregate name called with arguments of the
// types written.
func (b *binder) undefinedAgg(name string, written []types.T, loc int32) error {
	var names []string
	for _, t := range written {
		names = append(names, baseName(t))
	}
	return b.errAt(loc, pgerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(names, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// addAgg registers aggregate call a of the query being bound.
func (b *binder) addAgg(a *Agg, loc int32) (Expr, error) {
	if err := b.outerLevelAgg(a, loc); err != nil {
		return nil, err
	}
	b.agg.aggs = append(b.agg.aggs, a)
	return a, nil
}

// outerLevelAgg refuses an aggregate inside a subquery whose arguments
// (FILTER and ORDER BY included) read columns of an enclosing query and
// none of its own: SQL and PostgreSQL make it an aggregate of that
// enclosing query, computed over its rows (select (select count(*)
// filter (where o.x > 0)) from t o gives one row), and minipg would
// compute it once per outer row instead. A subquery among the arguments
// is not looked into.
func (b *binder) outerLevelAgg(a *Agg, loc int32) error {
	es := append([]Expr{a.Arg, a.Filter}, a.Extra...)
	es = append(es, a.Direct...)
	for _, o := range a.Order {
		es = append(es, o.X)
	}
	local, outer := false, false
	for _, e := range es {
		Walk(e, func(x Expr) {
			switch x.(type) {
			case *ColRef:
				local = true
			case *OuterRef:
				outer = true
			}
		})
	}
	if outer && !local {
		return b.errAt(loc, pgerr.FeatureNotSupported, "aggregate functions over only an outer query's columns are not supported").
			WithHint("Compute the aggregate in the outer query, or in a subquery of its own in FROM.")
	}
	return nil
}

// bindAggArgs binds an aggregate call's arguments, inside the aggregate (an
// aggregate in them is a nested one).
func (b *binder) bindAggArgs(nodes []*pg_query.Node) ([]Expr, error) {
	b.agg.inAgg = true
	defer func() { b.agg.inAgg = false }()
	var out []Expr
	for _, n := range nodes {
		x, err := b.expr(n)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

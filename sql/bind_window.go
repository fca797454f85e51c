package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// Window functions, as PostgreSQL's transformWindowFuncCall and
// transformWindowDefinitions bind them: a call with OVER is allowed in a
// SELECT's target list and ORDER BY only (b.win set), not inside another
// window function's arguments, nor in an aggregate's; its window is a
// definition of the WINDOW clause (OVER w), an OVER (...) clause, or one
// that refers to a named window (OVER (w ORDER BY x)). Identical OVER
// clauses share one window. The definitions are bound after the targets
// and ORDER BY (bindWindows), and the window functions are then moved out
// of the targets into Select.WinFuncs (windowSlots), each a slot after
// the row they are evaluated over.

// winCtx collects the windows and window functions of a SELECT.
type winCtx struct {
	// defs are the query's window definitions: those of the WINDOW
	// clause, then each distinct OVER (...) clause, as PostgreSQL's
	// p_windowdefs.
	defs  []*pg_query.WindowDef
	keys  []string // rawKey of each of defs
	inWin bool     // binding a window function's arguments
	// bound is defs bound (bindWindows), in the same order.
	bound []*WindowDef
}

// windowFuncNames are the window functions (not aggregates) minipg has.
var windowFuncNames = map[string]bool{"row_number": true, "rank": true, "dense_rank": true,
	"percent_rank": true, "cume_dist": true, "ntile": true, "lag": true, "lead": true,
	"first_value": true, "last_value": true, "nth_value": true}

// hypotheticalNames are the window functions that are also
// hypothetical-set aggregates (called with arguments, they want WITHIN
// GROUP).
var hypotheticalNames = map[string]bool{"rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true}

// winAllowed reports the error for a window function where the clause
// being bound has none.
func (b *binder) winAllowed(loc int32) error {
	if b.agg != nil && b.agg.inFilter {
		return b.errAt(loc, pgerr.WindowingError, "window functions are not allowed in FILTER")
	}
	if b.agg != nil && b.agg.inAgg {
		return b.errAt(loc, pgerr.GroupingError, "aggregate function calls cannot contain window function calls")
	}
	if b.win == nil {
		clause := b.winErr
		if clause == "" {
			clause = b.aggErr
		}
		if clause == "" {
			clause = "this context"
		}
		return b.errAt(loc, pgerr.WindowingError, "window functions are not allowed in %s", clause)
	}
	if b.win.inWin {
		return b.errAt(loc, pgerr.WindowingError, "window function calls cannot be nested")
	}
	return nil
}

// windowCall binds name(args) OVER (...).
func (b *binder) windowCall(name string, fc *pg_query.FuncCall) (Expr, error) {
	isAgg := aggNames[name]
	if !isAgg && !windowFuncNames[name] {
		// As PostgreSQL, the function is looked up first: one that does
		// not exist is 42883.
		plain := &pg_query.FuncCall{Funcname: fc.Funcname, Args: fc.Args, Location: fc.Location}
		if orderedSetAggs[name] {
			return nil, b.undefinedAgg(name, nil, fc.Location)
		}
		if _, err := b.funcCallExpr(plain); err != nil {
			return nil, err
		}
		return nil, b.errAt(fc.Location, pgerr.WrongObjectType, "OVER specified, but %s is not a window function nor an aggregate function", name)
	}
	if err := b.winAllowed(fc.Location); err != nil {
		return nil, err
	}
	b.win.inWin = true
	var args []Expr
	for _, n := range fc.Args {
		x, err := b.expr(n)
		if err != nil {
			b.win.inWin = false
			return nil, err
		}
		args = append(args, x)
	}
	b.win.inWin = false
	if err := b.srfWithin("window function calls cannot contain set-returning function calls", args...); err != nil {
		return nil, err
	}
	switch {
	case fc.AggDistinct:
		return nil, b.errAt(fc.Location, pgerr.FeatureNotSupported, "DISTINCT is not implemented for window functions")
	case len(fc.AggOrder) > 0:
		return nil, b.errAt(fc.Location, pgerr.FeatureNotSupported, "aggregate ORDER BY is not implemented for window functions")
	case fc.AggFilter != nil && !isAgg:
		return nil, b.errAt(fc.Location, pgerr.FeatureNotSupported, "FILTER is not implemented for non-aggregate window functions")
	}
	w := &WinFunc{Name: name}
	if isAgg {
		a, err := b.aggOf(name, fc, args)
		if err != nil {
			return nil, err
		}
		w.Agg, w.T = a, a.T
		if a.Arg != nil {
			w.Args = append([]Expr{a.Arg}, a.Extra...)
		}
		if fc.AggFilter != nil {
			if w.Filter, err = b.windowFilter(fc.AggFilter); err != nil {
				return nil, err
			}
		}
	} else {
		if fc.AggStar {
			args = nil // row_number(*) is row_number()
		}
		var err error
		if w.Args, w.T, err = b.windowFuncArgs(name, args, fc); err != nil {
			return nil, err
		}
	}
	def, err := b.windowRef(fc.Over)
	if err != nil {
		return nil, err
	}
	w.def = def
	return w, nil
}

// windowFilter binds a window aggregate's FILTER (WHERE ...), where
// neither aggregates nor window functions are allowed.
func (b *binder) windowFilter(n *pg_query.Node) (Expr, error) {
	savedAgg, savedErr, savedWin, savedWinErr := b.agg, b.aggErr, b.win, b.winErr
	b.agg, b.aggErr, b.win, b.winErr = nil, "FILTER", nil, "FILTER"
	defer func() { b.agg, b.aggErr, b.win, b.winErr = savedAgg, savedErr, savedWin, savedWinErr }()
	x, err := b.expr(n)
	if err != nil {
		return nil, err
	}
	return b.requireBool(x, "FILTER", exprLocation(n))
}

// windowFuncArgs checks and coerces the arguments of window function
// name (PostgreSQL's signatures: lag and lead take anycompatible, an
// integer offset and an anycompatible default; first_value, last_value
// and nth_value anyelement) and returns its result type.
func (b *binder) windowFuncArgs(name string, args []Expr, fc *pg_query.FuncCall) ([]Expr, types.T, error) {
	written := typesOf(args)
	undefined := func() error {
		c := &call{b: b, fc: fc, name: name, argTypes: written}
		return c.undefined()
	}
	toInt4 := func(i int) error {
		x, err := b.coerce(args[i], types.TInt4, types.CastImplicit, exprLoc(args[i], exprLocation(fc.Args[i])))
		if err == errMismatch {
			return undefined()
		}
		args[i] = x
		return err
	}
	unknownArg := func() error {
		return pgerr.New(pgerr.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
	}
	switch name {
	case "row_number", "rank", "dense_rank", "percent_rank", "cume_dist":
		if len(args) != 0 {
			if hypotheticalNames[name] {
				return nil, types.T{}, b.errAt(fc.Location, pgerr.WrongObjectType, "WITHIN GROUP is required for ordered-set aggregate %s", name)
			}
			return nil, types.T{}, undefined()
		}
		if name == "percent_rank" || name == "cume_dist" {
			return nil, types.TFloat8, nil
		}
		return nil, types.TInt8, nil
	case "ntile":
		if len(args) != 1 {
			return nil, types.T{}, undefined()
		}
		return args, types.TInt4, toInt4(0)
	case "first_value", "last_value", "nth_value":
		if (name == "nth_value") != (len(args) == 2) || len(args) == 0 || len(args) > 2 {
			return nil, types.T{}, undefined()
		}
		if isUnknown(args[0]) {
			return nil, types.T{}, unknownArg()
		}
		if len(args) == 2 {
			if err := toInt4(1); err != nil {
				return nil, types.T{}, err
			}
		}
		return args, types.T{OID: args[0].Type().OID, Typmod: args[0].Type().Typmod}, nil
	}
	// lag and lead
	if len(args) < 1 || len(args) > 3 {
		return nil, types.T{}, undefined()
	}
	if len(args) >= 2 {
		if err := toInt4(1); err != nil {
			return nil, types.T{}, err
		}
	}
	t := args[0].Type()
	if len(args) == 3 {
		u := args[2].Type()
		switch {
		case isUnknown(args[0]) && isUnknown(args[2]):
			return nil, types.T{}, unknownArg()
		case isUnknown(args[0]):
			t = u
		case isUnknown(args[2]):
		default:
			c, ok := commonType(t, u)
			if !ok {
				return nil, types.T{}, undefined()
			}
			t = c
		}
		for _, i := range []int{0, 2} {
			x, err := b.coerce(args[i], t, types.CastImplicit, exprLoc(args[i], exprLocation(fc.Args[i])))
			if err == errMismatch {
				return nil, types.T{}, undefined()
			}
			if err != nil {
				return nil, types.T{}, err
			}
			args[i] = x
		}
	} else if isUnknown(args[0]) {
		return nil, types.T{}, unknownArg()
	}
	return args, t, nil
}

// windowRef finds the window an OVER clause names or gives, adding an
// OVER (...) clause not seen before to the query's windows.
func (b *binder) windowRef(over *pg_query.WindowDef) (int, error) {
	if over.Name != "" {
		// OVER w: a window of the WINDOW clause.
		for i, d := range b.win.defs {
			if d.Name == over.Name {
				return i, nil
			}
		}
		return 0, b.errAt(over.Location, pgerr.UndefinedObject, "window \"%s\" does not exist", over.Name)
	}
	// The first window with the same definition (a named one too, as
	// PostgreSQL finds duplicates) is shared.
	k := rawKey(over)
	for i := range b.win.defs {
		if b.win.keys[i] == k {
			return i, nil
		}
	}
	b.win.defs = append(b.win.defs, over)
	b.win.keys = append(b.win.keys, k)
	return len(b.win.defs) - 1, nil
}

// rawKey is a window definition without its name and locations, to find
// identical ones.
func rawKey(d *pg_query.WindowDef) string {
	c := &pg_query.WindowDef{Refname: d.Refname, PartitionClause: d.PartitionClause, OrderClause: d.OrderClause,
		FrameOptions: d.FrameOptions, StartOffset: d.StartOffset, EndOffset: d.EndOffset}
	s, err := pg_query.Deparse(&pg_query.ParseResult{Stmts: []*pg_query.RawStmt{{Stmt: &pg_query.Node{Node: &pg_query.Node_SelectStmt{
		SelectStmt: &pg_query.SelectStmt{WindowClause: []*pg_query.Node{{Node: &pg_query.Node_WindowDef{WindowDef: withName(c)}}}},
	}}}}})
	if err != nil {
		return d.String()
	}
	return s
}

func withName(d *pg_query.WindowDef) *pg_query.WindowDef {
	d.Name = "w"
	return d
}

// hasWinFunc reports whether e holds a window function call.
func hasWinFunc(e Expr) bool {
	found := false
	Walk(e, func(x Expr) {
		if _, ok := x.(*WinFunc); ok {
			found = true
		}
	})
	return found
}

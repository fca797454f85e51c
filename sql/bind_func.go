package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// funcCall binds a function call: aggregates (aggCall), the built-in
// scalar functions below, then the functions other packages registered.
func (b *binder) funcCall(fc *pg_query.FuncCall) (Expr, error) {
	e, err := b.funcCallExpr(fc)
	if err != nil {
		return nil, err
	}
	if srf, ok := e.(*SRFCall); ok {
		srf.Loc = fc.Location
		// PostgreSQL evaluates a set-returning function in another's
		// arguments in a ProjectSet of its own below; minipg does not.
		for _, a := range srf.Args {
			if in := findSRF(a); in != nil {
				if b.aggErr == fromFunctions {
					return nil, b.errAt(in.Loc, pgerr.FeatureNotSupported, "set-returning functions must appear at top level of FROM")
				}
				return nil, b.errAt(in.Loc, pgerr.FeatureNotSupported, "set-returning functions in the arguments of a set-returning function are not supported")
			}
		}
	}
	return e, nil
}

func (b *binder) funcCallExpr(fc *pg_query.FuncCall) (Expr, error) {
	name := opName(fc.Funcname)
	if len(fc.Funcname) == 2 && fc.Funcname[0].GetString_().GetSval() != "pg_catalog" {
		return nil, b.errAt(fc.Location, pgerr.UndefinedFunction, "function %s.%s does not exist", fc.Funcname[0].GetString_().GetSval(), name)
	}
	if fc.Over != nil && fc.AggWithinGroup && orderedSetAggs[name] {
		return nil, b.errAt(fc.Location, pgerr.WrongObjectType, "OVER is not supported for ordered-set aggregate %s", name)
	}
	if fc.AggWithinGroup || orderedSetAggs[name] && fc.Over == nil {
		return b.withinGroup(name, fc)
	}
	if fc.Over != nil {
		return b.windowCall(name, fc)
	}
	if windowFuncNames[name] {
		if len(fc.Args) > 0 && hypotheticalNames[name] {
			return nil, b.errAt(fc.Location, pgerr.WrongObjectType, "WITHIN GROUP is required for ordered-set aggregate %s", name)
		}
		return nil, b.errAt(fc.Location, pgerr.WrongObjectType, "window function %s requires an OVER clause", name)
	}
	if aggNames[name] {
		return b.aggCall(name, fc)
	}
	if e, found, err := b.jsonRecordCall(name, fc); found {
		return e, err
	}
	if fc.AggStar || fc.AggDistinct || len(fc.AggOrder) > 0 || fc.AggFilter != nil {
		return nil, b.notAggregate(name, fc)
	}
	c := &call{b: b, fc: fc, name: name}
	args := fc.Args
	sawNamed := false
	for _, a := range args {
		if a.GetNamedArgExpr() == nil && sawNamed {
			return nil, b.errAt(exprLocation(a), pgerr.SyntaxError, "positional argument cannot follow named argument")
		}
		sawNamed = sawNamed || a.GetNamedArgExpr() != nil
	}
	var userFuncs []*catalog.Function
	if fcat, ok := b.cat.(FunctionCatalog); ok {
		userFuncs = fcat.Functions(name)
	}
	if f := b.creatingFunc; f != nil && f.Name == name {
		userFuncs = slices.DeleteFunc(slices.Clone(userFuncs), func(g *catalog.Function) bool {
			return slices.Equal(g.ArgTypes, f.ArgTypes)
		})
		userFuncs = append(userFuncs, f)
	}
	params, ok := namedParams[name]
	if !ok {
		params, ok = functionNamedParams(userFuncs)
	}
	if ok {
		var err error
		if args, err = b.namedArgs(fc, params); err != nil {
			return nil, err
		}
	}
	for _, a := range args {
		if seqFuncs[name] || regclassFuncs[name] {
			a = stripRegclass(a)
		}
		x, err := b.expr(a)
		if err != nil {
			return nil, err
		}
		c.args = append(c.args, x)
		c.argTypes = append(c.argTypes, x.Type())
	}
	if fc.FuncVariadic {
		return c.variadicCall()
	}
	if len(userFuncs) > 0 {
		if e, found, err := c.userFunction(userFuncs); found {
			return e, err
		}
	}
	if e, found, err := c.tableFunction(); found {
		return e, err
	}
	if e, found, err := c.jsonSRF(); found {
		return e, err
	}
	if err := c.jsonUnknownArg(); err != nil {
		return nil, err
	}
	if e, found, err := c.resolveBuiltin(); found {
		return e, err
	}
	switch name {
	case "generate_series":
		return c.generateSeries()
	case "unnest":
		return c.unnest()
	case "regexp_matches", "regexp_split_to_table", "string_to_table":
		return c.regexpSRF()
	case "version", "current_database", "current_user", "session_user", "pg_backend_pid", "current_schema":
		return c.niladic()
	case "nextval", "currval", "setval", "lastval":
		return c.sequenceFunc()
	}
	return c.registered()
}

// regclassFuncs take a regclass argument, which minipg passes as the
// relation's name (text); 'name'::regclass is taken as the name.
var regclassFuncs = map[string]bool{"pg_freespace": true, "minipg_page_state": true,
	"heap_page_item_attrs": true, "tuple_data_split": true}

// call is a function call being bound: its name and bound arguments, which
// the family's binder coerces in place.
type call struct {
	b        *binder
	fc       *pg_query.FuncCall
	name     string
	args     []Expr
	argTypes []types.T // as written, before any coercion
}

// undefined is 42883 naming the function as called and its arguments' types
// as written, without modifiers (format_type_be).
func (c *call) undefined() error {
	return c.b.errAt(c.fc.Location, pgerr.UndefinedFunction, "function %s does not exist", c.signature()).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// notAggregate is the error for an aggregate's syntax (*, DISTINCT, ORDER
// BY, FILTER) on a function that is not one: as in PostgreSQL, the
// function is looked up first, so that one that does not exist is 42883.
func (b *binder) notAggregate(name string, fc *pg_query.FuncCall) error {
	plain := &pg_query.FuncCall{Funcname: fc.Funcname, Args: fc.Args, Location: fc.Location}
	if fc.AggStar {
		plain.Args = nil
	}
	if _, err := b.funcCallExpr(plain); err != nil {
		return err
	}
	what := ""
	switch {
	case fc.AggStar:
		what = name + "(*)"
	case fc.AggDistinct:
		what = "DISTINCT"
	case len(fc.AggOrder) > 0:
		what = "ORDER BY"
	default:
		what = "FILTER"
	}
	return b.errAt(fc.Location, pgerr.WrongObjectType, "%s specified, but %s is not an aggregate function", what, name)
}

// variadicArrayFuncs are the functions whose "any" parameter repeats and
// which take the repeats as an array marked VARIADIC, expanding it
// themselves (concat, concat_ws, format).
var variadicArrayFuncs = map[string]bool{"concat": true, "concat_ws": true, "format": true,
	"json_build_object": true, "jsonb_build_object": true, "json_build_array": true, "jsonb_build_array": true}

// variadicCall binds f(..., VARIADIC array): the last argument must be an
// array and stand for the variadic parameter itself, which of minipg's
// functions only those of variadicArrayFuncs have.
func (c *call) variadicCall() (Expr, error) {
	last := c.args[len(c.args)-1]
	if !types.IsArray(last.Type().OID) {
		return nil, c.b.errAt(exprLoc(last, c.fc.Location), pgerr.DatatypeMismatch, "VARIADIC argument must be an array")
	}
	if !variadicArrayFuncs[c.name] {
		return nil, c.undefined()
	}
	e, found, err := c.resolveBuiltin()
	if err != nil {
		return nil, err
	}
	f, ok := e.(*Func)
	if !found {
		ok = false
	}
	if !ok || f.Builtin == nil || !f.Builtin.Variadic || len(f.Builtin.Args) != len(c.args) {
		return nil, c.undefined()
	}
	f.VariadicArray = true
	return f, nil
}

// signature is the function's name and its arguments' types as written.
func (c *call) signature() string {
	var ts []string
	for _, t := range c.argTypes {
		ts = append(ts, baseName(t))
	}
	return c.name + "(" + strings.Join(ts, ", ") + ")"
}

// coerceArg converts argument i to t implicitly; without an implicit cast
// the function does not exist for these arguments.
func (c *call) coerceArg(i int, t types.T) error {
	x, err := c.b.coerce(c.args[i], t, types.CastImplicit, exprLoc(c.args[i], c.fc.Location))
	if err == errMismatch {
		return c.undefined()
	}
	if err != nil {
		return err
	}
	c.args[i] = x
	return nil
}

// textArgs checks that there are n arguments, all strings (unknown literals
// become text).
func (c *call) textArgs(n int) error {
	if len(c.args) != n {
		return c.undefined()
	}
	for i, a := range c.args {
		if isUnknown(a) {
			if err := c.coerceArg(i, types.TText); err != nil {
				return err
			}
		}
		if c.args[i].Type().Category() != 'S' {
			return c.undefined()
		}
	}
	return nil
}

// textFunc binds a function of n string arguments, run as fn, returning t.
func (c *call) textFunc(n int, fn string, t types.T) (Expr, error) {
	if err := c.textArgs(n); err != nil {
		return nil, err
	}
	return &Func{Name: fn, Args: c.args, T: t}, nil
}

// niladic binds the session and server information functions.
func (c *call) niladic() (Expr, error) {
	if len(c.args) != 0 {
		return nil, c.undefined()
	}
	t := map[string]types.T{"version": types.TText, "current_database": types.TText,
		"current_user": types.TText, "session_user": types.TText, "pg_backend_pid": types.TInt4, "current_schema": types.TText}[c.name]
	if c.name == "current_schema" {
		return &Const{T: types.TText, Val: "public"}, nil
	}
	return &Func{Name: c.name, T: t}, nil
}

// registered binds a function another package registered (RegisterFunction):
// arguments convert implicitly to its parameter types.
func (c *call) registered() (Expr, error) {
	f := LookupFunction(c.name)
	if f == nil || len(c.args) > len(f.Args) || (len(c.args) < len(f.Args) && (f.MinArgs == 0 || len(c.args) < f.MinArgs)) {
		return nil, c.undefined()
	}
	for i := range c.args {
		if err := c.coerceArg(i, types.T{OID: f.Args[i], Typmod: -1}); err != nil {
			return nil, err
		}
	}
	return &Func{Name: c.name, Args: c.args, T: f.Result}, nil
}

// sqlValueFunction binds the SQL-standard functions written without
// parentheses (CURRENT_TIMESTAMP, CURRENT_DATE, CURRENT_USER, ...).
func (b *binder) sqlValueFunction(sv *pg_query.SQLValueFunction) (Expr, error) {
	switch sv.Op {
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N:
		return builtinCall("now")
	case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:
		return builtinCall("localtimestamp")
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
		return builtinCall("current_date")
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N,
		pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME_N:
		name, t := "current_time", types.TTimeTZ
		if sv.Op == pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME || sv.Op == pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME_N {
			name, t = "localtime", types.TTime
		}
		e, err := builtinCall(name)
		if err != nil || sv.Typmod < 0 {
			return e, err
		}
		// CURRENT_TIME(p) and LOCALTIME(p) round to p digits.
		t.Typmod = min(sv.Typmod, types.MaxTimestampPrec)
		return b.coerce(e, t, types.CastImplicit, sv.Location)
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_USER, pg_query.SQLValueFunctionOp_SVFOP_SESSION_USER,
		pg_query.SQLValueFunctionOp_SVFOP_USER, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_ROLE:
		return &Func{Name: "current_user", T: types.TText}, nil
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:
		return &Func{Name: "current_database", T: types.TText}, nil
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:
		return &Const{T: types.TText, Val: "public"}, nil
	}
	return nil, b.errAt(sv.Location, pgerr.FeatureNotSupported, "%s is not supported", strings.ToLower(strings.TrimPrefix(sv.Op.String(), "SVFOP_")))
}

// namedParams are the parameter names and defaults of the built-in
// functions that may be called with named arguments (name => value), as
// pg_proc's proargnames and proargdefaults give them.
var namedParams = map[string][]struct{ name, def string }{
	"make_interval": {{"years", "0"}, {"months", "0"}, {"weeks", "0"}, {"days", "0"}, {"hours", "0"}, {"mins", "0"}, {"secs", "0.0"}},
	"jsonb_set":     {{"jsonb_in", ""}, {"path", ""}, {"replacement", ""}, {"create_if_missing", "true"}},
	"jsonb_insert":  {{"jsonb_in", ""}, {"path", ""}, {"replacement", ""}, {"insert_after", "false"}},
	"jsonb_set_lax": {{"jsonb_in", ""}, {"path", ""}, {"replacement", ""}, {"create_if_missing", "true"},
		{"null_value_treatment", "'use_json_null'"}},
}

// namedArgs puts a call's named arguments in their positions, filling the
// positions before the last one given with their defaults.
func (b *binder) namedArgs(fc *pg_query.FuncCall, params []struct{ name, def string }) ([]*pg_query.Node, error) {
	named := false
	for _, a := range fc.Args {
		if a.GetNamedArgExpr() != nil {
			named = true
		}
	}
	if !named {
		return fc.Args, nil
	}
	out := make([]*pg_query.Node, len(params))
	last := -1
	for i, a := range fc.Args {
		na := a.GetNamedArgExpr()
		if na == nil {
			if i >= len(params) {
				return nil, b.errAt(fc.Location, pgerr.UndefinedFunction, "function %s does not exist", opName(fc.Funcname))
			}
			out[i] = a
			if i > last {
				last = i
			}
			continue
		}
		pos := -1
		for j, p := range params {
			if p.name == na.Name {
				pos = j
			}
		}
		if pos < 0 {
			return nil, b.errAt(fc.Location, pgerr.UndefinedFunction, "function %s(%s) does not exist", opName(fc.Funcname), b.namedSignature(fc.Args)).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		if out[pos] != nil {
			return nil, b.errAt(na.Location, pgerr.SyntaxError, "argument name \"%s\" used more than once", na.Name)
		}
		out[pos] = na.Arg
		if pos > last {
			last = pos
		}
	}
	out = out[:last+1]
	for i := range out {
		if out[i] == nil && params[i].def == "" {
			// A parameter without a default left out.
			return nil, b.errAt(fc.Location, pgerr.UndefinedFunction, "function %s does not exist", opName(fc.Funcname)).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		if out[i] == nil {
			n, err := pg_query.Parse("SELECT " + params[i].def)
			if err != nil {
				return nil, err
			}
			out[i] = n.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val
		}
	}
	return out, nil
}

// namedSignature is a call's argument list as PostgreSQL's "function ...
// does not exist" names it: each argument's type, a named one as "name =>
// type".
func (b *binder) namedSignature(args []*pg_query.Node) string {
	parts := make([]string, len(args))
	for i, a := range args {
		name := ""
		if na := a.GetNamedArgExpr(); na != nil {
			name, a = na.Name+" => ", na.Arg
		}
		t := "unknown"
		if e, err := b.expr(a); err == nil {
			t = baseName(e.Type())
		}
		parts[i] = name + t
	}
	return strings.Join(parts, ", ")
}

package sql

// Functions written in SQL: CREATE [OR REPLACE] FUNCTION ... LANGUAGE sql,
// DROP FUNCTION, and their calls. A function's body is a list of SELECT
// statements (PostgreSQL's body may also change data; minipg's may not);
// the value is the last statement's first row (its rows, for SETOF and
// RETURNS TABLE). The body reads its parameters as $n or by name (a column
// of the same name wins, as in PostgreSQL). CREATE binds the body, as
// check_function_bodies does, so that its errors and a return type it does
// not produce are reported then; each call binds it again (the executor
// caches the binding per catalog version) and runs it.

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// FunctionCatalog is implemented by a Catalog that holds functions.
type FunctionCatalog interface {
	Functions(name string) []*catalog.Function
}

// RunSQLFunction runs a SQL function's body with the given argument values
// and returns its last statement's rows; package executor sets it. env is
// what the executor passes builtins.
var RunSQLFunction func(env any, f *catalog.Function, args []types.Datum) ([][]types.Datum, error)

// CreateFunction is CREATE [OR REPLACE] FUNCTION of a SQL function.
type CreateFunction struct {
	Def     catalog.Function
	Replace bool
}

func (*CreateFunction) stmt() {}

// FuncRef names a function in DROP FUNCTION: its name, and its argument
// types unless ArgsGiven is false (the name alone must then be unique).
type FuncRef struct {
	Name      string
	ArgTypes  []uint32
	ArgsGiven bool
}

// DropFunction is DROP FUNCTION [IF EXISTS] f [(types)], ...
type DropFunction struct {
	Funcs    []FuncRef
	IfExists bool
}

func (*DropFunction) stmt() {}

// FunctionBody is a SQL function's body bound for a call: its statements,
// each a SELECT, the last one's rows the result.
type FunctionBody struct {
	Stmts []*Select
}

func (b *binder) createFunction(s *pg_query.CreateFunctionStmt) (*CreateFunction, error) {
	if s.IsProcedure {
		return nil, pgerr.Unimplemented("CREATE PROCEDURE")
	}
	if len(s.Funcname) > 1 {
		if schema := s.Funcname[0].GetString_().GetSval(); schema != "public" {
			return nil, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", schema)
		}
	}
	def := catalog.Function{Name: s.Funcname[len(s.Funcname)-1].GetString_().GetSval(), Volatility: 'v'}
	language := ""
	var body []string
	for _, o := range s.Options {
		d := o.GetDefElem()
		switch d.Defname {
		case "as":
			for _, it := range d.Arg.GetList().GetItems() {
				body = append(body, it.GetString_().GetSval())
			}
		case "language":
			language = d.Arg.GetString_().GetSval()
		case "volatility":
			def.Volatility = map[string]byte{"immutable": 'i', "stable": 's', "volatile": 'v'}[d.Arg.GetString_().GetSval()]
		case "strict":
			def.Strict = d.Arg.GetBoolean().GetBoolval()
		case "window":
			return nil, pgerr.New(pgerr.FeatureNotSupported, "WINDOW functions written in SQL are not supported")
		case "set":
			return nil, pgerr.New(pgerr.FeatureNotSupported, "SET clauses of functions are not supported")
		case "security", "leakproof", "parallel", "cost", "rows", "support":
			// Planner and privilege hints that change no result.
		default:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "function option %s is not supported", strings.ToUpper(d.Defname))
		}
	}
	switch {
	case s.SqlBody != nil && language == "":
		language = "sql"
	case language == "" && len(body) > 0:
		return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "no language specified")
	}
	if language != "sql" {
		if language == "plpgsql" || language == "c" || language == "internal" {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "functions in language \"%s\" are not supported", language).
				WithHint("minipg runs functions written in SQL (LANGUAGE sql).")
		}
		return nil, pgerr.New(pgerr.UndefinedObject, "language \"%s\" does not exist", language)
	}
	if err := b.functionParams(s, &def); err != nil {
		return nil, err
	}
	switch {
	case s.SqlBody != nil && len(body) > 0:
		return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "duplicate function body specified")
	case s.SqlBody != nil:
		ret := s.SqlBody.GetReturnStmt()
		if ret == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "BEGIN ATOMIC function bodies are not supported")
		}
		text, err := deparseSelectOf(ret.Returnval)
		if err != nil {
			return nil, err
		}
		def.Body, def.Return = text, true
	case len(body) == 1:
		def.Body = body[0]
	case len(body) == 0:
		return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "no function body specified")
	default:
		return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "only one AS item needed for language \"sql\"")
	}
	// check_function_bodies: the body binds and yields the declared type.
	if _, err := BindFunctionBody(b.cat, &def, b.query); err != nil {
		return nil, err
	}
	return &CreateFunction{Def: def, Replace: s.Replace}, nil
}

// functionParams reads CREATE FUNCTION's parameters and result type into
// def.
func (b *binder) functionParams(s *pg_query.CreateFunctionStmt, def *catalog.Function) error {
	for _, n := range s.Parameters {
		p := n.GetFunctionParameter()
		switch p.Mode {
		case pg_query.FunctionParameterMode_FUNC_PARAM_TABLE:
			t, err := b.typeName(p.ArgType)
			if err != nil {
				return err
			}
			def.RetCols = append(def.RetCols, catalog.Column{Name: p.Name, TypeOID: uint32(t.OID), Typmod: -1})
			continue
		case pg_query.FunctionParameterMode_FUNC_PARAM_IN, pg_query.FunctionParameterMode_FUNC_PARAM_DEFAULT:
		default:
			return pgerr.New(pgerr.FeatureNotSupported, "OUT, INOUT and VARIADIC parameters are not supported")
		}
		t, err := b.typeName(p.ArgType)
		if err != nil {
			return err
		}
		if polymorphic(t.OID) {
			return pgerr.New(pgerr.FeatureNotSupported, "polymorphic parameter types are not supported")
		}
		dflt := ""
		if p.Defexpr != nil {
			if dflt, err = deparseSelectOf(p.Defexpr); err != nil {
				return err
			}
			dflt = strings.TrimPrefix(dflt, "SELECT ")
		} else if len(def.ArgDefaults) > 0 && def.ArgDefaults[len(def.ArgDefaults)-1] != "" {
			return pgerr.New(pgerr.InvalidFunctionDefinition, "input parameters after one with a default value must also have defaults")
		}
		for _, name := range def.ArgNames {
			if p.Name != "" && name == p.Name {
				return pgerr.New(pgerr.InvalidFunctionDefinition, "parameter name \"%s\" used more than once", p.Name)
			}
		}
		def.ArgNames = append(def.ArgNames, p.Name)
		def.ArgTypes = append(def.ArgTypes, uint32(t.OID))
		def.ArgDefaults = append(def.ArgDefaults, dflt)
	}
	if def.RetCols != nil {
		def.RetSet = true
		if len(def.RetCols) == 1 {
			def.RetType = def.RetCols[0].TypeOID
		} else {
			def.RetType = uint32(RecordOID)
		}
		return nil
	}
	if s.ReturnType == nil {
		return pgerr.New(pgerr.InvalidFunctionDefinition, "function result type must be specified")
	}
	t, err := b.typeName(s.ReturnType)
	if err != nil {
		return err
	}
	if polymorphic(t.OID) || t.OID == RecordOID {
		return pgerr.New(pgerr.FeatureNotSupported, "functions returning %s are not supported", typeNameOf(uint32(t.OID)))
	}
	def.RetType, def.RetSet = uint32(t.OID), s.ReturnType.Setof
	return nil
}

// polymorphic reports whether oid is one of PostgreSQL's polymorphic
// pseudo-types (anyelement, anyarray, ...).
func polymorphic(oid types.OID) bool {
	switch oid {
	case 2283, 2277, 2776, 3500, 3831, 5077, 5078, 5079, 5080, AnyOID:
		return true
	}
	return false
}

// BindFunctionBody binds f's body for a call (query is "" ) or, at CREATE
// FUNCTION, for the statement query that holds it (errors then point into
// it). Every statement must be a SELECT; the last one's columns must give
// f's result type.
func BindFunctionBody(cat Catalog, f *catalog.Function, query string) (*FunctionBody, error) {
	return bindFunctionBody(cat, f, query, nil)
}

// bindFunctionBody is BindFunctionBody; inlining are the functions being
// inlined around it (a body that calls one of them calls it).
func bindFunctionBody(cat Catalog, f *catalog.Function, query string, inlining map[uint32]bool) (*FunctionBody, error) {
	parts, err := Split(f.Body)
	if err != nil {
		return nil, err
	}
	offset := int32(-1)
	if query != "" {
		if i := strings.Index(query, f.Body); i >= 0 && !f.Return {
			offset = int32(i)
		}
	}
	out := &FunctionBody{}
	pos := 0
	for _, part := range parts {
		at := strings.Index(f.Body[pos:], part) + pos
		pos = at + len(part)
		n, err := parseOne(part)
		if err != nil {
			return nil, err
		}
		if n == nil {
			continue
		}
		sel := n.GetSelectStmt()
		if sel == nil || sel.IntoClause != nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "SQL functions whose body is not SELECT statements are not supported").
				WithHint("minipg runs SQL functions that read (SELECT); one that changes data is refused.")
		}
		params := make([]types.OID, len(f.ArgTypes))
		for i, t := range f.ArgTypes {
			params[i] = types.OID(t)
		}
		b := &binder{cat: cat, query: part, params: params, fnParams: f.ArgNames, fnBody: true, inlining: inlining}
		if query != "" {
			b.creatingFunc = f
		}
		st, _, err := b.stmt(n)
		if err != nil {
			if pe, ok := err.(*pgerr.Error); ok && pe.Position > 0 {
				// A position in the body's statement: in CREATE
				// FUNCTION's text when the body is there as written,
				// else none (PostgreSQL's internal query).
				if offset >= 0 {
					pe.Position = charPos(query, offset+int32(at)+int32(bytePos(part, int(pe.Position))))
				} else {
					pe.Position = 0
				}
			}
			return nil, err
		}
		out.Stmts = append(out.Stmts, st.(*Select))
	}
	if len(out.Stmts) == 0 {
		if f.RetType == uint32(types.Void) {
			return out, nil
		}
		e := pgerr.New(pgerr.InvalidFunctionDefinition, "return type mismatch in function declared to return %s", typeNameOf(f.RetType)).
			WithDetail("Function's final statement must be SELECT or INSERT/UPDATE/DELETE RETURNING.")
		e.Where = "SQL function \"" + f.Name + "\""
		return nil, e
	}
	return out, checkReturnType(f, out.Stmts[len(out.Stmts)-1])
}

// checkReturnType is check_sql_fn_retval: the final SELECT gives one
// column of a type assignable to the result type (each column of RETURNS
// TABLE, in order).
func checkReturnType(f *catalog.Function, last *Select) error {
	want := []types.OID{types.OID(f.RetType)}
	if f.RetCols != nil {
		want = want[:0]
		for _, c := range f.RetCols {
			want = append(want, types.OID(c.TypeOID))
		}
	}
	if f.RetType == uint32(types.Void) {
		return nil
	}
	mismatch := func(detail string, args ...any) error {
		what := typeNameOf(f.RetType)
		if f.RetCols != nil && len(f.RetCols) > 1 {
			what = "record"
		}
		if f.RetSet {
			what = "setof " + what
		}
		e := pgerr.New(pgerr.InvalidFunctionDefinition, "return type mismatch in function declared to return %s", what).
			WithDetail(detail, args...)
		e.Where = "SQL function \"" + f.Name + "\""
		return e
	}
	cols := last.Columns[:last.NVisible]
	if len(cols) != len(want) {
		if len(want) == 1 {
			return mismatch("Final statement must return exactly one column.")
		}
		return mismatch("Final statement returns too %s columns.", map[bool]string{true: "many", false: "few"}[len(cols) > len(want)])
	}
	for i, c := range cols {
		if c.T.OID == want[i] || c.T.OID == types.Unknown {
			continue
		}
		if !types.CastContextOf(c.T.OID, want[i]).Allows(types.CastAssignment) {
			if len(want) == 1 {
				return mismatch("Actual return type is %s.", typeNameOf(uint32(c.T.OID)))
			}
			return mismatch("Final statement returns %s instead of %s at column %d.", typeNameOf(uint32(c.T.OID)), typeNameOf(uint32(want[i])), i+1)
		}
	}
	return nil
}

// bytePos is the byte offset of 1-based character position pos in s.
func bytePos(s string, pos int) int {
	n := 0
	for i := range s {
		n++
		if n == pos {
			return i
		}
	}
	return len(s)
}

// dropFunction binds DROP FUNCTION.
func (b *binder) dropFunction(s *pg_query.DropStmt) (*DropFunction, error) {
	out := &DropFunction{IfExists: s.MissingOk}
	for _, o := range s.Objects {
		ow := o.GetObjectWithArgs()
		ref := FuncRef{Name: ow.Objname[len(ow.Objname)-1].GetString_().GetSval(), ArgsGiven: !ow.ArgsUnspecified}
		for _, a := range ow.Objargs {
			t, err := b.typeName(a.GetTypeName())
			if err != nil {
				return nil, err
			}
			ref.ArgTypes = append(ref.ArgTypes, uint32(t.OID))
		}
		out.Funcs = append(out.Funcs, ref)
	}
	return out, nil
}

// userFunction resolves a call of c.name among the SQL functions of that
// name (with the built-in overloads, which win a tie, as pg_catalog comes
// first in the search path). found is false when no SQL function has the
// name.
func (c *call) userFunction(funcs []*catalog.Function) (e Expr, found bool, err error) {
	// Each function is a candidate for every argument count its defaults
	// allow.
	type candidate struct {
		f *catalog.Function
		n int
	}
	var cands []*Builtin
	byCand := map[*Builtin]candidate{}
	// Two functions whose argument lists are the same once defaults are
	// left out make that list ambiguous (FuncnameGetCandidates).
	ambiguous := map[*Builtin]bool{}
	for _, f := range funcs {
		required := len(f.ArgTypes)
		for required > 0 && f.ArgDefaults[required-1] != "" {
			required--
		}
	next:
		for n := required; n <= len(f.ArgTypes); n++ {
			args := make([]types.OID, n)
			for i := range args {
				args[i] = types.OID(f.ArgTypes[i])
			}
			for _, other := range cands {
				if sameOIDs(other.Args, args) {
					ambiguous[other] = true
					continue next
				}
			}
			bi := &Builtin{Name: f.Name, Args: args, Result: types.OID(f.RetType), Volatility: Volatility(f.Volatility),
				Strict: f.Strict, Fn: sqlFunctionFn(f)}
			cands = append(cands, bi)
			byCand[bi] = candidate{f, n}
		}
	}
	for _, g := range LookupBuiltins(c.name) {
		if c.b.extensionInstalled(g.Extension) {
			cands = append(cands, g)
		}
	}
	e, found, err = c.resolveAmong(cands)
	if err != nil || !found {
		return e, true, err
	}
	call, ok := e.(*Func)
	if !ok {
		return e, true, nil
	}
	cand, ok := byCand[call.Builtin]
	if !ok {
		return e, true, nil // a built-in won
	}
	if ambiguous[call.Builtin] {
		return nil, true, c.notUnique()
	}
	f := cand.f
	for i := cand.n; i < len(f.ArgTypes); i++ {
		d, err := c.b.functionDefault(f, i)
		if err != nil {
			return nil, true, err
		}
		call.Args = append(call.Args, d)
	}
	if !f.RetSet {
		if e, ok := c.b.inlineFunction(f, call.Args); ok {
			return e, true, nil
		}
		return call, true, nil
	}
	if len(f.RetCols) > 1 && (!c.b.srfOK || c.b.aggErr != fromFunctions) {
		return nil, true, c.b.errAt(c.fc.Location, pgerr.FeatureNotSupported, "function %s returns a record, which minipg supports only in FROM", c.name).
			WithHint("Call it in FROM: SELECT * FROM %s(...).", c.name)
	}
	tf := &TableFunction{Name: f.Name, Strict: f.Strict, Fn: func(env any, args []types.Datum) ([][]types.Datum, error) {
		return RunSQLFunction(env, f, args)
	}}
	for _, a := range f.ArgTypes {
		tf.Args = append(tf.Args, types.OID(a))
	}
	if f.RetCols != nil {
		for _, col := range f.RetCols {
			tf.Cols = append(tf.Cols, TableFuncCol{Name: col.Name, T: types.T{OID: types.OID(col.TypeOID), Typmod: -1}})
		}
	} else {
		tf.Cols = []TableFuncCol{{Name: f.Name, T: types.T{OID: types.OID(f.RetType), Typmod: -1}}}
	}
	return &SRFCall{Name: f.Name, Args: call.Args, T: tf.Cols[0].T, Table: tf}, true, nil
}

// functionDefault binds the default of f's parameter i, converted to the
// parameter's type.
func (c *binder) functionDefault(f *catalog.Function, i int) (Expr, error) {
	e, err := ParseExpr(f.ArgDefaults[i], types.T{OID: types.OID(f.ArgTypes[i]), Typmod: -1})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// sqlFunctionFn is a scalar SQL function's call: the first column of the
// body's first row, NULL when it has none.
func sqlFunctionFn(f *catalog.Function) BuiltinFn {
	return func(env any, args []types.Datum, _ *Func) (types.Datum, error) {
		rows, err := RunSQLFunction(env, f, args)
		if err != nil || len(rows) == 0 || len(rows[0]) == 0 {
			return nil, err
		}
		return rows[0][0], nil
	}
}

// functionNamedParams are a lone SQL function's parameters for named
// notation (f(a => 1)).
func functionNamedParams(funcs []*catalog.Function) ([]struct{ name, def string }, bool) {
	if len(funcs) != 1 {
		return nil, false
	}
	f := funcs[0]
	out := make([]struct{ name, def string }, len(f.ArgNames))
	for i := range f.ArgNames {
		out[i].name, out[i].def = f.ArgNames[i], f.ArgDefaults[i]
	}
	return out, true
}

// deparseSelectOf is "SELECT expr" for expression node n, as pg_query
// deparses it.
func deparseSelectOf(n *pg_query.Node) (string, error) {
	tree := &pg_query.ParseResult{Stmts: []*pg_query.RawStmt{{Stmt: &pg_query.Node{Node: &pg_query.Node_SelectStmt{
		SelectStmt: &pg_query.SelectStmt{TargetList: []*pg_query.Node{{Node: &pg_query.Node_ResTarget{
			ResTarget: &pg_query.ResTarget{Val: n}}}}}}}}}}
	return pg_query.Deparse(tree)
}

// typeNameOf is format_type_be of type oid.
func typeNameOf(oid uint32) string { return baseName(types.T{OID: types.OID(oid), Typmod: -1}) }

// inlineFunction is PostgreSQL's inline_function: a call of a SQL function
// whose body is one SELECT of a single expression, without FROM, becomes
// that expression with the arguments in place of the parameters, so that
// EXPLAIN shows the expression and its errors carry no function context,
// as in PostgreSQL. Not inlined: SETOF and STRICT functions (PostgreSQL
// inlines a strict one when its expression is strict; minipg does not
// judge that), a body that does not bind, and a parameter used twice whose
// argument is more than a constant, parameter or column (PostgreSQL's
// rule for volatile or expensive arguments, taken conservatively).
func (b *binder) inlineFunction(f *catalog.Function, args []Expr) (Expr, bool) {
	if f.RetSet || f.Strict || b.inlining[f.OID] || len(args) != len(f.ArgTypes) {
		return nil, false
	}
	inlining := map[uint32]bool{f.OID: true}
	for oid := range b.inlining {
		inlining[oid] = true
	}
	body, err := bindFunctionBody(b.cat, f, "", inlining)
	if err != nil || len(body.Stmts) != 1 {
		return nil, false
	}
	st := body.Stmts[0]
	if len(st.From) > 0 || st.Join != nil || st.Table != nil || st.Where != nil || st.Grouped || len(st.Aggs) > 0 ||
		st.Having != nil || len(st.WinFuncs) > 0 || len(st.SRFs) > 0 || st.Distinct || len(st.Sort) > 0 ||
		st.Limit != nil || st.Offset != nil || len(st.Union) > 0 || len(st.Targets) != 1 || st.NVisible != 1 {
		return nil, false
	}
	expr := st.Targets[0]
	uses := make([]int, len(args))
	simple := true
	Walk(expr, func(x Expr) {
		switch p := x.(type) {
		case *Param:
			if p.Idx < len(uses) {
				uses[p.Idx]++
			}
		case *SubPlan, *SRFCall:
			simple = false
		}
	})
	if !simple {
		return nil, false
	}
	for i, n := range uses {
		if n > 1 {
			switch args[i].(type) {
			case *Const, *Param, *ColRef, *OuterRef:
			default:
				return nil, false
			}
		}
	}
	out := Rewrite(expr, func(x Expr) (Expr, bool) {
		if p, ok := x.(*Param); ok && p.Idx < len(args) {
			return args[p.Idx], true
		}
		return nil, false
	})
	want := types.T{OID: types.OID(f.RetType), Typmod: -1}
	if out.Type().OID != want.OID {
		if out, err = b.coerce(out, want, types.CastAssignment, -1); err != nil {
			return nil, false
		}
	}
	return out, true
}

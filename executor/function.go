package executor

// Functions written in SQL (sql/bind_function.go): CREATE [OR REPLACE]
// FUNCTION and DROP FUNCTION, which follow their transaction as CREATE and
// DROP VIEW do (catalog.Function.CreatedXid and DroppingXid; start-up
// settles what a crash left, settleFunctions), and the call, which binds
// the body (once per catalog version and session) and runs its SELECTs in
// the calling statement's snapshot with the arguments as parameters.

import (
	"fmt"
	"slices"
	"strings"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/types"
)

// maxFunctionDepth bounds SQL functions calling each other, where
// PostgreSQL's max_stack_depth stops an endless recursion.
const maxFunctionDepth = 1000

func init() {
	sql.RunSQLFunction = runSQLFunction
}

// boundFunction is a function's body bound at a catalog version.
type boundFunction struct {
	version uint64
	body    *sql.FunctionBody
}

// runSQLFunction is sql.RunSQLFunction: the rows of the last statement of
// f's body run with args, in the calling statement's snapshot (a volatile
// function's in a new one).
func runSQLFunction(env any, f *catalog.Function, args []types.Datum) ([][]types.Datum, error) {
	c := env.(*evalCtx)
	s := c.s
	if c.x == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "SQL function \"%s\" cannot be called here", f.Name)
	}
	if s.fnDepth >= maxFunctionDepth {
		return nil, pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded").
			WithHint("SQL functions may call each other %d deep in minipg.", maxFunctionDepth)
	}
	s.fnDepth++
	defer func() { s.fnDepth-- }()
	body, err := s.functionBody(f)
	if err != nil {
		return nil, withFunctionContext(err, fmt.Sprintf("SQL function \"%s\" during startup", f.Name))
	}
	fx := *c.x
	fx.ev = &evalCtx{s: s, params: args, x: &fx}
	fx.emitReturning = nil
	if f.Volatility == 'v' && fx.tx != nil {
		// A volatile function's statements take a snapshot of their own,
		// as in PostgreSQL: a cursor's call at FETCH sees what committed,
		// and what the transaction did, since the DECLARE. A stable or
		// immutable one reads the calling statement's snapshot.
		snap := fx.tx.Snapshot()
		snap.Usage, snap.CurXid = c.x.snap.Usage, c.x.snap.CurXid
		fx.snap = snap
	}
	var rows [][]types.Datum
	for i, st := range body.Stmts {
		last := i == len(body.Stmts)-1
		where := fmt.Sprintf("SQL function \"%s\" statement %d", f.Name, i+1)
		it, err := fx.subSelect(st)
		if err != nil {
			return nil, withFunctionContext(err, where)
		}
		for {
			row, ok, err := it.Next(fx.ctx)
			if err != nil {
				it.Close()
				return nil, withFunctionContext(err, where)
			}
			if !ok {
				break
			}
			if last {
				rows = append(rows, slices.Clone(row[:st.NVisible]))
				if !f.RetSet {
					break // a scalar function's value is the first row's
				}
			}
		}
		it.Close()
	}
	if err := convertResult(body, f, rows, c.conv()); err != nil {
		return nil, withFunctionContext(err, fmt.Sprintf("SQL function \"%s\" statement %d", f.Name, len(body.Stmts)))
	}
	return rows, nil
}

// convertResult converts the rows to the declared result types where the
// last SELECT gives another type assignable to them.
func convertResult(body *sql.FunctionBody, f *catalog.Function, rows [][]types.Datum, cv types.Conv) error {
	last := body.Stmts[len(body.Stmts)-1]
	want := []types.T{{OID: types.OID(f.RetType), Typmod: -1}}
	if f.RetCols != nil {
		want = want[:0]
		for _, col := range f.RetCols {
			want = append(want, types.T{OID: types.OID(col.TypeOID), Typmod: -1})
		}
	}
	for j, t := range want {
		if j >= last.NVisible {
			break
		}
		from := last.Columns[j].T
		if from.OID == t.OID {
			continue
		}
		for _, r := range rows {
			if r[j] == nil {
				continue
			}
			var v types.Datum
			var err error
			if from.OID == types.Unknown {
				v, err = types.ParseTextConv(t, r[j].(string), cv)
			} else {
				v, err = types.CoerceConv(r[j], from, t, false, cv)
			}
			if err != nil {
				return err
			}
			r[j] = v
		}
	}
	return nil
}

// withFunctionContext adds PostgreSQL's CONTEXT line (line: "SQL function
// "f" statement 1") to an error raised in a SQL function.
func withFunctionContext(err error, line string) error {
	pe := pgerr.Flatten(err)
	if pe.Where == "" {
		pe.Where = line
	} else if !strings.HasSuffix(pe.Where, line) {
		pe.Where += "\n" + line
	}
	return pe
}

// functionBody is f's body bound, from the session's cache when the
// catalog has not changed since.
func (s *Session) functionBody(f *catalog.Function) (*sql.FunctionBody, error) {
	version := s.e.cat.Version()
	if b, ok := s.fnBodies[f.OID]; ok && b.version == version {
		return b.body, nil
	}
	body, err := sql.BindFunctionBody(sessionCatalog{s.e.cat, s}, f, "")
	if err != nil {
		return nil, err
	}
	if s.fnBodies == nil {
		s.fnBodies = map[uint32]boundFunction{}
	}
	s.fnBodies[f.OID] = boundFunction{version, body}
	return body, nil
}

// Functions are the functions called name as session s's statements see
// them: one created by another transaction not yet committed is not found.
func (c sessionCatalog) Functions(name string) []*catalog.Function {
	var out []*catalog.Function
	for _, f := range c.catalogStore.Functions(name) {
		if f.CreatedXid == 0 || c.visibleCreation(f.CreatedXid) {
			out = append(out, f)
		}
	}
	return out
}

// functionWithArgs is the function called name whose argument types are
// args, among those session s sees.
func (s *Session) functionWithArgs(name string, args []uint32) (*catalog.Function, bool) {
	for _, f := range (sessionCatalog{s.e.cat, s}).Functions(name) {
		if slices.Equal(f.ArgTypes, args) {
			return f, true
		}
	}
	return nil, false
}

func (s *Session) createFunction(st *sql.CreateFunction) (string, error) {
	e := s.e
	def := st.Def
	xid, err := s.ensureTx().Xid()
	if err != nil {
		return "", err
	}
	if old, ok := s.functionWithArgs(def.Name, def.ArgTypes); ok {
		if !st.Replace {
			return "", pgerr.New(pgerr.DuplicateFunction, "function \"%s\" already exists with same argument types", def.Name)
		}
		if old.RetType != def.RetType || old.RetSet != def.RetSet || !slices.Equal(old.RetCols, def.RetCols) {
			return "", pgerr.New(pgerr.InvalidFunctionDefinition, "cannot change return type of existing function").
				WithHint("Use DROP FUNCTION %s(%s) first.", def.Name, functionArgTypes(old))
		}
		for i, n := range old.ArgNames {
			if n != "" && n != def.ArgNames[i] {
				return "", pgerr.New(pgerr.InvalidFunctionDefinition, "cannot change name of input parameter \"%s\"", n).
					WithHint("Use DROP FUNCTION %s(%s) first.", def.Name, functionArgTypes(old))
			}
		}
		if _, err := e.cat.UpdateFunction(old.OID, func(f *catalog.Function) error {
			prev, replaced, created := f.Previous, f.ReplacedXid, f.CreatedXid
			if replaced != xid && created == 0 {
				// The first replacement in this transaction: keep the
				// committed definition for an abort.
				keep := *f
				prev, replaced = &keep, xid
			}
			*f = def
			f.OID, f.CreatedXid, f.Previous, f.ReplacedXid = old.OID, created, prev, replaced
			return nil
		}); err != nil {
			return "", err
		}
		if old.ReplacedXid != xid && old.CreatedXid == 0 {
			s.noteCreated(replacedFunction, old.OID, old.Name)
		}
		return "CREATE FUNCTION", nil
	}
	def.CreatedXid = xid
	f, err := e.cat.CreateFunction(def)
	if err != nil {
		return "", err
	}
	s.noteCreated(createdFunction, f.OID, f.Name)
	return "CREATE FUNCTION", nil
}

func (s *Session) dropFunction(st *sql.DropFunction) (string, error) {
	var drop []*catalog.Function
	for _, ref := range st.Funcs {
		var f *catalog.Function
		if ref.ArgsGiven {
			f, _ = s.functionWithArgs(ref.Name, ref.ArgTypes)
		} else {
			switch funcs := (sessionCatalog{s.e.cat, s}).Functions(ref.Name); len(funcs) {
			case 0:
			case 1:
				f = funcs[0]
			default:
				return "", pgerr.New(pgerr.AmbiguousFunction, "function name \"%s\" is not unique", ref.Name).
					WithHint("Specify the argument list to select the function unambiguously.")
			}
		}
		if f == nil {
			sig := fmt.Sprintf("%s(%s)", ref.Name, qualifiedArgTypes(ref.ArgTypes))
			if !st.IfExists {
				if !ref.ArgsGiven {
					return "", pgerr.New(pgerr.UndefinedFunction, "could not find a function named \"%s\"", ref.Name)
				}
				return "", pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", ref.Name, unqualifiedArgTypes(ref.ArgTypes))
			}
			s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, "function %s does not exist, skipping", sig)
			continue
		}
		drop = append(drop, f)
	}
	xid, err := s.ensureTx().Xid()
	if err != nil {
		return "", err
	}
	for _, f := range drop {
		if _, err := s.e.cat.UpdateFunction(f.OID, func(f *catalog.Function) error {
			f.DroppingXid = xid
			return nil
		}); err != nil {
			return "", err
		}
		s.noteDropped(droppedFunction, f.OID)
	}
	return "DROP FUNCTION", nil
}

// settleFunctions ends the CREATE [OR REPLACE] and DROP FUNCTIONs a crash
// interrupted, as settleViews does for views: a replacement that did not
// commit gives the previous definition back.
func (e *Engine) settleFunctions() error {
	for _, f := range e.cat.AllFunctions() {
		gone := f.CreatedXid != 0 && e.txns.Status(f.CreatedXid) != heap.XidCommitted ||
			f.DroppingXid != 0 && e.txns.Status(f.DroppingXid) == heap.XidCommitted
		var err error
		switch {
		case gone:
			err = e.cat.DropFunction(f.OID)
		case f.CreatedXid != 0 || f.DroppingXid != 0 || f.ReplacedXid != 0:
			_, err = e.cat.UpdateFunction(f.OID, func(f *catalog.Function) error {
				if f.ReplacedXid != 0 && e.txns.Status(f.ReplacedXid) != heap.XidCommitted {
					restorePrevious(f)
				}
				f.CreatedXid, f.DroppingXid, f.ReplacedXid, f.Previous = 0, 0, 0, nil
				return nil
			})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// functionArgTypes is the argument list of f as format_procedure prints
// it: the types, separated by commas alone.
func functionArgTypes(f *catalog.Function) string {
	return strings.ReplaceAll(unqualifiedArgTypes(f.ArgTypes), ", ", ",")
}

func unqualifiedArgTypes(args []uint32) string {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = formatType(a, -1)
	}
	return strings.Join(names, ", ")
}

// qualifiedArgTypes is the argument list in DROP FUNCTION IF EXISTS's
// notice, which names the types as the parser's TypeNames do
// (pg_catalog.int4).
func qualifiedArgTypes(args []uint32) string {
	names := make([]string, len(args))
	for i, a := range args {
		n := types.TypName(types.OID(a))
		switch types.OID(a) {
		case types.Int2, types.Int4, types.Int8, types.Float4, types.Float8, types.Bool, types.Numeric,
			types.Varchar, types.Bpchar, types.Timestamp, types.TimestampTZ, types.Interval:
			n = "pg_catalog." + n
		}
		names[i] = n
	}
	return strings.Join(names, ", ")
}

// userProcArguments is pg_get_function_arguments of a SQL function: each
// parameter's name, type and default.
func userProcArguments(f *catalog.Function) string {
	parts := make([]string, len(f.ArgTypes))
	for i, a := range f.ArgTypes {
		p := formatType(a, -1)
		if f.ArgNames[i] != "" {
			p = f.ArgNames[i] + " " + p
		}
		if f.ArgDefaults[i] != "" {
			p += " DEFAULT " + f.ArgDefaults[i]
		}
		parts[i] = p
	}
	return strings.Join(parts, ", ")
}

// userProcResult is pg_get_function_result of a SQL function.
func userProcResult(f *catalog.Function) string {
	if f.RetCols != nil {
		cols := make([]string, len(f.RetCols))
		for i, c := range f.RetCols {
			cols[i] = c.Name + " " + formatType(c.TypeOID, -1)
		}
		return "TABLE(" + strings.Join(cols, ", ") + ")"
	}
	if f.RetSet {
		return "SETOF " + formatType(f.RetType, -1)
	}
	return formatType(f.RetType, -1)
}

// userProcRows are pg_proc's rows of the SQL functions (not those being
// dropped).
func (e *Engine) userProcRows() [][]types.Datum {
	var out [][]types.Datum
	for _, f := range e.cat.AllFunctions() {
		if f.DroppingXid != 0 {
			continue
		}
		rows := float64(0)
		if f.RetSet {
			rows = 1000
		}
		args := &types.Array{}
		if len(f.ArgTypes) > 0 {
			args = &types.Array{Dims: []int{len(f.ArgTypes)}, Lbounds: []int{1}}
			for _, a := range f.ArgTypes {
				args.Elems = append(args.Elems, int64(a))
			}
		}
		ndefaults := 0
		for _, d := range f.ArgDefaults {
			if d != "" {
				ndefaults++
			}
		}
		out = append(out, []types.Datum{int64(f.OID), f.Name, int64(oidPublic), int64(oidSuperuser),
			int64(langSQL), float64(100), rows, int64(0), "f", false, false, f.Strict, f.RetSet,
			string(rune(f.Volatility)), "u", int64(len(f.ArgTypes)), int64(ndefaults), int64(f.RetType), args, f.Prosrc(), nil})
	}
	return out
}

// userIdentityArguments is pg_get_function_identity_arguments of a SQL
// function: names and types, without defaults.
func userIdentityArguments(f *catalog.Function) string {
	parts := make([]string, len(f.ArgTypes))
	for i, a := range f.ArgTypes {
		parts[i] = formatType(a, -1)
		if f.ArgNames[i] != "" {
			parts[i] = f.ArgNames[i] + " " + parts[i]
		}
	}
	return strings.Join(parts, ", ")
}

// restorePrevious puts back the definition a CREATE OR REPLACE that did
// not commit replaced, keeping f's marks.
func restorePrevious(f *catalog.Function) {
	if f.Previous == nil {
		return
	}
	created, dropping := f.CreatedXid, f.DroppingXid
	*f = *f.Previous
	f.CreatedXid, f.DroppingXid, f.ReplacedXid, f.Previous = created, dropping, 0, nil
}

package sql

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// Catalog is what binding needs from the catalog.
type Catalog interface {
	Table(name string) (*catalog.Table, bool)
}

// scopeTable is one table visible to column references.
type scopeTable struct {
	table *catalog.Table
	alias string // name the table is referred to by
	base  int    // slot of its first column in the row
	left  bool   // right side of a LEFT JOIN
	on    []*pg_query.Node
}

// scope is the FROM clause visible to column references.
type scope struct {
	tables []scopeTable
}

func singleScope(t *catalog.Table, alias string) *scope {
	return &scope{tables: []scopeTable{{table: t, alias: alias}}}
}

// aggCtx collects aggregate calls while binding a SELECT's targets.
type aggCtx struct {
	aggs  []*Agg
	inAgg bool
}

type binder struct {
	cat    Catalog
	query  string
	params []types.OID
	// paramSeen: the $n (0-based) the statement uses; a parameter it does
	// not use and the client did not type is 42P18.
	paramSeen map[int]bool
	sc        *scope
	agg       *aggCtx // nil: aggregates not allowed here
	aggErr    string  // clause name for "aggregate functions are not allowed in %s"

	allowVirtual bool // table lookups may return virtual tables (SELECT's FROM)
	// insertSource: the next selectStmt is an INSERT's source and leaves
	// its unknown-typed outputs for the target columns to resolve.
	insertSource bool
}

func (b *binder) errAt(loc int32, code pgerr.Code, format string, args ...any) *pgerr.Error {
	e := pgerr.New(code, format, args...)
	e.Position = charPos(b.query, loc)
	return e
}

// paramType returns the current type of $idx+1.
func (b *binder) noteParam(idx int) types.OID {
	for len(b.params) <= idx {
		b.params = append(b.params, 0)
	}
	return b.params[idx]
}

// baseName is a type's name without its modifier, as PostgreSQL's
// format_type_be names types in operator, function and assignment errors
// (char of any length is "character" there, not "bpchar").
func baseName(t types.T) string {
	if t.OID == types.Bpchar {
		return "character"
	}
	return types.T{OID: t.OID, Typmod: -1}.Name()
}

func isUnknown(e Expr) bool {
	return e.Type().OID == types.Unknown
}

// coerce converts e to t in the given context (types.CastImplicit,
// CastAssignment, CastExplicit). Unknown literals are converted now; unknown
// parameters take type t.
func (b *binder) coerce(e Expr, t types.T, ctx types.CastContext, loc int32) (Expr, error) {
	from := e.Type()
	if from == t {
		return e, nil
	}
	switch x := e.(type) {
	case *Param:
		if from.OID == types.Unknown {
			b.noteParam(x.Idx)
			b.params[x.Idx] = t.OID
			x.T = types.T{OID: t.OID, Typmod: -1}
			if t.Typmod < 0 {
				return x, nil
			}
			return &Cast{X: x, T: t, Explicit: ctx == types.CastExplicit}, nil
		}
	case *Const:
		if from.OID == types.Unknown {
			if x.Val == nil {
				return &Const{T: t}, nil
			}
			base := types.T{OID: t.OID, Typmod: -1}
			v, err := types.ParseText(base, x.Val.(string))
			if err != nil {
				return nil, withPos(err, charPos(b.query, loc))
			}
			if t.Typmod >= 0 {
				// Length and precision are checked after input, without
				// a position, as PostgreSQL's typmod coercion does.
				if v, err = types.Coerce(v, base, t, ctx == types.CastExplicit); err != nil {
					return nil, err
				}
			}
			return &Const{T: t, Val: v}, nil
		}
		if x.Val == nil {
			return &Const{T: t}, nil
		}
	}
	if from.OID == t.OID && t.Typmod < 0 {
		// Same type, dropping the modifier: nothing to do at run time.
		return e, nil
	}
	if from.OID != t.OID {
		cc := types.CastContextOf(from.OID, t.OID)
		if cc == types.CastNone || !castAllowed(cc, ctx) {
			if ctx == types.CastExplicit {
				return nil, b.errAt(loc, pgerr.CannotCoerce, "cannot cast type %s to %s", from.Name(), t.Name())
			}
			return nil, errMismatch
		}
	}
	if c, ok := e.(*Const); ok {
		// Fold a cast of a constant; a failing one is left for run time.
		if v, err := types.Coerce(c.Val, from, t, ctx == types.CastExplicit); err == nil {
			return &Const{T: t, Val: v, loc: c.loc, locSet: c.locSet}, nil
		}
	}
	return &Cast{X: e, T: t, Explicit: ctx == types.CastExplicit}, nil
}

var errMismatch = pgerr.New(pgerr.DatatypeMismatch, "type mismatch")

func castAllowed(have, want types.CastContext) bool {
	rank := func(c types.CastContext) int {
		switch c {
		case types.CastImplicit:
			return 3
		case types.CastAssignment:
			return 2
		case types.CastExplicit:
			return 1
		}
		return 0
	}
	return rank(have) >= rank(want)
}

func withPos(err error, pos int32) error {
	if pe, ok := err.(*pgerr.Error); ok && pe.Position == 0 {
		c := *pe
		c.Position = pos
		return &c
	}
	return err
}

// assign coerces e for storing into a column of type t (INSERT/UPDATE), as
// PostgreSQL's transformAssignedExpr: without an implicit or assignment cast
// it is 42804 naming both types without modifiers, at loc (the leftmost
// location of the expression).
func (b *binder) assign(e Expr, t types.T, colName string, loc int32) (Expr, error) {
	out, err := b.coerce(e, t, types.CastAssignment, loc)
	if err == errMismatch {
		return nil, b.errAt(loc, pgerr.DatatypeMismatch, "column \"%s\" is of type %s but expression is of type %s",
			colName, baseName(t), baseName(e.Type())).WithHint("You will need to rewrite or cast the expression.")
	}
	return out, err
}

func intRank(oid types.OID) int {
	switch oid {
	case types.Int2:
		return 1
	case types.Int4:
		return 2
	case types.Int8:
		return 3
	}
	return 0
}

// numericCommon is the result type of an arithmetic operator on two
// numeric-category types, as PostgreSQL's operator resolution picks it.
func numericCommon(a, b types.OID) types.T {
	switch {
	case a == types.Float4 && b == types.Float4:
		return types.TFloat4
	case a == types.Float8 || b == types.Float8 || a == types.Float4 || b == types.Float4:
		return types.TFloat8
	case a == types.Numeric || b == types.Numeric:
		return types.TNumeric
	}
	if intRank(a) >= intRank(b) {
		return types.T{OID: a, Typmod: -1}
	}
	return types.T{OID: b, Typmod: -1}
}

// commonType picks the type two operands of a comparison are compared in.
// selectCommonType is PostgreSQL's select_common_type over the operands of
// IN, CASE or COALESCE: the common type of those that are not unknown
// literals, text if all are. When two cannot be matched, ok is false and t
// and bad are the types that clash.
func selectCommonType(es []Expr) (t, bad types.T, ok bool) {
	for _, e := range es {
		if isUnknown(e) {
			continue
		}
		if t.OID == 0 {
			t = types.T{OID: e.Type().OID, Typmod: -1}
			continue
		}
		c, ok := commonType(t, e.Type())
		if !ok {
			return t, e.Type(), false
		}
		t = c
	}
	if t.OID == 0 {
		t = types.TText
	}
	return t, types.T{}, true
}

func commonType(l, r types.T) (types.T, bool) {
	lc, rc := l.Category(), r.Category()
	switch {
	case l.OID == r.OID:
		return types.T{OID: l.OID, Typmod: -1}, true
	case lc == 'N' && rc == 'N':
		return numericCommon(l.OID, r.OID), true
	case lc == 'S' && rc == 'S':
		return types.TText, true
	case lc == 'D' && rc == 'D':
		return types.TTimestamp, true
	}
	return types.T{}, false
}

func (b *binder) opError(loc int32, op string, l, r types.T) error {
	return b.errAt(loc, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", baseName(l), op, baseName(r)).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

// unify resolves unknown operands against each other and returns both
// operands coerced to a common type.
func (b *binder) unify(l, r Expr, op string, loc int32) (Expr, Expr, types.T, error) {
	var err error
	switch {
	case isUnknown(l) && isUnknown(r):
		if l, err = b.coerce(l, types.TText, types.CastImplicit, loc); err != nil {
			return nil, nil, types.T{}, err
		}
		if r, err = b.coerce(r, types.TText, types.CastImplicit, loc); err != nil {
			return nil, nil, types.T{}, err
		}
	case isUnknown(l):
		if l, err = b.coerce(l, types.T{OID: r.Type().OID, Typmod: -1}, types.CastImplicit, exprLoc(l, loc)); err != nil {
			return nil, nil, types.T{}, err
		}
	case isUnknown(r):
		if r, err = b.coerce(r, types.T{OID: l.Type().OID, Typmod: -1}, types.CastImplicit, exprLoc(r, loc)); err != nil {
			return nil, nil, types.T{}, err
		}
	}
	ct, ok := commonType(l.Type(), r.Type())
	if !ok {
		return nil, nil, types.T{}, b.opError(loc, op, l.Type(), r.Type())
	}
	return l, r, ct, nil
}

// exprLoc is the location to blame for e (its literal's location if known).
func exprLoc(e Expr, def int32) int32 {
	if c, ok := e.(*Const); ok && c.loc >= 0 && c.locSet {
		return c.loc
	}
	return def
}

// castTo wraps e in an implicit cast to t unless it already has type t (or
// both are integers and the comparison can use int64 directly).
func (b *binder) castTo(e Expr, t types.T, loc int32) (Expr, error) {
	if e.Type().OID == t.OID {
		return e, nil
	}
	if intRank(e.Type().OID) > 0 && intRank(t.OID) > 0 {
		return e, nil
	}
	return b.coerce(e, t, types.CastImplicit, loc)
}

func (b *binder) expr(n *pg_query.Node) (Expr, error) {
	if n == nil {
		return nil, pgerr.New(pgerr.InternalError, "missing expression")
	}
	switch {
	case n.GetAConst() != nil:
		return b.aconst(n.GetAConst())
	case n.GetColumnRef() != nil:
		return b.columnRef(n.GetColumnRef())
	case n.GetParamRef() != nil:
		p := n.GetParamRef()
		if p.Number < 1 || p.Number > 65535 {
			return nil, b.errAt(p.Location, pgerr.UndefinedParameter, "there is no parameter $%d", p.Number)
		}
		idx := int(p.Number - 1)
		oid := b.noteParam(idx)
		if b.paramSeen == nil {
			b.paramSeen = map[int]bool{}
		}
		b.paramSeen[idx] = true
		if oid == 0 {
			oid = types.Unknown
		}
		return &Param{Idx: idx, T: types.T{OID: oid, Typmod: -1}}, nil
	case n.GetAExpr() != nil:
		return b.aexpr(n.GetAExpr())
	case n.GetBoolExpr() != nil:
		be := n.GetBoolExpr()
		op := map[pg_query.BoolExprType]string{pg_query.BoolExprType_AND_EXPR: "AND",
			pg_query.BoolExprType_OR_EXPR: "OR", pg_query.BoolExprType_NOT_EXPR: "NOT"}[be.Boolop]
		out := &BoolOp{Op: op}
		for _, a := range be.Args {
			x, err := b.boolArg(a, op, be.Location)
			if err != nil {
				return nil, err
			}
			out.Args = append(out.Args, x)
		}
		return out, nil
	case n.GetNullTest() != nil:
		nt := n.GetNullTest()
		x, err := b.expr(nt.Arg)
		if err != nil {
			return nil, err
		}
		if isUnknown(x) {
			if x, err = b.coerce(x, types.TText, types.CastImplicit, nt.Location); err != nil {
				return nil, err
			}
		}
		return &IsNull{X: x, Not: nt.Nulltesttype == pg_query.NullTestType_IS_NOT_NULL}, nil
	case n.GetTypeCast() != nil:
		tc := n.GetTypeCast()
		t, err := b.typeName(tc.TypeName)
		if err != nil {
			return nil, err
		}
		x, err := b.expr(tc.Arg)
		if err != nil {
			return nil, err
		}
		loc := tc.Location
		if c := tc.Arg.GetAConst(); c != nil && isUnknown(x) {
			// A bad literal is reported at the literal, as coerce_type does.
			loc = c.Location
		}
		return b.coerce(x, t, types.CastExplicit, loc)
	case n.GetFuncCall() != nil:
		return b.funcCall(n.GetFuncCall())
	case n.GetCoalesceExpr() != nil:
		ce := n.GetCoalesceExpr()
		var args []Expr
		for _, a := range ce.Args {
			x, err := b.expr(a)
			if err != nil {
				return nil, err
			}
			args = append(args, x)
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
	case n.GetSqlvalueFunction() != nil:
		sv := n.GetSqlvalueFunction()
		switch sv.Op {
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP,
			pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:
			return &Func{Name: "now", T: types.TTimestamp}, nil
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
			return &Func{Name: "current_date", T: types.TDate}, nil
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_USER, pg_query.SQLValueFunctionOp_SVFOP_SESSION_USER,
			pg_query.SQLValueFunctionOp_SVFOP_USER, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_ROLE:
			return &Func{Name: "current_user", T: types.TText}, nil
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:
			return &Func{Name: "current_database", T: types.TText}, nil
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:
			return &Const{T: types.TText, Val: "public"}, nil
		}
		return nil, b.errAt(sv.Location, pgerr.FeatureNotSupported, "%s is not supported", strings.ToLower(strings.TrimPrefix(sv.Op.String(), "SVFOP_")))
	case n.GetCaseExpr() != nil:
		return b.caseExpr(n.GetCaseExpr())
	case n.GetSubLink() != nil:
		return b.subLink(n.GetSubLink())
	case n.GetSetToDefault() != nil:
		return nil, b.errAt(n.GetSetToDefault().Location, pgerr.SyntaxError, "DEFAULT is not allowed in this context")
	}
	return nil, unsupportedNode(b, n)
}

func unsupportedNode(b *binder, n *pg_query.Node) error {
	name := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(
		strings.Split(strings.TrimPrefix(n.String(), " "), ":")[0], "node"), "{"), " ")
	switch {
	case n.GetSubLink() != nil:
		return b.errAt(n.GetSubLink().Location, pgerr.FeatureNotSupported, "subqueries are not supported")
	case n.GetCaseExpr() != nil:
		return b.errAt(n.GetCaseExpr().Location, pgerr.FeatureNotSupported, "CASE expressions are not supported")
	case n.GetAArrayExpr() != nil:
		return pgerr.New(pgerr.FeatureNotSupported, "arrays are not supported")
	case n.GetRowExpr() != nil:
		return pgerr.New(pgerr.FeatureNotSupported, "row constructors are not supported")
	}
	if name == "" {
		name = "this expression"
	}
	return pgerr.New(pgerr.FeatureNotSupported, "expression %s is not supported", name)
}

func (b *binder) boolArg(a *pg_query.Node, op string, loc int32) (Expr, error) {
	x, err := b.expr(a)
	if err != nil {
		return nil, err
	}
	return b.requireBool(x, op, loc)
}

func (b *binder) requireBool(x Expr, clause string, loc int32) (Expr, error) {
	if isUnknown(x) {
		return b.coerce(x, types.TBool, types.CastImplicit, loc)
	}
	if x.Type().OID != types.Bool {
		return nil, b.errAt(loc, pgerr.DatatypeMismatch, "argument of %s must be type boolean, not type %s", clause, x.Type().Name())
	}
	return x, nil
}

func (b *binder) aconst(c *pg_query.A_Const) (Expr, error) {
	if c.Isnull {
		return &Const{T: types.TUnknown, loc: c.Location, locSet: true}, nil
	}
	switch v := c.Val.(type) {
	case *pg_query.A_Const_Ival:
		return &Const{T: types.TInt4, Val: int64(v.Ival.Ival), loc: c.Location, locSet: true}, nil
	case *pg_query.A_Const_Fval:
		return b.numberLiteral(v.Fval.Fval, c.Location)
	case *pg_query.A_Const_Sval:
		return &Const{T: types.TUnknown, Val: v.Sval.Sval, loc: c.Location, locSet: true}, nil
	case *pg_query.A_Const_Boolval:
		return &Const{T: types.TBool, Val: v.Boolval.Boolval, loc: c.Location, locSet: true}, nil
	case *pg_query.A_Const_Bsval:
		return nil, b.errAt(c.Location, pgerr.FeatureNotSupported, "bit string literals are not supported")
	}
	return nil, b.errAt(c.Location, pgerr.FeatureNotSupported, "this constant is not supported")
}

// numberLiteral types a numeric literal as PostgreSQL's scanner and
// make_const do: integers that fit int4/int8 take those types, others numeric.
func (b *binder) numberLiteral(s string, loc int32) (Expr, error) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		if i >= math.MinInt32 && i <= math.MaxInt32 {
			return &Const{T: types.TInt4, Val: i, loc: loc, locSet: true}, nil
		}
		return &Const{T: types.TInt8, Val: i, loc: loc, locSet: true}, nil
	}
	d, _, err := apd.NewFromString(s)
	if err != nil {
		return nil, b.errAt(loc, pgerr.InvalidTextRepresentation, "invalid input syntax for type numeric: \"%s\"", s)
	}
	v, err := types.ParseText(types.TNumeric, s)
	if err != nil {
		_ = d
		return nil, withPos(err, charPos(b.query, loc))
	}
	return &Const{T: types.TNumeric, Val: v, loc: loc, locSet: true}, nil
}

func (b *binder) typeName(tn *pg_query.TypeName) (types.T, error) {
	if tn == nil || len(tn.Names) == 0 {
		return types.T{}, pgerr.New(pgerr.SyntaxError, "missing type name")
	}
	if len(tn.ArrayBounds) > 0 {
		return types.T{}, b.errAt(tn.Location, pgerr.FeatureNotSupported, "array types are not supported")
	}
	name := tn.Names[len(tn.Names)-1].GetString_().GetSval()
	var mods []int32
	for _, m := range tn.Typmods {
		c := m.GetAConst()
		if c == nil || c.GetIval() == nil {
			if c != nil && c.GetVal() == nil {
				mods = append(mods, 0)
				continue
			}
			return types.T{}, b.errAt(tn.Location, pgerr.SyntaxError, "type modifiers must be simple constants or identifiers")
		}
		mods = append(mods, c.GetIval().Ival)
	}
	t, err := types.TypeByName(name, mods)
	if err != nil {
		return types.T{}, withPos(err, charPos(b.query, tn.Location))
	}
	return t, nil
}

func (b *binder) columnRef(cr *pg_query.ColumnRef) (Expr, error) {
	var names []string
	for _, f := range cr.Fields {
		if f.GetAStar() != nil {
			return nil, b.errAt(cr.Location, pgerr.FeatureNotSupported, "* is not supported in this context")
		}
		names = append(names, f.GetString_().GetSval())
	}
	var tbl, col string
	switch len(names) {
	case 1:
		col = names[0]
	case 2:
		tbl, col = names[0], names[1]
	default:
		return nil, b.errAt(cr.Location, pgerr.FeatureNotSupported, "qualified names with schema are not supported: %s", strings.Join(names, "."))
	}
	if b.sc == nil || len(b.sc.tables) == 0 {
		if tbl != "" {
			return nil, b.errAt(cr.Location, pgerr.UndefinedTable, "missing FROM-clause entry for table \"%s\"", tbl)
		}
		return nil, b.errAt(cr.Location, pgerr.UndefinedColumn, "column \"%s\" does not exist", col)
	}
	var found *ColRef
	tableSeen := false
	for _, st := range b.sc.tables {
		if tbl != "" && tbl != st.alias {
			continue
		}
		tableSeen = true
		t := st.table
		var ref *ColRef
		for i, c := range t.Columns {
			if c.Name == col {
				ref = &ColRef{Idx: st.base + i, T: types.T{OID: types.OID(c.TypeOID), Typmod: c.Typmod}, Name: col}
				break
			}
		}
		if ref == nil && col == "ctid" {
			ref = &ColRef{Idx: st.base + len(t.Columns), T: types.TTID, Name: "ctid"}
		}
		if ref == nil {
			continue
		}
		if found != nil {
			return nil, b.errAt(cr.Location, pgerr.AmbiguousColumn, "column reference \"%s\" is ambiguous", col)
		}
		found = ref
	}
	if found != nil {
		return found, nil
	}
	if tbl != "" && !tableSeen {
		return nil, b.errAt(cr.Location, pgerr.UndefinedTable, "missing FROM-clause entry for table \"%s\"", tbl)
	}
	if tbl != "" {
		return nil, b.errAt(cr.Location, pgerr.UndefinedColumn, "column %s.%s does not exist", tbl, col)
	}
	return nil, b.errAt(cr.Location, pgerr.UndefinedColumn, "column \"%s\" does not exist", col)
}

func opName(names []*pg_query.Node) string {
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1].GetString_().GetSval()
}

func (b *binder) aexpr(a *pg_query.A_Expr) (Expr, error) {
	op := opName(a.Name)
	switch a.Kind {
	case pg_query.A_Expr_Kind_AEXPR_OP:
		if a.Lexpr == nil {
			x, err := b.expr(a.Rexpr)
			if err != nil {
				return nil, err
			}
			switch op {
			case "-":
				if isUnknown(x) {
					if x, err = b.coerce(x, types.TNumeric, types.CastImplicit, a.Location); err != nil {
						return nil, err
					}
				}
				if x.Type().Category() != 'N' {
					return nil, b.errAt(a.Location, pgerr.UndefinedFunction, "operator does not exist: - %s", baseName(x.Type())).
						WithHint("No operator matches the given name and argument type. You might need to add an explicit type cast.")
				}
				return &Neg{X: x, T: types.T{OID: x.Type().OID, Typmod: -1}}, nil
			case "+":
				return x, nil
			}
			return nil, b.errAt(a.Location, pgerr.FeatureNotSupported, "prefix operator %s is not supported", op)
		}
		l, err := b.expr(a.Lexpr)
		if err != nil {
			return nil, err
		}
		r, err := b.expr(a.Rexpr)
		if err != nil {
			return nil, err
		}
		return b.binary(op, l, r, a.Location)
	case pg_query.A_Expr_Kind_AEXPR_IN:
		x, err := b.expr(a.Lexpr)
		if err != nil {
			return nil, err
		}
		items := a.Rexpr.GetList().GetItems()
		var list []Expr
		for _, it := range items {
			e, err := b.expr(it)
			if err != nil {
				return nil, err
			}
			list = append(list, e)
		}
		// Resolve a common type over all operands.
		all := append([]Expr{x}, list...)
		ct, bad, ok := selectCommonType(all)
		if !ok {
			return nil, b.opError(a.Location, "=", ct, bad)
		}
		for i, e := range all {
			c, err := b.castTo(e, ct, exprLoc(e, a.Location))
			if err != nil {
				return nil, err
			}
			all[i] = c
		}
		return &InList{X: all[0], List: all[1:], Not: op == "<>", CT: ct}, nil
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN:
		items := a.Rexpr.GetList().GetItems()
		if len(items) != 2 {
			return nil, b.errAt(a.Location, pgerr.SyntaxError, "syntax error in BETWEEN")
		}
		and, err := b.between(a.Lexpr, items[0], items[1], a.Location)
		if err != nil {
			return nil, err
		}
		if a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN {
			return &BoolOp{Op: "NOT", Args: []Expr{and}}, nil
		}
		return and, nil
	case pg_query.A_Expr_Kind_AEXPR_DISTINCT, pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		l, err := b.expr(a.Lexpr)
		if err != nil {
			return nil, err
		}
		r, err := b.expr(a.Rexpr)
		if err != nil {
			return nil, err
		}
		c, err := b.binary("=", l, r, a.Location)
		if err != nil {
			return nil, err
		}
		cmp := c.(*Cmp)
		cmp.Op = "IS DISTINCT FROM"
		if a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT {
			cmp.Op = "IS NOT DISTINCT FROM"
		}
		return cmp, nil
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		// x BETWEEN SYMMETRIC a AND b = (x BETWEEN a AND b) OR (x BETWEEN b AND a)
		items := a.Rexpr.GetList().GetItems()
		if len(items) != 2 {
			return nil, b.errAt(a.Location, pgerr.SyntaxError, "syntax error in BETWEEN")
		}
		var ors []Expr
		for _, pair := range [][2]*pg_query.Node{{items[0], items[1]}, {items[1], items[0]}} {
			and, err := b.between(a.Lexpr, pair[0], pair[1], a.Location)
			if err != nil {
				return nil, err
			}
			ors = append(ors, and)
		}
		var out Expr = &BoolOp{Op: "OR", Args: ors}
		if a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM {
			out = &BoolOp{Op: "NOT", Args: []Expr{out}}
		}
		return out, nil
	case pg_query.A_Expr_Kind_AEXPR_LIKE, pg_query.A_Expr_Kind_AEXPR_ILIKE:
		x, err := b.expr(a.Lexpr)
		if err != nil {
			return nil, err
		}
		p, err := b.expr(a.Rexpr)
		if err != nil {
			return nil, err
		}
		for _, e := range []*Expr{&x, &p} {
			if isUnknown(*e) {
				if *e, err = b.coerce(*e, types.TText, types.CastImplicit, a.Location); err != nil {
					return nil, err
				}
			}
			if (*e).Type().Category() != 'S' {
				return nil, b.opError(a.Location, op, x.Type(), p.Type())
			}
		}
		return &Like{X: x, Pattern: p, Not: strings.HasPrefix(op, "!"), Fold: a.Kind == pg_query.A_Expr_Kind_AEXPR_ILIKE}, nil
	}
	return nil, b.errAt(a.Location, pgerr.FeatureNotSupported, "operator kind %s is not supported", a.Kind.String())
}

// between binds x BETWEEN lo AND hi as (x >= lo AND x <= hi). x is bound
// twice, so that each comparison resolves its own operand types.
func (b *binder) between(x, lo, hi *pg_query.Node, loc int32) (*BoolOp, error) {
	x1, err := b.expr(x)
	if err != nil {
		return nil, err
	}
	x2, err := b.expr(x)
	if err != nil {
		return nil, err
	}
	l, err := b.expr(lo)
	if err != nil {
		return nil, err
	}
	h, err := b.expr(hi)
	if err != nil {
		return nil, err
	}
	c1, err := b.binary(">=", x1, l, loc)
	if err != nil {
		return nil, err
	}
	c2, err := b.binary("<=", x2, h, loc)
	if err != nil {
		return nil, err
	}
	return &BoolOp{Op: "AND", Args: []Expr{c1, c2}}, nil
}

func (b *binder) binary(op string, l, r Expr, loc int32) (Expr, error) {
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		if op == "!=" {
			op = "<>"
		}
		l, r, ct, err := b.unify(l, r, op, loc)
		if err != nil {
			return nil, err
		}
		if l, err = b.castTo(l, ct, loc); err != nil {
			return nil, err
		}
		if r, err = b.castTo(r, ct, loc); err != nil {
			return nil, err
		}
		return &Cmp{Op: op, L: l, R: r, CT: ct}, nil
	case "+", "-", "*", "/", "%":
		var err error
		if isUnknown(l) && !isUnknown(r) {
			if l, err = b.coerce(l, types.T{OID: r.Type().OID, Typmod: -1}, types.CastImplicit, exprLoc(l, loc)); err != nil {
				return nil, err
			}
		} else if isUnknown(r) && !isUnknown(l) {
			if r, err = b.coerce(r, types.T{OID: l.Type().OID, Typmod: -1}, types.CastImplicit, exprLoc(r, loc)); err != nil {
				return nil, err
			}
		}
		lt, rt := l.Type(), r.Type()
		if lt.Category() != 'N' || rt.Category() != 'N' || (op == "%" && (lt.OID == types.Float4 || lt.OID == types.Float8 || rt.OID == types.Float4 || rt.OID == types.Float8)) {
			return nil, b.opError(loc, op, lt, rt)
		}
		t := numericCommon(lt.OID, rt.OID)
		if l, err = b.castTo(l, t, loc); err != nil {
			return nil, err
		}
		if r, err = b.castTo(r, t, loc); err != nil {
			return nil, err
		}
		return &Arith{Op: op[0], L: l, R: r, T: t}, nil
	case "||":
		var err error
		if isUnknown(l) {
			if l, err = b.coerce(l, types.TText, types.CastImplicit, loc); err != nil {
				return nil, err
			}
		}
		if isUnknown(r) {
			if r, err = b.coerce(r, types.TText, types.CastImplicit, loc); err != nil {
				return nil, err
			}
		}
		if l.Type().Category() != 'S' && r.Type().Category() != 'S' {
			return nil, b.opError(loc, op, l.Type(), r.Type())
		}
		return &Concat{L: l, R: r, LT: l.Type(), RT: r.Type()}, nil
	}
	return nil, b.errAt(loc, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", baseName(l.Type()), op, baseName(r.Type()))
}

var aggNames = map[string]bool{"count": true, "sum": true, "min": true, "max": true, "avg": true}

func (b *binder) funcCall(fc *pg_query.FuncCall) (Expr, error) {
	name := opName(fc.Funcname)
	if len(fc.Funcname) == 2 && fc.Funcname[0].GetString_().GetSval() != "pg_catalog" {
		return nil, b.errAt(fc.Location, pgerr.UndefinedFunction, "function %s.%s does not exist", fc.Funcname[0].GetString_().GetSval(), name)
	}
	if fc.Over != nil {
		return nil, b.errAt(fc.Location, pgerr.FeatureNotSupported, "window functions are not supported")
	}
	if aggNames[name] {
		return b.aggCall(name, fc)
	}
	if fc.AggStar || fc.AggDistinct || len(fc.AggOrder) > 0 || fc.AggFilter != nil {
		return nil, b.errAt(fc.Location, pgerr.WrongObjectType, "%s is not an aggregate function", name)
	}
	var args []Expr
	for _, a := range fc.Args {
		x, err := b.expr(a)
		if err != nil {
			return nil, err
		}
		args = append(args, x)
	}
	sig := func() string {
		var ts []string
		for _, a := range args {
			ts = append(ts, a.Type().Name())
		}
		return name + "(" + strings.Join(ts, ", ") + ")"
	}
	undefined := func() error {
		return b.errAt(fc.Location, pgerr.UndefinedFunction, "function %s does not exist", sig()).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	textArgs := func(n int) error {
		if len(args) != n {
			return undefined()
		}
		for i, a := range args {
			if isUnknown(a) {
				x, err := b.coerce(a, types.TText, types.CastImplicit, fc.Location)
				if err != nil {
					return err
				}
				args[i] = x
			}
			if args[i].Type().Category() != 'S' {
				return undefined()
			}
		}
		return nil
	}
	switch name {
	case "version", "now", "current_database", "current_user", "session_user", "pg_backend_pid", "current_schema":
		if len(args) != 0 {
			return nil, undefined()
		}
		t := map[string]types.T{"version": types.TText, "now": types.TTimestamp, "current_database": types.TText,
			"current_user": types.TText, "session_user": types.TText, "pg_backend_pid": types.TInt4, "current_schema": types.TText}[name]
		if name == "current_schema" {
			return &Const{T: types.TText, Val: "public"}, nil
		}
		return &Func{Name: name, T: t}, nil
	case "pg_relation_size", "pg_total_relation_size", "pg_table_size":
		if err := textArgs(1); err != nil {
			return nil, err
		}
		return &Func{Name: "pg_relation_size", Args: args, T: types.TInt8}, nil
	case "lower", "upper", "btrim", "ltrim", "rtrim":
		if err := textArgs(1); err != nil {
			return nil, err
		}
		return &Func{Name: name, Args: args, T: types.TText}, nil
	case "length", "char_length", "character_length", "octet_length":
		if err := textArgs(1); err != nil {
			return nil, err
		}
		if name != "octet_length" {
			name = "length"
		}
		return &Func{Name: name, Args: args, T: types.TInt4}, nil
	case "round", "trunc", "floor", "ceil", "ceiling":
		if len(args) < 1 || len(args) > 2 || (len(args) == 2 && (name == "floor" || name == "ceil" || name == "ceiling")) {
			return nil, undefined()
		}
		if name == "ceiling" {
			name = "ceil"
		}
		t := types.TNumeric
		if a := args[0]; !isUnknown(a) && (a.Type().OID == types.Float8 || a.Type().OID == types.Float4) && len(args) == 1 {
			t = types.TFloat8
		} else if !isUnknown(a) && a.Type().Category() != 'N' {
			return nil, undefined()
		}
		x, err := b.coerce(args[0], t, types.CastImplicit, fc.Location)
		if err != nil {
			return nil, err
		}
		args[0] = x
		if len(args) == 2 {
			if args[1], err = b.coerce(args[1], types.TInt4, types.CastImplicit, fc.Location); err != nil {
				return nil, err
			}
			if intRank(args[1].Type().OID) == 0 {
				return nil, undefined()
			}
		}
		return &Func{Name: name, Args: args, T: t}, nil
	case "mod":
		if len(args) != 2 {
			return nil, undefined()
		}
		return b.binary("%", args[0], args[1], fc.Location)
	case "substr", "substring":
		if len(args) < 2 || len(args) > 3 {
			return nil, undefined()
		}
		var err error
		if isUnknown(args[0]) {
			if args[0], err = b.coerce(args[0], types.TText, types.CastImplicit, fc.Location); err != nil {
				return nil, err
			}
		}
		if args[0].Type().Category() != 'S' {
			return nil, undefined()
		}
		for i := 1; i < len(args); i++ {
			if args[i], err = b.coerce(args[i], types.TInt4, types.CastImplicit, fc.Location); err != nil {
				return nil, err
			}
			if intRank(args[i].Type().OID) == 0 {
				return nil, undefined()
			}
		}
		return &Func{Name: "substr", Args: args, T: types.TText}, nil
	case "abs":
		if len(args) != 1 {
			return nil, undefined()
		}
		if isUnknown(args[0]) {
			x, err := b.coerce(args[0], types.TFloat8, types.CastImplicit, fc.Location)
			if err != nil {
				return nil, err
			}
			args[0] = x
		}
		if args[0].Type().Category() != 'N' {
			return nil, undefined()
		}
		return &Func{Name: name, Args: args, T: types.T{OID: args[0].Type().OID, Typmod: -1}}, nil
	}
	if f := LookupFunction(name); f != nil && len(f.Args) == len(args) {
		for i, a := range args {
			x, err := b.coerce(a, types.T{OID: f.Args[i], Typmod: -1}, types.CastImplicit, fc.Location)
			if err != nil {
				if err == errMismatch {
					return nil, undefined()
				}
				return nil, err
			}
			args[i] = x
		}
		return &Func{Name: name, Args: args, T: f.Result}, nil
	}
	return nil, undefined()
}

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
	at := x.Type()
	a.Arg = x
	bad := func() error {
		return b.errAt(fc.Location, pgerr.UndefinedFunction, "function %s(%s) does not exist", name, baseName(at)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	switch name {
	case "count":
		a.T = types.TInt8
	case "sum":
		switch at.OID {
		case types.Int2, types.Int4:
			a.T = types.TInt8
		case types.Int8, types.Numeric:
			a.T = types.TNumeric
		case types.Float4, types.Float8:
			a.T = types.T{OID: at.OID, Typmod: -1}
		default:
			return nil, bad()
		}
	case "avg":
		switch at.OID {
		case types.Int2, types.Int4, types.Int8, types.Numeric:
			a.T = types.TNumeric
		case types.Float4, types.Float8:
			a.T = types.TFloat8
		default:
			return nil, bad()
		}
	case "min", "max":
		if at.OID == types.Bool {
			return nil, bad()
		}
		a.T = types.T{OID: at.OID, Typmod: -1}
		if at.OID == types.Varchar {
			a.T = types.TText
		}
	}
	b.agg.aggs = append(b.agg.aggs, a)
	return a, nil
}

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
	// Result type: the common type of the non-unknown results, else text.
	all := append([]Expr(nil), out.Results...)
	if out.Else != nil {
		all = append(all, out.Else)
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

// subLink binds an uncorrelated subquery: the inner SELECT sees only its
// own FROM clause.
func (b *binder) subLink(sl *pg_query.SubLink) (Expr, error) {
	sel := sl.Subselect.GetSelectStmt()
	if sel == nil {
		return nil, b.errAt(sl.Location, pgerr.FeatureNotSupported, "this subquery is not supported")
	}
	savedSc, savedAgg, savedErr, savedVirt := b.sc, b.agg, b.aggErr, b.allowVirtual
	inner, err := b.selectStmt(sel)
	b.sc, b.agg, b.aggErr, b.allowVirtual = savedSc, savedAgg, savedErr, savedVirt
	if err != nil {
		if pgerr.CodeOf(err) == pgerr.UndefinedColumn || pgerr.CodeOf(err) == pgerr.UndefinedTable {
			if pe, ok := err.(*pgerr.Error); ok && pe.Hint == "" {
				pe.Hint = "Correlated subqueries (referring to the outer query) are not supported."
			}
		}
		return nil, err
	}
	switch sl.SubLinkType {
	case pg_query.SubLinkType_EXISTS_SUBLINK:
		return &SubPlan{Kind: "exists", Select: inner, T: types.TBool}, nil
	case pg_query.SubLinkType_EXPR_SUBLINK:
		if inner.NVisible != 1 {
			return nil, b.errAt(sl.Location, pgerr.SyntaxError, "subquery must return only one column")
		}
		t := inner.Targets[0].Type()
		if t.OID == types.Unknown {
			t = types.TText
		}
		return &SubPlan{Kind: "scalar", Select: inner, T: t}, nil
	case pg_query.SubLinkType_ANY_SUBLINK:
		if op := opName(sl.OperName); op != "" && op != "=" {
			return nil, b.errAt(sl.Location, pgerr.FeatureNotSupported, "%s ANY (subquery) is not supported", op)
		}
		if inner.NVisible != 1 {
			return nil, b.errAt(sl.Location, pgerr.SyntaxError, "subquery has too many columns")
		}
		x, err := b.expr(sl.Testexpr)
		if err != nil {
			return nil, err
		}
		it := inner.Targets[0].Type()
		if isUnknown(x) {
			if x, err = b.coerce(x, types.T{OID: it.OID, Typmod: -1}, types.CastImplicit, sl.Location); err != nil {
				return nil, err
			}
		}
		ct, ok := commonType(x.Type(), it)
		if !ok {
			return nil, b.opError(sl.Location, "=", x.Type(), it)
		}
		if x, err = b.castTo(x, ct, sl.Location); err != nil {
			return nil, err
		}
		return &SubPlan{Kind: "in", Select: inner, X: x, CT: ct, T: types.TBool}, nil
	}
	return nil, b.errAt(sl.Location, pgerr.FeatureNotSupported, "this kind of subquery is not supported")
}

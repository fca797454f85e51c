package sql

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// expr binds one expression of the parse tree; each kind of node is bound
// by the file of its concept (operators, functions, CASE, subqueries, ...).
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
		return b.paramRef(n.GetParamRef())
	case n.GetAExpr() != nil:
		return b.aexpr(n.GetAExpr())
	case n.GetBoolExpr() != nil:
		return b.boolExpr(n.GetBoolExpr())
	case n.GetNullTest() != nil:
		return b.nullTest(n.GetNullTest())
	case n.GetTypeCast() != nil:
		return b.typeCast(n.GetTypeCast())
	case n.GetFuncCall() != nil:
		return b.funcCall(n.GetFuncCall())
	case n.GetCoalesceExpr() != nil:
		return b.coalesceExpr(n.GetCoalesceExpr())
	case n.GetMinMaxExpr() != nil:
		return b.minMaxExpr(n.GetMinMaxExpr())
	case n.GetBooleanTest() != nil:
		return b.booleanTest(n.GetBooleanTest())
	case n.GetSqlvalueFunction() != nil:
		return b.sqlValueFunction(n.GetSqlvalueFunction())
	case n.GetCaseExpr() != nil:
		return b.caseExpr(n.GetCaseExpr())
	case n.GetGroupingFunc() != nil:
		return b.groupingFunc(n.GetGroupingFunc())
	case n.GetSubLink() != nil:
		return b.subLink(n.GetSubLink())
	case n.GetAArrayExpr() != nil:
		return b.arrayExpr(n.GetAArrayExpr(), nil)
	case n.GetAIndirection() != nil:
		return b.indirection(n.GetAIndirection())
	case n.GetSetToDefault() != nil:
		return nil, b.errAt(n.GetSetToDefault().Location, pgerr.SyntaxError, "DEFAULT is not allowed in this context")
	case n.GetCollateClause() != nil:
		return b.collateClause(n.GetCollateClause())
	}
	return nil, unsupportedNode(b, n)
}

// collateClause binds x COLLATE name. Text compares bytes here (the C
// collation), which is what the collations minipg knows (default, C and
// POSIX) all mean for it; any other is 42704.
func (b *binder) collateClause(cc *pg_query.CollateClause) (Expr, error) {
	x, err := b.expr(cc.Arg)
	if err != nil {
		return nil, err
	}
	if isUnknown(x) {
		if err := b.checkCollation(cc.Collname, types.TText, cc.Location); err != nil {
			return nil, err
		}
		return b.coerce(x, types.TText, types.CastImplicit, cc.Location)
	}
	if err := b.checkCollation(cc.Collname, x.Type(), cc.Location); err != nil {
		return nil, err
	}
	return x, nil
}

// checkCollation accepts a collation name given to a value, column or
// index column of type t: one of those minipg knows (default, C and
// POSIX, which all compare bytes here) on a type that has collations.
func (b *binder) checkCollation(collname []*pg_query.Node, t types.T, loc int32) error {
	var parts []string
	for _, n := range collname {
		parts = append(parts, n.GetString_().GetSval())
	}
	name := parts[len(parts)-1]
	if len(parts) > 2 || (len(parts) == 2 && parts[0] != "pg_catalog") ||
		(name != "default" && name != "C" && name != "POSIX") {
		return b.errAt(loc, pgerr.UndefinedObject, "collation \"%s\" for encoding \"UTF8\" does not exist",
			strings.Join(parts, "."))
	}
	if t.Category() != 'S' {
		return b.errAt(loc, pgerr.DatatypeMismatch, "collations are not supported by type %s", t.Name())
	}
	return nil
}

// paramRef binds $n: its type is the one the client sent, or unknown until
// the context decides it.
func (b *binder) paramRef(p *pg_query.ParamRef) (Expr, error) {
	if p.Number < 1 || p.Number > 65535 {
		return nil, b.errAt(p.Location, pgerr.UndefinedParameter, "there is no parameter $%d", p.Number)
	}
	idx := int(p.Number - 1)
	if b.fnBody && idx >= len(b.params) {
		// A SQL function's body reads its parameters only.
		return nil, b.errAt(p.Location, pgerr.UndefinedParameter, "there is no parameter $%d", p.Number)
	}
	oid := b.noteParam(idx)
	if b.paramSeen == nil {
		b.paramSeen = map[int]bool{}
	}
	b.paramSeen[idx] = true
	if oid == 0 {
		oid = types.Unknown
	}
	return &Param{Idx: idx, T: types.T{OID: oid, Typmod: -1}}, nil
}

// unsupportedNode is 0A000 naming an expression minipg does not bind.
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

// aconst binds a literal: integers and numbers take their type now, quoted
// strings and NULL stay unknown until context decides.
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

// exprLocation is PostgreSQL's exprLocation over a raw expression: the
// leftmost byte offset the expression covers (an operator's left operand, a
// cast's argument, a function's name), or -1 when it has none. Errors about
// a whole expression (assignment coercion, surplus VALUES items) point there.
func exprLocation(n *pg_query.Node) int32 {
	switch {
	case n == nil:
		return -1
	case n.GetAConst() != nil:
		return n.GetAConst().Location
	case n.GetColumnRef() != nil:
		return n.GetColumnRef().Location
	case n.GetParamRef() != nil:
		return n.GetParamRef().Location
	case n.GetResTarget() != nil:
		return n.GetResTarget().Location
	case n.GetAExpr() != nil:
		a := n.GetAExpr()
		return leftmostLoc(a.Location, exprLocation(a.Lexpr))
	case n.GetTypeCast() != nil:
		tc := n.GetTypeCast()
		return leftmostLoc(exprLocation(tc.Arg), tc.Location)
	case n.GetFuncCall() != nil:
		fc := n.GetFuncCall()
		return leftmostLoc(fc.Location, listLocation(fc.Args))
	case n.GetBoolExpr() != nil:
		be := n.GetBoolExpr()
		return leftmostLoc(be.Location, listLocation(be.Args))
	case n.GetNullTest() != nil:
		nt := n.GetNullTest()
		return leftmostLoc(nt.Location, exprLocation(nt.Arg))
	case n.GetBooleanTest() != nil:
		bt := n.GetBooleanTest()
		return leftmostLoc(bt.Location, exprLocation(bt.Arg))
	case n.GetSubLink() != nil:
		sl := n.GetSubLink()
		return leftmostLoc(exprLocation(sl.Testexpr), sl.Location)
	case n.GetCaseExpr() != nil:
		return n.GetCaseExpr().Location
	case n.GetAArrayExpr() != nil:
		return n.GetAArrayExpr().Location
	case n.GetAIndirection() != nil:
		return exprLocation(n.GetAIndirection().Arg)
	case n.GetCoalesceExpr() != nil:
		return n.GetCoalesceExpr().Location
	case n.GetMinMaxExpr() != nil:
		return n.GetMinMaxExpr().Location
	case n.GetSqlvalueFunction() != nil:
		return n.GetSqlvalueFunction().Location
	case n.GetSetToDefault() != nil:
		return n.GetSetToDefault().Location
	}
	return -1
}

// listLocation is the location of the first of ns that has one.
func listLocation(ns []*pg_query.Node) int32 {
	for _, n := range ns {
		if loc := exprLocation(n); loc >= 0 {
			return loc
		}
	}
	return -1
}

// leftmostLoc is the smaller of two locations, ignoring unknown (-1) ones.
func leftmostLoc(a, b int32) int32 {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}

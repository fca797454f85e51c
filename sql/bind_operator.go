package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// opError is 42883 operator does not exist, for a binary operator.
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

// boolArg binds an argument of AND, OR or NOT.
func (b *binder) boolArg(a *pg_query.Node, op string, loc int32) (Expr, error) {
	x, err := b.expr(a)
	if err != nil {
		return nil, err
	}
	return b.requireBool(x, op, loc)
}

// opName is the last component of an operator or function name.
func opName(names []*pg_query.Node) string {
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1].GetString_().GetSval()
}

// aexpr binds an operator expression: an operator, IN, BETWEEN [SYMMETRIC],
// IS [NOT] DISTINCT FROM or [I]LIKE.
func (b *binder) aexpr(a *pg_query.A_Expr) (Expr, error) {
	op := opName(a.Name)
	switch a.Kind {
	case pg_query.A_Expr_Kind_AEXPR_OP:
		if isRow(a.Lexpr) && isRow(a.Rexpr) {
			return b.rowCompare(op, a.Lexpr, a.Rexpr, a.Location)
		}
		return b.opExpr(a, op)
	case pg_query.A_Expr_Kind_AEXPR_IN:
		if isRow(a.Lexpr) {
			return b.rowInList(a, op)
		}
		return b.inList(a, op)
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN:
		return b.betweenExpr(a)
	case pg_query.A_Expr_Kind_AEXPR_DISTINCT, pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		if isRow(a.Lexpr) && isRow(a.Rexpr) {
			op := "IS DISTINCT FROM"
			if a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT {
				op = "IS NOT DISTINCT FROM"
			}
			return b.rowCompare(op, a.Lexpr, a.Rexpr, a.Location)
		}
		return b.distinctExpr(a)
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		return b.betweenSymmetric(a)
	case pg_query.A_Expr_Kind_AEXPR_LIKE, pg_query.A_Expr_Kind_AEXPR_ILIKE:
		return b.likeExpr(a, op)
	case pg_query.A_Expr_Kind_AEXPR_NULLIF:
		return b.nullIf(a)
	case pg_query.A_Expr_Kind_AEXPR_SIMILAR:
		// The parser made the pattern similar_to_escape(pattern[, escape]).
		return b.opExpr(a, op)
	case pg_query.A_Expr_Kind_AEXPR_OP_ANY, pg_query.A_Expr_Kind_AEXPR_OP_ALL:
		return b.scalarArrayOp(a, op, a.Kind == pg_query.A_Expr_Kind_AEXPR_OP_ALL)
	}
	return nil, b.errAt(a.Location, pgerr.FeatureNotSupported, "operator kind %s is not supported", a.Kind.String())
}

// nullIf binds NULLIF(a, b): NULL when a = b, else a, of the type the
// comparison converts a to.
func (b *binder) nullIf(a *pg_query.A_Expr) (Expr, error) {
	l, err := b.expr(a.Lexpr)
	if err != nil {
		return nil, err
	}
	r, err := b.expr(a.Rexpr)
	if err != nil {
		return nil, err
	}
	cond, err := b.binary("=", l, r, a.Location)
	if err != nil {
		return nil, err
	}
	c, ok := cond.(*Cmp)
	if !ok {
		return nil, b.errAt(a.Location, pgerr.FeatureNotSupported, "NULLIF of these types is not supported")
	}
	x := c.L
	if isUnknown(x) {
		if x, err = b.coerce(x, types.TText, types.CastImplicit, a.Location); err != nil {
			return nil, err
		}
	}
	t := x.Type()
	return &Case{Whens: []Expr{cond}, Results: []Expr{&Const{T: t}}, Else: x, T: t}, nil
}

// opExpr binds a prefix (- and +) or binary operator.
func (b *binder) opExpr(a *pg_query.A_Expr, op string) (Expr, error) {
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
			if x.Type().OID == types.Interval {
				e, _, err := b.builtinOperator(op, []Expr{x}, a.Location)
				return e, err
			}
			if x.Type().Category() != 'N' {
				return nil, b.errAt(a.Location, pgerr.UndefinedFunction, "operator does not exist: - %s", baseName(x.Type())).
					WithHint("No operator matches the given name and argument type. You might need to add an explicit type cast.")
			}
			return &Neg{X: x, T: types.T{OID: x.Type().OID, Typmod: -1}}, nil
		case "+":
			return x, nil
		}
		if e, ok, err := b.builtinOperator(op, []Expr{x}, a.Location); ok {
			return e, err
		}
		return nil, b.errAt(a.Location, pgerr.FeatureNotSupported, "prefix operator %s is not supported", op)
	}
	l, r, err := b.operands(a)
	if err != nil {
		return nil, err
	}
	return b.binary(op, l, r, a.Location)
}

// operands binds the two sides of a binary A_Expr.
func (b *binder) operands(a *pg_query.A_Expr) (l, r Expr, err error) {
	if l, err = b.expr(a.Lexpr); err != nil {
		return nil, nil, err
	}
	if r, err = b.expr(a.Rexpr); err != nil {
		return nil, nil, err
	}
	return l, r, nil
}

// inList binds x [NOT] IN (list): all operands are resolved to one common
// type.
func (b *binder) inList(a *pg_query.A_Expr, op string) (Expr, error) {
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
}

// betweenExpr binds x [NOT] BETWEEN lo AND hi.
func (b *binder) betweenExpr(a *pg_query.A_Expr) (Expr, error) {
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
}

// distinctExpr binds IS [NOT] DISTINCT FROM, a comparison that treats NULLs
// as values.
func (b *binder) distinctExpr(a *pg_query.A_Expr) (Expr, error) {
	l, r, err := b.operands(a)
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
}

// betweenSymmetric binds x [NOT] BETWEEN SYMMETRIC a AND b.
func (b *binder) betweenSymmetric(a *pg_query.A_Expr) (Expr, error) {
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
}

// likeExpr binds [NOT] LIKE and [NOT] ILIKE over string operands.
func (b *binder) likeExpr(a *pg_query.A_Expr, op string) (Expr, error) {
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

// binary binds a comparison, an arithmetic operator or ||: unknown
// operands take the other's type, then both convert to the common type.
func (b *binder) binary(op string, l, r Expr, loc int32) (Expr, error) {
	if e, ok, err := b.builtinOperator(op, []Expr{l, r}, loc); ok {
		return e, err
	}
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		if op == "!=" {
			op = "<>"
		}
		lt, rt := l.Type(), r.Type()
		if (op == "=" || op == "<>") && lt.OID == types.Xid && rt.OID == types.Int4 {
			// xideqint4 and xidneqint4 (WHERE xmax = 0): both are
			// int64 datums, compared as such.
			return &Cmp{Op: op, L: l, R: r, CT: types.TInt8}, nil
		}
		l, r, ct, err := b.unify(l, r, op, loc)
		if err != nil {
			return nil, err
		}
		if ct.OID == types.JSON {
			// json has no comparison operators.
			return nil, b.opError(loc, op, lt, rt)
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
		if at := l.Type(); types.IsArray(at.OID) && (r.Type().OID == at.OID || isUnknown(r)) ||
			types.IsArray(r.Type().OID) && isUnknown(l) {
			return b.arrayCat(l, r, loc)
		}
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

// boolExpr binds AND, OR and NOT: every argument must be boolean.
func (b *binder) boolExpr(be *pg_query.BoolExpr) (Expr, error) {
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
}

// nullTest binds IS [NOT] NULL; an unknown literal operand is text.
func (b *binder) nullTest(nt *pg_query.NullTest) (Expr, error) {
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
}

// arrayCat binds array || array (array_cat over one-dimensional arrays):
// a NULL operand gives the other one.
func (b *binder) arrayCat(l, r Expr, loc int32) (Expr, error) {
	t := l.Type()
	if isUnknown(l) {
		t = r.Type()
	}
	var err error
	if l, err = b.coerce(l, t, types.CastImplicit, loc); err != nil {
		return nil, err
	}
	if r, err = b.coerce(r, t, types.CastImplicit, loc); err != nil {
		return nil, err
	}
	cat := &Func{Name: "pg_catalog.array_cat", Args: []Expr{l, r}, T: t}
	return &Case{Whens: []Expr{&IsNull{X: l}, &IsNull{X: r}}, Results: []Expr{r, l}, Else: cat, T: t}, nil
}

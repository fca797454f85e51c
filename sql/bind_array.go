package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// Arrays and point in expressions: ARRAY[...] constructors, subscripts
// (a[i], a[i:j], p[0]) and x op ANY/ALL (array).

// ArrayExpr is ARRAY[e1, e2, ...]: a one-dimensional array of type T whose
// elements have been converted to T's element type; with Multi, the
// elements are sub-arrays of type T stacked along a new first dimension
// (ARRAY[[1,2],[3,4]], ARRAY[ARRAY[1,2], a]).
type ArrayExpr struct {
	Elems []Expr
	T     types.T
	Multi bool
}

// Subscript is X[Idx...] (or X[Lower[0]:Upper[0]]... when Slice) over an
// array or a point. Index expressions are integers; a nil bound of a slice
// is open (a subscript without a colon in a slice is 1:n). T is the element
// type (float8 for a point), or the array type for a slice.
type Subscript struct {
	X            Expr
	Idx          []Expr
	Slice        bool
	Lower, Upper []Expr
	T            types.T
}

// ScalarArrayOp is L op ANY (R) or L op ALL (R): the comparison Op of L
// with each element of the array R, in type CT (R has type CT[]).
type ScalarArrayOp struct {
	Op   string // = <> < <= > >=
	All  bool
	L, R Expr
	CT   types.T
}

func (e *ArrayExpr) Type() types.T     { return e.T }
func (e *Subscript) Type() types.T     { return e.T }
func (e *ScalarArrayOp) Type() types.T { return types.TBool }

// arrayExpr binds ARRAY[...]; with elem (from a cast to an array type)
// the elements convert to it explicitly, as transformArrayExpr does.
func (b *binder) arrayExpr(ae *pg_query.A_ArrayExpr, elem *types.T) (Expr, error) {
	var xs []Expr
	multi := false
	for _, n := range ae.Elements {
		if sub := n.GetAArrayExpr(); sub != nil {
			x, err := b.arrayExpr(sub, elem)
			if err != nil {
				return nil, err
			}
			xs = append(xs, x)
			multi = true
			continue
		}
		x, err := b.expr(n)
		if err != nil {
			return nil, err
		}
		multi = multi || types.IsArray(x.Type().OID)
		xs = append(xs, x)
	}
	if multi {
		return b.multiArrayExpr(ae, xs, elem)
	}
	var et types.T
	ctx := types.CastImplicit
	switch {
	case elem != nil:
		et, ctx = *elem, types.CastExplicit
	case len(xs) == 0:
		return nil, b.errAt(ae.Location, pgerr.IndeterminateDatatype, "cannot determine type of empty array").
			WithHint("Explicitly cast to the desired type, for example ARRAY[]::integer[].")
	default:
		t, bad, ok := selectCommonType(xs)
		if !ok {
			return nil, b.errAt(exprLocation(ae.Elements[0]), pgerr.DatatypeMismatch, "ARRAY types %s and %s cannot be matched", baseName(t), baseName(bad))
		}
		if t.Category() != 'N' && t.Category() != 'S' {
			// Keep a modifier all the elements share (varchar(3)).
			if ct, ok := types.CommonType(typesOf(xs)); ok && ct.OID == t.OID {
				t = ct
			}
		}
		et = t
	}
	at := types.ArrayOf(types.T{OID: et.OID, Typmod: -1})
	if at.OID == 0 {
		return nil, b.errAt(ae.Location, pgerr.UndefinedObject, "could not find array type for data type %s", baseName(et))
	}
	at.Typmod = et.Typmod
	if err := b.coerceElems(ae, xs, et, ctx); err != nil {
		return nil, err
	}
	// An array of constants is a constant.
	vals, ok := constVals(xs)
	if !ok {
		return &ArrayExpr{Elems: xs, T: at}, nil
	}
	return &Const{T: at, Val: types.NewArray(vals)}, nil
}

// coerceElems converts each element of an ARRAY[...] to t in place.
func (b *binder) coerceElems(ae *pg_query.A_ArrayExpr, xs []Expr, t types.T, ctx types.CastContext) error {
	for i, x := range xs {
		y, err := b.coerce(x, t, ctx, exprLocation(ae.Elements[i]))
		if err == errMismatch {
			return b.errAt(exprLocation(ae.Elements[i]), pgerr.CannotCoerce, "cannot cast type %s to %s", baseName(x.Type()), baseName(t))
		}
		if err != nil {
			return err
		}
		xs[i] = y
	}
	return nil
}

// constVals returns the values of xs when every one is a constant.
func constVals(xs []Expr) ([]types.Datum, bool) {
	vals := make([]types.Datum, len(xs))
	for i, x := range xs {
		c, ok := x.(*Const)
		if !ok {
			return nil, false
		}
		vals[i] = c.Val
	}
	return vals, true
}

// multiArrayExpr binds an ARRAY[...] whose elements are arrays: they are
// converted to one array type (the cast's, or their common type) and
// stacked at run time, or here when all are constants.
func (b *binder) multiArrayExpr(ae *pg_query.A_ArrayExpr, xs []Expr, elem *types.T) (Expr, error) {
	var at types.T
	ctx := types.CastImplicit
	if elem != nil {
		at, ctx = types.ArrayOf(types.T{OID: elem.OID, Typmod: -1}), types.CastExplicit
		if at.OID == 0 {
			return nil, b.errAt(ae.Location, pgerr.UndefinedObject, "could not find array type for data type %s", baseName(*elem))
		}
		at.Typmod = elem.Typmod
	} else {
		t, bad, ok := selectCommonType(xs)
		if !ok {
			return nil, b.errAt(exprLocation(ae.Elements[0]), pgerr.DatatypeMismatch, "ARRAY types %s and %s cannot be matched", baseName(t), baseName(bad))
		}
		if !types.IsArray(t.OID) {
			return nil, b.errAt(ae.Location, pgerr.UndefinedObject, "could not find element type for data type %s", baseName(t))
		}
		at = t
	}
	if err := b.coerceElems(ae, xs, at, ctx); err != nil {
		return nil, err
	}
	vals, ok := constVals(xs)
	if !ok {
		return &ArrayExpr{Elems: xs, T: at, Multi: true}, nil
	}
	a, err := types.StackArrays(vals)
	if err != nil {
		return nil, err
	}
	return &Const{T: at, Val: a}, nil
}

func typesOf(xs []Expr) []types.T {
	out := make([]types.T, len(xs))
	for i, x := range xs {
		out[i] = x.Type()
	}
	return out
}

// indirection binds X[...] subscripts; field selection applies to no
// type an expression has here.
func (b *binder) indirection(ind *pg_query.A_Indirection) (Expr, error) {
	x, err := b.expr(ind.Arg)
	if err != nil {
		return nil, err
	}
	var subs []*pg_query.A_Indices
	for i, n := range ind.Indirection {
		if n.GetAIndices() == nil {
			// Every value an expression has here is of a scalar type (a
			// table function's record is read in FROM: liftRecordFields).
			switch {
			case i > 0:
			case n.GetString_() != nil:
				return nil, b.errAt(exprLocation(ind.Arg), pgerr.WrongObjectType,
					"column notation .%s applied to type %s, which is not a composite type", n.GetString_().Sval, baseName(x.Type()))
			case n.GetAStar() != nil:
				return nil, pgerr.New(pgerr.WrongObjectType, "type %s is not composite", baseName(x.Type()))
			}
			return nil, pgerr.New(pgerr.FeatureNotSupported, "field selection is not supported")
		}
		subs = append(subs, n.GetAIndices())
	}
	t := x.Type()
	loc := exprLocation(ind.Arg)
	if t.OID == types.JSONB {
		return b.jsonbSubscript(x, subs)
	}
	if t.OID != types.Point && !types.IsArray(t.OID) {
		return nil, b.errAt(loc, pgerr.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", baseName(t))
	}
	slice := false
	for _, s := range subs {
		slice = slice || s.IsSlice
	}
	if types.IsArray(t.OID) && len(subs) > types.MaxDim {
		return nil, pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", len(subs), types.MaxDim)
	}
	idx := func(n *pg_query.Node) (Expr, error) {
		if n == nil {
			return nil, nil
		}
		e, err := b.expr(n)
		if err != nil {
			return nil, err
		}
		y, err := b.coerce(e, types.TInt4, types.CastImplicit, exprLocation(n))
		if err == errMismatch {
			return nil, b.errAt(exprLocation(n), pgerr.DatatypeMismatch, "array subscript must have type integer")
		}
		return y, err
	}
	out := &Subscript{X: x, Slice: slice}
	if t.OID == types.Point {
		if slice {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "slices of fixed-length arrays not implemented")
		}
		out.T = types.TFloat8
	} else if slice {
		out.T = t
		for _, s := range subs {
			var lo, hi Expr
			if !s.IsSlice {
				lo = &Const{T: types.TInt4, Val: int64(1)}
			} else if lo, err = idx(s.Lidx); err != nil {
				return nil, err
			}
			if hi, err = idx(s.Uidx); err != nil {
				return nil, err
			}
			out.Lower, out.Upper = append(out.Lower, lo), append(out.Upper, hi)
		}
		return out, nil
	} else {
		out.T = types.ElemType(t)
	}
	for _, s := range subs {
		e, err := idx(s.Uidx)
		if err != nil {
			return nil, err
		}
		out.Idx = append(out.Idx, e)
	}
	return out, nil
}

// scalarArrayOp binds x op ANY (array) and x op ALL (array).
func (b *binder) scalarArrayOp(a *pg_query.A_Expr, op string, all bool) (Expr, error) {
	l, r, err := b.operands(a)
	if err != nil {
		return nil, err
	}
	if op == "!=" {
		op = "<>"
	}
	switch op {
	case "=", "<>", "<", "<=", ">", ">=":
	default:
		return nil, b.errAt(a.Location, pgerr.FeatureNotSupported, "operator %s with ANY/ALL is not supported", op)
	}
	if isUnknown(r) {
		lt := types.TText
		if !isUnknown(l) {
			lt = types.T{OID: l.Type().OID, Typmod: -1}
		}
		at := types.ArrayOf(lt)
		if at.OID == 0 {
			return nil, b.opError(a.Location, op, l.Type(), r.Type())
		}
		if r, err = b.coerce(r, at, types.CastImplicit, exprLoc(r, a.Location)); err != nil {
			return nil, err
		}
	}
	if !types.IsArray(r.Type().OID) {
		return nil, b.errAt(a.Location, pgerr.WrongObjectType, "op ANY/ALL (array) requires array on right side")
	}
	elem := types.T{OID: types.ElemOID(r.Type().OID), Typmod: -1}
	if isUnknown(l) {
		if l, err = b.coerce(l, elem, types.CastImplicit, exprLoc(l, a.Location)); err != nil {
			return nil, err
		}
	}
	ct, ok := commonType(l.Type(), elem)
	if !ok {
		return nil, b.opError(a.Location, op, l.Type(), elem)
	}
	if l, err = b.castTo(l, ct, a.Location); err != nil {
		return nil, err
	}
	if elem.OID != ct.OID && !(intRank(elem.OID) > 0 && intRank(ct.OID) > 0) {
		if r, err = b.coerce(r, types.ArrayOf(ct), types.CastImplicit, a.Location); err != nil {
			if err == errMismatch {
				return nil, b.opError(a.Location, op, l.Type(), elem)
			}
			return nil, err
		}
	}
	return &ScalarArrayOp{Op: op, All: all, L: l, R: r, CT: ct}, nil
}

// arrayTypeName is T[] for a type name with array bounds.
func (b *binder) arrayTypeName(tn *pg_query.TypeName, elem types.T) (types.T, error) {
	at := types.ArrayOf(types.T{OID: elem.OID, Typmod: -1})
	if at.OID == 0 {
		return types.T{}, b.errAt(tn.Location, pgerr.UndefinedObject, "type %s[] does not exist", baseName(elem))
	}
	at.Typmod = elem.Typmod
	return at, nil
}

// The polymorphic pseudo-types of built-in functions' parameters and
// results: anyarray takes any array type, anyelement its element type.
const (
	AnyArrayOID   types.OID = 2277
	AnyElementOID types.OID = 2283
)

// resolvePolymorphic checks that the anyelement arguments of a call of f
// (parameters ps) have the element type of its anyarray argument (an
// unknown literal is converted to it) and returns f's result type.
func (c *call) resolvePolymorphic(f *Builtin, ps []types.OID) (types.T, error) {
	var arr types.T
	for i, p := range ps {
		if p == AnyArrayOID {
			arr = types.T{OID: c.args[i].Type().OID, Typmod: -1}
		}
	}
	if arr.OID == 0 {
		if f.Result == AnyArrayOID || f.Result == AnyElementOID {
			return types.T{}, c.undefined()
		}
		return types.T{OID: f.Result, Typmod: -1}, nil
	}
	elem := types.T{OID: types.ElemOID(arr.OID), Typmod: -1}
	for i, p := range ps {
		if p != AnyElementOID {
			continue
		}
		if isUnknown(c.args[i]) {
			if err := c.coerceArg(i, elem); err != nil {
				return types.T{}, err
			}
			continue
		}
		if at := c.args[i].Type(); at.OID != elem.OID {
			// anycompatible: the element and the value meet in their
			// common type.
			ct, ok := commonType(at, elem)
			if !ok {
				return types.T{}, c.undefined()
			}
			if err := c.coerceArg(i, ct); err != nil {
				return types.T{}, err
			}
			if ct.OID != elem.OID {
				for j, p := range ps {
					if p == AnyArrayOID {
						if err := c.coerceArg(j, types.ArrayOf(ct)); err != nil {
							return types.T{}, err
						}
					}
				}
				elem, arr = ct, types.ArrayOf(ct)
			}
		}
	}
	switch f.Result {
	case AnyArrayOID:
		return arr, nil
	case AnyElementOID:
		return elem, nil
	}
	return types.T{OID: f.Result, Typmod: -1}, nil
}

// unnest binds unnest(anyarray), a set-returning function of the array's
// elements.
func (c *call) unnest() (Expr, error) {
	b := c.b
	if err := c.srfAllowed(); err != nil {
		return nil, err
	}
	if len(c.args) != 1 {
		return nil, c.undefined()
	}
	if isUnknown(c.args[0]) {
		return nil, b.errAt(c.fc.Location, pgerr.AmbiguousFunction, "function unnest(unknown) is not unique").
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	}
	t := c.args[0].Type()
	if !types.IsArray(t.OID) {
		return nil, c.undefined()
	}
	return &SRFCall{Name: "unnest", Args: c.args, T: types.T{OID: types.ElemOID(t.OID), Typmod: -1}}, nil
}

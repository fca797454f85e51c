package executor

import (
	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// evalArrayNode evaluates ARRAY[...], subscripts and op ANY/ALL (array).
func (c *evalCtx) evalArrayNode(e sql.Expr, row []types.Datum) (types.Datum, error) {
	switch x := e.(type) {
	case *sql.ArrayExpr:
		vals := make([]types.Datum, len(x.Elems))
		for i, el := range x.Elems {
			v, err := c.eval(el, row)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		return types.NewArray(vals), nil
	case *sql.Subscript:
		return c.subscript(x, row)
	case *sql.ScalarArrayOp:
		return c.scalarArrayOp(x, row)
	}
	return nil, pgerr.New(pgerr.InternalError, "cannot evaluate %T", e)
}

// subscript is array_subscript_fetch / array_get_slice (and the point's
// fixed-length form): a subscript out of range, or the wrong number of
// them, gives NULL; a slice is clipped to the array's bounds.
func (c *evalCtx) subscript(x *sql.Subscript, row []types.Datum) (types.Datum, error) {
	v, err := c.eval(x.X, row)
	if err != nil || v == nil {
		return nil, err
	}
	idx := make([]int64, len(x.Idx))
	for i, ie := range x.Idx {
		iv, err := c.eval(ie, row)
		if err != nil || iv == nil {
			return nil, err
		}
		idx[i] = iv.(int64)
	}
	if p, ok := v.(types.PointValue); ok {
		if len(idx) != 1 {
			return nil, nil
		}
		f, ok := types.PointSubscript(p, idx[0])
		if !ok {
			return nil, nil
		}
		return f, nil
	}
	a := v.(*types.Array)
	if x.Slice {
		return c.slice(x, a, row)
	}
	if len(idx) != len(a.Dims) {
		return nil, nil
	}
	off := 0
	for d, i := range idx {
		k := i - int64(a.Lbounds[d])
		if k < 0 || k >= int64(a.Dims[d]) {
			return nil, nil
		}
		off = off*a.Dims[d] + int(k)
	}
	return a.Elems[off], nil
}

func (c *evalCtx) slice(x *sql.Subscript, a *types.Array, row []types.Datum) (types.Datum, error) {
	if len(a.Dims) == 0 {
		return &types.Array{}, nil
	}
	if len(a.Dims) != 1 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "slices of multidimensional arrays are not supported")
	}
	lo, hi := int64(a.Lbounds[0]), int64(a.Lbounds[0]+a.Dims[0]-1)
	for _, b := range []struct {
		e   sql.Expr
		dst *int64
		min bool
	}{{x.Lower, &lo, true}, {x.Upper, &hi, false}} {
		if b.e == nil {
			continue
		}
		v, err := c.eval(b.e, row)
		if err != nil || v == nil {
			return nil, err
		}
		i := v.(int64)
		if b.min {
			*b.dst = max(*b.dst, i)
		} else {
			*b.dst = min(*b.dst, i)
		}
	}
	if lo > hi {
		return &types.Array{}, nil
	}
	base := int64(a.Lbounds[0])
	return types.NewArray(append([]types.Datum(nil), a.Elems[lo-base:hi-base+1]...)), nil
}

// scalarArrayOp is ScalarArrayOpExpr: ANY is true when some comparison is
// true, ALL false when some is false; otherwise a NULL comparison (or
// element) makes the result NULL. An empty array gives false (ANY) or true
// (ALL) whatever the left operand.
func (c *evalCtx) scalarArrayOp(x *sql.ScalarArrayOp, row []types.Datum) (types.Datum, error) {
	l, err := c.eval(x.L, row)
	if err != nil {
		return nil, err
	}
	r, err := c.eval(x.R, row)
	if err != nil || r == nil {
		return nil, err
	}
	a := r.(*types.Array)
	if len(a.Elems) == 0 {
		return x.All, nil
	}
	if l == nil {
		return nil, nil
	}
	sawNull := false
	for _, e := range a.Elems {
		if e == nil {
			sawNull = true
			continue
		}
		m := cmpOp(x.Op, types.Compare(x.CT, l, e))
		if m && !x.All {
			return true, nil
		}
		if !m && x.All {
			return false, nil
		}
	}
	if sawNull {
		return nil, nil
	}
	return x.All, nil
}

func cmpOp(op string, c int) bool {
	switch op {
	case "=":
		return c == 0
	case "<>":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

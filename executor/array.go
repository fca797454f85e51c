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
		if x.Multi {
			return types.StackArrays(vals)
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

// slice is array_get_slice: each dimension's bounds (open ones the
// array's own) are clipped to the array; missing dimensions are whole;
// more subscripts than dimensions, or an empty range, give an empty array.
// The result's lower bounds are 1.
func (c *evalCtx) slice(x *sql.Subscript, a *types.Array, row []types.Datum) (types.Datum, error) {
	n := len(x.Lower)
	lo, hi := make([]int64, n), make([]int64, n)
	for d := 0; d < n; d++ {
		for _, b := range []struct {
			e   sql.Expr
			dst *int64
		}{{x.Lower[d], &lo[d]}, {x.Upper[d], &hi[d]}} {
			if b.e == nil {
				*b.dst = 0
				if d < len(a.Dims) {
					*b.dst = int64(a.Lbounds[d])
					if b.dst == &hi[d] {
						*b.dst += int64(a.Dims[d]) - 1
					}
				}
				continue
			}
			v, err := c.eval(b.e, row)
			if err != nil || v == nil {
				return nil, err
			}
			*b.dst = v.(int64)
		}
	}
	nd := len(a.Dims)
	if nd == 0 || n > nd {
		return &types.Array{}, nil
	}
	from, to := make([]int, nd), make([]int, nd) // offsets within each dimension
	for d := 0; d < nd; d++ {
		l, h := int64(a.Lbounds[d]), int64(a.Lbounds[d]+a.Dims[d]-1)
		if d < n {
			l, h = max(l, lo[d]), min(h, hi[d])
		}
		if l > h {
			return &types.Array{}, nil
		}
		from[d], to[d] = int(l)-a.Lbounds[d], int(h)-a.Lbounds[d]
	}
	out := &types.Array{Dims: make([]int, nd), Lbounds: make([]int, nd)}
	for d := range out.Dims {
		out.Dims[d], out.Lbounds[d] = to[d]-from[d]+1, 1
	}
	var walk func(d, off int)
	walk = func(d, off int) {
		for k := from[d]; k <= to[d]; k++ {
			o := off*a.Dims[d] + k
			if d+1 == nd {
				out.Elems = append(out.Elems, a.Elems[o])
			} else {
				walk(d+1, o)
			}
		}
	}
	walk(0, 0)
	return out, nil
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

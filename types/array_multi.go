package types

import (
	"slices"
	"strconv"

	"minipg/pgerr"
)

// ErrArrayDimsMismatch is 2202E for an ARRAY[...] of sub-arrays whose
// dimensions differ.
func ErrArrayDimsMismatch() error {
	return pgerr.New(pgerr.ArraySubscriptError, "multidimensional arrays must have array expressions with matching dimensions")
}

// StackArrays is a multidimensional ARRAY[...] constructor
// (ExecEvalArrayExpr): subs are arrays (or nil) of the same dimensions and
// lower bounds, stacked along a new first dimension. NULL and empty
// sub-arrays give an empty array when all are so, else 2202E.
func StackArrays(subs []Datum) (*Array, error) {
	var first *Array
	empty := false
	n := 0
	var elems []Datum
	for _, s := range subs {
		a, _ := s.(*Array)
		if a == nil || len(a.Dims) == 0 {
			empty = true
			continue
		}
		if first == nil {
			first = a
			if len(a.Dims)+1 > MaxDim {
				return nil, pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", len(a.Dims)+1, MaxDim)
			}
		} else if !slices.Equal(a.Dims, first.Dims) || !slices.Equal(a.Lbounds, first.Lbounds) {
			return nil, ErrArrayDimsMismatch()
		}
		elems = append(elems, a.Elems...)
		n++
	}
	if first == nil {
		return &Array{}, nil
	}
	if empty {
		return nil, ErrArrayDimsMismatch()
	}
	out := &Array{Dims: append([]int{n}, first.Dims...), Lbounds: append([]int{1}, first.Lbounds...), Elems: elems}
	return out, nil
}

// FormatArrayDims is array_dims: [lo:hi] for each dimension ("" for an
// empty array, which the caller shows as NULL).
func FormatArrayDims(a *Array) string { return string(appendArrayDims(nil, a)) }

// appendArrayDims appends [lo:hi] for each dimension of a.
func appendArrayDims(buf []byte, a *Array) []byte {
	for k, n := range a.Dims {
		buf = append(buf, '[')
		buf = strconv.AppendInt(buf, int64(a.Lbounds[k]), 10)
		buf = append(buf, ':')
		buf = strconv.AppendInt(buf, int64(a.Lbounds[k]+n-1), 10)
		buf = append(buf, ']')
	}
	return buf
}

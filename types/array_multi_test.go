package types

import "testing"

func TestStackArrays(t *testing.T) {
	a := NewArray([]Datum{int64(1), int64(2)})
	b := NewArray([]Datum{int64(3), int64(4)})
	m, err := StackArrays([]Datum{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if got := FormatText(T{ArrayOID(Int4), -1}, m); got != "{{1,2},{3,4}}" {
		t.Errorf("stacked = %s", got)
	}
	if got := FormatArrayDims(m); got != "[1:2][1:2]" {
		t.Errorf("dims = %s", got)
	}
	if _, err := StackArrays([]Datum{a, NewArray([]Datum{int64(3)})}); err == nil {
		t.Error("sub-arrays of different lengths stacked")
	}
	if _, err := StackArrays([]Datum{a, nil}); err == nil {
		t.Error("a NULL sub-array next to a non-empty one stacked")
	}
	if e, err := StackArrays([]Datum{nil, &Array{}}); err != nil || len(e.Dims) != 0 {
		t.Errorf("all-empty = %v, %v", e, err)
	}
	six := &Array{Dims: []int{1, 1, 1, 1, 1, 1}, Lbounds: []int{1, 1, 1, 1, 1, 1}, Elems: []Datum{int64(1)}}
	if _, err := StackArrays([]Datum{six}); err == nil {
		t.Error("a 7-dimensional array built")
	}
}

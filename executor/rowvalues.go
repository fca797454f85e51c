package executor

// Values of decoded rows made with fewer allocations: the text columns of
// one tuple share one string, and integers repeated from row to row share
// one boxed Datum. Both are invisible to the rest of the executor, since a
// Datum is never modified.

import (
	"unsafe"

	"minipg/types"
)

// offsetIn returns the offset of b in tup, -1 when b does not lie inside
// tup (DeformTuple's values are slices of the tuple).
func offsetIn(tup, b []byte) int {
	if len(b) == 0 || len(tup) == 0 {
		return -1
	}
	off := int(uintptr(unsafe.Pointer(unsafe.SliceData(b))) - uintptr(unsafe.Pointer(unsafe.SliceData(tup))))
	if off < 0 || off > len(tup)-len(b) {
		return -1
	}
	return off
}

// isTextType reports whether values of t decode to the bytes as a string.
func isTextType(t types.T) bool {
	switch t.OID {
	case types.Text, types.Varchar, types.Bpchar:
		return true
	}
	return false
}

// intBoxes is a direct-mapped cache of boxed integers, one per session:
// an index scan over an order's or a district's rows decodes the same keys
// for every statement, and boxing an int64 outside 0..255 allocates.
type intBoxes [1024]types.Datum

// box returns v as a Datum, the cached one when it holds v.
func (c *intBoxes) box(v int64) types.Datum {
	slot := &c[uint64(v)%uint64(len(c))]
	if b, ok := (*slot).(int64); ok && b == v {
		return *slot
	}
	d := types.Datum(v)
	*slot = d
	return d
}

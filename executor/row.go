package executor

import (
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/types"
)

// decoder turns heap tuples into rows: the table's columns, then ctid.
type decoder struct {
	r     *relation
	vals  [][]byte
	nulls []bool
}

func newDecoder(r *relation) *decoder {
	n := len(r.types)
	return &decoder{r: r, vals: make([][]byte, n), nulls: make([]bool, n)}
}

func (d *decoder) decode(tup []byte, tid page.TID) ([]types.Datum, error) {
	if err := heap.DeformTuple(d.r.desc, tup, d.vals, d.nulls); err != nil {
		return nil, err
	}
	row := make([]types.Datum, len(d.r.types)+1)
	for i, t := range d.r.types {
		if d.nulls[i] {
			continue
		}
		v, err := types.DecodeDisk(t, d.vals[i])
		if err != nil {
			return nil, err
		}
		row[i] = v
	}
	row[len(d.r.types)] = tid
	return row, nil
}

// encode forms a heap tuple from the first len(r.types) values of row.
func (r *relation) encode(row []types.Datum) ([]byte, error) {
	n := len(r.types)
	vals := make([][]byte, n)
	nulls := make([]bool, n)
	for i, t := range r.types {
		if row[i] == nil {
			nulls[i] = true
			continue
		}
		b, err := types.EncodeDisk(t, row[i])
		if err != nil {
			return nil, err
		}
		vals[i] = b
	}
	return heap.FormTuple(r.desc, vals, nulls)
}

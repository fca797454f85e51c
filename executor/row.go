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
	need  []bool // columns to decode (then ctid, if present); nil: all (the others stay nil)

	// reuse: decode returns the same row slice each time (the consumer
	// keeps no row past the next call; see execCtx.reuseRows).
	reuse bool
	row   []types.Datum
}

func newDecoder(r *relation) *decoder {
	n := len(r.types)
	return &decoder{r: r, vals: make([][]byte, n), nulls: make([]bool, n)}
}

func (d *decoder) decode(tup []byte, tid page.TID) ([]types.Datum, error) {
	// Deform only up to the last column needed (all of them without need):
	// the attributes after it are never looked at.
	n := len(d.r.types)
	if d.need != nil {
		for n > 0 && !d.need[n-1] {
			n--
		}
	}
	if err := heap.DeformTuple(d.r.desc[:n], tup, d.vals[:n], d.nulls[:n]); err != nil {
		return nil, err
	}
	var row []types.Datum
	if d.reuse {
		if d.row == nil {
			d.row = make([]types.Datum, len(d.r.types)+1)
		}
		row = d.row
		clear(row)
	} else {
		row = make([]types.Datum, len(d.r.types)+1)
	}
	for i, t := range d.r.types[:n] {
		if d.nulls[i] || (d.need != nil && !d.need[i]) {
			continue
		}
		v, err := types.DecodeDisk(t, d.vals[i])
		if err != nil {
			return nil, err
		}
		row[i] = v
	}
	if ncols := len(d.r.types); len(d.need) <= ncols || d.need[ncols] {
		row[ncols] = tid
	}
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

// encoder forms tuples reusing its buffers (COPY).
type encoder struct {
	r     *relation
	vals  [][]byte
	nulls []bool
	offs  []int
	buf   []byte
}

func newEncoder(r *relation) *encoder {
	n := len(r.types)
	return &encoder{r: r, vals: make([][]byte, n), nulls: make([]bool, n), offs: make([]int, n+1)}
}

// encode is relation.encode without per-column allocations.
func (en *encoder) encode(row []types.Datum) ([]byte, error) {
	en.buf = en.buf[:0]
	for i, t := range en.r.types {
		en.offs[i] = len(en.buf)
		en.nulls[i] = row[i] == nil
		if row[i] == nil {
			continue
		}
		var err error
		if en.buf, err = types.AppendDisk(en.buf, t, row[i]); err != nil {
			return nil, err
		}
	}
	en.offs[len(en.r.types)] = len(en.buf)
	for i := range en.r.types {
		if en.nulls[i] {
			en.vals[i] = nil
			continue
		}
		en.vals[i] = en.buf[en.offs[i]:en.offs[i+1]]
	}
	return heap.FormTuple(en.r.desc, en.vals, en.nulls)
}

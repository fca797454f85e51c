package executor

import (
	"encoding/binary"
	"slices"

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

	// texts counts the text columns decode reads (-1: not yet known);
	// with two or more, they share one string per tuple.
	texts int
	// deform is how many leading columns decode deforms: up to the last
	// one needed (-1: not yet known; need does not change once decoding
	// has begun).
	deform int
	// ints, when set, boxes integer values (see intBoxes).
	ints *intBoxes
}

func newDecoder(r *relation) *decoder {
	n := len(r.types)
	return &decoder{r: r, vals: make([][]byte, n), nulls: make([]bool, n), texts: -1, deform: -1}
}

// readsColumns reports whether decode reads any column of the tuple (the
// ctid aside): if not, it may be given a nil tuple.
func (d *decoder) readsColumns() bool {
	return d.need == nil || slices.Contains(d.need[:len(d.r.types)], true)
}

func (d *decoder) decode(tup []byte, tid page.TID) ([]types.Datum, error) {
	// Deform only up to the last column needed (all of them without need):
	// the attributes after it are never looked at.
	if d.deform < 0 {
		d.deform = len(d.r.types)
		if d.need != nil {
			for d.deform > 0 && !d.need[d.deform-1] {
				d.deform--
			}
		}
	}
	n := d.deform
	if n > 0 || tup != nil {
		if err := heap.DeformTuple(d.r.desc[:n], tup, d.vals[:n], d.nulls[:n]); err != nil {
			return nil, err
		}
	}
	var row []types.Datum
	if d.reuse {
		if d.row == nil {
			d.row = make([]types.Datum, len(d.r.types)+1)
		}
		row = d.row
		// Only the deformed columns and the ctid are ever set.
		clear(row[:n])
		row[len(row)-1] = nil
	} else {
		row = make([]types.Datum, len(d.r.types)+1)
	}
	if d.texts < 0 {
		d.texts = 0
		for i, t := range d.r.types[:n] {
			if isTextType(t) && (d.need == nil || d.need[i]) && !d.r.isDropped(i) {
				d.texts++
			}
		}
	}
	// shared holds the tuple from the first text value on, when several
	// text values are read: each becomes a substring of it.
	var shared string
	sharedOff := -1
	for i, t := range d.r.types[:n] {
		if d.nulls[i] || (d.need != nil && !d.need[i]) || d.r.isDropped(i) {
			continue
		}
		b := d.vals[i]
		switch {
		case d.texts >= 2 && isTextType(t):
			if off := offsetIn(tup, b); off >= 0 {
				if sharedOff < 0 {
					sharedOff, shared = off, string(tup[off:])
				}
				if off >= sharedOff {
					row[i] = shared[off-sharedOff : off-sharedOff+len(b)]
					continue
				}
			}
		case d.ints != nil && len(b) == 4 && t.OID == types.Int4:
			row[i] = d.ints.box(int64(int32(binary.LittleEndian.Uint32(b))))
			continue
		case d.ints != nil && len(b) == 8 && t.OID == types.Int8:
			row[i] = d.ints.box(int64(binary.LittleEndian.Uint64(b)))
			continue
		}
		v, err := types.DecodeDisk(t, b)
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

// isDropped reports whether column i was dropped: a row has NULL there.
func (r *relation) isDropped(i int) bool { return r.dropped != nil && r.dropped[i] }

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

// encoder forms tuples reusing its buffers (COPY). A row is set column by
// column (setDisk, setNull, or setDatum for a value that is a Datum), then
// appendTuple forms the tuple; reset starts the next row.
type encoder struct {
	r     *relation
	vals  [][]byte
	nulls []bool
	set   []bool // column given a value or NULL since reset
	spans [][2]int
	buf   []byte
}

func newEncoder(r *relation) *encoder {
	n := len(r.types)
	return &encoder{r: r, vals: make([][]byte, n), nulls: make([]bool, n), set: make([]bool, n), spans: make([][2]int, n)}
}

func (en *encoder) reset() {
	en.buf = en.buf[:0]
	clear(en.set)
}

// setDisk sets column col to the on-disk bytes fn appends to its argument.
func (en *encoder) setDisk(col int, fn func([]byte) ([]byte, error)) error {
	start := len(en.buf)
	b, err := fn(en.buf)
	if err != nil {
		return err
	}
	en.buf = b
	en.spans[col] = [2]int{start, len(b)}
	en.nulls[col], en.set[col] = false, true
	return nil
}

func (en *encoder) setNull(col int) { en.nulls[col], en.set[col] = true, true }

func (en *encoder) setDatum(col int, d types.Datum) error {
	if d == nil {
		en.setNull(col)
		return nil
	}
	return en.setDisk(col, func(b []byte) ([]byte, error) { return types.AppendDisk(b, en.r.types[col], d) })
}

// slice points vals at each column's bytes; columns not set are NULL.
func (en *encoder) slice() {
	for i := range en.vals {
		if !en.set[i] {
			en.nulls[i] = true
		}
		if en.nulls[i] {
			en.vals[i] = nil
			continue
		}
		en.vals[i] = en.buf[en.spans[i][0]:en.spans[i][1]]
	}
}

// datums decodes the row into Datums, with a slot for the ctid at the end,
// for index entries and error details.
func (en *encoder) datums() ([]types.Datum, error) {
	en.slice()
	row := make([]types.Datum, len(en.r.types)+1)
	for i, t := range en.r.types {
		if en.nulls[i] {
			continue
		}
		d, err := types.DecodeDisk(t, en.vals[i])
		if err != nil {
			return nil, err
		}
		row[i] = d
	}
	return row, nil
}

// appendTuple forms the row's tuple at the end of dst.
func (en *encoder) appendTuple(dst []byte) ([]byte, error) {
	en.slice()
	return heap.AppendTuple(dst, en.r.desc, en.vals, en.nulls)
}

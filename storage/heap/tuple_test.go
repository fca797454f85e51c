package heap

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"minipg/pgerr"
	"minipg/storage/page"
)

func deform(t *testing.T, desc TupleDesc, tup []byte) ([][]byte, []bool) {
	t.Helper()
	vals, nulls := make([][]byte, len(desc)), make([]bool, len(desc))
	if err := DeformTuple(desc, tup, vals, nulls); err != nil {
		t.Fatal(err)
	}
	return vals, nulls
}

func TestTupleRoundTrip(t *testing.T) {
	desc := TupleDesc{attBool, attText, attInt2, attText, attInt8, attText, {Len: 6, Align: 's'}, attText, attInt4}
	vals := [][]byte{{1}, {}, le2(-7), []byte(strings.Repeat("a", 126)), le8(1 << 40),
		[]byte(strings.Repeat("b", 127)), {1, 2, 3, 4, 5, 6}, bytes.Repeat([]byte{0}, 5000), le4(-1)}
	for mask := 0; mask < 1<<len(desc); mask += 37 {
		nulls := make([]bool, len(desc))
		for i := range nulls {
			nulls[i] = mask&(1<<i) != 0
		}
		tup, err := FormTuple(desc, vals, nulls)
		if err != nil {
			t.Fatal(err)
		}
		got, gotNulls := deform(t, desc, tup)
		for i := range desc {
			if gotNulls[i] != nulls[i] || (!nulls[i] && !bytes.Equal(got[i], vals[i])) {
				t.Fatalf("mask %#x attribute %d: %x null %v", mask, i+1, got[i], gotNulls[i])
			}
		}
		if (Infomask(tup)&HeapHasNull != 0) != (mask != 0) || Natts(tup) != len(desc) {
			t.Fatalf("mask %#x: infomask %#x natts %d", mask, Infomask(tup), Natts(tup))
		}
	}
}

// TestAppendTuple: tuples appended one after another into a buffer that
// starts dirty are byte for byte what FormTuple makes on its own.
func TestAppendTuple(t *testing.T) {
	desc := TupleDesc{attInt4, attText, attInt8, attText}
	buf := bytes.Repeat([]byte{0xFF}, 3) // garbage before, and reused capacity
	buf = buf[:1]
	var want [][]byte
	var starts []int
	for i := range 40 {
		vals := [][]byte{le4(int32(i)), []byte(strings.Repeat("x", i*7)), le8(int64(-i)), []byte("tail")}
		nulls := []bool{false, i%3 == 0, i%5 == 0, false}
		w, err := FormTuple(desc, vals, nulls)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, w)
		starts = append(starts, len(buf))
		if buf, err = AppendTuple(buf, desc, vals, nulls); err != nil {
			t.Fatal(err)
		}
		if i == 20 {
			// Reuse: dirty the unused capacity, as a reset batch buffer has it.
			tail := buf[len(buf):cap(buf)]
			for j := range tail {
				tail[j] = 0xEE
			}
		}
	}
	if buf[0] != 0xFF {
		t.Fatalf("prefix overwritten: %x", buf[0])
	}
	for i, w := range want {
		end := len(buf)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		if got := buf[starts[i]:end]; !bytes.Equal(got, w) {
			t.Fatalf("tuple %d: %x, want %x", i, got, w)
		}
	}
}

func TestTupleVarlenaHeaders(t *testing.T) {
	desc := TupleDesc{attText}
	for _, c := range []struct {
		n    int
		want string // data, hex prefix
	}{
		{0, "03"},         // empty: 1-byte header, length 1
		{126, "ff"},       // 127 with its header: still short
		{127, "0c020000"}, // 131 << 2
		{5000, hex.EncodeToString(le4(5004 << 2))},
	} {
		tup, err := FormTuple(desc, [][]byte{bytes.Repeat([]byte("x"), c.n)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(tup[Hoff(tup):]); !strings.HasPrefix(got, c.want) || Infomask(tup) != HeapHasVarwidth {
			t.Errorf("content %d: %s...", c.n, got[:min(len(got), 12)])
		}
	}
	// A NULL varlena does not set HEAP_HASVARWIDTH (heap_fill_tuple).
	tup, _ := FormTuple(desc, [][]byte{nil}, []bool{true})
	if Infomask(tup) != HeapHasNull || len(tup) != 24 {
		t.Errorf("null varlena: infomask %#x len %d", Infomask(tup), len(tup))
	}
}

func TestTupleNattsMismatch(t *testing.T) {
	tup, _ := FormTuple(TupleDesc{attInt4, attText}, [][]byte{le4(5), []byte("hi")}, nil)
	// Columns added after the row was written read as NULL.
	vals, nulls := deform(t, TupleDesc{attInt4, attText, attInt8, attText}, tup)
	if string(vals[1]) != "hi" || nulls[1] || !nulls[2] || !nulls[3] {
		t.Fatalf("%q %v", vals, nulls)
	}
	// Extra attributes in the tuple are ignored.
	vals, nulls = deform(t, TupleDesc{attInt4}, tup)
	if !bytes.Equal(vals[0], le4(5)) || nulls[0] {
		t.Fatal("prefix")
	}
}

func TestTupleHeaderAccessors(t *testing.T) {
	tup, _ := FormTuple(TupleDesc{attInt4}, [][]byte{le4(1)}, nil)
	SetXmin(tup, 0x01020304)
	SetXmax(tup, 5)
	SetCid(tup, 6)
	SetCtid(tup, page.TID{Block: 0x00010002, Offset: 3})
	SetInfomask(tup, HeapXmaxInvalid|HeapXminCommitted)
	SetInfomask2(tup, 1|HeapHotUpdated)
	want := "04030201" + "05000000" + "06000000" + "0100" + "0200" + "0300" + "0140" + "0009" + "18"
	if got := hex.EncodeToString(tup[:23]); got != want {
		t.Fatalf("header %s, want %s", got, want)
	}
	if Xmin(tup) != 0x01020304 || Xmax(tup) != 5 || Cid(tup) != 6 || Ctid(tup) != (page.TID{Block: 0x10002, Offset: 3}) ||
		Natts(tup) != 1 || Hoff(tup) != 24 || Infomask2(tup)&HeapHotUpdated == 0 {
		t.Fatal("accessors")
	}
	// Values from PostgreSQL 15 htup_details.h.
	for _, c := range []struct{ got, want int }{
		{HeapHasNull, 0x1}, {HeapHasVarwidth, 0x2}, {HeapXmaxExclLock, 0x40}, {HeapXmaxLockOnly, 0x80},
		{HeapXminCommitted, 0x100}, {HeapXminInvalid, 0x200}, {HeapXmaxCommitted, 0x400},
		{HeapXmaxInvalid, 0x800}, {HeapXmaxIsMulti, 0x1000}, {HeapUpdated, 0x2000},
		{HeapKeysUpdated, 0x2000}, {HeapHotUpdated, 0x4000}, {HeapOnlyTuple, 0x8000}, {HeapNattsMask, 0x7ff},
	} {
		if c.got != c.want {
			t.Errorf("constant %#x, want %#x", c.got, c.want)
		}
	}
}

func TestFormTupleErrors(t *testing.T) {
	for _, c := range []struct {
		desc  TupleDesc
		vals  [][]byte
		nulls []bool
		code  pgerr.Code
	}{
		{TupleDesc{attInt4}, [][]byte{le2(1)}, nil, pgerr.InternalError},
		{TupleDesc{attInt4}, nil, nil, pgerr.InternalError},
		{TupleDesc{attInt4}, [][]byte{le4(1)}, []bool{false, true}, pgerr.InternalError},
		{TupleDesc{{Len: 0, Align: 'i'}}, [][]byte{{}}, nil, pgerr.InternalError},
		{TupleDesc{{Len: 4, Align: 'x'}}, [][]byte{le4(1)}, nil, pgerr.InternalError},
		{make(TupleDesc, MaxTupleAttributeNumber+1), nil, nil, pgerr.TooManyColumns},
	} {
		_, err := FormTuple(c.desc, c.vals, c.nulls)
		if err == nil || pgerr.CodeOf(err) != c.code {
			t.Errorf("%v: err %v, want %s", c.desc[:min(len(c.desc), 2)], err, c.code)
		}
	}
}

func TestDeformTupleCorrupt(t *testing.T) {
	desc := TupleDesc{attInt4, attText}
	good, _ := FormTuple(desc, [][]byte{le4(1), []byte(strings.Repeat("z", 200))}, nil)
	short, _ := FormTuple(desc, [][]byte{le4(1), []byte("abc")}, nil)
	mutate := func(b []byte, f func([]byte) []byte) []byte { return f(append([]byte(nil), b...)) }
	for name, tup := range map[string][]byte{
		"shorter than header": good[:20],
		"t_hoff past end":     mutate(good, func(b []byte) []byte { b[22] = 240; return b[:100] }),
		"t_hoff unaligned":    mutate(good, func(b []byte) []byte { b[22] = 23; return b }),
		"bitmap past t_hoff": mutate(good, func(b []byte) []byte {
			SetInfomask2(b, 100)
			SetInfomask(b, HeapHasNull)
			return b
		}),
		"fixed attr truncated": good[:26],
		"varlena truncated":    good[:len(good)-1],
		"4B length < 4":        mutate(good, func(b []byte) []byte { copy(b[28:], le4(3<<2)); return b }),
		"compressed":           mutate(good, func(b []byte) []byte { b[28] |= 0x02; return b }),
		"short past end":       mutate(short, func(b []byte) []byte { b[28] = 0x7f; return b }),
		"toast pointer":        mutate(short, func(b []byte) []byte { b[28] = 0x01; return b }),
		"missing varlena":      short[:28],
	} {
		vals, nulls := make([][]byte, 2), make([]bool, 2)
		if err := DeformTuple(desc, tup, vals, nulls); !pgerr.IsCorruption(err) {
			t.Errorf("%s: err %v", name, err)
		}
	}
	if err := DeformTuple(desc, good, make([][]byte, 1), make([]bool, 2)); err == nil || pgerr.IsCorruption(err) {
		t.Errorf("short values slice: %v", err)
	}
}

// FuzzDeformTuple feeds arbitrary bytes as a tuple of an arbitrary
// descriptor: DeformTuple must return an error or values inside the tuple,
// never panic; and any well-formed row must survive FormTuple/DeformTuple.
func FuzzDeformTuple(f *testing.F) {
	for _, c := range layoutCases {
		vals, nulls := c.row(1)
		tup, _ := FormTuple(c.desc, vals, nulls)
		f.Add(descBytes(c.desc), tup)
	}
	attrs := []Attr{attBool, attInt2, attInt4, attInt8, attText, {Len: 6, Align: 's'}, {Len: 16, Align: 'c'}, {Len: -1, Align: 'd'}}
	f.Fuzz(func(t *testing.T, d []byte, tup []byte) {
		desc := make(TupleDesc, min(len(d), 40))
		for i := range desc {
			desc[i] = attrs[int(d[i])%len(attrs)]
		}
		vals, nulls := make([][]byte, len(desc)), make([]bool, len(desc))
		if err := DeformTuple(desc, tup, vals, nulls); err != nil {
			if !pgerr.IsCorruption(err) {
				t.Fatalf("non-corruption error %v", err)
			}
		}
		// Round trip: use tup's bytes as attribute values.
		for i, a := range desc {
			nulls[i] = len(tup) > i && tup[i]%5 == 0
			n := int(a.Len)
			if a.Len < 0 {
				n = len(tup) * (i + 1) % 300
			}
			vals[i] = bytes.Repeat([]byte{byte(i + 1)}, n)
		}
		form, err := FormTuple(desc, vals, nulls)
		if err != nil {
			t.Fatal(err)
		}
		got, gotNulls := make([][]byte, len(desc)), make([]bool, len(desc))
		if err := DeformTuple(desc, form, got, gotNulls); err != nil {
			t.Fatal(err)
		}
		for i := range desc {
			if gotNulls[i] != nulls[i] || (!nulls[i] && !bytes.Equal(got[i], vals[i])) {
				t.Fatalf("attribute %d", i+1)
			}
		}
	})
}

func descBytes(desc TupleDesc) []byte {
	attrs := []Attr{attBool, attInt2, attInt4, attInt8, attText}
	b := make([]byte, len(desc))
	for i, a := range desc {
		for j, x := range attrs {
			if a.Len == x.Len && a.Align == x.Align {
				b[i] = byte(j)
			}
		}
	}
	return b
}

// TestDeformMissing: attributes past a tuple's t_natts read their Missing
// value, NULL without one; the tuple's own attributes are not affected.
func TestDeformMissing(t *testing.T) {
	old := TupleDesc{attInt4}
	tup, err := FormTuple(old, [][]byte{le4(42)}, []bool{false})
	if err != nil {
		t.Fatal(err)
	}
	desc := TupleDesc{attInt4, {Len: 4, Align: 'i', Missing: le4(7)}, attText, {Len: -1, Align: 'i', Missing: []byte("dflt")}}
	vals, nulls := make([][]byte, len(desc)), make([]bool, len(desc))
	if err := DeformTuple(desc, tup, vals, nulls); err != nil {
		t.Fatal(err)
	}
	if nulls[0] || !bytes.Equal(vals[0], le4(42)) {
		t.Fatalf("stored attribute: %v %v", vals[0], nulls[0])
	}
	if nulls[1] || !bytes.Equal(vals[1], le4(7)) || !nulls[2] || nulls[3] || string(vals[3]) != "dflt" {
		t.Fatalf("added attributes: %v %v", vals[1:], nulls[1:])
	}
}

package executor

import (
	"reflect"
	"testing"

	"minipg/sql"
	"minipg/storage/page"
	"minipg/types"
)

func TestOffsetIn(t *testing.T) {
	tup := []byte("0123456789")
	other := []byte("0123456789")
	for _, tc := range []struct {
		b    []byte
		want int
	}{
		{tup[0:3], 0},
		{tup[4:10], 4},
		{tup[9:10], 9},
		{tup[3:3], -1}, // empty
		{other[2:4], -1},
	} {
		if got := offsetIn(tup, tc.b); got != tc.want {
			t.Errorf("offsetIn(%q) = %d, want %d", tc.b, got, tc.want)
		}
	}
}

func TestIntBoxes(t *testing.T) {
	var c intBoxes
	n := int64(len(c))
	for _, v := range []int64{0, 1, 300, -300, 300 + n, 300, 1 << 40, -(1 << 40), 300 + n} {
		if got := c.box(v); got != types.Datum(v) {
			t.Fatalf("box(%d) = %v", v, got)
		}
	}
}

// TestDecodeSharedValues decodes tuples with the shared text string and
// the integer cache and compares the rows with a plain decoder's.
func TestDecodeSharedValues(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE dv (a int, b text, c bigint, d varchar(20), e char(4), f text, g numeric, h smallint)")
	p, err := s.Prepare("SELECT * FROM dv", nil)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := e.rel(p.bound.Stmt.(*sql.Select).Table.OID)
	num := mustParse(t, types.TNumeric, "12.50")
	rows := [][]types.Datum{
		{int64(70000), "first text", int64(1 << 40), "vc", "ab  ", "", num, int64(7)},
		{nil, "b only", nil, nil, "xyzw", "f", nil, nil},
		{int64(-5), nil, int64(-70000), "", nil, "a longer text value that needs a 4-byte header if it were longer than 127 bytes", num, int64(-1)},
		{int64(70000 + len(intBoxes{})), "x", int64(70000), "y", "z   ", "w", num, int64(0)},
	}
	var ints intBoxes
	for _, need := range [][]bool{nil, {true, true, false, true, false, false, false, false, true}, {false, false, true, false, false, true, false, false, false}} {
		plain, shared := newDecoder(r), newDecoder(r)
		plain.need, shared.need = need, need
		plain.texts = 0 // every text value a string of its own
		shared.ints = &ints
		for _, row := range rows {
			tup, err := r.encode(row)
			if err != nil {
				t.Fatal(err)
			}
			tid := page.TID{Block: 1, Offset: 2}
			want, err := plain.decode(tup, tid)
			if err != nil {
				t.Fatal(err)
			}
			got, err := shared.decode(tup, tid)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("need %v: decoded %v, want %v", need, got, want)
			}
		}
	}
}

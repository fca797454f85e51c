package executor

import (
	"testing"

	"minipg/sql"
	"minipg/storage/page"
	"minipg/types"
)

// BenchmarkDecodeInts decodes the rows of a district's undelivered orders
// (the Delivery scan) with fresh boxed integers and with the session cache.
func BenchmarkDecodeInts(b *testing.B) {
	e := openTestEngine(b, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(b, s, "CREATE TABLE bd (a int, b int, c int)")
	p, _ := s.Prepare("SELECT * FROM bd", nil)
	r, _ := e.rel(p.bound.Stmt.(*sql.Select).Table.OID)
	var tups [][]byte
	for i := 0; i < 900; i++ {
		tup, _ := r.encode([]types.Datum{int64(1), int64(3), int64(2100 + i)})
		tups = append(tups, tup)
	}
	for _, cached := range []bool{false, true} {
		name := "alloc"
		if cached {
			name = "cached"
		}
		b.Run(name, func(b *testing.B) {
			var ints intBoxes
			var sum int64
			for i := 0; i < b.N; i++ {
				d := newDecoder(r)
				d.reuse = true
				if cached {
					d.ints = &ints
				}
				for _, tup := range tups {
					row, _ := d.decode(tup, page.TID{})
					sum += row[2].(int64)
				}
			}
			_ = sum
		})
	}
}

package executor

import (
	"fmt"
	"testing"
)

// TestUpdateByKeyLeavesNeighboursAlone: under the locality policy an UPDATE
// of one row by its primary key whose new version cannot stay on its page
// does not take the room its neighbour pages got back (that room is what
// their own rows need to update in place), while an UPDATE of several rows
// does, so that the rows it changes together stay beside each other.
func TestUpdateByKeyLeavesNeighboursAlone(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(nil)
	defer s.Close()
	mustExec(t, s, "CREATE TABLE pl (id int PRIMARY KEY, pad text) WITH (fsm_policy = locality, autovacuum_enabled = off)")
	mustExec(t, s, "INSERT INTO pl SELECT g, repeat('x', 200) FROM generate_series(1, 300) g")
	blockOf := func(id int) int {
		rows, _ := mustExec(t, s, fmt.Sprintf("SELECT (ctid::text::point)[0]::int FROM pl WHERE id = %d", id))
		return asInt(rows[0][0])
	}
	idsOn := func(blk int) []int {
		rows, _ := mustExec(t, s, fmt.Sprintf("SELECT id FROM pl WHERE (ctid::text::point)[0]::int = %d ORDER BY id", blk))
		var ids []int
		for _, r := range rows {
			ids = append(ids, asInt(r[0]))
		}
		return ids
	}
	// Room on blocks 1 and 3 (and 5 and 7), none on the others.
	for _, b := range []int{1, 3, 5, 7} {
		ids := idsOn(b)
		mustExec(t, s, fmt.Sprintf("DELETE FROM pl WHERE id BETWEEN %d AND %d", ids[0], ids[5]))
	}
	mustExec(t, s, "VACUUM pl")
	moved := func(stmts func(ids []int) []string, blk int) map[int]int {
		ids := idsOn(blk)
		mustExec(t, s, "BEGIN")
		for _, q := range stmts(ids) {
			mustExec(t, s, q)
		}
		mustExec(t, s, "COMMIT")
		out := map[int]int{}
		for _, id := range ids[:4] {
			if b := blockOf(id); b != blk {
				out[b]++
			}
		}
		return out
	}
	single := moved(func(ids []int) []string {
		var q []string
		for _, id := range ids[:4] {
			q = append(q, fmt.Sprintf("UPDATE pl SET pad = repeat('y', 400) WHERE id = %d", id))
		}
		return q
	}, 2)
	if len(single) == 0 {
		t.Fatal("setup: no version left block 2")
	}
	if single[1] > 0 || single[3] > 0 {
		t.Errorf("single-row updates of block 2 moved versions to its neighbours: %v", single)
	}
	multi := moved(func(ids []int) []string {
		return []string{fmt.Sprintf("UPDATE pl SET pad = repeat('y', 400) WHERE id BETWEEN %d AND %d", ids[0], ids[3])}
	}, 6)
	if multi[5]+multi[7] == 0 {
		t.Errorf("a multi-row update of block 6 did not use its neighbours: %v", multi)
	}
}

func asInt(d any) int {
	switch v := d.(type) {
	case int32:
		return int(v)
	case int64:
		return int(v)
	}
	panic(fmt.Sprintf("not an integer: %T", d))
}

// Two sessions load order lines at once, each in one transaction that
// has loaded another table in bulk, their single-row INSERTs interleaved
// (a TPC-C loader's first district, whose size nobody knows). The lines
// of an order share the leading columns (warehouse, order) and the heap
// is told so (heap.InsertState.RowShares): no order's lines straddle two
// of a session's runs. The same lines with a leading column of their own
// (a row number) form no groups, and some orders do straddle them: the
// test can tell.
func TestOrderLinesStayOffRunSeams(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(nil)
	straddling := func(table string, numbered bool) int64 {
		t.Helper()
		mustExec(t, s, "CREATE TABLE "+table+" (lead int, w int, o int, l int, pad text) WITH (fsm_policy = locality)")
		a, b := e.NewSession(nil), e.NewSession(nil)
		defer a.Close()
		defer b.Close()
		// Each first loads a warehouse's stock, as a TPC-C loader does:
		// its transaction is then loading in bulk.
		mustExec(t, s, "CREATE TABLE "+table+"_stock (v text) WITH (fsm_policy = locality)")
		for _, c := range []*Session{a, b} {
			mustExec(t, c, "BEGIN")
			for range 20 * 7 { // 20 pages
				mustExec(t, c, "INSERT INTO "+table+"_stock VALUES (repeat('s', 1000))")
			}
		}
		const orders = 700
		n := int64(0)
		for o := range orders {
			for i, c := range []*Session{a, b} {
				w := int64(i + 1) // the session's warehouse
				for l := range 3 + (o*5)%7 {
					n++
					lead := w
					if numbered {
						lead = n
					}
					mustExec(t, c, "INSERT INTO "+table+" VALUES ($1, $2, $3, $4, repeat('p', 120))", lead, w, int64(o), int64(l))
				}
			}
		}
		for _, c := range []*Session{a, b} {
			mustExec(t, c, "COMMIT")
		}
		rows, _ := mustExec(t, s, `SELECT count(*) FROM (SELECT w, o,
			max((ctid::text::point)[0]) - min((ctid::text::point)[0]) + 1 AS span,
			count(DISTINCT (ctid::text::point)[0]) AS blocks FROM `+table+` GROUP BY w, o) g WHERE span <> blocks`)
		return rows[0][0].(int64)
	}
	if n := straddling("lines", false); n != 0 {
		t.Fatalf("%d orders straddle two runs", n)
	}
	if n := straddling("numbered", true); n == 0 {
		t.Fatal("lines with a leading row number: no order straddles two runs, the test shows nothing")
	}
}

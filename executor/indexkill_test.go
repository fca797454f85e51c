package executor

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// memIndexLen returns the number of entries of in-memory index name on tbl.
func memIndexLen(t *testing.T, e *Engine, tbl, name string) int {
	t.Helper()
	m, ok := relIndexOf(t, e, tbl, name).ix.(*memStore)
	if !ok {
		t.Fatalf("index %s is not in memory", name)
	}
	return m.ix.Len()
}

// deletedRowsBehindHorizon makes table k (ids 1..1000, primary key k_pkey)
// and deletes ids 1..500 in session a while session b holds the horizon
// back with an open transaction from before the deletion; it returns a
// query whose index scan on k_pkey meets the deleted rows' entries.
func deletedRowsBehindHorizon(t *testing.T, a, b *Session) string {
	t.Helper()
	// The pruner's reclaim would delete the deleted rows' entries itself
	// once no snapshot can see the rows; these tests watch what scans and
	// VACUUM do with them, so it is off.
	mustExec(t, a, "CREATE TABLE k (id int PRIMARY KEY, v int) WITH (autovacuum_enabled = off, heap_reclaim_behind = off)")
	mustExec(t, a, "INSERT INTO k SELECT g, g FROM generate_series(1, 1000) g")
	mustExec(t, a, "CREATE TABLE other (a int)")
	mustExec(t, b, "BEGIN")
	mustExec(t, b, "INSERT INTO other VALUES (1)") // b now holds the horizon back
	mustExec(t, a, "DELETE FROM k WHERE id <= 500")
	q := "SELECT count(*) FROM k WHERE id BETWEEN 1 AND 600"
	if plan := explainText(t, a, "EXPLAIN "+q); !strings.Contains(plan, "Index Scan using k_pkey") {
		t.Fatalf("not an index scan:\n%s", plan)
	}
	return q
}

// TestIndexScanRemovesDeadEntries: an index scan that meets entries whose
// rows were deleted by a transaction older than every running one removes
// them from the in-memory index (PostgreSQL's kill_prior_tuple), and leaves
// them while a transaction that began before the deletion runs.
func TestIndexScanRemovesDeadEntries(t *testing.T) {
	e := openIndexEngine(t, t.TempDir(), "memory")
	a, b := e.NewSession(nil), e.NewSession(nil)
	q := deletedRowsBehindHorizon(t, a, b)
	if got := one(t, a, q); got != "100" {
		t.Fatalf("after the delete: %s rows, want 100", got)
	}
	if n := memIndexLen(t, e, "k", "k_pkey"); n != 1000 {
		t.Fatalf("entries removed while a snapshot may see their rows: %d left, want 1000", n)
	}
	mustExec(t, b, "COMMIT")
	if got := one(t, a, q); got != "100" {
		t.Fatalf("after the snapshot ended: %s rows, want 100", got)
	}
	if n := memIndexLen(t, e, "k", "k_pkey"); n != 500 {
		t.Fatalf("%d entries after a scan over the dead rows, want 500", n)
	}
	// VACUUM finds nothing left to remove from the index, and the rows
	// and index agree.
	mustExec(t, a, "VACUUM k")
	if got := one(t, a, q); got != "100" {
		t.Fatalf("after VACUUM: %s rows, want 100", got)
	}
	mustExec(t, a, "INSERT INTO k SELECT g, -g FROM generate_series(1, 500) g")
	// 1..500 now hold -id, 501..600 hold id: -125250 + 55050.
	if got := one(t, a, "SELECT sum(v) FROM k WHERE id BETWEEN 1 AND 600"); got != "-70200" {
		t.Fatalf("sum after reinsert: %s, want -70200", got)
	}
	if n := memIndexLen(t, e, "k", "k_pkey"); n != 1000 {
		t.Fatalf("%d entries after reinserting, want 1000", n)
	}
}

// btDead counts, over every page of disk index idx, the leaf entries
// bt_page_items shows dead and all leaf entries.
func btDead(t *testing.T, s *Session, idx string) (dead, entries int) {
	t.Helper()
	n, err := strconv.Atoi(one(t, s, "SELECT pg_relation_size('"+idx+"') / 8192"))
	if err != nil {
		t.Fatal(err)
	}
	for blk := 1; blk < n; blk++ {
		rows, _ := mustExec(t, s, fmt.Sprintf("SELECT dead FROM bt_page_items('%s', %d)", idx, blk))
		for _, r := range rows {
			switch r[0] {
			case true:
				dead++
				entries++
			case false:
				entries++
			}
		}
	}
	return dead, entries
}

// TestIndexScanMarksDeadEntriesDisk: with the index on disk, an index scan
// that meets entries whose rows were deleted by a transaction older than
// every running one marks them LP_DEAD (bt_page_items shows them dead, as
// PostgreSQL 15's does), and a second scan skips them without reading
// their heap pages; while a transaction that began before the deletion
// runs, nothing is marked. A scan stopped by LIMIT marks what it found on
// its last page when it is closed. amcheck accepts the marked entries and
// VACUUM removes them.
func TestIndexScanMarksDeadEntriesDisk(t *testing.T) {
	e := openIndexEngine(t, t.TempDir(), "disk")
	a, b := e.NewSession(map[string]string{"user": "postgres"}), e.NewSession(nil)
	mustExec(t, a, "CREATE EXTENSION pageinspect")
	mustExec(t, a, "CREATE EXTENSION amcheck")
	q := deletedRowsBehindHorizon(t, a, b)
	heapHits := func() int64 {
		t.Helper()
		plan := explainText(t, a, "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) "+q)
		return nodeBuffers(t, plan, "Index Scan").Hit
	}
	if got := one(t, a, q); got != "100" {
		t.Fatalf("after the delete: %s rows, want 100", got)
	}
	held := heapHits()
	if dead, n := btDead(t, a, "k_pkey"); dead != 0 || n != 1000 {
		t.Fatalf("%d of %d entries marked dead while a snapshot may see their rows", dead, n)
	}
	mustExec(t, b, "COMMIT")
	if got := one(t, a, q); got != "100" {
		t.Fatalf("after the snapshot ended: %s rows, want 100", got)
	}
	if dead, n := btDead(t, a, "k_pkey"); dead != 500 || n != 1000 {
		t.Fatalf("%d of %d entries marked dead after a scan over the deleted rows, want 500", dead, n)
	}
	if after := heapHits(); after >= held {
		t.Fatalf("heap buffer hits %d with the entries marked dead, %d before: the scan still visits their rows", after, held)
	}
	mustExec(t, a, "SELECT bt_index_check('k_pkey', true)")
	// A scan stopped by LIMIT in the middle of a leaf marks what it found
	// there when it is closed.
	mustExec(t, a, "DELETE FROM k WHERE id BETWEEN 601 AND 700")
	if got := one(t, a, "SELECT id FROM k WHERE id BETWEEN 601 AND 1000 ORDER BY id LIMIT 1"); got != "701" {
		t.Fatalf("first row past the deleted ones: %s", got)
	}
	if dead, _ := btDead(t, a, "k_pkey"); dead != 600 {
		t.Fatalf("%d entries marked dead after the LIMIT scan, want 600", dead)
	}
	mustExec(t, a, "VACUUM k")
	if dead, n := btDead(t, a, "k_pkey"); dead != 0 || n != 400 {
		t.Fatalf("after VACUUM: %d of %d entries dead, want 0 of 400", dead, n)
	}
	mustExec(t, a, "INSERT INTO k SELECT g, -g FROM generate_series(1, 700) g WHERE g NOT BETWEEN 501 AND 600")
	// 1..500 and 601..700 now hold -id, the others id.
	if got := one(t, a, "SELECT sum(v) FROM k WHERE id BETWEEN 1 AND 1000"); got != "119900" {
		t.Fatalf("sum after reinsert: %s, want 119900", got)
	}
	mustExec(t, a, "SELECT bt_index_check('k_pkey', true)")
}

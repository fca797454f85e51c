package executor

import (
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

// TestIndexScanRemovesDeadEntries: an index scan that meets entries whose
// rows were deleted by a transaction older than every running one removes
// them from the in-memory index (PostgreSQL's kill_prior_tuple), and leaves
// them while a transaction that began before the deletion runs.
func TestIndexScanRemovesDeadEntries(t *testing.T) {
	e := openIndexEngine(t, t.TempDir(), "memory")
	a, b := e.NewSession(nil), e.NewSession(nil)
	mustExec(t, a, "CREATE TABLE k (id int PRIMARY KEY, v int) WITH (autovacuum_enabled = off)")
	mustExec(t, a, "INSERT INTO k SELECT g, g FROM generate_series(1, 1000) g")
	mustExec(t, a, "CREATE TABLE other (a int)")
	mustExec(t, b, "BEGIN")
	mustExec(t, b, "INSERT INTO other VALUES (1)") // b now holds the horizon back
	mustExec(t, a, "DELETE FROM k WHERE id <= 500")
	const q = "SELECT count(*) FROM k WHERE id BETWEEN 1 AND 600"
	if plan := explainText(t, a, "EXPLAIN "+q); !strings.Contains(plan, "Index Scan using k_pkey") {
		t.Fatalf("not an index scan:\n%s", plan)
	}
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

package executor

import (
	"strconv"
	"testing"
)

// diskIndex returns the disk store of index name on table tbl.
func diskIndex(t *testing.T, e *Engine, tbl, name string) *diskStore {
	t.Helper()
	d, ok := relIndexOf(t, e, tbl, name).ix.(*diskStore)
	if !ok {
		t.Fatalf("index %s is not on disk", name)
	}
	return d
}

// relIndexOf returns index name of table tbl.
func relIndexOf(t *testing.T, e *Engine, tbl, name string) *relIndex {
	t.Helper()
	def, ok := e.cat.Table(tbl)
	if !ok {
		t.Fatalf("no table %s", tbl)
	}
	r, err := e.rel(def.OID)
	if err != nil {
		t.Fatal(err)
	}
	for _, ri := range r.indexes {
		if ri.def.Name == name {
			return ri
		}
	}
	t.Fatalf("no index %s on %s", name, tbl)
	return nil
}

// TestDiskIndexPageDeletion: after most rows of a table go, VACUUM deletes
// the leaves of its disk indexes that it empties (the live leaves drop,
// the indexes pass bt_index_check); once no transaction from before the
// deletion is left, the next VACUUM makes the pages reusable, and new rows
// go into them without growing the index files.
func TestDiskIndexPageDeletion(t *testing.T) {
	e := openIndexEngine(t, t.TempDir(), "disk")
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE EXTENSION amcheck")
	mustExec(t, s, "CREATE TABLE pd (id int PRIMARY KEY, k text) WITH (autovacuum_enabled = off)")
	mustExec(t, s, "CREATE INDEX pd_k ON pd (k)")
	mustExec(t, s, "INSERT INTO pd SELECT i, lpad(i::text, 8, '0') || repeat('k', 100) FROM generate_series(1, 20000) i")
	names := []string{"pd_pkey", "pd_k"}
	leaves := func(name string) int {
		st, err := diskIndex(t, e, "pd", name).Check()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return st.Leaves
	}
	size := func(name string) int {
		n, err := strconv.Atoi(one(t, s, "SELECT pg_relation_size('"+name+"')"))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := map[string]int{}
	for _, n := range names {
		before[n] = leaves(n)
	}
	mustExec(t, s, "DELETE FROM pd WHERE id > 1000 AND id <= 19000")
	mustExec(t, s, "VACUUM pd")
	sizes := map[string]int{}
	for _, n := range names {
		mustExec(t, s, "SELECT bt_index_check('"+n+"', true)")
		after := leaves(n)
		t.Logf("%s: %d live leaves, %d after the VACUUM", n, before[n], after)
		if after > before[n]/4 {
			t.Fatalf("%s: %d live leaves after deleting 90%% of the rows, %d before", n, after, before[n])
		}
		sizes[n] = size(n)
	}
	// A transaction assigns an xid after the deletion: the next VACUUM
	// finds the deleted pages old enough to reuse.
	mustExec(t, s, "INSERT INTO pd VALUES (0, '0')")
	mustExec(t, s, "VACUUM pd")
	free := map[string]int{}
	for _, n := range names {
		free[n] = diskIndex(t, e, "pd", n).ix.FreePages()
		if free[n] < (before[n]-leaves(n))/2 {
			t.Fatalf("%s: %d pages free for reuse, %d leaves before and %d now", n, free[n], before[n], leaves(n))
		}
	}
	mustExec(t, s, "INSERT INTO pd SELECT i, lpad(i::text, 8, '0') || repeat('k', 100) FROM generate_series(1001, 3000) i")
	for _, n := range names {
		mustExec(t, s, "SELECT bt_index_check('"+n+"', true)")
		left := diskIndex(t, e, "pd", n).ix.FreePages()
		if got := size(n); got != sizes[n] || left >= free[n] {
			t.Fatalf("%s: %d bytes after the inserts, %d before; %d pages free, %d before", n, got, sizes[n], left, free[n])
		}
	}
	if got := one(t, s, "SELECT count(*) FROM pd WHERE k >= '00001001' AND k < '00003001'"); got != "2000" {
		t.Fatalf("rows through pd_k: %s", got)
	}
}

package crashtest

import (
	"fmt"
	"strings"
	"testing"
)

// TestIndexFreeSpaceMapCrash: the deleted pages a VACUUM recorded in a disk
// index's free space map are reused after a crash, with no VACUUM in
// between. The map is not WAL-logged: the CHECKPOINT after the VACUUM
// writes it; rows inserted after the checkpoint take some of the pages,
// and the map's record of that is lost with the server (SIGKILL), so the
// recovered map names pages that are live again. After the restart
// pg_freespace still shows free pages, and rows put back into the emptied
// key range go into deleted pages (stale entries skipped): the index does
// not grow, passes bt_index_check, and finds every row.
func TestIndexFreeSpaceMapCrash(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir, diskIndexSettings...)
	c := connect(t, s)
	exec1(t, c, "CREATE EXTENSION amcheck")
	exec1(t, c, "CREATE EXTENSION pg_freespacemap")
	exec1(t, c, "CREATE TABLE fm (id int PRIMARY KEY, k text) WITH (autovacuum_enabled = off)")
	exec1(t, c, "CREATE TABLE later (x int)")
	key := "lpad(i::text, 8, '0') || repeat('k', 60)"
	exec1(t, c, "INSERT INTO fm SELECT i, "+key+" FROM generate_series(1, 20000) i")
	exec1(t, c, "CREATE INDEX fm_k ON fm (k)")
	exec1(t, c, "DELETE FROM fm WHERE id > 1000 AND id <= 19000")
	exec1(t, c, "VACUUM fm")
	exec1(t, c, "INSERT INTO later VALUES (1)") // an xid after the deletions
	exec1(t, c, "VACUUM fm")
	exec1(t, c, "CHECKPOINT")
	count := func(q string) int { t.Helper(); return queryInt(t, c, q) }
	names := []string{"fm_pkey", "fm_k"}
	blocks, free := map[string]int{}, map[string]int{}
	for _, name := range names {
		blocks[name] = count(fmt.Sprintf("SELECT pg_relation_size('%s') / 8192", name))
		free[name] = count(fmt.Sprintf("SELECT count(*) FROM pg_freespace('%s') WHERE avail = 8160", name))
		if free[name] < 20 {
			t.Fatalf("%s: %d pages recorded free of %d", name, free[name], blocks[name])
		}
	}
	// Some of the pages are taken after the checkpoint.
	exec1(t, c, "INSERT INTO fm SELECT i, "+key+" FROM generate_series(2001, 3000) i")
	for _, name := range names {
		if n := count(fmt.Sprintf("SELECT count(*) FROM pg_freespace('%s') WHERE avail = 8160", name)); n >= free[name] {
			t.Fatalf("%s: %d pages recorded free after the inserts, %d before", name, n, free[name])
		}
	}
	s.kill()

	s = startServer(t, dir, diskIndexSettings...)
	if !strings.Contains(s.log.String(), "redo starts") {
		t.Fatalf("no replay after the crash:\n%s", s.log)
	}
	c = connect(t, s)
	checkIndexes(t, c, names...)
	for _, name := range names {
		n := count(fmt.Sprintf("SELECT count(*) FROM pg_freespace('%s') WHERE avail = 8160", name))
		t.Logf("%s: %d blocks, %d recorded free at the checkpoint, %d after the crash", name, blocks[name], free[name], n)
		if n == 0 {
			t.Fatalf("%s: no page recorded free after the crash", name)
		}
	}
	exec1(t, c, "INSERT INTO fm SELECT i, "+key+" FROM generate_series(5001, 7000) i")
	checkIndexes(t, c, names...)
	for _, name := range names {
		if n := count(fmt.Sprintf("SELECT pg_relation_size('%s') / 8192", name)); n != blocks[name] {
			t.Fatalf("%s grew from %d to %d blocks with deleted pages to reuse", name, blocks[name], n)
		}
	}
	want := 2000 + 1000 + 2000
	for _, q := range []string{"SELECT count(*) FROM fm", "SELECT count(*) FROM fm WHERE id >= 0", "SELECT count(*) FROM fm WHERE k >= ''"} {
		if n := count(q); n != want {
			t.Fatalf("%s: %d rows, want %d", q, n, want)
		}
	}
	s.stop(t)
}

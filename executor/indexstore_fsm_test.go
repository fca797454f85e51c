package executor

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestDiskIndexFreeSpaceMap: VACUUM records the deleted pages of a disk
// index that no transaction can reach in the index's free space map, which
// pg_freespace shows as PostgreSQL 15 shows it (8160 for such a page, 0 for
// the others; a 3-block FSM fork, counted by pg_relation_size(idx, 'fsm')
// and pg_indexes_size). The map survives a restart: new rows go into the
// recorded pages without a VACUUM and without growing the index. DROP
// INDEX and TRUNCATE remove the map with the index's other files.
func TestDiskIndexFreeSpaceMap(t *testing.T) {
	dir := t.TempDir()
	e := openIndexEngine(t, dir, "disk")
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE EXTENSION pg_freespacemap")
	mustExec(t, s, "CREATE EXTENSION amcheck")
	mustExec(t, s, "CREATE TABLE fs (id int) WITH (autovacuum_enabled = off)")
	mustExec(t, s, "INSERT INTO fs SELECT generate_series(1, 20000)")
	mustExec(t, s, "CREATE INDEX fs_idx ON fs (id)")
	if got := one(t, s, "SELECT count(*) FROM pg_freespace('fs_idx') WHERE avail <> 0"); got != "0" {
		t.Fatalf("%s pages recorded free in a new index", got)
	}
	if got := one(t, s, "SELECT pg_relation_size('fs_idx', 'fsm')"); got != "0" {
		t.Fatalf("a new index has an FSM fork of %s bytes", got)
	}
	mustExec(t, s, "DELETE FROM fs WHERE id > 1000 AND id < 19000")
	mustExec(t, s, "VACUUM fs")
	mustExec(t, s, "INSERT INTO fs VALUES (0)") // an xid after the deletion
	mustExec(t, s, "VACUUM fs")
	blocks := one(t, s, "SELECT pg_relation_size('fs_idx') / 8192")
	free := diskIndex(t, e, "fs", "fs_idx").ix.FreePages()
	if free < 20 {
		t.Fatalf("%d pages free for reuse", free)
	}
	shows := func(s *Session) string {
		t.Helper()
		return one(t, s, "SELECT string_agg(avail || ':' || n, ' ' ORDER BY avail) FROM (SELECT avail, count(*) AS n FROM pg_freespace('fs_idx') GROUP BY avail) c")
	}
	nb, _ := strconv.Atoi(blocks)
	want := "0:" + strconv.Itoa(nb-free) + " 8160:" + strconv.Itoa(free)
	t.Logf("%s blocks, pg_freespace: %s", blocks, want)
	if got := shows(s); got != want {
		t.Fatalf("pg_freespace('fs_idx'): %s, want %s", got, want)
	}
	if got := one(t, s, "SELECT pg_freespace('fs_idx', (SELECT min(blkno) FROM pg_freespace('fs_idx') WHERE avail > 0))"); got != "8160" {
		t.Fatalf("pg_freespace of a free page: %s", got)
	}
	if got := one(t, s, "SELECT pg_relation_size('fs_idx', 'fsm')"); got != "24576" {
		t.Fatalf("FSM fork of %s bytes, want 3 blocks", got)
	}
	mustExec(t, s, "CREATE EXTENSION pageinspect")
	if got := one(t, s, "SELECT fsm_page_contents(get_raw_page('fs_idx', 'fsm', 2)) LIKE '%: 255%'"); got != "true" {
		t.Fatal("get_raw_page of the index's FSM: its bottom page has no page recorded free")
	}
	if got := one(t, s, "SELECT pg_indexes_size('fs') = pg_relation_size('fs_idx') + pg_relation_size('fs_idx', 'fsm')"); got != "true" {
		t.Fatal("pg_indexes_size does not count the index's FSM fork")
	}

	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e = openIndexEngine(t, dir, "disk")
	s = e.NewSession(nil)
	if got := shows(s); got != want {
		t.Fatalf("pg_freespace('fs_idx') after a restart: %s, want %s", got, want)
	}
	mustExec(t, s, "INSERT INTO fs SELECT generate_series(5000, 9000)")
	mustExec(t, s, "SELECT bt_index_check('fs_idx', true)")
	if got := one(t, s, "SELECT pg_relation_size('fs_idx') / 8192"); got != blocks {
		t.Fatalf("the index grew from %s to %s blocks with %d pages recorded free", blocks, got, free)
	}
	left := diskIndex(t, e, "fs", "fs_idx").ix.FreePages()
	if left >= free {
		t.Fatalf("%d pages recorded free after the inserts, %d before", left, free)
	}
	if got := one(t, s, "SELECT count(*) FROM fs WHERE id BETWEEN 5000 AND 9000"); got != "4001" {
		t.Fatalf("rows through the index: %s", got)
	}

	// The map goes with the index's files.
	fsmFile := func(idx string) string {
		t.Helper()
		return filepath.Join(dir, "base", strconv.Itoa(int(diskIndex(t, e, "fs", idx).rel))+"_fsm")
	}
	gone := func(path, what string) {
		t.Helper()
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Fatalf("%s: %s still exists (%v)", what, path, err)
		}
	}
	old := fsmFile("fs_idx")
	if _, err := os.Stat(old); err != nil {
		t.Fatal(err)
	}
	mustExec(t, s, "TRUNCATE fs")
	gone(old, "TRUNCATE")
	if got := one(t, s, "SELECT pg_relation_size('fs_idx', 'fsm')"); got != "0" {
		t.Fatalf("the truncated index has an FSM fork of %s bytes", got)
	}
	mustExec(t, s, "INSERT INTO fs SELECT generate_series(1, 20000)")
	mustExec(t, s, "DELETE FROM fs WHERE id > 1000")
	mustExec(t, s, "VACUUM fs")
	mustExec(t, s, "INSERT INTO fs VALUES (0)")
	mustExec(t, s, "VACUUM fs")
	old = fsmFile("fs_idx")
	if _, err := os.Stat(old); err != nil {
		t.Fatal(err)
	}
	mustExec(t, s, "DROP INDEX fs_idx")
	gone(old, "DROP INDEX")
}

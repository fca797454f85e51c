package executor

import (
	"context"
	"testing"

	"minipg/types"
)

// TestIndexScanPinsReleased: an index scan keeps its last heap block
// pinned between entries; every way a statement can leave a scan (run to
// the end, LIMIT, EXISTS and IN subqueries, a row limit then Close, an
// error in the middle, FOR UPDATE, UPDATE and DELETE through the index)
// must leave no buffer pinned.
func TestIndexScanPinsReleased(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	// The pruner (heap_prune_behind) pins a page for a moment after each
	// UPDATE and DELETE, in the background: off here, so that every pin
	// counted is the statements'.
	mustExec(t, s, "CREATE TABLE p (k int PRIMARY KEY, g int, v text) WITH (heap_prune_behind = off)")
	mustExec(t, s, "CREATE INDEX p_g ON p (g)")
	mustExec(t, s, "INSERT INTO p SELECT i, i % 7, repeat('x', 200) FROM generate_series(1, 2000) i")
	check := func(what string) {
		t.Helper()
		if n := e.Pool().PinnedBuffers(); n != 0 {
			t.Fatalf("%s: %d buffers still pinned", what, n)
		}
	}
	check("load")
	for _, q := range []string{
		"SELECT count(*) FROM p WHERE g = 3",
		"SELECT k FROM p WHERE k BETWEEN 10 AND 900 ORDER BY k LIMIT 5",
		"SELECT k FROM p WHERE k > 100 ORDER BY k DESC LIMIT 1",
		"SELECT max(k) FROM p WHERE g = 2",
		"SELECT count(*) FROM p a WHERE EXISTS (SELECT 1 FROM p b WHERE b.g = a.g AND b.k > 1500) AND a.k < 50",
		"SELECT count(*) FROM p WHERE k IN (SELECT k FROM p WHERE g = 1 AND k < 300)",
		"SELECT count(*) FROM p WHERE g IN (1, 4)",
		"SELECT k FROM p WHERE g = 5 AND k < 100 FOR UPDATE",
		"UPDATE p SET v = 'y' WHERE g = 6 AND k < 400",
		"DELETE FROM p WHERE g = 0 AND k < 200",
	} {
		mustExec(t, s, q)
		check(q)
	}
	// An error in the middle of a scan.
	if _, _, err := exec(t, s, "SELECT 1 / (k - 500) FROM p WHERE k BETWEEN 400 AND 600"); err == nil {
		t.Fatal("division by zero: no error")
	}
	s.Sync()
	check("error")
	// A portal suspended by a row limit holds its pin until it is closed.
	p, err := s.Prepare("SELECT k FROM p WHERE k BETWEEN $1 AND $2", nil)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := s.Bind(p, []types.Datum{int64(1), int64(1000)})
	if err != nil {
		t.Fatal(err)
	}
	if _, done, err := pt.Run(context.Background(), 10, func([]types.Datum) error { return nil }); err != nil || done {
		t.Fatalf("suspended run: done %v, %v", done, err)
	}
	pt.Close()
	s.Sync()
	check("suspended portal closed")
}

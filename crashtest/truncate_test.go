package crashtest

import (
	"context"
	"testing"
)

// TestTruncateCrash: after TRUNCATE (a new relfilenode) and more inserts,
// a crash and WAL replay bring back exactly the rows inserted after the
// TRUNCATE; the old file's records do not resurrect the truncated rows, and
// the old file is gone. A TRUNCATE rolled back inside a transaction block
// keeps the rows across the crash too.
func TestTruncateCrash(t *testing.T) {
	dir := t.TempDir()
	settings := []string{"checkpoint_timeout=1h", "max_wal_size=1GB"}
	s := startServer(t, dir, settings...)
	c := connect(t, s)
	ctx := context.Background()
	exec1(t, c, "CREATE TABLE t (id int PRIMARY KEY, v text)")
	exec1(t, c, "CREATE TABLE k (id int PRIMARY KEY)")
	for i := 1; i <= 500; i++ {
		exec1(t, c, "INSERT INTO t VALUES ($1, 'old')", i)
	}
	exec1(t, c, "INSERT INTO k VALUES (1), (2), (3)")
	exec1(t, c, "CHECKPOINT")
	exec1(t, c, "INSERT INTO t VALUES (5000, 'old after checkpoint')")
	before := baseFiles(t, dir)
	exec1(t, c, "TRUNCATE t")
	exec1(t, c, "INSERT INTO t VALUES (1, 'new'), (2, 'new')")
	exec1(t, c, "BEGIN")
	exec1(t, c, "TRUNCATE k")
	exec1(t, c, "ROLLBACK")
	s.kill()

	s = startServer(t, dir, settings...)
	c = connect(t, s)
	var n, newRows int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if err := c.QueryRow(ctx, "SELECT count(*) FROM t WHERE v = 'new'").Scan(&newRows); err != nil {
		t.Fatal(err)
	}
	if n != 2 || newRows != 2 {
		t.Fatalf("t after the crash: %d rows, %d new; want 2 new rows only", n, newRows)
	}
	if err := c.QueryRow(ctx, "SELECT count(*) FROM k").Scan(&n); err != nil || n != 3 {
		t.Fatalf("k after a rolled-back TRUNCATE and a crash: %d rows, %v; want 3", n, err)
	}
	exec1(t, c, "INSERT INTO t VALUES (3, 'new')") // the primary key index was rebuilt
	after := baseFiles(t, dir)
	gone := 0
	for f := range before {
		if !after[f] {
			gone++
		}
	}
	if gone == 0 {
		t.Fatalf("no file of the truncated table was removed: before %v after %v", before, after)
	}
	s.stop(t)
}

package crashtest

import (
	"context"
	"testing"
)

// TestDropTableCrash: a DROP TABLE whose transaction is still open at a
// crash is undone (the table, its rows and its index are back under their
// names), one that committed before the crash stays done and its files are
// gone; a DROP rolled back before the crash stays undone, and a table
// created by the transaction open at the crash is gone.
func TestDropTableCrash(t *testing.T) {
	dir := t.TempDir()
	settings := []string{"checkpoint_timeout=1h", "max_wal_size=1GB"}
	s := startServer(t, dir, settings...)
	c := connect(t, s)
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE open_drop (id int PRIMARY KEY, v text)",
		"INSERT INTO open_drop SELECT g, 'row ' || g FROM generate_series(1, 300) g",
		"CREATE TABLE done_drop (id int PRIMARY KEY)",
		"INSERT INTO done_drop SELECT generate_series(1, 50)",
		"CREATE TABLE undone_drop (id int PRIMARY KEY)",
		"INSERT INTO undone_drop VALUES (1), (2)",
	} {
		exec1(t, c, q)
	}
	before := baseFiles(t, dir)
	for _, q := range []string{"BEGIN", "DROP TABLE undone_drop", "ROLLBACK", "BEGIN", "DROP TABLE done_drop", "COMMIT"} {
		exec1(t, c, q)
	}
	// Another session drops open_drop and is still in its transaction
	// when the server dies.
	c2 := connect(t, s)
	exec1(t, c2, "BEGIN")
	exec1(t, c2, "DROP TABLE open_drop")
	exec1(t, c2, "CREATE TABLE open_drop (other int)")
	s.kill()

	s = startServer(t, dir, settings...)
	c = connect(t, s)
	count := func(q string) int { t.Helper(); return queryInt(t, c, q) }
	if n := count("SELECT count(*) FROM open_drop WHERE v LIKE 'row %'"); n != 300 {
		t.Fatalf("open_drop after the crash: %d rows, want 300", n)
	}
	if n := count("SELECT count(*) FROM open_drop WHERE id = 17"); n != 1 { // through its index
		t.Fatalf("open_drop's index: %d rows for id 17", n)
	}
	if n := count("SELECT count(*) FROM undone_drop"); n != 2 {
		t.Fatalf("undone_drop: %d rows, want 2", n)
	}
	if n := count("SELECT count(*) FROM pg_class WHERE relname IN ('done_drop', 'done_drop_pkey') OR relname LIKE 'pg_dropped%'"); n != 0 {
		t.Fatalf("%d relations of the committed drop (or hidden ones) remain", n)
	}
	var err error
	if _, err = c.Exec(ctx, "SELECT 1 FROM done_drop"); err == nil {
		t.Fatal("done_drop is back after the crash")
	}
	after := baseFiles(t, dir)
	gone := 0
	for f := range before {
		if !after[f] {
			gone++
		}
	}
	if gone < 2 {
		t.Fatalf("%d files of the dropped table went away, want its heap and index", gone)
	}
	exec1(t, c, "INSERT INTO open_drop VALUES (301, 'after')")
	s.stop(t)
}

package crashtest

import (
	"context"
	"testing"
)

// TestFunctionCrash: SQL functions follow their transaction across a
// crash. A transaction still open at kill -9 had replaced one function,
// dropped another and created a third; after start-up the first has its
// committed body back, the second exists and the third does not.
func TestFunctionCrash(t *testing.T) {
	dir := t.TempDir()
	settings := []string{"checkpoint_timeout=1h", "max_wal_size=1GB"}
	s := startServer(t, dir, settings...)
	c := connect(t, s)
	ctx := context.Background()
	for _, q := range []string{
		"CREATE FUNCTION f_kept() RETURNS int LANGUAGE sql AS 'SELECT 1'",
		"CREATE FUNCTION f_open_drop() RETURNS int LANGUAGE sql AS 'SELECT 2'",
		"CREATE FUNCTION f_done_drop() RETURNS int LANGUAGE sql AS 'SELECT 3'",
		"BEGIN", "DROP FUNCTION f_done_drop()", "COMMIT",
		"BEGIN", "CREATE OR REPLACE FUNCTION f_kept() RETURNS int LANGUAGE sql AS 'SELECT 10'", "COMMIT",
	} {
		exec1(t, c, q)
	}
	c2 := connect(t, s)
	for _, q := range []string{
		"BEGIN",
		"CREATE OR REPLACE FUNCTION f_kept() RETURNS int LANGUAGE sql AS 'SELECT 100'",
		"DROP FUNCTION f_open_drop()",
		"CREATE FUNCTION f_open_new() RETURNS int LANGUAGE sql AS 'SELECT 4'",
	} {
		exec1(t, c2, q)
	}
	s.kill()

	s = startServer(t, dir, settings...)
	c = connect(t, s)
	if n := queryInt(t, c, "SELECT f_kept()"); n != 10 {
		t.Fatalf("f_kept() after the crash: %d, want the committed body's 10", n)
	}
	if n := queryInt(t, c, "SELECT f_open_drop()"); n != 2 {
		t.Fatalf("f_open_drop() after the crash: %d, want 2", n)
	}
	for _, q := range []string{"SELECT f_open_new()", "SELECT f_done_drop()"} {
		if _, err := c.Exec(ctx, q); err == nil {
			t.Fatalf("%s runs after the crash", q)
		}
	}
	if n := queryInt(t, c, "SELECT count(*) FROM pg_proc WHERE prolang = 14"); n != 2 {
		t.Fatalf("%d SQL functions in pg_proc after the crash, want 2", n)
	}
	exec1(t, c, "CREATE FUNCTION f_open_new() RETURNS int LANGUAGE sql AS 'SELECT 5'")
	if n := queryInt(t, c, "SELECT f_open_new()"); n != 5 {
		t.Fatalf("f_open_new() created again: %d, want 5", n)
	}
	s.stop(t)
}

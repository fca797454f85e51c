package crashtest

import (
	"context"
	"testing"
)

// TestViewCrash: views follow their transactions across a crash. A view
// created by a transaction open at the crash is gone; one dropped by an
// open transaction is back; one dropped by a committed transaction stays
// dropped; committed views keep their definitions.
func TestViewCrash(t *testing.T) {
	dir := t.TempDir()
	settings := []string{"checkpoint_timeout=1h", "max_wal_size=1GB"}
	s := startServer(t, dir, settings...)
	c := connect(t, s)
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE vbase (id int PRIMARY KEY, v text)",
		"INSERT INTO vbase SELECT g, 'row ' || g FROM generate_series(1, 100) g",
		"CREATE VIEW v_kept AS SELECT id FROM vbase WHERE id % 10 = 0",
		"CREATE VIEW v_open_drop AS SELECT count(*) AS n FROM vbase",
		"CREATE VIEW v_done_drop AS SELECT 1 AS one",
		"BEGIN", "DROP VIEW v_done_drop", "COMMIT",
	} {
		exec1(t, c, q)
	}
	c2 := connect(t, s)
	for _, q := range []string{
		"BEGIN",
		"DROP VIEW v_open_drop",
		"CREATE VIEW v_open_drop AS SELECT 'other' AS what",
		"CREATE VIEW v_open_new AS SELECT 2 AS two",
	} {
		exec1(t, c2, q)
	}
	s.kill()

	s = startServer(t, dir, settings...)
	c = connect(t, s)
	if n := queryInt(t, c, "SELECT count(*) FROM v_kept"); n != 10 {
		t.Fatalf("v_kept after the crash: %d rows, want 10", n)
	}
	if n := queryInt(t, c, "SELECT n FROM v_open_drop"); n != 100 {
		t.Fatalf("v_open_drop after the crash: %d, want the view as it was before the open drop (100)", n)
	}
	for _, name := range []string{"v_open_new", "v_done_drop"} {
		if _, err := c.Exec(ctx, "SELECT * FROM "+name); err == nil {
			t.Fatalf("%s exists after the crash", name)
		}
	}
	if n := queryInt(t, c, "SELECT count(*) FROM pg_class WHERE relkind = 'v'"); n != 2 {
		t.Fatalf("%d views in pg_class after the crash, want 2", n)
	}
	exec1(t, c, "CREATE VIEW v_open_new AS SELECT 3 AS three")
	exec1(t, c, "DROP TABLE vbase CASCADE")
	if n := queryInt(t, c, "SELECT count(*) FROM pg_class WHERE relkind = 'v'"); n != 1 {
		t.Fatalf("%d views after DROP TABLE ... CASCADE, want 1", n)
	}
	s.stop(t)
}

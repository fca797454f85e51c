package crashtest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestConstraintCrash: constraints added and dropped by ALTER TABLE since
// the last checkpoint come back after a crash as they were acknowledged:
// the primary key and unique constraint still enforced over rows that only
// the WAL had, the dropped key gone with its columns still NOT NULL. It
// runs with each index storage, whatever MINIPG_TEST_INDEX_STORAGE says:
// disk indexes are redone from their own WAL records, in-memory ones
// rebuilt from the recovered heap.
func TestConstraintCrash(t *testing.T) {
	for _, storage := range []string{"disk", "memory"} {
		t.Run(storage, func(t *testing.T) { constraintCrash(t, storage) })
	}
}

func constraintCrash(t *testing.T, storage string) {
	dir := t.TempDir()
	settings := []string{"checkpoint_timeout=1h", "max_wal_size=1GB", "index_storage=" + storage}
	s := startServer(t, dir, settings...)
	c := connect(t, s)
	exec1(t, c, "CREATE TABLE k (id int, v text, u int)")
	exec1(t, c, "CREATE TABLE d (id int, v text)")
	for i := 0; i < 300; i++ {
		exec1(t, c, "INSERT INTO k VALUES ($1, $2, $3)", i, strings.Repeat("k", 100), i)
		exec1(t, c, "INSERT INTO d VALUES ($1, $2)", i, "d")
	}
	exec1(t, c, "ALTER TABLE k ADD CONSTRAINT k_pkey PRIMARY KEY (id), ADD UNIQUE (u)")
	exec1(t, c, "ALTER TABLE d ADD PRIMARY KEY (id)")
	for i := 300; i < 400; i++ {
		exec1(t, c, "INSERT INTO k VALUES ($1, $2, $3)", i, strings.Repeat("k", 100), i)
	}
	exec1(t, c, "ALTER TABLE d DROP CONSTRAINT d_pkey")
	s.kill()

	s = startServer(t, dir, settings...)
	if !strings.Contains(s.log.String(), "redo starts") {
		t.Fatalf("no replay after the crash:\n%s", s.log)
	}
	c = connect(t, s)
	ctx := context.Background()
	var got string
	if err := c.QueryRow(ctx, "SHOW index_storage").Scan(&got); err != nil || got != storage {
		t.Fatalf("SHOW index_storage: %q, %v; want %s", got, err, storage)
	}
	var n int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM k").Scan(&n); err != nil || n != 400 {
		t.Fatalf("k after recovery: %d rows, %v", n, err)
	}
	if err := c.QueryRow(ctx, "SELECT u FROM k WHERE id = $1", 350).Scan(&n); err != nil || n != 350 {
		t.Fatalf("probe of k_pkey after recovery: %d, %v", n, err)
	}
	wantCode := func(q, code string) {
		t.Helper()
		_, err := c.Exec(ctx, q)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != code {
			t.Errorf("%s: %v, want %s", q, err, code)
		}
	}
	wantCode("INSERT INTO k VALUES (350, 'dup', 1000)", "23505")
	wantCode("INSERT INTO k VALUES (1000, 'dup', 10)", "23505")
	wantCode("INSERT INTO k VALUES (NULL, 'null', 1001)", "23502")
	wantCode("DROP INDEX k_pkey", "2BP01")
	wantCode("ALTER TABLE k ADD PRIMARY KEY (u)", "42P16")
	exec1(t, c, "INSERT INTO d VALUES (1, 'dup')") // the key is gone
	wantCode("INSERT INTO d VALUES (NULL, 'null')", "23502")
	exec1(t, c, "DELETE FROM d WHERE v = 'dup'")
	exec1(t, c, "ALTER TABLE d ADD PRIMARY KEY (id)") // the name is free again
	s.stop(t)
}

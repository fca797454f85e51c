package crashtest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestAlterTypeCrash: a table rewrite (ALTER COLUMN ... TYPE) killed at
// any moment leaves either the old table or the new one, whole: the rows
// all there, of one type, the index answering, the heap checks passing and
// no file the catalog does not name. One acknowledged before the crash is
// the new table, rebuilt from the WAL (the checkpoint before it does not
// cover the new files), with the rows written after it.
func TestAlterTypeCrash(t *testing.T) {
	t.Run("acknowledged", func(t *testing.T) {
		dir := t.TempDir()
		settings := []string{"checkpoint_timeout=1h", "max_wal_size=1GB"}
		s := startServer(t, dir, settings...)
		c := connect(t, s)
		exec1(t, c, "CREATE TABLE at (id int PRIMARY KEY, v text, n int)")
		exec1(t, c, "CREATE INDEX at_n ON at (n)")
		exec1(t, c, "INSERT INTO at SELECT g, 'v' || g, g % 100 FROM generate_series(1, 5000) g")
		exec1(t, c, "CHECKPOINT")
		exec1(t, c, "DELETE FROM at WHERE id % 10 = 0")
		exec1(t, c, "ALTER TABLE at ALTER COLUMN n TYPE numeric(8,2) USING n / 4.0, ALTER COLUMN id TYPE bigint")
		exec1(t, c, "INSERT INTO at VALUES (5001, 'after', 1.25)")
		exec1(t, c, "ALTER TABLE at ALTER COLUMN v TYPE varchar") // no rewrite
		s.kill()

		s = startServer(t, dir, settings...)
		c = connect(t, s)
		checkRewritten(t, c, dir, "at", "bigint", 4501, 12502500-1252500+5001)
		var n string
		if err := c.QueryRow(context.Background(), "SELECT string_agg(id::text, ',' ORDER BY id) FROM at WHERE n = 1.25").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if want := "5,105,205,305,405,505,605,705,805,905,1005,1105,1205,1305,1405,1505,1605,1705,1805,1905,2005,2105,2205,2305,2405,2505,2605,2705,2805,2905,3005,3105,3205,3305,3405,3505,3605,3705,3805,3905,4005,4105,4205,4305,4405,4505,4605,4705,4805,4905,5001"; n != want {
			t.Fatalf("rows with n = 1.25 after recovery: %s", n)
		}
		var typ string
		if err := c.QueryRow(context.Background(), "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'at'::regclass AND attname = 'v'").Scan(&typ); err != nil || typ != "character varying" {
			t.Fatalf("type of v after recovery: %q, %v", typ, err)
		}
		s.stop(t)
	})

	// Out of disk space for the new file: the statement fails, the table
	// is as it was and the new files are gone; the server goes on.
	t.Run("disk full", func(t *testing.T) {
		dir := t.TempDir()
		env, arm, disarm := faultEnv(t, "data-extend=ENOSPC")
		s := startServerEnv(t, dir, env)
		c := connect(t, s)
		fillBig(t, c, "nospace", 20000)
		arm()
		_, err := c.Exec(context.Background(), "ALTER TABLE nospace ALTER COLUMN id TYPE bigint")
		disarm()
		if err == nil || !strings.Contains(err.Error(), "could not extend") {
			t.Fatalf("ALTER with the disk full: %v, want could not extend", err)
		}
		checkRewritten(t, c, dir, "nospace", "integer", 20000, 20000*20001/2)
		exec1(t, c, "ALTER TABLE nospace ALTER COLUMN id TYPE bigint")
		checkRewritten(t, c, dir, "nospace", "bigint", 20000, 20000*20001/2)
		s.stop(t)
	})

	// The WAL failing in the middle of the rewrite is a PANIC: the server
	// dies there, and comes back with the old table.
	t.Run("panic", func(t *testing.T) {
		dir := t.TempDir()
		env, arm, _ := faultEnv(t, "wal-fsync=EIO")
		s := startServerEnv(t, dir, env)
		c := connect(t, s)
		fillBig(t, c, "pan", 20000)
		arm()
		if _, err := c.Exec(context.Background(), "ALTER TABLE pan ALTER COLUMN id TYPE bigint"); err == nil {
			t.Fatal("ALTER acknowledged with the WAL failing")
		}
		select {
		case <-s.done:
		case <-time.After(30 * time.Second):
			t.Fatalf("server still running after a failed WAL fsync\n%s", s.log)
		}
		s = startServer(t, dir)
		c = connect(t, s)
		checkRewritten(t, c, dir, "pan", "integer", 20000, 20000*20001/2)
		s.stop(t)
	})

	// Killed while the rewrite runs (or before it starts, or after it
	// ends: whichever, the table is whole).
	dir := t.TempDir()
	settings := []string{"checkpoint_timeout=1h", "max_wal_size=1GB"}
	const rows = 100000
	for cycle, delay := range []time.Duration{20 * time.Millisecond, 700 * time.Millisecond} {
		s := startServer(t, dir, settings...)
		c := connect(t, s)
		table := fmt.Sprintf("big%d", cycle)
		fillBig(t, c, table, rows)
		alter := connect(t, s)
		done := make(chan error, 1)
		go func() {
			_, err := alter.Exec(context.Background(), "ALTER TABLE "+table+" ALTER COLUMN id TYPE bigint")
			done <- err
		}()
		time.Sleep(delay)
		s.kill()
		acked := <-done == nil

		s = startServer(t, dir, settings...)
		c = connect(t, s)
		var got string
		if err := c.QueryRow(context.Background(), "SELECT pg_typeof(id)::text FROM "+table+" LIMIT 1").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if acked && got != "bigint" {
			t.Fatalf("cycle %d: id is %s after recovery, but the ALTER was acknowledged", cycle, got)
		}
		t.Logf("cycle %d: killed after %v, the table is %s", cycle, delay, got)
		checkRewritten(t, c, dir, table, got, rows, rows*(rows+1)/2)
		s.stop(t)
	}
}

// fillBig creates table (id int PRIMARY KEY, v text) with rows 1..n.
func fillBig(t *testing.T, c *pgx.Conn, table string, n int) {
	t.Helper()
	exec1(t, c, "CREATE TABLE "+table+" (id int PRIMARY KEY, v text)")
	exec1(t, c, "INSERT INTO "+table+" SELECT g, 'value ' || g FROM generate_series(1, $1) g", n)
}

// checkRewritten checks table after recovery: id of type typ, n rows whose
// ids sum to sum, its primary key answering probes, and base/ holding the
// file of every table and no file of a relation the catalog does not have.
func checkRewritten(t *testing.T, c *pgx.Conn, dir, table, typ string, n, sum int) {
	t.Helper()
	ctx := context.Background()
	var got string
	var count, total int
	if err := c.QueryRow(ctx, "SELECT pg_typeof(min(id))::text, count(*), sum(id)::bigint FROM "+table).Scan(&got, &count, &total); err != nil {
		t.Fatal(err)
	}
	if got != typ || count != n || total != sum {
		t.Fatalf("%s after recovery: id %s, %d rows summing to %d; want %s, %d, %d", table, got, count, total, typ, n, sum)
	}
	exec1(t, c, "SET enable_seqscan = off")
	if k := queryInt(t, c, "SELECT count(*) FROM "+table+" WHERE id = 1 OR id = 4999"); k != 2 {
		t.Fatalf("%s: the primary key finds %d of 2 rows after recovery", table, k)
	}
	exec1(t, c, "RESET enable_seqscan")
	rows, err := c.Query(ctx, "SELECT relkind::text, pg_relation_filenode(oid)::text FROM pg_class WHERE relkind IN ('r', 'i')")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	var tables []string
	for rows.Next() {
		var kind, node string
		if err := rows.Scan(&kind, &node); err != nil {
			t.Fatal(err)
		}
		known[node] = true
		if kind == "r" {
			tables = append(tables, node)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	files := baseFiles(t, dir)
	for _, node := range tables {
		if !files[node] {
			t.Errorf("no file %s for a table after recovery", node)
		}
	}
	for f := range files {
		if node, _, _ := strings.Cut(f, "_"); !known[node] {
			t.Errorf("file %s of no relation after recovery", f)
		}
	}
}

package crashtest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Faults of the disk, injected in the child server through internal/fault
// (MINIPG_FAULT names the points, MINIPG_FAULT_ARM a file whose existence
// arms them).

func faultEnv(t *testing.T, spec string) (env []string, arm, disarm func()) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "arm")
	return []string{"MINIPG_FAULT=" + spec, "MINIPG_FAULT_ARM=" + path},
		func() {
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		func() {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}
}

// checkRows checks that table tbl holds exactly the ids in want.
func checkRows(t *testing.T, c *pgx.Conn, tbl string, want map[int]bool) {
	t.Helper()
	rows, err := c.Query(context.Background(), "SELECT id FROM "+tbl)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]bool{}
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		got[id] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for id := range want {
		if !got[id] {
			t.Errorf("%s: acknowledged row %d is missing", tbl, id)
		}
	}
	for id := range got {
		if !want[id] {
			t.Errorf("%s: row %d was never acknowledged", tbl, id)
		}
	}
}

// TestDataDiskFull: with no space left for relation files, the statement
// that must extend a table or write a page out fails with an error naming
// the file and the cause; the connection and server go on, reads work,
// CHECKPOINT fails without harm; once space is back everything works, and
// after a crash and recovery the acknowledged rows, and only they, are
// there and the heaps check out.
func TestDataDiskFull(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	env, arm, disarm := faultEnv(t, "data-extend=ENOSPC,data-write=ENOSPC")
	settings := []string{"checkpoint_timeout=1h", "max_wal_size=1GB"}
	s := startServerEnv(t, dir, env, settings...)
	c := connect(t, s)
	exec1(t, c, "CREATE TABLE f (id int PRIMARY KEY, payload text)")
	acked := map[int]bool{}
	insert := func(id int) error {
		_, err := c.Exec(ctx, "INSERT INTO f VALUES ($1, $2)", id, strings.Repeat("f", 700))
		if err == nil {
			acked[id] = true
		}
		return err
	}
	id := 1
	for ; id <= 100; id++ {
		if err := insert(id); err != nil {
			t.Fatal(err)
		}
	}
	arm()
	var failed error
	for ; id <= 5000 && failed == nil; id++ {
		failed = insert(id)
	}
	var pe *pgconn.PgError
	if !errors.As(failed, &pe) || !strings.Contains(pe.Detail, "no space left on device") ||
		!(strings.Contains(pe.Message, "could not extend file") || strings.Contains(pe.Message, "could not write block")) {
		t.Fatalf("inserting with the disk full: %v (%+v)", failed, pe)
	}
	t.Logf("with the disk full after %d rows: %s %s (%s)", len(acked), pe.Code, pe.Message, pe.Detail)
	if _, err := c.Exec(ctx, "CHECKPOINT"); err == nil {
		t.Fatal("CHECKPOINT wrote its pages with the disk full")
	}
	var n int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM f").Scan(&n); err != nil || n != len(acked) {
		t.Fatalf("reading with the disk full: %d rows (want %d), %v", n, len(acked), err)
	}
	disarm()
	for end := id + 300; id < end; id++ {
		if err := insert(id); err != nil {
			t.Fatalf("space back, row %d: %v", id, err)
		}
	}
	exec1(t, c, "CHECKPOINT")
	arm()
	for end := id + 1000; id < end; id++ { // fail again, then crash
		if insert(id) != nil {
			break
		}
	}
	s.kill()
	s = startServer(t, dir, settings...)
	if !strings.Contains(s.log.String(), "heap check passed") {
		t.Fatalf("no heap check:\n%s", s.log)
	}
	checkRows(t, connect(t, s), "f", acked)
	s.stop(t)
}

// walPanic arms spec, makes a commit meet it and checks PostgreSQL's
// behaviour: the committing client gets an error, the server logs PANIC
// and exits by itself with status 3 (no retry, no shutdown checkpoint),
// and the restarted server has every acknowledged row; the failed commit's
// row is there only if maybeThere.
func walPanic(t *testing.T, spec string, maybeThere bool) {
	ctx := context.Background()
	dir := t.TempDir()
	env, arm, _ := faultEnv(t, spec)
	s := startServerEnv(t, dir, env)
	c := connect(t, s)
	exec1(t, c, "CREATE TABLE w (id int PRIMARY KEY, v text)")
	acked := map[int]bool{}
	for id := 1; id <= 50; id++ {
		exec1(t, c, "INSERT INTO w VALUES ($1, 'before')", id)
		acked[id] = true
	}
	arm()
	_, err := c.Exec(ctx, "INSERT INTO w VALUES (51, 'failed')")
	if err == nil {
		t.Fatal("commit acknowledged with the WAL failing")
	}
	t.Logf("client got: %v", err)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("server still running after a failed WAL %s\n%s", spec, s.log)
	}
	var ee *exec.ExitError
	if !errors.As(s.err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("server exit: %v\n%s", s.err, s.log)
	}
	if !strings.Contains(s.log.String(), "PANIC") {
		t.Fatalf("no PANIC in the log:\n%s", s.log)
	}
	if strings.Contains(s.log.String(), "shutting down") || strings.Contains(s.log.String(), "database system is shut down") {
		t.Fatalf("a clean shutdown (Engine.Close flushes and checkpoints) after the PANIC:\n%s", s.log)
	}
	s = startServer(t, dir)
	if !strings.Contains(s.log.String(), "heap check passed") {
		t.Fatalf("no heap check:\n%s", s.log)
	}
	c = connect(t, s)
	if maybeThere {
		var n int
		if err := c.QueryRow(ctx, "SELECT count(*) FROM w WHERE id = 51").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			acked[51] = true
		}
	}
	checkRows(t, c, "w", acked)
	exec1(t, c, "INSERT INTO w VALUES (52, 'after')")
	s.stop(t)
}

// TestWALDiskFull: no space for a WAL write is a PANIC, as in PostgreSQL
// (XLogWrite); the record never reached the file, so the failed commit is
// not there after recovery.
func TestWALDiskFull(t *testing.T) { walPanic(t, "wal-write=ENOSPC", false) }

// TestWALFsyncFailure: a failed fsync of the WAL is a PANIC, never retried
// (PostgreSQL since 12: the kernel may have dropped the dirty pages and a
// second fsync would report success). The written record may survive in
// the page cache, so the failed commit may or may not be there.
func TestWALFsyncFailure(t *testing.T) { walPanic(t, "wal-fsync=EIO", true) }

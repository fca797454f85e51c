package pgxtest

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"minipg/internal/testutil"
)

// A session waiting in pg_advisory_lock goes on when the holder unlocks or
// its session ends, and a cancelled wait leaves the lock free; against
// minipg and, when one is reachable, PostgreSQL.
func TestAdvisoryLockWaits(t *testing.T) {
	runAdvisoryLockWaits(t, startServer(t))
}

func TestAdvisoryLockWaitsPostgres(t *testing.T) {
	runAdvisoryLockWaits(t, testutil.ReferencePostgres(t, "MINIPG_PG_DSN"))
}

func runAdvisoryLockWaits(t *testing.T, dsn string) {
	ctx := testCtx(t)
	holder := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	waiter := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	mustExec(t, holder, "select pg_advisory_lock(4242)")

	// A cancelled wait.
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	_, err := waiter.Exec(short, "select pg_advisory_lock(4242)")
	cancel()
	if err == nil {
		t.Fatal("pg_advisory_lock of a held lock did not wait")
	}
	waiter = connect(t, dsn, pgx.QueryExecModeCacheStatement) // a cancelled pgx connection is closed

	// A wait the holder's unlock ends.
	done := make(chan error, 1)
	go func() {
		_, err := waiter.Exec(context.Background(), "select pg_advisory_lock($1)", int64(4242))
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the waiter did not wait: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	// pg_locks shows the holder's lock granted and the waiter's not.
	var granted, waiting int
	var since *time.Time
	err = holder.QueryRow(ctx, `select count(*) filter (where granted), count(*) filter (where not granted),
		max(waitstart) from pg_locks where locktype = 'advisory' and classid = 0 and objid = 4242 and objsubid = 1
		and mode = 'ExclusiveLock'`).Scan(&granted, &waiting, &since)
	if err != nil || granted != 1 || waiting != 1 || since == nil {
		t.Fatalf("pg_locks: %d granted, %d waiting, waiting since %v (%v); want 1, 1 and a time", granted, waiting, since, err)
	}
	mustExec(t, holder, "select pg_advisory_unlock(4242)")
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// The waiter holds it now; a third session waits until the waiter's
	// session ends.
	third := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	go func() {
		_, err := third.Exec(context.Background(), "select pg_advisory_lock(4242)")
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the third session did not wait: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	if err := waiter.Close(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the lock was not released when its session ended")
	}
	var ok bool
	if err := holder.QueryRow(ctx, "select pg_try_advisory_lock(4242)").Scan(&ok); err != nil || ok {
		t.Fatalf("pg_try_advisory_lock of a lock the third session holds: %v %v", ok, err)
	}
}

// Two sessions each waiting for the other's advisory lock: one of them
// gets 40P01, and once it lets its lock go the other goes on. PostgreSQL
// picks the one whose deadlock_timeout passes first, minipg the one whose
// wait would close the cycle; either passes.
func TestAdvisoryLockDeadlock(t *testing.T) {
	runAdvisoryLockDeadlock(t, startServer(t))
}

func TestAdvisoryLockDeadlockPostgres(t *testing.T) {
	runAdvisoryLockDeadlock(t, testutil.ReferencePostgres(t, "MINIPG_PG_DSN"))
}

func runAdvisoryLockDeadlock(t *testing.T, dsn string) {
	a := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	b := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	mustExec(t, a, "select pg_advisory_lock(7001)")
	mustExec(t, b, "select pg_advisory_lock(7002)")
	type result struct {
		who string
		err error
	}
	done := make(chan result, 2)
	go func() {
		_, err := a.Exec(context.Background(), "select pg_advisory_lock(7002)")
		done <- result{"a", err}
	}()
	time.Sleep(100 * time.Millisecond)
	go func() {
		_, err := b.Exec(context.Background(), "select pg_advisory_lock(7001)")
		done <- result{"b", err}
	}()
	var first result
	select {
	case first = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("no deadlock was detected")
	}
	if pgCode(first.err) != "40P01" {
		t.Fatalf("%s: %v, want 40P01", first.who, first.err)
	}
	victim := a
	if first.who == "b" {
		victim = b
	}
	mustExec(t, victim, "select pg_advisory_unlock_all()")
	select {
	case second := <-done:
		if second.err != nil {
			t.Fatalf("%s after the other's deadlock: %v", second.who, second.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the other session did not get its lock")
	}
}

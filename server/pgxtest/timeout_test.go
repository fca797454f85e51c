package pgxtest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

func pgErrorOf(err error) *pgconn.PgError {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe
	}
	return nil
}

// holdRowLock opens a transaction on a fresh connection that updates row
// id 1 of table tt and keeps it open until the test ends.
func holdRowLock(t *testing.T, dsn string) {
	t.Helper()
	holder := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	mustExec(t, holder, "begin")
	mustExec(t, holder, "update tt set v = 'held' where id = 1")
	t.Cleanup(func() { _, _ = holder.Exec(context.Background(), "rollback") })
}

// TestStatementAndLockTimeout: a statement waiting for a row lock ends at
// statement_timeout with 57014 or at lock_timeout with 55P03, whichever
// comes first, in both protocols; the session goes on.
func TestStatementAndLockTimeout(t *testing.T) {
	dsn := startServer(t)
	setup := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	mustExec(t, setup, "create table tt (id int primary key, v text)")
	mustExec(t, setup, "insert into tt values (1, 'a'), (2, 'b')")
	holdRowLock(t, dsn)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		for _, tc := range []struct {
			set           []string
			code, message string
		}{
			{[]string{"set statement_timeout = '200ms'"}, "57014", "canceling statement due to statement timeout"},
			{[]string{"set lock_timeout = 200"}, "55P03", "canceling statement due to lock timeout"},
			{[]string{"set statement_timeout = '10s'", "set lock_timeout = '150ms'"}, "55P03", "canceling statement due to lock timeout"},
			{[]string{"set statement_timeout = '150ms'", "set lock_timeout = '10s'"}, "57014", "canceling statement due to statement timeout"},
		} {
			ctx := testCtx(t)
			c := connect(t, dsn, mode)
			for _, s := range tc.set {
				mustExec(t, c, s)
			}
			start := time.Now()
			_, err := c.Exec(ctx, "update tt set v = 'x' where id = 1")
			took := time.Since(start)
			pe := pgErrorOf(err)
			if pe == nil || pe.Code != tc.code || pe.Message != tc.message || pe.Severity != "ERROR" {
				t.Fatalf("%v %v: %v, want %s %s", mode, tc.set, err, tc.code, tc.message)
			}
			if took < 100*time.Millisecond || took > 5*time.Second {
				t.Fatalf("%v %v: gave up after %v", mode, tc.set, took)
			}
			// The session survives; statements that need no lock run.
			var v string
			if err := c.QueryRow(ctx, "select v from tt where id = 2").Scan(&v); err != nil || (v != "b" && v != "c") {
				t.Fatalf("%v after timeout: %q %v", mode, v, err)
			}
			mustExec(t, c, "update tt set v = 'c' where id = 2")
		}
	}
	// In a transaction block the timeout fails the transaction.
	ctx := testCtx(t)
	c := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	mustExec(t, c, "set statement_timeout = 100")
	mustExec(t, c, "begin")
	if _, err := c.Exec(ctx, "update tt set v = 'x' where id = 1"); pgErrorOf(err) == nil || pgErrorOf(err).Code != "57014" {
		t.Fatalf("in a block: %v", err)
	}
	if _, err := c.Exec(ctx, "select 1"); pgErrorOf(err) == nil || pgErrorOf(err).Code != "25P02" {
		t.Fatalf("after the timeout in a block: %v", err)
	}
	mustExec(t, c, "rollback")
	// A statement busy computing is cut too.
	mustExec(t, c, "create table big (n int)")
	rows := make([][]any, 1000)
	for i := range rows {
		rows[i] = []any{int32(i)}
	}
	if _, err := c.CopyFrom(ctx, pgx.Identifier{"big"}, []string{"n"}, pgx.CopyFromRows(rows)); err != nil {
		t.Fatal(err)
	}
	mustExec(t, c, "set statement_timeout = '300ms'")
	start := time.Now()
	_, err := c.Exec(ctx, "select count(*) from big a, big b, big c where a.n + b.n + c.n = -1")
	if pe := pgErrorOf(err); pe == nil || pe.Code != "57014" || pe.Message != "canceling statement due to statement timeout" {
		t.Fatalf("three-way join: %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("three-way join cut after %v", took)
	}
	// 0: no timeout, and a statement that needs no lock is not cut.
	mustExec(t, c, "set statement_timeout = 0")
	mustExec(t, c, "select count(*) from tt")
}

// TestIdleInTransactionTimeout: a session idle inside a transaction block
// longer than idle_in_transaction_session_timeout is ended with FATAL
// 25P03, and its transaction rolled back; idle outside a block is fine.
func TestIdleInTransactionTimeout(t *testing.T) {
	dsn := startServer(t)
	ctx := testCtx(t)
	setup := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	mustExec(t, setup, "create table it (id int primary key)")

	idle := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	mustExec(t, idle, "set idle_in_transaction_session_timeout = '300ms'")
	time.Sleep(500 * time.Millisecond) // not in a block: nothing happens
	mustExec(t, idle, "begin")
	mustExec(t, idle, "insert into it values (1)")
	start := time.Now()
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	// pgconn turns the ErrorResponse into an error.
	_, err := idle.PgConn().ReceiveMessage(rctx)
	pe := pgErrorOf(err)
	if pe == nil || pe.Severity != "FATAL" || pe.Code != "25P03" || pe.Message != "terminating connection due to idle-in-transaction timeout" {
		t.Fatalf("got %v", err)
	}
	if took := time.Since(start); took < 200*time.Millisecond {
		t.Fatalf("ended after %v", took)
	}
	if _, err := idle.PgConn().ReceiveMessage(rctx); err == nil {
		t.Fatal("connection still open")
	}
	var n int
	if err := setup.QueryRow(ctx, "select count(*) from it").Scan(&n); err != nil || n != 0 {
		t.Fatalf("the idle transaction's row: %d %v", n, err)
	}
	// A failed block counts as in a transaction too; a short pause does not.
	failed := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	mustExec(t, failed, "set idle_in_transaction_session_timeout = 400")
	mustExec(t, failed, "begin")
	time.Sleep(50 * time.Millisecond)
	if _, err := failed.Exec(ctx, "select 1/0"); pgErrorOf(err) == nil || pgErrorOf(err).Code != "22012" {
		t.Fatalf("1/0: %v", err)
	}
	if _, err := failed.PgConn().ReceiveMessage(rctx); pgErrorOf(err) == nil || pgErrorOf(err).Code != "25P03" {
		t.Fatalf("failed block: %v", err)
	}
}

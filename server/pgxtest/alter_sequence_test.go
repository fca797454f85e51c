package pgxtest

import (
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestAlterSequenceRollbackShared: another session's nextval between an
// ALTER SEQUENCE and its ROLLBACK may use the new parameters (minipg's
// DDL is not isolated), but the rollback never makes a value come out
// twice.
func TestAlterSequenceRollbackShared(t *testing.T) {
	dsn := startServer(t)
	a := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	b := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	seen := map[int64]bool{}
	next := func(c *pgx.Conn) {
		t.Helper()
		var v int64
		if err := c.QueryRow(ctx, "select nextval('shared_seq')").Scan(&v); err != nil {
			t.Fatal(err)
		}
		if seen[v] {
			t.Fatalf("nextval gave %d twice", v)
		}
		seen[v] = true
	}
	if _, err := a.Exec(ctx, "create sequence shared_seq"); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		next(b)
	}
	for _, q := range []string{"begin", "alter sequence shared_seq increment by 10"} {
		if _, err := a.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		next(b)
	}
	if _, err := a.Exec(ctx, "rollback"); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		next(b)
		next(a)
	}
	var incr int64
	if err := a.QueryRow(ctx, "select seqincrement from pg_sequence where seqrelid = 'shared_seq'::regclass").Scan(&incr); err != nil || incr != 1 {
		t.Fatalf("increment after the rollback: %d, %v; want 1", incr, err)
	}
}

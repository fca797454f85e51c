package pgxtest

import (
	"errors"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"minipg/internal/testutil"
)

// Savepoints seen from another session: a row a subtransaction changed is
// waited for until the subtransaction is rolled back (not until its
// transaction ends), or until the transaction ends if it was released;
// rows of a released subtransaction stay invisible to others until the
// commit. Run against minipg and, when one is reachable, PostgreSQL 15.

var savepointCases = []waitCase{
	{
		name:   "update waits for a subtransaction rolled back",
		holder: []string{"savepoint a", "update spc_t set v = 'holder' where id = 1"},
		waiter: "update spc_t set v = v || ' waiter' where id = 1",
		end:    "rollback to a",
		tag:    "UPDATE 1",
		want:   []string{"1 one waiter", "2 two"},
	},
	{
		name:   "update waits for a released subtransaction until the commit",
		holder: []string{"savepoint a", "update spc_t set v = 'holder' where id = 1", "release a"},
		waiter: "update spc_t set v = v || ' waiter' where id = 1",
		end:    "commit",
		tag:    "UPDATE 1",
		want:   []string{"1 holder waiter", "2 two"},
	},
	{
		name:   "unique insert waits for a subtransaction rolled back",
		holder: []string{"savepoint a", "insert into spc_t values (3, 'holder')"},
		waiter: "insert into spc_t values (3, 'waiter')",
		end:    "rollback to a",
		tag:    "INSERT 0 1",
		want:   []string{"1 one", "2 two", "3 waiter"},
	},
	{
		name:   "upsert waits for a subtransaction rolled back",
		holder: []string{"savepoint a", "insert into spc_t values (3, 'holder')"},
		waiter: "insert into spc_t values (3, 'waiter') on conflict (id) do update set v = 'conflict'",
		end:    "rollback to a",
		tag:    "INSERT 0 1",
		want:   []string{"1 one", "2 two", "3 waiter"},
	},
	{
		name:   "upsert waits for a released subtransaction's insert until the commit",
		holder: []string{"savepoint a", "insert into spc_t values (3, 'holder')", "release a"},
		waiter: "insert into spc_t values (3, 'waiter') on conflict (id) do update set v = spc_t.v || ' conflict'",
		end:    "commit",
		tag:    "INSERT 0 1",
		want:   []string{"1 one", "2 two", "3 holder conflict"},
	},
	{
		name:   "row lock of a subtransaction rolled back",
		holder: []string{"update spc_t set v = 'top' where id = 2", "savepoint a", "select * from spc_t where id = 1 for update"},
		waiter: "delete from spc_t where id = 1",
		end:    "rollback to a",
		tag:    "DELETE 1",
		want:   []string{"2 top"},
	},
}

func TestSavepointConcurrency(t *testing.T) {
	runWaitCases(t, startServer(t), "spc_t", savepointCases)
}

func TestSavepointConcurrencyPostgres(t *testing.T) {
	runWaitCases(t, testutil.ReferencePostgres(t, "MINIPG_PG_DSN", "drop table if exists spc_t"), "spc_t", savepointCases)
}

// pgx's nested transactions are savepoints: Begin inside a transaction
// sets one, Rollback of the nested transaction rolls back to it, Commit
// releases it. A failed statement in a nested transaction leaves the outer
// one usable once the nested one is rolled back. Others see none of it
// before the outer commit.
func TestSavepointNestedPgx(t *testing.T) {
	for _, target := range []struct{ name, dsn string }{{"minipg", ""}, {"postgres", "pg"}} {
		t.Run(target.name, func(t *testing.T) {
			var dsn string
			if target.dsn == "" {
				dsn = startServer(t)
			} else {
				dsn = testutil.ReferencePostgres(t, "MINIPG_PG_DSN", "drop table if exists spn_t")
			}
			for _, mode := range modes {
				conn := connect(t, dsn, mode)
				other := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
				ctx := testCtx(t)
				mustExec(t, conn, "create table spn_t (id integer primary key, v text)")
				outer, err := conn.Begin(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := outer.Exec(ctx, "insert into spn_t values ($1, $2)", 1, "outer"); err != nil {
					t.Fatal(err)
				}
				kept, err := outer.Begin(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := kept.Exec(ctx, "insert into spn_t values ($1, $2)", 2, "kept"); err != nil {
					t.Fatal(err)
				}
				if err := kept.Commit(ctx); err != nil {
					t.Fatal(err)
				}
				failed, err := outer.Begin(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := failed.Exec(ctx, "insert into spn_t values ($1, $2)", 3, "rolled back"); err != nil {
					t.Fatal(err)
				}
				_, err = failed.Exec(ctx, "insert into spn_t values ($1, $2)", 1, "duplicate")
				var pe *pgconn.PgError
				if !errors.As(err, &pe) || pe.Code != "23505" {
					t.Fatalf("duplicate key in the nested transaction: %v", err)
				}
				if err := failed.Rollback(ctx); err != nil {
					t.Fatal(err)
				}
				var n int
				if err := other.QueryRow(ctx, "select count(*) from spn_t").Scan(&n); err != nil || n != 0 {
					t.Fatalf("another session sees %d rows before the commit (%v)", n, err)
				}
				if _, err := outer.Exec(ctx, "update spn_t set v = v || '+' where id = $1", 2); err != nil {
					t.Fatal(err)
				}
				if err := outer.Commit(ctx); err != nil {
					t.Fatal(err)
				}
				if got, want := idTextRows(t, other, "select id, v from spn_t order by id"), []string{"1 outer", "2 kept+"}; !slices.Equal(got, want) {
					t.Fatalf("%v: rows %q, want %q", mode, got, want)
				}
				mustExec(t, conn, "drop table spn_t")
			}
		})
	}
}

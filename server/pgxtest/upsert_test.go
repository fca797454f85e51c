package pgxtest

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"minipg/internal/testutil"
)

// INSERT ... ON CONFLICT under READ COMMITTED, between sessions: an upsert
// that meets a row another transaction is inserting, updating or deleting
// waits for it, then updates the committed row, skips it, or inserts when
// the row is gone (the other inserter aborted, or the row was deleted or
// moved to another key); sessions upserting the same keys at once never
// raise a unique violation on the arbiter. The scenarios run against
// minipg and, when one is reachable, against PostgreSQL 15, which proves
// the expected outcomes.

var upsertWaitCases = []waitCase{
	{
		name:   "update after a running insert commits",
		holder: []string{"insert into ups_w values (3, 'holder')"},
		end:    "commit",
		waiter: "insert into ups_w values (3, 'waiter') on conflict (id) do update set v = ups_w.v || '+' || excluded.v",
		tag:    "INSERT 0 1",
		want:   []string{"1 one", "2 two", "3 holder+waiter"},
	},
	{
		name:   "insert after a running insert aborts",
		holder: []string{"insert into ups_w values (3, 'holder')"},
		end:    "rollback",
		waiter: "insert into ups_w values (3, 'waiter') on conflict (id) do update set v = ups_w.v || '+' || excluded.v",
		tag:    "INSERT 0 1",
		want:   []string{"1 one", "2 two", "3 waiter"},
	},
	{
		name:   "nothing after a running upsert commits",
		holder: []string{"insert into ups_w values (3, 'holder') on conflict (id) do update set v = 'not this'"},
		end:    "commit",
		waiter: "insert into ups_w values (3, 'waiter') on conflict do nothing",
		tag:    "INSERT 0 0",
		want:   []string{"1 one", "2 two", "3 holder"},
	},
	{
		name:   "insert after a running upsert aborts",
		holder: []string{"insert into ups_w values (3, 'holder') on conflict do nothing"},
		end:    "rollback",
		waiter: "insert into ups_w values (3, 'waiter') on conflict do nothing",
		tag:    "INSERT 0 1",
		want:   []string{"1 one", "2 two", "3 waiter"},
	},
	{
		name:   "update of the newest version after a running update commits",
		holder: []string{"update ups_w set v = v || '!' where id = 1"},
		end:    "commit",
		waiter: "insert into ups_w values (1, 'waiter') on conflict (id) do update set v = ups_w.v || '+' || excluded.v",
		tag:    "INSERT 0 1",
		want:   []string{"1 one!+waiter", "2 two"},
	},
	{
		name:   "where rechecked on the newest version",
		holder: []string{"update ups_w set v = 'changed' where id = 1"},
		end:    "commit",
		waiter: "insert into ups_w values (1, 'waiter') on conflict (id) do update set v = excluded.v where ups_w.v = 'one'",
		tag:    "INSERT 0 0",
		want:   []string{"1 changed", "2 two"},
	},
	{
		name:   "insert after a running delete commits",
		holder: []string{"delete from ups_w where id = 1"},
		end:    "commit",
		waiter: "insert into ups_w values (1, 'waiter') on conflict (id) do update set v = ups_w.v || '+' || excluded.v",
		tag:    "INSERT 0 1",
		want:   []string{"1 waiter", "2 two"},
	},
	{
		name:   "update after a running delete aborts",
		holder: []string{"delete from ups_w where id = 1"},
		end:    "rollback",
		waiter: "insert into ups_w values (1, 'waiter') on conflict (id) do update set v = ups_w.v || '+' || excluded.v",
		tag:    "INSERT 0 1",
		want:   []string{"1 one+waiter", "2 two"},
	},
	{
		name:   "insert after the key moved away",
		holder: []string{"update ups_w set id = 10 where id = 1"},
		end:    "commit",
		waiter: "insert into ups_w values (1, 'waiter') on conflict (id) do update set v = ups_w.v || '+' || excluded.v",
		tag:    "INSERT 0 1",
		want:   []string{"1 waiter", "2 two", "10 one"},
	},
	{
		name:   "update after a row lock",
		holder: []string{"select * from ups_w where id = 2 for update"},
		end:    "commit",
		waiter: "insert into ups_w values (2, 'waiter') on conflict (id) do update set v = ups_w.v || '+' || excluded.v",
		tag:    "INSERT 0 1",
		want:   []string{"1 one", "2 two+waiter"},
	},
}

func TestUpsertWaits(t *testing.T) {
	runWaitCases(t, startServer(t), "ups_w", upsertWaitCases)
}

func TestUpsertWaitsPostgres(t *testing.T) {
	runWaitCases(t, testutil.ReferencePostgres(t, "MINIPG_PG_DSN", "drop table if exists ups_w"), "ups_w", upsertWaitCases)
}

// idTextRows returns the (integer, text) rows of q as "id v".
func idTextRows(t *testing.T, conn *pgx.Conn, q string) []string {
	t.Helper()
	rows, err := conn.Query(testCtx(t), q)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		var id int32
		var v string
		if err := rows.Scan(&id, &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d %s", id, v))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestUpsertConcurrency(t *testing.T) {
	runUpsertConcurrency(t, startServer(t))
}

func TestUpsertConcurrencyPostgres(t *testing.T) {
	runUpsertConcurrency(t, testutil.ReferencePostgres(t, "MINIPG_PG_DSN", "drop table if exists ups_c, ups_cn"))
}

// runUpsertConcurrency: clients upsert the same keys at once, some in
// transactions of several rows (in one key order, so that they cannot
// deadlock), half of them through the keys backwards: no statement fails,
// DO UPDATE counts every statement once, DO NOTHING leaves one row per key.
func runUpsertConcurrency(t *testing.T, dsn string) {
	setup := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	mustExec(t, setup, "create table ups_c (id integer primary key, n integer not null, last integer)")
	mustExec(t, setup, "create table ups_cn (id integer primary key, w integer)")
	t.Cleanup(func() { setup.Exec(context.Background(), "drop table if exists ups_c, ups_cn") })
	const clients, keys = 8, 50
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for w := range clients {
		conn := connect(t, dsn, modes[w%len(modes)])
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			run := func(q string, args ...any) error {
				tag, err := conn.Exec(ctx, q, args...)
				if err == nil && tag.String() != "INSERT 0 1" && tag.String() != "INSERT 0 0" {
					err = fmt.Errorf("tag %q", tag)
				}
				if err != nil {
					return fmt.Errorf("client %d: %s: %w", w, q, err)
				}
				return nil
			}
			for i := range keys {
				k := i
				if w%2 == 1 {
					k = keys - 1 - i
				}
				if err := run("insert into ups_c values ($1, 1, $2) on conflict (id) do update set n = ups_c.n + 1, last = excluded.last", k, w); err != nil {
					errs <- err
					return
				}
				if err := run("insert into ups_cn values ($1, $2) on conflict do nothing", k, w); err != nil {
					errs <- err
					return
				}
			}
			// Two keys in one transaction, in ascending order.
			if _, err := conn.Exec(ctx, "begin"); err != nil {
				errs <- err
				return
			}
			for _, k := range []int{0, keys - 1} {
				if err := run("insert into ups_c values ($1, 1, $2) on conflict (id) do update set n = ups_c.n + 1", k, w); err != nil {
					errs <- err
					return
				}
			}
			if _, err := conn.Exec(ctx, "commit"); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var count, sum, ends int64
	if err := setup.QueryRow(testCtx(t), "select count(*), sum(n), sum(n) filter (where id in (0, $1)) from ups_c", keys-1).Scan(&count, &sum, &ends); err != nil {
		t.Fatal(err)
	}
	if count != keys || sum != clients*keys+2*clients || ends != 4*clients {
		t.Errorf("ups_c: %d rows, sum %d, ends %d; want %d, %d, %d", count, sum, ends, keys, clients*keys+2*clients, 4*clients)
	}
	if err := setup.QueryRow(testCtx(t), "select count(*) from ups_cn").Scan(&count); err != nil || count != keys {
		t.Errorf("ups_cn: %d rows, %v; want %d", count, err, keys)
	}
}

package pgxtest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"minipg/internal/testutil"
)

// UPDATE ... FROM and DELETE ... USING under READ COMMITTED: a statement
// that meets a target row another transaction changed waits for it, then
// rechecks WHERE on the new version with the same joined row (PostgreSQL's
// EvalPlanQual) and changes that version or leaves it. The scenarios run
// against minipg and, when one is reachable, against PostgreSQL 15, which
// proves the expected final states.

type joinedUpdateCase struct {
	name   string
	first  string // run by the holder in an open transaction
	second string // run by the waiter; it blocks until the holder commits
	tag    string // the waiter's command tag
	want   []string
}

var joinedUpdateCases = []joinedUpdateCase{
	{
		name: "update from after update from",
		first: `update ufc_acct set bal = ufc_acct.bal + d.amt, status = case when ufc_acct.id = 2 then 'closed' else ufc_acct.status end
			from ufc_delta d where ufc_acct.id = d.id and d.id <= 2`,
		second: `update ufc_acct set bal = ufc_acct.bal + d.amt * 100 from ufc_delta d
			where ufc_acct.id = d.id and ufc_acct.status = 'open'`,
		tag:  "UPDATE 2",
		want: []string{"1 1110 open", "2 120 closed", "3 3100 open"},
	},
	{
		name:   "delete using after key update",
		first:  `update ufc_acct set id = id + 10 where id = 3`,
		second: `delete from ufc_acct using ufc_delta d where ufc_acct.id = d.id`,
		tag:    "DELETE 2",
		want:   []string{"13 100 open"},
	},
	{
		name:   "update from after delete",
		first:  `delete from ufc_acct where id = 2`,
		second: `update ufc_acct set bal = d.amt from ufc_delta d where ufc_acct.id = d.id`,
		tag:    "UPDATE 2",
		want:   []string{"1 10 open", "3 30 open"},
	},
	{
		name:   "two updates from of the same rows",
		first:  `update ufc_acct set bal = ufc_acct.bal + d.amt from ufc_delta d where ufc_acct.id = d.id`,
		second: `update ufc_acct set bal = ufc_acct.bal * 2 from ufc_delta d where d.id = ufc_acct.id and ufc_acct.bal < 125`,
		tag:    "UPDATE 2",
		want:   []string{"1 220 open", "2 240 open", "3 130 open"},
	},
}

func TestJoinedUpdateConcurrency(t *testing.T) {
	runJoinedUpdateCases(t, startServer(t))
}

func TestJoinedUpdateConcurrencyPostgres(t *testing.T) {
	runJoinedUpdateCases(t, testutil.ReferencePostgres(t, "MINIPG_PG_DSN", "drop table if exists ufc_acct, ufc_delta"))
}

func runJoinedUpdateCases(t *testing.T, dsn string) {
	for _, c := range joinedUpdateCases {
		t.Run(c.name, func(t *testing.T) {
			holder := connect(t, dsn, pgx.QueryExecModeCacheStatement)
			waiter := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
			mustExec(t, holder, "create table ufc_acct (id integer primary key, bal integer, status text)")
			t.Cleanup(func() { holder.Exec(context.Background(), "drop table if exists ufc_acct, ufc_delta") })
			mustExec(t, holder, "create table ufc_delta (id integer, amt integer)")
			mustExec(t, holder, "insert into ufc_acct values (1, 100, 'open'), (2, 100, 'open'), (3, 100, 'open')")
			mustExec(t, holder, "insert into ufc_delta values (1, 10), (2, 20), (3, 30)")
			var pid int32
			if err := waiter.QueryRow(testCtx(t), "select pg_backend_pid()").Scan(&pid); err != nil {
				t.Fatal(err)
			}
			mustExec(t, holder, "begin")
			mustExec(t, holder, c.first)
			type result struct {
				tag string
				err error
			}
			done := make(chan result, 1)
			go func() {
				tag, err := waiter.Exec(context.Background(), c.second)
				done <- result{tag.String(), err}
			}()
			waitForLock(t, holder, pid, done)
			mustExec(t, holder, "commit")
			r := <-done
			if r.err != nil || r.tag != c.tag {
				t.Fatalf("waiter: %q %v, want %q", r.tag, r.err, c.tag)
			}
			rows, err := holder.Query(testCtx(t), "select id, bal, status from ufc_acct order by id")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for rows.Next() {
				var id, bal int32
				var status string
				if err := rows.Scan(&id, &bal, &status); err != nil {
					t.Fatal(err)
				}
				got = append(got, fmt.Sprintf("%d %d %s", id, bal, status))
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("rows %q, want %q", got, c.want)
			}
		})
	}
}

// waitForLock returns once backend pid waits for a lock, as
// pg_stat_activity shows; it fails the test if the statement ends first.
func waitForLock[T any](t *testing.T, conn *pgx.Conn, pid int32, done <-chan T) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case r := <-done:
			t.Fatalf("the statement did not wait: %v", r)
		default:
		}
		var n int64
		err := conn.QueryRow(testCtx(t), "select count(*) from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'", pid).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the statement never waited for a lock")
}

// TestJoinedUpdateParams: parameters in the FROM items, SET, WHERE and
// RETURNING of UPDATE ... FROM and DELETE ... USING take their types from
// their context, in every exec mode.
func TestJoinedUpdateParams(t *testing.T) {
	dsn := startServer(t)
	setup := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	mustExec(t, setup, "create table ufp_t (id integer primary key, a integer, b text)")
	mustExec(t, setup, "create table ufp_s (id integer, v integer)")
	for i, mode := range modes {
		conn := connect(t, dsn, mode)
		mustExec(t, conn, "delete from ufp_t")
		mustExec(t, conn, "delete from ufp_s")
		mustExec(t, conn, "insert into ufp_t values (1, 0, 'a'), (2, 0, 'b')")
		mustExec(t, conn, "insert into ufp_s values (1, 5), (2, 7)")
		var a int32
		var b string
		err := conn.QueryRow(testCtx(t), `update ufp_t set a = ufp_s.v + $1, b = b || $2 from ufp_s, generate_series(1, $3) g
			where ufp_t.id = ufp_s.id and ufp_s.v > $4 and g = ufp_t.id returning ufp_t.a, ufp_t.b`, 100, "!", 2, 6).Scan(&a, &b)
		if err != nil || a != 107 || b != "b!" {
			t.Errorf("mode %d: update: %d %q %v", i, a, b, err)
		}
		tag, err := conn.Exec(testCtx(t), "delete from ufp_t using (select $1::int as k) q where ufp_t.id = q.k", 1)
		if err != nil || tag.String() != "DELETE 1" {
			t.Errorf("mode %d: delete: %v %v", i, tag, err)
		}
	}
}

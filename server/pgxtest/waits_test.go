package pgxtest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// waitCase is a two-session scenario over a table of (id integer primary
// key, v text) holding (1, 'one') and (2, 'two'): the holder runs holder
// in an open transaction, the waiter's statement then waits for a lock,
// and end, run by the holder, lets it go on (a commit, a rollback, or a
// rollback to a savepoint, after which the holder commits). tag is the
// waiter's command tag, want the table's rows afterwards as "id v".
type waitCase struct {
	name   string
	holder []string
	waiter string
	end    string
	tag    string
	want   []string
}

// runWaitCases runs cases against dsn, each with a fresh table.
func runWaitCases(t *testing.T, dsn, table string, cases []waitCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			holder := connect(t, dsn, pgx.QueryExecModeCacheStatement)
			waiter := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
			mustExec(t, holder, "create table "+table+" (id integer primary key, v text)")
			t.Cleanup(func() { holder.Exec(context.Background(), "drop table if exists "+table) })
			mustExec(t, holder, "insert into "+table+" values (1, 'one'), (2, 'two')")
			var pid int32
			if err := waiter.QueryRow(testCtx(t), "select pg_backend_pid()").Scan(&pid); err != nil {
				t.Fatal(err)
			}
			mustExec(t, holder, "begin")
			for _, q := range c.holder {
				mustExec(t, holder, q)
			}
			type result struct {
				tag string
				err error
			}
			done := make(chan result, 1)
			go func() {
				tag, err := waiter.Exec(context.Background(), c.waiter)
				done <- result{tag.String(), err}
			}()
			waitForLock(t, holder, pid, done)
			mustExec(t, holder, c.end)
			var r result
			select {
			case r = <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("%q did not end the wait", c.end)
			}
			if c.end != "commit" && c.end != "rollback" {
				mustExec(t, holder, "commit")
			}
			if r.err != nil || r.tag != c.tag {
				t.Fatalf("waiter: %q %v, want %q", r.tag, r.err, c.tag)
			}
			if got := idTextRows(t, holder, "select id, v from "+table+" order by id"); !slices.Equal(got, c.want) {
				t.Fatalf("rows %q, want %q", got, c.want)
			}
		})
	}
}

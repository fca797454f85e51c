package pgxtest

import (
	"testing"

	"minipg/internal/testutil"
)

// mergeOne is the waiter's MERGE of the source row (1, 'w') in the cases
// below.
const mergeOne = "merge into mrg_w t using (values (1, 'w')) s(id, v) on t.id = s.id " +
	"when matched and t.v = 'x' then delete " +
	"when matched then update set v = t.v || '+' || s.v " +
	"when not matched then insert values (s.id, s.v)"

// mergeWaitCases: MERGE under READ COMMITTED when another transaction
// changed the matched row (PostgreSQL 15's ExecMergeMatched): the newest
// version is rechecked against the join condition and the WHEN clauses
// are chosen again over it; a row deleted, or no longer joined, takes the
// NOT MATCHED path.
var mergeWaitCases = []waitCase{
	{
		name:   "update after a running update commits",
		holder: []string{"update mrg_w set v = 'held' where id = 1"},
		end:    "commit",
		waiter: mergeOne,
		tag:    "MERGE 1",
		want:   []string{"1 held+w", "2 two"},
	},
	{
		name:   "update after a running update aborts",
		holder: []string{"update mrg_w set v = 'held' where id = 1"},
		end:    "rollback",
		waiter: mergeOne,
		tag:    "MERGE 1",
		want:   []string{"1 one+w", "2 two"},
	},
	{
		name:   "another clause applies to the newer version",
		holder: []string{"update mrg_w set v = 'x' where id = 1"},
		end:    "commit",
		waiter: mergeOne,
		tag:    "MERGE 1",
		want:   []string{"2 two"},
	},
	{
		name:   "the row moved away: not matched inserts",
		holder: []string{"update mrg_w set id = 10 where id = 1"},
		end:    "commit",
		waiter: mergeOne,
		tag:    "MERGE 1",
		want:   []string{"1 w", "2 two", "10 one"},
	},
	{
		name:   "the row was deleted: not matched inserts",
		holder: []string{"delete from mrg_w where id = 1"},
		end:    "commit",
		waiter: mergeOne,
		tag:    "MERGE 1",
		want:   []string{"1 w", "2 two"},
	},
	{
		name:   "do nothing after a row lock",
		holder: []string{"select * from mrg_w where id = 1 for update"},
		end:    "commit",
		waiter: "merge into mrg_w t using (values (1), (3)) s(id) on t.id = s.id when matched then update set v = 'u' when not matched then do nothing",
		tag:    "MERGE 1",
		want:   []string{"1 u", "2 two"},
	},
}

func TestMergeWaits(t *testing.T) {
	runWaitCases(t, startServer(t), "mrg_w", mergeWaitCases)
}

func TestMergeWaitsPostgres(t *testing.T) {
	runWaitCases(t, testutil.ReferencePostgres(t, "MINIPG_PG_DSN", "drop table if exists mrg_w"), "mrg_w", mergeWaitCases)
}

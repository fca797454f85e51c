package executor

// UPDATE ... FROM and DELETE ... USING: the statement's join
// (sql.DMLFrom.Source, the target table one of its items) runs as a
// SELECT's FROM tree does (fromSource, join.go), and each joined row that
// satisfies WHERE changes the target's version in it through modify and the
// same apply and finish as the plain statement (heap update or delete,
// index entries, foreign keys), so that HOT, placement and WAL behave the
// same.
//
// A target row joined to several rows is changed once, by the first
// joined row that reaches it: the later ones find the version this command
// already changed (heap.TMSelfModified) and are skipped, as PostgreSQL
// skips them.
//
// READ COMMITTED: a joined row whose target version another transaction
// updated (or is updating: modify waits) follows the update chain to the
// newest version and re-evaluates WHERE over the same joined row with that
// version in the target's slots, then SET reads it too. This is
// PostgreSQL's EvalPlanQual for a join: the other items' rows are the ones
// the join produced (PostgreSQL refetches the same row versions of the
// other tables); a row of them that the new version would join and the old
// one did not is not looked for, in PostgreSQL neither.

import (
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/types"
)

// joinedRow is the joined row being applied by UPDATE ... FROM or DELETE
// ... USING, whose slots [base, base+n) hold the target's row (columns and
// ctid).
type joinedRow struct {
	row     []types.Datum
	base, n int
}

// with returns a copy of the joined row with version v of the target row
// in its slots.
func (j *joinedRow) with(v []types.Datum) []types.Datum {
	out := make([]types.Datum, len(j.row))
	copy(out, j.row)
	copy(out[j.base:j.base+j.n], v)
	return out
}

// modifyJoined is modifyRows for a statement with a FROM (USING) list: for
// every joined row of from.Source (WHERE applied), apply and finish run on
// its target row, and RETURNING reads the joined row with finish's row in
// the target's slots.
func (x *execCtx) modifyJoined(oper string, from *sql.DMLFrom, jr *joinedRow, where sql.Expr, returning []sql.Expr,
	apply func(old []types.Datum, tid page.TID) (heap.Result, heap.FailureData, error),
	finish func(row []types.Datum) ([]types.Datum, error)) (int64, error) {
	src, err := x.fromSource(from.Source)
	if err != nil {
		return 0, err
	}
	defer src.Close()
	src = x.explainedSource(src)
	recheck := func(next []types.Datum) (bool, error) {
		return x.ev.evalBool(where, jr.with(next))
	}
	var n int64
	for {
		row, ok, err := src.Next(x.ctx)
		if err != nil {
			return n, err
		}
		if !ok {
			return n, nil
		}
		jr.row = row
		target := make([]types.Datum, jr.n)
		copy(target, row[jr.base:jr.base+jr.n])
		changed, ok, err := x.modify(oper, target, recheck, apply)
		if err != nil {
			return n, err
		}
		if !ok {
			continue
		}
		if changed, err = finish(changed); err != nil {
			return n, err
		}
		n++
		if n%checkEvery == 0 {
			if err := canceled(x.ctx); err != nil {
				return n, err
			}
		}
		if returning != nil {
			if err := x.returning(returning, jr.with(changed)); err != nil {
				return n, err
			}
		}
	}
}

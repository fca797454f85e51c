package executor

// MERGE (ExecMerge): the join of source and target (sql.Merge.Source)
// runs as a SELECT's FROM tree does; for each joined row, the first WHEN
// clause of its kind whose condition holds runs. A matched row is updated
// or deleted through modify and the same apply and finish as UPDATE and
// DELETE (so HOT, placement, WAL, index entries and foreign keys behave as
// theirs do); an unmatched source row is inserted as INSERT inserts.
//
// A target row that a second source row matches, after this command
// updated or deleted it (the heap says TMSelfModified), is PostgreSQL's
// 21000 "MERGE command cannot affect row a second time" (not when the
// second clause is DO NOTHING).
//
// READ COMMITTED, as PostgreSQL 15's ExecMergeMatched: when another
// transaction updated the target row, the newest version is read and the
// join condition rechecked on it with the same source row; if it still
// matches, the WHEN MATCHED clauses are chosen again from the first, over
// the new version; if it no longer matches, or the row was deleted, the
// source row takes the WHEN NOT MATCHED path.

import (
	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/types"
)

// mergeCounts are what became of a MERGE's source rows, which EXPLAIN
// ANALYZE shows.
type mergeCounts struct {
	inserted, updated, deleted, skipped int64
}

func (x *execCtx) merge(st *sql.Merge) (int64, error) {
	var counts mergeCounts
	if c := x.s.explainMerge; c != nil {
		x.s.explainMerge = nil
		defer func() { *c = counts }()
	}
	r := x.rel
	ncols := len(r.types)
	jr := &joinedRow{base: st.TargetBase(), n: ncols + 1}
	src, err := x.fromSource(st.Source)
	if err != nil {
		return 0, err
	}
	defer src.Close()
	src = x.explainedSource(src)
	updates := make([]*rowUpdate, len(st.Actions))
	for i, a := range st.Actions {
		if a.Kind == sql.MergeUpdate {
			updates[i] = x.newRowUpdate(a.Set, a.Multi)
		}
	}
	del := x.newRowDelete()
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
		kind, unmatched := sql.MergeNothing, row[jr.base+ncols] == nil
		if !unmatched {
			if kind, unmatched, err = x.mergeMatched(st, jr, updates, del); err != nil {
				return n, err
			}
		}
		if unmatched {
			for i := jr.base; i < jr.base+jr.n; i++ {
				jr.row[i] = nil
			}
			if kind, err = x.mergeNotMatched(st, jr.row); err != nil {
				return n, err
			}
		}
		switch kind {
		case sql.MergeNothing:
			counts.skipped++
		case sql.MergeUpdate:
			counts.updated++
		case sql.MergeDelete:
			counts.deleted++
		case sql.MergeInsert:
			counts.inserted++
		}
		if kind != sql.MergeNothing {
			n++
			if n%checkEvery == 0 {
				if err := canceled(x.ctx); err != nil {
					return n, err
				}
			}
		}
	}
}

// chooseAction returns the first action of the kind (matched or not) whose
// condition holds over row, or -1.
func (x *execCtx) chooseAction(st *sql.Merge, matched bool, row []types.Datum) (int, error) {
	for i, a := range st.Actions {
		if a.Matched != matched {
			continue
		}
		if a.Cond == nil {
			return i, nil
		}
		ok, err := x.ev.evalBool(a.Cond, row)
		if err != nil {
			return -1, err
		}
		if ok {
			return i, nil
		}
	}
	return -1, nil
}

// mergeMatched runs the WHEN MATCHED clause that applies to jr's row. It
// reports what it did to the row (MergeUpdate, MergeDelete, or
// MergeNothing when no clause applies or the clause is DO NOTHING), or
// that the source row is to take the NOT MATCHED path instead (the row was
// deleted, or its newest version no longer matches).
func (x *execCtx) mergeMatched(st *sql.Merge, jr *joinedRow, updates []*rowUpdate, del *rowDelete) (done sql.MergeKind, unmatched bool, err error) {
	target := make([]types.Datum, jr.n)
	copy(target, jr.row[jr.base:jr.base+jr.n])
	for {
		i, err := x.chooseAction(st, true, jr.with(target))
		if err != nil || i < 0 || st.Actions[i].Kind == sql.MergeNothing {
			return sql.MergeNothing, false, err
		}
		// The recheck of a newer version: the join condition, then the
		// clause chosen again over it.
		var next []types.Datum
		recheck := func(v []types.Datum) (bool, error) {
			row := jr.with(v)
			on, err := x.ev.evalBool(st.On, row)
			if err != nil || !on {
				return false, err
			}
			j, err := x.chooseAction(st, true, row)
			if err != nil {
				return false, err
			}
			if j != i {
				next = v
				return false, nil
			}
			return true, nil
		}
		var apply func(old []types.Datum, tid page.TID) (heap.Result, heap.FailureData, error)
		var finish func(row []types.Datum) ([]types.Datum, error)
		oper := "deleting"
		if u := updates[i]; u != nil {
			oper = "updating"
			apply = func(old []types.Datum, tid page.TID) (heap.Result, heap.FailureData, error) {
				return u.apply(old, tid, jr.with(old))
			}
			finish = u.finish
		} else {
			apply, finish = del.apply, del.finish
		}
		var last heap.Result
		v, ok, err := x.modify(oper, target, recheck, func(old []types.Datum, tid page.TID) (heap.Result, heap.FailureData, error) {
			res, fd, err := apply(old, tid)
			last = res
			return res, fd, err
		})
		if err != nil {
			return sql.MergeNothing, false, err
		}
		if ok {
			_, err := finish(v)
			return st.Actions[i].Kind, false, err
		}
		if last == heap.TMSelfModified {
			// This command (another source row, or a data-modifying
			// WITH query) already changed the row.
			return sql.MergeNothing, false, pgerr.New(pgerr.CardinalityViolation, "MERGE command cannot affect row a second time").
				WithHint("Ensure that not more than one source row matches any one target row.")
		}
		if next == nil {
			// Deleted, or no longer joined: NOT MATCHED decides.
			return sql.MergeNothing, true, nil
		}
		target = next // another clause applies to the newer version
	}
}

// mergeNotMatched runs the WHEN NOT MATCHED clause that applies to the
// source row row (the target's slots NULL), reporting MergeInsert if it
// inserted, MergeNothing if not.
func (x *execCtx) mergeNotMatched(st *sql.Merge, row []types.Datum) (sql.MergeKind, error) {
	i, err := x.chooseAction(st, false, row)
	if err != nil || i < 0 || st.Actions[i].Kind == sql.MergeNothing {
		return sql.MergeNothing, err
	}
	ins := st.Actions[i].Insert
	r := x.rel
	out := make([]types.Datum, len(r.types)+1)
	given := make([]bool, len(r.types))
	for j, c := range ins.Cols {
		e := ins.Values[0][j]
		if e == nil {
			continue // DEFAULT
		}
		v, err := x.ev.eval(e, row)
		if err != nil {
			return sql.MergeNothing, err
		}
		out[c], given[c] = v, true
	}
	for c, d := range ins.Defaults {
		if given[c] || d == nil {
			continue
		}
		v, err := x.ev.eval(d, nil)
		if err != nil {
			return sql.MergeNothing, err
		}
		out[c] = v
	}
	if _, err := x.insertRow(out); err != nil {
		return sql.MergeNothing, err
	}
	return sql.MergeInsert, nil
}

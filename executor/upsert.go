package executor

// INSERT ... ON CONFLICT, as PostgreSQL 15's ExecInsert,
// ExecCheckIndexConstraints and ExecOnConflictUpdate run it under READ
// COMMITTED.
//
// For each proposed row (with its defaults: EXCLUDED):
//
//  1. Look for a conflicting row in the arbiter indexes (findConflict): an
//     entry with the row's key whose row is live to a uniqueness check
//     (heap.SatisfiesDirty). A row whose inserter or deleter is still
//     running is waited for (for the decision alone, when it is an
//     undecided speculative insertion), then the search starts over; a
//     conflict found is with a committed row, or one of this transaction.
//  2. Conflict, DO NOTHING: the row is skipped. DO UPDATE (onConflictUpdate):
//     lock the conflicting row (FOR UPDATE, or FOR NO KEY UPDATE when SET
//     changes no key column), waiting for a running modifier. If a
//     committed transaction updated or deleted it meanwhile, start over at
//     1: the row's newest version may conflict or not, so READ COMMITTED's
//     usual recheck (EvalPlanQual) does not apply, and PostgreSQL starts
//     over too. A row this very statement inserted or updated fails with
//     21000. Locked, the row is updated when WHERE holds over it and
//     EXCLUDED, through UPDATE's own routine (rowUpdate: HOT, constraints,
//     indexes, foreign keys, the free-space policy); when WHERE fails it
//     stays locked, as in PostgreSQL.
//  3. No conflict: insert the row speculatively (insertRowArb). Its entry
//     in an arbiter index is made only if no other row holds the key at
//     that moment (the index serializes the check and the entry); if one
//     does, the row is taken back (super-deleted) and the search starts
//     over at 1, where the other row is found or waited for. So two
//     sessions that insert one key concurrently never raise 23505 on an
//     arbiter: one inserts, the other waits for it and then updates (or
//     skips) the committed row, or inserts after all if the first aborted.
//
// A unique index that is not an arbiter raises 23505 as for a plain
// INSERT.

import (
	"slices"

	"minipg/index"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/types"
)

// arbiters are the unique indexes INSERT ... ON CONFLICT looks for
// conflicts in: those the statement named (by OID), or every one (all).
type arbiters struct {
	all  bool
	oids []uint32
}

// has reports whether ri is one of a's indexes (never for a nil a).
func (a *arbiters) has(ri *relIndex) bool {
	return a != nil && ri.def.Unique && (a.all || slices.Contains(a.oids, ri.def.OID))
}

// testHookNoConflict, when set (by tests only), runs after the search for
// a conflict found none and before the speculative insertion, so that a
// test can make a conflicting row appear in between.
var testHookNoConflict func()

// upsertCounts are the figures EXPLAIN ANALYZE shows under Insert.
type upsertCounts struct {
	inserted    int64 // rows inserted (Tuples Inserted)
	conflicting int64 // rows that met a conflict (Conflicting Tuples)
	filtered    int64 // conflicting rows whose DO UPDATE WHERE failed
}

// upserter runs the proposed rows of one INSERT ... ON CONFLICT.
type upserter struct {
	x       *execCtx
	oc      *sql.OnConflict
	arb     *arbiters
	indexes []*relIndex // the arbiter indexes, in the table's order
	upd     *rowUpdate  // DO UPDATE
	keyLock bool        // DO UPDATE's SET changes a key column: lock FOR UPDATE
	counts  upsertCounts
}

func (x *execCtx) newUpserter(oc *sql.OnConflict) *upserter {
	u := &upserter{x: x, oc: oc, arb: &arbiters{all: len(oc.Arbiters) == 0, oids: oc.Arbiters}}
	for _, ri := range x.rel.indexes {
		if u.arb.has(ri) {
			u.indexes = append(u.indexes, ri)
		}
	}
	if oc.Update {
		u.upd = x.newRowUpdate(oc.Set, oc.Multi)
		// ExecUpdateLockMode: a key column is one of a unique index.
		for _, it := range oc.Set {
			for _, ri := range x.rel.indexes {
				if ri.def.Unique && slices.Contains(ri.cols, it.Col) {
					u.keyLock = true
				}
			}
		}
	}
	return u
}

// row runs one proposed row (the table's columns and a slot for the ctid)
// and returns the row RETURNING reads: the row inserted, or the new
// version of the row updated; nil when the row was skipped (DO NOTHING, or
// DO UPDATE's WHERE failed).
func (u *upserter) row(row []types.Datum) ([]types.Datum, error) {
	x := u.x
	for {
		if err := canceled(x.ctx); err != nil {
			return nil, err
		}
		tid, xmin, found, err := u.findConflict(row)
		if err != nil {
			return nil, err
		}
		if found {
			if !u.oc.Update {
				u.counts.conflicting++
				return nil, nil
			}
			newRow, done, err := u.onConflictUpdate(tid, xmin, row)
			if err != nil {
				return nil, err
			}
			if done {
				u.counts.conflicting++
				return newRow, nil
			}
			continue
		}
		if testHookNoConflict != nil {
			testHookNoConflict()
		}
		arb := u.arb
		if len(x.rel.indexes) == 0 {
			arb = nil // nothing to conflict in: a plain insert, as PostgreSQL's
		}
		_, conflict, err := x.insertRowArb(row, arb)
		if err != nil {
			return nil, err
		}
		if !conflict {
			u.counts.inserted++
			return row, nil
		}
	}
}

// findConflict looks in the arbiter indexes for a row with row's key
// (ExecCheckIndexConstraints): the TID of the first one found and its
// inserter. A row whose fate depends on a running transaction is waited
// for, and the search starts over.
func (u *upserter) findConflict(row []types.Datum) (tid page.TID, xmin uint32, found bool, err error) {
	x := u.x
retry:
	for _, ri := range u.indexes {
		key, hasNull := ri.key(row)
		if hasNull {
			continue // NULLs never conflict
		}
		it := ri.ix.NewIterator(index.Incl(key), index.Incl(key), false)
		for {
			root, ok := it.Next()
			if !ok {
				break
			}
			tid, xmin, w, found, err := x.liveWithKey(ri, key, root, nil)
			if err != nil || (found && w.xid == 0) {
				closeIndexIterator(it)
				return tid, xmin, found, err
			}
			if found {
				closeIndexIterator(it)
				if err := x.waitForXid(w, root, ri.def.Name); err != nil {
					return page.TID{}, 0, false, err
				}
				goto retry
			}
		}
		err := it.Err()
		closeIndexIterator(it)
		if err != nil {
			return page.TID{}, 0, false, err
		}
	}
	return page.TID{}, 0, false, nil
}

// closeIndexIterator ends a scan that may have stopped before its end.
func closeIndexIterator(it indexIterator) {
	if c, ok := it.(scanCloser); ok {
		c.Close()
	}
}

// onConflictUpdate runs DO UPDATE on the conflicting row at tid, inserted
// by xmin, with excluded the row proposed (ExecOnConflictUpdate). done
// false: the row changed before it could be locked, and the caller starts
// over; done true with a nil row: WHERE failed.
func (u *upserter) onConflictUpdate(tid page.TID, xmin uint32, excluded []types.Datum) (newRow []types.Datum, done bool, err error) {
	x := u.x
	r := x.rel
	ncols := len(r.types)
	lock := r.heap.LockNoKey
	if u.keyLock {
		lock = r.heap.Lock
	}
	for {
		res, fd, err := lock(x.snap, tid, x.xid, x.cid)
		if err != nil {
			return nil, false, err
		}
		switch res {
		case heap.TMOk:
		case heap.TMBeingModified:
			if err := x.waitFor(fd.Xmax, "while locking tuple (%d,%d) in relation \"%s\"", tid, r.def.Name); err != nil {
				return nil, false, err
			}
			continue
		case heap.TMUpdated, heap.TMDeleted:
			return nil, false, nil
		case heap.TMInvisible:
			// Inserted (or made) by this very statement: a second row
			// proposed with the same key.
			if x.s.ownXids().Has(xmin) {
				return nil, false, pgerr.New(pgerr.CardinalityViolation, "ON CONFLICT DO UPDATE command cannot affect row a second time").
					WithHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained values.")
			}
			return nil, false, pgerr.New(pgerr.InternalError, "attempted to lock invisible tuple")
		default:
			return nil, false, pgerr.New(pgerr.InternalError, "unexpected %v locking the conflicting row", res)
		}
		break
	}
	tup, ok, err := r.heap.FetchAny(tid)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		return nil, false, pgerr.New(pgerr.InternalError, "locked row %s not found", tid)
	}
	existing, err := newDecoder(r).decode(tup, tid)
	if err != nil {
		return nil, false, err
	}
	// The conflict row: the existing row and its ctid, then EXCLUDED.
	in := make([]types.Datum, 0, 2*ncols+1)
	in = append(append(in, existing[:ncols+1]...), excluded[:ncols]...)
	if u.oc.Where != nil {
		pass, err := x.ev.evalBool(u.oc.Where, in)
		if err != nil {
			return nil, false, err
		}
		if !pass {
			u.counts.filtered++
			return nil, true, nil
		}
	}
	res, _, err := u.upd.apply(existing, tid, in)
	if err != nil {
		return nil, false, err
	}
	if res != heap.TMOk {
		// Not with the row locked; look again.
		return nil, false, nil
	}
	if newRow, err = u.upd.finish(existing); err != nil {
		return nil, false, err
	}
	return newRow, true, nil
}

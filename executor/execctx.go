package executor

// One statement's execution state: the snapshot, the transaction's xid and
// command id for writes, the relation locks it holds, and how often a long
// loop checks for cancellation.

import (
	"context"
	"time"

	"minipg/catalog"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/txn"
	"minipg/types"
)

// execCtx is one statement's execution state.
type execCtx struct {
	ctx   context.Context
	start time.Time // statement_timestamp(): the transaction's start for its first statement
	s     *Session
	ev    *evalCtx
	tx    *txn.Txn
	snap  *heap.Snapshot
	rel   *relation // nil for SELECT without FROM

	// need, when set, lists the columns of rel a read-only scan must
	// decode (see neededColumns); the others are left NULL in its rows.
	need []bool
	// reuseRows, when set, lets such a scan hand out one row slice over and
	// over: its consumer (filter, then aggregate or projection) keeps
	// values, never the row.
	reuseRows bool
	// needOwner is x itself while need and reuseRows apply: a copy of x
	// (a subquery evaluated while the scan opens) does not inherit them.
	needOwner *execCtx

	xid, cid uint32 // writes only
	// skipReferenced: a DELETE that empties every table referencing its
	// table (TRUNCATE in a transaction block) skips the foreign-key checks.
	skipReferenced bool
	// viewChecks are the CHECK OPTION conditions of the views an INSERT or
	// UPDATE writes through (checkViewOptions).
	viewChecks    []sql.ViewCheck
	emitReturning func(row []types.Datum)
	pt            *Portal // owner of the relation locks
	// work holds the work tables of the recursive unions being evaluated
	// (sql.Select.WorkTable): the rows of their previous round.
	work map[int][][]types.Datum
}

// openRel takes a shared lock on table oid for the rest of the statement
// (once: a subquery run for every outer row does not lock again) and
// returns its open relation.
func (x *execCtx) openRel(oid uint32) (*relation, error) {
	if oid < catalog.FirstNormalObjectID {
		if v := sql.VirtualTableByOID(oid); v != nil {
			return &relation{def: v.Table, types: colTypes(v.Table), virtual: v}, nil
		}
	}
	if !x.pt.shared[oid] {
		release, err := x.s.e.txns.LockRelation(x.ctx, oid, false)
		if err != nil {
			return nil, mapCtxErr(x.ctx, err)
		}
		x.pt.release = append(x.pt.release, release)
		if x.pt.shared == nil {
			x.pt.shared = map[uint32]bool{}
		}
		x.pt.shared[oid] = true
	}
	return x.s.e.rel(oid)
}

func (pt *Portal) newExecCtx(ctx context.Context, tableOID uint32, write bool) (*execCtx, error) {
	s := pt.s
	fresh := s.tx == nil
	tx := s.ensureTx()
	x := &execCtx{ctx: ctx, s: s, tx: tx, ev: &evalCtx{s: s, params: pt.params}, pt: pt, start: s.txStart}
	if !fresh {
		x.start = time.Now().UTC().Truncate(time.Microsecond)
	}
	x.ev.x = x
	if tableOID != 0 {
		var err error
		if x.rel, err = x.openRel(tableOID); err != nil {
			return nil, err
		}
	}
	x.snap = tx.Snapshot()
	x.snap.Usage = &s.bufUsage
	if !pt.active {
		pt.active = true
		s.active++
	}
	if write {
		xid, err := tx.Xid()
		if err != nil {
			return nil, err
		}
		x.xid, x.cid = xid, tx.UseCommandID()
		x.snap.CurXid = xid
	}
	return x, nil
}

// checkEvery is how many rows pass between cancellation checks.
const checkEvery = 256

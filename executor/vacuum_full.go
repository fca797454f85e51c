package executor

// VACUUM FULL: the table is written anew, as PostgreSQL's cluster.c and
// rewriteheap.c write it, under its exclusive lock once no transaction
// that changed it is still running: its live row versions, in TID order,
// onto new pages filled to the fill factor one after the other, each
// page logged as a full image; every copy keeps its xmin, xmax and cmin
// (storage/heap/rewrite.go). Then the indexes are built anew and the
// catalog switches the table to the new files, as ALTER COLUMN TYPE's
// rewrite does (altertype.go), and the old files go. The statistics get
// the new size.

import (
	"context"

	"minipg/pgerr"
	"minipg/pgstat"
	"minipg/storage/heap"
	"minipg/storage/page"
)

// vacuumFull rewrites table oid; a table dropped meanwhile is skipped.
func (s *Session) vacuumFull(ctx context.Context, pt *Portal, oid uint32) error {
	var live int64
	err := s.underTableLock(ctx, oid, func() (uint32, error) {
		r, err := s.e.rel(oid)
		if err != nil {
			return 0, nil // dropped
		}
		live = 0
		copyLive := func(x *execCtx, r, nr *relation) error {
			n, err := x.copyLive(r, nr)
			live = n
			return err
		}
		return s.rewriteTable(ctx, pt, r, r.def.Clone(), copyLive, nil, nil, nil)
	})
	if err != nil {
		return err
	}
	r, err := s.e.rel(oid)
	if err != nil {
		return nil
	}
	n, err := r.heap.NBlocks()
	if err != nil {
		return err
	}
	return s.e.stats.SetRelSize(oid, pgstat.RelSize{RelPages: n, RelTuples: float64(live)})
}

// copyLive copies the live row versions of r into nr, formed anew (a
// dropped column's value NULL, an added column's stored) and keeping their
// visibility, and returns how many it copied.
func (x *execCtx) copyLive(r, nr *relation) (int64, error) {
	w := nr.heap.NewRewriteWriter()
	dec := newDecoder(r)
	oracle := x.s.e.txns
	var n int64
	err := scanVersions(x.ctx, r, func(tid page.TID, tup []byte) (bool, error) {
		switch fate, wait := heap.RewriteFate(tup, x.s.ownXids(), oracle); {
		case wait != 0:
			return false, pgerr.New(pgerr.InternalError, "VACUUM FULL of \"%s\" met transaction %d still running", r.def.Name, wait)
		case fate == heap.CopyNone:
			return true, nil
		case fate != heap.CopyFrozen:
			return false, pgerr.New(pgerr.InternalError, "VACUUM FULL of \"%s\" met a row version of its own transaction", r.def.Name)
		}
		row, err := dec.decode(tup, tid)
		if err != nil {
			return false, err
		}
		copyTup, err := nr.encode(row)
		if err != nil {
			return false, err
		}
		heap.RewriteHeader(copyTup, tup, oracle)
		if _, err := w.Add(copyTup); err != nil {
			return false, err
		}
		n++
		return true, nil
	})
	if err != nil {
		return n, err
	}
	return n, w.Finish()
}

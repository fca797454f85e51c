package heap

// The insert path, after PostgreSQL 15's hio.c (RelationGetBufferForTuple),
// with the choice of page delegated to an fsm.Policy.

import (
	"minipg/storage/buffer"
	"minipg/storage/fsm"
	"minipg/storage/page"
)

// getBufferForTuple is RelationGetBufferForTuple: it returns a pinned,
// exclusively locked buffer of a page with at least need bytes of heap free
// space (plus the fillfactor reserve), and remembers its block as st's
// target. need is the MAXALIGNed tuple length; numPages is how many pages
// the caller expects to fill (multi-insert), 1 otherwise.
//
// other, if not nil, is a buffer the caller has pinned but not locked (the
// old version's page in UPDATE); on return it is exclusively locked too, and
// may be the returned buffer itself. Locks are taken in block order, and no
// buffer lock is held while the policy extends the relation.
//
// For an update (other not nil), xid is the updating transaction and o the
// oracle: a candidate page that proves too full is pruned once before it is
// given up. For inserts o is nil.
//
// The buffer accesses are counted in u (nil: not counted); the block of an
// extension this call made counts as written, as PostgreSQL 15 counts the
// ReadBuffer(P_NEW) that adds it.
func (r *Relation) getBufferForTuple(need int, other *buffer.Buffer, st *InsertState, numPages int, xid uint32, o Oracle, u *buffer.Usage) (*buffer.Buffer, error) {
	if need > MaxHeapTupleSize {
		return nil, errRowTooBig(need)
	}
	tblk, invalidated := st.target(r, other != nil)
	req := fsm.Request{
		Need:        need,
		SaveFree:    r.saveFree,
		Target:      tblk,
		Invalidated: invalidated,
		OldBlock:    page.InvalidBlock,
		Bulk:        st.Bulk(),
		NumPages:    max(numPages, 1),
		Owner:       st.Owner(),
	}
	if other == nil {
		n := st.noteInsert(r, need)
		req.NewBatch, req.PagesLeft, req.BurstPages, req.GroupBytes = n.newBatch, n.pagesLeft, n.burstPages, n.groupBytes
		req.LoadingTxn, req.BurstSized = n.loader, n.sized
		req.RunBytes = st.runBytes(r, xid, need)
		req.Back, req.BackFree = n.back, n.backFree
	}
	if other != nil {
		req.OldBlock = other.Block()
		req.SingleRow = st.singleRow(r.rel, xid)
		if !req.SingleRow {
			req.Related = st.relatedBlocks(r.rel, xid)
		}
		if blk := other.Block(); blk > 0 {
			req.UpperLogged = r.loggedSinceRedo(blk+1) && !r.loggedSinceRedo(blk-1)
		}
	}
	blk := r.policy.Choose(r.fsm, req)
	// left is the free space of the insert target, found too full here
	// (-1: not tried, or an update).
	left := -1
	for {
		extended := false
		if blk == page.InvalidBlock {
			extended = true
			var err error
			blk, err = r.policy.Extend(r.fsm, req)
			if err != nil {
				return nil, err
			}
			if blk == page.InvalidBlock {
				return nil, errCorrupt(blk, "relation extension returned no block")
			}
		}
		buf, err := r.lockForInsert(blk, other, u, extended)
		if err != nil {
			if n, nerr := r.NBlocks(); nerr == nil && blk >= n {
				// A stale FSM entry beyond the end of the relation.
				blk = r.policy.Retry(r.fsm, req, blk, 0)
				continue
			}
			return nil, err
		}
		p := buf.Page()
		wasNew := page.IsNew(p)
		if wasNew {
			// PageInit a page extended but not used yet; it will be used soon.
			page.Init(p, 0)
			buf.MarkDirtyUsage(u)
		}
		free := page.HeapFreeSpace(p)
		// The fit rule every policy's searches use too (with the
		// nearlyEmptyFreeSpace allowance for tuples too big for the
		// fillfactor), unless the policy lets this page's reserve be used.
		target := fsm.Fit(r.policy, r.fsm, req, blk, free)
		if target > free && target < req.TargetFreeSpace() && o != nil && buf != other && r.pruneLocked(buf, o, u) {
			// A page whose reserve the policy shares with this update
			// (it holds related rows): prune before moving on, since
			// dead versions of earlier updates are often what fills it.
			// PostgreSQL prunes only when it reads a page; the classic
			// policy never gets here.
			free = page.HeapFreeSpace(p)
		}
		if target <= free {
			r.notePlacement(blk, p, wasNew, other != nil)
			switch {
			case other == nil && req.BackFree > 0 && blk == req.Back:
				// The page the session left last took the row: the
				// target stays.
				st.setBack(r, blk, free-need-page.ItemIDSize)
			default:
				st.setTarget(r, blk, other != nil)
				if left >= 0 && blk != tblk {
					st.setBack(r, tblk, left)
				}
			}
			if other == nil {
				st.countRun(r, xid)
				if req.NewBatch {
					st.markBatch(r)
				}
			}
			return buf, nil
		}
		// Not enough space: give up the locks (and the pin, unless it is
		// the caller's) and ask the policy for another page, telling it
		// what we found here.
		buf.Unlock()
		if other != nil && buf != other {
			other.Unlock()
		}
		if buf != other {
			buf.Release()
		}
		switch {
		case other == nil && blk == tblk:
			left = free
		case other == nil && req.BackFree > 0 && blk == req.Back:
			st.setBack(r, blk, free)
		}
		blk = r.policy.Retry(r.fsm, req, blk, free)
		// The back page is offered once a placement.
		req.BackFree = 0
	}
}

// lockForInsert pins blk and exclusively locks it and other (if not nil), in
// block order. If blk is other's block, other itself is returned. The
// access is counted in u: as a write when the caller has just extended the
// relation by blk, else as a hit or a read.
func (r *Relation) lockForInsert(blk uint32, other *buffer.Buffer, u *buffer.Usage, extended bool) (*buffer.Buffer, error) {
	if other != nil && other.Block() == blk {
		other.Lock()
		return other, nil
	}
	ru := u
	if extended {
		ru = nil
	}
	buf, err := r.pool.ReadBufferUsage(r.rel, buffer.MainFork, blk, ru)
	if err != nil {
		return nil, err
	}
	if extended && u != nil {
		u.Written++
	}
	switch {
	case other == nil:
		buf.Lock()
	case other.Block() < blk:
		other.Lock()
		buf.Lock()
	default:
		buf.Lock()
		other.Lock()
	}
	return buf, nil
}

// loggedSinceRedo reports whether blk's page is in the buffer pool and has
// been changed since the last checkpoint's redo point, so that changing it
// again costs no full-page image. A hint: a page not in the pool, or one
// that goes away meanwhile, counts as not logged. The caller holds no
// buffer content lock.
func (r *Relation) loggedSinceRedo(blk uint32) bool {
	if r.wal == nil {
		return false
	}
	buf := r.pool.ResidentBuffer(r.rel, buffer.MainFork, blk)
	if buf == nil {
		return false
	}
	defer buf.Release()
	buf.RLock()
	p := buf.Page()
	logged := !page.IsNew(p) && !r.wal.NeedsFPI(page.LSN(p))
	buf.RUnlock()
	return logged
}

package heap

// Writing a heap anew as PostgreSQL's rewriteheap.c does for VACUUM FULL
// and CLUSTER: the live row versions are copied, in the order given, onto
// pages built one after the other (a page is closed when the next tuple
// and the fill-factor reserve no longer fit, raw_heap_insert), each page
// WAL-logged as a full image (log_newpage) and written through the buffer
// pool. Every copy keeps its row version's t_xmin, t_xmax and t_cid and
// the visibility bits of t_infomask, with the hint bits
// HeapTupleSatisfiesVacuum sets on the way, and none of t_infomask2's (no
// HOT flags); its t_ctid names itself (rewrite_heap_tuple). Versions older
// than every running transaction are frozen, as VACUUM FULL's
// freeze_min_age of 0 freezes them (RewriteHeader).

import (
	"encoding/binary"

	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/page"
)

// RewriteWriter writes the pages of r, a new and empty relation file.
type RewriteWriter struct {
	r    *Relation
	p    page.Page // the page being filled (nil: none yet)
	blk  uint32    // its block number
	used bool      // a page was started
}

// NewRewriteWriter starts writing r's pages from block 0.
func (r *Relation) NewRewriteWriter() *RewriteWriter { return &RewriteWriter{r: r} }

// Add copies tup, a row version formed anew for r whose header takes the
// visibility of old (the version it copies; see RewriteHeader), onto the
// current page, or a new one when it does not fit, and returns its TID.
func (w *RewriteWriter) Add(tup []byte) (page.TID, error) {
	n := page.MaxAlignLen(len(tup))
	if n > MaxHeapTupleSize {
		return page.TID{}, pgerr.New(pgerr.ProgramLimitExceeded, "row is too big: size %d, maximum size %d", n, MaxHeapTupleSize)
	}
	if w.p != nil && n+w.r.saveFree > page.HeapFreeSpace(w.p) {
		if err := w.flush(); err != nil {
			return page.TID{}, err
		}
		w.blk++
		w.p = nil
	}
	if w.p == nil {
		w.p = make(page.Page, page.BlockSize)
		page.Init(w.p, 0)
		w.used = true
	}
	off := page.AddItem(w.p, tup, page.InvalidOffset, false, true)
	if off == page.InvalidOffset {
		return page.TID{}, pgerr.New(pgerr.InternalError, "failed to add tuple to page")
	}
	tid := page.TID{Block: w.blk, Offset: off}
	SetCtid(page.Item(w.p, off), tid)
	return tid, nil
}

// Finish writes the last page.
func (w *RewriteWriter) Finish() error {
	if w.p == nil {
		return nil
	}
	err := w.flush()
	w.p = nil
	return err
}

// flush writes the current page as block w.blk, logging its image.
func (w *RewriteWriter) flush() error {
	r := w.r
	n, err := r.pool.NBlocks(r.rel, buffer.MainFork)
	if err != nil {
		return err
	}
	if w.blk >= n {
		if _, err := r.pool.Extend(r.rel, buffer.MainFork, int(w.blk+1-n)); err != nil {
			return err
		}
	}
	b, err := r.pool.ReadBufferZeroed(r.rel, buffer.MainFork, w.blk)
	if err != nil {
		return err
	}
	defer b.Release()
	b.Lock()
	defer b.Unlock()
	copy(b.Page(), w.p)
	b.MarkDirty()
	if r.wal != nil {
		lsn, err := r.wal.LogNewPage(r.rel, buffer.MainFork, w.blk, b.Page(), b.DirtiedUnderLock())
		if err != nil {
			return err
		}
		page.SetLSN(b.Page(), lsn)
	}
	return nil
}

// RewriteHeader gives tup, a row version formed anew, the visibility of
// old, the live version it copies, as rewrite_heap_tuple does: old's
// t_xmin, t_xmax and t_cid, the visibility bits of its t_infomask with the
// hints HeapTupleSatisfiesVacuum sets (o decides the transactions' fates),
// and no visibility bits in t_infomask2. Then the copy is frozen as
// heap_freeze_tuple freezes it with a VACUUM FULL's cutoff (freeze_min_age
// 0): an xmin older than the horizon o gives (Horizon; every running
// transaction's xmin) is marked frozen, keeping its value, and an xmax of a
// locker or an aborted transaction older than it is cleared.
func RewriteHeader(tup, old []byte, o Oracle) {
	le := binary.LittleEndian
	copy(tup[offXmin:offCtid], old[offXmin:offCtid]) // t_xmin, t_xmax, t_cid
	_, hints := satisfiesVacuum(old, 0, o)
	im := le.Uint16(tup[offInfomask:])&^HeapXactMask | (Infomask(old)|hints)&HeapXactMask
	if h, ok := o.(Horizon); ok {
		cutoff := h.OldestXmin()
		if xmin := Xmin(tup); im&HeapXminCommitted != 0 && XidPrecedes(xmin, cutoff) {
			im |= HeapXminFrozen
		}
		if xmax := Xmax(tup); xmax != InvalidXid && XidPrecedes(xmax, cutoff) {
			// A live copy's xmax is a locker's or an aborted deleter's.
			le.PutUint32(tup[offXmax:], InvalidXid)
			im = im&^(HeapXmaxCommitted|HeapLockMask|HeapXmaxLockOnly|HeapXmaxIsMulti) | HeapXmaxInvalid
		}
	}
	le.PutUint16(tup[offInfomask:], im)
	le.PutUint16(tup[offInfomask2:], le.Uint16(tup[offInfomask2:])&^Heap2XactMask)
}

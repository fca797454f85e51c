package heap

// Speculative insertion, for INSERT ... ON CONFLICT: heap_insert with
// HEAP_INSERT_SPECULATIVE, heap_finish_speculative and
// heap_abort_speculative.
//
// An inserter that must not raise a unique violation on its conflict
// target inserts the tuple speculatively, then its index entries. Until it
// decides, the tuple's t_ctid holds no TID but the inserter's speculative
// insertion token (block number) and SpecTokenOffset (offset): another
// writer that finds the tuple through an index while its inserter is still
// running waits for that token only (the inserter's speculative insertion
// lock, in txn), not for the whole transaction, and then looks again.
// When no entry conflicted, FinishSpeculative puts the tuple's own TID in
// t_ctid (XLOG_HEAP_CONFIRM) and the tuple is an ordinary insert of its
// transaction. When one did, AbortSpeculative "super-deletes" it: t_xmin
// becomes InvalidXid, which makes it dead to everyone at once (what waiters
// woken by the token then see), and the change is logged as an
// XLOG_HEAP_DELETE flagged XLH_DELETE_IS_SUPER.

import (
	"minipg/storage/buffer"
	"minipg/storage/page"
)

// SpecTokenOffset is SpecTokenOffsetNumber: the t_ctid offset of a tuple
// whose speculative insertion is not decided yet; its t_ctid block number
// is the inserter's token. No line pointer has this offset
// (MaxHeapTuplesPerPage is far below it).
const SpecTokenOffset uint16 = 0xfffe

// SpeculativeToken returns the speculative insertion token of tuple t (a
// copy or a slice into a locked page) and whether t is speculative at all
// (HeapTupleHeaderIsSpeculative).
func SpeculativeToken(t []byte) (token uint32, ok bool) {
	ctid := Ctid(t)
	if ctid.Offset != SpecTokenOffset {
		return 0, false
	}
	return ctid.Block, true
}

// InsertSpeculative is Insert of a tuple whose insertion transaction xid
// may still take back: t_ctid holds token (which must not be 0) instead of
// the new TID, and the record is flagged XLH_INSERT_IS_SPECULATIVE. The
// caller holds its speculative insertion lock for token until it calls
// FinishSpeculative or AbortSpeculative on the returned TID; no other
// operation may touch the tuple before that.
func (r *Relation) InsertSpeculative(tup []byte, xid, cid, token uint32, st *InsertState) (page.TID, error) {
	if token == 0 {
		return page.TID{}, ErrBadSpecToken
	}
	return r.insert(tup, xid, cid, token, st, 0)
}

// FinishSpeculative confirms the speculative insertion at tid
// (heap_finish_speculative): t_ctid becomes the tuple's own TID, logged as
// XLOG_HEAP_CONFIRM. u counts the buffer access (nil: not counted).
func (r *Relation) FinishSpeculative(tid page.TID, u *buffer.Usage) error {
	buf, t, err := r.speculativeTuple(tid, u)
	if err != nil {
		return err
	}
	SetCtid(t, tid)
	r.logChange(u, walConfirm, buf, nil, tid.Offset)
	buf.Unlock()
	buf.Release()
	return nil
}

// AbortSpeculative super-deletes the speculative insertion of transaction
// xid at tid (heap_abort_speculative): t_xmin = InvalidXid makes the tuple
// dead to every transaction, the xmax bits and HEAP_KEYS_UPDATED are
// cleared, t_ctid becomes the tuple's own TID, and the page is marked
// prunable at once (pd_prune_xid: the oldest xid o's horizon still
// considers running, or xid when o has none). Logged as XLOG_HEAP_DELETE
// with XLH_DELETE_IS_SUPER, whose redo sets t_xmin instead of t_xmax. Index
// entries made for the tuple stay; they lead to a dead tuple, as any
// aborted insert's do, until pruning and VACUUM remove them.
func (r *Relation) AbortSpeculative(tid page.TID, xid uint32, o Oracle, u *buffer.Usage) error {
	buf, t, err := r.speculativeTuple(tid, u)
	if err != nil {
		return err
	}
	if Xmin(t) != xid {
		buf.Unlock()
		buf.Release()
		return errCorruptTID(tid, "attempted to kill a tuple inserted by another transaction")
	}
	pruneXid := xid
	if h, ok := o.(Horizon); ok {
		pruneXid = h.OldestXmin()
	}
	p := buf.Page()
	setPrunable(p, pruneXid)
	SetInfomask(t, Infomask(t)&^(heapXmaxBits|HeapMoved))
	SetInfomask2(t, Infomask2(t)&^HeapKeysUpdated)
	SetXmin(t, InvalidXid)
	SetCtid(t, tid)
	r.notePrunable(tid.Block, xid, r.pruneSpaceLow(p))
	r.logChangeX(u, walSuperDelete, buf, nil, &walExtra{xid: xid}, tid.Offset)
	r.stats.deletes.Add(1)
	buf.Unlock()
	buf.Release()
	return nil
}

// speculativeTuple pins and exclusively locks the page of tid and returns
// the speculatively inserted tuple there (a slice into the page). On an
// error nothing is held.
func (r *Relation) speculativeTuple(tid page.TID, u *buffer.Usage) (*buffer.Buffer, []byte, error) {
	buf, err := r.readBlockIfExists(tid.Block, u)
	if err != nil {
		return nil, nil, err
	}
	if buf == nil {
		return nil, nil, ErrTIDOutOfRange
	}
	buf.Lock()
	t, err := normalItem(buf.Page(), tid.Block, tid.Offset)
	if err == nil && t == nil {
		err = errCorruptTID(tid, "no tuple where a speculative insertion was made")
	}
	if err == nil {
		if _, ok := SpeculativeToken(t); !ok {
			err = errCorruptTID(tid, "attempted to decide a non-speculative tuple")
		}
	}
	if err != nil {
		buf.Unlock()
		buf.Release()
		return nil, nil, err
	}
	return buf, t, nil
}

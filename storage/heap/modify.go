package heap

// heap_update, heap_delete and heap_lock_tuple (FOR UPDATE only).

import (
	"minipg/storage/buffer"
	"minipg/storage/page"
)

// Result is TM_Result: the outcome of Update, Delete and Lock.
type Result int

// Results, with PostgreSQL's meanings.
const (
	// TMOk: the row was updated, deleted or locked.
	TMOk Result = iota
	// TMInvisible: the row version is not visible to the command at all
	// (inserted by a later command of this transaction, or by a transaction
	// still running or aborted). PostgreSQL reports "attempted to update
	// invisible tuple" for it.
	TMInvisible
	// TMSelfModified: this transaction already updated or deleted the row
	// in the current command or a later one.
	TMSelfModified
	// TMUpdated: a committed transaction updated the row; FailureData.Ctid
	// is the next version. READ COMMITTED follows it (FetchAny), rechecks
	// the new version and retries there.
	TMUpdated
	// TMDeleted: a committed transaction deleted the row (or the version's
	// line pointer no longer holds a tuple).
	TMDeleted
	// TMBeingModified: transaction FailureData.Xmax, still running, updated,
	// deleted or locked the row. The caller waits for it to end and calls
	// again.
	TMBeingModified
)

var resultNames = [...]string{"TM_Ok", "TM_Invisible", "TM_SelfModified", "TM_Updated", "TM_Deleted", "TM_BeingModified"}

func (r Result) String() string {
	if r >= 0 && int(r) < len(resultNames) {
		return resultNames[r]
	}
	return "TM_Result(?)"
}

// FailureData is TM_FailureData: for a Result other than TMOk, the row
// version's t_ctid (the next version after an update, itself after a
// delete) and its updating/locking xid.
type FailureData struct {
	Ctid page.TID
	Xmax uint32
}

// beginModify pins and exclusively locks the page of tid and decides with
// HeapTupleSatisfiesUpdate whether transaction xid at command cid may
// modify the tuple there (snap.Own, when set, names the transaction's other
// xids: its top level's and its subtransactions'). On TMOk it returns the locked buffer and the
// tuple (a slice into the page); otherwise the buffer is already released.
// ownLock reports that the transaction itself holds a lock-only xmax on the
// tuple. The buffer access is counted in snap.Usage.
func (r *Relation) beginModify(tid page.TID, xid, cid uint32, snap *Snapshot) (buf *buffer.Buffer, t []byte, res Result, fd FailureData, ownLock bool, err error) {
	o, u := snap.Oracle, snap.Usage
	if o == nil {
		return nil, nil, 0, fd, false, ErrNoOracle
	}
	buf, err = r.readBlockIfExists(tid.Block, u)
	if err != nil {
		return nil, nil, 0, fd, false, err
	}
	if buf == nil {
		return nil, nil, 0, fd, false, ErrTIDOutOfRange
	}
	buf.Lock()
	t, err = normalItem(buf.Page(), tid.Block, tid.Offset)
	if err != nil || t == nil {
		buf.Unlock()
		buf.Release()
		// No tuple any more: it was pruned, which requires it to be dead
		// to everyone.
		return nil, nil, TMDeleted, FailureData{Ctid: tid}, false, err
	}
	w := writer{xid: xid, own: snap.Own}
	res, hints := satisfiesUpdate(t, tid.Block, tid.Offset, w, cid, o)
	if applyHints(t, hints) {
		buf.MarkDirtyUsage(u) // hint bits only
		r.stats.hintDirty.Add(1)
	}
	if res == TMBeingModified && w.is(Xmax(t)) && xmaxIsLockedOnly(Infomask(t)) {
		// We already hold the row lock (SELECT ... FOR UPDATE earlier in
		// this transaction or one of its subtransactions): proceed, as
		// heap_update does.
		res, ownLock = TMOk, true
	}
	if res != TMOk {
		fd = FailureData{Ctid: Ctid(t), Xmax: Xmax(t)}
		buf.Unlock()
		buf.Release()
		return nil, nil, res, fd, false, nil
	}
	return buf, t, TMOk, fd, ownLock, nil
}

// Update replaces the row version at otid with newtup (built by FormTuple)
// for transaction xid at command cid, and returns the new version's TID.
// snap supplies the Oracle; visibility to the command is decided by
// HeapTupleSatisfiesUpdate against xid and cid, as in PostgreSQL.
//
// The new version goes on the old version's page when it fits there (the
// fillfactor reserve may be used), else through the insert path with the
// old block as a hint to the policy. In that case the old version is first
// marked locked by xid, its page unlocked, and both pages locked again in
// block order, so that no buffer lock is held while the relation is
// extended. The old version gets t_xmax = xid and t_ctid = the new TID; the
// new one HEAP_UPDATED.
//
// A Result other than TMOk means nothing was changed; see Result for what
// the caller does next.
//
// HOT: when the new version goes on the old version's page and no column
// named in SetIndexAttrs' Indexed changed (binary comparison), the update is
// heap-only: the old version gets HEAP_HOT_UPDATED, the new one
// HEAP_ONLY_TUPLE. As PostgreSQL's heap_update does with its caller's
// tuple, Update then also sets HEAP_ONLY_TUPLE in newtup's header (and
// clears it otherwise): the caller tests IsHeapOnly(newtup) and, if true,
// must not insert index entries for the new version (the existing entries
// reach it through the HOT chain; see FetchHot). A changed column of
// SetIndexAttrs' Key sets HEAP_KEYS_UPDATED on the old version, as does a
// FOR UPDATE lock xid took on it before. A row lock xid held on the old
// version leaves the new one with t_xmax = xid as a FOR KEY SHARE locker,
// as in PostgreSQL.
//
// An error other than a pgerr from the layers below
// is never returned with partial changes, except that on an I/O error while
// finding a new page the old version stays locked by xid (the transaction
// is expected to abort, which releases it).
func (r *Relation) Update(snap *Snapshot, otid page.TID, newtup []byte, xid, cid uint32, st *InsertState) (page.TID, Result, FailureData, error) {
	if err := r.checkNewTuple(newtup); err != nil {
		return page.TID{}, 0, FailureData{}, err
	}
	if snap == nil {
		return page.TID{}, 0, FailureData{}, ErrNoOracle
	}
	buf, t, res, fd, ownLock, err := r.beginModify(otid, xid, cid, snap)
	if err != nil || res != TMOk {
		return page.TID{}, res, fd, err
	}
	cidVal, combo, err := cmaxValue(t, writer{xid: xid, own: snap.Own}, cid)
	if err != nil {
		buf.Unlock()
		buf.Release()
		return page.TID{}, 0, FailureData{}, err
	}
	// HeapDetermineColumnsInfo: a changed key column takes the row's
	// exclusive (key) lock, HEAP_KEYS_UPDATED; a changed indexed column
	// rules out HOT. A FOR UPDATE lock the transaction holds on the row
	// makes the update's lock as strong (compute_new_xmax_infomask keeps
	// the stronger of the two modes of one transaction).
	indexedChanged, keyChanged := r.modifiedColumns(t, newtup)
	var keysUpdated uint16
	if keyChanged || (ownLock && Infomask2(t)&HeapKeysUpdated != 0) {
		keysUpdated = HeapKeysUpdated
	}
	need := page.MaxAlignLen(len(newtup))
	p := buf.Page()
	newbuf := buf
	st.noteRelated(r.rel, xid, otid.Block)
	if need > page.HeapFreeSpace(p) {
		// Lock the old version against other writers while its page is
		// unlocked (heap_update's xmax_lock_old_tuple).
		SetInfomask(t, Infomask(t)&^(heapXmaxBits|HeapMoved)|HeapXmaxLockOnly|HeapXmaxExclLock)
		SetInfomask2(t, Infomask2(t)&^(HeapKeysUpdated|HeapHotUpdated)|keysUpdated)
		SetXmax(t, xid)
		setCidValue(t, cidVal, combo)
		SetCtid(t, otid) // looks locked, not updated, meanwhile
		r.logChange(snap.Usage, walLock, buf, nil, otid.Offset)
		buf.Unlock()
		newbuf, err = r.getBufferForTuple(need, buf, st, 1, xid, snap.Oracle, snap.Usage)
		if err != nil {
			buf.Release()
			return page.TID{}, 0, FailureData{}, err
		}
		// Pruning may have moved the old version while the page was
		// unlocked; it cannot have removed it (we hold its xmax).
		t = page.Item(p, otid.Offset)
	}
	ntid, err := r.putTuple(newbuf, newtup, xid, cid, HeapUpdated)
	if err != nil {
		r.unlockPair(buf, newbuf)
		return page.TID{}, 0, FailureData{}, err
	}
	if ownLock {
		// The row lock xid held on the old version stays, as a FOR KEY
		// SHARE lock on the new one (heap_update's xmax_new_tuple: the
		// locker remains).
		nt := page.Item(newbuf.Page(), ntid.Offset)
		SetInfomask(nt, Infomask(nt)&^HeapXmaxInvalid|HeapXmaxKeyshrLock|HeapXmaxLockOnly)
		SetXmax(nt, xid)
	}
	hot := newbuf == buf && !indexedChanged
	SetInfomask(t, Infomask(t)&^(heapXmaxBits|HeapMoved))
	SetInfomask2(t, Infomask2(t)&^(HeapKeysUpdated|HeapHotUpdated)|keysUpdated)
	SetInfomask2(newtup, Infomask2(newtup)&^HeapOnlyTuple)
	if hot {
		SetInfomask2(t, Infomask2(t)|HeapHotUpdated)
		nt := page.Item(p, ntid.Offset)
		SetInfomask2(nt, Infomask2(nt)|HeapOnlyTuple)
		SetInfomask2(newtup, Infomask2(newtup)|HeapOnlyTuple)
	}
	SetXmax(t, xid)
	setCidValue(t, cidVal, combo)
	SetCtid(t, ntid)
	setPrunable(p, xid)
	// (A version moved off the page marks it full below.)
	r.notePrunable(buf.Block(), xid, newbuf != buf || r.pruneSpaceLow(p))
	if newbuf != buf {
		st.noteRelated(r.rel, xid, newbuf.Block())
		// A hint that the old page could use pruning.
		page.SetFlags(p, page.Flags(p)|page.PDPageFull)
		r.logChange(snap.Usage, walUpdate, buf, newbuf, otid.Offset, ntid.Offset)
		r.stats.updOther.Add(1)
	} else {
		r.logChange(snap.Usage, walSameUpdate, buf, nil, otid.Offset, ntid.Offset)
		r.stats.updSame.Add(1)
		if hot {
			r.stats.updHot.Add(1)
		}
	}
	r.unlockPair(buf, newbuf)
	return ntid, TMOk, FailureData{}, nil
}

// unlockPair unlocks and releases buf and, if different, newbuf.
func (r *Relation) unlockPair(buf, newbuf *buffer.Buffer) {
	if newbuf != buf {
		newbuf.Unlock()
		newbuf.Release()
	}
	buf.Unlock()
	buf.Release()
}

// Delete marks the row version at tid deleted by transaction xid at
// command cid (t_xmax = xid, HEAP_KEYS_UPDATED, t_ctid left pointing at
// itself) and remembers xid as the page's prunable xid. Results as Update.
func (r *Relation) Delete(snap *Snapshot, tid page.TID, xid, cid uint32) (Result, FailureData, error) {
	if snap == nil {
		return 0, FailureData{}, ErrNoOracle
	}
	buf, t, res, fd, _, err := r.beginModify(tid, xid, cid, snap)
	if err != nil || res != TMOk {
		return res, fd, err
	}
	cidVal, combo, err := cmaxValue(t, writer{xid: xid, own: snap.Own}, cid)
	if err != nil {
		buf.Unlock()
		buf.Release()
		return 0, FailureData{}, err
	}
	SetInfomask(t, Infomask(t)&^(heapXmaxBits|HeapMoved))
	SetInfomask2(t, Infomask2(t)&^HeapHotUpdated|HeapKeysUpdated)
	SetXmax(t, xid)
	setCidValue(t, cidVal, combo)
	SetCtid(t, tid)
	setPrunable(buf.Page(), xid)
	r.notePrunable(buf.Block(), xid, r.pruneSpaceLow(buf.Page()))
	r.logChange(snap.Usage, walDelete, buf, nil, tid.Offset)
	r.stats.deletes.Add(1)
	buf.Unlock()
	buf.Release()
	return TMOk, FailureData{}, nil
}

// Lock takes a FOR UPDATE row lock on the version at tid for transaction
// xid: t_xmax = xid with HEAP_XMAX_LOCK_ONLY | HEAP_XMAX_EXCL_LOCK and
// HEAP_KEYS_UPDATED, as heap_lock_tuple with LockTupleExclusive. A lock
// already held by xid is TMOk without a change. A lock-only xmax of a
// transaction that has ended does not block. Results as Update.
func (r *Relation) Lock(snap *Snapshot, tid page.TID, xid, cid uint32) (Result, FailureData, error) {
	return r.lock(snap, tid, xid, cid, true)
}

// LockNoKey is Lock in FOR NO KEY UPDATE mode (LockTupleNoKeyExclusive),
// the lock INSERT ... ON CONFLICT DO UPDATE takes on a row whose key it
// does not change: the same xmax bits without HEAP_KEYS_UPDATED. minipg
// has no FOR KEY SHARE lock, the one mode it does not conflict with, so the
// two modes differ in that bit alone. A FOR UPDATE lock xid already holds
// stays as it is.
func (r *Relation) LockNoKey(snap *Snapshot, tid page.TID, xid, cid uint32) (Result, FailureData, error) {
	return r.lock(snap, tid, xid, cid, false)
}

// lock is Lock (keys: FOR UPDATE) and LockNoKey. A weaker lock xid holds
// (FOR NO KEY UPDATE, or the FOR KEY SHARE an update of a locked row left
// on the new version) is upgraded.
func (r *Relation) lock(snap *Snapshot, tid page.TID, xid, cid uint32, keys bool) (Result, FailureData, error) {
	if snap == nil {
		return 0, FailureData{}, ErrNoOracle
	}
	buf, t, res, fd, ownLock, err := r.beginModify(tid, xid, cid, snap)
	if err != nil || res != TMOk {
		return res, fd, err
	}
	var keysUpdated uint16
	if keys {
		keysUpdated = HeapKeysUpdated
	}
	// A lock xid holds already is kept when it is at least as strong: an
	// exclusive one (not FOR SHARE or FOR KEY SHARE), with HEAP_KEYS_UPDATED
	// when FOR UPDATE is asked for.
	held := ownLock && Infomask(t)&HeapLockMask == HeapXmaxExclLock && Infomask2(t)&keysUpdated == keysUpdated
	if !held {
		SetInfomask(t, Infomask(t)&^(heapXmaxBits|HeapMoved)|HeapXmaxLockOnly|HeapXmaxExclLock)
		// A lock-only xmax ends any HOT chain and forward link left by an
		// aborted update (heap_lock_tuple).
		SetInfomask2(t, Infomask2(t)&^(HeapHotUpdated|HeapKeysUpdated)|keysUpdated)
		SetXmax(t, xid)
		SetCtid(t, tid)
		r.logChange(snap.Usage, walLock, buf, nil, tid.Offset)
		r.stats.locks.Add(1)
	}
	buf.Unlock()
	buf.Release()
	return TMOk, FailureData{}, nil
}

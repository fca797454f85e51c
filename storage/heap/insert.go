package heap

// heap_insert and heap_multi_insert.

import (
	"minipg/storage/buffer"
	"minipg/storage/page"
)

// Insert stores tup, a tuple built by FormTuple, as a new row version
// inserted by transaction xid at command cid, and returns its TID. The
// header's transaction fields are set as heap_prepare_insert does (t_xmin =
// xid, t_cid = cid, t_xmax = 0 with HEAP_XMAX_INVALID, t_ctid = the new
// TID); tup itself is not modified. st (may be nil) carries the session's
// target block. A tuple longer than MaxHeapTupleSize after MAXALIGN fails
// with 54000 "row is too big".
func (r *Relation) Insert(tup []byte, xid, cid uint32, st *InsertState) (page.TID, error) {
	return r.insert(tup, xid, cid, 0, st, 0)
}

// InsertFrozen is Insert of a row version that every transaction sees
// whatever becomes of xid: t_infomask gets HEAP_XMIN_FROZEN, as PostgreSQL's
// heap_insert with HEAP_INSERT_FROZEN (COPY FREEZE) sets it, and the WAL
// record carries it. A table rewrite whose catalog change does not follow
// the transaction (ALTER TABLE ... ALTER COLUMN ... TYPE) copies the
// committed rows with it.
func (r *Relation) InsertFrozen(tup []byte, xid, cid uint32, st *InsertState) (page.TID, error) {
	return r.insert(tup, xid, cid, 0, st, HeapXminFrozen)
}

// insert is Insert, InsertFrozen (extraInfomask HEAP_XMIN_FROZEN) and
// InsertSpeculative (a token other than 0).
func (r *Relation) insert(tup []byte, xid, cid, token uint32, st *InsertState, extraInfomask uint16) (page.TID, error) {
	if err := r.checkNewTuple(tup); err != nil {
		return page.TID{}, err
	}
	u := st.Usage()
	buf, err := r.getBufferForTuple(page.MaxAlignLen(len(tup)), nil, st, 1, xid, nil, u)
	if err != nil {
		return page.TID{}, err
	}
	tid, err := r.putTuple(buf, tup, xid, cid, extraInfomask)
	if err == nil {
		var x *walExtra
		if token != 0 {
			SetCtid(page.Item(buf.Page(), tid.Offset), page.TID{Block: token, Offset: SpecTokenOffset})
			x = &walExtra{speculative: true}
		}
		r.logChangeX(u, walInsert, buf, nil, x, tid.Offset)
		r.stats.inserts.Add(1)
	}
	buf.Unlock()
	buf.Release()
	return tid, err
}

// MultiInsert inserts tups like heap_multi_insert: it fills each page it
// gets from the insert path with as many of the following tuples as fit
// (leaving the fillfactor reserve) before asking for the next page. All
// tuples are checked for size before any is inserted. The returned TIDs are
// in the order of tups.
func (r *Relation) MultiInsert(tups [][]byte, xid, cid uint32, st *InsertState) ([]page.TID, error) {
	tids := make([]page.TID, len(tups))
	u := st.Usage()
	for _, t := range tups {
		if err := r.checkNewTuple(t); err != nil {
			return nil, err
		}
	}
	remaining := 0
	for _, t := range tups {
		remaining += page.MaxAlignLen(len(t)) + page.ItemIDSize
	}
	for done := 0; done < len(tups); {
		// Pages the rest will need, for the policy's extension sizing (as
		// PostgreSQL 16 computes num_pages).
		numPages := 1 + remaining/max(1, page.BlockSize-page.HeaderSize-r.saveFree)
		buf, err := r.getBufferForTuple(page.MaxAlignLen(len(tups[done])), nil, st, numPages, xid, nil, u)
		if err != nil {
			return nil, err
		}
		p := buf.Page()
		n := 0
		for done+n < len(tups) {
			t := tups[done+n]
			if n > 0 && page.HeapFreeSpace(p) < page.MaxAlignLen(len(t))+r.saveFree {
				break
			}
			tid, err := r.putTuple(buf, t, xid, cid, 0)
			if err != nil {
				if n > 0 {
					r.logChangeX(u, walMultiInsert, buf, nil, &walExtra{lastInMulti: true}, tidOffsets(tids[done:done+n])...)
				}
				buf.Unlock()
				buf.Release()
				return nil, err
			}
			tids[done+n] = tid
			remaining -= page.MaxAlignLen(len(t)) + page.ItemIDSize
			n++
		}
		r.logChangeX(u, walMultiInsert, buf, nil, &walExtra{lastInMulti: done+n == len(tups)}, tidOffsets(tids[done:done+n])...)
		buf.Unlock()
		buf.Release()
		r.stats.inserts.Add(int64(n))
		done += n
	}
	return tids, nil
}

// checkNewTuple validates a caller-built tuple before it is placed.
func (r *Relation) checkNewTuple(tup []byte) error {
	if len(tup) < TupleHeaderSize {
		return ErrTupleTooShort
	}
	if n := page.MaxAlignLen(len(tup)); n > MaxHeapTupleSize {
		return errRowTooBig(n)
	}
	if h := Hoff(tup); h < TupleHeaderSize || h > len(tup) {
		return ErrBadTuple
	}
	return nil
}

// putTuple is RelationPutHeapTuple plus heap_prepare_insert's header setup:
// it adds tup to the locked page of buf and stamps the copy on the page.
// extraInfomask is or-ed into t_infomask (HEAP_UPDATED for update's new
// version). The caller holds the exclusive lock and logs the change.
func (r *Relation) putTuple(buf *buffer.Buffer, tup []byte, xid, cid uint32, extraInfomask uint16) (page.TID, error) {
	p := buf.Page()
	off := page.AddItem(p, tup, 0, false, true)
	if off == 0 {
		// The insert path promised room; a failure here means the page
		// changed under our lock or the free-space arithmetic is wrong.
		return page.TID{}, errCorrupt(buf.Block(), "failed to add tuple of %d bytes (free %d)", len(tup), page.HeapFreeSpace(p))
	}
	tid := page.TID{Block: buf.Block(), Offset: off}
	t := page.Item(p, off)
	SetInfomask(t, Infomask(t)&^HeapXactMask|HeapXmaxInvalid|extraInfomask)
	SetInfomask2(t, Infomask2(t)&^Heap2XactMask)
	SetXmin(t, xid)
	SetXmax(t, InvalidXid)
	SetCid(t, cid)
	SetCtid(t, tid)
	return tid, nil
}

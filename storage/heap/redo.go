package heap

// Redo of the heap's WAL records (heap_redo, heap2_redo). Recovery is
// single-threaded: each block is read with wal.ReadBufferForRedo, which
// restores full-page images and says whether the page is older than the
// record; a change is reapplied only then, and the page gets the record's
// end LSN. Replaying a record on the page state it was made on gives the
// same bytes, except tuple hint bits and the pd_prune_xid/PD_PAGE_FULL hints
// changed without WAL since the last logged change (PostgreSQL's heap_mask
// ignores the same).

import (
	"encoding/binary"
	"fmt"

	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/page"
	"minipg/storage/wal"
)

// RegisterRedo registers the redo functions of the Heap and Heap2 resource
// managers with l, replaying into pool. Call it before l.Recover.
func RegisterRedo(l *wal.Log, pool *buffer.Pool) {
	h, h2 := RedoFuncs(pool)
	l.RegisterRedo(wal.RmgrHeap, h)
	l.RegisterRedo(wal.RmgrHeap2, h2)
}

// RedoFuncs returns the redo functions of the Heap and Heap2 resource
// managers over pool, for a caller that wraps them (e.g. to note xids).
func RedoFuncs(pool *buffer.Pool) (heap, heap2 wal.RedoFunc) {
	return func(rec *wal.DecodedRecord) error { return heapRedo(pool, rec) },
		func(rec *wal.DecodedRecord) error { return heap2Redo(pool, rec) }
}

// clearsAllVisible reports whether rec is an insert, multi-insert, update,
// delete or page image: a change that clears its pages' all-visible mark
// (walKind.clearsAllVisible; a lock, a confirm, a prune and a vacuum keep
// it).
func clearsAllVisible(rec *wal.DecodedRecord) bool {
	switch rec.Rmgr {
	case wal.RmgrHeap:
		op := rec.Info & xlHeapOpMask
		return op != xlHeapLock && op != xlHeapConfirm
	case wal.RmgrHeap2:
		switch rec.Info &^ xlHeapInitPage {
		case xl2PageImage, xl2MultiInsert:
			return true
		}
	}
	return false
}

func errRedo(rec *wal.DecodedRecord, format string, args ...any) error {
	return pgerr.New(pgerr.DataCorrupted, "heap redo of record at %s (rmgr %d, info %#x): %s",
		wal.FormatLSN(rec.LSN), rec.Rmgr, rec.Info, fmt.Sprintf(format, args...))
}

// redoBlock runs apply on block i of rec if the page needs the change, then
// stamps the page with the record's end LSN and marks it dirty. For a
// change that clears all-visible it also clears PD_ALL_VISIBLE on a page
// it changes, and the block's visibility map bits whatever the page's
// state, since the map page may be older than the heap page (the
// XLH_*_ALL_VISIBLE_CLEARED handling of heap_xlog_insert and the others,
// done for every such record: a clear bit only costs VACUUM a read).
func redoBlock(pool *buffer.Pool, rec *wal.DecodedRecord, i int, apply func(p page.Page, blk uint32) error) error {
	if i >= len(rec.Blocks) {
		return errRedo(rec, "missing block reference %d", i)
	}
	buf, action, err := wal.ReadBufferForRedo(pool, rec, i)
	if err != nil {
		return err
	}
	defer func() {
		buf.Unlock()
		buf.Release()
	}()
	clears := clearsAllVisible(rec)
	if clears {
		b := &rec.Blocks[i]
		if _, err := vmClear(pool, b.Rel, b.Block); err != nil {
			return err
		}
	}
	if action != wal.BlockNeedsRedo {
		return nil
	}
	p := buf.Page()
	if err := apply(p, rec.Blocks[i].Block); err != nil {
		return err
	}
	if clears {
		page.SetFlags(p, page.Flags(p)&^page.PDAllVisible)
	}
	page.SetLSN(p, rec.EndLSN)
	buf.MarkDirty()
	return nil
}

func heapRedo(pool *buffer.Pool, rec *wal.DecodedRecord) error {
	d := rec.MainData
	init := rec.Info&xlHeapInitPage != 0
	switch rec.Info & xlHeapOpMask {
	case xlHeapInsert:
		if len(d) != xlInsertSize || len(rec.Blocks) != 1 {
			return errRedo(rec, "bad insert record")
		}
		off := binary.LittleEndian.Uint16(d)
		return redoBlock(pool, rec, 0, func(p page.Page, blk uint32) error {
			if init {
				page.Init(p, 0)
			}
			return redoAddTuple(rec, p, blk, off, InvalidXid, rec.Blocks[0].Data)
		})

	case xlHeapDelete, xlHeapLock:
		if len(d) != xlDeleteSize || len(rec.Blocks) != 1 {
			return errRedo(rec, "bad delete/lock record")
		}
		old := decodeXmaxChange(d)
		del := rec.Info&xlHeapOpMask == xlHeapDelete
		return redoBlock(pool, rec, 0, func(p page.Page, blk uint32) error {
			t, err := old.tuple(rec, p, blk)
			if err != nil {
				return err
			}
			xmax := Xmax(t)
			old.apply(t)
			self := page.TID{Block: blk, Offset: old.off}
			switch {
			case del && old.flags&xlDeleteIsSuper != 0:
				// A speculative insertion taken back: the tuple's t_xmin
				// goes, its t_xmax stays what it was (heap_xlog_delete).
				SetXmax(t, xmax)
				SetXmin(t, InvalidXid)
				SetInfomask2(t, Infomask2(t)&^HeapHotUpdated)
				SetCtid(t, self)
				setPrunable(p, rec.Xid)
			case del:
				// heap_xlog_delete: no longer HOT-updated, t_ctid itself.
				SetInfomask2(t, Infomask2(t)&^HeapHotUpdated)
				SetCtid(t, self)
				setPrunable(p, rec.Xid)
			case xmaxIsLockedOnly(Infomask(t)):
				// heap_xlog_lock: a mere locker leaves no forward link.
				SetInfomask2(t, Infomask2(t)&^HeapHotUpdated)
				SetCtid(t, self)
			}
			return nil
		})

	case xlHeapConfirm:
		if len(d) != xlConfirmSize || len(rec.Blocks) != 1 {
			return errRedo(rec, "bad confirm record")
		}
		off := binary.LittleEndian.Uint16(d)
		return redoBlock(pool, rec, 0, func(p page.Page, blk uint32) error {
			t, err := normalItem(p, blk, off)
			if err != nil {
				return err
			}
			if t == nil {
				return errRedo(rec, "no tuple at (%d,%d)", blk, off)
			}
			SetCtid(t, page.TID{Block: blk, Offset: off})
			return nil
		})

	case xlHeapUpdate, xlHeapHotUpdate:
		if len(d) != xlUpdateSize || len(rec.Blocks) < 1 || len(rec.Blocks) > 2 {
			return errRedo(rec, "bad update record")
		}
		old := decodeXmaxChange(d)
		hot := rec.Info&xlHeapOpMask == xlHeapHotUpdate
		newXmax, newOff := binary.LittleEndian.Uint32(d[8:]), binary.LittleEndian.Uint16(d[12:])
		other := len(rec.Blocks) == 2
		newTID := page.TID{Block: rec.Blocks[0].Block, Offset: newOff}
		oldIdx := 0
		if other {
			oldIdx = 1
		}
		// The old page first (heap_xlog_update), then the new one.
		if other && old.flags&(xlUpdatePrefixFromOld|xlUpdateSuffixFromOld) != 0 {
			return errRedo(rec, "bad update record: prefix or suffix from an old version on another page")
		}
		if err := redoBlock(pool, rec, oldIdx, func(p page.Page, blk uint32) error {
			t, err := old.tuple(rec, p, blk)
			if err != nil {
				return err
			}
			var data []byte
			if !other {
				// The prefix and suffix come from the old version as it
				// is before its header changes (they are past t_hoff).
				if data, err = updateFromOld(rec, t, old); err != nil {
					return err
				}
			}
			old.apply(t)
			if hot {
				SetInfomask2(t, Infomask2(t)|HeapHotUpdated)
			} else {
				SetInfomask2(t, Infomask2(t)&^HeapHotUpdated)
			}
			SetCtid(t, newTID)
			setPrunable(p, rec.Xid)
			if other {
				page.SetFlags(p, page.Flags(p)|page.PDPageFull)
				return nil
			}
			return redoAddTuple(rec, p, blk, newOff, newXmax, data)
		}); err != nil || !other {
			return err
		}
		return redoBlock(pool, rec, 0, func(p page.Page, blk uint32) error {
			if init {
				page.Init(p, 0)
			}
			return redoAddTuple(rec, p, blk, newOff, newXmax, rec.Blocks[0].Data)
		})
	}
	return errRedo(rec, "unknown heap record type")
}

func heap2Redo(pool *buffer.Pool, rec *wal.DecodedRecord) error {
	d := rec.MainData
	init := rec.Info&xlHeapInitPage != 0
	switch rec.Info &^ xlHeapInitPage {
	case xl2PageImage:
		for i := range rec.Blocks {
			if !rec.Blocks[i].HasImage {
				return errRedo(rec, "page image record without an image")
			}
			if err := redoBlock(pool, rec, i, func(page.Page, uint32) error { return nil }); err != nil {
				return err
			}
		}
		return nil

	case xl2MultiInsert:
		if len(d) < xlMultiHeaderSize || len(rec.Blocks) != 1 {
			return errRedo(rec, "bad multi-insert record")
		}
		n := int(binary.LittleEndian.Uint16(d[2:]))
		// The offsets are logged unless the record initializes the page.
		if init && len(d) != xlMultiHeaderSize || !init && len(d) != xlMultiHeaderSize+2*n {
			return errRedo(rec, "bad multi-insert record")
		}
		return redoBlock(pool, rec, 0, func(p page.Page, blk uint32) error {
			if init {
				page.Init(p, 0)
			}
			data := rec.Blocks[0].Data
			pos := 0
			for i := 0; i < n; i++ {
				off := uint16(i + 1)
				if !init {
					off = binary.LittleEndian.Uint16(d[xlMultiHeaderSize+2*i:])
				}
				pos += pos % 2
				if pos+xlMultiTupleSize > len(data) {
					return errRedo(rec, "multi-insert data too short")
				}
				dlen := int(binary.LittleEndian.Uint16(data[pos:]))
				end := pos + xlMultiTupleSize + dlen
				if end > len(data) {
					return errRedo(rec, "multi-insert data too short")
				}
				if err := redoAddTuple(rec, p, blk, off, InvalidXid, data[pos+2:end]); err != nil {
					return err
				}
				pos = end
			}
			return nil
		})

	case xl2Prune:
		if len(d) != xlPruneSize || len(rec.Blocks) != 1 {
			return errRedo(rec, "bad prune record")
		}
		nred := int(binary.LittleEndian.Uint16(d[4:]))
		ndead := int(binary.LittleEndian.Uint16(d[6:]))
		return redoBlock(pool, rec, 0, func(p page.Page, blk uint32) error {
			data := rec.Blocks[0].Data
			if len(data)%2 != 0 || len(data) < 2*(2*nred+ndead) {
				return errRedo(rec, "prune data has %d bytes", len(data))
			}
			offs := make([]uint16, len(data)/2)
			for i := range offs {
				offs[i] = binary.LittleEndian.Uint16(data[2*i:])
				if offs[i] < 1 || offs[i] > page.MaxOffset(p) {
					return errRedo(rec, "prune of line pointer %d on a page with %d", offs[i], page.MaxOffset(p))
				}
			}
			pl := prunePlan{redirected: offs[:2*nred], nowDead: offs[2*nred : 2*nred+ndead], nowUnused: offs[2*nred+ndead:]}
			for i := 0; i+1 < len(pl.redirected); i += 2 {
				page.SetItemID(p, pl.redirected[i], int(pl.redirected[i+1]), page.LPRedirect, 0)
			}
			for _, off := range pl.nowDead {
				page.SetItemID(p, off, 0, page.LPDead, 0)
			}
			for _, off := range pl.nowUnused {
				page.SetItemID(p, off, 0, page.LPUnused, 0)
			}
			if err := page.RepairFragmentationChecked(p); err != nil {
				return err
			}
			page.SetFlags(p, page.Flags(p)&^page.PDPageFull)
			return nil
		})

	case xl2Visible:
		return redoVisible(pool, rec)

	case xl2Vacuum:
		if len(d) != xlVacuumSize || len(rec.Blocks) != 1 {
			return errRedo(rec, "bad vacuum record")
		}
		nunused := int(binary.LittleEndian.Uint16(d))
		return redoBlock(pool, rec, 0, func(p page.Page, blk uint32) error {
			data := rec.Blocks[0].Data
			if len(data) != 2*nunused {
				return errRedo(rec, "bad vacuum data")
			}
			for i := 0; i < nunused; i++ {
				off := binary.LittleEndian.Uint16(data[2*i:])
				if off < 1 || off > page.MaxOffset(p) {
					return errRedo(rec, "vacuum of line pointer %d on a page with %d", off, page.MaxOffset(p))
				}
				page.SetItemID(p, off, 0, page.LPUnused, 0)
			}
			page.TruncateLinePointerArray(p)
			if hasUnused(p) {
				page.SetFlags(p, page.Flags(p)|page.PDHasFreeLines)
			}
			return nil
		})
	}
	return errRedo(rec, "unknown heap2 record type")
}

// redoAddTuple rebuilds a new tuple from its xl_heap_header and data (the
// tuple past its 23-byte header) and adds it at off: t_xmin is the record's
// xid, t_xmax xmax, t_cid FirstCommandId (0: the command id is not logged,
// as in PostgreSQL; only the inserting transaction, gone after a crash,
// reads it), t_ctid its own TID.
func redoAddTuple(rec *wal.DecodedRecord, p page.Page, blk uint32, off uint16, xmax uint32, hdrData []byte) error {
	if len(hdrData) < xlHeapHeaderSize {
		return errRedo(rec, "tuple data too short")
	}
	tup := make([]byte, TupleHeaderSize+len(hdrData)-xlHeapHeaderSize)
	SetInfomask2(tup, binary.LittleEndian.Uint16(hdrData))
	SetInfomask(tup, binary.LittleEndian.Uint16(hdrData[2:]))
	tup[offHoff] = hdrData[4]
	copy(tup[TupleHeaderSize:], hdrData[xlHeapHeaderSize:])
	SetXmin(tup, rec.Xid)
	SetXmax(tup, xmax)
	SetCid(tup, 0)
	SetCtid(tup, page.TID{Block: blk, Offset: off})
	if off == page.MaxOffset(p)+1 && page.Flags(p)&page.PDHasFreeLines != 0 {
		// The original insert searched for a free line pointer and found
		// none, which clears the hint (PageAddItem without an offset).
		page.SetFlags(p, page.Flags(p)&^page.PDHasFreeLines)
	}
	if got := page.AddItem(p, tup, off, true, true); got != off {
		return errRedo(rec, "failed to add tuple at (%d,%d)", blk, off)
	}
	return nil
}

// xmaxChange is the head of xl_heap_delete, xl_heap_lock and
// xl_heap_update: the change of an existing version's xmax.
type xmaxChange struct {
	xmax     uint32
	off      uint16
	infobits uint8
	flags    uint8
}

func decodeXmaxChange(d []byte) xmaxChange {
	return xmaxChange{
		xmax:     binary.LittleEndian.Uint32(d),
		off:      binary.LittleEndian.Uint16(d[4:]),
		infobits: d[6],
		flags:    d[7],
	}
}

// tuple returns the version at c.off of p.
func (c xmaxChange) tuple(rec *wal.DecodedRecord, p page.Page, blk uint32) ([]byte, error) {
	t, err := normalItem(p, blk, c.off)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, errRedo(rec, "no tuple at (%d,%d)", blk, c.off)
	}
	return t, nil
}

// apply sets the version's xmax and the xmax infomask bits from infobits
// (fix_infomask_from_infobits), clearing the xmax hints and
// HEAP_KEYS_UPDATED first, and t_cid to FirstCommandId (no combo cid).
func (c xmaxChange) apply(t []byte) {
	im := Infomask(t) &^ (heapXmaxBits | HeapMovedOff | HeapMovedIn | HeapComboCid)
	im2 := Infomask2(t) &^ HeapKeysUpdated
	if c.infobits&xlhlXmaxIsMulti != 0 {
		im |= HeapXmaxIsMulti
	}
	if c.infobits&xlhlXmaxLockOnly != 0 {
		im |= HeapXmaxLockOnly
	}
	if c.infobits&xlhlXmaxExclLock != 0 {
		im |= HeapXmaxExclLock
	}
	if c.infobits&xlhlXmaxKeyshrLock != 0 {
		im |= HeapXmaxKeyshrLock
	}
	if c.infobits&xlhlKeysUpdated != 0 {
		im2 |= HeapKeysUpdated
	}
	SetInfomask(t, im)
	SetInfomask2(t, im2)
	SetXmax(t, c.xmax)
	SetCid(t, 0)
}

// updateFromOld returns a same-page update's xl_heap_header and new tuple
// past its header: the block data, with the prefix and suffix it leaves out
// (xlUpdatePrefixFromOld, xlUpdateSuffixFromOld) taken from the data of the
// old version ot, as heap_xlog_update rebuilds it.
func updateFromOld(rec *wal.DecodedRecord, ot []byte, old xmaxChange) ([]byte, error) {
	d := rec.Blocks[0].Data
	if old.flags&(xlUpdatePrefixFromOld|xlUpdateSuffixFromOld) == 0 {
		return d, nil
	}
	var prefix, suffix int
	if old.flags&xlUpdatePrefixFromOld != 0 {
		if len(d) < 2 {
			return nil, errRedo(rec, "update data too short")
		}
		prefix, d = int(binary.LittleEndian.Uint16(d)), d[2:]
	}
	if old.flags&xlUpdateSuffixFromOld != 0 {
		if len(d) < 2 {
			return nil, errRedo(rec, "update data too short")
		}
		suffix, d = int(binary.LittleEndian.Uint16(d)), d[2:]
	}
	if len(d) < xlHeapHeaderSize || int(ot[offHoff]) > len(ot) {
		return nil, errRedo(rec, "update data too short")
	}
	bitmap := int(d[4]) - TupleHeaderSize // new t_hoff past the fixed header
	op := ot[ot[offHoff]:]
	if bitmap < 0 || xlHeapHeaderSize+bitmap > len(d) || prefix+suffix > len(op) {
		return nil, errRedo(rec, "bad update prefix %d / suffix %d", prefix, suffix)
	}
	out := make([]byte, 0, len(d)+prefix+suffix)
	out = append(out, d[:xlHeapHeaderSize+bitmap]...)
	out = append(out, op[:prefix]...)
	out = append(out, d[xlHeapHeaderSize+bitmap:]...)
	return append(out, op[len(op)-suffix:]...), nil
}

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

func errRedo(rec *wal.DecodedRecord, format string, args ...any) error {
	return pgerr.New(pgerr.DataCorrupted, "heap redo of record at %s (rmgr %d, info %#x): %s",
		wal.FormatLSN(rec.LSN), rec.Rmgr, rec.Info, fmt.Sprintf(format, args...))
}

// redoBlock runs apply on block i of rec if the page needs the change, then
// stamps the page with the record's end LSN and marks it dirty.
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
	if action != wal.BlockNeedsRedo {
		return nil
	}
	p := buf.Page()
	if err := apply(p, rec.Blocks[i].Block); err != nil {
		return err
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
		off, cid := binary.LittleEndian.Uint16(d), binary.LittleEndian.Uint32(d[3:])
		return redoBlock(pool, rec, 0, func(p page.Page, blk uint32) error {
			if init {
				page.Init(p, 0)
			}
			return redoAddTuple(rec, p, blk, off, cid, rec.Blocks[0].Data)
		})

	case xlHeapDelete, xlHeapLock:
		if len(d) < xlDeleteSize || len(rec.Blocks) != 1 {
			return errRedo(rec, "bad delete/lock record")
		}
		old := decodeOldTuple(d)
		del := rec.Info&xlHeapOpMask == xlHeapDelete
		var ctid *page.TID
		if !del && old.flags&xlLockHasCtid != 0 {
			if len(d) != xlDeleteSize+xlLockCtidSize {
				return errRedo(rec, "bad lock record")
			}
			ctid = &page.TID{Block: binary.LittleEndian.Uint32(d[xlDeleteSize:]), Offset: binary.LittleEndian.Uint16(d[xlDeleteSize+4:])}
		}
		return redoBlock(pool, rec, 0, func(p page.Page, blk uint32) error {
			self := page.TID{Block: blk, Offset: old.off}
			if ctid == nil {
				ctid = &self
			}
			if err := old.apply(rec, p, blk, *ctid); err != nil {
				return err
			}
			if del {
				setPrunable(p, rec.Xid)
			}
			return nil
		})

	case xlHeapUpdate, xlHeapHotUpdate:
		if len(d) != xlUpdateSize {
			return errRedo(rec, "bad update record")
		}
		old := decodeOldTuple(d)
		newOff, newCid := binary.LittleEndian.Uint16(d[15:]), binary.LittleEndian.Uint32(d[17:])
		other := old.flags&xlUpdateOtherPage != 0
		if other != (len(rec.Blocks) == 2) || len(rec.Blocks) < 1 {
			return errRedo(rec, "bad update record block count %d", len(rec.Blocks))
		}
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
			if err := old.apply(rec, p, blk, newTID); err != nil {
				return err
			}
			setPrunable(p, rec.Xid)
			if other {
				page.SetFlags(p, page.Flags(p)|page.PDPageFull)
				return nil
			}
			data, err := updateFromOld(rec, p, old)
			if err != nil {
				return err
			}
			return redoAddTuple(rec, p, blk, newOff, newCid, data)
		}); err != nil || !other {
			return err
		}
		return redoBlock(pool, rec, 0, func(p page.Page, blk uint32) error {
			if init {
				page.Init(p, 0)
			}
			return redoAddTuple(rec, p, blk, newOff, newCid, rec.Blocks[0].Data)
		})
	}
	return errRedo(rec, "unknown heap record type")
}

func heap2Redo(pool *buffer.Pool, rec *wal.DecodedRecord) error {
	d := rec.MainData
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
		n := int(binary.LittleEndian.Uint16(d[1:]))
		cid := binary.LittleEndian.Uint32(d[3:])
		if len(d) != xlMultiHeaderSize+2*n {
			return errRedo(rec, "bad multi-insert record")
		}
		return redoBlock(pool, rec, 0, func(p page.Page, blk uint32) error {
			if rec.Info&xlHeapInitPage != 0 {
				page.Init(p, 0)
			}
			data := rec.Blocks[0].Data
			pos := 0
			for i := 0; i < n; i++ {
				off := binary.LittleEndian.Uint16(d[xlMultiHeaderSize+2*i:])
				pos += pos % 2
				if pos+xlMultiTupleSize > len(data) {
					return errRedo(rec, "multi-insert data too short")
				}
				dlen := int(binary.LittleEndian.Uint16(data[pos:]))
				end := pos + xlMultiTupleSize + dlen
				if end > len(data) {
					return errRedo(rec, "multi-insert data too short")
				}
				if err := redoAddTuple(rec, p, blk, off, cid, data[pos+2:end]); err != nil {
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
		nunused := int(binary.LittleEndian.Uint16(d[8:]))
		maxoff := binary.LittleEndian.Uint16(d[10:])
		return redoBlock(pool, rec, 0, func(p page.Page, blk uint32) error {
			data := rec.Blocks[0].Data
			if len(data) != 2*(2*nred+ndead+nunused) {
				return errRedo(rec, "prune data has %d bytes", len(data))
			}
			if maxoff > page.MaxOffset(p) {
				return errRedo(rec, "prune leaves %d line pointers on a page with %d", maxoff, page.MaxOffset(p))
			}
			u16 := func(i int) uint16 { return binary.LittleEndian.Uint16(data[2*i:]) }
			for i := 0; i < nred; i++ {
				page.SetItemID(p, u16(2*i), int(u16(2*i+1)), page.LPRedirect, 0)
			}
			for i := 0; i < ndead; i++ {
				page.SetItemID(p, u16(2*nred+i), 0, page.LPDead, 0)
			}
			for i := 0; i < nunused; i++ {
				page.SetItemID(p, u16(2*nred+ndead+i), 0, page.LPUnused, 0)
			}
			for off := maxoff + 1; off <= page.MaxOffset(p); off++ {
				page.SetItemID(p, off, 0, page.LPUnused, 0)
			}
			if err := page.RepairFragmentationChecked(p); err != nil {
				return err
			}
			page.SetFlags(p, page.Flags(p)&^page.PDPageFull)
			return nil
		})

	case xl2Vacuum:
		if len(d) != xlVacuumSize || len(rec.Blocks) != 1 {
			return errRedo(rec, "bad vacuum record")
		}
		nunused := int(binary.LittleEndian.Uint16(d))
		maxoff := binary.LittleEndian.Uint16(d[2:])
		return redoBlock(pool, rec, 0, func(p page.Page, blk uint32) error {
			data := rec.Blocks[0].Data
			if len(data) != 2*nunused || maxoff > page.MaxOffset(p) {
				return errRedo(rec, "bad vacuum data")
			}
			for i := 0; i < nunused; i++ {
				page.SetItemID(p, binary.LittleEndian.Uint16(data[2*i:]), 0, page.LPUnused, 0)
			}
			for off := maxoff + 1; off <= page.MaxOffset(p); off++ {
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
// xid, t_xmax 0, t_cid cid, t_ctid its own TID.
func redoAddTuple(rec *wal.DecodedRecord, p page.Page, blk uint32, off uint16, cid uint32, hdrData []byte) error {
	if len(hdrData) < xlHeapHeaderSize {
		return errRedo(rec, "tuple data too short")
	}
	tup := make([]byte, TupleHeaderSize+len(hdrData)-xlHeapHeaderSize)
	SetInfomask2(tup, binary.LittleEndian.Uint16(hdrData))
	SetInfomask(tup, binary.LittleEndian.Uint16(hdrData[2:]))
	tup[offHoff] = hdrData[4]
	copy(tup[TupleHeaderSize:], hdrData[xlHeapHeaderSize:])
	SetXmin(tup, rec.Xid)
	SetXmax(tup, InvalidXid)
	SetCid(tup, cid)
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

// oldTuple is the header change of an existing version (delete, lock,
// update's old version).
type oldTuple struct {
	xmax, cid           uint32
	off                 uint16
	flags               uint8
	infomask, infomask2 uint16
}

func decodeOldTuple(d []byte) oldTuple {
	return oldTuple{
		xmax:      binary.LittleEndian.Uint32(d),
		off:       binary.LittleEndian.Uint16(d[4:]),
		flags:     d[6],
		cid:       binary.LittleEndian.Uint32(d[7:]),
		infomask:  binary.LittleEndian.Uint16(d[11:]),
		infomask2: binary.LittleEndian.Uint16(d[13:]),
	}
}

func (o oldTuple) apply(rec *wal.DecodedRecord, p page.Page, blk uint32, ctid page.TID) error {
	t, err := normalItem(p, blk, o.off)
	if err != nil {
		return err
	}
	if t == nil {
		return errRedo(rec, "no tuple at (%d,%d)", blk, o.off)
	}
	SetXmax(t, o.xmax)
	SetCid(t, o.cid)
	SetInfomask(t, o.infomask)
	SetInfomask2(t, o.infomask2)
	SetCtid(t, ctid)
	return nil
}

// updateFromOld returns a same-page update's xl_heap_header and new tuple
// past its header: the block data, with the prefix and suffix it leaves out
// (xlUpdatePrefixFromOld, xlUpdateSuffixFromOld) taken from the old
// version's data on p, as heap_xlog_update rebuilds it.
func updateFromOld(rec *wal.DecodedRecord, p page.Page, old oldTuple) ([]byte, error) {
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
	ot := logItem(p, old.off)
	if ot == nil || len(d) < xlHeapHeaderSize {
		return nil, errRedo(rec, "update's old version (%d,%d) is not on the page", rec.Blocks[0].Block, old.off)
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

package heap

// Heap WAL records (resource managers Heap and Heap2): how logChange turns a
// finished page change into a record. The layouts are drawn byte by byte in
// storage/wal/README.md ("Heap records"); redo.go replays them.

import (
	"encoding/binary"
	"fmt"
	"sync"

	"minipg/storage/buffer"
	"minipg/storage/page"
	"minipg/storage/wal"
)

// RmgrHeap info values (heapam_xlog.h).
const (
	xlHeapInsert    uint8 = 0x00 // XLOG_HEAP_INSERT
	xlHeapDelete    uint8 = 0x10 // XLOG_HEAP_DELETE
	xlHeapUpdate    uint8 = 0x20 // XLOG_HEAP_UPDATE
	xlHeapHotUpdate uint8 = 0x40 // XLOG_HEAP_HOT_UPDATE
	xlHeapConfirm   uint8 = 0x50 // XLOG_HEAP_CONFIRM
	xlHeapLock      uint8 = 0x60 // XLOG_HEAP_LOCK
	xlHeapOpMask    uint8 = 0x70 // XLOG_HEAP_OPMASK
	xlHeapInitPage  uint8 = 0x80 // XLOG_HEAP_INIT_PAGE: the page is rebuilt from this record
)

// RmgrHeap2 info values.
const (
	xl2PageImage   uint8 = 0x00 // minipg: a heap change logged as a forced full-page image
	xl2Prune       uint8 = 0x10 // XLOG_HEAP2_PRUNE
	xl2Vacuum      uint8 = 0x20 // XLOG_HEAP2_VACUUM
	xl2Visible     uint8 = 0x40 // XLOG_HEAP2_VISIBLE
	xl2MultiInsert uint8 = 0x50 // XLOG_HEAP2_MULTI_INSERT
)

// Main data sizes (heapam_xlog.h's SizeOfHeap*).
const (
	xlHeapHeaderSize  = 5 // xl_heap_header: t_infomask2 u16, t_infomask u16, t_hoff u8
	xlInsertSize      = 3 // xl_heap_insert: offnum u16, flags u8
	xlDeleteSize      = 8 // xl_heap_delete: xmax u32, offnum u16, infobits_set u8, flags u8
	xlUpdateSize      = 14
	xlLockSize        = 8 // xl_heap_lock: locking_xid u32, offnum u16, infobits_set u8, flags u8
	xlConfirmSize     = 2 // xl_heap_confirm: offnum u16
	xlMultiHeaderSize = 4 // xl_heap_multi_insert: flags u8, pad u8, ntuples u16 (then the offsets)
	xlMultiTupleSize  = 7 // xl_multi_insert_tuple: datalen u16, t_infomask2 u16, t_infomask u16, t_hoff u8
	xlPruneSize       = 8 // xl_heap_prune: latestRemovedXid u32, nredirected u16, ndead u16
	xlVacuumSize      = 2 // xl_heap_vacuum: nunused u16
)

// xl_heap_update (14 bytes): old_xmax u32, old_offnum u16, old_infobits_set
// u8, flags u8, new_xmax u32, new_offnum u16.
//
// Update on one page: the block data starts with the length u16 of the new
// tuple's data that equals the old one's at the start
// (XLH_UPDATE_PREFIX_FROM_OLD), then that of the end
// (XLH_UPDATE_SUFFIX_FROM_OLD), and carries only the bytes between.
const (
	xlUpdatePrefixFromOld = 0x20
	xlUpdateSuffixFromOld = 0x40
	xlInsertLastInMulti   = 0x02 // XLH_INSERT_LAST_IN_MULTI: the last record of one multi-insert
	xlInsertIsSpeculative = 0x04 // XLH_INSERT_IS_SPECULATIVE: a speculative insertion (redo ignores it)
	xlDeleteIsSuper       = 0x08 // XLH_DELETE_IS_SUPER: a speculative insertion taken back (redo clears t_xmin)
)

// infobits_set bits (XLHL_*): the xmax-related infomask bits a delete, lock
// or update sets on the old version; redo clears the others.
const (
	xlhlXmaxIsMulti    = 0x01
	xlhlXmaxLockOnly   = 0x02
	xlhlXmaxExclLock   = 0x04
	xlhlXmaxKeyshrLock = 0x08
	xlhlKeysUpdated    = 0x10
)

// infobits is compute_infobits: the XLHL_* bits of a tuple's infomasks.
func infobits(t []byte) uint8 {
	im, im2 := Infomask(t), Infomask2(t)
	var b uint8
	if im&HeapXmaxIsMulti != 0 {
		b |= xlhlXmaxIsMulti
	}
	if im&HeapXmaxLockOnly != 0 {
		b |= xlhlXmaxLockOnly
	}
	if im&HeapXmaxExclLock != 0 {
		b |= xlhlXmaxExclLock
	}
	if im&HeapXmaxKeyshrLock != 0 {
		b |= xlhlXmaxKeyshrLock
	}
	if im2&HeapKeysUpdated != 0 {
		b |= xlhlKeysUpdated
	}
	return b
}

// putHeader appends the xl_heap_header of tuple t.
func putHeader(b []byte, t []byte) []byte {
	b = binary.LittleEndian.AppendUint16(b, Infomask2(t))
	b = binary.LittleEndian.AppendUint16(b, Infomask(t))
	return append(b, t[offHoff])
}

// putXmaxChange appends xmax u32, offnum u16, infobits_set u8, flags u8:
// the head of xl_heap_delete, xl_heap_lock and xl_heap_update.
func putXmaxChange(b []byte, t []byte, off uint16, flags uint8) []byte {
	b = binary.LittleEndian.AppendUint32(b, Xmax(t))
	b = binary.LittleEndian.AppendUint16(b, off)
	return append(b, infobits(t), flags)
}

// isInitInsert reports whether the page holds exactly the tuples at offs
// and they are 1..len(offs): the insert initialized the page, so redo
// rebuilds it (XLOG_HEAP_INIT_PAGE) and no full-page image is needed.
func isInitInsert(p page.Page, offs []uint16) bool {
	if int(page.MaxOffset(p)) != len(offs) {
		return false
	}
	for i, o := range offs {
		if int(o) != i+1 {
			return false
		}
	}
	return true
}

// writeWAL logs the change of kind to the exclusively locked pages of b1
// (and b2) and sets their pd_lsn. offs are the offsets the change touched
// (see logChange); without them, or for a kind it does not know, it logs
// forced full-page images. A failed insert panics: the page is changed in
// memory and cannot be logged, which PostgreSQL treats as a PANIC too.
func (r *Relation) writeWAL(kind walKind, b1, b2 *buffer.Buffer, x *walExtra, offs []uint16, cleared visibleCleared) {
	if b2 == b1 {
		b2 = nil
	}
	sc := walScratchPool.Get().(*walScratch)
	defer walScratchPool.Put(sc)
	rec, ok := r.buildRecord(kind, b1, b2, x, offs, sc, cleared)
	if !ok {
		rec = &wal.Record{Rmgr: wal.RmgrHeap2, Info: xl2PageImage,
			Blocks: []wal.BlockRef{r.blockRef(b1, nil, false)}}
		if b2 != nil {
			rec.Blocks = append(rec.Blocks, r.blockRef(b2, nil, false))
		}
		for i := range rec.Blocks {
			rec.Blocks[i].ForceImage = true
		}
	}
	end, err := r.wal.Insert(rec)
	if err != nil {
		panic(fmt.Sprintf("heap: could not log %s on block %d of relation %d: %v", kind, b1.Block(), r.rel, err))
	}
	page.SetLSN(b1.Page(), end)
	if b2 != nil {
		page.SetLSN(b2.Page(), end)
	}
}

func (r *Relation) blockRef(b *buffer.Buffer, data []byte, willInit bool) wal.BlockRef {
	return wal.BlockRef{Rel: r.rel, Fork: buffer.MainFork, Block: b.Block(), Page: b.Page(), WillInit: willInit, Data: data,
		Dirtied: b.DirtiedUnderLock()}
}

// walScratch holds reusable record buffers for writeWAL: wal.Log.Insert
// copies the record, so they are free again once it returns.
type walScratch struct{ main, data []byte }

var walScratchPool = sync.Pool{New: func() any { return new(walScratch) }}

// visibleCleared says which pages of a change lost PD_ALL_VISIBLE with it
// (b1, b2), for the XLH_*_ALL_VISIBLE_CLEARED flags.
type visibleCleared uint8

const (
	clearedFirst  visibleCleared = 1 << iota // b1
	clearedSecond                            // b2
)

// XLH_*_ALL_VISIBLE_CLEARED (heapam_xlog.h): the change cleared the page's
// all-visible mark; redo clears the map's bit (redoBlock does so
// after every such record, flag or not).
const (
	xlhInsertAllVisibleCleared    = 0x01 // XLH_INSERT_ALL_VISIBLE_CLEARED
	xlhDeleteAllVisibleCleared    = 0x01 // XLH_DELETE_ALL_VISIBLE_CLEARED
	xlhUpdateOldAllVisibleCleared = 0x01 // XLH_UPDATE_OLD_ALL_VISIBLE_CLEARED
	xlhUpdateNewAllVisibleCleared = 0x02 // XLH_UPDATE_NEW_ALL_VISIBLE_CLEARED
)

// buildRecord assembles the record of one change; ok is false when the
// change cannot be described (missing offsets, an unknown kind). Kinds with
// large payloads (multi-insert) build them in sc.
func (r *Relation) buildRecord(kind walKind, b1, b2 *buffer.Buffer, x *walExtra, offs []uint16, sc *walScratch, cleared visibleCleared) (*wal.Record, bool) {
	switch kind {
	case walInsert:
		return r.insertRecord(b1, b2, x, offs, cleared)
	case walMultiInsert:
		return r.multiInsertRecord(b1, b2, x, offs, sc, cleared)
	case walDelete:
		return r.deleteRecord(b1, b2, offs, cleared)
	case walLock:
		return r.lockRecord(b1, b2, offs)
	case walConfirm:
		return r.confirmRecord(b1, b2, offs)
	case walSuperDelete:
		return r.superDeleteRecord(b1, b2, x, offs, cleared)
	case walUpdate, walSameUpdate:
		return r.updateRecord(kind, b1, b2, offs, cleared)
	case walPrune:
		return r.pruneRecord(b1, b2, x)
	case walVacuum:
		return r.vacuumRecord(b1, b2, x)
	}
	return nil, false
}

// logItem returns the tuple at off of p, or nil if off holds no normal line
// pointer with at least a tuple header.
func logItem(p page.Page, off uint16) []byte {
	if off == 0 || off > page.MaxOffset(p) {
		return nil
	}
	if _, flags, lpLen := page.ItemID(p, off); flags != page.LPNormal || lpLen < TupleHeaderSize {
		return nil
	}
	return page.Item(p, off)
}

// singleTuple returns the one tuple a single-page, single-tuple change
// (insert, delete, lock) touched, or nil if offs and b2 do not describe one.
func singleTuple(b1, b2 *buffer.Buffer, offs []uint16) []byte {
	if len(offs) != 1 || b2 != nil {
		return nil
	}
	return logItem(b1.Page(), offs[0])
}

// insertRecord is XLOG_HEAP_INSERT: main data xl_heap_insert, block data
// xl_heap_header and the tuple past its header. Redo takes t_xmin from the
// record's xid and sets t_cid to FirstCommandId, as heap_xlog_insert does.
// A speculative insertion (x.speculative) is flagged; its token is not
// logged (redo gives t_ctid the tuple's own TID: the inserter is gone).
func (r *Relation) insertRecord(b1, b2 *buffer.Buffer, x *walExtra, offs []uint16, cleared visibleCleared) (*wal.Record, bool) {
	t := singleTuple(b1, b2, offs)
	if t == nil {
		return nil, false
	}
	info, init := xlHeapInsert, isInitInsert(b1.Page(), offs)
	if init {
		info |= xlHeapInitPage
	}
	main := binary.LittleEndian.AppendUint16(make([]byte, 0, xlInsertSize), offs[0])
	var flags uint8
	if cleared&clearedFirst != 0 {
		flags |= xlhInsertAllVisibleCleared
	}
	if x != nil && x.speculative {
		flags |= xlInsertIsSpeculative
	}
	main = append(main, flags)
	data := putHeader(make([]byte, 0, xlHeapHeaderSize+len(t)-TupleHeaderSize), t)
	data = append(data, t[TupleHeaderSize:]...)
	return &wal.Record{Rmgr: wal.RmgrHeap, Info: info, Xid: Xmin(t), MainData: main,
		Blocks: []wal.BlockRef{r.blockRef(b1, data, init)}}, true
}

// multiInsertRecord is XLOG_HEAP2_MULTI_INSERT: main data
// xl_heap_multi_insert and the offsets (left out when the record
// initializes the page: they are 1, 2, ...), block data one SHORTALIGNed
// xl_multi_insert_tuple plus tuple body per tuple. The last record of one
// MultiInsert call is flagged XLH_INSERT_LAST_IN_MULTI. Its buffers are
// sc's.
func (r *Relation) multiInsertRecord(b1, b2 *buffer.Buffer, x *walExtra, offs []uint16, sc *walScratch, cleared visibleCleared) (*wal.Record, bool) {
	if len(offs) == 0 || b2 != nil {
		return nil, false
	}
	p := b1.Page()
	first := logItem(p, offs[0])
	if first == nil {
		return nil, false
	}
	info, init := xl2MultiInsert, isInitInsert(p, offs)
	if init {
		info |= xlHeapInitPage
	}
	var flags uint8
	if x != nil && x.lastInMulti {
		flags |= xlInsertLastInMulti
	}
	if cleared&clearedFirst != 0 {
		flags |= xlhInsertAllVisibleCleared
	}
	main := append(sc.main[:0], flags, 0)
	main = binary.LittleEndian.AppendUint16(main, uint16(len(offs)))
	data := sc.data[:0]
	defer func() { sc.main, sc.data = main[:0], data[:0] }()
	for _, off := range offs {
		t := logItem(p, off)
		if t == nil {
			return nil, false
		}
		if !init {
			main = binary.LittleEndian.AppendUint16(main, off)
		}
		if len(data)%2 != 0 {
			data = append(data, 0) // SHORTALIGN
		}
		data = binary.LittleEndian.AppendUint16(data, uint16(len(t)-TupleHeaderSize))
		data = putHeader(data, t)
		data = append(data, t[TupleHeaderSize:]...)
	}
	return &wal.Record{Rmgr: wal.RmgrHeap2, Info: info, Xid: Xmin(first), MainData: main,
		Blocks: []wal.BlockRef{r.blockRef(b1, data, init)}}, true
}

// deleteRecord is XLOG_HEAP_DELETE: main data xl_heap_delete, no block
// data. A deleted tuple's t_ctid points at itself.
func (r *Relation) deleteRecord(b1, b2 *buffer.Buffer, offs []uint16, cleared visibleCleared) (*wal.Record, bool) {
	t := singleTuple(b1, b2, offs)
	if t == nil || Ctid(t) != (page.TID{Block: b1.Block(), Offset: offs[0]}) {
		return nil, false
	}
	var flags uint8
	if cleared&clearedFirst != 0 {
		flags |= xlhDeleteAllVisibleCleared
	}
	main := putXmaxChange(make([]byte, 0, xlDeleteSize), t, offs[0], flags)
	return &wal.Record{Rmgr: wal.RmgrHeap, Info: xlHeapDelete, Xid: Xmax(t), MainData: main,
		Blocks: []wal.BlockRef{r.blockRef(b1, nil, false)}}, true
}

// lockRecord is XLOG_HEAP_LOCK: main data xl_heap_lock (the locker, the
// offset, the lock's infomask bits), no block data. Redo resets t_ctid to
// the version itself only when the xmax is a mere locker, as
// heap_xlog_lock does: a locked, since updated version keeps its link.
func (r *Relation) lockRecord(b1, b2 *buffer.Buffer, offs []uint16) (*wal.Record, bool) {
	t := singleTuple(b1, b2, offs)
	if t == nil {
		return nil, false
	}
	main := putXmaxChange(make([]byte, 0, xlLockSize), t, offs[0], 0)
	return &wal.Record{Rmgr: wal.RmgrHeap, Info: xlHeapLock, Xid: Xmax(t), MainData: main,
		Blocks: []wal.BlockRef{r.blockRef(b1, nil, false)}}, true
}

// confirmRecord is XLOG_HEAP_CONFIRM: main data xl_heap_confirm (the
// offset), no block data. Redo sets t_ctid to the tuple's own TID.
func (r *Relation) confirmRecord(b1, b2 *buffer.Buffer, offs []uint16) (*wal.Record, bool) {
	t := singleTuple(b1, b2, offs)
	if t == nil {
		return nil, false
	}
	main := binary.LittleEndian.AppendUint16(make([]byte, 0, xlConfirmSize), offs[0])
	return &wal.Record{Rmgr: wal.RmgrHeap, Info: xlHeapConfirm, Xid: Xmin(t), MainData: main,
		Blocks: []wal.BlockRef{r.blockRef(b1, nil, false)}}, true
}

// superDeleteRecord is heap_abort_speculative's XLOG_HEAP_DELETE: an
// xl_heap_delete whose xmax is the inserting transaction x.xid (the
// record's xid too) and whose flags carry XLH_DELETE_IS_SUPER.
func (r *Relation) superDeleteRecord(b1, b2 *buffer.Buffer, x *walExtra, offs []uint16, cleared visibleCleared) (*wal.Record, bool) {
	t := singleTuple(b1, b2, offs)
	if t == nil || x == nil || Ctid(t) != (page.TID{Block: b1.Block(), Offset: offs[0]}) {
		return nil, false
	}
	flags := uint8(xlDeleteIsSuper)
	if cleared&clearedFirst != 0 {
		flags |= xlhDeleteAllVisibleCleared
	}
	main := binary.LittleEndian.AppendUint32(make([]byte, 0, xlDeleteSize), x.xid)
	main = binary.LittleEndian.AppendUint16(main, offs[0])
	main = append(main, infobits(t), flags)
	return &wal.Record{Rmgr: wal.RmgrHeap, Info: xlHeapDelete, Xid: x.xid, MainData: main,
		Blocks: []wal.BlockRef{r.blockRef(b1, nil, false)}}, true
}

// updateRecord is XLOG_HEAP_UPDATE or XLOG_HEAP_HOT_UPDATE. offs are the
// old version's and the new version's offsets; b1 holds the old version, b2
// (walUpdate) or b1 (walSameUpdate) the new one. Main data xl_heap_update;
// block data of the new page: xl_heap_header and the new tuple past its
// header, less the prefix and suffix it shares with the old version when
// both are on one page. The old page is the second block reference when it
// differs (which is how redo tells the cases apart).
func (r *Relation) updateRecord(kind walKind, b1, b2 *buffer.Buffer, offs []uint16, cleared visibleCleared) (*wal.Record, bool) {
	if len(offs) != 2 || (kind == walUpdate) != (b2 != nil) {
		return nil, false
	}
	newb := b1
	if b2 != nil {
		newb = b2
	}
	ot, nt := logItem(b1.Page(), offs[0]), logItem(newb.Page(), offs[1])
	if ot == nil || nt == nil || Ctid(ot) != (page.TID{Block: newb.Block(), Offset: offs[1]}) {
		return nil, false
	}
	info := xlHeapUpdate
	if Infomask2(nt)&HeapOnlyTuple != 0 {
		info = xlHeapHotUpdate
	}
	var flags uint8
	if cleared&clearedFirst != 0 {
		flags |= xlhUpdateOldAllVisibleCleared
	}
	if cleared&clearedSecond != 0 {
		flags |= xlhUpdateNewAllVisibleCleared
	}
	init := false
	if b2 != nil {
		if init = isInitInsert(newb.Page(), offs[1:]); init {
			info |= xlHeapInitPage
		}
	}
	var prefix, suffix int
	if b2 == nil {
		prefix, suffix = commonAffixes(ot, nt)
	}
	if prefix > 0 {
		flags |= xlUpdatePrefixFromOld
	}
	if suffix > 0 {
		flags |= xlUpdateSuffixFromOld
	}
	main := putXmaxChange(make([]byte, 0, xlUpdateSize), ot, offs[0], flags)
	main = binary.LittleEndian.AppendUint32(main, Xmax(nt))
	main = binary.LittleEndian.AppendUint16(main, offs[1])
	data := make([]byte, 0, 4+xlHeapHeaderSize+len(nt)-TupleHeaderSize-prefix-suffix)
	if prefix > 0 {
		data = binary.LittleEndian.AppendUint16(data, uint16(prefix))
	}
	if suffix > 0 {
		data = binary.LittleEndian.AppendUint16(data, uint16(suffix))
	}
	data = putHeader(data, nt)
	hoff := int(nt[offHoff])
	data = append(data, nt[TupleHeaderSize:hoff]...) // null bitmap and padding
	data = append(data, nt[hoff+prefix:len(nt)-suffix]...)
	rec := &wal.Record{Rmgr: wal.RmgrHeap, Info: info, Xid: Xmax(ot), MainData: main,
		Blocks: []wal.BlockRef{r.blockRef(newb, data, init)}}
	if b2 != nil {
		rec.Blocks = append(rec.Blocks, r.blockRef(b1, nil, false))
	}
	return rec, true
}

// pruneRecord is XLOG_HEAP2_PRUNE: main data xl_heap_prune, block data the
// plan prunePage carried out: the redirected pairs (from, to), the offsets
// now dead, the offsets now unused. Redo applies the same plan (applyPrune).
func (r *Relation) pruneRecord(b1, b2 *buffer.Buffer, x *walExtra) (*wal.Record, bool) {
	if b2 != nil || x == nil || x.plan == nil {
		return nil, false
	}
	pl := x.plan
	main := make([]byte, 0, xlPruneSize)
	main = binary.LittleEndian.AppendUint32(main, x.latestRemovedXid)
	main = binary.LittleEndian.AppendUint16(main, uint16(len(pl.redirected)/2))
	main = binary.LittleEndian.AppendUint16(main, uint16(len(pl.nowDead)))
	data := make([]byte, 0, 2*(len(pl.redirected)+len(pl.nowDead)+len(pl.nowUnused)))
	for _, l := range [][]uint16{pl.redirected, pl.nowDead, pl.nowUnused} {
		for _, off := range l {
			data = binary.LittleEndian.AppendUint16(data, off)
		}
	}
	return &wal.Record{Rmgr: wal.RmgrHeap2, Info: xl2Prune, MainData: main,
		Blocks: []wal.BlockRef{r.blockRef(b1, data, false)}}, true
}

// vacuumRecord is XLOG_HEAP2_VACUUM: main data xl_heap_vacuum, block data
// the offsets VACUUM turned from LP_DEAD to LP_UNUSED. Redo does the same,
// then truncates the line pointer array (PageTruncateLinePointerArray).
func (r *Relation) vacuumRecord(b1, b2 *buffer.Buffer, x *walExtra) (*wal.Record, bool) {
	if b2 != nil || x == nil || x.plan == nil {
		return nil, false
	}
	unused := x.plan.nowUnused
	main := binary.LittleEndian.AppendUint16(make([]byte, 0, xlVacuumSize), uint16(len(unused)))
	data := make([]byte, 0, 2*len(unused))
	for _, off := range unused {
		data = binary.LittleEndian.AppendUint16(data, off)
	}
	return &wal.Record{Rmgr: wal.RmgrHeap2, Info: xl2Vacuum, MainData: main,
		Blocks: []wal.BlockRef{r.blockRef(b1, data, false)}}, true
}

// tidOffsets returns the offsets of tids (multi-insert's logChange call).
func tidOffsets(tids []page.TID) []uint16 {
	out := make([]uint16, len(tids))
	for i, t := range tids {
		out[i] = t.Offset
	}
	return out
}

// commonAffixes returns the lengths of the longest common prefix and suffix
// of the data (past t_hoff) of an old and a new tuple version, not
// overlapping, each 0 when shorter than 3 bytes (not worth its 2-byte
// length), as log_heap_update computes them.
func commonAffixes(ot, nt []byte) (prefix, suffix int) {
	op, np := ot[ot[offHoff]:], nt[nt[offHoff]:]
	n := min(len(op), len(np))
	for prefix < n && op[prefix] == np[prefix] {
		prefix++
	}
	if prefix < 3 {
		prefix = 0
	}
	for suffix < n-prefix && op[len(op)-suffix-1] == np[len(np)-suffix-1] {
		suffix++
	}
	if suffix < 3 {
		suffix = 0
	}
	return prefix, suffix
}

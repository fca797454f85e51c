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
	xlHeapLock      uint8 = 0x60 // XLOG_HEAP_LOCK
	xlHeapOpMask    uint8 = 0x70 // XLOG_HEAP_OPMASK
	xlHeapInitPage  uint8 = 0x80 // XLOG_HEAP_INIT_PAGE: the page is rebuilt from this record
)

// RmgrHeap2 info values.
const (
	xl2PageImage   uint8 = 0x00 // minipg: a heap change logged as a forced full-page image
	xl2Prune       uint8 = 0x10 // XLOG_HEAP2_PRUNE
	xl2Vacuum      uint8 = 0x20 // XLOG_HEAP2_VACUUM
	xl2MultiInsert uint8 = 0x50 // XLOG_HEAP2_MULTI_INSERT
)

// Record body sizes.
const (
	xlHeapHeaderSize  = 5  // xl_heap_header: t_infomask2 u16, t_infomask u16, t_hoff u8
	xlInsertSize      = 7  // offnum u16, flags u8, t_cid u32
	xlDeleteSize      = 15 // xmax u32, offnum u16, flags u8, t_cid u32, t_infomask u16, t_infomask2 u16
	xlLockCtidSize    = 6  // lock with xlLockHasCtid: ctid block u32, offset u16
	xlUpdateSize      = 21 // old: xmax, offnum, flags, cid, infomask, infomask2 (15); new: offnum u16, t_cid u32
	xlMultiHeaderSize = 7  // flags u8, ntuples u16, t_cid u32 (then ntuples offsets u16)
	xlMultiTupleSize  = 7  // xl_multi_insert_tuple: datalen u16, t_infomask2 u16, t_infomask u16, t_hoff u8
	xlPruneSize       = 12 // latestRemovedXid u32, nredirected u16, ndead u16, nunused u16, maxoff u16
	xlVacuumSize      = 4  // nunused u16, maxoff u16
	xlLockHasCtid     = 0x01
	xlUpdateOtherPage = 0x02 // update: old and new version on different pages
	// Update on one page: the block data starts with the length u16 of the
	// new tuple's data that equals the old one's at the start
	// (XLH_UPDATE_PREFIX_FROM_OLD), then that of the end
	// (XLH_UPDATE_SUFFIX_FROM_OLD), and carries only the bytes between.
	xlUpdatePrefixFromOld = 0x20
	xlUpdateSuffixFromOld = 0x40
)

// putHeader appends the xl_heap_header of tuple t.
func putHeader(b []byte, t []byte) []byte {
	b = binary.LittleEndian.AppendUint16(b, Infomask2(t))
	b = binary.LittleEndian.AppendUint16(b, Infomask(t))
	return append(b, t[offHoff])
}

// putOldTuple appends the fields an old version's header change carries:
// xmax u32, offnum u16, flags u8, t_cid u32, t_infomask u16, t_infomask2 u16.
func putOldTuple(b []byte, t []byte, off uint16, flags uint8) []byte {
	b = binary.LittleEndian.AppendUint32(b, Xmax(t))
	b = binary.LittleEndian.AppendUint16(b, off)
	b = append(b, flags)
	b = binary.LittleEndian.AppendUint32(b, Cid(t))
	b = binary.LittleEndian.AppendUint16(b, Infomask(t))
	return binary.LittleEndian.AppendUint16(b, Infomask2(t))
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
func (r *Relation) writeWAL(kind walKind, b1, b2 *buffer.Buffer, offs []uint16) {
	if b2 == b1 {
		b2 = nil
	}
	sc := walScratchPool.Get().(*walScratch)
	defer walScratchPool.Put(sc)
	rec, ok := r.buildRecord(kind, b1, b2, offs, sc)
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

// buildRecord assembles the record of one change; ok is false when the
// change cannot be described (missing offsets, an unknown kind). Kinds with
// large payloads (multi-insert) build them in sc.
func (r *Relation) buildRecord(kind walKind, b1, b2 *buffer.Buffer, offs []uint16, sc *walScratch) (*wal.Record, bool) {
	switch kind {
	case walInsert:
		return r.insertRecord(b1, b2, offs)
	case walMultiInsert:
		return r.multiInsertRecord(b1, b2, offs, sc)
	case walDelete:
		return r.deleteRecord(b1, b2, offs)
	case walLock:
		return r.lockRecord(b1, b2, offs)
	case walUpdate, walSameUpdate:
		return r.updateRecord(kind, b1, b2, offs)
	case walPrune:
		return r.pruneRecord(b1, b2)
	case walVacuum:
		return r.vacuumRecord(b1, b2)
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
// xl_heap_header and the tuple past its header.
func (r *Relation) insertRecord(b1, b2 *buffer.Buffer, offs []uint16) (*wal.Record, bool) {
	t := singleTuple(b1, b2, offs)
	if t == nil {
		return nil, false
	}
	info, init := xlHeapInsert, isInitInsert(b1.Page(), offs)
	if init {
		info |= xlHeapInitPage
	}
	main := binary.LittleEndian.AppendUint16(make([]byte, 0, xlInsertSize), offs[0])
	main = append(main, 0)
	main = binary.LittleEndian.AppendUint32(main, Cid(t))
	data := putHeader(make([]byte, 0, xlHeapHeaderSize+len(t)-TupleHeaderSize), t)
	data = append(data, t[TupleHeaderSize:]...)
	return &wal.Record{Rmgr: wal.RmgrHeap, Info: info, Xid: Xmin(t), MainData: main,
		Blocks: []wal.BlockRef{r.blockRef(b1, data, init)}}, true
}

// multiInsertRecord is XLOG_HEAP2_MULTI_INSERT: main data
// xl_heap_multi_insert and the offsets, block data one SHORTALIGNed
// xl_multi_insert_tuple plus tuple body per tuple. Its buffers are sc's.
func (r *Relation) multiInsertRecord(b1, b2 *buffer.Buffer, offs []uint16, sc *walScratch) (*wal.Record, bool) {
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
	main := append(sc.main[:0], 0)
	main = binary.LittleEndian.AppendUint16(main, uint16(len(offs)))
	main = binary.LittleEndian.AppendUint32(main, Cid(first))
	data := sc.data[:0]
	defer func() { sc.main, sc.data = main[:0], data[:0] }()
	for _, off := range offs {
		t := logItem(p, off)
		if t == nil {
			return nil, false
		}
		main = binary.LittleEndian.AppendUint16(main, off)
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

// deleteRecord is XLOG_HEAP_DELETE: main data the old version's header
// change (putOldTuple), no block data. A deleted tuple's t_ctid points at
// itself.
func (r *Relation) deleteRecord(b1, b2 *buffer.Buffer, offs []uint16) (*wal.Record, bool) {
	t := singleTuple(b1, b2, offs)
	if t == nil || Ctid(t) != (page.TID{Block: b1.Block(), Offset: offs[0]}) {
		return nil, false
	}
	main := putOldTuple(make([]byte, 0, xlDeleteSize), t, offs[0], 0)
	return &wal.Record{Rmgr: wal.RmgrHeap, Info: xlHeapDelete, Xid: Xmax(t), MainData: main,
		Blocks: []wal.BlockRef{r.blockRef(b1, nil, false)}}, true
}

// lockRecord is XLOG_HEAP_LOCK: main data the locked version's header
// change (putOldTuple), then its t_ctid when that points elsewhere
// (xlLockHasCtid: a locked, since updated version); no block data.
func (r *Relation) lockRecord(b1, b2 *buffer.Buffer, offs []uint16) (*wal.Record, bool) {
	t := singleTuple(b1, b2, offs)
	if t == nil {
		return nil, false
	}
	var flags uint8
	c := Ctid(t)
	if c != (page.TID{Block: b1.Block(), Offset: offs[0]}) {
		flags |= xlLockHasCtid
	}
	main := putOldTuple(make([]byte, 0, xlDeleteSize+xlLockCtidSize), t, offs[0], flags)
	if flags&xlLockHasCtid != 0 {
		main = binary.LittleEndian.AppendUint32(main, c.Block)
		main = binary.LittleEndian.AppendUint16(main, c.Offset)
	}
	return &wal.Record{Rmgr: wal.RmgrHeap, Info: xlHeapLock, Xid: Xmax(t), MainData: main,
		Blocks: []wal.BlockRef{r.blockRef(b1, nil, false)}}, true
}

// updateRecord is XLOG_HEAP_UPDATE or XLOG_HEAP_HOT_UPDATE. offs are the
// old version's and the new version's offsets; b1 holds the old version, b2
// (walUpdate) or b1 (walSameUpdate) the new one. Main data: the old
// version's header change, then the new offset and t_cid; block data of the
// new page: xl_heap_header and the new tuple past its header. The old page
// is the second block reference when it differs.
func (r *Relation) updateRecord(kind walKind, b1, b2 *buffer.Buffer, offs []uint16) (*wal.Record, bool) {
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
	init := false
	if b2 != nil {
		flags |= xlUpdateOtherPage
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
	main := putOldTuple(make([]byte, 0, xlUpdateSize), ot, offs[0], flags)
	main = binary.LittleEndian.AppendUint16(main, offs[1])
	main = binary.LittleEndian.AppendUint32(main, Cid(nt))
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

// pruneRecord is XLOG_HEAP2_PRUNE. It carries the final state of every line
// pointer that is not LP_NORMAL (redirects with their targets, dead, unused)
// and the final line pointer count; redo applies them and compacts the
// page, as heap_page_prune_execute does.
func (r *Relation) pruneRecord(b1, b2 *buffer.Buffer) (*wal.Record, bool) {
	if b2 != nil {
		return nil, false
	}
	p := b1.Page()
	var redirects, dead, unused []byte
	nred, ndead, nunused := 0, 0, 0
	maxoff := page.MaxOffset(p)
	for off := uint16(1); off <= maxoff; off++ {
		lpOff, flags, _ := page.ItemID(p, off)
		switch flags {
		case page.LPRedirect:
			redirects = binary.LittleEndian.AppendUint16(redirects, off)
			redirects = binary.LittleEndian.AppendUint16(redirects, uint16(lpOff))
			nred++
		case page.LPDead:
			dead = binary.LittleEndian.AppendUint16(dead, off)
			ndead++
		case page.LPUnused:
			unused = binary.LittleEndian.AppendUint16(unused, off)
			nunused++
		}
	}
	main := make([]byte, 0, xlPruneSize)
	main = binary.LittleEndian.AppendUint32(main, 0) // latestRemovedXid: no standbys
	main = binary.LittleEndian.AppendUint16(main, uint16(nred))
	main = binary.LittleEndian.AppendUint16(main, uint16(ndead))
	main = binary.LittleEndian.AppendUint16(main, uint16(nunused))
	main = binary.LittleEndian.AppendUint16(main, maxoff)
	data := append(append(redirects, dead...), unused...)
	return &wal.Record{Rmgr: wal.RmgrHeap2, Info: xl2Prune, MainData: main,
		Blocks: []wal.BlockRef{r.blockRef(b1, data, false)}}, true
}

// vacuumRecord is XLOG_HEAP2_VACUUM: the unused line pointers (block data)
// and the final line pointer count.
func (r *Relation) vacuumRecord(b1, b2 *buffer.Buffer) (*wal.Record, bool) {
	if b2 != nil {
		return nil, false
	}
	p := b1.Page()
	var unused []byte
	n := 0
	maxoff := page.MaxOffset(p)
	for off := uint16(1); off <= maxoff; off++ {
		if _, flags, _ := page.ItemID(p, off); flags == page.LPUnused {
			unused = binary.LittleEndian.AppendUint16(unused, off)
			n++
		}
	}
	main := binary.LittleEndian.AppendUint16(make([]byte, 0, xlVacuumSize), uint16(n))
	main = binary.LittleEndian.AppendUint16(main, maxoff)
	return &wal.Record{Rmgr: wal.RmgrHeap2, Info: xl2Vacuum, MainData: main,
		Blocks: []wal.BlockRef{r.blockRef(b1, unused, false)}}, true
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

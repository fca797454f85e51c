package nbtree

// Btree WAL records (resource manager Btree, nbtxlog.h's numbers): how a
// finished page change becomes a record. redo.go replays them.
//
// Every record registers each page it changes (block references); wal.Insert
// adds a full-page image of a page on its first change after the
// checkpoint's redo point, and then leaves out that block's data. Pages a
// record builds from scratch (a split's right half, a new root, the
// metapage of a new root) are registered WillInit and never imaged.
//
//	INSERT_LEAF  0x00  main: offnum u16
//	                   block 0 leaf, data: the entry
//	INSERT_UPPER 0x10  main: offnum u16
//	                   block 0 internal page, data: the pivot tuple
//	                   block 1 the child whose split this finishes (INCOMPLETE_SPLIT cleared)
//	SPLIT_L      0x30  main: level u32 | firstrightoff u16 | newitemoff u16 | rightflags u16 | has u8 |
//	                         cycleid u16 (both halves' btpo_cycleid)
//	SPLIT_R      0x40    (_L: the new item went to the left half, _R: to the right one)
//	                   block 0 left (the page that split), data: [newitem len u16 | newitem (SPLIT_L)] |
//	                           the left page's new high key (a pivot tuple)
//	                   block 1 right (new page, WillInit), data: its items, each len u16 | bytes
//	                   block 2 the old right sibling, its left link changed (has & 1)
//	                   block 3 the child whose split this finishes (has & 2, internal pages)
//	DELETE       0x70  block 0 leaf, data: offsets u16... deleted (one entry removed, and the
//	                   page's LP_DEAD items; or only those, before a split)
//	NEWROOT      0xA0  main: root u32 | level u32
//	                   block 0 the new root (WillInit), data: its items, each len u16 | bytes
//	                   block 1 the left child (INCOMPLETE_SPLIT cleared), when level > 0
//	                   block 2 the metapage (WillInit)
//	UNLINK_PAGE  0x80  main: leftsib u32 | rightsib u32 | safexid u32 |
//	                         [level u32 | leaftopparent u32 (an internal page)]
//	                   [block left sibling, its right link set to rightsib (leftsib != 0)]
//	                   block the deleted page (WillInit: rebuilt as a deleted page,
//	                         a leaf unless main has level)
//	                   block the right sibling, its left link set to leftsib
//	                   [block the half-dead leaf below an internal page: its
//	                         high key's downlink set to leaftopparent]
//	MARK_PAGE_HALFDEAD 0xB0  main: poffset u16 | topparent u32 (InvalidBlock:
//	                         the leaf alone; older records end after poffset)
//	                   block 0 the leaf, flagged half-dead, topparent in
//	                           its high key's downlink field
//	                   block 1 the subtree parent: the downlink at poffset
//	                           takes the next one's block, which is removed
//	                   block 2.. the chain's internal pages, bottom-up,
//	                           flagged half-dead
//	VACUUM       0xC0  block 0 leaf, data: offsets u16... deleted (VACUUM's bulk delete)
//
// firstrightoff and newitemoff number the left page's items as they were
// before the split: the left half keeps the data items at offsets below
// firstrightoff, plus the new item at newitemoff for SPLIT_L.
//
// A bulk build logs each page it writes as an RmgrXLOG FPI record
// (wal.Log.LogNewPage), as nbtsort.c does with log_newpage.

import (
	"encoding/binary"
	"fmt"

	"minipg/storage/buffer"
	"minipg/storage/page"
	"minipg/storage/wal"
)

// RmgrBtree info values (nbtxlog.h).
const (
	xlInsertLeaf   uint8 = 0x00 // XLOG_BTREE_INSERT_LEAF
	xlInsertUpper  uint8 = 0x10 // XLOG_BTREE_INSERT_UPPER
	xlSplitL       uint8 = 0x30 // XLOG_BTREE_SPLIT_L
	xlSplitR       uint8 = 0x40 // XLOG_BTREE_SPLIT_R
	xlDelete       uint8 = 0x70 // XLOG_BTREE_DELETE
	xlUnlinkPage   uint8 = 0x80 // XLOG_BTREE_UNLINK_PAGE
	xlNewRoot      uint8 = 0xA0 // XLOG_BTREE_NEWROOT
	xlMarkHalfDead uint8 = 0xB0 // XLOG_BTREE_MARK_PAGE_HALFDEAD
	xlVacuum       uint8 = 0xC0 // XLOG_BTREE_VACUUM
)

// split record main data.
const (
	xlSplitSize          = 13
	splitHasSibling      = 0x01
	splitHasChild        = 0x02
	xlNewRootSize        = 8
	xlUnlinkSize         = 12
	xlUnlinkInternalSize = 20
	xlMarkSize           = 6
	xlInsertMainSize     = 2
	maxRecordedBlocks    = 4
)

func init() {
	wal.RegisterRecordNames(wal.RmgrBtree, "Btree", func(info uint8) string {
		switch info & 0xF0 {
		case xlInsertLeaf:
			return "INSERT_LEAF"
		case xlInsertUpper:
			return "INSERT_UPPER"
		case xlSplitL:
			return "SPLIT_L"
		case xlSplitR:
			return "SPLIT_R"
		case xlDelete:
			return "DELETE"
		case xlNewRoot:
			return "NEWROOT"
		case xlVacuum:
			return "VACUUM"
		case xlUnlinkPage:
			return "UNLINK_PAGE"
		case xlMarkHalfDead:
			return "MARK_PAGE_HALFDEAD"
		}
		return ""
	})
}

// regBuf is one page a record changes: its exclusively locked buffer, the
// block data for redo, and whether redo rebuilds the page from the record.
type regBuf struct {
	buf      *buffer.Buffer
	data     []byte
	willInit bool
}

// xlog finishes a change (the critical section's end): it marks every
// buffer dirty, logs the record when the index has a WAL, and sets each
// page's pd_lsn to the record's end, all while the caller still holds the
// exclusive locks. A failed insert panics: the pages are changed in memory
// and cannot be logged (PostgreSQL PANICs in a critical section too).
func (ix *Index) xlog(info uint8, main []byte, bufs ...regBuf) {
	for _, r := range bufs {
		r.buf.MarkDirty()
		if invariants {
			if err := checkPageOrder(r.buf.Page()); err != nil {
				panic(fmt.Sprintf("nbtree: record %#x left block %d of index %d inconsistent: %v", info, r.buf.Block(), ix.rel, err))
			}
		}
	}
	if ix.wal == nil {
		return
	}
	var refs [maxRecordedBlocks]wal.BlockRef
	rec := &wal.Record{Rmgr: wal.RmgrBtree, Info: info, MainData: main, Blocks: refs[:0]}
	for _, r := range bufs {
		rec.Blocks = append(rec.Blocks, wal.BlockRef{Rel: ix.rel, Fork: buffer.MainFork, Block: r.buf.Block(),
			Page: r.buf.Page(), WillInit: r.willInit, Data: r.data, Dirtied: r.buf.DirtiedUnderLock()})
	}
	end, err := ix.wal.Insert(rec)
	if err != nil {
		panic(fmt.Sprintf("nbtree: could not log record %#x on block %d of index %d: %v", info, bufs[0].buf.Block(), ix.rel, err))
	}
	for _, r := range bufs {
		page.SetLSN(r.buf.Page(), end)
	}
}

// appendItems appends items, each as a u16 length and its bytes.
func appendItems(d []byte, items [][]byte) []byte {
	for _, it := range items {
		d = binary.LittleEndian.AppendUint16(d, uint16(len(it)))
		d = append(d, it...)
	}
	return d
}

// decodeItems splits data made by appendItems; ok is false if it is malformed.
func decodeItems(d []byte) ([][]byte, bool) {
	var out [][]byte
	for len(d) > 0 {
		if len(d) < 2 {
			return nil, false
		}
		n := int(binary.LittleEndian.Uint16(d))
		if len(d) < 2+n {
			return nil, false
		}
		out = append(out, d[2:2+n])
		d = d[2+n:]
	}
	return out, true
}

// appendOffsets appends offsets as u16s.
func appendOffsets(d []byte, offs []uint16) []byte {
	for _, o := range offs {
		d = binary.LittleEndian.AppendUint16(d, o)
	}
	return d
}

// btreeDesc is btree_desc, from minipg's main data (the fields PostgreSQL
// prints that minipg does not log — postingoff, nupdated, latestRemovedXid
// — print as 0; ndeleted is counted from the block data, so a DELETE or
// VACUUM logged with a full-page image shows 0).
func btreeDesc(rec *wal.DecodedRecord) string {
	d := rec.MainData
	le := binary.LittleEndian
	ndeleted := 0
	if len(rec.Blocks) > 0 {
		ndeleted = len(rec.Blocks[0].Data) / 2
	}
	switch rec.Info & 0xF0 {
	case xlInsertLeaf, xlInsertUpper:
		if len(d) >= xlInsertMainSize {
			return fmt.Sprintf("off %d", le.Uint16(d))
		}
	case xlSplitL, xlSplitR:
		if len(d) >= xlSplitSize {
			return fmt.Sprintf("level %d, firstrightoff %d, newitemoff %d, postingoff 0", le.Uint32(d), le.Uint16(d[4:]), le.Uint16(d[6:]))
		}
	case xlDelete:
		return fmt.Sprintf("latestRemovedXid 0; ndeleted %d; nupdated 0", ndeleted)
	case xlNewRoot:
		if len(d) >= xlNewRootSize {
			return fmt.Sprintf("lev %d", le.Uint32(d[4:]))
		}
	case xlVacuum:
		return fmt.Sprintf("ndeleted %d; nupdated 0", ndeleted)
	case xlMarkHalfDead:
		if len(d) >= 2 && len(rec.Blocks) >= 2 {
			top := rec.Blocks[0].Block
			if len(d) >= xlMarkSize && le.Uint32(d[2:]) != page.InvalidBlock {
				top = le.Uint32(d[2:])
			}
			return fmt.Sprintf("topparent %d; leaf %d; subtreeparent %d; poffset %d", top, rec.Blocks[0].Block, rec.Blocks[1].Block, le.Uint16(d))
		}
	case xlUnlinkPage:
		if len(d) >= xlUnlinkInternalSize && len(rec.Blocks) > 0 {
			leaf := rec.Blocks[len(rec.Blocks)-1].Block
			top := le.Uint32(d[16:])
			if top == page.InvalidBlock {
				top = leaf
			}
			return fmt.Sprintf("left %d; right %d; level %d; safexid 0:%d; leaf %d; leaftopparent %d",
				le.Uint32(d), le.Uint32(d[4:]), le.Uint32(d[12:]), le.Uint32(d[8:]), leaf, top)
		}
		if len(d) >= xlUnlinkSize {
			return fmt.Sprintf("left %d; right %d; level 0; safexid 0:%d", le.Uint32(d), le.Uint32(d[4:]), le.Uint32(d[8:]))
		}
	}
	return ""
}

func init() { wal.RegisterRecordDesc(wal.RmgrBtree, btreeDesc) }

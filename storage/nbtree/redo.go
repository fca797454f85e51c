package nbtree

// Redo of the Btree resource manager's records (btree_redo). Recovery is
// single-threaded; each block is read with wal.ReadBufferForRedo, which
// restores full-page images and says whether the page is older than the
// record. A change is reapplied only then, with the same functions the
// original change used (split.go), so the page comes out byte for byte
// as it was.

import (
	"encoding/binary"
	"fmt"

	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/page"
	"minipg/storage/wal"
)

// RegisterRedo registers the Btree resource manager's redo function, and
// RmgrXLOG's (the full-page images a bulk build writes), with l, replaying
// into pool. Call it before l.Recover.
func RegisterRedo(l *wal.Log, pool *buffer.Pool) {
	l.RegisterRedo(wal.RmgrBtree, RedoFunc(pool))
	l.RegisterRedo(wal.RmgrXLOG, wal.XLOGRedo(pool))
}

// RedoFunc returns the Btree resource manager's redo function over pool.
func RedoFunc(pool *buffer.Pool) wal.RedoFunc {
	return func(rec *wal.DecodedRecord) error { return btreeRedo(pool, rec) }
}

func errRedo(rec *wal.DecodedRecord, format string, args ...any) error {
	return pgerr.New(pgerr.IndexCorrupted, "btree redo of record at %s (info %#x): %s",
		wal.FormatLSN(rec.LSN), rec.Info, fmt.Sprintf(format, args...))
}

// redoBlock runs apply on block i of rec if the page needs the change, then
// stamps it with the record's end LSN and marks it dirty.
func redoBlock(pool *buffer.Pool, rec *wal.DecodedRecord, i int, apply func(p page.Page) error) error {
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
	if !rec.Blocks[i].WillInit && !hasSpecial(p) {
		return errRedo(rec, "block %d is not a btree page", rec.Blocks[i].Block)
	}
	if err := apply(p); err != nil {
		return err
	}
	page.SetLSN(p, rec.EndLSN)
	buf.MarkDirty()
	return nil
}

// clearIncompleteSplit is the redo of a child whose split is finished.
func clearIncompleteSplit(p page.Page) error {
	setFlags(p, btFlags(p)&^flagIncompleteSplit)
	return nil
}

func btreeRedo(pool *buffer.Pool, rec *wal.DecodedRecord) error {
	d := rec.MainData
	switch rec.Info {
	case xlInsertLeaf, xlInsertUpper:
		if len(d) != xlInsertMainSize {
			return errRedo(rec, "bad insert record")
		}
		off := binary.LittleEndian.Uint16(d)
		if err := redoBlock(pool, rec, 0, func(p page.Page) error {
			if page.AddItem(p, rec.Blocks[0].Data, off, false, false) != off {
				return errRedo(rec, "could not add item at offset %d of block %d", off, rec.Blocks[0].Block)
			}
			return nil
		}); err != nil {
			return err
		}
		if rec.Info == xlInsertUpper {
			return redoBlock(pool, rec, 1, clearIncompleteSplit)
		}
		return nil

	case xlSplitL, xlSplitR:
		return redoSplit(pool, rec)

	case xlDelete, xlVacuum:
		return redoBlock(pool, rec, 0, func(p page.Page) error {
			data := rec.Blocks[0].Data
			if len(data)%2 != 0 {
				return errRedo(rec, "bad offsets")
			}
			offs := make([]uint16, len(data)/2)
			prev := uint16(0)
			for i := range offs {
				offs[i] = binary.LittleEndian.Uint16(data[2*i:])
				if offs[i] <= prev || offs[i] > page.MaxOffset(p) {
					return errRedo(rec, "bad offset %d on block %d", offs[i], rec.Blocks[0].Block)
				}
				prev = offs[i]
			}
			applyDelete(p, offs)
			return nil
		})

	case xlMarkHalfDead:
		// Records written before chains were deleted have no topparent
		// (the leaf alone: InvalidBlock) and two blocks.
		if (len(d) != xlMarkSize && len(d) != 2) || len(rec.Blocks) < 2 || (len(d) == 2 && len(rec.Blocks) != 2) {
			return errRedo(rec, "bad half-dead record")
		}
		off := binary.LittleEndian.Uint16(d)
		top := page.InvalidBlock
		if len(d) == xlMarkSize {
			top = binary.LittleEndian.Uint32(d[2:])
		}
		if err := redoBlock(pool, rec, 0, func(p page.Page) error {
			if isRightmost(p) || page.MaxOffset(p) < page.FirstOffset {
				return errRedo(rec, "half-dead leaf %d without a high key", rec.Blocks[0].Block)
			}
			setFlags(p, btFlags(p)|flagHalfDead)
			setTopParent(p, top)
			return nil
		}); err != nil {
			return err
		}
		if err := redoBlock(pool, rec, 1, func(p page.Page) error {
			if off < firstData(p) || off >= page.MaxOffset(p) {
				return errRedo(rec, "bad downlink offset %d on block %d", off, rec.Blocks[1].Block)
			}
			removeDownlink(p, off)
			return nil
		}); err != nil {
			return err
		}
		for i := 2; i < len(rec.Blocks); i++ {
			if err := redoBlock(pool, rec, i, func(p page.Page) error {
				setFlags(p, btFlags(p)|flagHalfDead)
				return nil
			}); err != nil {
				return err
			}
		}
		return nil

	case xlUnlinkPage:
		return redoUnlink(pool, rec)

	case xlNewRoot:
		if len(d) != xlNewRootSize || len(rec.Blocks) < 2 {
			return errRedo(rec, "bad new root record")
		}
		m := meta{root: binary.LittleEndian.Uint32(d), level: binary.LittleEndian.Uint32(d[4:])}
		if err := redoBlock(pool, rec, 0, func(p page.Page) error {
			items, ok := decodeItems(rec.Blocks[0].Data)
			flags := flagRoot
			if m.level == 0 {
				flags |= flagLeaf
			}
			if !ok || !buildPage(p, items, m.level, flags, pNone, pNone) {
				return errRedo(rec, "bad new root items")
			}
			return nil
		}); err != nil {
			return err
		}
		metaIdx := 1
		if len(rec.Blocks) == 3 {
			if err := redoBlock(pool, rec, 1, func(p page.Page) error {
				setFlags(p, btFlags(p)&^(flagIncompleteSplit|flagRoot))
				return nil
			}); err != nil {
				return err
			}
			metaIdx = 2
		}
		return redoBlock(pool, rec, metaIdx, func(p page.Page) error {
			initMetaPage(p, m)
			return nil
		})
	}
	return errRedo(rec, "unknown record type")
}

// redoSplit replays SPLIT_L/SPLIT_R: the left page is rebuilt from its old
// contents and the record's new high key (and new item), the right page
// from its items, and the old right sibling's left link is moved.
func redoSplit(pool *buffer.Pool, rec *wal.DecodedRecord) error {
	d := rec.MainData
	// Records written before splits logged the cycle id are 2 bytes
	// shorter: their pages carry cycle id 0.
	if (len(d) != xlSplitSize && len(d) != xlSplitSize-2) || len(rec.Blocks) < 2 {
		return errRedo(rec, "bad split record")
	}
	level := binary.LittleEndian.Uint32(d)
	firstRight := binary.LittleEndian.Uint16(d[4:])
	newItemOff := binary.LittleEndian.Uint16(d[6:])
	rflags := binary.LittleEndian.Uint16(d[8:])
	has := d[10]
	var cycle uint16
	if len(d) == xlSplitSize {
		cycle = binary.LittleEndian.Uint16(d[11:])
	}
	onLeft := rec.Info == xlSplitL
	leftBlk, rightBlk := rec.Blocks[0].Block, rec.Blocks[1].Block
	next := pNone
	sibIdx, childIdx := -1, -1
	i := 2
	if has&splitHasSibling != 0 {
		sibIdx, next = i, rec.Blocks[i].Block
		i++
	}
	if has&splitHasChild != 0 {
		childIdx = i
		i++
	}
	if i != len(rec.Blocks) {
		return errRedo(rec, "split record with %d blocks, want %d", len(rec.Blocks), i)
	}
	// The left page first, then the right, then the sibling (the order
	// the split took its locks in), then the child.
	if err := redoBlock(pool, rec, 0, func(p page.Page) error {
		data := rec.Blocks[0].Data
		var newitem []byte
		if onLeft {
			if len(data) < 2 || len(data) < 2+int(binary.LittleEndian.Uint16(data)) {
				return errRedo(rec, "bad split left data")
			}
			n := int(binary.LittleEndian.Uint16(data))
			newitem, data = data[2:2+n], data[2+n:]
		}
		if len(data) < pivotHeader || firstRight < firstData(p) || firstRight > page.MaxOffset(p)+1 {
			return errRedo(rec, "bad split of block %d", leftBlk)
		}
		buildLeft(p, newitem, newItemOff, firstRight, onLeft, data, rightBlk)
		setCycle(p, cycle)
		return nil
	}); err != nil {
		return err
	}
	if err := redoBlock(pool, rec, 1, func(p page.Page) error {
		items, ok := decodeItems(rec.Blocks[1].Data)
		if !ok || !buildPage(p, items, level, rflags, leftBlk, next) {
			return errRedo(rec, "bad split right data")
		}
		setCycle(p, cycle)
		return nil
	}); err != nil {
		return err
	}
	if sibIdx >= 0 {
		if err := redoBlock(pool, rec, sibIdx, func(p page.Page) error {
			setPrev(p, rightBlk)
			return nil
		}); err != nil {
			return err
		}
	}
	if childIdx >= 0 {
		return redoBlock(pool, rec, childIdx, clearIncompleteSplit)
	}
	return nil
}

// redoUnlink replays UNLINK_PAGE: the left sibling's right link, the
// deleted page rebuilt, the right sibling's left link (the order the pages
// were locked in), and, for an internal page, the half-dead leaf's new
// top-parent link.
func redoUnlink(pool *buffer.Pool, rec *wal.DecodedRecord) error {
	d := rec.MainData
	if len(d) != xlUnlinkSize && len(d) != xlUnlinkInternalSize {
		return errRedo(rec, "bad unlink record")
	}
	left, right, safexid := binary.LittleEndian.Uint32(d), binary.LittleEndian.Uint32(d[4:]), binary.LittleEndian.Uint32(d[8:])
	internal := len(d) == xlUnlinkInternalSize
	want := 2
	if left != pNone {
		want++
	}
	if internal {
		want++
	}
	if len(rec.Blocks) != want {
		return errRedo(rec, "unlink record with %d blocks, want %d", len(rec.Blocks), want)
	}
	i := 0
	if left != pNone {
		if err := redoBlock(pool, rec, 0, func(p page.Page) error {
			setNext(p, right)
			return nil
		}); err != nil {
			return err
		}
		i = 1
	}
	if err := redoBlock(pool, rec, i, func(p page.Page) error {
		deletedPage(p, !internal, left, right, safexid)
		return nil
	}); err != nil {
		return err
	}
	if err := redoBlock(pool, rec, i+1, func(p page.Page) error {
		setPrev(p, left)
		return nil
	}); err != nil {
		return err
	}
	if !internal {
		return nil
	}
	top := binary.LittleEndian.Uint32(d[16:])
	return redoBlock(pool, rec, i+2, func(p page.Page) error {
		if !isHalfDead(p) || !isLeaf(p) || isRightmost(p) {
			return errRedo(rec, "block %d is not a half-dead leaf", rec.Blocks[i+2].Block)
		}
		setTopParent(p, top)
		return nil
	})
}

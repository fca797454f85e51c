package heap

// The visibility map, after PostgreSQL 15's visibilitymap.c: a fork (_vm)
// with two bits per heap page, of which minipg sets the first,
// VISIBILITYMAP_ALL_VISIBLE: every tuple on the page is visible to every
// transaction, now and later, until the page is changed. VACUUM sets it,
// with PD_ALL_VISIBLE on the heap page, when it leaves a page that way and
// logs XLOG_HEAP2_VISIBLE; every insert, update or delete of a tuple on the
// page clears both before its record is logged (logChangeX), and its redo
// clears them again. VACUUM skips runs of all-visible pages: a page nobody
// changed since the last VACUUM has nothing to prune or to free. (The
// second bit, ALL_FROZEN, stays clear: minipg does not freeze.)
//
// A set bit is never wrong: it is set under the heap page's exclusive lock
// after the page was found all-visible, and cleared under the same lock by
// any change that could make it wrong. A clear bit is merely a page VACUUM
// reads. A VM page is written only after the WAL of its last set bit (its
// pd_lsn); a cleared bit needs no WAL of its own, since the heap record
// that cleared it clears it again in redo.

import (
	"encoding/binary"
	"fmt"

	"minipg/storage/buffer"
	"minipg/storage/page"
	"minipg/storage/wal"
)

// VM layout (visibilitymap.c): the page header, then the map.
const (
	vmMapOffset      = page.HeaderSize // MAXALIGN(SizeOfPageHeaderData)
	vmMapSize        = page.BlockSize - vmMapOffset
	vmBitsPerBlock   = 2
	vmBlocksPerByte  = 8 / vmBitsPerBlock
	vmBlocksPerPage  = vmMapSize * vmBlocksPerByte // HEAPBLOCKS_PER_PAGE, 32,672
	vmAllVisible     = 0x01                        // VISIBILITYMAP_ALL_VISIBLE
	vmAllFrozen      = 0x02                        // VISIBILITYMAP_ALL_FROZEN (never set)
	vmValidBits      = vmAllVisible | vmAllFrozen
	xlVisibleSize    = 5 // xl_heap_visible: cutoff_xid u32, flags u8
	skipPagesMinimum = 32
)

// vmAddr returns the VM block, byte and bit shift of heap block blk.
func vmAddr(blk uint32) (vmBlk uint32, byteOff int, shift uint) {
	vmBlk = blk / vmBlocksPerPage
	in := blk % vmBlocksPerPage
	return vmBlk, vmMapOffset + int(in/vmBlocksPerByte), uint(in%vmBlocksPerByte) * vmBitsPerBlock
}

// vmReadBuffer returns the VM page holding blk's bits, pinned, or nil when
// the fork does not reach it (all its bits are clear). With extend, a
// missing page is added first (vm_extend; not WAL-logged: the redo of a
// VISIBLE record extends the fork likewise).
func vmReadBuffer(pool *buffer.Pool, rel buffer.RelFileNode, vmBlk uint32, extend bool) (*buffer.Buffer, error) {
	var n uint32
	var err error
	if extend {
		n, err = pool.ExtendTo(rel, buffer.VMFork, vmBlk+1)
	} else {
		n, err = pool.NBlocks(rel, buffer.VMFork)
	}
	if err != nil || vmBlk >= n {
		return nil, err
	}
	return pool.ReadBuffer(rel, buffer.VMFork, vmBlk)
}

// vmClear clears blk's bits (visibilitymap_clear) and reports whether any
// was set. The caller holds the heap page's exclusive lock.
func vmClear(pool *buffer.Pool, rel buffer.RelFileNode, blk uint32) (bool, error) {
	vmBlk, off, shift := vmAddr(blk)
	buf, err := vmReadBuffer(pool, rel, vmBlk, false)
	if buf == nil || err != nil {
		return false, err
	}
	defer buf.Release()
	buf.Lock()
	defer buf.Unlock()
	p := buf.Page()
	if p[off]>>shift&vmValidBits == 0 {
		return false, nil
	}
	p[off] &^= vmValidBits << shift
	buf.MarkDirty()
	return true, nil
}

// vmSetLocked sets flags for blk on the exclusively locked VM page p and
// stamps it with lsn, so that it is not written before the record that set
// the bits (visibilitymap_set).
func vmSetLocked(p page.Page, blk uint32, flags byte, lsn uint64) {
	if page.IsNew(p) {
		page.Init(p, 0)
	}
	_, off, shift := vmAddr(blk)
	p[off] |= flags << shift
	if lsn > page.LSN(p) {
		page.SetLSN(p, lsn)
	}
}

// VisibilityMapBits returns blk's bits (visibilitymap_get_status): 0, or
// VISIBILITYMAP_ALL_VISIBLE (1).
func (r *Relation) VisibilityMapBits(blk uint32) (byte, error) {
	vmBlk, off, shift := vmAddr(blk)
	buf, err := vmReadBuffer(r.pool, r.rel, vmBlk, false)
	if buf == nil || err != nil {
		return 0, err
	}
	defer buf.Release()
	buf.RLock()
	defer buf.RUnlock()
	return buf.Page()[off] >> shift & vmValidBits, nil
}

// vmReader reads the all-visible bits of consecutive heap blocks, one VM
// page copy at a time (VACUUM's look-ahead, lazy_scan_skip). A bit read
// here may be cleared a moment later: a page changed after VACUUM began has
// nothing its horizon lets it remove.
type vmReader struct {
	pool   *buffer.Pool
	rel    buffer.RelFileNode
	vmBlk  uint32
	loaded bool
	page   []byte // nil: the fork does not reach vmBlk
	// readUntil: the blocks before it are in a run too short to skip, or
	// end one (lazy_scan_skip's next_unskippable_block), so that a run is
	// looked at once, not again from each of its blocks.
	readUntil uint32
}

func (v *vmReader) allVisible(blk uint32) (bool, error) {
	vmBlk, off, shift := vmAddr(blk)
	if !v.loaded || vmBlk != v.vmBlk {
		v.vmBlk, v.loaded, v.page = vmBlk, true, nil
		buf, err := vmReadBuffer(v.pool, v.rel, vmBlk, false)
		if err != nil {
			return false, err
		}
		if buf != nil {
			buf.RLock()
			v.page = append([]byte(nil), buf.Page()...)
			buf.RUnlock()
			buf.Release()
		}
	}
	return v.page != nil && v.page[off]>>shift&vmAllVisible != 0, nil
}

// skippable returns how many pages from blk on VACUUM may skip: a run of
// at least skipPagesMinimum (SKIP_PAGES_THRESHOLD) all-visible pages, since
// skipping a few would defeat the kernel's read-ahead for little gain, and
// never the last page, which VACUUM reads to learn whether the table ends
// in empty pages it could truncate (lazy_scan_skip). 0: read blk.
func (v *vmReader) skippable(blk, nblocks uint32) (uint32, error) {
	if blk < v.readUntil {
		return 0, nil
	}
	var run uint32
	for b := blk; b+1 < nblocks; b++ {
		ok, err := v.allVisible(b)
		if err != nil {
			return 0, err
		}
		if !ok {
			break
		}
		run++
	}
	if run < skipPagesMinimum {
		v.readUntil = blk + run + 1
		return 0, nil
	}
	return run, nil
}

// clearAllVisible is the part of an insert, update or delete that undoes
// VACUUM's verdict: if the exclusively locked page of b says all-visible,
// clear PD_ALL_VISIBLE and the map's bits, and report that it did. It runs
// before the change is logged, so a full-page image carries the cleared flag; redo of the
// change clears both again (redoBlock).
func (r *Relation) clearAllVisible(b *buffer.Buffer) bool {
	p := b.Page()
	if page.Flags(p)&page.PDAllVisible == 0 {
		return false
	}
	page.SetFlags(p, page.Flags(p)&^page.PDAllVisible)
	if _, err := vmClear(r.pool, r.rel, b.Block()); err != nil {
		// The heap page is changed in memory already; a set bit that
		// cannot be cleared would let VACUUM skip a page it must read.
		panic(fmt.Sprintf("heap: cannot clear the visibility map bit of block %d of relation %d: %v", b.Block(), r.rel, err))
	}
	return true
}

// setAllVisible marks the exclusively locked heap page of buf all-visible:
// PD_ALL_VISIBLE, the map's bit, and an XLOG_HEAP2_VISIBLE record (block
// 0: the VM page, with an image on its first change after a checkpoint;
// block 1: the heap page, never with an image, as PostgreSQL without
// checksums or wal_log_hints). cutoff is the newest xmin on the page. A
// page marked in both places already is left alone (set is false).
func (r *Relation) setAllVisible(buf *buffer.Buffer, cutoff uint32) (set bool, err error) {
	blk := buf.Block()
	vmBlk, off, shift := vmAddr(blk)
	vbuf, err := vmReadBuffer(r.pool, r.rel, vmBlk, true)
	if err != nil {
		return false, err
	}
	defer vbuf.Release()
	vbuf.Lock()
	defer vbuf.Unlock()
	p := buf.Page()
	if page.Flags(p)&page.PDAllVisible != 0 && vbuf.Page()[off]>>shift&vmAllVisible != 0 {
		return false, nil
	}
	page.SetFlags(p, page.Flags(p)|page.PDAllVisible)
	buf.MarkDirty()
	var lsn uint64
	if r.wal != nil {
		vp := vbuf.Page()
		if page.IsNew(vp) {
			page.Init(vp, 0)
		}
		main := append(binary.LittleEndian.AppendUint32(make([]byte, 0, xlVisibleSize), cutoff), vmAllVisible)
		vp[off] |= vmAllVisible << shift
		lsn, err = r.wal.Insert(&wal.Record{Rmgr: wal.RmgrHeap2, Info: xl2Visible, MainData: main, Rel: r.rel,
			Blocks: []wal.BlockRef{
				{Rel: r.rel, Fork: buffer.VMFork, Block: vmBlk, Page: vp, NotStandard: true},
				{Rel: r.rel, Fork: buffer.MainFork, Block: blk},
			}})
		if err != nil {
			panic("heap: cannot log XLOG_HEAP2_VISIBLE: " + err.Error())
		}
	}
	vmSetLocked(vbuf.Page(), blk, vmAllVisible, lsn)
	vbuf.MarkDirty()
	return true, nil
}

// redoVisible replays XLOG_HEAP2_VISIBLE (heap_xlog_visible): the map's
// bits on block 0, PD_ALL_VISIBLE on the heap page of block 1, whose LSN
// is left alone (the record carries no image of it).
func redoVisible(pool *buffer.Pool, rec *wal.DecodedRecord) error {
	if len(rec.MainData) != xlVisibleSize || len(rec.Blocks) != 2 || rec.Blocks[0].Fork != buffer.VMFork {
		return errRedo(rec, "bad visible record")
	}
	flags := rec.MainData[4] & vmValidBits
	heapBlk := rec.Blocks[1].Block
	buf, action, err := wal.ReadBufferForRedo(pool, rec, 1)
	if err != nil {
		return err
	}
	if action == wal.BlockNeedsRedo {
		p := buf.Page()
		page.SetFlags(p, page.Flags(p)|page.PDAllVisible)
		buf.MarkDirty()
	}
	buf.Unlock()
	buf.Release()
	vbuf, action, err := wal.ReadBufferForRedo(pool, rec, 0)
	if err != nil {
		return err
	}
	defer func() {
		vbuf.Unlock()
		vbuf.Release()
	}()
	if action == wal.BlockNeedsRedo {
		vmSetLocked(vbuf.Page(), heapBlk, flags, rec.EndLSN)
		vbuf.MarkDirty()
	}
	return nil
}

// vmTruncate clears the bits of heap blocks nblocks and up and cuts the
// fork after the page holding nblocks-1's (visibilitymap_prepare_truncate),
// so that pages the relation grows back into start all clear.
func vmTruncate(pool *buffer.Pool, rel buffer.RelFileNode, nblocks uint32) error {
	if !pool.Exists(rel, buffer.VMFork) {
		return nil
	}
	n, err := pool.NBlocks(rel, buffer.VMFork)
	if err != nil {
		return err
	}
	vmBlk, off, shift := vmAddr(nblocks)
	if vmBlk >= n {
		return nil
	}
	keep := vmBlk
	if off != vmMapOffset || shift != 0 {
		// Clear the rest of the page holding the last kept block's bits.
		buf, err := pool.ReadBuffer(rel, buffer.VMFork, vmBlk)
		if err != nil {
			return err
		}
		buf.Lock()
		p := buf.Page()
		if !page.IsNew(p) {
			p[off] &= byte(1)<<shift - 1
			clear(p[off+1:])
			buf.MarkDirty()
		}
		buf.Unlock()
		buf.Release()
		keep++
	}
	if keep < n {
		return pool.TruncateRel(rel, buffer.VMFork, keep)
	}
	return nil
}

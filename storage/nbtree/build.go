package nbtree

// Bulk build from sorted entries (nbtsort.c): pages are filled bottom-up,
// left to right, each level's pages linked as they are finished, and each
// page is written once through the buffer pool and logged as a full-page
// image.

import (
	"bytes"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// Builder builds a new index from entries given in ascending order. It
// owns the relation until Finish returns: nobody else may use it. A Builder
// is not safe for concurrent use.
//
// Leaf pages are filled to the fillfactor (90% by default) and internal
// pages to 70%, as nbtsort does; the metapage is written last, so a crash
// in the middle of a build leaves a relation without a valid metapage,
// which the caller drops (CREATE INDEX's transaction never committed).
type Builder struct {
	ix     *Index
	levels []*buildLevel
	nextBk uint32 // next block number to hand out
	last   []byte // previous entry
	n      int
}

// buildLevel is the page being filled on one level.
type buildLevel struct {
	level uint32
	blk   uint32
	prev  uint32
	items [][]byte // data items so far (no high key yet)
	used  int      // their space
}

// NewBuilder returns a Builder that creates rel's file (logging its
// creation when opts.WAL is set) and fills it. The relation must not exist
// or be empty.
func NewBuilder(pool *buffer.Pool, rel buffer.RelFileNode, opts Options) (*Builder, error) {
	ix := Open(pool, rel, opts)
	if ix.wal != nil {
		if _, err := ix.wal.LogCreate(rel, buffer.MainFork); err != nil {
			return nil, err
		}
	}
	if err := pool.CreateRel(rel); err != nil {
		return nil, err
	}
	if n, err := pool.NBlocks(rel, buffer.MainFork); err != nil {
		return nil, err
	} else if n != 0 {
		return nil, errCorrupt(uint32(rel), 0, "index build into a relation of %d blocks", n)
	}
	return &Builder{ix: ix, nextBk: metaBlock + 1}, nil
}

// Add appends entry, which must be greater than the previous one.
func (bl *Builder) Add(entry []byte) error {
	if err := bl.ix.checkEntry(entry); err != nil {
		return err
	}
	if bl.last != nil && bytes.Compare(entry, bl.last) <= 0 {
		return ErrNotSorted
	}
	bl.last = bytes.Clone(entry)
	bl.n++
	return bl.add(0, bl.last)
}

// limit is how much of a page a level fills.
func (bl *Builder) limit(level uint32) int {
	ff := nonLeafFillFactor
	if level == 0 {
		ff = bl.ix.fillFactor
	}
	return bl.ix.capacity * ff / 100
}

// add appends item to the page being filled on level, finishing that page
// first when the item would take it past the fill limit.
func (bl *Builder) add(level uint32, item []byte) error {
	if int(level) == len(bl.levels) {
		bl.levels = append(bl.levels, &buildLevel{level: level, blk: bl.alloc(), prev: pNone})
	}
	lv := bl.levels[level]
	sz := itemSize(len(item))
	// Room is kept for the high key, at most a pivot header plus item.
	need := lv.used + sz + itemSize(pivotHeader+len(item))
	// Internal pages get at least two downlinks, or levels would never
	// narrow.
	full := need > bl.ix.capacity || (len(lv.items) >= 2 && need > bl.limit(level))
	if len(lv.items) > 0 && full {
		// Close this page: its high key separates its last item from item.
		var sep []byte
		if level == 0 {
			sep = separator(lv.items[len(lv.items)-1], item)
		} else {
			sep = bytes.Clone(pivotKey(item))
			item = makePivot(downlink(item), nil) // minus infinity on the new page
			sz = itemSize(len(item))
		}
		next := bl.alloc()
		if err := bl.writePage(lv, makePivot(page.InvalidBlock, sep), next); err != nil {
			return err
		}
		if int(level)+1 == len(bl.levels) {
			// The first page of a new level up: its leftmost downlink.
			if err := bl.add(level+1, makePivot(lv.blk, nil)); err != nil {
				return err
			}
		}
		if err := bl.add(level+1, makePivot(next, sep)); err != nil {
			return err
		}
		lv.prev, lv.blk, lv.items, lv.used = lv.blk, next, nil, 0
	}
	lv.items = append(lv.items, item)
	lv.used += sz
	return nil
}

func (bl *Builder) alloc() uint32 {
	b := bl.nextBk
	bl.nextBk++
	return b
}

// writePage writes lv's page with high key hk (nil: the rightmost page of
// its level) and right link next.
func (bl *Builder) writePage(lv *buildLevel, hk []byte, next uint32) error {
	var flags uint16
	if lv.level == 0 {
		flags |= flagLeaf
	}
	if hk == nil && lv.prev == pNone && int(lv.level) == len(bl.levels)-1 {
		flags |= flagRoot
	}
	items := lv.items
	if hk != nil {
		items = append([][]byte{hk}, items...)
	}
	var tmp [page.BlockSize]byte
	p := page.Page(tmp[:])
	if !buildPage(p, items, lv.level, flags, lv.prev, next) {
		return errCorrupt(uint32(bl.ix.rel), lv.blk, "index build: items do not fit on a page")
	}
	return bl.put(lv.blk, p)
}

// put writes p as block blk through the buffer pool, extending the
// relation up to it, and logs its image.
func (bl *Builder) put(blk uint32, p page.Page) error {
	ix := bl.ix
	n, err := ix.pool.NBlocks(ix.rel, buffer.MainFork)
	if err != nil {
		return err
	}
	if blk >= n {
		if _, err := ix.pool.Extend(ix.rel, buffer.MainFork, int(blk+1-n)); err != nil {
			return err
		}
	}
	b, err := ix.pool.ReadBufferZeroed(ix.rel, buffer.MainFork, blk)
	if err != nil {
		return err
	}
	b.Lock()
	copy(b.Page(), p)
	b.MarkDirty()
	if ix.wal != nil {
		lsn, err := ix.wal.LogNewPage(ix.rel, buffer.MainFork, blk, b.Page(), b.DirtiedUnderLock())
		if err != nil {
			b.Unlock()
			b.Release()
			return err
		}
		page.SetLSN(b.Page(), lsn)
	}
	b.Unlock()
	b.Release()
	return nil
}

// Finish writes the last page of every level and then the metapage, and
// returns the index. With no entries the index is one empty root leaf. The
// top level has a single page, the root: a level gets a parent level as
// soon as its first page is closed.
func (bl *Builder) Finish() (*Index, error) {
	if len(bl.levels) == 0 {
		bl.levels = append(bl.levels, &buildLevel{level: 0, blk: bl.alloc(), prev: pNone})
	}
	for _, lv := range bl.levels {
		if err := bl.writePage(lv, nil, pNone); err != nil {
			return nil, err
		}
	}
	top := bl.levels[len(bl.levels)-1]
	var tmp [page.BlockSize]byte
	initMetaPage(page.Page(tmp[:]), meta{root: top.blk, level: top.level})
	if err := bl.put(metaBlock, page.Page(tmp[:])); err != nil {
		return nil, err
	}
	return bl.ix, nil
}

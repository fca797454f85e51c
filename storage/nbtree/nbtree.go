package nbtree

import (
	"minipg/storage/buffer"
	"minipg/storage/page"
	"minipg/storage/wal"
)

// Options configure an Index.
type Options struct {
	// WAL logs every change; nil means an unlogged index (tests).
	WAL *wal.Log
	// Horizon dates page deletions (pagedel.go); nil: VACUUM deletes no
	// page and no page is reused.
	Horizon Horizon
	// FillFactor is the leaf fillfactor in percent (10..100, default 90):
	// how full a bulk build packs leaf pages, and how full the left half of
	// a split of the rightmost leaf stays when the new entry goes last
	// (ascending inserts). Internal pages use 70, as PostgreSQL's
	// BTREE_NONLEAF_FILLFACTOR.
	FillFactor int
	// LeadingColumnLen returns the length of the encoding of the index's
	// first column in an entry, 0 when it cannot tell (nil: never, as for
	// a single-column index). It lets a leaf split recognise localized
	// ascending inserts (planSplit's split after the new item): a new
	// entry that follows one with the same first column and an adjacent
	// heap TID, as the lines of an order inserted together.
	LeadingColumnLen func(entry []byte) int

	// pageBytes, when not 0, caps the bytes of line pointers and items a
	// page may hold, so that tests get deep trees with few entries.
	pageBytes int
}

// Fill factors, as nbtree.h names them.
const (
	defaultFillFactor = 90 // BTREE_DEFAULT_FILLFACTOR
	nonLeafFillFactor = 70 // BTREE_NONLEAF_FILLFACTOR
)

// Index is one B-tree index stored in its relation's main fork. All methods
// are safe for concurrent use; see the package comment for the locking.
type Index struct {
	pool       *buffer.Pool
	rel        buffer.RelFileNode
	wal        *wal.Log
	horizon    Horizon
	st         *relState // shared by every Index open on rel
	fillFactor int
	leadingLen func([]byte) int // Options.LeadingColumnLen
	capacity   int              // usable bytes of a page for line pointers and items
}

// Open returns the index stored in rel (made by a Builder or Create).
func Open(pool *buffer.Pool, rel buffer.RelFileNode, opts Options) *Index {
	ix := &Index{pool: pool, rel: rel, wal: opts.WAL, horizon: opts.Horizon, st: sharedState(pool, rel), fillFactor: opts.FillFactor,
		leadingLen: opts.LeadingColumnLen, capacity: page.BlockSize - page.HeaderSize - specialSize}
	if ix.fillFactor < 10 || ix.fillFactor > 100 {
		ix.fillFactor = defaultFillFactor
	}
	if opts.pageBytes > 0 {
		ix.capacity = min(ix.capacity, opts.pageBytes)
	}
	return ix
}

// Create makes an empty index in rel (a metapage and an empty root leaf),
// creating the relation's file, and returns it.
func Create(pool *buffer.Pool, rel buffer.RelFileNode, opts Options) (*Index, error) {
	b, err := NewBuilder(pool, rel, opts)
	if err != nil {
		return nil, err
	}
	return b.Finish()
}

// Rel returns the index's relfilenode.
func (ix *Index) Rel() buffer.RelFileNode { return ix.rel }

// getBuf returns blk pinned and locked (exclusive or shared), checked to be
// a btree page.
func (ix *Index) getBuf(blk uint32, exclusive bool) (*buffer.Buffer, error) {
	b, err := ix.pool.ReadBuffer(ix.rel, buffer.MainFork, blk)
	if err != nil {
		return nil, err
	}
	if exclusive {
		b.Lock()
	} else {
		b.RLock()
	}
	if !hasSpecial(b.Page()) {
		relBuf(b, exclusive)
		return nil, errCorrupt(uint32(ix.rel), blk, "not a btree page")
	}
	return b, nil
}

// relBuf unlocks and unpins b.
func relBuf(b *buffer.Buffer, exclusive bool) {
	if exclusive {
		b.Unlock()
	} else {
		b.RUnlock()
	}
	b.Release()
}

// readMeta returns the metapage's root and level.
func (ix *Index) readMeta() (meta, error) {
	ix.st.metaReads.Add(1)
	b, err := ix.getBuf(metaBlock, false)
	if err != nil {
		return meta{}, err
	}
	m, ok := readMeta(b.Page())
	relBuf(b, false)
	if !ok {
		return meta{}, errCorrupt(uint32(ix.rel), metaBlock, "bad metapage")
	}
	return m, nil
}

// isRootAt reports whether p is a live root page at level: what a cached
// copy of the metapage is checked against (_bt_getroot's test of
// rd_amcache). A root split clears the old root's flag, so a stale copy
// never passes.
func isRootAt(p page.Page, level uint32) bool {
	return btFlags(p)&flagRoot != 0 && !isIgnored(p) && btLevel(p) == level
}

// searchKey says where a descent goes: to the leaf holding the first entry
// >= key (strict false), the last entry < key (strict true), or the
// rightmost leaf (toEnd).
type searchKey struct {
	key    []byte
	strict bool
	toEnd  bool
}

// stackItem is a page a descent went through: the hint where to look for
// the parent of a page that splits (BTStack, without the offset: parents
// are re-found by key).
type stackItem struct {
	blk   uint32
	level uint32
}

// descend walks from the root to the leaf for sk (_bt_search) and returns it
// pinned and locked, exclusive if write, with the internal pages passed
// through. Internal pages are share-locked one at a time; each page is
// left for its right sibling while the key lies beyond its high key (a
// concurrent split, Lehman & Yao). A writer finishes an incomplete split
// of the leaf it lands on before it returns (_bt_finish_split).
func (ix *Index) descend(sk searchKey, write bool) (*buffer.Buffer, []stackItem, error) {
	for {
		b, stack, again, err := ix.descendOnce(sk, write)
		if err != nil || !again {
			return b, stack, err
		}
	}
}

func (ix *Index) descendOnce(sk searchKey, write bool) (*buffer.Buffer, []stackItem, bool, error) {
	m, cached := ix.st.cachedMeta()
	if !cached {
		var err error
		if m, err = ix.readMeta(); err != nil {
			return nil, nil, false, err
		}
	}
	exclusive := write && m.level == 0
	b, err := ix.getBuf(m.root, exclusive)
	switch {
	case cached && (err != nil || !isRootAt(b.Page(), m.level)):
		// The root moved (a root split) since the metapage was cached:
		// read it again.
		if err == nil {
			relBuf(b, exclusive)
		}
		ix.st.forgetMeta()
		return nil, nil, true, nil
	case err != nil:
		return nil, nil, false, err
	case !cached && isRootAt(b.Page(), m.level):
		ix.st.rememberMeta(m)
	}
	var stack []stackItem
	for {
		if b, err = ix.moveRight(b, sk, exclusive); err != nil {
			return nil, nil, false, err
		}
		p := b.Page()
		if isLeaf(p) {
			if write && btFlags(p)&flagIncompleteSplit != 0 {
				// A split whose downlink never reached the parent (a
				// crash between the two records): add it, then start over.
				if err := ix.finishSplit(b, stack); err != nil {
					return nil, nil, false, err
				}
				return nil, nil, true, nil
			}
			return b, stack, false, nil
		}
		var off uint16
		if sk.toEnd {
			off = page.MaxOffset(p)
		} else {
			off = childSearch(p, sk.key, sk.strict)
		}
		t := page.Item(p, off)
		level := btLevel(p)
		if len(t) < pivotHeader || off < firstData(p) {
			blk := b.Block()
			relBuf(b, exclusive)
			return nil, nil, false, errCorrupt(uint32(ix.rel), blk, "internal page without downlinks")
		}
		child := downlink(t)
		stack = append(stack, stackItem{blk: b.Block(), level: level})
		relBuf(b, exclusive)
		exclusive = write && level == 1
		if b, err = ix.getBuf(child, exclusive); err != nil {
			return nil, nil, false, err
		}
	}
}

// moveRight follows right links from the locked page b while sk lies
// beyond its high key or the page is being deleted (_bt_moveright). It
// releases each page before locking the next: a page's right link is never
// moved away from its key space, so the next page is still the right place
// to look (and is rechecked).
func (ix *Index) moveRight(b *buffer.Buffer, sk searchKey, exclusive bool) (*buffer.Buffer, error) {
	for {
		p := b.Page()
		if isRightmost(p) {
			return b, nil
		}
		if !isIgnored(p) {
			if sk.toEnd {
				// keep going to the rightmost page
			} else if !beyondHighKey(p, sk.key, sk.strict) {
				return b, nil
			}
		}
		next := btNext(p)
		relBuf(b, exclusive)
		var err error
		if b, err = ix.getBuf(next, exclusive); err != nil {
			return nil, err
		}
	}
}

// newPage returns a page for a split or a new root, pinned and exclusively
// locked: a deleted page old enough to reuse (pagedel.go), or else a new
// page at the end of the relation, all zeroes. The caller initializes it
// and logs it (WillInit).
func (ix *Index) newPage() (*buffer.Buffer, error) {
	if b, err := ix.reusePage(); b != nil || err != nil {
		return b, err
	}
	blk, err := ix.pool.Extend(ix.rel, buffer.MainFork, 1)
	if err != nil {
		return nil, err
	}
	b, err := ix.pool.ReadBuffer(ix.rel, buffer.MainFork, blk)
	if err != nil {
		return nil, err
	}
	b.Lock()
	return b, nil
}

// fits reports whether an item of n bytes fits on p, within the capacity.
func (ix *Index) fits(p page.Page, n int) bool {
	return page.MaxAlignLen(n) <= page.FreeSpace(p) && usedSpace(p)+itemSize(n) <= ix.capacity
}

// entryTID returns the heap TID at the end of entry e (6 bytes, big-endian
// block then offset, as package index appends it).
func entryTID(e []byte) page.TID {
	t := e[len(e)-tidLen:]
	return page.TID{
		Block:  uint32(t[0])<<24 | uint32(t[1])<<16 | uint32(t[2])<<8 | uint32(t[3]),
		Offset: uint16(t[4])<<8 | uint16(t[5]),
	}
}

// AppendTID appends tid's 6 bytes to an encoded key, making an entry.
func AppendTID(b []byte, tid page.TID) []byte {
	return append(b, byte(tid.Block>>24), byte(tid.Block>>16), byte(tid.Block>>8), byte(tid.Block),
		byte(tid.Offset>>8), byte(tid.Offset))
}

// tidLen is the length of the TID at the end of every entry.
const tidLen = 6

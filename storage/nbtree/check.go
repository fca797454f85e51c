package nbtree

// The checker (amcheck's bt_index_check and the parent/child checks of
// bt_index_parent_check, verify_nbtree.c): it walks every level from the
// root down, left to right along the right links, and checks each page and
// each downlink. The first problem found is returned as an XX002
// (index_corrupted) error naming the block.

import (
	"bytes"
	"fmt"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// CheckStats describe a checked index.
type CheckStats struct {
	Levels  int // tree height (1 for a lone root leaf)
	Pages   int // pages reached from the root
	Leaves  int // leaf pages among them
	Entries int // leaf entries
	// IncompleteSplits counts pages whose right sibling has no downlink
	// yet (allowed: the next insertion that reaches them adds it).
	IncompleteSplits int
	// HalfDead counts empty leaves whose deletion a crash interrupted
	// after the first step (allowed: the next VACUUM unlinks them).
	HalfDead int
	// HalfDeadInternal counts the internal pages of such deletions' chains
	// still to unlink (each has one downlink, to the next page of its
	// chain down to the half-dead leaf).
	HalfDeadInternal int
	// Dead counts the leaf entries marked LP_DEAD (counted in Entries
	// too; allowed: scans skip them, VACUUM or a split removes them).
	Dead int
}

// pageInfo is what the checker keeps of a page of the level it walks.
type pageInfo struct {
	blk   uint32
	lowHK []byte // the high key of the page to its left (nil: leftmost)
	hk    []byte // its own high key (nil: rightmost)
	flags uint16
	top   uint32 // a half-dead leaf's top-parent link (the leaf itself: its block)
	dead  int    // data items marked LP_DEAD
}

// Check verifies the index's structure. It takes each page's share lock in
// turn, so it may run beside readers; run it with no concurrent writer
// (a split between two pages it reads would look like an inconsistency).
//
// Checked: the metapage; on every page the header, the level, the flags
// (leaf exactly at level 0, root only at the top), keys strictly ascending,
// every key at or above the page's lower bound (the high key of its left
// sibling) and below its own high key; left links matching right links;
// each level ending at a rightmost page; every downlink pointing at the
// next page of the level below in order, with a separator equal to that
// page's lower bound; pages without a downlink only right of a page marked
// INCOMPLETE_SPLIT, or half-dead (an empty leaf, not rightmost, whose key
// space belongs to its right sibling, or an internal page of the chain
// above one: a single downlink, to the half-dead page of its chain one
// level down; a level whose left end is such a page is walked from it);
// each half-dead leaf's top-parent link naming the top of its chain; no
// deleted page reachable; LP_DEAD items only among a leaf's entries.
func (ix *Index) Check() (CheckStats, error) {
	var st CheckStats
	rel := uint32(ix.rel)
	nblocks, err := ix.pool.NBlocks(ix.rel, buffer.MainFork)
	if err != nil {
		return st, err
	}
	mb, err := ix.getBuf(metaBlock, false)
	if err != nil {
		return st, err
	}
	m, ok := readMeta(mb.Page())
	relBuf(mb, false)
	if !ok {
		return st, errCorrupt(rel, metaBlock, "bad metapage")
	}
	// downs: the downlinks of the level above, in order, each with the
	// lower bound of its key space (nil: minus infinity).
	type down struct {
		blk, parent uint32
		bound       []byte
	}
	downs := []down{{blk: m.root, parent: metaBlock}}
	level := m.level
	// hdTop: the pages of the level being walked that half-dead pages of
	// the level above link to, each with the top of its chain.
	hdTop := map[uint32]uint32{}
	for {
		st.Levels++
		var prev *pageInfo
		var next []down
		nextHdTop := map[uint32]uint32{}
		di := 0
		blk, err := ix.leftEnd(downs[0].blk)
		if err != nil {
			return st, err
		}
		for blk != pNone {
			if blk >= nblocks {
				from := downs[0].parent
				if prev != nil {
					from = prev.blk
				}
				return st, errCorrupt(rel, from, "link to block %d beyond the end of the index (%d blocks)", blk, nblocks)
			}
			b, err := ix.getBuf(blk, false)
			if err != nil {
				return st, err
			}
			p := b.Page()
			info, items, err := ix.checkPage(p, blk, level, m, prev)
			relBuf(b, false)
			if err != nil {
				return st, err
			}
			st.Pages++
			// The page's downlink from the level above.
			top, below := hdTop[blk]
			delete(hdTop, blk)
			if info.flags&flagHalfDead != 0 {
				if di < len(downs) && downs[di].blk == blk {
					return st, errCorrupt(rel, downs[di].parent, "downlink to half-dead block %d", blk)
				}
				if !below {
					top = blk
				}
				if level > 0 {
					st.HalfDeadInternal++
					nextHdTop[downlink(items[0])] = top
					items = nil
				} else {
					st.HalfDead++
					if info.top != top {
						return st, errCorrupt(rel, blk, "half-dead leaf names block %d as the top of its chain, which is block %d", info.top, top)
					}
				}
			} else if below {
				return st, errCorrupt(rel, blk, "live page below half-dead block %d", top)
			} else if di < len(downs) && downs[di].blk == blk {
				if di > 0 && !bytes.Equal(downs[di].bound, info.lowHK) {
					return st, errCorrupt(rel, downs[di].parent, "separator %x of the downlink to block %d differs from that page's lower bound %x",
						downs[di].bound, blk, info.lowHK)
				}
				di++
			} else if prev == nil || prev.flags&flagIncompleteSplit == 0 {
				return st, errCorrupt(rel, blk, "page has no downlink and its left sibling no incomplete split (a downlink of block %d skips it?)",
					downs[min(di, len(downs)-1)].parent)
			}
			if info.flags&flagIncompleteSplit != 0 {
				st.IncompleteSplits++
			}
			if level == 0 {
				st.Leaves++
				st.Entries += len(items)
				st.Dead += info.dead
			} else {
				for i, it := range items {
					bound := bytes.Clone(pivotKey(it))
					if i == 0 {
						bound = info.lowHK
					}
					next = append(next, down{blk: downlink(it), parent: blk, bound: bound})
				}
			}
			prev = &info
			blk = btNext(p)
			if blk != pNone && blk == info.blk {
				return st, errCorrupt(rel, blk, "page links to itself")
			}
			if st.Pages > int(nblocks) {
				return st, errCorrupt(rel, blk, "right links loop")
			}
		}
		if di != len(downs) {
			return st, errCorrupt(rel, downs[di].parent, "downlink to block %d, not on level %d's right-link chain (or out of order)", downs[di].blk, level)
		}
		for blk, top := range hdTop {
			return st, errCorrupt(rel, blk, "block %d of the half-dead chain under block %d is not on level %d's right-link chain", blk, top, level)
		}
		hdTop = nextHdTop
		if level == 0 {
			return st, nil
		}
		if len(next) == 0 {
			return st, errCorrupt(rel, downs[0].blk, "level %d has no downlinks", level)
		}
		downs = next
		level--
	}
}

// leftEnd returns the page the walk of a level starts from: blk, the
// first downlink of the level above, or, when the pages left of blk are
// half-dead (a deletion at the left end of the tree, interrupted after
// its first step, gave their key space and the first downlink to blk),
// the leftmost of them. A left link that does not lead to such a page is
// left for the walk to report.
func (ix *Index) leftEnd(blk uint32) (uint32, error) {
	nblocks, err := ix.pool.NBlocks(ix.rel, buffer.MainFork)
	if err != nil {
		return pNone, err
	}
	for range nblocks {
		b, err := ix.getBuf(blk, false)
		if err != nil {
			return pNone, err
		}
		left := btPrev(b.Page())
		relBuf(b, false)
		if left == pNone || left >= nblocks {
			return blk, nil
		}
		lb, err := ix.getBuf(left, false)
		if err != nil {
			return pNone, err
		}
		ok := isHalfDead(lb.Page()) && btNext(lb.Page()) == blk
		relBuf(lb, false)
		if !ok {
			return blk, nil
		}
		blk = left
	}
	return blk, nil
}

// checkPage checks one page of the level walk and returns what the walk
// needs of it, and its data items.
func (ix *Index) checkPage(p page.Page, blk, level uint32, m meta, prev *pageInfo) (pageInfo, [][]byte, error) {
	rel := uint32(ix.rel)
	info := pageInfo{blk: blk, flags: btFlags(p)}
	if err := page.Verify(p); err != nil {
		return info, nil, errCorrupt(rel, blk, "bad page header: %v", err)
	}
	if btLevel(p) != level {
		return info, nil, errCorrupt(rel, blk, "page has level %d, want %d", btLevel(p), level)
	}
	if isLeaf(p) != (level == 0) {
		return info, nil, errCorrupt(rel, blk, "leaf flag %v on level %d", isLeaf(p), level)
	}
	if info.flags&flagDeleted != 0 {
		return info, nil, errCorrupt(rel, blk, "deleted page reachable from the tree (flags %#x)", info.flags)
	}
	if info.flags&flagMeta != 0 {
		return info, nil, errCorrupt(rel, blk, "unexpected page flags %#x on a live page", info.flags)
	}
	isRoot := info.flags&flagRoot != 0
	if isRoot != (blk == m.root) {
		return info, nil, errCorrupt(rel, blk, "root flag %v, metapage root is block %d", isRoot, m.root)
	}
	wantPrev := pNone
	if prev != nil {
		wantPrev = prev.blk
		info.lowHK = prev.hk
	}
	if btPrev(p) != wantPrev {
		return info, nil, errCorrupt(rel, blk, "left link %d, want %d", btPrev(p), wantPrev)
	}
	if !isRightmost(p) {
		t := page.Item(p, page.FirstOffset)
		if len(t) < pivotHeader {
			return info, nil, errCorrupt(rel, blk, "missing high key")
		}
		info.hk = bytes.Clone(pivotKey(t))
		if info.lowHK != nil && bytes.Compare(info.hk, info.lowHK) <= 0 {
			return info, nil, errCorrupt(rel, blk, "high key %x not above the lower bound %x", info.hk, info.lowHK)
		}
	}
	// LP_DEAD marks only leaf entries (the high key and pivots are never
	// killed); such items keep their storage and their place in order.
	for off := page.FirstOffset; off <= page.MaxOffset(p); off++ {
		if !itemDead(p, off) {
			continue
		}
		if level > 0 || off < firstData(p) {
			return info, nil, errCorrupt(rel, blk, "item %d marked LP_DEAD on a page of level %d (data items from %d)", off, level, firstData(p))
		}
		info.dead++
	}
	items := pageItems(p, firstData(p))
	if info.flags&flagHalfDead != 0 {
		want := 0 // a leaf: empty; an internal page: one downlink
		if level > 0 {
			want = 1
		}
		if len(items) != want || info.hk == nil || (level > 0 && len(items[0]) != pivotHeader) {
			return info, nil, errCorrupt(rel, blk, "half-dead page on level %d with %d items (rightmost: %v)", level, len(items), info.hk == nil)
		}
		if level == 0 {
			info.top = topParent(p, blk)
		}
		// Its key space is its right sibling's: that page's lower bound
		// is this one's.
		info.hk = info.lowHK
		return info, items, nil
	}
	if level > 0 && len(items) == 0 {
		return info, nil, errCorrupt(rel, blk, "internal page without downlinks")
	}
	var last []byte
	for i, it := range items {
		off := firstData(p) + uint16(i)
		if it == nil {
			return info, nil, errCorrupt(rel, blk, "item %d has no storage", off)
		}
		key := it
		if level > 0 {
			if len(it) < pivotHeader {
				return info, nil, errCorrupt(rel, blk, "item %d shorter than a pivot", off)
			}
			key = pivotKey(it)
			if i == 0 {
				if len(key) != 0 {
					return info, nil, errCorrupt(rel, blk, "first downlink is not minus infinity")
				}
				continue
			}
		} else if len(it) <= tidLen {
			return info, nil, errCorrupt(rel, blk, "entry %d shorter than a TID", off)
		}
		if last != nil && bytes.Compare(key, last) <= 0 {
			return info, nil, errCorrupt(rel, blk, "item %d is not above item %d", off, off-1)
		}
		if info.lowHK != nil && bytes.Compare(key, info.lowHK) < 0 {
			return info, nil, errCorrupt(rel, blk, "item %d below the page's lower bound", off)
		}
		if info.hk != nil && bytes.Compare(key, info.hk) >= 0 {
			return info, nil, errCorrupt(rel, blk, "item %d not below the high key", off)
		}
		last = key
	}
	return info, items, nil
}

// checkPageOrder checks one page alone (invariants builds, after every
// change): a btree page with its items strictly ascending and below its
// high key.
func checkPageOrder(p page.Page) error {
	if err := page.Verify(p); err != nil {
		return err
	}
	if !hasSpecial(p) {
		return fmt.Errorf("not a btree page")
	}
	if btFlags(p)&flagMeta != 0 {
		return nil
	}
	leaf := isLeaf(p)
	hk := highKey(p)
	var last []byte
	for off := firstData(p); off <= page.MaxOffset(p); off++ {
		k := itemKey(p, leaf, off)
		if k == nil {
			return fmt.Errorf("item %d has no storage", off)
		}
		if !leaf && off == firstData(p) {
			continue // minus infinity
		}
		if last != nil && bytes.Compare(k, last) <= 0 {
			return fmt.Errorf("item %d is not above item %d", off, off-1)
		}
		if hk != nil && bytes.Compare(k, hk) >= 0 {
			return fmt.Errorf("item %d is not below the high key", off)
		}
		last = k
	}
	return nil
}

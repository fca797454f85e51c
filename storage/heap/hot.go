package heap

// Heap-only tuples (HOT), after PostgreSQL 15's heapam.c (heap_update's HOT
// decision, heap_hot_search_buffer, heap_get_root_tuples). See README.md,
// "HOT chains".
//
// An UPDATE whose new version goes on the old version's page and changes no
// indexed column makes a HOT chain: the old version gets HEAP_HOT_UPDATED,
// the new one HEAP_ONLY_TUPLE, and no index entry is made for the new one.
// Index entries point at the chain's root line pointer (a tuple that is not
// heap-only, or, after pruning, an LP_REDIRECT to the first surviving
// member); a fetch through an index walks the chain on the page to the
// member visible to the snapshot.

import (
	"bytes"
	"slices"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// IndexAttrs are the columns (0-based) covered by the relation's indexes,
// PostgreSQL's RelationGetIndexAttrBitmap.
type IndexAttrs struct {
	// Indexed: columns of any index (INDEX_ATTR_BITMAP_HOT_BLOCKING). An
	// update that changes one of them is never HOT.
	Indexed []int
	// Key: columns of unique indexes (INDEX_ATTR_BITMAP_KEY). An update that
	// changes one of them sets HEAP_KEYS_UPDATED on the old version.
	Key []int
}

// SetIndexAttrs records which columns the relation's indexes cover; Update
// compares them between the old and new versions (binary equality, as
// heap_update's HeapDetermineColumnsInfo). A Relation starts with no
// indexed columns, so every same-page update is HOT: a caller with indexes
// must call SetIndexAttrs before its first Update, and again (holding off
// updates, e.g. under an exclusive relation lock) whenever the set of
// indexes changes.
func (r *Relation) SetIndexAttrs(a IndexAttrs) {
	c := &IndexAttrs{Indexed: slices.Clone(a.Indexed), Key: slices.Clone(a.Key)}
	r.indexAttrs.Store(c)
}

// modifiedColumns reports whether newtup differs from the old version t in
// an indexed column (hot: false means a HOT update is allowed) and in a key
// column. A column is unchanged when both are NULL or both are non-NULL with
// equal bytes. A tuple that cannot be deformed counts as changed.
func (r *Relation) modifiedColumns(t, newtup []byte) (indexed, key bool) {
	a := r.indexAttrs.Load()
	if a == nil || (len(a.Indexed) == 0 && len(a.Key) == 0) {
		return false, false
	}
	n := len(r.desc)
	ov, nv := make([][]byte, n), make([][]byte, n)
	on, nn := make([]bool, n), make([]bool, n)
	if DeformTuple(r.desc, t, ov, on) != nil || DeformTuple(r.desc, newtup, nv, nn) != nil {
		return true, len(a.Key) > 0
	}
	changed := func(cols []int) bool {
		for _, c := range cols {
			if c < 0 || c >= n {
				continue
			}
			if on[c] != nn[c] || (!on[c] && !bytes.Equal(ov[c], nv[c])) {
				return true
			}
		}
		return false
	}
	return changed(a.Indexed), changed(a.Key)
}

// hotSearch is heap_hot_search_buffer's walk on the locked page p: starting
// at root offset off, follow an LP_REDIRECT (only at the start) and the
// HEAP_HOT_UPDATED links (t_ctid on the same page, each member's t_xmin
// equal to its predecessor's update xid), calling visit on each member until
// it returns true. It returns that member's offset, or 0. A heap-only tuple
// at the start is not a chain root (index entries never point at one), so
// nothing is visited. The walk stops after MaxOffset steps (a loop is
// corruption, which Check reports).
func hotSearch(p page.Page, off uint16, visit func(off uint16, t []byte) bool) uint16 {
	maxoff := page.MaxOffset(p)
	atStart := true
	var priorXmax uint32
	for steps := 0; steps <= int(maxoff); steps++ {
		if off < 1 || off > maxoff {
			return 0
		}
		lpOff, flags, lpLen := page.ItemID(p, off)
		if flags != page.LPNormal {
			if flags == page.LPRedirect && atStart {
				off = uint16(lpOff)
				atStart = false
				continue
			}
			return 0
		}
		if lpLen < TupleHeaderSize || lpOff < page.Upper(p) || lpOff+lpLen > page.Special(p) {
			return 0 // corrupt line pointer: Check reports it
		}
		t := page.Item(p, off)
		if atStart && Infomask2(t)&HeapOnlyTuple != 0 {
			return 0
		}
		if priorXmax != InvalidXid && Xmin(t) != priorXmax {
			return 0 // broken chain: the slot was reused
		}
		if visit(off, t) {
			return off
		}
		if Infomask2(t)&HeapHotUpdated == 0 {
			return 0
		}
		off = Ctid(t).Offset
		atStart = false
		priorXmax = updateXid(t)
	}
	return 0
}

// updateXid is HeapTupleHeaderGetUpdateXid (no multixacts in minipg).
func updateXid(t []byte) uint32 { return Xmax(t) }

// FetchHot is an index fetch (heapam_index_fetch_tuple): tid is what an
// index entry holds, the root of a HOT chain; FetchHot follows the chain on
// tid's page and returns the member visible to snap, its own TID (which
// differs from tid after a HOT update) and a copy of it. ok is false when no
// member is visible, or tid names nothing. Like Fetch it may prune the page
// first. An index scan fetching many TIDs uses an IndexFetcher instead.
func (r *Relation) FetchHot(snap *Snapshot, tid page.TID) (visible page.TID, tup []byte, ok bool, err error) {
	f := r.NewIndexFetcher()
	defer f.Release()
	return f.Fetch(snap, tid)
}

// IndexFetcher is FetchHot for a run of index entries (IndexFetchHeapData):
// it keeps the last block's buffer pinned, so that consecutive entries on
// one block cost one buffer lookup and one pruning check, as PostgreSQL's
// index scans keep xs_cbuf. The pin (never a lock) is held until the next
// block or Release; a holder must call Release when the scan ends.
type IndexFetcher struct {
	r   *Relation
	buf *buffer.Buffer
	blk uint32
	// onDead, if set (SetOnDead), is called when an entry's chain is dead
	// to every transaction; horizon is the OldestXmin that decides it,
	// read once per fetcher (an older horizon only finds fewer tuples
	// dead, as PostgreSQL's GlobalVisState).
	onDead  func()
	horizon uint32
}

// SetOnDead makes FetchInto call fn when the chain the TID leads to holds
// no tuple any transaction can still see: no member, or every member
// deleted by a transaction that committed before the oldest running one
// (heap_hot_search_buffer's all_dead, HeapTupleIsSurelyDead). The index
// entry is then useless, and the caller may remove it (PostgreSQL marks it
// LP_DEAD: kill_prior_tuple). fn runs while the heap page is share-locked,
// so that VACUUM cannot meanwhile free the line pointer and a new row take
// it: it must not wait for anything but an index lock. The snapshot's
// Oracle must implement Horizon, or fn is never called.
func (f *IndexFetcher) SetOnDead(fn func()) { f.onDead = fn }

// NewIndexFetcher returns a fetcher holding no buffer.
func (r *Relation) NewIndexFetcher() *IndexFetcher { return &IndexFetcher{r: r} }

// Release drops the pinned buffer, if any. The fetcher stays usable.
func (f *IndexFetcher) Release() {
	if f.buf != nil {
		f.buf.Release()
		f.buf = nil
	}
}

// Fetch is FetchHot through the fetcher's buffer.
func (f *IndexFetcher) Fetch(snap *Snapshot, tid page.TID) (visible page.TID, tup []byte, ok bool, err error) {
	return f.FetchInto(snap, tid, nil)
}

// FetchInto is Fetch copying the visible member into dst[:0] (grown as
// needed) instead of a fresh slice, so that a scan decoding one row at a
// time can pass back the tuple it has finished with and allocate nothing.
func (f *IndexFetcher) FetchInto(snap *Snapshot, tid page.TID, dst []byte) (visible page.TID, tup []byte, ok bool, err error) {
	if snap == nil || snap.Oracle == nil {
		return page.TID{}, nil, false, ErrNoOracle
	}
	r := f.r
	fresh := false
	if f.buf == nil || f.blk != tid.Block {
		f.Release()
		buf, err := r.readBlockIfExists(tid.Block, snap.Usage)
		if err != nil || buf == nil {
			return page.TID{}, nil, false, err
		}
		f.buf, f.blk, fresh = buf, tid.Block, true
	}
	buf := f.buf
	buf.RLock()
	if fresh {
		// heapam_index_fetch_tuple prunes when it moves to a new block.
		r.maybePrune(buf, snap.Oracle, snap.Usage)
	}
	var q hintQueue
	off := hotSearch(buf.Page(), tid.Offset, func(off uint16, t []byte) bool {
		vis, hints := satisfiesMVCC(t, snap)
		q.add(off, t, hints)
		if vis {
			tup = append(dst[:0], t...)
		}
		return vis
	})
	if off == 0 && f.onDead != nil && f.chainDead(buf.Page(), tid.Offset, snap.Oracle) {
		f.onDead()
	}
	buf.RUnlock()
	if len(q) > 0 {
		r.applyQueuedHints(buf, q, snap.Usage)
	}
	if off == 0 {
		return page.TID{}, nil, false, nil
	}
	return page.TID{Block: tid.Block, Offset: off}, tup, true, nil
}

// chainDead reports whether every member of the chain at root offset off
// of the locked page p, none of them visible to the scan, is dead to every
// transaction (HeapTupleIsSurelyDead), true for a chain with no member. It
// walks the chain a second time, only for entries that found nothing, so
// that a fetch that finds its row pays nothing for it.
func (f *IndexFetcher) chainDead(p page.Page, off uint16, o Oracle) bool {
	if f.horizon == InvalidXid {
		h, ok := o.(Horizon)
		if !ok {
			return false
		}
		f.horizon = h.OldestXmin()
	}
	live := hotSearch(p, off, func(_ uint16, t []byte) bool {
		vs, _ := satisfiesVacuum(t, f.horizon, o)
		return vs != vacDead
	})
	return live == 0
}

// FetchHotMatch walks the HOT chain rooted at tid like FetchHot but picks
// the first member for which match returns true, for callers with their
// own visibility rule (a uniqueness check's SnapshotDirty). match runs under
// the page's share lock on a slice into the page: it must not keep the
// slice, modify it, or wait. It returns the member's TID and a copy of it.
// allDead (heap_hot_search_buffer's all_dead) is true when tid leads to no
// tuple at all (its line pointer is dead or unused, or a redirect whose
// chain is gone): an index entry pointing at tid is useless.
func (r *Relation) FetchHotMatch(tid page.TID, match func(tup []byte) bool) (found page.TID, tup []byte, ok, allDead bool, err error) {
	buf, err := r.readBlockIfExists(tid.Block, nil)
	if err != nil || buf == nil {
		return page.TID{}, nil, false, buf == nil && err == nil, err
	}
	defer buf.Release()
	buf.RLock()
	defer buf.RUnlock()
	visited := 0
	off := hotSearch(buf.Page(), tid.Offset, func(_ uint16, t []byte) bool {
		visited++
		if match(t) {
			tup = append([]byte(nil), t...)
			return true
		}
		return false
	})
	if off == 0 {
		return page.TID{}, nil, false, visited == 0, nil
	}
	return page.TID{Block: tid.Block, Offset: off}, tup, true, false, nil
}

// HotRoots is heap_get_root_tuples for block blk: roots[off] is the offset
// of the root line pointer of the HOT chain that the tuple at off belongs
// to (off itself for a tuple that is not heap-only), 0 for line pointers
// that hold no tuple and heap-only tuples no chain reaches. An index build
// makes entries with the root TID. len(roots) is MaxOffset+1. The answer is
// stable for live tuples: pruning keeps a live member's root in place.
func (r *Relation) HotRoots(blk uint32) ([]uint16, error) {
	buf, err := r.readBlockIfExists(blk, nil)
	if err != nil || buf == nil {
		return nil, err
	}
	defer buf.Release()
	buf.RLock()
	defer buf.RUnlock()
	return hotRoots(buf.Page()), nil
}

// hotRoots computes HotRoots on a locked page.
func hotRoots(p page.Page) []uint16 {
	if page.IsNew(p) {
		return nil
	}
	maxoff := page.MaxOffset(p)
	roots := make([]uint16, int(maxoff)+1)
	for off := uint16(1); off <= maxoff; off++ {
		lpOff, flags, lpLen := page.ItemID(p, off)
		switch flags {
		case page.LPNormal:
			if lpLen < TupleHeaderSize || lpOff < page.Upper(p) || lpOff+lpLen > page.Special(p) {
				continue
			}
			if Infomask2(page.Item(p, off))&HeapOnlyTuple != 0 {
				continue // reached from its root
			}
		case page.LPRedirect:
		default:
			continue
		}
		root := off
		hotSearch(p, off, func(m uint16, _ []byte) bool {
			roots[m] = root
			return false
		})
	}
	return roots
}

// IsHeapOnly reports whether tuple t has HEAP_ONLY_TUPLE: it is a HOT
// update's new version, which has no index entries of its own. After
// Update, the caller's newtup says whether the update was HOT.
func IsHeapOnly(t []byte) bool { return Infomask2(t)&HeapOnlyTuple != 0 }

package nbtree

// Deletion of leaf entries: one entry (Delete), the entries of TIDs the
// heap frees behind a prune (DeleteFreeing), and VACUUM's bulk delete
// (DeleteTIDs, btbulkdelete/btvacuumscan).

import (
	"bytes"
	"slices"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// Delete removes entry and reports whether it was present. The page's
// LP_DEAD items go in the same record.
func (ix *Index) Delete(entry []byte) (bool, error) {
	if err := ix.checkEntry(entry); err != nil {
		return false, err
	}
	b, _, err := ix.descend(searchKey{key: entry}, true)
	if err != nil {
		return false, err
	}
	defer relBuf(b, true)
	p := b.Page()
	off := leafSearch(p, entry, false)
	if off > page.MaxOffset(p) || !bytes.Equal(page.Item(p, off), entry) {
		return false, nil
	}
	offs := deadItems(p)
	if i, _ := slices.BinarySearch(offs, off); i == len(offs) || offs[i] != off {
		offs = slices.Insert(offs, i, off)
	}
	ix.deleteItems(b, offs, xlDelete)
	return true, nil
}

// DeleteFreeing removes entries whose heap TIDs the caller is about to
// make reusable outside a DeleteTIDs pass (the heap's reclaim behind a
// prune) and returns how many were present. The entries that sit on one
// leaf go in one record, with the page's LP_DEAD items, after one descent;
// their order does not matter. It counts as such a pass for the scans that
// remember entries to mark LP_DEAD (killitems.go): once a TID is reused,
// an insertion may add an entry's bytes again for a live row, which a scan
// that read the page before must not mark. The count moves even when no
// entry was there, since a scan may remember one from before another
// deletion. An error stops it; the leaves already changed stay changed.
func (ix *Index) DeleteFreeing(entries [][]byte) (int, error) {
	defer ix.st.passes.Add(2)
	for _, e := range entries {
		if err := ix.checkEntry(e); err != nil {
			return 0, err
		}
	}
	sorted := slices.Clone(entries)
	slices.SortFunc(sorted, bytes.Compare)
	sorted = slices.CompactFunc(sorted, bytes.Equal)
	found := 0
	for i := 0; i < len(sorted); {
		b, _, err := ix.descend(searchKey{key: sorted[i]}, true)
		if err != nil {
			return found, err
		}
		p := b.Page()
		var offs []uint16
		j := i
		for ; j < len(sorted) && (j == i || !beyondHighKey(p, sorted[j], false)); j++ {
			if off := leafSearch(p, sorted[j], false); off <= page.MaxOffset(p) && bytes.Equal(page.Item(p, off), sorted[j]) {
				offs = append(offs, off) // ascending, as the entries are
			}
		}
		if len(offs) > 0 {
			found += len(offs)
			for _, d := range deadItems(p) {
				if k, ok := slices.BinarySearch(offs, d); !ok {
					offs = slices.Insert(offs, k, d)
				}
			}
			ix.deleteItems(b, offs, xlDelete)
		}
		relBuf(b, true)
		i = j
	}
	return found, nil
}

// deleteItems removes the items at offs (ascending) from the exclusively
// locked leaf b and logs it with info (DELETE or VACUUM).
func (ix *Index) deleteItems(b *buffer.Buffer, offs []uint16, info uint8) {
	applyDelete(b.Page(), offs)
	ix.xlog(info, nil, regBuf{buf: b, data: appendOffsets(nil, offs)})
}

// applyDelete removes the items at offs (ascending, valid) from p
// (PageIndexMultiDelete's effect: the rest keep their order, as normal
// items) and clears BTP_HAS_GARBAGE: the callers remove every LP_DEAD
// item.
func applyDelete(p page.Page, offs []uint16) {
	if len(offs) <= 2 {
		// As PageIndexMultiDelete does, so few items go one at a time,
		// in place, the last first: no copy of the page.
		for i := len(offs) - 1; i >= 0; i-- {
			if !page.IndexTupleDelete(p, offs[i]) {
				panic("nbtree: applyDelete: no item to delete at the offset")
			}
		}
		setFlags(p, btFlags(p)&^flagHasGarbage)
		return
	}
	n := page.MaxOffset(p)
	items := make([][]byte, 0, int(n)-len(offs))
	j := 0
	for off := page.FirstOffset; off <= n; off++ {
		if j < len(offs) && offs[j] == off {
			j++
			continue
		}
		items = append(items, page.Item(p, off))
	}
	rebuildPage(p, items)
	setFlags(p, btFlags(p)&^flagHasGarbage)
}

// VacuumPoint is VACUUM's delay point (vacuum_delay_point), called after
// each page DeleteTIDs reads, with no lock held: whether the page was
// found in the buffer pool and whether this pass dirtied it, for the cost
// balance. An error stops the pass and is returned; the entries removed so
// far stay removed (each page's removal is one WAL record).
type VacuumPoint func(hit, dirtied bool) error

// DeleteTIDs removes every entry whose heap TID is in tids (VACUUM's dead
// tuples), and every entry marked LP_DEAD, and returns how many it removed
// (btbulkdelete). It reads the index's pages in physical order
// (btvacuumscan), each leaf under its exclusive lock, and rereads the
// relation's size as it goes, so that it reaches the pages splits add at
// the end meanwhile; a split into a reused page it has passed already is
// stamped with its cycle id, and it follows the stamped page's right links
// back there (pagedel.go), so no entry is missed. The caller makes sure no scan will return the removed TIDs'
// entries to a reader that could take a reused line pointer for them
// (PostgreSQL's cleanup lock; minipg's readers copy TIDs out and check the
// heap tuple's key and visibility). point, when not nil, is called after
// every page.
//
// With a Horizon, the same scan deletes the leaves it leaves empty (or
// finds empty), finishes deletions a crash interrupted (half-dead leaves)
// and records the deleted pages old enough to reuse in the index's free
// space map (btvacuumpage's RecordFreeIndexPage), those it deleted itself
// included if the horizon has passed them by the end
// (_bt_pendingfsm_finalize); splits take their new pages from there.
func (ix *Index) DeleteTIDs(tids map[page.TID]struct{}, point VacuumPoint) (int, error) {
	return ix.DeleteTIDsWith(tids, point, nil)
}

// DeleteTIDsWith is DeleteTIDs reading the pages it scans through the
// access strategy s (VACUUM's ring; nil: the default access).
func (ix *Index) DeleteTIDsWith(tids map[page.TID]struct{}, point VacuumPoint, s *buffer.Strategy) (int, error) {
	v := &bulkDelete{ix: ix, tids: tids, point: point, strategy: s, mine: map[uint32]struct{}{}}
	if ix.horizon != nil {
		v.oldest = ix.horizon.OldestXmin()
	}
	v.cycle = ix.beginBulk()
	complete := false
	defer func() {
		if ix.horizon != nil && len(v.deleted) > 0 {
			oldest := ix.horizon.OldestXmin()
			for _, blk := range v.deleted {
				if b, err := ix.getBuf(blk, false); err == nil {
					if recyclable(b.Page(), oldest) {
						v.recordFree(blk)
					} else {
						v.waiting++
					}
					relBuf(b, false)
				}
			}
		}
		ix.endBulk(v.recorded, v.waiting, complete)
	}()
	for blk := metaBlock + 1; ; blk++ {
		n, err := ix.pool.NBlocks(ix.rel, buffer.MainFork)
		if err != nil {
			return v.removed, err
		}
		if blk >= n {
			complete = true
			return v.removed, nil
		}
		next, err := v.page(blk, blk)
		for err == nil && next != pNone {
			next, err = v.page(next, blk) // back to a page split meanwhile
		}
		if err != nil {
			return v.removed, err
		}
	}
}

// bulkDelete is one DeleteTIDs pass.
type bulkDelete struct {
	ix       *Index
	tids     map[page.TID]struct{}
	strategy *buffer.Strategy // the pages' access strategy (VACUUM's ring)
	point    VacuumPoint
	oldest   uint32 // the horizon when the pass started
	cycle    uint16
	removed  int
	// deleted: pages this pass deleted (mine: the same as a set);
	// recorded: deleted pages the horizon has passed, recorded free in
	// the map; waiting: deleted pages it has not.
	deleted           []uint32
	mine              map[uint32]struct{}
	recorded, waiting int
}

// recordFree records the deleted page blk, which the horizon has passed,
// as free in the index's free space map. A failure is not the pass's (the
// map is a hint and keeps the error): the page waits for the next pass.
func (v *bulkDelete) recordFree(blk uint32) {
	if v.ix.st.fsm.RecordFreeIndexPage(blk) == nil {
		v.recorded++
	}
}

// page vacuums block blk, read while the scan is at block scan (blk <
// scan when it follows a split back), and returns the block to follow
// next: the page's right link if a split stamped the page with this
// pass's cycle id and links back below scan, else pNone.
func (v *bulkDelete) page(blk, scan uint32) (uint32, error) {
	ix := v.ix
	b, hit, err := ix.pool.ReadBufferStrategy(ix.rel, buffer.MainFork, blk, v.strategy)
	if err != nil {
		return pNone, err
	}
	b.Lock()
	wasDirty := b.IsDirty()
	p := b.Page()
	var empty, halfDead bool
	follow := pNone
	switch {
	case !hasSpecial(p):
	case isDeleted(p):
		// A deleted page of any level (internal pages go with the chain
		// of single-child parents above an empty leaf); one this pass
		// deleted is counted at the end.
		if _, mine := v.mine[blk]; blk == scan && !mine {
			if ix.horizon != nil && recyclable(p, v.oldest) {
				// Under the page's lock, as btvacuumpage does: a
				// split cannot be taking it meanwhile.
				v.recordFree(blk)
			} else {
				v.waiting++
			}
		}
	case !isLeaf(p):
	case isHalfDead(p):
		halfDead = true
	default:
		var offs []uint16
		for off := firstData(p); off <= page.MaxOffset(p); off++ {
			e := page.Item(p, off)
			if len(e) <= tidLen {
				continue
			}
			if _, ok := v.tids[entryTID(e)]; ok || itemDead(p, off) {
				offs = append(offs, off)
			}
		}
		if len(offs) > 0 {
			ix.deleteItems(b, offs, xlVacuum)
			v.removed += len(offs)
		}
		empty = emptyLeaf(p)
		if btCycle(p) == v.cycle && !isRightmost(p) && btNext(p) < scan {
			follow = btNext(p)
		}
	}
	dirtied := !wasDirty && b.IsDirty()
	b.Unlock()
	b.Release()
	if ix.horizon != nil && (empty || halfDead) {
		var deleted []uint32
		if empty {
			deleted, err = ix.deleteLeaf(blk)
		} else {
			deleted, err = ix.unlinkHalfDead(blk)
		}
		for _, d := range deleted {
			v.deleted = append(v.deleted, d)
			v.mine[d] = struct{}{}
		}
		if err != nil {
			return pNone, err
		}
	}
	if v.point != nil {
		if err := v.point(hit, dirtied); err != nil {
			return pNone, err
		}
	}
	return follow, nil
}

// VacuumCleanup is VACUUM's last look at an index it did not pass over
// with DeleteTIDs (btvacuumcleanup without a bulk delete): when more than
// a twentieth of the index is deleted pages that were not yet old enough
// to reuse at the last pass (PostgreSQL 14's _bt_vacuum_needs_cleanup
// threshold), or no pass has run since the index was opened (that count
// is kept in memory, where PostgreSQL keeps it in the metapage), it runs a
// DeleteTIDs pass that removes no entry, so that the deleted pages the
// horizon has passed are recorded in the free space map (and empty or
// half-dead leaves are deleted). Otherwise it reads nothing.
func (ix *Index) VacuumCleanup(point VacuumPoint) error {
	return ix.VacuumCleanupWith(point, nil)
}

// VacuumCleanupWith is VacuumCleanup reading through the access strategy
// s (nil: the default access).
func (ix *Index) VacuumCleanupWith(point VacuumPoint, s *buffer.Strategy) error {
	if ix.horizon == nil {
		return nil
	}
	n, err := ix.pool.NBlocks(ix.rel, buffer.MainFork)
	if err != nil {
		return err
	}
	ix.st.mu.Lock()
	need := !ix.st.scanned || ix.st.waiting*20 > int(n)
	ix.st.mu.Unlock()
	if !need {
		return nil
	}
	_, err = ix.DeleteTIDsWith(nil, point, s)
	return err
}

package heap

// VACUUM, after PostgreSQL 15's vacuumlazy.c (without freezing; the
// truncation of empty pages at the end is in truncate.go): prune every page
// the visibility map does not let it skip, collect the LP_DEAD items, let
// the caller drop index entries that point at them, then mark them unused,
// record each page's free space in the FSM and mark the pages it leaves
// visible to everyone all-visible (visibilitymap.go).

import (
	"minipg/storage/buffer"
	"minipg/storage/fsm"
	"minipg/storage/page"
)

// VacuumStats reports what Vacuum did.
type VacuumStats struct {
	PagesScanned       int   // pages examined
	PagesSkipped       int   // all-visible pages not read (the visibility map)
	PagesAllVisible    int   // pages this VACUUM marked all-visible
	TuplesRemoved      int   // dead row versions whose storage this VACUUM freed
	DeadItemsReclaimed int   // LP_DEAD line pointers made LP_UNUSED (reusable TIDs)
	LiveTuples         int   // row versions kept as live or in progress
	RecentlyDead       int   // dead row versions some snapshot may still see
	BytesFreed         int64 // growth of the pages' free space (tuples and truncated line pointers)
}

// maxDeadItems bounds the dead-TID list between index passes
// (PostgreSQL's maintenance_work_mem limit).
const maxDeadItems = 1 << 20

type pageDead struct {
	blk  uint32
	offs []uint16
}

// Vacuum removes row versions dead to every transaction: those whose
// inserter aborted and those deleted or updated by a transaction that
// committed before oldestXmin (which must not be later than the oldest
// xmin of any running transaction or live snapshot). oracle gives commit
// status.
//
// Removing a version frees its storage at once, but its TID becomes
// reusable only after dropIndexEntries has been called with it:
// dropIndexEntries(dead) must delete every index entry pointing at a TID in
// dead (it is called once per batch of up to 1<<20 TIDs, in block order;
// nil means the relation has no indexes). If it fails, Vacuum stops and the
// TIDs stay LP_DEAD (not reusable) until the next Vacuum.
//
// Vacuum runs concurrently with inserts, updates and scans; it locks one
// page at a time. Free space is recorded in the FSM for every page and the
// FSM's upper levels are brought up to date at the end.
func (r *Relation) Vacuum(oldestXmin uint32, oracle Oracle, dropIndexEntries func(dead []page.TID) error) (VacuumStats, error) {
	return r.VacuumWith(oldestXmin, oracle, dropIndexEntries, VacuumOptions{})
}

// VacuumWith is Vacuum with cost-based delay, progress reporting and an
// interrupt check (see VacuumOptions). An error from opts.Interrupt or
// opts.Cost.Sleep stops it between pages; what it did up to then is kept
// and crash-safe (every page change is WAL-logged).
func (r *Relation) VacuumWith(oldestXmin uint32, oracle Oracle, dropIndexEntries func(dead []page.TID) error, opts VacuumOptions) (stats VacuumStats, err error) {
	if oracle == nil {
		return stats, ErrNoOracle
	}
	nblocks, err := r.NBlocks()
	if err != nil {
		return stats, err
	}
	defer func() {
		if err != nil && nblocks > 0 {
			// Stopped early: the free space already recorded for the
			// pages done must reach the FSM's upper levels all the same.
			_ = r.fsm.Vacuum(0, nblocks)
		}
	}()
	if vr, ok := r.policy.(fsm.VacuumRecorder); ok {
		vr.BeginVacuum(r.fsm)
	}
	prog := opts.Progress
	if prog != nil {
		prog.HeapBlksTotal.Store(int64(nblocks))
		prog.MaxDeadTuples.Store(maxDeadItems)
		prog.SetPhase(PhaseScanHeap)
	}
	var pending []pageDead
	ndead := 0
	vm := vmReader{pool: r.pool, rel: r.rel}
	for blk := uint32(0); blk < nblocks; blk++ {
		if !opts.DisablePageSkipping {
			run, err := vm.skippable(blk, nblocks)
			if err != nil {
				return stats, err
			}
			if run > 0 {
				stats.PagesSkipped += int(run)
				blk += run - 1
				if prog != nil {
					prog.HeapBlksScanned.Store(int64(blk) + 1)
				}
				continue
			}
		}
		if err := opts.point(); err != nil {
			return stats, err
		}
		buf, hit, err := r.pool.ReadBufferStrategy(r.rel, buffer.MainFork, blk, opts.Strategy)
		if err != nil {
			return stats, err
		}
		buf.Lock()
		wasDirty := buf.IsDirty()
		p := buf.Page()
		stats.PagesScanned++
		if prog != nil {
			prog.HeapBlksScanned.Store(int64(blk) + 1)
		}
		if page.IsNew(p) {
			// Extended but never used: PostgreSQL records it as empty.
			buf.Unlock()
			buf.Release()
			opts.Cost.charge(hit, false)
			if err := r.recordVacuumed(blk, page.BlockSize-page.HeaderSize); err != nil {
				return stats, err
			}
			continue
		}
		before := page.ExactFreeSpace(p)
		pr := r.prunePage(buf, oldestXmin, oracle, nil, nil)
		stats.TuplesRemoved += pr.removed
		stats.LiveTuples += pr.live + pr.inProgress
		stats.RecentlyDead += pr.recentlyDead
		stats.BytesFreed += int64(page.ExactFreeSpace(p) - before)
		var offs []uint16
		maxoff := page.MaxOffset(p)
		for off := uint16(1); off <= maxoff; off++ {
			if _, flags, _ := page.ItemID(p, off); flags == page.LPDead {
				offs = append(offs, off)
			}
		}
		if len(offs) == 0 {
			if err := r.updateAllVisible(buf, oldestXmin, oracle, &vm, &stats); err != nil {
				buf.Unlock()
				buf.Release()
				return stats, err
			}
		}
		free := page.HeapFreeSpace(p)
		opts.Cost.charge(hit, !wasDirty && buf.IsDirty())
		buf.Unlock()
		buf.Release()
		if len(offs) == 0 {
			if err := r.recordVacuumed(blk, free); err != nil {
				return stats, err
			}
			continue
		}
		if dropIndexEntries == nil {
			// No indexes: the page's dead items are freed at once, right
			// after its prune, as PostgreSQL's one-pass VACUUM of a table
			// without indexes does (lazy_scan_heap).
			if err := r.vacuumHeapPage(pageDead{blk: blk, offs: offs}, oldestXmin, oracle, &stats, &opts); err != nil {
				return stats, err
			}
			continue
		}
		pending = append(pending, pageDead{blk: blk, offs: offs})
		ndead += len(offs)
		if prog != nil {
			prog.NumDeadTuples.Store(int64(ndead))
		}
		if ndead >= maxDeadItems {
			if err := r.vacuumDeadItems(pending, dropIndexEntries, oldestXmin, oracle, &stats, &opts); err != nil {
				return stats, err
			}
			pending, ndead = pending[:0], 0
			if prog != nil {
				prog.NumDeadTuples.Store(0)
				prog.SetPhase(PhaseScanHeap)
			}
		}
	}
	if len(pending) > 0 {
		if err := r.vacuumDeadItems(pending, dropIndexEntries, oldestXmin, oracle, &stats, &opts); err != nil {
			return stats, err
		}
	}
	prog.SetPhase(PhaseFinalCleanup)
	if nblocks > 0 {
		if err := r.fsm.Vacuum(0, nblocks); err != nil {
			return stats, err
		}
	}
	// VACUUM updates the relation's statistics, which in PostgreSQL
	// invalidates its relcache entry in every backend.
	r.InvalidateTargets()
	return stats, nil
}

// vacuumDeadItems is lazy_vacuum: the index pass (the caller's callback),
// then lazy_vacuum_heap_page on each page: LP_DEAD -> LP_UNUSED, truncate
// the line pointer array, record the free space.
func (r *Relation) vacuumDeadItems(pending []pageDead, dropIndexEntries func([]page.TID) error, oldestXmin uint32, oracle Oracle, stats *VacuumStats, opts *VacuumOptions) error {
	prog := opts.Progress
	if dropIndexEntries != nil {
		prog.SetPhase(PhaseVacuumIndexes)
		var tids []page.TID
		for _, pd := range pending {
			for _, off := range pd.offs {
				tids = append(tids, page.TID{Block: pd.blk, Offset: off})
			}
		}
		if err := dropIndexEntries(tids); err != nil {
			return err
		}
		if prog != nil {
			prog.IndexVacuumCount.Add(1)
		}
	}
	prog.SetPhase(PhaseVacuumHeap)
	for _, pd := range pending {
		if err := r.vacuumHeapPage(pd, oldestXmin, oracle, stats, opts); err != nil {
			return err
		}
	}
	return nil
}

// vacuumHeapPage is lazy_vacuum_heap_page on one page: its LP_DEAD items
// (whose index entries are gone) become LP_UNUSED, the line pointer array
// is truncated, the change is logged (XLOG_HEAP2_VACUUM), the page marked
// all-visible if it now is, and the free space recorded.
func (r *Relation) vacuumHeapPage(pd pageDead, oldestXmin uint32, oracle Oracle, stats *VacuumStats, opts *VacuumOptions) error {
	prog := opts.Progress
	// No interrupt here: the index entries of these items are gone, so
	// finishing the batch is what makes their TIDs reusable.
	if err := opts.Cost.delay(); err != nil {
		return err
	}
	buf, hit, err := r.pool.ReadBufferStrategy(r.rel, buffer.MainFork, pd.blk, opts.Strategy)
	if err != nil {
		return err
	}
	buf.Lock()
	wasDirty := buf.IsDirty()
	p := buf.Page()
	before := page.ExactFreeSpace(p)
	n := r.setDeadUnused(buf, pd.offs)
	if err := r.updateAllVisible(buf, oldestXmin, oracle, nil, stats); err != nil {
		buf.Unlock()
		buf.Release()
		return err
	}
	stats.DeadItemsReclaimed += n
	stats.BytesFreed += int64(page.ExactFreeSpace(p) - before)
	free := page.HeapFreeSpace(p)
	opts.Cost.charge(hit, !wasDirty && buf.IsDirty())
	buf.Unlock()
	buf.Release()
	if prog != nil {
		prog.HeapBlksVacuumed.Add(1)
	}
	if err := r.recordVacuumed(pd.blk, free); err != nil {
		return err
	}
	return nil
}

// setDeadUnused makes the LP_DEAD line pointers at offs of the exclusively
// locked page of buf LP_UNUSED (the caller has made sure no index entry
// points at them), truncates the line pointer array and logs the change
// (XLOG_HEAP2_VACUUM). It returns how many it freed.
func (r *Relation) setDeadUnused(buf *buffer.Buffer, offs []uint16) int {
	p := buf.Page()
	var freed prunePlan
	for _, off := range offs {
		// Still LP_DEAD: nothing makes a dead item live again, but be
		// exact about what we free.
		if off <= page.MaxOffset(p) {
			if _, flags, _ := page.ItemID(p, off); flags == page.LPDead {
				page.SetItemID(p, off, 0, page.LPUnused, 0)
				freed.nowUnused = append(freed.nowUnused, off)
			}
		}
	}
	if len(freed.nowUnused) > 0 {
		page.TruncateLinePointerArray(p)
		if hasUnused(p) {
			page.SetFlags(p, page.Flags(p)|page.PDHasFreeLines)
		}
		r.logChangeX(nil, walVacuum, buf, nil, &walExtra{plan: &freed})
	}
	return len(freed.nowUnused)
}

// updateAllVisible brings the exclusively locked page of buf and its
// visibility map bit in line with what VACUUM found (lazy_scan_prune's
// end): a page whose every tuple is visible to all (pageAllVisible) is
// marked all-visible unless it is already, in the map too (vm, when not
// nil, is the map as this VACUUM read it, which spares a marked page the
// map buffer); a page marked so that is not loses the mark (PostgreSQL
// warns of that; here it can only follow a crash between a page write and
// the map's).
func (r *Relation) updateAllVisible(buf *buffer.Buffer, oldestXmin uint32, oracle Oracle, vm *vmReader, stats *VacuumStats) error {
	p := buf.Page()
	ok, cutoff := pageAllVisible(p, buf.Block(), oldestXmin, oracle)
	marked := page.Flags(p)&page.PDAllVisible != 0
	switch {
	case ok:
		if marked && vm != nil {
			if inMap, err := vm.allVisible(buf.Block()); err != nil || inMap {
				return err
			}
		}
		set, err := r.setAllVisible(buf, cutoff)
		if err != nil {
			return err
		}
		if set {
			stats.PagesAllVisible++
		}
	case marked:
		r.clearAllVisible(buf)
		buf.MarkDirty()
	}
	return nil
}

// pageAllVisible is heap_page_is_all_visible: the page holds at least one
// tuple, no LP_DEAD item, and every tuple is live with an xmin that
// committed before oldestXmin, so every snapshot, present or future, sees
// all of them. cutoff is the newest such xmin.
func pageAllVisible(p page.Page, blk uint32, oldestXmin uint32, o Oracle) (ok bool, cutoff uint32) {
	n := 0
	maxoff := page.MaxOffset(p)
	for off := uint16(1); off <= maxoff; off++ {
		_, flags, _ := page.ItemID(p, off)
		switch flags {
		case page.LPUnused, page.LPRedirect:
			continue
		case page.LPDead:
			return false, InvalidXid
		}
		t, err := normalItem(p, blk, off)
		if err != nil || t == nil {
			return false, InvalidXid
		}
		if vs, _ := satisfiesVacuum(t, oldestXmin, o); vs != vacLive {
			return false, InvalidXid
		}
		x := Xmin(t)
		if !XidPrecedes(x, oldestXmin) {
			return false, InvalidXid
		}
		if cutoff == InvalidXid || XidPrecedes(cutoff, x) {
			cutoff = x
		}
		n++
	}
	return n > 0, cutoff
}

// hasUnused reports whether the page has an LP_UNUSED line pointer.
func hasUnused(p page.Page) bool {
	maxoff := page.MaxOffset(p)
	for off := uint16(1); off <= maxoff; off++ {
		if _, flags, _ := page.ItemID(p, off); flags == page.LPUnused {
			return true
		}
	}
	return false
}

// recordVacuumed records a vacuumed page's free space in the FSM, or lets
// the policy decide what to advertise (the locality policy keeps a closed
// page closed until it has emptied enough).
func (r *Relation) recordVacuumed(blk uint32, free int) error {
	if vr, ok := r.policy.(fsm.VacuumRecorder); ok {
		return vr.RecordVacuumed(r.fsm, blk, free, r.saveFree)
	}
	return r.fsm.RecordPageWithFreeSpace(blk, free)
}

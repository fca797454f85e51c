package heap

// Page pruning, after PostgreSQL 15's pruneheap.c: a version dead to
// everyone loses its storage. A heap-only tuple's line pointer becomes
// LP_UNUSED at once (no index entry points at it); a chain root's becomes
// LP_REDIRECT to the chain's first surviving member, or LP_DEAD when the
// whole chain is dead. An LP_DEAD line pointer stays (index entries point at
// it) until VACUUM has let the caller drop them and marks it unused.

import (
	"minipg/storage/buffer"
	"minipg/storage/page"
)

// pruneSpaceLow is heap_page_prune_opt's trigger: the page was found full
// by an update, or has less than max(fillfactor reserve, BLCKSZ/10) free.
func (r *Relation) pruneSpaceLow(p page.Page) bool {
	minfree := max(r.saveFree, page.BlockSize/10)
	return page.Flags(p)&page.PDPageFull != 0 || page.HeapFreeSpace(p) < minfree
}

// maybePrune is heap_page_prune_opt. The caller holds buf's share lock; if
// the page has a prunable xid older than the horizon and is short of space,
// maybePrune trades the share lock for the exclusive one, prunes, and
// returns with the share lock held again. Readers copy tuples out under the
// content lock and never keep pointers into a page, so the exclusive lock
// is as good as PostgreSQL's cleanup lock here.
//
// The changes it makes are counted in u (nil: not counted).
func (r *Relation) maybePrune(buf *buffer.Buffer, o Oracle, u *buffer.Usage) {
	p := buf.Page()
	px := page.PruneXid(p)
	if px == InvalidXid || page.IsNew(p) || !r.pruneSpaceLow(p) {
		return
	}
	h, ok := o.(Horizon)
	if !ok {
		return
	}
	horizon := h.OldestXmin()
	if !XidPrecedes(px, horizon) {
		return
	}
	buf.RUnlock()
	buf.Lock()
	if r.pruneSpaceLow(p) {
		r.pruneAt(buf, horizon, o, u, nil)
	}
	buf.Unlock()
	buf.RLock()
}

// pruneResult counts what prunePage saw.
type pruneResult struct {
	removed      int // tuples whose storage was freed now (heap_page_prune's ndeleted)
	newDead      int // line pointers made LP_DEAD now (nnewlpdead): VACUUM still has them to clear
	live         int
	recentlyDead int
	inProgress   int
}

// prunePlan is what heap_page_prune decided for one page, in the terms of
// PostgreSQL's xl_heap_prune record: line pointers to redirect (pairs of
// from, to offsets), to mark LP_DEAD, and to mark LP_UNUSED. applyPrune
// carries it out; it is the only code that changes a page for pruning.
type prunePlan struct {
	redirected []uint16 // from, to, from, to, ...
	nowDead    []uint16
	nowUnused  []uint16
}

func (pl *prunePlan) empty() bool {
	return len(pl.redirected) == 0 && len(pl.nowDead) == 0 && len(pl.nowUnused) == 0
}

// applyPrune is heap_page_prune_execute on the exclusively locked page p:
// set the planned redirects, dead and unused line pointers, then compact
// the page (PageRepairFragmentation). Recovery replays a prune by calling
// it with the logged plan.
func applyPrune(p page.Page, pl *prunePlan) {
	for i := 0; i+1 < len(pl.redirected); i += 2 {
		page.SetItemID(p, pl.redirected[i], int(pl.redirected[i+1]), page.LPRedirect, 0)
	}
	for _, off := range pl.nowDead {
		page.SetItemID(p, off, 0, page.LPDead, 0)
	}
	for _, off := range pl.nowUnused {
		page.SetItemID(p, off, 0, page.LPUnused, 0)
	}
	page.RepairFragmentation(p)
}

// pruneState is heap_page_prune's working state (PruneState).
type pruneState struct {
	p      page.Page
	blk    uint32
	htsv   [page.MaxHeapTuplesPerPage + 1]vacStatus
	normal [page.MaxHeapTuplesPerPage + 1]bool // LP_NORMAL with a sane tuple
	marked [page.MaxHeapTuplesPerPage + 1]bool // entered in the plan
	plan   prunePlan
	o      Oracle
	// latestRemovedXid is the newest xmax of the versions removed whose
	// xmin committed (xl_heap_prune's field, for standbys' conflicts).
	latestRemovedXid uint32
	newPrune         uint32 // new pd_prune_xid
	removed          int
	// keep, when not nil, receives a copy of each version whose root line
	// pointer the plan makes LP_DEAD (the pruner's reclaim behind).
	keep *[]DeadVersion
}

func (ps *pruneState) recordPrunable(xid uint32) {
	if ps.newPrune == InvalidXid || XidPrecedes(xid, ps.newPrune) {
		ps.newPrune = xid
	}
}

// advanceLatestRemoved is HeapTupleHeaderAdvanceLatestRemovedXid for a
// version being removed: its xmax counts unless its xmin aborted or the
// inserting transaction deleted it.
func (ps *pruneState) advanceLatestRemoved(t []byte) {
	xmin, xmax := Xmin(t), updateXid(t)
	im := Infomask(t)
	if im&HeapXminCommitted == 0 && (im&HeapXminInvalid != 0 || status(ps.o, xmin) != XidCommitted) {
		return
	}
	if xmax != xmin && XidPrecedes(ps.latestRemovedXid, xmax) {
		ps.latestRemovedXid = xmax
	}
}

func (ps *pruneState) recordRedirect(from, to uint16) {
	ps.plan.redirected = append(ps.plan.redirected, from, to)
	ps.marked[from], ps.marked[to] = true, true
}

func (ps *pruneState) recordDead(off uint16) {
	ps.plan.nowDead = append(ps.plan.nowDead, off)
	ps.marked[off] = true
}

// keepDead copies, for ps.keep, the version of the dead chain (root first)
// whose root is about to become LP_DEAD: the root's own tuple, or for a
// redirect the chain's first member, whose indexed columns are the root's
// (a HOT update changes none).
func (ps *pruneState) keepDead(root uint16, chain []uint16) {
	if ps.keep == nil {
		return
	}
	off := chain[0]
	if _, flags, _ := page.ItemID(ps.p, off); flags == page.LPRedirect {
		off = chain[1]
	}
	t := append([]byte(nil), page.Item(ps.p, off)...)
	*ps.keep = append(*ps.keep, DeadVersion{TID: page.TID{Block: ps.blk, Offset: root}, Tuple: t})
}

func (ps *pruneState) recordUnused(off uint16) {
	ps.plan.nowUnused = append(ps.plan.nowUnused, off)
	ps.marked[off] = true
}

// pruneChain is heap_prune_chain: prune the HOT chain whose root line
// pointer is at root. Members dead to everyone up to the last dead one are
// removed: heap-only members become LP_UNUSED; the root becomes LP_DEAD if
// the whole chain is dead, else an LP_REDIRECT to the first surviving
// member. A heap-only tuple is visited here only as a chain member, except
// a dead one that continues no chain (left by an aborted update), which is
// made unused at once. A redirect whose chain has gone becomes LP_DEAD.
func (ps *pruneState) pruneChain(root uint16) {
	p := ps.p
	maxoff := page.MaxOffset(p)
	_, rootFlags, _ := page.ItemID(p, root)
	if rootFlags == page.LPNormal {
		if !ps.normal[root] {
			return // damaged: left alone
		}
		t := page.Item(p, root)
		if Infomask2(t)&HeapOnlyTuple != 0 {
			if ps.htsv[root] == vacDead && Infomask2(t)&HeapHotUpdated == 0 {
				ps.recordUnused(root)
				ps.advanceLatestRemoved(t)
				ps.removed++
			}
			return
		}
	}
	var chain []uint16
	var latestDead uint16
	var priorXmax uint32
	for off := root; ; {
		if off < 1 || off > maxoff || ps.marked[off] {
			break
		}
		lpOff, flags, _ := page.ItemID(p, off)
		if flags == page.LPRedirect {
			if len(chain) > 0 {
				break // a redirect only starts a chain
			}
			chain = append(chain, off)
			off = uint16(lpOff)
			continue
		}
		if flags != page.LPNormal || !ps.normal[off] {
			break // unused, dead or damaged: the chain ends
		}
		t := page.Item(p, off)
		if priorXmax != InvalidXid && Xmin(t) != priorXmax {
			break
		}
		chain = append(chain, off)
		dead, recentlyDead := false, false
		switch ps.htsv[off] {
		case vacDead:
			dead = true
		case vacRecentlyDead:
			recentlyDead = true
			ps.recordPrunable(updateXid(t))
		case vacDeleteInProgress:
			ps.recordPrunable(updateXid(t))
		}
		if dead {
			latestDead = off
			ps.advanceLatestRemoved(t)
		} else if !recentlyDead {
			break
		}
		if Infomask2(t)&HeapHotUpdated == 0 {
			break
		}
		off = Ctid(t).Offset
		priorXmax = updateXid(t)
	}
	if latestDead != 0 {
		i := 1
		for ; i < len(chain) && chain[i-1] != latestDead; i++ {
			ps.recordUnused(chain[i])
			ps.removed++
		}
		if rootFlags == page.LPNormal {
			ps.removed++
		}
		if i >= len(chain) {
			ps.recordDead(root)
			ps.keepDead(root, chain)
		} else {
			ps.recordRedirect(root, chain[i])
		}
	} else if len(chain) < 2 && rootFlags == page.LPRedirect {
		ps.recordDead(root)
	}
}

// prunePage is heap_page_prune on the exclusively locked page of buf:
// every HOT chain is pruned as pruneChain says, the plan is applied and
// logged, pd_prune_xid is reset to the oldest xmax that may become
// prunable later, and PD_PAGE_FULL is cleared. Versions dead before
// oldestXmin are removed; their root line pointers stay (LP_DEAD or
// LP_REDIRECT) because index entries point at them.
//
// keep, when not nil, receives a copy of each version whose root the prune
// makes LP_DEAD (the pruner's reclaim behind).
func (r *Relation) prunePage(buf *buffer.Buffer, oldestXmin uint32, o Oracle, u *buffer.Usage, keep *[]DeadVersion) pruneResult {
	var res pruneResult
	ps := &pruneState{p: buf.Page(), blk: buf.Block(), o: o, keep: keep}
	p := ps.p
	maxoff := page.MaxOffset(p)
	hinted := false
	for off := uint16(1); off <= maxoff; off++ {
		t, err := normalItem(p, buf.Block(), off)
		if err != nil || t == nil {
			continue // corruption is Check's to report; leave the item alone
		}
		ps.normal[off] = true
		vs, hints := satisfiesVacuum(t, oldestXmin, o)
		if applyHints(t, hints) {
			hinted = true
		}
		ps.htsv[off] = vs
	}
	for off := uint16(1); off <= maxoff; off++ {
		if ps.marked[off] {
			continue
		}
		if _, flags, _ := page.ItemID(p, off); flags == page.LPUnused || flags == page.LPDead {
			continue
		}
		ps.pruneChain(off)
	}
	// What stays, for VACUUM's counts.
	for off := uint16(1); off <= maxoff; off++ {
		if !ps.normal[off] || ps.marked[off] && !isRedirectTarget(&ps.plan, off) {
			continue
		}
		switch ps.htsv[off] {
		case vacRecentlyDead:
			res.recentlyDead++
		case vacInsertInProgress, vacDeleteInProgress:
			res.inProgress++
		case vacLive:
			res.live++
		}
	}
	res.removed = ps.removed
	res.newDead = len(ps.plan.nowDead)
	pruned := !ps.plan.empty()
	if pruned {
		applyPrune(p, &ps.plan)
	}
	oldPrune, oldFlags := page.PruneXid(p), page.Flags(p)
	page.SetPruneXid(p, ps.newPrune)
	page.SetFlags(p, oldFlags&^page.PDPageFull)
	switch {
	case pruned:
		r.logChangeX(u, walPrune, buf, nil, &walExtra{plan: &ps.plan, latestRemovedXid: ps.latestRemovedXid})
	case hinted || oldPrune != ps.newPrune || oldFlags != page.Flags(p):
		buf.MarkDirtyUsage(u) // hint-only change, as MarkBufferDirtyHint
		r.stats.hintDirty.Add(1)
	}
	return res
}

// isRedirectTarget reports whether off is the target of a planned redirect
// (marked, but kept).
func isRedirectTarget(pl *prunePlan, off uint16) bool {
	for i := 1; i < len(pl.redirected); i += 2 {
		if pl.redirected[i] == off {
			return true
		}
	}
	return false
}

// setPrunable is PageSetPrunable: remember that xid's deletion or update
// may make space on the page reclaimable.
func setPrunable(p page.Page, xid uint32) {
	if px := page.PruneXid(p); px == InvalidXid || XidPrecedes(xid, px) {
		page.SetPruneXid(p, xid)
	}
}

// pruneLocked prunes the page in buf, which the caller holds exclusively
// locked with no pointer into it kept, if it has a prunable xid older than
// the horizon of o (which must implement Horizon); it reports whether
// anything was removed.
func (r *Relation) pruneLocked(buf *buffer.Buffer, o Oracle, u *buffer.Usage) bool {
	h, ok := o.(Horizon)
	if !ok {
		return false
	}
	return r.pruneAt(buf, h.OldestXmin(), o, u, nil)
}

// pruneAt is pruneLocked with the horizon given (one taken earlier is a
// safe one, since the horizon never goes backwards) and prunePage's keep.
func (r *Relation) pruneAt(buf *buffer.Buffer, horizon uint32, o Oracle, u *buffer.Usage, keep *[]DeadVersion) bool {
	p := buf.Page()
	px := page.PruneXid(p)
	if px == InvalidXid || page.IsNew(p) || !XidPrecedes(px, horizon) {
		return false
	}
	res := r.prunePage(buf, horizon, o, u, keep)
	if res.removed > 0 {
		r.stats.pagesPruned.Add(1)
		r.stats.tuplesPruned.Add(int64(res.removed))
		// Only the versions that left no LP_DEAD behind stop counting as
		// dead tuples: VACUUM still has the others to clear, and
		// autovacuum is to see them (heap_page_prune_opt reports
		// ndeleted - nnewlpdead).
		if r.onPrune != nil && res.removed > res.newDead {
			r.onPrune(res.removed - res.newDead)
		}
	}
	return res.removed > 0
}

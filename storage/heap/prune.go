package heap

// Page pruning, after PostgreSQL 15's pruneheap.c without HOT chains: a
// version dead to everyone loses its storage and its line pointer becomes
// LP_DEAD. The line pointer stays (an index entry may still point at it)
// until VACUUM has let the caller drop index entries and marks it unused.

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
func (r *Relation) maybePrune(buf *buffer.Buffer, o Oracle) {
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
	if px = page.PruneXid(p); px != InvalidXid && XidPrecedes(px, horizon) && r.pruneSpaceLow(p) {
		if res := r.prunePage(buf, horizon, o); res.removed > 0 {
			r.stats.pagesPruned.Add(1)
			r.stats.tuplesPruned.Add(int64(res.removed))
		}
	}
	buf.Unlock()
	buf.RLock()
}

// pruneResult counts what prunePage saw.
type pruneResult struct {
	removed      int // tuples made LP_DEAD now
	live         int
	recentlyDead int
	inProgress   int
}

// prunePage is heap_page_prune on the exclusively locked page of buf:
// versions dead before oldestXmin become LP_DEAD, the page is compacted
// (PageRepairFragmentation), pd_prune_xid is reset to the oldest xmax that
// may become prunable later, and PD_PAGE_FULL is cleared.
func (r *Relation) prunePage(buf *buffer.Buffer, oldestXmin uint32, o Oracle) pruneResult {
	var res pruneResult
	p := buf.Page()
	maxoff := page.MaxOffset(p)
	var newPrune uint32
	hinted := false
	for off := uint16(1); off <= maxoff; off++ {
		t, err := normalItem(p, buf.Block(), off)
		if err != nil || t == nil {
			continue // corruption is Check's to report; leave the item alone
		}
		vs, hints := satisfiesVacuum(t, oldestXmin, o)
		if applyHints(t, hints) {
			hinted = true
		}
		switch vs {
		case vacDead:
			page.SetItemID(p, off, 0, page.LPDead, 0)
			res.removed++
		case vacRecentlyDead, vacDeleteInProgress:
			if vs == vacRecentlyDead {
				res.recentlyDead++
			} else {
				res.inProgress++
			}
			if x := Xmax(t); newPrune == InvalidXid || XidPrecedes(x, newPrune) {
				newPrune = x
			}
		case vacInsertInProgress:
			res.inProgress++
		default:
			res.live++
		}
	}
	if res.removed > 0 {
		page.RepairFragmentation(p)
	}
	oldPrune, oldFlags := page.PruneXid(p), page.Flags(p)
	page.SetPruneXid(p, newPrune)
	page.SetFlags(p, oldFlags&^page.PDPageFull)
	switch {
	case res.removed > 0:
		r.logChange(walPrune, buf, nil)
	case hinted || oldPrune != newPrune || oldFlags != page.Flags(p):
		buf.MarkDirty() // hint-only change, as MarkBufferDirtyHint
		r.stats.hintDirty.Add(1)
	}
	return res
}

// setPrunable is PageSetPrunable: remember that xid's deletion or update
// may make space on the page reclaimable.
func setPrunable(p page.Page, xid uint32) {
	if px := page.PruneXid(p); px == InvalidXid || XidPrecedes(xid, px) {
		page.SetPruneXid(p, xid)
	}
}

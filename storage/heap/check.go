package heap

// Consistency checking (in the spirit of bbolt's tx_check.go and
// PostgreSQL's amcheck verify_heapam).

import (
	"fmt"

	"minipg/storage/buffer"
	"minipg/storage/fsm"
	"minipg/storage/page"
)

// Check verifies every page of r and its free space map. For each page:
// page.Verify; pd_lower, pd_upper and pd_special in order with no special
// space; every line pointer inside the page, tuples inside the tuple area,
// MAXALIGNed and not overlapping; tuple lengths at least a header, t_hoff
// sane, natts no more than the descriptor's, t_ctid inside the relation.
// Then fsm.Check with each page's actual free space: upper FSM levels cover
// their children, and no leaf promises more than the page has free. That
// holds right after Vacuum (which records every page and vacuums the FSM)
// and until the next insert or update; at other times use CheckPages.
//
// Check share-locks one page at a time, so it may run concurrently with
// writers, but a page's free space can change between the page pass and the
// FSM pass; run it on a quiescent relation for an exact FSM check.
func Check(r *Relation) error {
	free, err := checkPages(r)
	if err != nil {
		return err
	}
	nblocks := uint32(len(free))
	return fsm.Check(r.fsm, func(blk uint32) (int, error) {
		if blk >= nblocks {
			return 0, fmt.Errorf("heap: FSM asked for block %d of %d", blk, nblocks)
		}
		return free[blk], nil
	}, nblocks)
}

// CheckPages is Check without the free space map: the FSM is a hint, and
// outside VACUUM it is legitimately stale in both directions (leaves promise
// space that sessions have since used; upper levels lag behind increases
// recorded below them until the next FSM vacuum). Use CheckPages after
// inserts, updates or crash recovery; Check after VACUUM.
func CheckPages(r *Relation) error {
	_, err := checkPages(r)
	return err
}

// checkPages checks every page and returns each page's heap free space.
func checkPages(r *Relation) ([]int, error) {
	nblocks, err := r.NBlocks()
	if err != nil {
		return nil, err
	}
	free := make([]int, nblocks)
	for blk := uint32(0); blk < nblocks; blk++ {
		buf, err := r.pool.ReadBuffer(r.rel, buffer.MainFork, blk)
		if err != nil {
			return nil, err
		}
		buf.RLock()
		p := buf.Page()
		err = r.checkPage(p, blk, nblocks)
		if page.IsNew(p) {
			free[blk] = page.BlockSize - page.HeaderSize
		} else if err == nil {
			free[blk] = page.HeapFreeSpace(p)
		}
		buf.RUnlock()
		buf.Release()
		if err != nil {
			return nil, err
		}
	}
	return free, nil
}

// checkPage checks one locked page. nblocks bounds t_ctid block numbers
// (InvalidBlock: unknown, skip that test). Errors are DataCorrupted.
func (r *Relation) checkPage(p page.Page, blk, nblocks uint32) error {
	if len(p) != page.BlockSize {
		return errCorrupt(blk, "page is %d bytes", len(p))
	}
	if page.IsNew(p) {
		for _, b := range p {
			if b != 0 {
				return errCorrupt(blk, "pd_upper is 0 but the page is not all zeros")
			}
		}
		return nil
	}
	if err := page.Verify(p); err != nil {
		return errCorrupt(blk, "%v", err)
	}
	lower, upper, special := page.Lower(p), page.Upper(p), page.Special(p)
	if lower < page.HeaderSize || lower > upper || upper > special || special != page.BlockSize {
		return errCorrupt(blk, "bad page bounds: pd_lower %d, pd_upper %d, pd_special %d", lower, upper, special)
	}
	if (lower-page.HeaderSize)%page.ItemIDSize != 0 {
		return errCorrupt(blk, "pd_lower %d is not at a line pointer boundary", lower)
	}
	maxoff := page.MaxOffset(p)
	if int(maxoff) > page.MaxHeapTuplesPerPage {
		return errCorrupt(blk, "%d line pointers, more than MaxHeapTuplesPerPage", maxoff)
	}
	// owner[i] is the offset whose tuple covers MAXALIGN unit i of the
	// page (0 = none), to find overlapping tuples in one pass.
	var owner [page.BlockSize / page.MaxAlign]uint16
	for off := uint16(1); off <= maxoff; off++ {
		tid := page.TID{Block: blk, Offset: off}
		lpOff, flags, lpLen := page.ItemID(p, off)
		switch flags {
		case page.LPUnused:
			if lpLen != 0 {
				return errCorruptTID(tid, "unused line pointer has length %d", lpLen)
			}
			continue
		case page.LPRedirect:
			if lpLen != 0 || lpOff < 1 || lpOff > int(maxoff) {
				return errCorruptTID(tid, "bad redirect line pointer (off %d, len %d)", lpOff, lpLen)
			}
			continue
		case page.LPDead:
			if page.Flags(p)&page.PDAllVisible != 0 {
				return errCorruptTID(tid, "dead line pointer on a page marked all-visible")
			}
			if lpLen == 0 {
				continue
			}
		}
		if lpOff%page.MaxAlign != 0 {
			return errCorruptTID(tid, "tuple offset %d is not MAXALIGNed", lpOff)
		}
		if lpOff < upper || lpOff+lpLen > special {
			return errCorruptTID(tid, "tuple [%d,%d) outside the tuple area [%d,%d)", lpOff, lpOff+lpLen, upper, special)
		}
		if lpLen < TupleHeaderSize {
			return errCorruptTID(tid, "tuple length %d shorter than its header", lpLen)
		}
		for u := lpOff / page.MaxAlign; u < (lpOff+page.MaxAlignLen(lpLen))/page.MaxAlign; u++ {
			if owner[u] != 0 {
				return errCorrupt(blk, "tuples at offsets %d and %d overlap", owner[u], off)
			}
			owner[u] = off
		}
		if flags != page.LPNormal {
			continue
		}
		t := p[lpOff : lpOff+lpLen]
		hoff := Hoff(t)
		if hoff < TupleHeaderSize || hoff > lpLen || hoff%page.MaxAlign != 0 {
			return errCorruptTID(tid, "bad t_hoff %d for a tuple of %d bytes", hoff, lpLen)
		}
		if Infomask(t)&HeapHasNull != 0 {
			if minHoff := TupleHeaderSize + (Natts(t)+7)/8; hoff < minHoff {
				return errCorruptTID(tid, "t_hoff %d too small for a null bitmap of %d attributes", hoff, Natts(t))
			}
		}
		if r != nil && r.desc != nil && Natts(t) > len(r.desc) {
			return errCorruptTID(tid, "%d attributes, descriptor has %d", Natts(t), len(r.desc))
		}
		// t_ctid may name a line pointer that no longer exists, even on a
		// block past the end: the new version of an aborted update (one
		// cut short by a crash, say) is removed by VACUUM, and its page
		// truncated away, while the old version keeps pointing at it. Only
		// an update known to have committed must point inside.
		ctid := Ctid(t)
		_, speculative := SpeculativeToken(t)
		switch {
		case speculative:
			// An undecided speculative insertion: t_ctid holds the
			// inserter's token, and nothing can have set t_xmax yet.
			if Infomask(t)&HeapXmaxInvalid == 0 || Infomask2(t)&(HeapHotUpdated|HeapOnlyTuple) != 0 {
				return errCorruptTID(tid, "speculative insertion with an xmax or in a HOT chain")
			}
		case ctid.Offset == 0 || int(ctid.Offset) > page.MaxHeapTuplesPerPage ||
			(nblocks != page.InvalidBlock && ctid.Block >= nblocks && Infomask(t)&HeapXmaxCommitted != 0):
			return errCorruptTID(tid, "t_ctid %s outside the relation (%d blocks)", ctid, nblocks)
		}
		// A super-deleted speculative insertion (t_xmin 0) has its xmax
		// bits cleared, HEAP_XMAX_INVALID included (heap_abort_speculative).
		if Infomask(t)&HeapXmaxInvalid == 0 && Xmax(t) == InvalidXid && Xmin(t) != InvalidXid {
			return errCorruptTID(tid, "t_xmax is 0 without HEAP_XMAX_INVALID")
		}
		if xminInvalid(Infomask(t)) && Infomask(t)&HeapXmaxCommitted != 0 {
			return errCorruptTID(tid, "aborted inserter but committed deleter")
		}
		if Infomask2(t)&HeapOnlyTuple != 0 && Infomask(t)&HeapUpdated == 0 {
			return errCorruptTID(tid, "heap-only tuple that is not the result of an update")
		}
		if Infomask2(t)&HeapHotUpdated != 0 && ctid.Block != blk {
			return errCorruptTID(tid, "HOT-updated, but t_ctid %s is on another page", ctid)
		}
	}
	return checkHotChains(p, blk)
}

// checkHotChains checks the HOT chains of a page whose line pointers and
// tuples checkPage found sane: a redirect points at a heap-only tuple, and
// following each chain from its root (hotSearch) never comes back to a
// member or reaches a member of another root's chain.
func checkHotChains(p page.Page, blk uint32) error {
	maxoff := page.MaxOffset(p)
	var reachedFrom [page.MaxHeapTuplesPerPage + 1]uint16
	for off := uint16(1); off <= maxoff; off++ {
		lpOff, flags, _ := page.ItemID(p, off)
		switch flags {
		case page.LPRedirect:
			to := uint16(lpOff)
			if _, tf, _ := page.ItemID(p, to); tf != page.LPNormal || !IsHeapOnly(page.Item(p, to)) {
				return errCorruptTID(page.TID{Block: blk, Offset: off}, "redirect to %d, which is not a heap-only tuple", to)
			}
		case page.LPNormal:
			if IsHeapOnly(page.Item(p, off)) {
				continue // a member, reached from its root
			}
		default:
			continue
		}
		var bad error
		hotSearch(p, off, func(m uint16, _ []byte) bool {
			if reachedFrom[m] != 0 {
				if reachedFrom[m] == off {
					bad = errCorruptTID(page.TID{Block: blk, Offset: off}, "HOT chain loops at %d", m)
				} else {
					bad = errCorruptTID(page.TID{Block: blk, Offset: m}, "in the HOT chains of both %d and %d", reachedFrom[m], off)
				}
				return true
			}
			reachedFrom[m] = off
			return false
		})
		if bad != nil {
			return bad
		}
	}
	return nil
}

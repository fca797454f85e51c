package nbtree

// Page splits: choosing the split point (_bt_findsplitloc, simplified) and
// the page rewrites shared by the split itself and its redo, so that both
// produce the same bytes.

import (
	"bytes"

	"minipg/storage/page"
)

// splitPlan is a split decided by planSplit.
type splitPlan struct {
	firstRightOff uint16 // original offset of the first original item going right
	newItemOff    uint16
	onLeft        bool     // the new item goes to the left half
	leftHK        []byte   // the left half's new high key (pivot tuple)
	rightItems    [][]byte // the right half's items, high key first if any
}

// planSplit decides how p (full) splits when newitem is added at offset
// off. It returns ok=false when no split point gives two halves that fit
// (entries too large for the page capacity).
func (ix *Index) planSplit(p page.Page, newitem []byte, off uint16) (splitPlan, bool) {
	leaf := isLeaf(p)
	first := firstData(p)
	orig := pageItems(p, first)
	newIdx := int(off - first)
	items := make([][]byte, 0, len(orig)+1)
	items = append(items, orig[:newIdx]...)
	items = append(items, newitem)
	items = append(items, orig[newIdx:]...)
	n := len(items)
	if n < 2 {
		return splitPlan{}, false
	}
	// prefix[i] = space of items[:i].
	prefix := make([]int, n+1)
	for i, it := range items {
		prefix[i+1] = prefix[i] + itemSize(len(it))
	}
	oldHK := 0
	if !isRightmost(p) {
		oldHK = itemSize(len(page.Item(p, page.FirstOffset)))
	}
	sizes := func(k int) (left, right int) {
		// The left high key is at most a pivot header plus firstright.
		hk := pivotHeader + len(items[k])
		if !leaf {
			hk = len(items[k])
		}
		left = prefix[k] + itemSize(hk)
		right = prefix[n] - prefix[k] + oldHK
		if !leaf {
			// The right half's first item loses its separator.
			right += itemSize(pivotHeader) - itemSize(len(items[k]))
		}
		return left, right
	}
	ff := nonLeafFillFactor
	if leaf {
		ff = ix.fillFactor
	}
	ascending := isRightmost(p) && newIdx == n-1
	if leaf && !ascending && ix.afterNewItem(items, newIdx, isRightmost(p)) {
		// Localized ascending inserts: split right after the new entry,
		// so that the left page stays full rather than half full for good
		// (its group gets no more entries). When that point lies right of
		// where a fillfactor split would go, split by fillfactor instead.
		k := newIdx + 1
		if k*100 > n*ff || k == n {
			ascending = true
		} else if l, r := sizes(k); l <= ix.capacity && r <= ix.capacity {
			return ix.splitAt(p, items, k, off, leaf), true
		}
	}
	best, bestScore := -1, 0
	for k := 1; k < n; k++ {
		l, r := sizes(k)
		if l > ix.capacity || r > ix.capacity {
			continue
		}
		var score int
		if ascending {
			// Keep the left half fillfactor full: the rightmost page of
			// an index filled in key order gets the new entries.
			score = l - ix.capacity*ff/100
			if score < 0 {
				score = -score
			}
		} else {
			score = l - r
			if score < 0 {
				score = -score
			}
		}
		if best < 0 || score < bestScore {
			best, bestScore = k, score
		}
	}
	if best < 0 {
		return splitPlan{}, false
	}
	return ix.splitAt(p, items, best, off, leaf), true
}

// afterNewItem reports whether the new entry items[newIdx] of a leaf that
// is not the rightmost looks like one of a run of localized ascending
// inserts (_bt_afternewitemoff): every entry of the page has its size once
// aligned (the fixed-width keys such runs have), no more than a key of
// four 8-byte columns, it is not first, its key differs from the entry
// before it but has the same first column (LeadingColumnLen), and its heap
// TID follows that entry's (same block, or the next block's first item)
// unless it goes last, which suggests ascending inserts by itself.
func (ix *Index) afterNewItem(items [][]byte, newIdx int, rightmost bool) bool {
	if ix.leadingLen == nil || rightmost || newIdx == 0 {
		return false
	}
	prev, cur := items[newIdx-1], items[newIdx]
	size := len(cur)
	lead := ix.leadingLen(cur)
	if lead <= 0 || size > maxAfterNewEntry || size <= lead+tidLen || len(prev) <= lead+tidLen {
		return false
	}
	// Equal sizes as the page stores them (MAXALIGNed, as PostgreSQL
	// compares them): integer keys of a few more or fewer bytes still
	// count as one width.
	aligned := page.MaxAlignLen(size)
	for _, it := range items {
		if page.MaxAlignLen(len(it)) != aligned {
			return false
		}
	}
	if !bytes.Equal(prev[:lead], cur[:lead]) || bytes.Equal(prev[:len(prev)-tidLen], cur[:size-tidLen]) {
		return false
	}
	if newIdx == len(items)-1 {
		return true
	}
	pt, ct := entryTID(prev), entryTID(cur)
	return pt.Block == ct.Block || (pt.Block+1 == ct.Block && ct.Offset == page.FirstOffset)
}

// maxAfterNewEntry bounds the entries afterNewItem considers: a key of
// four 8-byte columns with their tag bytes (types.AppendKey's widest
// integer, float and timestamp keys) and the heap TID, as PostgreSQL
// bounds it by two int8 or four int4 columns.
const maxAfterNewEntry = 4*9 + tidLen

// splitAt is the split of a page whose items, the new one at off included,
// are items, with items[k:] going right.
func (ix *Index) splitAt(p page.Page, items [][]byte, k int, off uint16, leaf bool) splitPlan {
	first := firstData(p)
	n := len(items)
	newIdx := int(off - first)
	pl := splitPlan{newItemOff: off, onLeft: newIdx < k}
	if pl.onLeft {
		pl.firstRightOff = first + uint16(k) - 1
	} else {
		pl.firstRightOff = first + uint16(k)
	}
	if leaf {
		pl.leftHK = makePivot(page.InvalidBlock, separator(items[k-1], items[k]))
	} else {
		pl.leftHK = makePivot(page.InvalidBlock, bytes.Clone(pivotKey(items[k])))
	}
	if !isRightmost(p) {
		pl.rightItems = append(pl.rightItems, bytes.Clone(page.Item(p, page.FirstOffset)))
	}
	for i := k; i < n; i++ {
		it := items[i]
		if i == k && !leaf {
			it = makePivot(downlink(it), nil) // minus infinity
		}
		pl.rightItems = append(pl.rightItems, it)
	}
	return pl
}

// buildLeft rewrites p, the page that splits, as the left half: its new
// high key, the data items below firstRightOff, and the new item if it goes
// left; the right link points at rightBlk, INCOMPLETE_SPLIT is set (the
// right half has no downlink yet) and BTP_ROOT cleared.
func buildLeft(p page.Page, newitem []byte, newItemOff, firstRightOff uint16, onLeft bool, leftHK []byte, rightBlk uint32) {
	first := firstData(p)
	items := [][]byte{leftHK}
	for off := first; off < firstRightOff; off++ {
		if onLeft && off == newItemOff {
			items = append(items, newitem)
		}
		items = append(items, page.Item(p, off))
	}
	if onLeft && newItemOff == firstRightOff {
		items = append(items, newitem)
	}
	flags := btFlags(p)&^flagRoot | flagIncompleteSplit
	rebuildPage(p, items)
	setNext(p, rightBlk)
	setFlags(p, flags)
}

// buildPage formats p with items (high key first, if any) and the given
// special area.
func buildPage(p page.Page, items [][]byte, level uint32, flags uint16, prev, next uint32) bool {
	initPage(p, level, flags, prev, next)
	for _, it := range items {
		if page.AddItem(p, it, page.InvalidOffset, false, false) == page.InvalidOffset {
			return false
		}
	}
	return true
}

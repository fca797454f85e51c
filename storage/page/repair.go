package page

import "minipg/pgerr"

// RepairFragmentation is PageRepairFragmentation for heap pages, after
// pruning has marked line pointers dead, redirected or unused: it moves the
// tuples that still have storage to the end of the page, packed in line
// pointer order (item 1 nearest pd_special), so that the free space is one
// hole between pd_lower and pd_upper. Offset numbers do not change; unused
// line pointers at the end of the array are cut off (PostgreSQL 15), and
// PD_HAS_FREE_LINES is set iff unused line pointers remain.
//
// A damaged page is left untouched; RepairFragmentationChecked says why.
// The caller holds a cleanup lock (exclusive content lock, no other pins
// that may hold pointers into the page).
func RepairFragmentation(p Page) { _ = RepairFragmentationChecked(p) }

// RepairFragmentationChecked is RepairFragmentation returning a DataCorrupted
// error (and leaving the page untouched) if pointers or line pointers are
// damaged.
func RepairFragmentationChecked(p Page) error {
	if !pointersSane(p) || Special(p) != MaxAlignLen(Special(p)) {
		return corruptPointers(p)
	}
	lower, upper, special := Lower(p), Upper(p), Special(p)
	type item struct {
		off          uint16
		itemoff, len int // len is MAXALIGNed
	}
	nline := MaxOffset(p)
	var itemsBuf [MaxHeapTuplesPerPage]item
	items := itemsBuf[:0]
	nunused, totallen := 0, 0
	var finalUsed uint16
	presorted := true // item offsets descend in line pointer order
	for off := FirstOffset; off <= nline; off++ {
		lpOff, flags, lpLen := ItemID(p, off)
		if !itemIsUsed(flags) {
			nunused++
			continue
		}
		finalUsed = off
		if !itemHasStorage(lpLen) {
			continue
		}
		alen := MaxAlignLen(lpLen)
		if lpOff < upper || lpOff >= special || lpOff+alen > special {
			return pgerr.New(pgerr.DataCorrupted, "corrupted line pointer: %d", lpOff)
		}
		if n := len(items); n > 0 && lpOff >= items[n-1].itemoff {
			presorted = false
		}
		items = append(items, item{off, lpOff, alen})
		totallen += alen
	}
	if totallen > special-lower {
		return pgerr.New(pgerr.DataCorrupted,
			"corrupted item lengths: total %d, available space %d", totallen, special-lower)
	}

	// Validated: from here on the page is changed. Unused line pointers
	// must have no storage.
	for off := FirstOffset; off <= nline; off++ {
		if _, flags, _ := ItemID(p, off); !itemIsUsed(flags) {
			SetItemID(p, off, 0, LPUnused, 0)
		}
	}
	if len(items) == 0 {
		setUpper(p, special)
	} else {
		// Tuples packed downward from pd_special in line pointer order.
		// When their offsets already descend in that order each moves up
		// in place (or stays), the one nearest pd_special first: it
		// overwrites none still to move (PostgreSQL's presorted path).
		// Otherwise they are copied from a scratch copy of the page,
		// with the same result.
		src := p
		if !presorted {
			var scratch [BlockSize]byte
			copy(scratch[upper:special], p[upper:special])
			src = scratch[:]
		}
		dst := special
		for _, it := range items {
			dst -= it.len
			if dst != it.itemoff {
				copy(p[dst:dst+it.len], src[it.itemoff:it.itemoff+it.len])
				_, flags, lpLen := ItemID(p, it.off)
				SetItemID(p, it.off, dst, flags, lpLen)
			}
		}
		setUpper(p, dst)
	}
	if finalUsed != nline {
		nunusedEnd := int(nline - finalUsed)
		nunused -= nunusedEnd
		setLower(p, lower-nunusedEnd*ItemIDSize)
	}
	if nunused > 0 {
		SetFlags(p, Flags(p)|PDHasFreeLines)
	} else {
		SetFlags(p, Flags(p)&^PDHasFreeLines)
	}
	return nil
}

// TruncateLinePointerArray is PageTruncateLinePointerArray, called by
// VACUUM's second heap pass after it set LP_DEAD items LP_UNUSED: it removes
// the unused line pointers at the end of the array, but never the first one
// (an empty line pointer array would make the page look empty), and sets
// PD_HAS_FREE_LINES iff unused line pointers remain. The caller holds the
// buffer's exclusive content lock.
func TruncateLinePointerArray(p Page) {
	countDone, setHint := false, false
	nunusedEnd := 0
	for off := MaxOffset(p); off >= FirstOffset; off-- {
		_, flags, _ := ItemID(p, off)
		if !countDone && off > FirstOffset {
			if !itemIsUsed(flags) {
				nunusedEnd++
			} else {
				countDone = true
			}
		} else if !itemIsUsed(flags) {
			setHint = true
			break
		}
	}
	if nunusedEnd > 0 {
		setLower(p, Lower(p)-nunusedEnd*ItemIDSize)
	}
	if setHint {
		SetFlags(p, Flags(p)|PDHasFreeLines)
	} else {
		SetFlags(p, Flags(p)&^PDHasFreeLines)
	}
}

package page

// pointersSane reports whether pd_lower, pd_upper and pd_special are in the
// order every page operation relies on (the "corrupted page pointers" test
// of bufpage.c).
func pointersSane(p Page) bool {
	lower, upper, special := Lower(p), Upper(p), Special(p)
	return len(p) == BlockSize && lower >= HeaderSize && lower <= upper &&
		upper <= special && special <= BlockSize
}

// AddItem is PageAddItemExtended. It copies item onto the page and returns
// its offset number, or InvalidOffset (0) if the item was not added: no
// room, a bad off, or damaged page pointers (PostgreSQL PANICs there; the
// buffer pool's Verify has already refused such pages).
//
// off == InvalidOffset picks a slot: the first unused line pointer without
// storage if the PD_HAS_FREE_LINES hint is set (clearing the hint if it was
// wrong), else a new line pointer at the end. A valid off must be at most
// one past the last line pointer: with overwrite, that line pointer must be
// unused and is reused in place; without, the line pointers from off on are
// shifted up by one to make room. isHeap refuses offsets beyond
// MaxHeapTuplesPerPage. The item's storage is MAXALIGNed; lp_len is the
// exact length.
//
// The caller holds the buffer's exclusive content lock and marks it dirty.
func AddItem(p Page, item []byte, off uint16, overwrite, isHeap bool) uint16 {
	if !pointersSane(p) {
		return InvalidOffset
	}
	limit := MaxOffset(p) + 1
	needShuffle := false
	if off != InvalidOffset {
		if overwrite {
			if off < limit {
				_, flags, lpLen := ItemID(p, off)
				if itemIsUsed(flags) || itemHasStorage(lpLen) {
					return InvalidOffset // will not overwrite a used ItemId
				}
			}
		} else if off < limit {
			needShuffle = true
		}
	} else if Flags(p)&PDHasFreeLines != 0 {
		for off = FirstOffset; off < limit; off++ {
			_, flags, lpLen := ItemID(p, off)
			if !itemIsUsed(flags) && !itemHasStorage(lpLen) {
				break
			}
		}
		if off >= limit {
			SetFlags(p, Flags(p)&^PDHasFreeLines) // the hint was wrong
		}
	} else {
		off = limit
	}
	if off > limit {
		return InvalidOffset // specified item offset is too large
	}
	if isHeap && int(off) > MaxHeapTuplesPerPage {
		return InvalidOffset
	}

	lower := Lower(p)
	if off == limit || needShuffle {
		lower += ItemIDSize
	}
	upper := Upper(p) - MaxAlignLen(len(item))
	if lower > upper {
		return InvalidOffset
	}
	if needShuffle {
		from := itemPos(p, off)
		to := HeaderSize + int(limit-1)*ItemIDSize
		copy(p[from+ItemIDSize:to+ItemIDSize], p[from:to])
	}
	SetItemID(p, off, upper, LPNormal, len(item))
	n := copy(p[upper:], item)
	clear(p[upper+n : upper+MaxAlignLen(len(item))]) // alignment padding
	setLower(p, lower)
	setUpper(p, upper)
	return off
}

// FreeSpace is PageGetFreeSpace: pd_upper - pd_lower less one line pointer,
// or 0. Use HeapFreeSpace on heap pages.
func FreeSpace(p Page) int {
	space := Upper(p) - Lower(p)
	if space < ItemIDSize {
		return 0
	}
	return space - ItemIDSize
}

// ExactFreeSpace is PageGetExactFreeSpace: pd_upper - pd_lower, or 0. This is
// what the free space map records after VACUUM.
func ExactFreeSpace(p Page) int {
	space := Upper(p) - Lower(p)
	if space < 0 {
		return 0
	}
	return space
}

// HeapFreeSpace is PageGetHeapFreeSpace: FreeSpace, except that it is 0 when
// the page already has MaxHeapTuplesPerPage line pointers and none is unused
// (believing the PD_HAS_FREE_LINES hint when it says there is none, as
// AddItem does). An insert puts a tuple of MAXALIGNed length n on the page
// only if n <= HeapFreeSpace(p) (and, for INSERT, n + fill-factor reserve).
func HeapFreeSpace(p Page) int {
	space := FreeSpace(p)
	if space == 0 {
		return 0
	}
	nline := MaxOffset(p)
	if int(nline) < MaxHeapTuplesPerPage {
		return space
	}
	if Flags(p)&PDHasFreeLines == 0 {
		return 0
	}
	for off := FirstOffset; off <= nline; off++ {
		if _, flags, _ := ItemID(p, off); !itemIsUsed(flags) {
			return space
		}
	}
	return 0 // the hint is wrong; we cannot clear it without dirtying the page
}

// IndexTupleDelete is PageIndexTupleDelete: it removes line pointer off and
// its item from an index page in place, moving the items stored below it
// (between pd_upper and the item) up by the item's MAXALIGNed length and
// the later line pointers down by one, so the page stays compact and the
// other items keep their order; the bytes it frees are zeroed. It reports
// false, changing nothing, when off is not a line pointer with storage
// inside [pd_upper, pd_special) or the page's pointers are damaged.
//
// The caller holds the buffer's exclusive content lock and marks it dirty.
func IndexTupleDelete(p Page, off uint16) bool {
	n := MaxOffset(p)
	if !pointersSane(p) || off == 0 || off > n {
		return false
	}
	lpOff, _, lpLen := ItemID(p, off)
	size := MaxAlignLen(lpLen)
	upper := Upper(p)
	if lpLen == 0 || lpOff < upper || lpOff+size > Special(p) {
		return false
	}
	// Shift the data below the item up over it.
	copy(p[upper+size:lpOff+size], p[upper:lpOff])
	// Close the line pointer array over off.
	pos := itemPos(p, off)
	lower := Lower(p)
	copy(p[pos:lower-ItemIDSize], p[pos+ItemIDSize:lower])
	// The bytes that join the hole are zeroed, as a page rebuilt or
	// restored from a full-page image has them.
	clear(p[lower-ItemIDSize : lower])
	clear(p[upper : upper+size])
	setLower(p, lower-ItemIDSize)
	setUpper(p, upper+size)
	for i := uint16(1); i < n; i++ {
		o, flags, l := ItemID(p, i)
		if itemHasStorage(l) && o <= lpOff {
			SetItemID(p, i, o+size, flags, l)
		}
	}
	return true
}

package fsm

// Range reads of the bottom level, for the locality policy's "nearby first"
// search. A search from the root (fsm_search) finds *some* page with room,
// starting wherever the next-slot hints point; the locality policy wants
// the page with room that is *nearest* to a given block. The bottom-level
// leaves are one byte per heap block in block order, so the blocks within a
// window around a block are a short run of leaves on one FSM page (two when
// the window crosses a page boundary): reading that run under a share lock
// answers the question without touching the upper levels, which may be
// stale anyway.

// maxNearbyWindow bounds the window of searchNear (and fsm_nearby_window).
const maxNearbyWindow = SlotsPerPage / 2

// leafRange copies the recorded categories of heap blocks first ..
// first+len(dst)-1 into dst (0 for blocks the map knows nothing of). It
// takes one share lock per bottom FSM page. Errors are swallowed as by the
// searches: an unreadable page reads as "no space".
func (m *Map) leafRange(first uint32, dst []uint8) {
	for i := 0; i < len(dst); {
		blk := first + uint32(i)
		a, slot := location(blk)
		n := min(len(dst)-i, SlotsPerPage-slot)
		buf, err := m.readBuf(a, false)
		if err != nil {
			m.noteErr(err)
		}
		if buf == nil {
			clear(dst[i : i+n])
			i += n
			continue
		}
		buf.RLock()
		leaves := nodes(buf.Page())[NonLeafNodesPerPage+slot:]
		if maxAvail(buf.Page()) == 0 {
			clear(dst[i : i+n])
		} else {
			copy(dst[i:i+n], leaves[:n])
		}
		buf.RUnlock()
		buf.Release()
		i += n
	}
}

// searchNear returns the block nearest to ref, at most window blocks away
// and never ref itself, whose recorded category is at least minCat; of two
// blocks at the same distance the one with more recorded space wins, then
// the lower one. InvalidBlock if there is none. Like every FSM answer the
// block is a hint: lock it and check.
//
// Breaking ties by space (not by direction) is what makes concurrent
// updates of related rows, whose old versions sit on the same or adjacent
// blocks, agree on the same new block.
func (m *Map) searchNear(ref uint32, window int, minCat uint8) uint32 {
	if ref == InvalidBlock || window <= 0 || minCat == 0 {
		return InvalidBlock
	}
	window = min(window, maxNearbyWindow)
	lo := uint32(0)
	if ref > uint32(window) {
		lo = ref - uint32(window)
	}
	hi := uint64(ref) + uint64(window)
	if hi >= uint64(InvalidBlock) {
		hi = uint64(InvalidBlock) - 1
	}
	var cats [2*maxNearbyWindow + 1]uint8
	span := cats[:int(hi-uint64(lo))+1]
	m.leafRange(lo, span)
	best, bestCat := InvalidBlock, uint8(0)
	for d := 1; d <= window; d++ {
		for _, blk := range [2]int64{int64(ref) - int64(d), int64(ref) + int64(d)} {
			if blk < int64(lo) || blk > int64(hi) {
				continue
			}
			c := span[blk-int64(lo)]
			if c >= minCat && (best == InvalidBlock || c > bestCat) {
				best, bestCat = uint32(blk), c
			}
		}
		if best != InvalidBlock {
			return best
		}
	}
	return InvalidBlock
}

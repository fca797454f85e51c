package heap

// Tuple statistics of a heap, as contrib/pgstattuple's pgstat_heap counts
// them: every LP_NORMAL item is a tuple (heap_getnext under SnapshotAny),
// live if HeapTupleSatisfiesDirty says so and dead otherwise, its length
// lp_len; the free space is PageGetHeapFreeSpace summed over every page.

import (
	"minipg/storage/buffer"
	"minipg/storage/page"
)

// TupleStats is what pgstattuple reports of a heap.
type TupleStats struct {
	Blocks           uint32
	Live, Dead       int64 // tuple counts
	LiveLen, DeadLen int64 // their bytes
	Free             int64 // bytes an insert could still use
}

// TupleStats counts r's tuples and free space page by page, each page
// under a share lock. own are the xids of the asking transaction (its
// inserts are live, its deletions dead, as for SatisfiesDirty); o decides
// the others'. Pages read are counted in u (nil: not counted).
func (r *Relation) TupleStats(own *OwnXids, o Oracle, u *buffer.Usage) (TupleStats, error) {
	var s TupleStats
	n, err := r.NBlocks()
	if err != nil {
		return s, err
	}
	for blk := uint32(0); blk < n; blk++ {
		buf, err := r.readBlockIfExists(blk, u)
		if err != nil {
			return s, err
		}
		if buf == nil {
			break // truncated meanwhile
		}
		s.Blocks++
		buf.RLock()
		p := buf.Page()
		for off := page.FirstOffset; off <= page.MaxOffset(p); off++ {
			t, err := normalItem(p, blk, off)
			if err != nil {
				buf.RUnlock()
				buf.Release()
				return s, err
			}
			if t == nil {
				continue
			}
			if live, _ := SatisfiesDirty(t, own, o); live {
				s.Live++
				s.LiveLen += int64(len(t))
			} else {
				s.Dead++
				s.DeadLen += int64(len(t))
			}
		}
		s.Free += int64(page.HeapFreeSpace(p))
		buf.RUnlock()
		buf.Release()
	}
	return s, nil
}

package heap

import (
	"minipg/storage/buffer"
	"minipg/storage/page"
)

// AnalyzeStats is what ANALYZE learns about a heap: the figures
// PostgreSQL keeps in pg_class (relpages, reltuples) and reports to the
// statistics collector (live and dead tuples).
type AnalyzeStats struct {
	Pages      uint32 // blocks in the main fork
	LiveTuples int64  // row versions counted live, as acquire_sample_rows counts them
	DeadTuples int64  // dead and recently dead row versions
}

// Analyze counts the live and dead row versions of every page against
// the horizon oldestXmin, as PostgreSQL's acquire_sample_rows classifies
// them: a committed row not deleted, or whose deleter is still running,
// is live; a row whose inserter is still running is neither; a deleted or
// aborted one is dead. It reads every page (PostgreSQL samples 30,000 rows
// and extrapolates; minipg's tables are small enough to count), taking
// each page's share lock in turn, and changes nothing, hint bits included.
// opts.Cost and opts.Interrupt apply as in VacuumWith; opts.Progress is
// not used.
func (r *Relation) Analyze(oldestXmin uint32, oracle Oracle, opts VacuumOptions) (AnalyzeStats, error) {
	var st AnalyzeStats
	if oracle == nil {
		return st, ErrNoOracle
	}
	nblocks, err := r.NBlocks()
	if err != nil {
		return st, err
	}
	st.Pages = nblocks
	for blk := uint32(0); blk < nblocks; blk++ {
		if err := opts.point(); err != nil {
			return st, err
		}
		buf, hit, err := r.pool.ReadBufferHit(r.rel, buffer.MainFork, blk)
		if err != nil {
			return st, err
		}
		buf.RLock()
		p := buf.Page()
		if !page.IsNew(p) {
			maxoff := page.MaxOffset(p)
			for off := uint16(1); off <= maxoff; off++ {
				o, flags, n := page.ItemID(p, off)
				if flags != page.LPNormal {
					if flags == page.LPDead {
						st.DeadTuples++
					}
					continue
				}
				vs, _ := satisfiesVacuum(p[o:o+n], oldestXmin, oracle)
				switch vs {
				case vacLive, vacDeleteInProgress:
					st.LiveTuples++
				case vacDead, vacRecentlyDead:
					st.DeadTuples++
				}
			}
		}
		buf.RUnlock()
		buf.Release()
		opts.Cost.charge(hit, false)
	}
	return st, nil
}

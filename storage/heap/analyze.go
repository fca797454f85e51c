package heap

import (
	"math"
	"math/rand/v2"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// AnalyzeSampleBlocks is how many blocks ANALYZE reads at most:
// PostgreSQL 15 samples 300 x default_statistics_target (100) rows and
// reads as many blocks to find them (acquire_sample_rows). A variable for
// tests.
var AnalyzeSampleBlocks uint32 = 30000

// AnalyzeStats is what ANALYZE learns about a heap: the figures
// PostgreSQL keeps in pg_class (relpages, reltuples) and reports to the
// statistics collector (live and dead tuples).
type AnalyzeStats struct {
	Pages        uint32 // blocks in the main fork
	PagesSampled uint32 // blocks read: all of them, or AnalyzeSampleBlocks chosen at random
	LiveTuples   int64  // row versions counted live, as acquire_sample_rows counts them, extrapolated
	DeadTuples   int64  // dead and recently dead row versions, extrapolated
}

// Analyze counts the live and dead row versions against the horizon
// oldestXmin, as PostgreSQL's acquire_sample_rows classifies them: a
// committed row not deleted, or whose deleter is still running, is live; a
// row whose inserter is still running is neither; a deleted or aborted one
// is dead. Like PostgreSQL 15 it reads at most AnalyzeSampleBlocks blocks,
// chosen at random with every block equally likely (Knuth's Algorithm S,
// as BlockSampler), in block order, and extrapolates: the counts are those
// of the blocks read times pages / blocks read, rounded. A table of no more
// blocks is read whole and counted exactly. It takes each page's share
// lock in turn and changes nothing, hint bits included. opts.Cost,
// opts.Interrupt and opts.Strategy apply as in VacuumWith; opts.Progress
// is not used.
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
	var live, dead int64
	sample := newBlockSampler(nblocks, AnalyzeSampleBlocks, rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())))
	for blk, ok := sample.next(); ok; blk, ok = sample.next() {
		if err := opts.point(); err != nil {
			return st, err
		}
		buf, hit, err := r.pool.ReadBufferStrategy(r.rel, buffer.MainFork, blk, opts.Strategy)
		if err != nil {
			return st, err
		}
		st.PagesSampled++
		buf.RLock()
		p := buf.Page()
		if !page.IsNew(p) {
			maxoff := page.MaxOffset(p)
			for off := uint16(1); off <= maxoff; off++ {
				o, flags, n := page.ItemID(p, off)
				if flags != page.LPNormal {
					if flags == page.LPDead {
						dead++
					}
					continue
				}
				vs, _ := satisfiesVacuum(p[o:o+n], oldestXmin, oracle)
				switch vs {
				case vacLive, vacDeleteInProgress:
					live++
				case vacDead, vacRecentlyDead:
					dead++
				}
			}
		}
		buf.RUnlock()
		buf.Release()
		opts.Cost.charge(hit, false)
	}
	st.LiveTuples, st.DeadTuples = live, dead
	if st.PagesSampled > 0 && st.PagesSampled < nblocks {
		// totalrows = floor((liverows / bs.m) * totalblocks + 0.5)
		scale := float64(nblocks) / float64(st.PagesSampled)
		st.LiveTuples = int64(math.Floor(float64(live)*scale + 0.5))
		st.DeadTuples = int64(math.Floor(float64(dead)*scale + 0.5))
	}
	return st, nil
}

// blockSampler picks n of the blocks [0, nblocks) at random, each set of n
// equally likely, and hands them out in ascending order (Knuth's Algorithm
// S, PostgreSQL's BlockSampler): block t is taken with probability
// (n - taken) / (nblocks - t). With n >= nblocks it takes every block.
type blockSampler struct {
	nblocks, n, t, taken uint32
	rng                  *rand.Rand
}

func newBlockSampler(nblocks, n uint32, rng *rand.Rand) *blockSampler {
	return &blockSampler{nblocks: nblocks, n: min(n, nblocks), rng: rng}
}

// next returns the next block chosen, false when the sample is complete.
func (b *blockSampler) next() (uint32, bool) {
	for b.taken < b.n {
		blk := b.t
		left, need := b.nblocks-b.t, b.n-b.taken
		b.t++
		if need >= left || b.rng.Uint32N(left) < need {
			b.taken++
			return blk, true
		}
	}
	return 0, false
}

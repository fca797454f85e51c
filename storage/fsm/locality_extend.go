package fsm

// Batched extension: with sessions waiting for the extension lock, the
// extender adds min(512, 20 x waiters) pages, through the shared routine
// (extendRelation), keeps the first (and a loading session's run) and
// publishes the rest before releasing the lock. A loader's extension
// gives the first new block to the loader filling the last block, whose
// next page it is (lendsNext).

const (
	// maxLocalityExtendBy and extendPerWaiter are docs/DESIGN.md's batched
	// extension: min(512, 20 x waiters).
	maxLocalityExtendBy = 512
	extendPerWaiter     = 20
)

func (p *locality) Extend(m *Map, r Request) (uint32, error) {
	p.mu.Lock()
	_, loading := p.mu.wantRun[r.Target]
	delete(p.mu.wantRun, r.Target)
	p.mu.Unlock()
	loading = loading || r.Bulk || manyRows(r)

	keep, bulk := 1, false
	lend := uint32(0)
	return extendRelation(m, r, &p.c, extension{
		recheck: func(uint32) uint32 {
			// Another session has probably just extended and published
			// pages.
			if n, small := p.smallTable(m); small && n > 0 {
				// No map to publish them in: try the last block.
				return n - 1
			} else if loading {
				return p.takeFresh(m, r.Target, r)
			}
			return p.far(m, r)
		},
		size: func(waiters int, nblocks uint32) int {
			if loading {
				p.mu.Lock()
				keep, bulk = p.runLenLocked(m, r)
				p.mu.Unlock()
			}
			by := max(localityExtendBy(r, waiters, int(nblocks)), keep)
			if loading && bulk && r.PagesLeft == 0 {
				// Loading in bulk a batch of unknown size, the waiters
				// probably too: a run of the same size for each.
				by = max(by, keep*(1+waiters))
			}
			if (loading || r.LoadingTxn) && p.lendsNext(nblocks, r) {
				lend = 1
			}
			return by + int(lend)
		},
		placed: func(lent uint32, by int) uint32 {
			p.extendedTo.Store(lent + uint32(by))
			first := lent + lend
			by -= int(lend)
			// The caller's page and its run are never in the FSM; the rest
			// is published, upper levels included, before the lock is
			// released so that the waiters find it.
			p.mu.Lock()
			p.forgetPagesLocked(lent, first+uint32(by))
			if lend > 0 && !p.lendLocked(lent) {
				publishEmpty(m, lent, first)
			}
			p.ownLocked(m, first, first+1, first+uint32(keep), loading, bulk, r.Owner)
			p.mu.Unlock()
			if by > keep && first+uint32(by) <= uint32(p.small.Load()) {
				// Still a small table: no map; the next placements try every
				// block. But nobody else should take the caller's run, so it
				// has none.
				p.mu.Lock()
				if rn := p.mu.owned[first]; rn != nil && rn.next < rn.end {
					p.unreserveLocked(rn, int64(rn.end-rn.next))
					rn.end = rn.next
				}
				p.mu.Unlock()
			} else if by > keep {
				publishEmpty(m, first+uint32(keep), first+uint32(by))
			}
			p.l.freshPages.Add(1)
			return first
		},
	})
}

// lendsNext reports whether an extension of the relation, nblocks long,
// for r (a loading session's, or a loader's transaction's) gives its
// first new block to the loading session filling the last block
// (lendLocked), not to r's session: that session's run has ended there,
// its next page is the adjacent extension, and it may have started a
// group of rows on its page because of it (Fit, nextElsewhere). A lone
// loader's runs are one page each; when a second loader starts to extend
// the relation, the first would otherwise find the block after its page
// taken and continue the group past the other's pages. Other inserts
// take the first new block as before, and so does every extension while
// the session filling the last block has given its run back (its load or
// transaction ended) and not moved since.
func (p *locality) lendsNext(nblocks uint32, r Request) bool {
	if nblocks == 0 || r.Target == nblocks-1 || nblocks <= uint32(p.small.Load()) {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	rn, owned := p.mu.owned[nblocks-1]
	return owned && rn.loading && !rn.released && rn.next >= rn.end && rn.end == nblocks && p.activeLocked(rn)
}

// lendLocked reserves blk, just extended, as the next page of the run
// ending at the block before it, if that still holds (lendsNext). The
// caller holds mu.
func (p *locality) lendLocked(blk uint32) bool {
	rn, owned := p.mu.owned[blk-1]
	if !owned || rn.next < rn.end || rn.end != blk {
		return false
	}
	rn.next, rn.end = blk, blk+1
	p.mu.reserved++
	if rn.bulk {
		p.mu.bulkReserved++
	}
	return true
}

// localityExtendBy is docs/DESIGN.md's batched extension: with waiters,
// min(512, 20 x waiters) pages; PostgreSQL 16's figure, NumPages x (1 +
// waiters) at most 64, when that is more. The pages beyond PostgreSQL's
// figure are at most a sixteenth of the relation, so that a small table is
// not given hundreds of pages it will never use.
func localityExtendBy(r Request, waiters, nblocks int) int {
	n := r.numPages()
	base := min(n+n*waiters, maxExtendBy)
	by := base
	if waiters > 0 {
		by = max(by, min(maxLocalityExtendBy, extendPerWaiter*waiters))
		by = min(by, max(base, nblocks/16))
	}
	return max(1, by)
}

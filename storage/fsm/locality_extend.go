package fsm

// Batched extension: with sessions waiting for the extension lock, the
// extender adds min(512, 20 x waiters) pages, through the shared routine
// (extendRelation), keeps the first (and a loading session's run) and
// publishes the rest before releasing the lock. An extension gives the
// first new block to the loading session filling the last block when it
// claimed it (run.claim), and an extension by a loader gives a run of
// maxRunPages first to a lone loader of a batch of unknown size filling
// the last block (run.unsized).

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
	if blk, _ := p.lentLocked(r.Target, r.Owner); blk != InvalidBlock {
		p.mu.Unlock()
		return blk, nil
	}
	p.mu.Unlock()
	loading = loading || r.Bulk || manyRows(r) || r.LoadingTxn

	keep, bulk := 1, false
	lend := uint32(0)
	return extendRelation(m, r, &p.c, extension{
		recheck: func(uint32) uint32 {
			// Another session has probably just extended and published
			// pages, or lent this one its next page.
			p.mu.Lock()
			blk, claimed := p.lentLocked(r.Target, r.Owner)
			p.mu.Unlock()
			if blk != InvalidBlock || claimed {
				// A session that claimed the next block gets it, lent
				// or extended, and no other.
				return blk
			}
			if n, small := p.smallTable(m); small && n > 0 {
				// No map to publish them in: try the last block.
				return n - 1
			} else if loading {
				return p.takeFresh(m, r.Target, r)
			}
			return p.far(m, r)
		},
		size: func(waiters int, nblocks uint32) int {
			p.mu.Lock()
			if loading {
				keep, bulk = p.runLenLocked(m, r)
			}
			lend = p.lendLocked(nblocks, r, loading)
			p.mu.extending = nblocks + 1
			p.mu.Unlock()
			by := max(localityExtendBy(r, waiters, int(nblocks)), keep)
			if loading && bulk && r.PagesLeft == 0 {
				// Loading in bulk a batch of unknown size, the waiters
				// probably too: a run of the same size for each.
				by = max(by, keep*(1+waiters))
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
			p.mu.extending = 0
			p.forgetPagesLocked(lent, first+uint32(by))
			if lend > 0 {
				if p.lendLocked(lent, r, loading) == lend {
					p.growRunLocked(p.mu.owned[lent-1], lent, lend)
				} else {
					publishEmpty(m, lent, first)
				}
			}
			if blk, _ := p.lentLocked(r.Target, r.Owner); blk != InvalidBlock {
				// The session was lent the block it claimed after it
				// looked (it did not wait for the lock): it takes that
				// one, and the pages just added are published.
				p.mu.Unlock()
				publishEmpty(m, first, first+uint32(by))
				return blk
			}
			if rn, owned := p.mu.owned[r.Target]; owned && rn.claim && rn.owner == r.Owner && rn.next >= rn.end {
				// The session that claimed the next block extends itself:
				// it gets that block (first), and its old entry goes.
				delete(p.mu.owned, r.Target)
			}
			p.ownLocked(m, first, first+1, first+uint32(keep), loading, bulk, r.Owner).unsized = unsized(r, bulk)
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

// lendLocked is how many of the blocks an extension by r (loading: a
// loading session's) adds from blk, the relation's size, go first to
// another session filling blk-1 at the end of its run, as its run's next
// pages: the block it claimed (run.claim), or, for an extension by a
// loader, a run of maxRunPages to an active loader of a batch of unknown
// size (run.unsized), on one-page runs as a lone loader so far, so that
// its batch goes on on the next block and the extender's run after it.
// The caller holds mu.
func (p *locality) lendLocked(blk uint32, r Request, loading bool) uint32 {
	rn, owned := p.mu.owned[blk-1]
	switch {
	case blk == 0 || !owned || rn.owner == r.Owner || rn.next < rn.end:
		return 0
	case rn.claim:
		return 1
	case loading && rn.unsized && p.activeLocked(rn):
		return maxRunPages
	}
	return 0
}

// growRunLocked makes the n blocks from blk, the block after rn's last,
// the run's next pages and ends the claim on them. The caller holds mu.
func (p *locality) growRunLocked(rn *run, blk, n uint32) {
	rn.next, rn.end, rn.claim = blk, blk+n, false
	p.mu.reserved += int64(n)
	if rn.bulk {
		p.mu.bulkReserved += int64(n)
	}
}

// lentLocked is the page of the session with backend pid owner, which
// left tried, its page, when the session's run has a page after it (lent
// to it since it left: an extension by another session added the block
// it had claimed), else InvalidBlock; the session moves on to it.
// claimed reports that the session claimed the next block and has not
// got it yet. The caller holds mu.
func (p *locality) lentLocked(tried uint32, owner int32) (blk uint32, claimed bool) {
	rn, owned := p.mu.owned[tried]
	if tried == InvalidBlock || !owned || rn.owner != owner {
		return InvalidBlock, false
	}
	if rn.next >= rn.end {
		return InvalidBlock, rn.claim
	}
	p.l.freshPages.Add(1)
	return p.moveLocked(rn, tried), false
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

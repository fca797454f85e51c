package fsm

// Batched extension: with sessions waiting for the extension lock, the
// extender adds min(512, 20 x waiters) pages, through the shared routine
// (extendRelation), keeps the first (and a loading session's run) and
// publishes the rest before releasing the lock.

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
			return by
		},
		placed: func(first uint32, by int) {
			p.extendedTo.Store(first + uint32(by))
			// The caller's page and its run are never in the FSM; the rest
			// is published, upper levels included, before the lock is
			// released so that the waiters find it.
			p.mu.Lock()
			p.forgetPagesLocked(first, first+uint32(by))
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
		},
	})
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

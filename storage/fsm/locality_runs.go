package fsm

import "minipg/storage/buffer"

// Loading sessions' runs: a session that fills pages it was given fresh
// gets whole fresh pages only and, when other loaders are active, a run of
// consecutive fresh pages reserved for it, so that concurrent loaders do
// not interleave their pages. The reservations are in memory, under
// locality.mu.

const (
	// minRunPages is a loading session's first run when other loaders are
	// active; each next run of the same session is twice the last, up to
	// maxRunPages (and a sixteenth of the relation shared among the active
	// loaders), so that a session loading many pages crosses few run
	// boundaries, where its rows cannot stay on adjacent blocks.
	minRunPages = 16
	// maxRunPages is the longest run of fresh pages reserved for one
	// loading session.
	maxRunPages = 256
	// activeRunMoves: a run that has not moved in this many moves of all
	// runs no longer counts as an active loader.
	activeRunMoves = 64
	// maxOwned bounds the owned map (stale entries of ended sessions), and
	// maxReserved the pages reserved in runs, all sessions together: the
	// pages extended and not used that a relation can be left with.
	maxOwned = 256
	// minMaxReserved is the least of the bound on reserved pages; the
	// bound is a sixteenth of the relation when that is more.
	minMaxReserved = 8 * minRunPages
)

// run is a loading session's reservation: pages next .. end-1, consecutive,
// fresh and not in the FSM, that only the session filling the block the run
// is keyed by will be given.
type run struct {
	next, end uint32
	size      int // pages in the run, the first one included
	last      int64
	// loading is set for a session that was loading when it got the page
	// (not for a session's first fresh page): only then is the page kept
	// from the last-block fallback of other sessions.
	loading bool
	// owner is the session's backend pid (Request.Owner), for PageStates.
	owner int32
}

// leave is called when a session found tried too full. It reports whether
// tried is a block some session is filling (owned), and, when it is the
// caller's own target, forgets it; an inserting owner with pages left in
// its run moves on to the next one, which is returned (else InvalidBlock).
func (p *locality) leave(tried uint32, isTarget, insert bool) (owned bool, next uint32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rn, owned := p.mu.owned[tried]
	if !owned || !isTarget {
		return owned, InvalidBlock
	}
	delete(p.mu.owned, tried)
	if !insert || rn.next >= rn.end {
		if insert && rn.loading {
			// The session's next run doubles this one (runLenLocked).
			if len(p.mu.prevRun) >= maxOwned {
				clear(p.mu.prevRun)
			}
			p.mu.prevRun[tried] = rn.size
		}
		return true, InvalidBlock
	}
	next = rn.next
	rn.next++
	p.mu.reserved--
	p.mu.seq++
	rn.last = p.mu.seq
	p.mu.owned[next] = rn
	return true, next
}

// ReleaseRun publishes as empty the pages reserved after blk for the
// session filling it (RunReleaser). With filled known, the session's next
// run is of that size (runLenLocked doubles half of it): the pages of its
// next batch, so that the batch ends near the end of its run. Else the
// run keeps its size, so that the session's next run still doubles it.
func (p *locality) ReleaseRun(m *Map, blk uint32, filled int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rn, owned := p.mu.owned[blk]
	if !owned {
		return
	}
	if filled > 0 {
		rn.size = max(1, (filled+1)/2)
	}
	if rn.next >= rn.end {
		return
	}
	p.mu.reserved -= int64(rn.end - rn.next)
	publishEmpty(m, rn.next, rn.end)
	rn.end = rn.next
}

// forgetOwned drops the entry of a block beyond the end of the relation.
func (p *locality) forgetOwned(blk uint32) {
	p.mu.Lock()
	delete(p.mu.owned, blk)
	p.mu.Unlock()
}

// loaderNext is the next page of a loading session that left tried: a
// fresh page from the FSM, or InvalidBlock, and then its Extend gives it a
// run.
func (p *locality) loaderNext(m *Map, tried uint32, r Request) uint32 {
	if blk := p.takeFresh(m, tried, r); blk != InvalidBlock {
		return blk
	}
	p.mu.Lock()
	p.mu.wantRun[r.Target] = struct{}{}
	p.mu.Unlock()
	return InvalidBlock
}

// loaderBusy reports whether a loading session is filling blk or has it
// reserved, so that the last-block fallback leaves it alone.
func (p *locality) loaderBusy(blk uint32) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	rn, owned := p.mu.owned[blk]
	return (owned && rn.loading) || p.reservedLocked(blk)
}

// vacuumRun is VACUUM's view of the runs for blk: it reports true when blk
// is a page a session is filling or has reserved and that session moved
// since the VACUUM began (VACUUM must leave the page alone). An entry whose
// run has not moved since is taken to belong to a session that went away
// (the end of a load): it is dropped and its reserved pages are published
// as empty, so that they are not lost until the next restart. dropped
// reports that blk was the page of such a session.
func (p *locality) vacuumRun(m *Map, blk uint32) (busy, dropped bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for b, r := range p.mu.owned {
		if b != blk && (blk < r.next || blk >= r.end) {
			continue
		}
		if r.last > p.mu.vacuumSeq {
			return true, false
		}
		if r.next < r.end {
			p.mu.reserved -= int64(r.end - r.next)
			publishEmpty(m, r.next, r.end)
		}
		delete(p.mu.owned, b)
		return false, b == blk
	}
	return false, false
}

// takeFresh finds an empty page in the FSM for a loading session, nearest to
// ref within the window or else anywhere, reserves it and up to a run's
// worth of the empty pages right after it (taking them out of the FSM), and
// returns it; InvalidBlock if the FSM has no empty page. r.Target is the
// session's target, which it is leaving; r.Owner its backend pid.
func (p *locality) takeFresh(m *Map, ref uint32, r Request) uint32 {
	p.mu.Lock()
	defer p.mu.Unlock()
	blk := m.searchNear(ref, int(p.window.Load()), 255)
	if blk == InvalidBlock {
		blk = m.search(255)
	}
	if blk == InvalidBlock {
		return InvalidBlock
	}
	if _, owned := p.mu.owned[blk]; owned || p.reservedLocked(blk) {
		// A stale entry for a page already given out: hide it.
		_ = m.RecordPageWithFreeSpace(blk, 0)
		return InvalidBlock
	}
	want := p.runLenLocked(m, r.Target, r.PagesLeft)
	cats := make([]uint8, max(want, 1))
	end := blk + 1
	if want > 1 {
		m.leafRange(blk+1, cats[:want-1])
		for _, c := range cats[:want-1] {
			if c != 255 || p.reservedLocked(end) {
				break
			}
			if _, owned := p.mu.owned[end]; owned {
				break
			}
			end++
		}
	}
	_ = m.recordRange(blk, end-1, 0)
	p.ownLocked(m, blk, blk+1, end, true, r.Owner)
	p.l.freshPages.Add(1)
	p.c.fsmAnswers.Add(1)
	return blk
}

// ownLocked registers cur as the block of the session with backend pid
// owner, with pages next .. end-1 reserved after it. They are fresh pages:
// what the policy decided about them before is forgotten. The caller holds
// mu.
func (p *locality) ownLocked(m *Map, cur, next, end uint32, loading bool, owner int32) {
	p.mu.seq++
	p.mu.owned[cur] = &run{next: next, end: end, size: int(end - cur), last: p.mu.seq, loading: loading, owner: owner}
	p.forgetPagesLocked(cur, max(end, cur+1))
	p.mu.reserved += int64(end - next)
	maxReserved := int64(minMaxReserved)
	if n, err := m.pool.NBlocks(m.rel, buffer.MainFork); err == nil {
		maxReserved = max(maxReserved, int64(n/16))
	}
	// Entries of sessions that went away (or lost their target) stay
	// until evicted, the stalest first: past maxOwned entries, or while
	// more than maxReserved pages are reserved. An evicted run's pages
	// go back to the FSM as empty, so they are not lost until VACUUM.
	for len(p.mu.owned) > maxOwned || p.mu.reserved > maxReserved {
		var victim uint32
		var oldest *run
		for b, r := range p.mu.owned {
			if b == cur {
				continue
			}
			if len(p.mu.owned) <= maxOwned && r.next == r.end {
				continue // only the reservations are too many
			}
			if oldest == nil || r.last < oldest.last {
				victim, oldest = b, r
			}
		}
		if oldest == nil {
			return
		}
		if oldest.next < oldest.end {
			p.mu.reserved -= int64(oldest.end - oldest.next)
			publishEmpty(m, oldest.next, oldest.end)
		}
		delete(p.mu.owned, victim)
	}
}

// reservedLocked reports whether blk is a reserved, not yet handed out page
// of some run. The caller holds mu.
func (p *locality) reservedLocked(blk uint32) bool {
	for _, r := range p.mu.owned {
		if blk >= r.next && blk < r.end {
			return true
		}
	}
	return false
}

// runLenLocked is how many fresh pages to reserve for a loading session:
// one when no other loader is active (its next extension is adjacent
// anyway, and a lone session must not leave spare pages behind), else
// minRunPages, or twice the session's last run (self is the page it is
// leaving), up to maxRunPages, but no more than a sixteenth of the relation
// shared among the active loaders, so that reservations left unused stay
// bounded. A session whose batch is expected to fill left more pages
// (Request.PagesLeft) gets that many instead of the doubled run, within
// the same bounds.
func (p *locality) runLenLocked(m *Map, self uint32, left int) int {
	prev := p.mu.prevRun[self]
	delete(p.mu.prevRun, self)
	active := 0
	for b, r := range p.mu.owned {
		if b != self && r.last > p.mu.seq-activeRunMoves {
			active++
		}
	}
	if active == 0 {
		return 1
	}
	n, err := m.pool.NBlocks(m.rel, buffer.MainFork)
	if err != nil {
		return 1
	}
	want := max(minRunPages, 2*prev)
	if left > 0 {
		want = left
	}
	return max(1, min(want, maxRunPages, int(n)/(16*(active+1))))
}

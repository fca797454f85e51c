package fsm

import "minipg/storage/buffer"

// Loading sessions' runs: a session that fills pages it was given fresh
// gets whole fresh pages only and, when other loaders are active, a run of
// consecutive fresh pages reserved for it, so that concurrent loaders do
// not interleave their pages. The reservations are in memory, under
// locality.mu.
//
// A session's burst of inserts into the relation (Request.BurstPages; the
// heap counts them) tells more: a burst that has filled a few pages is
// loading many rows, and a burst whose size is expected from the last one
// (Request.NewBatch) gets a run of that size from its first row, so that a
// TPC-C loader's district of customers, or of orders, sits on consecutive
// blocks and none of its orders straddles the end of a run.

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
	// bound is a sixteenth of the relation when that is more. The runs of
	// sessions loading in bulk (runLenLocked) are not counted: they are
	// expected to be filled.
	minMaxReserved = 8 * minRunPages
	// bulkBurstPages is the pages a session's burst must have filled
	// (Request.BurstPages) for it to count as loading in bulk (the heap's
	// BulkPages).
	bulkBurstPages = minRunPages
	// manyRowsBurstPages is the pages a session's burst must have filled
	// for it to load on fresh pages of its own, in runs no shorter than
	// it wants (takeFresh), even before it filled one it was given
	// fresh. Only a transaction loading in bulk tells its burst's pages,
	// never one of the TPC-C mix, whose rows go to the pages VACUUM found
	// room on.
	manyRowsBurstPages = 2
	// maxBatchRunPages is the longest run reserved for a batch of known
	// size: a TPC-C loader's bursts are 255 pages (a district's
	// customers) to 4,600 (a warehouse's stock).
	maxBatchRunPages = 8192
)

// manyRows reports whether r is an insert of a session loading many rows:
// the first of a batch, or one of a burst that has filled
// manyRowsBurstPages. It loads on fresh pages of its own, in runs no
// shorter than it wants.
func manyRows(r Request) bool { return r.NewBatch || r.BurstPages >= manyRowsBurstPages }

// batchRunPages is the run reserved for a batch expected to fill left more
// pages: those and a margin for a batch somewhat larger than the last (a
// district's 3,000 orders have 30,000 lines give or take 170, 2.7 pages),
// so that it seldom crosses the end of its run. What is left of the
// margin goes back to the map when the batch ends.
func batchRunPages(left int) int {
	return min(left+1+left/128, maxBatchRunPages)
}

// unsized reports whether r's run, bulk by runLenLocked, is one of a batch
// of a size not known yet (run.unsized).
func unsized(r Request, bulk bool) bool { return bulk && !r.BurstSized && r.PagesLeft == 0 }

// backfills reports whether r, an insert with a target, goes to the page
// its session left before the target (Request.Back): a loading session's
// row, outside groups and transaction runs, that fits there by what the
// session found. A page a loader leaves because one row did not fit keeps
// up to a row's room unused, a twelfth of a page for a TPC-C customer,
// where classic's FSM search gives it to a later, smaller row; the page
// before the target is the only one that keeps the burst's rows on
// consecutive blocks.
func backfills(r Request) bool {
	return r.Target != InvalidBlock && r.GroupBytes == 0 && r.RunBytes == 0 && !r.NewBatch && r.numPages() == 1 &&
		(r.Bulk || r.BurstPages >= manyRowsBurstPages) && r.backFits()
}

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
	// bulk is set for the run of a session loading in bulk
	// (runLenLocked): its pages are not held to the bound on reserved
	// pages.
	bulk bool
	// unsized is set for the run of a session loading in bulk a batch of
	// a size not known yet (runLenLocked): while other loaders are
	// active its runs are maxRunPages, and an extension by another
	// loader lends it the next one when it is filling the relation's
	// last block (lendLocked).
	unsized bool
	// claim is set when the session was told that its next page is the
	// next block, which the relation does not have yet (nextElsewhere),
	// and it may have started a group of rows on its page on that count:
	// the extension that adds the block gives it to the session
	// (lendLocked), whoever extends, and the entry stays when the session
	// leaves its page until then.
	claim bool
}

// leave is called when a session found tried too full. It reports whether
// tried is a block some session is filling (owned), and, when it is the
// caller's own target, forgets it; an inserting owner with pages left in
// its run moves on to the next one, which is returned (else InvalidBlock).
// An owner starting a batch (Request.NewBatch) moves on only if its run
// has room for the whole batch; else what is left of the run goes back to
// the map and the batch gets a run of its own. A batch of groups (its
// first row carries Request.GroupBytes: a district's order lines) fills
// what is left first, and its next run is of the pages it still expects
// to fill (Request.PagesLeft): it ends on two runs rather than leaving the
// rest of this one empty, and no group straddles the two (Fit).
func (p *locality) leave(m *Map, tried uint32, isTarget bool, r Request) (owned bool, next uint32) {
	insert := r.OldBlock == InvalidBlock
	p.mu.Lock()
	defer p.mu.Unlock()
	rn, owned := p.mu.owned[tried]
	if !owned || !isTarget {
		return owned, InvalidBlock
	}
	if insert && r.ownRun() && int(rn.end-rn.next) < batchRunPages(r.PagesLeft) {
		delete(p.mu.owned, tried)
		p.releaseLocked(m, rn)
		return true, InvalidBlock
	}
	if !insert || rn.next >= rn.end {
		if !insert || !rn.claim {
			delete(p.mu.owned, tried)
		}
		if insert && rn.loading {
			// The session's next run doubles this one (runLenLocked).
			if len(p.mu.prevRun) >= maxOwned {
				clear(p.mu.prevRun)
			}
			p.mu.prevRun[tried] = rn.size
		}
		return true, InvalidBlock
	}
	if r.BurstSized {
		// A batch of known size goes on in the run (a batch of
		// groups): the run is no longer an unsized batch's.
		rn.unsized = false
	}
	return true, p.moveLocked(rn, tried)
}

// moveLocked moves rn's session from tried, its page, to the next page
// of its run, and returns it. The caller holds mu.
func (p *locality) moveLocked(rn *run, tried uint32) uint32 {
	delete(p.mu.owned, tried)
	next := rn.next
	rn.next++
	rn.claim = false
	p.unreserveLocked(rn, 1)
	p.mu.seq++
	rn.last = p.mu.seq
	p.mu.owned[next] = rn
	return next
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
	p.releaseLocked(m, rn)
}

// releaseLocked publishes rn's reserved pages as empty and ends the run at
// the page its session is filling. The caller holds mu.
func (p *locality) releaseLocked(m *Map, rn *run) { p.trimLocked(m, rn, 0) }

// trimLocked publishes as empty rn's reserved pages after the first keep
// of them, which stay its session's. The caller holds mu.
func (p *locality) trimLocked(m *Map, rn *run, keep uint32) {
	if keep == 0 {
		rn.claim = false
	}
	if rn.end-rn.next <= keep {
		return
	}
	from := rn.next + keep
	p.unreserveLocked(rn, int64(rn.end-from))
	publishEmpty(m, from, rn.end)
	rn.end = from
}

// unreserveLocked counts n of rn's reserved pages as no longer reserved
// (handed out or released). The caller holds mu.
func (p *locality) unreserveLocked(rn *run, n int64) {
	p.mu.reserved -= n
	if rn.bulk {
		p.mu.bulkReserved -= n
	}
}

// runHolds reports whether blk is a page a session is filling with at
// least a batch's run (batchRunPages(left)) reserved after it.
func (p *locality) runHolds(blk uint32, left int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	rn, owned := p.mu.owned[blk]
	return owned && int(rn.end-rn.next) >= batchRunPages(left)
}

// nextElsewhere reports whether the next page of the session filling blk
// may not be the next block: blk is the last page of its run while
// another loader is active or has extended the relation past it, or
// while the map has an empty page other than the next block. So is a
// page the policy holds no run for: the session's run ended with its last
// batch, or was given back (evicted past the bound on reserved pages
// while many loaders start, or by VACUUM), and its next page is wherever
// its next run starts.
//
// When it answers false for the last page of a run, the session may
// start a group of rows there (Fit), so the answer is made to hold: an
// empty next block is taken into the run at once, and a next block the
// relation does not have yet is claimed (run.claim) and lent to the
// session by whichever extension adds it (lendLocked), unless an
// extension has sized itself already (locality.mu.extending). A lone loader's
// runs are one page each (runLenLocked), and its next page is the
// adjacent extension that way.
func (p *locality) nextElsewhere(m *Map, blk uint32) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	rn, owned := p.mu.owned[blk]
	if !owned {
		return true
	}
	if rn.next < rn.end {
		return false
	}
	if blk+1 < p.extendedTo.Load() || p.mu.extending == blk+2 || p.othersActive(blk) {
		// (An extension in progress has sized itself without a claim
		// on blk+1: it takes that block.)
		return true
	}
	switch next := p.nearestEmpty(m, blk); next {
	case InvalidBlock:
		if n, err := m.pool.NBlocks(m.rel, buffer.MainFork); err != nil || blk+1 != n {
			return true
		}
	case blk + 1:
		if _, taken := p.mu.owned[next]; taken || p.reservedLocked(next) {
			return true
		}
		// The next block is empty: the run takes it now.
		_ = m.RecordPageWithFreeSpace(next, 0)
		p.growRunLocked(rn, next, 1)
		return false
	default:
		return true
	}
	// The next block is the relation's next extension: claimed for the
	// session, whoever extends.
	rn.claim = true
	return false
}

// nearestEmpty is the empty page (category 255) of the map nearest to ref
// within the window, else any, else InvalidBlock: where a loading session
// that leaves ref starts its next run when the map has one (takeFresh).
func (p *locality) nearestEmpty(m *Map, ref uint32) uint32 {
	if blk := m.searchNear(ref, int(p.window.Load()), 255); blk != InvalidBlock {
		return blk
	}
	return m.search(255)
}

// othersActiveLocked counts the loading sessions other than the one
// filling self that are active (activeLocked), and reports whether one of
// them is loading a batch of unknown size (run.unsized). The caller holds
// mu.
func (p *locality) othersActiveLocked(self uint32) (active int, unsized bool) {
	for b, rn := range p.mu.owned {
		if b != self && p.activeLocked(rn) {
			active++
			unsized = unsized || rn.unsized
		}
	}
	return active, unsized
}

// othersActive reports whether a loading session other than the one
// filling self is active. The caller holds mu.
func (p *locality) othersActive(self uint32) bool {
	active, _ := p.othersActiveLocked(self)
	return active > 0
}

// activeLocked reports whether rn's session moved within the last
// activeRunMoves moves of all runs. The caller holds mu.
func (p *locality) activeLocked(rn *run) bool { return rn.last > p.mu.seq-activeRunMoves }

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
	p.mu.Lock()
	_, claimed := p.lentLocked(tried, r.Owner)
	p.mu.Unlock()
	if !claimed {
		// (A session that claimed the next block extends to get it.)
		if blk := p.takeFresh(m, tried, r); blk != InvalidBlock {
			return blk
		}
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
		p.releaseLocked(m, r)
		delete(p.mu.owned, b)
		return false, b == blk
	}
	return false, false
}

// takeFresh finds an empty page in the FSM for a loading session, nearest to
// ref within the window or else anywhere, reserves it and up to a run's
// worth of the empty pages right after it (taking them out of the FSM), and
// returns it; InvalidBlock if the FSM has no empty page, or (a session
// loading many rows) none followed by as many empty pages as its run
// wants. r.Target is the session's target, which it is leaving; r.Owner
// its backend pid.
func (p *locality) takeFresh(m *Map, ref uint32, r Request) uint32 {
	p.mu.Lock()
	defer p.mu.Unlock()
	blk := p.nearestEmpty(m, ref)
	if blk == InvalidBlock || (r.NewBatch && blk == r.Target) {
		// (A batch does not start on the page it left, which Fit
		// refuses it, even when that page is empty.)
		return InvalidBlock
	}
	if _, owned := p.mu.owned[blk]; owned || p.reservedLocked(blk) {
		// A stale entry for a page already given out: hide it.
		_ = m.RecordPageWithFreeSpace(blk, 0)
		return InvalidBlock
	}
	want, bulk := p.runLenLocked(m, r)
	// A batch, or a session whose burst is loading many rows, takes a
	// range of empty pages only if it holds its whole run, never the
	// slivers of runs others left, over which its rows would scatter: it
	// extends instead, and the slivers stay for other inserts.
	need := 1
	if manyRows(r) || unsized(r, bulk) {
		need = want
	}
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
	if int(end-blk) < need {
		return InvalidBlock
	}
	_ = m.recordRange(blk, end-1, 0)
	p.ownLocked(m, blk, blk+1, end, true, bulk, r.Owner).unsized = unsized(r, bulk)
	p.l.freshPages.Add(1)
	p.c.fsmAnswers.Add(1)
	return blk
}

// ownLocked registers cur as the block of the session with backend pid
// owner, with pages next .. end-1 reserved after it (the run of a session
// loading in bulk: bulk), and returns its run. They are fresh pages: what
// the policy decided about them before is forgotten. The caller holds mu.
func (p *locality) ownLocked(m *Map, cur, next, end uint32, loading, bulk bool, owner int32) *run {
	p.mu.seq++
	rn := &run{next: next, end: end, size: int(end - cur), last: p.mu.seq, loading: loading, owner: owner, bulk: bulk}
	p.mu.owned[cur] = rn
	p.forgetPagesLocked(cur, max(end, cur+1))
	p.mu.reserved += int64(end - next)
	if bulk {
		p.mu.bulkReserved += int64(end - next)
	}
	maxReserved := int64(minMaxReserved)
	if n, err := m.pool.NBlocks(m.rel, buffer.MainFork); err == nil {
		maxReserved = max(maxReserved, int64(n/16))
	}
	// Entries of sessions that went away (or lost their target) stay
	// until evicted, the stalest first: past maxOwned entries, or while
	// more than maxReserved pages are reserved. An evicted run's pages
	// go back to the FSM as empty, so they are not lost until VACUUM.
	//
	// A session still loading keeps the page after its own when only the
	// reservations are too many: the group of rows it is writing (an
	// order's lines, started on its page because a page of its run
	// followed, Fit) goes on on the next block instead of wherever its
	// next run starts.
	for len(p.mu.owned) > maxOwned || p.mu.reserved-p.mu.bulkReserved > maxReserved {
		tooMany := len(p.mu.owned) > maxOwned
		var victim uint32
		var oldest *run
		for b, r := range p.mu.owned {
			if b == cur {
				continue
			}
			if !tooMany && (r.next == r.end || r.bulk || p.activeLocked(r) && r.end-r.next <= 1) {
				continue // only the reservations are too many
			}
			if oldest == nil || r.last < oldest.last {
				victim, oldest = b, r
			}
		}
		if oldest == nil {
			break
		}
		if !tooMany && p.activeLocked(oldest) {
			p.trimLocked(m, oldest, 1)
			continue
		}
		p.releaseLocked(m, oldest)
		delete(p.mu.owned, victim)
	}
	return rn
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

// runLenLocked is how many fresh pages to reserve for a loading session,
// and whether it is loading in bulk (its run is then expected to be
// filled and not held to the bound on reserved pages). A session whose
// batch is expected to fill left more pages (Request.PagesLeft) gets a
// run for them (batchRunPages), whatever the other loaders do: the batch
// is expected to fill it, and a batch that sits in one run keeps its rows
// on consecutive blocks. Else one page
// when no other loader is active (its next extension is adjacent anyway,
// and a lone session must not leave spare pages behind), else
// minRunPages, or twice the session's last run
// (r.Target is the page it is leaving), up to maxRunPages, but no more
// than a sixteenth of the relation shared among the active loaders, so
// that reservations left unused stay bounded. A session whose burst has
// filled bulkBurstPages (Request.BurstPages) is loading in bulk, a batch
// of a size not known yet (a TPC-C loader's first district, which no
// district has ended before): its runs are maxRunPages at once. So is a
// loader's first run in a relation that another session is loading so
// (othersActiveLocked): it is probably starting the same kind of batch.
// Doubled up to it, the runs of loaders that start their first batch
// together alternate (16, 16, 32, 32, 64, 64 and 128 pages), and each
// batch spans the others' runs as well as its own; a loader's first pages,
// taken one at a time, end up on one side of another loader's run and the
// rest of its batch on the other. A run of maxRunPages holds a district of
// customers (252 pages). What a batch leaves of its run goes back to the
// map as empty pages when it ends (ReleaseRun), where the next batch,
// sized by it, takes them if they hold its whole run (takeFresh). A burst
// that has gone past the size expected of it (Request.BurstSized) is
// loading in bulk too, and its runs may be as long as what it has filled
// so far.
func (p *locality) runLenLocked(m *Map, r Request) (int, bool) {
	prev := p.mu.prevRun[r.Target]
	delete(p.mu.prevRun, r.Target)
	if r.PagesLeft > 0 {
		return batchRunPages(r.PagesLeft), true
	}
	bulk := r.BurstPages >= bulkBurstPages
	active, othersUnsized := p.othersActiveLocked(r.Target)
	if active == 0 {
		return 1, bulk
	}
	if unsized(r, bulk) || r.BurstPages == 0 && r.LoadingTxn && !r.BurstSized && othersUnsized {
		return maxRunPages, true
	}
	n, err := m.pool.NBlocks(m.rel, buffer.MainFork)
	if err != nil {
		return 1, bulk
	}
	want := max(minRunPages, 2*prev)
	limit := int(n) / (16 * (active + 1))
	if bulk {
		limit = max(limit, r.BurstPages)
	}
	return max(1, min(want, maxRunPages, limit)), bulk
}

package fsm

import (
	"fmt"
	"sync"
	"sync/atomic"

	"minipg/reloptions"
	"minipg/storage/buffer"
)

// The locality policy (DESIGN.md, "Free space: the two policies"). Classic
// placement cares only that the fillfactor is respected; locality also cares
// where the space is, so that rows that belong together (the order lines of
// one order, written by one session in a row, or updated together) end up on
// the same or adjacent blocks. Its rules, in the order a placement meets
// them:
//
//   - Target first. An insert tries the session's target block, as classic
//     does.
//   - Sticky closing. A page found too full is recorded in the FSM as having
//     no room at all ("closed") when its used space is at or past the reopen
//     threshold, fsm_reopen_percent (50) of the space an insert may fill
//     (the page less the fillfactor reserve). So a session leaving its
//     target does not advertise the small leftover, and the fillfactor
//     reserve stays for updates of the rows already there. VACUUM reopens
//     the page (records its real space) only once its used space is below
//     the threshold.
//   - Nearby first. An update whose new version does not fit on the old
//     version's page, and an insert whose target is full, go to the open
//     page with room nearest to that block within fsm_nearby_window (64)
//     blocks, ties broken by most free space; an update then tries the
//     session's target (where the rows it moved before went); then any
//     page in the FSM; then a fresh page.
//   - Own pages while loading. A session that filled a page it was given
//     fresh (or that inserts in bulk) is loading: it gets whole fresh pages
//     of its own, never a partly used one. When other loaders are active it
//     gets a run of consecutive fresh pages, reserved for it (not in the
//     FSM), so that concurrent loaders do not interleave their pages: the
//     rows a session writes in a row stay on adjacent blocks.
//   - Batched extension. An extender with sessions waiting for the
//     extension lock adds min(512, 20 x waiters) pages (PostgreSQL 16's
//     rule, NumPages x (1 + waiters), when that is more), but never more
//     than a sixteenth of the relation beyond PostgreSQL's figure, and
//     publishes the pages it does not keep before releasing the lock.
//
// What is a hint stays a hint: closing a page only changes what the FSM
// advertises, and the reservations live in memory (lost at restart, when
// the pages are found by VACUUM like any extended, unused page).
type locality struct {
	c counters
	l localityCounters

	window    atomic.Int32 // fsm_nearby_window
	reopenPct atomic.Int32 // fsm_reopen_percent
	small     atomic.Int32 // fsm_small_table_blocks

	// memo remembers what kind of answer a block was, so that a Retry can
	// charge the miss to that kind (for the hit counters). Collisions only
	// blur the counters.
	memo [memoSize]atomic.Uint64

	// Lock order: the relation's extension lock -> mu -> the Map's
	// extendMu -> one FSM content lock. Nothing takes the extension lock
	// while holding mu.
	mu struct {
		sync.Mutex
		// owned maps the block a loading session is filling (its target)
		// to its reservation. A session that leaves its block without
		// telling us (it ended) leaves a stale entry, evicted oldest first
		// past maxOwned.
		owned map[uint32]*run
		// seq counts reservation moves; run.last is seq at the run's last
		// move, so that runs that stopped moving are not counted as
		// active loaders.
		seq int64
		// wantRun holds targets whose loading owner found them full and
		// got InvalidBlock from Retry: its Extend gives it a run.
		wantRun map[uint32]struct{}
		// reserved counts pages in runs not yet handed out.
		reserved int64
		// vacuumSeq is seq when the running (or last) VACUUM began: an
		// entry that has not moved since belongs to a session that went
		// away, or that will not miss it.
		vacuumSeq int64
	}
}

// run is a loading session's reservation: pages next .. end-1, consecutive,
// fresh and not in the FSM, that only the session filling the block the run
// is keyed by will be given.
type run struct {
	next, end uint32
	last      int64
	// loading is set for a session that was loading when it got the page
	// (not for a session's first fresh page): only then is the page kept
	// from the last-block fallback of other sessions.
	loading bool
}

type localityCounters struct {
	nearbyAnswers, nearbyMisses, farAnswers, farMisses atomic.Int64
	freshPages, closedPages, reopenedPages             atomic.Int64
}

const (
	// DefaultNearbyWindow is fsm_nearby_window's default.
	DefaultNearbyWindow = 64
	// DefaultReopenPercent is fsm_reopen_percent's default.
	DefaultReopenPercent = 50
	// DefaultSmallTableBlocks is fsm_small_table_blocks' default.
	DefaultSmallTableBlocks = 4
	// maxSmallTableBlocks bounds fsm_small_table_blocks: the blocks of a
	// small table are tried one by one.
	maxSmallTableBlocks = 64

	// maxRunPages is the longest run of fresh pages reserved for one
	// loading session.
	maxRunPages = 16
	// activeRunMoves: a run that has not moved in this many moves of all
	// runs no longer counts as an active loader.
	activeRunMoves = 64
	// maxOwned bounds the owned map (stale entries of ended sessions), and
	// maxReserved the pages reserved in runs, all sessions together: the
	// pages extended and not used that a relation can be left with.
	maxOwned    = 256
	maxReserved = 8 * maxRunPages

	// maxLocalityExtendBy and extendPerWaiter are DESIGN.md's batched
	// extension: min(512, 20 x waiters).
	maxLocalityExtendBy = 512
	extendPerWaiter     = 20

	memoSize                  = 1024
	kindNearby, kindFar uint8 = 1, 2
)

// The locality policy's parameters: storage parameters and server settings
// (a table's value wins), read when a relation's policy is made.
var (
	nearbyWindowParam = reloptions.Declare(reloptions.Param{
		Name: "fsm_nearby_window", Kind: reloptions.Int,
		Desc:    "blocks either side searched for a nearby page with room (locality)",
		Default: fmt.Sprint(DefaultNearbyWindow), Min: 0, Max: maxNearbyWindow,
		Table: true, Setting: reloptions.UserSet,
	})
	reopenPercentParam = reloptions.Declare(reloptions.Param{
		Name: "fsm_reopen_percent", Kind: reloptions.Int,
		Desc:    "used space, in percent of what inserts may fill, below which a closed page reopens (locality)",
		Default: fmt.Sprint(DefaultReopenPercent), Min: 0, Max: 100,
		Table: true, Setting: reloptions.UserSet,
	})
	smallTableBlocksParam = reloptions.Declare(reloptions.Param{
		Name: "fsm_small_table_blocks", Kind: reloptions.Int,
		Desc:    "largest table, in blocks, kept without a free space map (locality)",
		Default: fmt.Sprint(DefaultSmallTableBlocks), Min: 0, Max: maxSmallTableBlocks,
		Table: true, Setting: reloptions.UserSet,
	})
)

// The locality policy's own counters (minipg_stat_fsm columns). Each
// "hits" figure is the answers of that kind that had room.
const (
	cNearbyAnswers = "nearby_answers"
	cNearbyHits    = "nearby_hits"
	cFarAnswers    = "far_answers"
	cFarHits       = "far_hits"
	cFreshPages    = "fresh_pages"
	cClosedPages   = "closed_pages"
	cReopenedPages = "reopened_pages"
	cReservedPages = "reserved_pages"
)

func init() {
	RegisterPolicy(PolicyDef{
		Name: "locality",
		New:  newLocality,
		Counters: []Counter{
			{cNearbyAnswers, "blocks found near the target or the old version's block"},
			{cNearbyHits, "nearby answers that had room"},
			{cFarAnswers, "blocks found anywhere in the FSM (nothing near had room)"},
			{cFarHits, "far answers that had room"},
			{cFreshPages, "whole fresh pages handed to a session (its run, the FSM's empty pages, extension)"},
			{cClosedPages, "pages closed: left at or past the reopen threshold and not advertised"},
			{cReopenedPages, "closed pages VACUUM found below the threshold and advertised again"},
			{cReservedPages, "pages now reserved for loading sessions and not yet handed out"},
		},
	})
}

// NewLocality returns the locality policy with default settings.
func NewLocality() Policy { return newLocality(nil) }

// newLocality returns the locality policy with its parameters read from
// src.
func newLocality(src reloptions.Source) Policy {
	p := &locality{}
	p.window.Store(int32(nearbyWindowParam.Int(src)))
	p.reopenPct.Store(int32(reopenPercentParam.Int(src)))
	p.small.Store(int32(smallTableBlocksParam.Int(src)))
	p.mu.owned = map[uint32]*run{}
	p.mu.wantRun = map[uint32]struct{}{}
	return p
}

func (*locality) Name() string { return "locality" }

func (p *locality) Stats() PolicyStats {
	s := p.c.snapshot()
	nearby, far := p.l.nearbyAnswers.Load(), p.l.farAnswers.Load()
	p.mu.Lock()
	reserved := p.mu.reserved
	p.mu.Unlock()
	s.Own = map[string]int64{
		cNearbyAnswers: nearby,
		cNearbyHits:    max(0, nearby-p.l.nearbyMisses.Load()),
		cFarAnswers:    far,
		cFarHits:       max(0, far-p.l.farMisses.Load()),
		cFreshPages:    p.l.freshPages.Load(),
		cClosedPages:   p.l.closedPages.Load(),
		cReopenedPages: p.l.reopenedPages.Load(),
		cReservedPages: reserved,
	}
	return s
}

// String describes the settings (for logs and tests).
func (p *locality) String() string {
	return fmt.Sprintf("locality(window %d, reopen %d%%)", p.window.Load(), p.reopenPct.Load())
}

// closed reports whether a page with avail bytes free (HeapFreeSpace) is at
// or past the reopen threshold: its used space is at least reopenPct of the
// space an insert may fill on an empty page.
func (p *locality) closed(avail, saveFree int) bool {
	capacity := EmptyPageFree - saveFree
	if capacity <= 0 {
		return true
	}
	used := EmptyPageFree - avail
	return used*100 >= capacity*int(p.reopenPct.Load())
}

func (p *locality) remember(blk uint32, kind uint8) {
	p.memo[blk%memoSize].Store(uint64(blk)<<8 | uint64(kind))
}

// forget returns the kind of answer blk was, if it is remembered, and
// forgets it.
func (p *locality) forget(blk uint32) uint8 {
	e := &p.memo[blk%memoSize]
	v := e.Load()
	if v>>8 != uint64(blk) || v&0xff == 0 {
		return 0
	}
	if !e.CompareAndSwap(v, 0) {
		return 0
	}
	return uint8(v & 0xff)
}

// smallTable returns the relation's size and whether it is a small table
// without an FSM fork: up to fsm_small_table_blocks blocks, the map is not
// created (DESIGN.md point 4, as PostgreSQL 12's development tree once
// did). Reading the fork would cost more than trying the few blocks.
func (p *locality) smallTable(m *Map) (uint32, bool) {
	n, err := m.pool.NBlocks(m.rel, buffer.MainFork)
	if err != nil || n > uint32(p.small.Load()) {
		return n, false
	}
	f, err := m.pool.NBlocks(m.rel, buffer.FSMFork)
	return n, err == nil && f == 0
}

// smallStart is where a placement in a small table starts: the old
// version's block, the target, or the last block.
func smallStart(r Request, n uint32) uint32 {
	switch {
	case r.OldBlock != InvalidBlock && r.OldBlock < n:
		return r.OldBlock
	case r.Target != InvalidBlock && r.Target < n:
		return r.Target
	}
	return n - 1
}

func (p *locality) Choose(m *Map, r Request) uint32 {
	if r.Target != InvalidBlock && r.OldBlock == InvalidBlock {
		// The common case, first and cheap: the session's target.
		p.c.targetTries.Add(1)
		return r.Target
	}
	if n, small := p.smallTable(m); small {
		if n == 0 {
			return InvalidBlock
		}
		start := smallStart(r, n)
		if start == r.Target {
			p.c.targetTries.Add(1)
		} else {
			p.c.lastBlockTries.Add(1)
		}
		if start == r.OldBlock {
			// The old version's page is known to be too full.
			return p.smallNext(r, n, start)
		}
		return start
	}
	if r.OldBlock != InvalidBlock {
		// An update that did not fit on the old version's page.
		if blk := p.nearby(m, r, r.OldBlock); blk != InvalidBlock {
			return blk
		}
		if r.Target != InvalidBlock && r.Target != r.OldBlock {
			p.c.targetTries.Add(1)
			return r.Target
		}
		return p.far(m, r)
	}
	if r.Target != InvalidBlock {
		p.c.targetTries.Add(1)
		return r.Target
	}
	if r.Bulk {
		// A bulk insert starts on fresh pages of its own.
		return p.takeFresh(m, InvalidBlock, r.Target)
	}
	if blk := p.far(m, r); blk != InvalidBlock {
		return blk
	}
	// The FSM knows nothing suitable: try the last page before extending
	// (as classic does, so that a table whose FSM is empty does not get one
	// row per page), unless a loading session is filling it.
	if n, err := m.pool.NBlocks(m.rel, buffer.MainFork); err == nil && n > 0 {
		p.mu.Lock()
		rn, owned := p.mu.owned[n-1]
		busy := (owned && rn.loading) || p.reservedLocked(n-1)
		p.mu.Unlock()
		if !busy {
			p.c.lastBlockTries.Add(1)
			return n - 1
		}
	}
	return InvalidBlock
}

// smallNext is the block to try after tried in a small table: the next
// one, wrapping, until the round is back where it started (then extend).
func (p *locality) smallNext(r Request, n, tried uint32) uint32 {
	next := (tried + 1) % n
	if next == smallStart(r, n) {
		return InvalidBlock
	}
	p.c.lastBlockTries.Add(1)
	return next
}

func (p *locality) Retry(m *Map, r Request, tried uint32, avail int) uint32 {
	if n, small := p.smallTable(m); small {
		p.c.retries.Add(1)
		if tried == r.Target {
			p.c.targetMisses.Add(1)
		}
		if n == 0 {
			return InvalidBlock
		}
		return p.smallNext(r, n, min(tried, n-1))
	}
	p.c.retries.Add(1)
	kind := p.forget(tried)
	switch kind {
	case kindNearby:
		p.l.nearbyMisses.Add(1)
	case kindFar:
		p.l.farMisses.Add(1)
	}
	isTarget := tried == r.Target
	if isTarget {
		p.c.targetMisses.Add(1)
	}
	insert := r.OldBlock == InvalidBlock
	if n, err := m.pool.NBlocks(m.rel, buffer.MainFork); avail == 0 && err == nil && tried >= n {
		// A target or FSM entry beyond the end of a truncated relation:
		// forget it and place the tuple as if the session had no target.
		p.mu.Lock()
		delete(p.mu.owned, tried)
		p.mu.Unlock()
		_ = m.RecordPageWithFreeSpace(tried, 0)
		if !insert {
			if blk := p.nearby(m, r, r.OldBlock); blk != InvalidBlock {
				return blk
			}
		}
		if blk := p.far(m, r); blk != InvalidBlock || n == 0 {
			return blk
		}
		p.c.lastBlockTries.Add(1)
		return n - 1
	}
	closed := p.closed(avail, r.SaveFree)
	rec := avail
	if closed {
		rec = 0
	}

	p.mu.Lock()
	rn, owned := p.mu.owned[tried]
	if owned && isTarget {
		delete(p.mu.owned, tried)
		if insert && rn.next < rn.end {
			// The owner moves on to the next page of its run.
			next := rn.next
			rn.next++
			p.mu.reserved--
			p.mu.seq++
			rn.last = p.mu.seq
			p.mu.owned[next] = rn
			p.mu.Unlock()
			p.record(m, tried, rec, closed)
			p.l.freshPages.Add(1)
			p.c.fsmAnswers.Add(1)
			return next
		}
	}
	p.mu.Unlock()
	if owned && !isTarget {
		// Someone else's page, found through a stale FSM entry or the last
		// block: hide it (its owner records it when it leaves) and look
		// elsewhere.
		p.record(m, tried, 0, false)
	} else {
		p.record(m, tried, rec, closed)
	}

	if insert && ((owned && isTarget) || r.Bulk) {
		// A loading session: whole fresh pages only.
		if blk := p.takeFresh(m, tried, r.Target); blk != InvalidBlock {
			return blk
		}
		p.mu.Lock()
		p.mu.wantRun[r.Target] = struct{}{}
		p.mu.Unlock()
		return InvalidBlock
	}
	ref := tried
	if !insert {
		ref = r.OldBlock
	}
	if blk := p.nearby(m, r, ref); blk != InvalidBlock {
		return blk
	}
	// An update tries the session's target once, after the nearby pages
	// (Choose did when there were none).
	if !insert && kind == kindNearby && r.Target != InvalidBlock && r.Target != tried && r.Target != r.OldBlock {
		p.c.targetTries.Add(1)
		return r.Target
	}
	return p.far(m, r)
}

// record writes what the FSM should advertise for blk: 0 for a closed page.
func (p *locality) record(m *Map, blk uint32, rec int, closed bool) {
	if closed {
		p.l.closedPages.Add(1)
	}
	_ = m.RecordPageWithFreeSpace(blk, rec)
}

// nearby is the nearest open page with room within the window around ref.
func (p *locality) nearby(m *Map, r Request, ref uint32) uint32 {
	cat, ok := NeededToCategory(r.TargetFreeSpace())
	if !ok {
		return InvalidBlock
	}
	blk := m.searchNear(ref, int(p.window.Load()), cat)
	if blk != InvalidBlock {
		p.l.nearbyAnswers.Add(1)
		p.c.fsmAnswers.Add(1)
		p.remember(blk, kindNearby)
	}
	return blk
}

// far is any page with room, from the root of the FSM.
func (p *locality) far(m *Map, r Request) uint32 {
	blk := m.GetPageWithFreeSpace(r.TargetFreeSpace())
	if blk != InvalidBlock {
		p.l.farAnswers.Add(1)
		p.c.fsmAnswers.Add(1)
		p.remember(blk, kindFar)
	}
	return blk
}

// takeFresh finds an empty page in the FSM for a loading session, nearest to
// ref within the window or else anywhere, reserves it and up to a run's
// worth of the empty pages right after it (taking them out of the FSM), and
// returns it; InvalidBlock if the FSM has no empty page. prevTarget is the
// session's target, which it is leaving.
func (p *locality) takeFresh(m *Map, ref, prevTarget uint32) uint32 {
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
	want := p.runLenLocked(m, prevTarget)
	var cats [maxRunPages]uint8
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
	p.ownLocked(m, blk, blk+1, end, true)
	p.l.freshPages.Add(1)
	p.c.fsmAnswers.Add(1)
	return blk
}

// ownLocked registers cur as a session's block with pages next .. end-1
// reserved after it. The caller holds mu.
func (p *locality) ownLocked(m *Map, cur, next, end uint32, loading bool) {
	p.mu.seq++
	p.mu.owned[cur] = &run{next: next, end: end, last: p.mu.seq, loading: loading}
	p.mu.reserved += int64(end - next)
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
			if err := m.recordRange(oldest.next, oldest.end-1, EmptyPageFree); err == nil {
				_ = m.Vacuum(oldest.next, oldest.end)
			}
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
// anyway, and a lone session must not leave spare pages behind), else up
// to maxRunPages, but no more than a sixteenth of the relation shared among
// the active loaders, so that reservations left unused stay bounded.
func (p *locality) runLenLocked(m *Map, self uint32) int {
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
	return max(1, min(maxRunPages, int(n)/(16*(active+1))))
}

func (p *locality) Extend(m *Map, r Request) (uint32, error) {
	p.mu.Lock()
	_, loading := p.mu.wantRun[r.Target]
	delete(p.mu.wantRun, r.Target)
	p.mu.Unlock()
	loading = loading || r.Bulk

	l := m.pool.ExtensionLock(m.rel)
	if !l.TryLock() {
		l.Lock()
		// Another session has probably just extended and published pages.
		var blk uint32
		if n, small := p.smallTable(m); small && n > 0 {
			// No map to publish them in: try the last block.
			blk = n - 1
		} else if loading {
			blk = p.takeFresh(m, r.Target, r.Target)
		} else {
			blk = p.far(m, r)
		}
		if blk != InvalidBlock {
			l.Unlock()
			p.c.extendRechecks.Add(1)
			return blk, nil
		}
	}
	defer l.Unlock()

	nblocks, err := m.pool.NBlocks(m.rel, buffer.MainFork)
	if err != nil {
		return InvalidBlock, err
	}
	keep := 1
	if loading {
		p.mu.Lock()
		keep = p.runLenLocked(m, r.Target)
		p.mu.Unlock()
	}
	by := max(localityExtendBy(r, l.Waiters(), int(nblocks)), keep)
	first, err := m.pool.Extend(m.rel, buffer.MainFork, by)
	if err != nil {
		return InvalidBlock, err
	}
	p.c.noteExtension(by)
	// The caller's page and its run are never in the FSM; the rest is
	// published, upper levels included, before the lock is released so
	// that the waiters find it.
	p.mu.Lock()
	p.ownLocked(m, first, first+1, first+uint32(keep), loading)
	p.mu.Unlock()
	if by > keep && first+uint32(by) <= uint32(p.small.Load()) {
		// Still a small table: no map; the next placements try every
		// block. But nobody else should take the caller's run, so it has
		// none.
		p.mu.Lock()
		if rn := p.mu.owned[first]; rn != nil {
			p.mu.reserved -= int64(rn.end - rn.next)
			rn.next, rn.end = first+1, first+1
		}
		p.mu.Unlock()
	} else if by > keep {
		lo, hi := first+uint32(keep), first+uint32(by)-1
		if err := m.recordRange(lo, hi, EmptyPageFree); err == nil {
			_ = m.Vacuum(lo, hi+1)
		}
	}
	p.l.freshPages.Add(1)
	return first, nil
}

// localityExtendBy is DESIGN.md's batched extension: with waiters,
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

// BeginVacuum notes where the reservations stand as a VACUUM begins.
func (p *locality) BeginVacuum(m *Map) {
	p.mu.Lock()
	p.mu.vacuumSeq = p.mu.seq
	p.mu.Unlock()
}

// RecordVacuumed is what VACUUM advertises: nothing for a page a session is
// filling or has reserved, 0 for a page at or past the reopen threshold
// (closed), else its real free space. A page the FSM showed as having no
// room that is now open counts as reopened. An entry whose run has not
// moved since the VACUUM began is taken to belong to a session that went
// away (the end of a load): its page is recorded like any other and its
// reserved pages are published as empty, so that they are not lost until
// the next restart.
func (p *locality) RecordVacuumed(m *Map, blk uint32, avail, saveFree int) error {
	if _, small := p.smallTable(m); small {
		return nil // inserts try every block of a small table
	}
	p.mu.Lock()
	busy := false
	for b, r := range p.mu.owned {
		if b != blk && (blk < r.next || blk >= r.end) {
			continue
		}
		if r.last > p.mu.vacuumSeq {
			busy = true
			break
		}
		if r.next < r.end {
			p.mu.reserved -= int64(r.end - r.next)
			if err := m.recordRange(r.next, r.end-1, EmptyPageFree); err == nil {
				_ = m.Vacuum(r.next, r.end)
			}
		}
		delete(p.mu.owned, b)
		break
	}
	p.mu.Unlock()
	if busy {
		return nil
	}
	if avail >= EmptyPageFree {
		// A new page (extended, never used, or given back above).
		return m.RecordPageWithFreeSpace(blk, avail)
	}
	if p.closed(avail, saveFree) {
		return m.RecordPageWithFreeSpace(blk, 0)
	}
	if avail > 0 && m.GetRecordedFreeSpace(blk) == 0 && AvailToCategory(avail) > 0 {
		p.l.reopenedPages.Add(1)
	}
	return m.RecordPageWithFreeSpace(blk, avail)
}

package fsm

import (
	"fmt"
	"sync"
	"sync/atomic"

	"minipg/reloptions"
	"minipg/storage/buffer"
)

// The locality policy (docs/DESIGN.md, "Free space: the policies"). Classic
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
//     rows a session writes in a row stay on adjacent blocks. A burst of
//     inserts (the session's consecutive inserts into the table) expected
//     to fill many pages (Request.NewBatch, PagesLeft) starts on a run of
//     its expected size and a margin, so that it does not cross the end of
//     a run; a burst of unknown size that has filled a few pages gets runs
//     as long as what it has filled, never a shorter leftover.
//     A loader's first row into a relation starts on a fresh page; a lone
//     loader's next page is the next block, claimed for it until the
//     extension that adds it (locality_runs.go, nextElsewhere).
//   - Batched extension. An extender with sessions waiting for the
//     extension lock adds min(512, 20 x waiters) pages (PostgreSQL 16's
//     rule, NumPages x (1 + waiters), when that is more), but never more
//     than a sixteenth of the relation beyond PostgreSQL's figure, and
//     publishes the pages it does not keep before releasing the lock.
//
// What is a hint stays a hint: closing a page only changes what the FSM
// advertises, and the reservations live in memory (lost at restart, when
// the pages are found by VACUUM like any extended, unused page).
//
// The code is split by concern: this file has the type, its parameters
// and counters, and the placement itself (Choose, Retry); sticky closing
// and what VACUUM advertises are in locality_closing.go, the nearby and
// far searches in locality_nearby.go (over Map.searchNear, nearby.go),
// the loading sessions' runs in locality_runs.go, small tables in
// locality_small.go, and extension in locality_extend.go.
type locality struct {
	c counters
	l localityCounters

	window    atomic.Int32 // fsm_nearby_window
	reopenPct atomic.Int32 // fsm_reopen_percent
	small     atomic.Int32 // fsm_small_table_blocks
	lendPct   atomic.Int32 // fsm_related_reserve_percent
	keepRuns  atomic.Bool  // fsm_keep_runs
	// smallNow is what smallTable last found: the relation is a small
	// table, whose sessions' next page is any block (Fit).
	smallNow atomic.Bool
	// extendedTo is the end of the relation after this policy's last
	// extension (nextElsewhere).
	extendedTo atomic.Uint32

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
		// prevRun holds the size of the run a loading session just
		// finished, keyed by its last page, until its next run is sized.
		prevRun map[uint32]int
		// reserved counts pages in runs not yet handed out, and
		// bulkReserved those of them in runs of sessions loading in
		// bulk.
		reserved, bulkReserved int64
		// vacuumSeq is seq when the running (or last) VACUUM began: an
		// entry that has not moved since belongs to a session that went
		// away, or that will not miss it.
		vacuumSeq int64
		// extending is the first block of the extension in progress, one
		// more (0: none), from its size to its placement: a next block
		// claimed meanwhile would go to the extender (nextElsewhere).
		extending uint32
		// pages holds, per block, what the policy last decided about the
		// page (pageOpen, pageClosed, pageReopened; pagestate.go), read
		// by PageStates only. One byte a block, grown with the decisions;
		// lost at restart, when the map's 0 still says closed.
		pages []uint8
	}
}

type localityCounters struct {
	nearbyAnswers, nearbyMisses, farAnswers, farMisses atomic.Int64
	freshPages, closedPages, reopenedPages             atomic.Int64
	relatedAnswers, relatedMisses                      atomic.Int64
	backAnswers, backMisses                            atomic.Int64
}

const (
	// DefaultNearbyWindow is fsm_nearby_window's default.
	DefaultNearbyWindow = 64
	// DefaultReopenPercent is fsm_reopen_percent's default.
	DefaultReopenPercent = 50
	// DefaultSmallTableBlocks is fsm_small_table_blocks' default.
	DefaultSmallTableBlocks = 4
	// DefaultRelatedReservePercent is fsm_related_reserve_percent's
	// default: an update's moved version may use all of a related page's
	// or neighbour's fillfactor reserve.
	DefaultRelatedReservePercent = 100

	// memoSize is the number of answers remembered for the hit counters.
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
	keepRunsParam = reloptions.Declare(reloptions.Param{
		Name: "fsm_keep_runs", Kind: reloptions.Bool,
		Desc:    "start the rows a transaction inserts on a page with room for all of them, as many as its recent transactions inserted (locality)",
		Default: "on", Table: true, Setting: reloptions.UserSet,
	})
	relatedReserveParam = reloptions.Declare(reloptions.Param{
		Name: "fsm_related_reserve_percent", Kind: reloptions.Int,
		Desc:    "share of its fillfactor reserve a related page or neighbour lends to an update's version that leaves its page (locality)",
		Default: fmt.Sprint(DefaultRelatedReservePercent), Min: 0, Max: 100,
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
	cRelatedTries  = "related_tries"
	cRelatedHits   = "related_hits"
	cBackTries     = "back_tries"
	cBackHits      = "back_hits"
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
			{cRelatedTries, "pages of related rows or neighbours tried by updates that left their page"},
			{cRelatedHits, "related tries that had room"},
			{cBackTries, "pages a loading session had left too full for a row, tried again for a smaller one"},
			{cBackHits, "back tries that had room"},
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
	p.lendPct.Store(int32(relatedReserveParam.Int(src)))
	p.keepRuns.Store(keepRunsParam.Bool(src))
	p.mu.owned = map[uint32]*run{}
	p.mu.wantRun = map[uint32]struct{}{}
	p.mu.prevRun = map[uint32]int{}
	return p
}

func (*locality) Name() string { return "locality" }

// KeepRuns: with fsm_keep_runs on, a transaction's first insert asks for
// room for all the rows its transaction is expected to insert
// (Request.RunBytes), so that an order's lines start on a page where
// they fit rather than straddle a page boundary. What the page it leaves
// has left stays for the updates of its own rows (sticky closing).
func (p *locality) KeepRuns() bool { return p.keepRuns.Load() }

// PruneBehind: locality closes full pages to inserts, so an insert seldom
// comes back to prune a page its updates left dead versions on; pruned
// soon after, while the page's last image in the WAL is the update's, the
// prune logs none (heap_prune_behind = auto turns the pruner on for
// locality's tables).
func (*locality) PruneBehind() bool { return true }

// SplitTargets: a session's moved versions do not move its insert target,
// so that the rows it inserts stay on its own pages (its run) while its
// updates go to the pages of related rows.
func (*locality) SplitTargets() bool { return true }

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
		cRelatedTries:  p.l.relatedAnswers.Load(),
		cRelatedHits:   max(0, p.l.relatedAnswers.Load()-p.l.relatedMisses.Load()),
		cBackTries:     p.l.backAnswers.Load(),
		cBackHits:      max(0, p.l.backAnswers.Load()-p.l.backMisses.Load()),
	}
	return s
}

// String describes the settings (for logs and tests).
func (p *locality) String() string {
	return fmt.Sprintf("locality(window %d, reopen %d%%)", p.window.Load(), p.reopenPct.Load())
}

func (p *locality) Choose(m *Map, r Request) uint32 {
	if r.Target != InvalidBlock && r.OldBlock == InvalidBlock {
		if backfills(r) {
			p.l.backAnswers.Add(1)
			return r.Back
		}
		// The common case, first and cheap: the session's target.
		p.c.targetTries.Add(1)
		return r.Target
	}
	if n, small := p.smallTable(m); small {
		return p.smallChoose(r, n)
	}
	if r.OldBlock != InvalidBlock {
		// An update that did not fit on the old version's page: the pages
		// of related rows and the neighbours first (locality_related.go).
		if blk := p.relatedFirst(m, r); blk != InvalidBlock {
			return blk
		}
		return p.updateElsewhere(m, r)
	}
	if r.Target != InvalidBlock {
		p.c.targetTries.Add(1)
		return r.Target
	}
	if r.Bulk || r.NewBatch || r.LoadingTxn {
		// A bulk insert, a batch of known size, or a loader's first row
		// into the relation starts on fresh pages of its own: not on
		// the last block, which another loader may just have left at
		// the end of its run and be extending past (its rows there
		// would go on after that loader's next run).
		return p.takeFresh(m, InvalidBlock, r)
	}
	if blk := p.far(m, r); blk != InvalidBlock {
		return blk
	}
	// The FSM knows nothing suitable: try the last page before extending
	// (as classic does, so that a table whose FSM is empty does not get one
	// row per page), unless a loading session is filling it.
	if n, err := m.pool.NBlocks(m.rel, buffer.MainFork); err == nil && n > 0 && !p.loaderBusy(n-1) {
		p.c.lastBlockTries.Add(1)
		return n - 1
	}
	return InvalidBlock
}

// updateElsewhere places an update that no related page could take: the
// nearest open page, the session's target (where the rows it moved before
// went), anywhere in the FSM.
func (p *locality) updateElsewhere(m *Map, r Request) uint32 {
	if blk := p.nearby(m, r, r.OldBlock); blk != InvalidBlock {
		return blk
	}
	if r.Target != InvalidBlock && r.Target != r.OldBlock && !p.isRelatedCandidate(m, r, r.Target) {
		p.c.targetTries.Add(1)
		return r.Target
	}
	return p.far(m, r)
}

func (p *locality) Retry(m *Map, r Request, tried uint32, avail int) uint32 {
	p.c.retries.Add(1)
	isTarget := tried == r.Target
	if isTarget {
		p.c.targetMisses.Add(1)
	}
	if tried == r.Back && backfills(r) {
		// The page left before the target: its owner goes on with the
		// target, as if it had not been tried.
		p.l.backMisses.Add(1)
		p.c.targetTries.Add(1)
		return r.Target
	}
	if n, small := p.smallTable(m); small {
		if isTarget && r.OldBlock == InvalidBlock {
			// The session leaves the page it was given fresh, as leave
			// forgets it past the threshold; else its entry would stay
			// until evicted and count as an active loader.
			p.forgetOwned(tried)
		}
		return p.smallNext(r, n, min(tried, max(n, 1)-1))
	}
	if r.OldBlock != InvalidBlock {
		// A related candidate that proved too full even with its reserve
		// (and pruned): record what it has, as for any page, and try the
		// next one, then the usual search.
		if next, ok := p.relatedNext(m, r, tried); ok {
			closed := p.closed(avail, r.SaveFree)
			rec := avail
			if closed {
				rec = 0
			}
			if !p.loaderBusy(tried) {
				p.record(m, tried, rec, closed)
			}
			if next != InvalidBlock {
				return next
			}
			return p.updateElsewhere(m, r)
		}
	}
	kind := p.forget(tried)
	switch kind {
	case kindNearby:
		p.l.nearbyMisses.Add(1)
	case kindFar:
		p.l.farMisses.Add(1)
	}
	if n, err := m.pool.NBlocks(m.rel, buffer.MainFork); avail == 0 && err == nil && tried >= n {
		return p.pastEnd(m, r, tried, n)
	}

	// Sticky closing: what the FSM is told about the page left behind.
	closed := p.closed(avail, r.SaveFree)
	rec := avail
	if closed {
		rec = 0
	}
	insert := r.OldBlock == InvalidBlock
	// Only an insert's target can be the session's own page: an update's
	// is the page its moved versions went to (SplitTargets).
	ownTarget := isTarget && insert
	owned, next := p.leave(m, tried, ownTarget, r)
	switch {
	case next != InvalidBlock:
		// The owner moves on to the next page of its run.
		p.record(m, tried, rec, closed)
		p.l.freshPages.Add(1)
		p.c.fsmAnswers.Add(1)
		return next
	case owned && !ownTarget:
		// Someone else's page, found through a stale FSM entry or the last
		// block: hide it (its owner records it when it leaves) and look
		// elsewhere.
		_ = m.RecordPageWithFreeSpace(tried, 0)
	default:
		p.record(m, tried, rec, closed)
	}
	if insert && ((owned && ownTarget) || r.Bulk || manyRows(r)) {
		// A loading session: whole fresh pages only.
		return p.loaderNext(m, tried, r)
	}

	// Nearby first, then (an update) the session's target, then anywhere.
	ref := tried
	if !insert {
		ref = r.OldBlock
	}
	if blk := p.nearby(m, r, ref); blk != InvalidBlock {
		return blk
	}
	// An update tries the session's target once, after the nearby pages
	// (Choose did when there were none).
	if !insert && kind == kindNearby && r.Target != InvalidBlock && r.Target != tried && r.Target != r.OldBlock &&
		!p.isRelatedCandidate(m, r, r.Target) {
		p.c.targetTries.Add(1)
		return r.Target
	}
	return p.far(m, r)
}

// pastEnd places the tuple after a target or FSM entry beyond the end of
// a truncated relation (n blocks): it forgets the block and places the
// tuple as if the session had no target.
func (p *locality) pastEnd(m *Map, r Request, tried, n uint32) uint32 {
	p.forgetOwned(tried)
	_ = m.RecordPageWithFreeSpace(tried, 0)
	if r.OldBlock != InvalidBlock {
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

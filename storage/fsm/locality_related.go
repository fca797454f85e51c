package fsm

import (
	"slices"

	"minipg/storage/buffer"
)

// Updates that leave their page: related pages first.
//
// An UPDATE whose new version does not fit on the old version's page would
// otherwise go wherever the FSM has room, and the rows updated together
// (the order lines of one delivered order) end up on blocks far apart; after
// a fillfactor load every nearby page is closed, so "wherever" is the end of
// the table. Locality first tries the pages of the rows related to this one
// (Request.Related: the blocks its transaction has updated or put moved
// versions on, and those its statement is about to update), most recent
// first, so that the moved versions of one transaction converge on one page
// and stay beside their siblings; then the old block's lower neighbour, then
// its upper one. On these pages the new version may use the fillfactor
// reserve: the reserve is kept for updates of the page's own rows, and a row
// updated together with them is one of their own. The lower neighbour comes
// first because in an append-ordered table it holds older rows, whose own
// updates are more likely done (the upper neighbour's reserve, taken first,
// pushes its own rows out in turn: measured, see README). Then the usual
// search: the nearest open page, the session's target, anywhere.
//
// An update of a single row found by a unique key (Request.SingleRow: a
// TPC-C stock or customer row) skips the related pages and the
// neighbours: it has no siblings, and in a table updated in place the
// space a neighbour got back from pruning is what its own rows need for
// their next update on the page. Taking it pushed those rows out in turn
// (measured: 8.5 times as many stock versions moved, see README). Its
// moved versions go to the session's update target instead, where the
// transaction's other moved versions are.
//
// The heap prunes a candidate page that proves too full before it gives up
// on it (its dead versions are often what fills it), and asks only for
// Need on a candidate (Fit).

// relatedCandidates are the pages an update that left OldBlock tries first,
// in order: the related blocks, then OldBlock-1, then OldBlock+1 (those
// that exist); OldBlock+1 before OldBlock-1 when only it has been changed
// since the redo point (Request.UpperLogged).
func (p *locality) relatedCandidates(m *Map, r Request) []uint32 {
	if r.OldBlock == InvalidBlock || r.SingleRow {
		return nil
	}
	n, err := m.pool.NBlocks(m.rel, buffer.MainFork)
	if err != nil {
		return nil
	}
	c := make([]uint32, 0, len(r.Related)+2)
	add := func(b uint32) {
		if b < n && b != r.OldBlock && !slices.Contains(c, b) {
			c = append(c, b)
		}
	}
	for _, b := range r.Related {
		add(b)
	}
	if r.UpperLogged {
		// The upper neighbour costs no full-page image, the lower one
		// would.
		add(r.OldBlock + 1)
		add(r.OldBlock - 1)
		return c
	}
	add(r.OldBlock - 1) // wraps past n for block 0
	add(r.OldBlock + 1)
	return c
}

// Fit lets an update's new version use the fillfactor reserve of the pages
// it tries first (relatedCandidates), fsm_related_reserve_percent of it
// (all by default); every other placement respects the reserve. The first
// insert of a batch (Request.NewBatch) does not fit on the session's
// target unless the target's run has room for the whole batch: the batch
// starts on fresh pages of a run of its own. A batch of groups (its first
// row carries GroupBytes) goes on where the session's last one ended and
// fills the rest of its run first (the run's rest would be left empty):
// its first group fits on the target only whole unless the session's
// next page is the next block (nextElsewhere: a page of its run follows),
// and the group rule below keeps the others whole. The first row of a
// group (Request.GroupBytes) does not fit on the last page of its
// session's run unless the whole group does: it starts the next run
// instead, so that no group straddles two runs, which are seldom
// adjacent. In a small table, whose next page may be any block, no page
// takes it unless the whole group fits.
func (p *locality) Fit(m *Map, r Request, blk uint32, free int) int {
	if r.ownRun() && blk == r.Target && r.OldBlock == InvalidBlock && !p.runHolds(blk, r.PagesLeft) {
		return MaxRequestSize + 1
	}
	if r.GroupBytes > 0 && r.OldBlock == InvalidBlock {
		// Where the next page is (nextElsewhere may search the map)
		// matters only when the page has less room than the group.
		if g := r.groupFreeSpace(); (free < 0 || free < g) && (p.smallNow.Load() || blk == r.Target && p.nextElsewhere(m, blk)) {
			return g
		}
	}
	if r.OldBlock != InvalidBlock && blk != r.OldBlock && !r.SingleRow {
		if slices.Contains(r.Related, blk) || blk+1 == r.OldBlock || blk == r.OldBlock+1 {
			kept := r.SaveFree * int(100-p.lendPct.Load()) / 100
			return min(r.Need+kept, r.TargetFreeSpace())
		}
	}
	return r.TargetFreeSpace()
}

// relatedFirst returns the first related candidate of an update, or
// InvalidBlock when there is none.
func (p *locality) relatedFirst(m *Map, r Request) uint32 {
	if c := p.relatedCandidates(m, r); len(c) > 0 {
		p.l.relatedAnswers.Add(1)
		return c[0]
	}
	return InvalidBlock
}

// relatedNext is the candidate after tried, which proved too full. ok is
// false when tried is not a candidate (the placement is past them), and
// blk is InvalidBlock when tried was the last one.
func (p *locality) relatedNext(m *Map, r Request, tried uint32) (blk uint32, ok bool) {
	c := p.relatedCandidates(m, r)
	i := slices.Index(c, tried)
	if i < 0 {
		return InvalidBlock, false
	}
	p.l.relatedMisses.Add(1)
	if i+1 < len(c) {
		p.l.relatedAnswers.Add(1)
		return c[i+1], true
	}
	return InvalidBlock, true
}

// isRelatedCandidate reports whether blk is one of r's related candidates,
// which the fallback search must not hand out again.
func (p *locality) isRelatedCandidate(m *Map, r Request, blk uint32) bool {
	return slices.Contains(p.relatedCandidates(m, r), blk)
}

package fsm

// Page states: each policy's own view of the blocks of its relation, what
// minipg_page_state(regclass) shows, so that a person studying the heap can
// see why a policy does or does not hand a page out. The map's category is
// part of that view (a page the map does not advertise is not offered by a
// search), so every state comes with the FSM's figure, and the policies that
// keep more than the map (locality's closed and reopened pages and its
// loading sessions' runs, append's extended pages) add what they keep.
//
// Like everything here a page state is a hint: it is what the policy would
// decide from what it knows now, and it may be stale by the time it is read.

// The states a policy reports (PageState.State).
const (
	// StateOpen: the map offers the page to new rows (its category, when it
	// is not 0, is how much space it is offered with). Every block of a
	// classic table is open, whatever the map records for it.
	StateOpen = "open"
	// StateClosed (locality): the page was left at or past the reopen
	// threshold and the map records 0 for it, so that its fillfactor
	// reserve is kept for updates of its own rows; VACUUM reopens it once
	// its used space is below fsm_reopen_percent.
	StateClosed = "closed"
	// StateReopened (locality): a page VACUUM found under the reopen
	// threshold after the map had shown it without room, and advertised
	// again; it stays reopened until it is closed again.
	StateReopened = "reopened"
	// StateLoading (locality): the page a session is filling after it was
	// given the page fresh (by extension or from its run); the map does not
	// advertise it, and the last-block fallback leaves it to its owner.
	StateLoading = "loading"
	// StateReserved (locality): a page of a loading session's run, not yet
	// handed out: taken out of the map and given only to that session.
	StateReserved = "reserved"
	// StateSmall (locality): a block of a table of at most
	// fsm_small_table_blocks blocks without an FSM fork, which has no map:
	// every placement tries its blocks in turn.
	StateSmall = "small"
	// StateAppend: a block of an append table, which has no map and never
	// offers a page again once the session filling it left it.
	StateAppend = "append"
	// StateExtended (append): a page added by a batched extension and not
	// handed out yet (append keeps them in memory, in block order).
	StateExtended = "extended"
)

// NoMap is PageState.Avail for a block of a relation its policy keeps no
// free space map for (append; locality's small tables).
const NoMap = -1

// PageState is one block as its relation's policy sees it.
type PageState struct {
	State string
	// Avail is the free space the FSM records for the block (the low end
	// of its category, category x 32, as pg_freespace shows it), or NoMap.
	Avail int
	// Owner is the backend pid of the session that is filling the block or
	// holds it in its run (Request.Owner; locality's loading and reserved
	// pages only), 0 for none.
	Owner int32
}

// mapStates returns the blocks 0 .. nblocks-1 in state, each with its
// recorded free space, reading the map's bottom level page by page.
func mapStates(m *Map, nblocks uint32, state string) []PageState {
	out := make([]PageState, nblocks)
	cats := make([]uint8, min(nblocks, SlotsPerPage))
	for first := uint32(0); first < nblocks; first += uint32(len(cats)) {
		c := cats[:min(uint32(len(cats)), nblocks-first)]
		m.leafRange(first, c)
		for i, cat := range c {
			out[first+uint32(i)] = PageState{State: state, Avail: CategoryToAvail(cat)}
		}
	}
	return out
}

// PageStates is classic's view: every block is open, with what the map
// records for it (0: the map does not know of room there, as PostgreSQL's
// freespace.c would not hand it out either).
func (p *classic) PageStates(m *Map, nblocks uint32) []PageState {
	return mapStates(m, nblocks, StateOpen)
}

// PageStates is append's view: no map; the pages of its last batched
// extension not handed out yet are extended, every other block append.
func (p *appendOnly) PageStates(m *Map, nblocks uint32) []PageState {
	out := make([]PageState, nblocks)
	for i := range out {
		out[i] = PageState{State: StateAppend, Avail: NoMap}
	}
	p.mu.Lock()
	for b := p.mu.next; b < p.mu.end && b < nblocks; b++ {
		out[b].State = StateExtended
	}
	p.mu.Unlock()
	return out
}

// Locality keeps, besides the map and the runs, one byte per block saying
// what it last decided about the page (pageOpen, pageClosed, pageReopened;
// pageUnknown for a page it has not decided about since it was extended or
// since the server started). It is written where the policy decides (a
// session leaving a page, VACUUM recording it, extension) and read only by
// PageStates; it grows with the relation (one byte a block, like the map's
// bottom level).
const (
	pageUnknown uint8 = iota
	pageOpen
	pageClosed
	pageReopened
)

// notePage records the policy's decision about blk.
func (p *locality) notePage(blk uint32, st uint8) {
	p.mu.Lock()
	p.notePageLocked(blk, st)
	p.mu.Unlock()
}

// notePageLocked records the policy's decision about blk: a page noted
// open keeps its reopened mark (it is still a page VACUUM reopened). The
// caller holds mu.
func (p *locality) notePageLocked(blk uint32, st uint8) {
	s := p.mu.pages
	if int(blk) >= len(s) {
		if st == pageUnknown {
			return
		}
		s = append(s, make([]uint8, int(blk)+1-len(s))...)
		p.mu.pages = s
	}
	if st == pageOpen && s[blk] == pageReopened {
		return
	}
	s[blk] = st
}

// forgetPagesLocked drops the decisions about blocks lo .. hi-1 (pages
// extended fresh, or taken into a run). The caller holds mu.
func (p *locality) forgetPagesLocked(lo, hi uint32) {
	s := p.mu.pages
	if int(lo) >= len(s) {
		return
	}
	clear(s[lo:min(int(hi), len(s))])
}

// PageStates is locality's view: small for a table without a map; else
// loading and reserved for the pages of the sessions' runs; closed for a
// page the map records as 0 (closed by a session leaving it or by VACUUM;
// after a restart, or for a page of the small-table phase never recorded,
// the map's 0 is all there is, and the policy treats such a page as closed:
// no search offers it until VACUUM measures it); reopened for a page VACUUM
// reopened and nobody closed since; open for the rest.
func (p *locality) PageStates(m *Map, nblocks uint32) []PageState {
	if _, small := p.smallTable(m); small {
		out := make([]PageState, nblocks)
		for i := range out {
			out[i] = PageState{State: StateSmall, Avail: NoMap}
		}
		return out
	}
	out := mapStates(m, nblocks, StateOpen)
	// A map page's worth of blocks at a time, so that placements do not
	// wait for the whole relation.
	for lo := 0; lo < len(out); lo += SlotsPerPage {
		p.mu.Lock()
		for b := lo; b < min(lo+SlotsPerPage, len(out)); b++ {
			switch {
			case out[b].Avail == 0:
				out[b].State = StateClosed
			case b < len(p.mu.pages) && p.mu.pages[b] == pageReopened:
				out[b].State = StateReopened
			}
		}
		p.mu.Unlock()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for b, rn := range p.mu.owned {
		if b < nblocks {
			out[b].State, out[b].Owner = StateLoading, rn.owner
		}
		for r := rn.next; r < rn.end && r < nblocks; r++ {
			out[r].State, out[r].Owner = StateReserved, rn.owner
		}
	}
	return out
}

package fsm

import (
	"fmt"
	"testing"

	"minipg/storage/page"
)

// statesOf returns the states of blocks lo .. hi-1 as "state" or
// "state/owner" strings.
func statesOf(t *testing.T, pol Policy, m *Map, lo, hi uint32) []string {
	t.Helper()
	n, err := m.pool.NBlocks(m.rel, 0)
	if err != nil {
		t.Fatal(err)
	}
	all := pol.PageStates(m, n)
	if uint32(len(all)) != n {
		t.Fatalf("%d states for %d blocks", len(all), n)
	}
	var out []string
	for b := lo; b < hi && b < n; b++ {
		s := all[b].State
		if all[b].Owner != 0 {
			s += fmt.Sprintf("/%d", all[b].Owner)
		}
		out = append(out, s)
	}
	return out
}

func equalStrings(a, b []string) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

// Every policy reports one state per block, named as it decides, with the
// map's figure where it keeps a map.
func TestPageStatesEveryPolicy(t *testing.T) {
	forEachPolicy(t, func(t *testing.T, newPolicy func() Policy) {
		m := newTestMap(t, 64)
		pol := newPolicy()
		h := newSimHeap(t, m, pol)
		target := InvalidBlock
		for i := 0; i < 600; i++ {
			r := Request{Need: 200, SaveFree: page.BlockSize / 10, Target: target, OldBlock: InvalidBlock, Owner: 77}
			target = h.insert(r)
		}
		// VACUUM as the heap runs it: through the policy when it decides
		// what VACUUM advertises.
		n := h.nblocks()
		if vr, ok := pol.(VacuumRecorder); ok {
			vr.BeginVacuum(m)
			for b := uint32(0); b < n; b++ {
				f, _ := h.actualFree(b)
				if err := vr.RecordVacuumed(m, b, f, page.BlockSize/10); err != nil {
					t.Fatal(err)
				}
			}
			mustVacuumAll(t, m)
		} else {
			h.vacuum()
		}
		if n < 10 {
			t.Fatalf("only %d blocks", n)
		}
		allowed := map[string][]string{
			"classic":  {StateOpen},
			"append":   {StateAppend, StateExtended},
			"locality": {StateOpen, StateClosed, StateReopened, StateLoading, StateReserved, StateSmall},
		}[pol.Name()]
		if allowed == nil {
			t.Skipf("no expectations for policy %s", pol.Name())
		}
		seen := map[string]int{}
		for blk, st := range pol.PageStates(m, n) {
			ok := false
			for _, a := range allowed {
				ok = ok || st.State == a
			}
			if !ok {
				t.Fatalf("block %d: state %q, not one of %s's %v", blk, st.State, pol.Name(), allowed)
			}
			seen[st.State]++
			switch {
			case pol.Name() == "append":
				if st.Avail != NoMap {
					t.Fatalf("append block %d shows map figure %d", blk, st.Avail)
				}
			case st.Avail != m.GetRecordedFreeSpace(uint32(blk)):
				t.Fatalf("block %d: avail %d, map records %d", blk, st.Avail, m.GetRecordedFreeSpace(uint32(blk)))
			}
			if st.Owner != 0 && st.Owner != 77 {
				t.Fatalf("block %d owned by %d", blk, st.Owner)
			}
			if (st.Owner != 0) != (st.State == StateLoading || st.State == StateReserved) {
				t.Fatalf("block %d: state %s with owner %d", blk, st.State, st.Owner)
			}
		}
		// Every page but the last took rows to its fillfactor: classic
		// shows them open with the little the map records, locality
		// closed (VACUUM took the session's run, which had not moved
		// since it began, for a session that went away).
		switch pol.Name() {
		case "classic":
			if seen[StateOpen] != int(n) {
				t.Fatalf("classic states %v", seen)
			}
		case "locality":
			if seen[StateClosed] < int(n)-1 {
				t.Fatalf("locality states %v of %d blocks", seen, n)
			}
		case "append":
			if seen[StateAppend] != int(n) {
				t.Fatalf("append states %v", seen)
			}
		}
		if got := pol.PageStates(m, 0); len(got) != 0 {
			t.Fatalf("states of an empty range: %v", got)
		}
	})
}

// A locality page closes when a session leaves it filled to its
// fillfactor, stays closed while VACUUM finds it past the reopen
// threshold, reopens below it, and closes again when filled; a restart
// keeps what the map keeps (closed) and forgets the rest.
func TestLocalityPageStatesClosing(t *testing.T) {
	m := newTestMap(t, 32)
	pol := newTestLocality(t)
	extendTo(t, m, 10)
	const saveFree = page.BlockSize * 20 / 100 // fillfactor 80
	for b := uint32(0); b < 10; b++ {
		mustRecord(t, m, b, EmptyPageFree)
	}
	r := Request{Need: 120, SaveFree: saveFree, Target: 3, OldBlock: InvalidBlock}
	// Filled to its fillfactor: the next row would eat into the reserve.
	pol.Retry(m, r, 3, saveFree+100)
	// Left nearly empty (a big row did not fit): open.
	r.Target = 4
	pol.Retry(m, r, 4, 6000)
	if got, want := statesOf(t, pol, m, 2, 6), []string{"open", "closed", "open", "open"}; !equalStrings(got, want) {
		t.Fatalf("after leaving: %v, want %v", got, want)
	}
	// VACUUM at 61% used: still closed.
	if err := pol.RecordVacuumed(m, 3, EmptyPageFree-4000, saveFree); err != nil {
		t.Fatal(err)
	}
	if got := statesOf(t, pol, m, 3, 4); got[0] != StateClosed {
		t.Fatalf("vacuumed at 61%%: %v", got)
	}
	// VACUUM at 46% used: reopened, and offered with its space.
	if err := pol.RecordVacuumed(m, 3, EmptyPageFree-3000, saveFree); err != nil {
		t.Fatal(err)
	}
	n, _ := m.pool.NBlocks(m.rel, 0)
	st := pol.PageStates(m, n)[3]
	if st.State != StateReopened || st.Avail < 5000 || st.Owner != 0 {
		t.Fatalf("vacuumed at 46%%: %+v", st)
	}
	// A session leaves it again at 40% used: still under the threshold,
	// still the page VACUUM reopened.
	r.Target = 3
	pol.Retry(m, r, 3, EmptyPageFree-2600)
	if got := statesOf(t, pol, m, 3, 4); got[0] != StateReopened {
		t.Fatalf("left under the threshold: %v", got)
	}
	// Filled again: closed; the next VACUUM under the threshold reopens
	// it once more.
	pol.Retry(m, r, 3, saveFree)
	if got := statesOf(t, pol, m, 3, 4); got[0] != StateClosed {
		t.Fatalf("filled again: %v", got)
	}
	if err := pol.RecordVacuumed(m, 3, EmptyPageFree-1000, saveFree); err != nil {
		t.Fatal(err)
	}
	// A page VACUUM finds open that never closed is open, not reopened.
	if err := pol.RecordVacuumed(m, 5, EmptyPageFree-1000, saveFree); err != nil {
		t.Fatal(err)
	}
	r.Target = 6
	pol.Retry(m, r, 6, 100)
	if got, want := statesOf(t, pol, m, 3, 7), []string{"reopened", "open", "open", "closed"}; !equalStrings(got, want) {
		t.Fatalf("after the second VACUUM: %v, want %v", got, want)
	}
	// A restart: a new policy value over the same map. Closed pages stay
	// closed (the map's 0), the reopened mark is gone.
	again := newTestLocality(t)
	if got, want := statesOf(t, again, m, 3, 7), []string{"open", "open", "open", "closed"}; !equalStrings(got, want) {
		t.Fatalf("after a restart: %v, want %v", got, want)
	}
	if got := pol.Stats().Own; got[cClosedPages] != 3 || got[cReopenedPages] != 2 {
		t.Fatalf("closed %d, reopened %d; want 3 and 2", got[cClosedPages], got[cReopenedPages])
	}
}

// A loading session's page is loading and its run reserved, both with the
// session's pid; as it fills its run the pages it leaves close and the
// next one becomes its loading page. A run VACUUM gives back is open.
func TestLocalityPageStatesRuns(t *testing.T) {
	m := newTestMap(t, 64)
	pol := newTestLocality(t)
	extendTo(t, m, 512) // a relation big enough for runs
	ra := Request{Need: 100, Target: InvalidBlock, OldBlock: InvalidBlock, Owner: 101}
	rb := ra
	rb.Owner = 102
	a, err := pol.Extend(m, ra)
	if err != nil {
		t.Fatal(err)
	}
	b, err := pol.Extend(m, rb)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := statesOf(t, pol, m, a, b+1), []string{"loading/101", "loading/102"}; !equalStrings(got, want) {
		t.Fatalf("first fresh pages: %v, want %v", got, want)
	}
	// A fills its page; B is active, so A gets a run.
	ra.Target = a
	next, err := extendAfterRetry(pol, m, ra, a)
	if err != nil {
		t.Fatal(err)
	}
	rn := pol.mu.owned[next]
	if rn == nil || rn.end-rn.next < 2 {
		t.Fatalf("no run after %d: %+v", next, rn)
	}
	end := rn.end
	states := statesOf(t, pol, m, a, end)
	if want := []string{"closed", "loading/102"}; !equalStrings(states[:2], want) {
		t.Fatalf("blocks %d, %d: %v, want %v", a, b, states[:2], want)
	}
	run := states[next-a:]
	if run[0] != "loading/101" {
		t.Fatalf("A's new page %d: %s", next, run[0])
	}
	for i, s := range run[1:] {
		if s != "reserved/101" {
			t.Fatalf("block %d of A's run: %s", next+1+uint32(i), s)
		}
	}
	// A fills its loading page and moves on to the next of its run.
	ra.Target = next
	if got := pol.Retry(m, ra, next, 50); got != next+1 {
		t.Fatalf("A's next page: %d, want %d", got, next+1)
	}
	if got := statesOf(t, pol, m, next, next+3); !equalStrings(got, []string{"closed", "loading/101", "reserved/101"}) {
		t.Fatalf("after one page of the run: %v", got)
	}
	// A goes away; a VACUUM that finds its run has not moved gives the
	// reserved pages back: open, with no owner. The page A was filling
	// is open too (it never closed), with what VACUUM found.
	pol.BeginVacuum(m)
	for blk := next + 1; blk < end; blk++ {
		avail := EmptyPageFree
		if blk == next+1 {
			avail = EmptyPageFree - 1000
		}
		if err := pol.RecordVacuumed(m, blk, avail, 0); err != nil {
			t.Fatal(err)
		}
	}
	for i, s := range statesOf(t, pol, m, next+1, end) {
		if s != StateOpen {
			t.Fatalf("block %d after VACUUM gave the run back: %s", next+1+uint32(i), s)
		}
	}
}

// A locality table of up to fsm_small_table_blocks blocks has no map:
// every block is small, with no map figure; past it the map's view.
func TestLocalityPageStatesSmallTable(t *testing.T) {
	m := newTestMap(t, 32)
	pol := newTestLocality(t)
	r := Request{Need: 100, Target: InvalidBlock, OldBlock: InvalidBlock, Owner: 5}
	for i := 0; i < 3; i++ {
		if _, err := pol.Extend(m, r); err != nil {
			t.Fatal(err)
		}
	}
	for blk, st := range pol.PageStates(m, 3) {
		if st != (PageState{State: StateSmall, Avail: NoMap}) {
			t.Fatalf("block %d of a 3-block table: %+v", blk, st)
		}
	}
	for i := 0; i < 3; i++ {
		if _, err := pol.Extend(m, r); err != nil {
			t.Fatal(err)
		}
	}
	r.Target = 5
	pol.Retry(m, r, 5, 50)
	for blk, st := range pol.PageStates(m, 6) {
		if st.State == StateSmall || st.Avail == NoMap {
			t.Fatalf("block %d of a 6-block table with a map: %+v", blk, st)
		}
	}
}

// One session fills a locality table through its small phase and past
// it: the pages it left are not its loading pages any more, only the one
// it is filling is.
func TestLocalityPageStatesAfterSmallPhase(t *testing.T) {
	m := newTestMap(t, 32)
	pol := newTestLocality(t)
	h := newSimHeap(t, m, pol)
	target := InvalidBlock
	for h.nblocks() < 8 {
		target = h.insert(Request{Need: 400, Target: target, OldBlock: InvalidBlock, Owner: 9})
	}
	for blk, st := range pol.PageStates(m, h.nblocks()) {
		switch {
		case uint32(blk) == target:
			if st.State != StateLoading || st.Owner != 9 {
				t.Errorf("the session's page %d: %+v", blk, st)
			}
		case st.State != StateClosed || st.Owner != 0:
			t.Errorf("block %d, filled and left: %+v", blk, st)
		}
	}
	if n := len(pol.mu.owned); n != 1 {
		t.Errorf("%d owned entries for one session", n)
	}
}

// append's pages of a batched extension not handed out yet are extended;
// the waiters take them in block order and they become append blocks.
func TestAppendPageStates(t *testing.T) {
	m := newTestMap(t, 64)
	pol := NewAppend()
	r := Request{Need: 200, Target: InvalidBlock, OldBlock: InvalidBlock}
	extendWithWaiters(t, m, pol, r, 3) // one extends by 3 pages, the two others take the extra pages
	blk, err := pol.Extend(m, r)       // nobody waits: one page, keep it
	if err != nil {
		t.Fatal(err)
	}
	// Four waiters now: the first extends for them all and the others
	// take three of the extra pages.
	extendWithWaiters(t, m, pol, r, 4)
	n, _ := m.pool.NBlocks(m.rel, 0)
	states := pol.PageStates(m, n)
	ext := 0
	for b, st := range states {
		if st.Avail != NoMap || st.Owner != 0 {
			t.Fatalf("block %d: %+v", b, st)
		}
		if st.State == StateExtended {
			ext++
			if uint32(b) <= blk {
				t.Fatalf("block %d, before the last extension, shown extended", b)
			}
		} else if st.State != StateAppend {
			t.Fatalf("block %d: %s", b, st.State)
		}
	}
	pol.(*appendOnly).mu.Lock()
	left := int(pol.(*appendOnly).mu.end - pol.(*appendOnly).mu.next)
	pol.(*appendOnly).mu.Unlock()
	if ext != left {
		t.Fatalf("%d blocks shown extended, %d not handed out", ext, left)
	}
	// Hand the rest out: none is extended any more.
	for i := 0; i < left; i++ {
		if b := pol.Choose(m, r); b == InvalidBlock {
			t.Fatal("no extended page handed out")
		}
	}
	for b, st := range pol.PageStates(m, n) {
		if st.State != StateAppend {
			t.Fatalf("block %d after all were handed out: %s", b, st.State)
		}
	}
}

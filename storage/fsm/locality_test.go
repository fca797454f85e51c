package fsm

import (
	"math/rand"
	"slices"
	"sort"
	"sync"
	"testing"

	"minipg/reloptions"
	"minipg/storage/buffer"
	"minipg/storage/page"
)

// newTestLocality returns a locality policy with the given parameters
// (name, value pairs) over the defaults.
func newTestLocality(t *testing.T, params ...string) *locality {
	t.Helper()
	opts := map[string]string{"fsm_policy": "locality"}
	for i := 0; i+1 < len(params); i += 2 {
		opts[params[i]] = params[i+1]
	}
	p, err := NewPolicy(reloptions.Layers(opts))
	if err != nil {
		t.Fatal(err)
	}
	return p.(*locality)
}

// extendTo makes the relation n blocks long.
func extendTo(t *testing.T, m *Map, n int) {
	t.Helper()
	if _, err := m.pool.Extend(m.rel, 0, n); err != nil {
		t.Fatal(err)
	}
}

func TestSearchNear(t *testing.T) {
	m := newTestMap(t, 32)
	extendTo(t, m, 9000)
	need := mustCat(1000)
	for _, c := range []struct {
		name   string
		record map[uint32]int
		ref    uint32
		window int
		want   uint32
	}{
		{"empty", nil, 100, 64, InvalidBlock},
		{"ref itself is never returned", map[uint32]int{100: 8000}, 100, 64, InvalidBlock},
		{"nearest wins over bigger", map[uint32]int{97: 1200, 110: 8000}, 100, 64, 97},
		{"equal distance: more space wins", map[uint32]int{95: 1200, 105: 4000}, 100, 64, 105},
		{"equal distance and space: lower", map[uint32]int{95: 4000, 105: 4000}, 100, 64, 95},
		{"too small is skipped", map[uint32]int{99: 900, 101: 500, 120: 1100}, 100, 64, 120},
		{"outside the window", map[uint32]int{30: 8000, 170: 8000}, 100, 64, InvalidBlock},
		{"window edge", map[uint32]int{36: 8000}, 100, 64, 36},
		{"near block 0", map[uint32]int{0: 8000}, 3, 64, 0},
		{"across an FSM page boundary", map[uint32]int{SlotsPerPage + 2: 8000}, SlotsPerPage - 3, 64, SlotsPerPage + 2},
		{"window 0", map[uint32]int{101: 8000}, 100, 0, InvalidBlock},
	} {
		t.Run(c.name, func(t *testing.T) {
			for b, a := range c.record {
				mustRecord(t, m, b, a)
			}
			if got := m.searchNear(c.ref, c.window, need); got != c.want {
				t.Errorf("searchNear(%d, %d) = %d, want %d", c.ref, c.window, got, c.want)
			}
			for b := range c.record {
				mustRecord(t, m, b, 0)
			}
		})
	}
}

// An update that does not fit on its old page, once its neighbours proved
// too full, goes to the nearest open page with room, even when the FSM's
// search from the root would offer a lower block; an insert whose target is
// full does the same around the target.
func TestLocalityNearbyFirst(t *testing.T) {
	m := newTestMap(t, 32)
	pol := newTestLocality(t)
	extendTo(t, m, 400)
	mustRecord(t, m, 5, 8000)   // far, but first for a search from the root
	mustRecord(t, m, 180, 3000) // 20 from 200
	mustRecord(t, m, 212, 2000) // 12 from 200: the nearest
	mustRecord(t, m, 213, 7000)
	mustVacuumAll(t, m)
	upd := Request{Need: 200, Target: InvalidBlock, OldBlock: 200}
	// The neighbours first (locality_related.go), both full here.
	if got := pol.Choose(m, upd); got != 199 {
		t.Fatalf("update of a row on block 200: %d, want its lower neighbour 199", got)
	}
	if got := pol.Retry(m, upd, 199, 100); got != 201 {
		t.Fatalf("after 199: %d, want the upper neighbour 201", got)
	}
	if got := pol.Retry(m, upd, 201, 100); got != 212 {
		t.Fatalf("after both neighbours: %d, want the nearest open page 212", got)
	}
	// 212 proved too full: next nearest.
	if got := pol.Retry(m, upd, 212, 100); got != 213 {
		t.Fatalf("after 212 was full: %d, want 213", got)
	}
	if got := m.GetRecordedFreeSpace(212); got != 0 {
		t.Fatalf("212, left at 100 bytes, is advertised with %d", got)
	}
	// The session's target comes before the rest of the FSM.
	mustRecord(t, m, 213, 0)
	mustRecord(t, m, 180, 0)
	upd.Target = 399
	if got := pol.Retry(m, upd, 201, 100); got != 399 {
		t.Fatalf("update, nothing near: %d, want the session's target 399", got)
	}
	upd.Target = InvalidBlock
	if got := pol.Retry(m, upd, 201, 100); got != 5 {
		t.Fatalf("update, nothing near, no target: %d, want the FSM's 5", got)
	}
	// An insert whose target (not a fresh page of its own) is full.
	mustRecord(t, m, 330, 1000)
	mustRecord(t, m, 300, 1000)
	ins := Request{Need: 200, Target: 320, OldBlock: InvalidBlock}
	if got := pol.Choose(m, ins); got != 320 {
		t.Fatalf("insert: %d, want the target", got)
	}
	if got := pol.Retry(m, ins, 320, 150); got != 330 {
		t.Fatalf("insert after a full target: %d, want the nearest, 330", got)
	}
	st := pol.Stats()
	if st.Own[cRelatedTries] != 2 || st.Own[cRelatedHits] != 0 {
		t.Fatalf("related counters %+v", st.Own)
	}
	if st.Own[cNearbyAnswers] != 3 || st.Own[cFarAnswers] != 1 || st.TargetTries != 2 {
		t.Fatalf("counters %+v", st)
	}
	if st.Own[cNearbyHits] != 2 { // 212 missed
		t.Fatalf("nearby hits %d, want 2", st.Own[cNearbyHits])
	}
}

// A page left at or past the reopen threshold is closed: the FSM offers it
// to nobody, and VACUUM reopens it only when it has emptied below the
// threshold.
func TestLocalityClosing(t *testing.T) {
	m := newTestMap(t, 32)
	pol := newTestLocality(t)
	extendTo(t, m, 10)
	const saveFree = page.BlockSize * 20 / 100 // fillfactor 80
	r := Request{Need: 120, SaveFree: saveFree, Target: 3, OldBlock: InvalidBlock}
	// The session leaves its target with 1,700 bytes: used is over half of
	// what an insert may fill (8168 - 1638), so the leftover is not
	// advertised.
	pol.Retry(m, r, 3, 1700)
	if got := m.GetRecordedFreeSpace(3); got != 0 {
		t.Fatalf("closed page advertised with %d bytes", got)
	}
	// A page left nearly empty (a big row did not fit) stays open.
	r.Target = 4
	pol.Retry(m, r, 4, 6000)
	if got := m.GetRecordedFreeSpace(4); got == 0 {
		t.Fatal("a page left at 27% used was closed")
	}
	// VACUUM: still past the threshold (used 4000 of 6530): closed.
	if err := pol.RecordVacuumed(m, 3, EmptyPageFree-4000, saveFree); err != nil {
		t.Fatal(err)
	}
	if got := m.GetRecordedFreeSpace(3); got != 0 {
		t.Fatalf("vacuumed page at 61%% advertised with %d", got)
	}
	// Below the threshold (used 3000 of 6530): reopened with its real space.
	if err := pol.RecordVacuumed(m, 3, EmptyPageFree-3000, saveFree); err != nil {
		t.Fatal(err)
	}
	if got := m.GetRecordedFreeSpace(3); got < 5000 {
		t.Fatalf("reopened page advertised with %d", got)
	}
	st := pol.Stats()
	if st.Own[cClosedPages] != 1 || st.Own[cReopenedPages] != 1 {
		t.Fatalf("closed %d, reopened %d; want 1 and 1", st.Own[cClosedPages], st.Own[cReopenedPages])
	}
	// fsm_reopen_percent 90 keeps the first page open where 50 closed it.
	pol2 := newTestLocality(t, "fsm_reopen_percent", "90")
	for _, c := range []struct {
		pol    *locality
		closed bool
	}{{pol, true}, {pol2, false}} {
		r.Target = 6
		c.pol.Retry(m, r, 6, 4000) // used 4168 of 6530: 64%
		if got := m.GetRecordedFreeSpace(6); (got == 0) != c.closed {
			t.Fatalf("%v: page at 64%% advertised with %d", c.pol, got)
		}
	}
	for _, bad := range [][2]string{{"fsm_reopen_percent", "101"}, {"fsm_nearby_window", "-1"}, {"fsm_nearby_window", "x"}} {
		if _, err := reloptions.CheckReloption(bad[0], bad[1]); err == nil {
			t.Errorf("%s = %s accepted", bad[0], bad[1])
		}
	}
}

// A session that keeps filling pages it was given fresh is loading: it is
// given whole fresh pages, never a partly used page nearby, and when
// another loader is active, a run of consecutive pages of its own.
func TestLocalityLoaderOwnPages(t *testing.T) {
	m := newTestMap(t, 64)
	pol := newTestLocality(t)
	extendTo(t, m, 512) // a relation big enough for runs
	r := Request{Need: 100, Target: InvalidBlock, OldBlock: InvalidBlock}
	// An open, partly used page right next to where the loader will be:
	// an ordinary insert would take it, a loader does not.
	mustRecord(t, m, 513, 4000)
	a, err := pol.Extend(m, r) // session A's first fresh page
	if err != nil || a != 512 {
		t.Fatalf("Extend: %d, %v", a, err)
	}
	b, err := pol.Extend(m, r) // session B's
	if err != nil || b != 513 {
		// 513 was recorded beyond the end; the extension takes it over.
		t.Logf("B got %d", b)
	}
	// A fills its page: it is loading now, and B is active, so A gets a
	// run of fresh pages.
	r.Target = a
	next, err := extendAfterRetry(pol, m, r, a)
	if err != nil {
		t.Fatal(err)
	}
	run := pol.mu.owned[next]
	if run == nil || run.end-run.next < 1 {
		t.Fatalf("A's new page %d has no run reserved after it: %+v", next, run)
	}
	// A walks through its run in block order, whatever B does.
	r.Target = b
	bNext, err := extendAfterRetry(pol, m, r, b)
	if err != nil {
		t.Fatal(err)
	}
	prev := next
	r.Target = next
	for i := 0; i < int(run.end-next)-1; i++ {
		got := pol.Retry(m, r, prev, 50)
		if got != prev+1 {
			t.Fatalf("A's page after %d: %d, want %d", prev, got, prev+1)
		}
		if got >= bNext && got < bNext+16 && pol.mu.owned[bNext] != nil {
			t.Fatalf("A was given %d, inside B's run from %d", got, bNext)
		}
		prev = got
		r.Target = got
	}
	if m.GetRecordedFreeSpace(next) != 0 {
		t.Fatal("a loader's page is advertised in the FSM")
	}
}

// extendAfterRetry reports tried (the target) full and follows the policy
// to a block, extending if it says so.
func extendAfterRetry(pol Policy, m *Map, r Request, tried uint32) (uint32, error) {
	blk := pol.Retry(m, r, tried, 50)
	if blk != InvalidBlock {
		return blk, nil
	}
	return pol.Extend(m, r)
}

// Four sessions load rows at once (the shape of a TPC-C load: one session
// per warehouse, single-row inserts). With the locality policy no page holds
// rows of two sessions (but where they started), and a session moves to the
// next block far more often than with classic, which interleaves the
// sessions' pages. Run it
// with -race: it is also the policy's concurrency test.
func TestLocalityConcurrentLoaders(t *testing.T) {
	perSession := 20000
	if testing.Short() {
		perSession = 6000
	}
	result := map[string][2]float64{}
	for _, name := range []string{"classic", "locality"} {
		m := newTestMap(t, 256)
		pol, _ := PolicyByName(name)
		h := newSimHeap(t, m, pol)
		const sessions = 4
		blocks := make([][]uint32, sessions) // each session's blocks, in order of use
		// The sessions run concurrently, but meet at a barrier every few
		// rows so that they progress together, as loaders on a busy server
		// do; left alone, goroutines that never block would each run for
		// long stretches and hardly interleave.
		const rowsPerRound = 16
		bar := newBarrier(sessions)
		var wg sync.WaitGroup
		for g := 0; g < sessions; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				rng := rand.New(rand.NewSource(int64(g)))
				target := InvalidBlock
				for i := 0; i < perSession; i++ {
					if i%rowsPerRound == 0 {
						bar.wait()
					}
					need := page.MaxAlignLen(90 + rng.Intn(20))
					r := Request{Need: need, SaveFree: page.BlockSize * 20 / 100, Target: target, OldBlock: InvalidBlock}
					blk := h.insert(r)
					if blk != target {
						blocks[g] = append(blocks[g], blk)
					}
					target = blk
				}
			}(g)
		}
		wg.Wait()
		owner := map[uint32]int{}
		sharedBlk := map[uint32]bool{}
		shared, moves, adjacent := 0, 0, 0
		for g, bs := range blocks {
			for i, b := range bs {
				if o, ok := owner[b]; ok && o != g && !sharedBlk[b] {
					sharedBlk[b] = true
					shared++
				}
				owner[b] = g
				if i > 0 {
					moves++
					if b == bs[i-1]+1 {
						adjacent++
					}
				}
			}
		}
		frac := float64(adjacent) / float64(max(1, moves))
		result[name] = [2]float64{float64(shared), frac}
		n := h.nblocks()
		st := pol.Stats()
		t.Logf("%s: %d blocks, %d shared by two sessions, %.1f%% of page changes to the next block, %+v",
			name, n, shared, 100*frac, st)
		if name == "locality" {
			// The blocks of a small table are shared (every insert tries
			// each of them); a session's first row, with no target yet,
			// may go to the last block as in classic (so that a table
			// written by many short sessions is not one row per page).
			// Beyond that a page is shared only through a stale FSM
			// entry, rarely.
			if shared > DefaultSmallTableBlocks+sessions {
				t.Errorf("locality: %d pages hold rows of two loading sessions", shared)
			}
			used := len(owner)
			if unused := int(n) - used; unused > max(minMaxReserved, int(n)/16)+maxLocalityExtendBy/4 {
				t.Errorf("locality: %d of %d pages extended and never used", unused, n)
			}
			if int64(int(n)-used) < st.Own[cReservedPages] {
				t.Errorf("more pages reserved (%d) than unused (%d)", st.Own[cReservedPages], int(n)-used)
			}
		}
		h.vacuum()
		if err := Check(m, h.actualFree, n); err != nil {
			t.Fatal(err)
		}
	}
	// Runs grow with the relation (at most a sixteenth of it is reserved),
	// so the short run, 400 blocks, gets runs of a few pages.
	want := 0.7
	if testing.Short() {
		want = 0.35
	}
	if l, c := result["locality"][1], result["classic"][1]; l < want || l <= 5*c {
		t.Errorf("locality: %.0f%% of page changes to the next block (classic %.0f%%), want >= %.0f%% and 5 times classic's", 100*l, 100*c, 100*want)
	}
}

// With sessions waiting for the extension lock, a big relation is extended
// by 20 pages a waiter (more than PostgreSQL 16's 64-page cap), a small one
// by no more than a sixteenth of its size beyond PostgreSQL's figure, and
// every page extended is handed out or findable in the FSM.
func TestLocalityBatchedExtension(t *testing.T) {
	for _, c := range []struct {
		nblocks, waiters, want int
	}{
		{0, 0, 1},
		{0, 7, 8},        // PostgreSQL 16's 1 x (1 + 7): a new table stays small
		{160, 7, 10},     // a sixteenth of 160
		{4000, 7, 140},   // 20 x 7
		{4000, 100, 250}, // a sixteenth of 4000
		{16000, 30, 512},
	} {
		if got := localityExtendBy(Request{}, c.waiters, c.nblocks); got != c.want {
			t.Errorf("localityExtendBy(%d waiters, %d blocks) = %d, want %d", c.waiters, c.nblocks, got, c.want)
		}
	}
	m := newTestMap(t, 512)
	pol := newTestLocality(t)
	extendTo(t, m, 4000)
	mustRecord(t, m, 3999, 0)
	r := Request{Need: 200, Target: InvalidBlock, OldBlock: InvalidBlock}
	got := extendWithWaiters(t, m, pol, r, 8)
	st := pol.Stats()
	if st.MaxExtendBy <= maxExtendBy {
		t.Fatalf("largest extension %d pages, want more than %d: %+v", st.MaxExtendBy, maxExtendBy, st)
	}
	n, _ := m.pool.NBlocks(m.rel, 0)
	reached := map[uint32]bool{}
	for _, b := range got {
		reached[b] = true
	}
	for b := uint32(4000); b < n; b++ {
		if !reached[b] && m.GetRecordedFreeSpace(b) < MaxRequestSize {
			t.Errorf("block %d extended, neither handed out nor in the FSM", b)
		}
	}
	sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
	t.Logf("%d blocks, handed out %v, %+v", n, got, st)
}

// barrier is a cyclic barrier for n goroutines.
type barrier struct {
	mu    sync.Mutex
	cond  *sync.Cond
	n     int
	count int
	round int
}

func newBarrier(n int) *barrier {
	b := &barrier{n: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

func (b *barrier) wait() {
	b.mu.Lock()
	defer b.mu.Unlock()
	round := b.round
	b.count++
	if b.count == b.n {
		b.count = 0
		b.round++
		b.cond.Broadcast()
		return
	}
	for round == b.round {
		b.cond.Wait()
	}
}

// VACUUM keeps the pages of a session that is loading out of the FSM, and
// gives back those of a session that has not moved since it began.
func TestLocalityVacuumReleasesStaleRuns(t *testing.T) {
	m := newTestMap(t, 64)
	pol := newTestLocality(t)
	extendTo(t, m, 100)
	pol.mu.Lock()
	pol.ownLocked(m, 100, 101, 105, true, false, 0) // stale: pages 101..104 reserved
	pol.mu.Unlock()
	extendTo(t, m, 10)
	pol.BeginVacuum(m)
	pol.mu.Lock()
	pol.ownLocked(m, 105, 106, 110, true, false, 0) // moved after the VACUUM began
	pol.mu.Unlock()
	if st := pol.Stats(); st.Own[cReservedPages] != 8 {
		t.Fatalf("reserved %d, want 8", st.Own[cReservedPages])
	}
	for b := uint32(100); b < 110; b++ {
		if err := pol.RecordVacuumed(m, b, EmptyPageFree, 0); err != nil {
			t.Fatal(err)
		}
	}
	for b := uint32(100); b < 110; b++ {
		got := m.GetRecordedFreeSpace(b)
		if want := b < 105; (got >= MaxRequestSize) != want {
			t.Errorf("block %d recorded %d; advertised should be %v", b, got, want)
		}
	}
	if st := pol.Stats(); st.Own[cReservedPages] != 4 {
		t.Fatalf("reserved %d after VACUUM, want the live run's 4", st.Own[cReservedPages])
	}
}

// Up to fsm_small_table_blocks blocks a table has no FSM fork: an insert
// tries its target, then every other block, then extends; the fork is
// made once the table has grown past the threshold.
func TestLocalitySmallTable(t *testing.T) {
	m := newTestMap(t, 32)
	pol := newTestLocality(t)
	forkBlocks := func() uint32 {
		n, err := m.pool.NBlocks(m.rel, 1)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	r := Request{Need: 100, Target: InvalidBlock, OldBlock: InvalidBlock}
	if got := pol.Choose(m, r); got != InvalidBlock {
		t.Fatalf("empty table: %d", got)
	}
	for i := 0; i < 3; i++ {
		if _, err := pol.Extend(m, r); err != nil {
			t.Fatal(err)
		}
	}
	// No target: the last block, then the others from the first.
	var got []uint32
	for blk := pol.Choose(m, r); blk != InvalidBlock; blk = pol.Retry(m, r, blk, 50) {
		got = append(got, blk)
	}
	if want := []uint32{2, 0, 1}; !equalBlocks(got, want) {
		t.Fatalf("tried %v, want %v", got, want)
	}
	// With a target: the target, then the others after it, wrapping.
	r.Target = 1
	got = got[:0]
	for blk := pol.Choose(m, r); blk != InvalidBlock; blk = pol.Retry(m, r, blk, 50) {
		got = append(got, blk)
	}
	if want := []uint32{1, 2, 0}; !equalBlocks(got, want) {
		t.Fatalf("tried %v, want %v", got, want)
	}
	// An update whose old page is block 0: the others, never block 0.
	upd := Request{Need: 100, Target: InvalidBlock, OldBlock: 0}
	got = got[:0]
	for blk := pol.Choose(m, upd); blk != InvalidBlock; blk = pol.Retry(m, upd, blk, 50) {
		got = append(got, blk)
	}
	if want := []uint32{1, 2}; !equalBlocks(got, want) {
		t.Fatalf("update tried %v, want %v", got, want)
	}
	if err := pol.RecordVacuumed(m, 1, 4000, 0); err != nil {
		t.Fatal(err)
	}
	if n := forkBlocks(); n != 0 {
		t.Fatalf("a 3-block table has a %d-block FSM fork", n)
	}
	// Past the threshold the map is used again.
	for i := 0; i < 3; i++ {
		if _, err := pol.Extend(m, r); err != nil {
			t.Fatal(err)
		}
	}
	r.Target = 5
	pol.Retry(m, r, 5, 50)
	if n := forkBlocks(); n == 0 {
		t.Fatal("a 6-block table still has no FSM fork")
	}
}

func equalBlocks(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// An update that leaves its page tries the pages of related rows first
// (most recent first, the old block itself excluded), then the old block's
// lower and upper neighbours, and may use their fillfactor reserve; every
// other page is asked for the reserve too.
func TestLocalityRelatedFirst(t *testing.T) {
	m := newTestMap(t, 32)
	pol := newTestLocality(t)
	extendTo(t, m, 100)
	upd := Request{Need: 120, SaveFree: 1638, Target: 90, OldBlock: 40, Related: []uint32{40, 41, 7, 500}}
	want := []uint32{41, 7, 39} // 500 is past the end; 41 is already listed
	got := []uint32{pol.Choose(m, upd)}
	for len(got) < len(want)+1 {
		got = append(got, pol.Retry(m, upd, got[len(got)-1], 50))
	}
	if !slices.Equal(got[:len(want)], want) {
		t.Fatalf("candidates %v, want %v first", got, want)
	}
	// After them: the session's target (nothing is open nearby).
	if got[len(want)] != 90 {
		t.Fatalf("after the candidates: %d, want the session's target 90", got[len(want)])
	}
	lp := pol
	for _, c := range []struct {
		blk  uint32
		want int
	}{{41, 120}, {7, 120}, {39, 120}, {40, 120 + 1638}, {60, 120 + 1638}} {
		if f := Fit(pol, nil, upd, c.blk, -1); f != c.want {
			t.Errorf("Fit(%d) = %d, want %d", c.blk, f, c.want)
		}
	}
	ins := Request{Need: 120, SaveFree: 1638, Target: 41, OldBlock: InvalidBlock, Related: []uint32{41}}
	if f := lp.Fit(nil, ins, 41, -1); f != ins.TargetFreeSpace() {
		t.Errorf("an insert's Fit %d, want the reserve kept (%d)", f, ins.TargetFreeSpace())
	}
	// fsm_related_reserve_percent = 25: a related page or neighbour lends
	// a quarter of its reserve and keeps the rest.
	part := newTestLocality(t, "fsm_related_reserve_percent", "25")
	for _, c := range []struct {
		blk  uint32
		want int
	}{{41, 120 + 1638*3/4}, {39, 120 + 1638*3/4}, {40, 120 + 1638}, {60, 120 + 1638}} {
		if f := Fit(part, nil, upd, c.blk, -1); f != c.want {
			t.Errorf("lending 25%%: Fit(%d) = %d, want %d", c.blk, f, c.want)
		}
	}
	// Block 0 has no lower neighbour.
	first := Request{Need: 120, Target: InvalidBlock, OldBlock: 0}
	if c := lp.relatedCandidates(m, first); !slices.Equal(c, []uint32{1}) {
		t.Fatalf("candidates of block 0: %v, want [1]", c)
	}
	// The neighbours: the lower one first, unless only the upper one has
	// been changed since the redo point.
	nb := Request{Need: 120, Target: InvalidBlock, OldBlock: 40, Related: []uint32{40}}
	if c := lp.relatedCandidates(m, nb); !slices.Equal(c, []uint32{39, 41}) {
		t.Fatalf("neighbours %v, want [39 41]", c)
	}
	nb.UpperLogged = true
	if c := lp.relatedCandidates(m, nb); !slices.Equal(c, []uint32{41, 39}) {
		t.Fatalf("neighbours with the upper one logged %v, want [41 39]", c)
	}
	// The classic policy asks every page for the reserve.
	if f := Fit(NewClassic(), nil, upd, 41, -1); f != upd.TargetFreeSpace() {
		t.Errorf("classic Fit %d, want %d", f, upd.TargetFreeSpace())
	}
}

// A loading session that ends gives its reserved pages back (RunReleaser):
// they are advertised as empty, the session keeps its page, its next run
// still doubles, and a loader that needs fresh pages takes the released
// ones before extending.
func TestLocalityReleaseRun(t *testing.T) {
	m := newTestMap(t, 64)
	pol := newTestLocality(t)
	extendTo(t, m, 200)
	pol.mu.Lock()
	pol.ownLocked(m, 100, 101, 117, true, false, 0) // page 100, pages 101..116 reserved
	pol.mu.Unlock()
	pol.ReleaseRun(m, 100, 0)
	pol.ReleaseRun(m, 100, 0) // twice: nothing more to give back
	pol.ReleaseRun(m, 50, 0)  // not a loader's page: nothing happens
	if st := pol.Stats(); st.Own[cReservedPages] != 0 {
		t.Fatalf("reserved %d after the release, want 0", st.Own[cReservedPages])
	}
	for b := uint32(101); b < 117; b++ {
		if got := m.GetRecordedFreeSpace(b); got < MaxRequestSize {
			t.Fatalf("released block %d recorded %d, want advertised as empty", b, got)
		}
	}
	if rn := pol.mu.owned[100]; rn == nil || rn.size != 17 {
		t.Fatalf("the session's own page lost its entry or run size: %+v", rn)
	}
	// Another loader that needs fresh pages gets the released ones, the
	// nearest to where it is first.
	r := Request{Need: 100, Target: 150, OldBlock: InvalidBlock}
	pol.mu.Lock()
	pol.ownLocked(m, 150, 151, 151, true, false, 0)
	pol.mu.Unlock()
	blk := pol.Retry(m, r, 150, 50)
	if blk == InvalidBlock {
		blk = pol.takeFresh(m, 150, r)
	}
	if blk < 101 || blk >= 117 {
		t.Fatalf("a loader leaving 150 was given %d, want one of the released pages 101..116", blk)
	}
}

// A loading session that says how many pages its batch still has to fill
// (Request.PagesLeft) gets a run of that many and a margin, not the doubled
// one; without it, the run doubles the last.
func TestLocalityRunSizedByPagesLeft(t *testing.T) {
	m := newTestMap(t, 64)
	pol := newTestLocality(t)
	extendTo(t, m, 4000)
	publishEmpty(m, 0, 4000)
	pol.mu.Lock()
	pol.ownLocked(m, 3999, 3999, 3999, true, true, 2) // another loader, in bulk
	pol.mu.prevRun[500] = 40                          // the session's last run
	pol.mu.Unlock()
	runOf := func(blk uint32) int {
		pol.mu.Lock()
		defer pol.mu.Unlock()
		rn := pol.mu.owned[blk]
		if rn == nil {
			t.Fatalf("block %d not owned", blk)
		}
		return int(rn.end - blk)
	}
	blk := pol.takeFresh(m, 500, Request{Need: 100, Target: 500, OldBlock: InvalidBlock, PagesLeft: 5, Owner: 1})
	if n := runOf(blk); n != batchRunPages(5) || n <= 5 {
		t.Fatalf("run of %d pages for a batch with 5 pages left, want %d (5 and a margin)", n, batchRunPages(5))
	}
	pol.mu.Lock()
	pol.mu.prevRun[blk] = 40
	pol.mu.Unlock()
	next := pol.takeFresh(m, 2000, Request{Need: 100, Target: blk, OldBlock: InvalidBlock, Owner: 1})
	if n := runOf(next); n != 80 {
		t.Fatalf("run of %d pages without PagesLeft after a run of 40, want 80", n)
	}
}

// The first insert of a batch of known size (Request.NewBatch) leaves the
// session's page when its run cannot hold the batch: what is left of the
// run goes back to the map, the nearest empty pages are too few for the
// batch, and the extension gives it a run of its size and a margin, which
// the bound on reserved pages does not evict. A run that can hold the
// batch is kept.
func TestLocalityNewBatchGetsItsOwnRun(t *testing.T) {
	m, pol := batchLoaders(t, 1000, 105, 500) // the session: 4 pages left
	r := Request{Need: 100, Target: 100, OldBlock: InvalidBlock, NewBatch: true, PagesLeft: 200, Owner: 1}
	if f := pol.Fit(m, r, 100, -1); f <= MaxRequestSize {
		t.Fatalf("Fit of a batch's first row on a page with 4 pages of run left: %d, want more than a page", f)
	}
	if f := pol.Fit(m, r, 101, -1); f != r.TargetFreeSpace() {
		t.Fatalf("Fit on another page %d, want %d", f, r.TargetFreeSpace())
	}
	if blk := pol.Retry(m, r, 100, 3000); blk != InvalidBlock {
		t.Fatalf("Retry gave block %d; want none (4 empty pages cannot hold the batch): extend", blk)
	}
	for b := uint32(101); b < 105; b++ {
		if got := m.GetRecordedFreeSpace(b); got < MaxRequestSize {
			t.Fatalf("block %d of the run left recorded %d, want advertised as empty", b, got)
		}
	}
	blk, err := pol.Extend(m, r)
	if err != nil {
		t.Fatal(err)
	}
	want := batchRunPages(200)
	pol.mu.Lock()
	rn := pol.mu.owned[blk]
	pol.mu.Unlock()
	if blk != 1000 || rn == nil || int(rn.end-blk) != want || !rn.bulk {
		t.Fatalf("extension gave block %d with run %+v, want block 1000 with a batch run of %d pages", blk, rn, want)
	}
	// A second loader's batch run, and a stale run: more reserved than the
	// bound (a sixteenth of the relation, 128 pages at least). Only the
	// stale run is evicted.
	pol.mu.Lock()
	pol.ownLocked(m, 300, 301, 451, true, false, 3) // 150 pages: past the bound alone
	pol.mu.seq += activeRunMoves                    // and its session gone
	pol.mu.Unlock()
	r2 := Request{Need: 100, Target: 500, OldBlock: InvalidBlock, NewBatch: true, PagesLeft: 200, Owner: 2}
	if got := pol.Retry(m, r2, 500, 3000); got != InvalidBlock {
		t.Fatalf("second loader: Retry gave %d, want none", got)
	}
	blk2, err := pol.Extend(m, r2)
	if err != nil {
		t.Fatal(err)
	}
	pol.mu.Lock()
	_, first := pol.mu.owned[blk]
	_, second := pol.mu.owned[blk2]
	_, stale := pol.mu.owned[300]
	reserved := pol.mu.reserved
	pol.mu.Unlock()
	if !first || !second || stale {
		t.Fatalf("after a second batch run: first kept %v, second %v, stale kept %v; want true, true, false", first, second, stale)
	}
	if reserved != int64(2*(want-1)) {
		t.Fatalf("%d pages reserved, want the two batch runs' %d", reserved, 2*(want-1))
	}
	// A run with room for the whole batch is kept.
	pol.mu.Lock()
	pol.ownLocked(m, 700, 701, 701+uint32(want), true, false, 4)
	pol.mu.Unlock()
	r3 := Request{Need: 100, Target: 700, OldBlock: InvalidBlock, NewBatch: true, PagesLeft: 200, Owner: 4}
	if f := pol.Fit(m, r3, 700, -1); f != r3.TargetFreeSpace() {
		t.Fatalf("Fit on a page whose run holds the batch: %d, want %d", f, r3.TargetFreeSpace())
	}
	if got := pol.Retry(m, r3, 700, 10); got != 701 {
		t.Fatalf("a full page whose run holds the batch: Retry gave %d, want the run's next page 701", got)
	}
}

// A batch does not start on the page it leaves, even when that page is
// empty (its rows deleted and vacuumed): Fit refuses it the session's
// target, and a fresh page found in the map must be another one, or the
// placement would go round for ever.
func TestLocalityNewBatchLeavesAnEmptyTarget(t *testing.T) {
	m, pol := batchLoaders(t, 300, 101, 250)
	publishEmpty(m, 101, 140) // room for the batch right after it
	// No nearby search: the map's first empty page is the page left.
	pol.window.Store(0)
	r := Request{Need: 100, Target: 100, OldBlock: InvalidBlock, NewBatch: true, PagesLeft: 20, Owner: 1}
	blk := pol.Retry(m, r, 100, MaxRequestSize)
	if blk == 100 {
		t.Fatal("the batch was given back the page it left")
	}
	if blk == InvalidBlock {
		if blk, _ = pol.Extend(m, r); blk == 100 || blk == InvalidBlock {
			t.Fatalf("extension gave %d", blk)
		}
	}
	if f := pol.Fit(m, r, blk, -1); f > MaxRequestSize {
		t.Fatalf("Fit refuses the batch's new page %d", blk)
	}
}

// batchLoaders returns a map of blocks blocks and a locality policy with
// two loading sessions: session 1 filling block 100 with pages 101 ..
// end-1 reserved, and session 2, loading in bulk, filling block other.
func batchLoaders(t *testing.T, blocks int, end, other uint32) (*Map, *locality) {
	t.Helper()
	m := newTestMap(t, 64)
	pol := newTestLocality(t)
	extendTo(t, m, blocks)
	pol.mu.Lock()
	pol.ownLocked(m, 100, 101, end, true, false, 1)
	pol.ownLocked(m, other, other+1, other+1, true, true, 2)
	pol.mu.Unlock()
	return m, pol
}

// The first row of a group (Request.GroupBytes) fits on the last page of
// its session's run, when the relation goes on past it or the map has an
// empty page elsewhere, only with room for the whole group, and on any
// other page as any row does; in a small table, whose next page may be
// any block, on no page without the group's room. A batch of groups
// starts on its session's target under the same rule.
func TestLocalityGroupFit(t *testing.T) {
	m, pol := batchLoaders(t, 300, 101, 250) // 100: run ended; 250: run ended
	pol.mu.Lock()
	pol.ownLocked(m, 200, 201, 210, true, false, 3) // 200: pages reserved after it
	pol.mu.Unlock()
	pol.extendedTo.Store(300) // as Extend leaves it
	r := Request{Need: 96, Target: 100, OldBlock: InvalidBlock, GroupBytes: 1500, Owner: 1}
	row := r.TargetFreeSpace()
	group := 1500 - page.ItemIDSize
	if f := pol.Fit(m, r, 100, -1); f != group {
		t.Fatalf("the run's last page must have %d free for the group, Fit says %d", group, f)
	}
	// With the page's free space known: as much as the group takes passes
	// the fit test either way, less than that only with the row's room.
	for _, free := range []int{group, group - 1, row - 1} {
		if f := pol.Fit(m, r, 100, free); (f <= free) != (free >= group) {
			t.Fatalf("the run's last page with %d free: Fit says %d (group %d, row %d)", free, f, group, row)
		}
	}
	for _, c := range []struct {
		what   string
		target uint32
		blk    uint32
		group  int
	}{
		{"a page with its run going on", 200, 200, 1500},
		{"a page other than the target", 100, 150, 1500},
		{"a row inside a group", 100, 100, 0},
	} {
		r := r
		r.Target, r.GroupBytes = c.target, c.group
		if f := pol.Fit(m, r, c.blk, -1); f != row {
			t.Fatalf("%s: Fit says %d, want %d (the row's)", c.what, f, row)
		}
	}
	big := r
	big.GroupBytes = 2 * MaxRequestSize
	if f := pol.Fit(m, big, 100, -1); f > MaxRequestSize {
		t.Fatalf("a group larger than a page asks for %d: no page could take it", f)
	}

	// A lone loader's page is the last block, its next page the adjacent
	// extension: no group rule.
	lone, lonePol := newTestMap(t, 64), newTestLocality(t)
	extendTo(t, lone, 101)
	lonePol.extendedTo.Store(101)
	lonePol.mu.Lock()
	lonePol.ownLocked(lone, 100, 101, 101, true, false, 1)
	lonePol.mu.Unlock()
	if f := lonePol.Fit(lone, r, 100, -1); f != row {
		t.Fatalf("a lone loader's last page: Fit says %d, want %d (the row's)", f, row)
	}
	// Unless the map has an empty page its next run would start on.
	if err := lone.RecordPageWithFreeSpace(50, MaxRequestSize); err != nil {
		t.Fatal(err)
	}
	if f := lonePol.Fit(lone, r, 100, -1); f != group {
		t.Fatalf("a lone loader's last page, an empty page elsewhere: Fit says %d, want the group's %d", f, group)
	}

	// A batch of groups goes on on its target: its first row fits there
	// as any row does while the session's run goes on, else only with the
	// group's room, also on a page the policy holds no run for.
	batch := r
	batch.NewBatch, batch.PagesLeft = true, 400
	for _, c := range []struct {
		what string
		blk  uint32
		want int
	}{
		{"a page with its run going on", 200, row},
		{"the run's last page", 100, group},
		{"a page with no run", 150, group},
	} {
		batch.Target = c.blk
		if f := pol.Fit(m, batch, c.blk, -1); f != c.want {
			t.Fatalf("a batch's first row, %s: Fit says %d, want %d", c.what, f, c.want)
		}
	}
	norun := r
	norun.Target = 150
	if f := pol.Fit(m, norun, 150, -1); f != group {
		t.Fatalf("a group's first row on a target with no run (given back): Fit says %d, want the group's %d", f, group)
	}
	untold := batch
	untold.GroupBytes, untold.Target = 0, 200
	if f := pol.Fit(m, untold, 200, -1); f <= MaxRequestSize {
		t.Fatalf("a batch without groups on a page whose run cannot hold it: Fit says %d, want more than a page", f)
	}

	small := newTestMap(t, 64)
	extendTo(t, small, 3)
	if _, ok := pol.smallTable(small); !ok {
		t.Fatal("3 blocks without a map fork: not a small table")
	}
	r.Target = 150
	if f := pol.Fit(small, r, 1, -1); f != group {
		t.Fatalf("small table: Fit says %d, want the group's %d", f, group)
	}
}

// A loading session's row that fits on the page it left last (Request.Back,
// by what it found there) goes there before its target; a miss there sends
// it back to its target. Groups, a transaction's run, a batch's first row,
// a session not loading and an update are placed as before.
func TestLocalityBack(t *testing.T) {
	m, pol := batchLoaders(t, 1000, 105, 500)
	r := Request{Need: 300, Target: 101, OldBlock: InvalidBlock, BurstPages: 5, Back: 100, BackFree: 400, Owner: 1}
	if blk := pol.Choose(m, r); blk != 100 {
		t.Fatalf("Choose gave %d, want the page left last, 100", blk)
	}
	if blk := pol.Retry(m, r, 100, 200); blk != 101 {
		t.Fatalf("Retry of the page left last gave %d, want the target, 101", blk)
	}
	if s := pol.Stats().Own; s[cBackTries] != 1 || s[cBackHits] != 0 {
		t.Fatalf("back tries %d, hits %d; want 1, 0", s[cBackTries], s[cBackHits])
	}
	bulk := r
	bulk.BurstPages, bulk.Bulk = 0, true
	if blk := pol.Choose(m, bulk); blk != 100 {
		t.Fatalf("a bulk insert: Choose gave %d, want 100", blk)
	}
	for name, mod := range map[string]func(*Request){
		"too big":        func(r *Request) { r.Need = 401 },
		"fillfactor":     func(r *Request) { r.SaveFree = 101 },
		"none":           func(r *Request) { r.BackFree = 0 },
		"the target":     func(r *Request) { r.Back = r.Target },
		"not loading":    func(r *Request) { r.BurstPages = 1 },
		"a group":        func(r *Request) { r.GroupBytes = 300 },
		"a run":          func(r *Request) { r.RunBytes = 350 },
		"a batch":        func(r *Request) { r.NewBatch = true },
		"a multi-insert": func(r *Request) { r.NumPages = 2 },
	} {
		r := r
		mod(&r)
		if blk := pol.Choose(m, r); blk != r.Target {
			t.Errorf("%s: Choose gave %d, want the target %d", name, blk, r.Target)
		}
	}
}

// Past the bound on reserved pages, the stalest run is given back; a
// session still loading keeps the page after its own, so that the group
// it started on its page because a page of its run followed goes on on
// the next block (nextElsewhere stays false for it).
func TestLocalityEvictionKeepsTheNextPage(t *testing.T) {
	m := newTestMap(t, 32)
	extendTo(t, m, 1000)
	pol := newTestLocality(t)
	pol.mu.Lock()
	pol.ownLocked(m, 100, 101, 201, true, false, 1) // 100 pages reserved
	pol.ownLocked(m, 300, 301, 351, true, false, 2) // 150: past the bound (128)
	pol.mu.Unlock()
	pol.mu.Lock()
	first, second := pol.mu.owned[100], pol.mu.owned[300]
	reserved := pol.mu.reserved
	pol.mu.Unlock()
	if first == nil || first.next != 101 || first.end != 102 || second == nil || second.end != 351 {
		t.Fatalf("runs after the bound was passed: %+v, %+v; want the first trimmed to 101..102, the second whole", first, second)
	}
	if reserved != 51 {
		t.Fatalf("%d pages reserved, want 51", reserved)
	}
	if pol.nextElsewhere(m, 100) {
		t.Fatalf("nextElsewhere of a trimmed run's page: true, want false (its next page is kept)")
	}
	for b := uint32(102); b < 201; b++ {
		if got := m.GetRecordedFreeSpace(b); got < MaxRequestSize {
			t.Fatalf("block %d given back recorded %d, want advertised as empty", b, got)
		}
	}
	// A session gone (its run has not moved in activeRunMoves moves of
	// all runs) loses its whole run, and its entry.
	pol.mu.Lock()
	pol.mu.seq += activeRunMoves
	pol.ownLocked(m, 500, 501, 600, true, false, 3)
	pol.ownLocked(m, 700, 701, 800, true, false, 4)
	_, kept1 := pol.mu.owned[100]
	_, kept2 := pol.mu.owned[300]
	pol.mu.Unlock()
	if kept1 || kept2 {
		t.Fatalf("stale runs kept: %v, %v; want both given back", kept1, kept2)
	}
}

// A lone loader's next page is the adjacent extension; when nextElsewhere
// says so, the loader claims that block, and a second session that
// extends the relation first gives it to the loader, so that the group of
// rows the loader started on its page goes on on the next block. That
// holds when the loader has already left its page (it found it full and
// waits for the extension lock), and when the next block is an empty page
// of the map, which the run takes at once.
func TestLocalityClaimedNextBlock(t *testing.T) {
	m := newTestMap(t, 32)
	extendTo(t, m, 100)
	pol := newTestLocality(t)
	loader := Request{Need: 100, Target: InvalidBlock, OldBlock: InvalidBlock, BurstPages: 5, Owner: 1}
	blk, err := pol.Extend(m, loader)
	if err != nil || blk != 100 {
		t.Fatalf("the loader's extension gave %d (%v), want 100", blk, err)
	}
	// An extension that sized itself before the loader looked takes the
	// next block: the loader is told its next page is elsewhere.
	pol.mu.Lock()
	pol.mu.extending = 102
	pol.mu.Unlock()
	if !pol.nextElsewhere(m, 100) {
		t.Fatal("with an extension from 101 in progress, the next page does not count as elsewhere")
	}
	pol.mu.Lock()
	pol.mu.extending = 0
	pol.mu.Unlock()
	if pol.nextElsewhere(m, 100) {
		t.Fatal("a lone loader's next page counts as elsewhere, want the adjacent extension")
	}
	// A session that is not loading extends: the claimed block is lent.
	other := Request{Need: 100, Target: InvalidBlock, OldBlock: InvalidBlock, Owner: 2}
	blk2, err := pol.Extend(m, other)
	if err != nil || blk2 != 102 {
		t.Fatalf("a second session's extension gave %d (%v), want 102 (101 lent to the loader)", blk2, err)
	}
	if pol.nextElsewhere(m, 100) {
		t.Fatal("after the second extension the loader's next page counts as elsewhere")
	}
	loader.Target = 100
	if next := pol.Retry(m, loader, 100, 10); next != 101 {
		t.Fatalf("the loader leaving its page got %d, want 101", next)
	}

	// The loader goes on alone (the other session's entry goes stale),
	// extends, and claims the block after its new page.
	pol.mu.Lock()
	pol.mu.seq += activeRunMoves
	pol.mu.Unlock()
	loader.Target = 101
	if next := pol.Retry(m, loader, 101, 10); next != InvalidBlock {
		t.Fatalf("the loader leaving the end of its run got %d, want InvalidBlock (extend)", next)
	}
	if blk, err = pol.Extend(m, loader); err != nil || blk != 103 {
		t.Fatalf("the loader's extension gave %d (%v), want 103", blk, err)
	}
	if pol.nextElsewhere(m, 103) {
		t.Fatal("the loader's next page counts as elsewhere, want the adjacent extension")
	}
	// It fills 103 and leaves it before anyone extends: its entry stays,
	// and the next extension, by another session, lends it 104.
	loader.Target = 103
	if next := pol.Retry(m, loader, 103, 10); next != InvalidBlock {
		t.Fatalf("the loader leaving 103 got %d, want InvalidBlock (extend)", next)
	}
	if blk2, err = pol.Extend(m, other); err != nil || blk2 != 105 {
		t.Fatalf("another session's extension gave %d (%v), want 105 (104 lent to the loader)", blk2, err)
	}
	// Another session whose target is the loader's old page (an update's
	// target may be any page) does not get the lent block.
	if blk2, err = pol.Extend(m, Request{Need: 100, Target: 103, OldBlock: 7, Owner: 3}); err != nil || blk2 == 104 {
		t.Fatalf("a session with the loader's page for target got %d (%v), want anything but 104", blk2, err)
	}
	before, _ := m.pool.NBlocks(m.rel, buffer.MainFork)
	if blk, err = pol.Extend(m, loader); err != nil || blk != 104 {
		t.Fatalf("the loader's extension after leaving 103 gave %d (%v), want 104, lent to it", blk, err)
	}
	if n, _ := m.pool.NBlocks(m.rel, buffer.MainFork); n != before {
		t.Fatalf("the relation has %d blocks after the loader took its lent page, want %d (no extension)", n, before)
	}

	// A loader whose run was given back (its transaction ended) claims
	// nothing any more: the next extension takes the first new block.
	n0, _ := m.pool.NBlocks(m.rel, buffer.MainFork)
	pol.mu.Lock()
	pol.mu.seq += activeRunMoves
	pol.ownLocked(m, n0-1, n0, n0, true, false, 4)
	pol.mu.Unlock()
	if pol.nextElsewhere(m, n0-1) {
		t.Fatal("a lone loader at the end of the relation: next page counts as elsewhere")
	}
	pol.ReleaseRun(m, n0-1, 0)
	if blk, err := pol.Extend(m, other); err != nil || blk != n0 {
		t.Fatalf("an extension after the last block's loader gave its run back gave %d (%v), want %d", blk, err, n0)
	}

	// The next block is an empty page of the map: the run takes it, and
	// a loader looking for fresh pages does not get it.
	m = newTestMap(t, 32)
	extendTo(t, m, 110)
	publishEmpty(m, 106, 110)
	pol = newTestLocality(t)
	pol.extendedTo.Store(106)
	pol.mu.Lock()
	pol.ownLocked(m, 105, 106, 106, true, false, 1)
	pol.mu.Unlock()
	if pol.nextElsewhere(m, 105) {
		t.Fatal("the next block, empty in the map, counts as elsewhere")
	}
	if got := m.GetRecordedFreeSpace(106); got != 0 {
		t.Fatalf("the block taken into the run records %d, want 0", got)
	}
	if blk := pol.takeFresh(m, 105, Request{Need: 100, Target: 50, OldBlock: InvalidBlock, BurstPages: 5, Owner: 3}); blk == 106 {
		t.Fatal("another loader was given the block the run took")
	}
	loader.Target = 105
	if next := pol.Retry(m, loader, 105, 10); next != 106 {
		t.Fatalf("the loader leaving 105 got %d, want 106", next)
	}
}

// A loader's first row into a relation (LoadingTxn, no target yet) starts
// on a fresh page, not on the last block, which another loader may just
// have left at the end of its run: the rows of the group it starts would
// go on after that loader's next run.
func TestLocalityLoaderStartsFresh(t *testing.T) {
	m := newTestMap(t, 32)
	extendTo(t, m, 100)
	pol := newTestLocality(t)
	first := Request{Need: 100, Target: InvalidBlock, OldBlock: InvalidBlock, Owner: 2}
	if blk := pol.Choose(m, first); blk != 99 {
		t.Fatalf("an insert with no target, the map empty, got %d, want the last block 99", blk)
	}
	first.LoadingTxn = true
	if blk := pol.Choose(m, first); blk != InvalidBlock {
		t.Fatalf("a loader's first row got %d, want InvalidBlock (extend)", blk)
	}
	publishEmpty(m, 40, 42)
	if blk := pol.Choose(m, first); blk != 40 {
		t.Fatalf("a loader's first row, pages 40 and 41 empty, got %d, want 40", blk)
	}
}

// A loader of a batch of unknown size (its burst past bulkBurstPages, no
// earlier burst to size it by: Request.BurstSized unset) takes runs of
// maxRunPages while others load: a lone one takes one page at a time at
// the end of the relation, and the first extension by another loader
// lends it its next run before taking its own, itself a run of
// maxRunPages. A burst that has gone past its expected size (BurstSized)
// doubles its runs as before, and a session that is not loading lends
// nothing.
func TestLocalityUnsizedBatchRuns(t *testing.T) {
	m := newTestMap(t, 32)
	extendTo(t, m, 100)
	pol := newTestLocality(t)
	runOf := func(blk uint32) *run {
		t.Helper()
		pol.mu.Lock()
		defer pol.mu.Unlock()
		rn := pol.mu.owned[blk]
		if rn == nil {
			t.Fatalf("block %d not owned", blk)
		}
		return rn
	}
	nblocks := func() uint32 {
		n, err := m.pool.NBlocks(m.rel, buffer.MainFork)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	lone := Request{Need: 100, Target: InvalidBlock, OldBlock: InvalidBlock, BurstPages: bulkBurstPages, LoadingTxn: true, Owner: 1}
	blk, err := pol.Extend(m, lone)
	if err != nil || blk != 100 {
		t.Fatalf("the lone loader's extension gave %d (%v), want 100", blk, err)
	}
	if rn := runOf(100); rn.end != 101 || !rn.unsized {
		t.Fatalf("the lone loader's run: end %d, unsized %v; want one page, unsized", rn.end, rn.unsized)
	}

	// A session that is not loading extends: nothing is lent.
	plain := Request{Need: 100, Target: InvalidBlock, OldBlock: InvalidBlock, Owner: 5}
	if blk, err := pol.Extend(m, plain); err != nil || blk != 101 {
		t.Fatalf("a plain insert's extension gave %d (%v), want 101", blk, err)
	}
	pol.forgetOwned(101)
	lone.Target = 100
	if next := pol.Retry(m, lone, 100, 10); next != InvalidBlock {
		t.Fatalf("the lone loader leaving 100 got %d, want InvalidBlock (extend)", next)
	}
	if blk, err = pol.Extend(m, lone); err != nil || blk != 102 {
		t.Fatalf("the lone loader's extension gave %d (%v), want 102", blk, err)
	}

	// A second loader's first row into the relation, while the first is
	// loading an unsized batch: the first one's next run is lent, and
	// the newcomer's run of maxRunPages starts after it.
	newcomer := Request{Need: 100, Target: InvalidBlock, OldBlock: InvalidBlock, LoadingTxn: true, Owner: 2}
	blk2, err := pol.Extend(m, newcomer)
	want := uint32(103 + maxRunPages)
	if err != nil || blk2 != want {
		t.Fatalf("the newcomer's extension gave %d (%v), want %d (103..%d lent to the first loader)", blk2, err, want, want-1)
	}
	if rn := runOf(blk2); rn.end != want+maxRunPages || !rn.unsized || !rn.bulk {
		t.Fatalf("the newcomer's run ends at %d (unsized %v, bulk %v), want %d, unsized and bulk", rn.end, rn.unsized, rn.bulk, want+maxRunPages)
	}
	if n := nblocks(); n != want+maxRunPages {
		t.Fatalf("the relation has %d blocks, want %d", n, want+maxRunPages)
	}
	lone.Target = 102
	if next := pol.Retry(m, lone, 102, 10); next != 103 {
		t.Fatalf("the first loader leaving 102 got %d, want 103 (its lent run)", next)
	}
	if rn := runOf(103); rn.end != want {
		t.Fatalf("the first loader's lent run ends at %d, want %d", rn.end, want)
	}

	// A burst past its expected size is no unsized batch: its run is no
	// longer than the burst so far, and it lends nothing when it extends.
	over := Request{Need: 100, Target: InvalidBlock, OldBlock: InvalidBlock, BurstPages: 40, BurstSized: true, LoadingTxn: true, Owner: 3}
	blk3, err := pol.Extend(m, over)
	if err != nil || blk3 != want+maxRunPages {
		t.Fatalf("the sized burst's extension gave %d (%v), want %d", blk3, err, want+maxRunPages)
	}
	if rn := runOf(blk3); rn.unsized || rn.size > 40 {
		t.Fatalf("the sized burst's run: %d pages, unsized %v; want at most its burst (40), not unsized", rn.size, rn.unsized)
	}
	// A loader's first row into a relation with a size to expect
	// (BurstSized) is no newcomer to an unsized batch either.
	sized := Request{Need: 100, Target: InvalidBlock, OldBlock: InvalidBlock, LoadingTxn: true, BurstSized: true, Owner: 4}
	pol.mu.Lock()
	n, bulk := pol.runLenLocked(m, sized)
	pol.mu.Unlock()
	if n >= maxRunPages || bulk {
		t.Fatalf("a sized burst's first run: %d pages, bulk %v; want a short run, not bulk", n, bulk)
	}
}

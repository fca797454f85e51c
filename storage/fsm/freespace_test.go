package fsm

import (
	"math/rand"
	"sync"
	"testing"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

const testRel buffer.RelFileNode = 16384

func newPool(t testing.TB, dir string, nbuffers int) *buffer.Pool {
	t.Helper()
	pool, err := buffer.NewPool(buffer.Options{Dir: dir, NBuffers: nbuffers})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	return pool
}

// newTestMap returns the map of an empty relation in a fresh pool.
func newTestMap(t testing.TB, nbuffers int) *Map {
	t.Helper()
	pool := newPool(t, t.TempDir(), nbuffers)
	if err := pool.CreateRel(testRel); err != nil {
		t.Fatal(err)
	}
	return OpenMap(pool, testRel)
}

func fsmBlocks(t testing.TB, m *Map) uint32 {
	t.Helper()
	n, err := m.pool.NBlocks(m.rel, buffer.FSMFork)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// slotValue reads one slot of the FSM page at a (0 if the page is absent).
func slotValue(t testing.TB, m *Map, a address, slot int) uint8 {
	t.Helper()
	buf, err := m.readBuf(a, false)
	if err != nil {
		t.Fatal(err)
	}
	if buf == nil {
		return 0
	}
	defer buf.Release()
	buf.RLock()
	defer buf.RUnlock()
	return getAvail(buf.Page(), slot)
}

func mustRecord(t testing.TB, m *Map, blk uint32, avail int) {
	t.Helper()
	if err := m.RecordPageWithFreeSpace(blk, avail); err != nil {
		t.Fatal(err)
	}
}

func mustVacuumAll(t testing.TB, m *Map) {
	t.Helper()
	if err := m.VacuumAll(); err != nil {
		t.Fatal(err)
	}
}

func TestEmptyMap(t *testing.T) {
	m := newTestMap(t, 16)
	if blk := m.GetPageWithFreeSpace(100); blk != InvalidBlock {
		t.Fatalf("empty map returned block %d", blk)
	}
	if got := m.GetRecordedFreeSpace(7); got != 0 {
		t.Fatalf("GetRecordedFreeSpace = %d", got)
	}
	if m.pool.Exists(testRel, buffer.FSMFork) {
		t.Fatal("searching created the FSM fork")
	}
	if err := m.VacuumAll(); err != nil {
		t.Fatal(err)
	}
	if err := Check(m, nil, 0); err != nil {
		t.Fatal(err)
	}
	if m.Err() != nil {
		t.Fatal(m.Err())
	}
}

// Recording heap block 4068 needs three FSM blocks (root, level 1, bottom
// page 0), block 4069 a fourth, as in PostgreSQL 15.
func TestFSMForkSize(t *testing.T) {
	m := newTestMap(t, 16)
	mustRecord(t, m, 4068, 100)
	if got := fsmBlocks(t, m); got != 3 {
		t.Fatalf("after block 4068: %d FSM blocks, want 3", got)
	}
	mustRecord(t, m, 4069, 100)
	if got := fsmBlocks(t, m); got != 4 {
		t.Fatalf("after block 4069: %d FSM blocks, want 4", got)
	}
}

// freeOf is the free space the tests record for block b.
func freeOf(b uint32) int { return int(b*37) % page.BlockSize }

func TestRecordAndSearchAcrossPages(t *testing.T) {
	const nblocks = 10000 // three bottom FSM pages
	m := newTestMap(t, 16)
	for b := uint32(0); b < nblocks; b++ {
		mustRecord(t, m, b, freeOf(b))
	}
	// root, one level-1 page, three bottom pages
	if got := fsmBlocks(t, m); got != 5 {
		t.Fatalf("FSM fork has %d blocks, want 5", got)
	}
	for b := uint32(0); b < nblocks; b++ {
		if got, want := m.GetRecordedFreeSpace(b), CategoryToAvail(AvailToCategory(freeOf(b))); got != want {
			t.Fatalf("block %d: recorded %d, want %d", b, got, want)
		}
	}
	// Recording touches only the bottom pages: until the upper levels are
	// vacuumed a search from the root finds nothing (as in PostgreSQL).
	if blk := m.GetPageWithFreeSpace(100); blk != InvalidBlock {
		t.Fatalf("search before vacuum found %d", blk)
	}
	mustVacuumAll(t, m)
	if err := Check(m, func(b uint32) (int, error) { return freeOf(b), nil }, nblocks); err != nil {
		t.Fatal(err)
	}
	for _, need := range []int{0, 1, 100, 4000, 8000, 8128, 8160} {
		seen := map[uint32]bool{}
		for i := 0; i < 50; i++ {
			blk := m.GetPageWithFreeSpace(need)
			if blk == InvalidBlock {
				t.Fatalf("need %d: nothing found", need)
			}
			if blk >= nblocks || AvailToCategory(freeOf(blk)) < mustCat(need) {
				t.Fatalf("need %d: block %d has only %d", need, blk, freeOf(blk))
			}
			seen[blk] = true
		}
		if len(seen) < 2 && need < 8160 {
			t.Errorf("need %d: the next-slot hint did not move (%v)", need, seen)
		}
	}
	if blk := m.GetPageWithFreeSpace(MaxRequestSize + 1); blk != InvalidBlock {
		t.Fatalf("oversized request found %d", blk)
	}
}

func mustCat(need int) uint8 {
	c, ok := NeededToCategory(need)
	if !ok {
		panic("bad request")
	}
	return c
}

// The next-slot hint makes successive searches walk forward through the
// bottom page and wrap around at the end, while the upper levels keep
// pointing at the same child.
func TestNextSlotHintAdvancesAndWraps(t *testing.T) {
	m := newTestMap(t, 16)
	for b := uint32(0); b < 10; b++ {
		mustRecord(t, m, b, 1000)
	}
	for b := uint32(5000); b < 5003; b++ { // second bottom page
		mustRecord(t, m, b, 1000)
	}
	mustVacuumAll(t, m)
	var got []uint32
	for i := 0; i < 13; i++ {
		got = append(got, m.GetPageWithFreeSpace(500))
	}
	want := []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("successive searches = %v, want %v", got, want)
		}
	}
	// Filling the first page's blocks makes the search move on to the
	// second bottom page (the stale upper entry is repaired on the way).
	for b := uint32(0); b < 10; b++ {
		mustRecord(t, m, b, 0)
	}
	got = got[:0]
	for i := 0; i < 4; i++ {
		got = append(got, m.GetPageWithFreeSpace(500))
	}
	want = []uint32{5000, 5001, 5002, 5000}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("searches after filling = %v, want %v", got, want)
		}
	}
	// Vacuum resets the hints to the start.
	mustRecord(t, m, 3, 1000)
	mustVacuumAll(t, m)
	if blk := m.GetPageWithFreeSpace(500); blk != 3 {
		t.Fatalf("after vacuum: %d, want 3", blk)
	}
}

// RecordAndGetPageWithFreeSpace prefers a block on the same FSM page as the
// one just found full.
func TestRecordAndGetPrefersSamePage(t *testing.T) {
	m := newTestMap(t, 16)
	mustRecord(t, m, 5, 2000)
	mustRecord(t, m, 5000, 2000)
	mustRecord(t, m, 4100, 3000)
	mustRecord(t, m, 10, 3000)
	mustVacuumAll(t, m)
	if blk := m.RecordAndGetPageWithFreeSpace(4100, 40, 1000); blk != 5000 {
		t.Fatalf("got %d, want 5000 (same FSM page as 4100)", blk)
	}
	if got := m.GetRecordedFreeSpace(4100); got != 32 {
		t.Fatalf("4100 recorded as %d, want 32", got)
	}
	if blk := m.RecordAndGetPageWithFreeSpace(10, 0, 1000); blk != 5 {
		t.Fatalf("got %d, want 5 (same FSM page as 10)", blk)
	}
	// Nothing left on the first page: the whole map is searched.
	if blk := m.RecordAndGetPageWithFreeSpace(5, 0, 1000); blk != 5000 {
		t.Fatalf("got %d, want 5000", blk)
	}
	// The new record of a block beyond the map extends the fork.
	if blk := m.RecordAndGetPageWithFreeSpace(20000, 100, 1000); blk != 5000 {
		t.Fatalf("got %d, want 5000", blk)
	}
	if got := m.GetRecordedFreeSpace(20000); got != 96 {
		t.Fatalf("20000 recorded as %d, want 96", got)
	}
}

// An upper level that promises more than the page below has is corrected by
// the search that falls into it, which then finds space elsewhere.
func TestSearchRepairsStaleUpperLevels(t *testing.T) {
	m := newTestMap(t, 16)
	mustRecord(t, m, 100, 5000)  // bottom page 0
	mustRecord(t, m, 4200, 3000) // bottom page 1
	mustVacuumAll(t, m)
	l1 := rootAddress.child(0)
	if v := slotValue(t, m, l1, 0); v != AvailToCategory(5000) {
		t.Fatalf("level-1 slot 0 = %d", v)
	}
	// Block 100 fills up; only its bottom page learns of it.
	mustRecord(t, m, 100, 0)
	if v := slotValue(t, m, l1, 0); v != AvailToCategory(5000) {
		t.Fatalf("level-1 slot 0 changed to %d without vacuum", v)
	}
	if blk := m.GetPageWithFreeSpace(4000); blk != InvalidBlock {
		t.Fatalf("found %d for 4000 bytes", blk)
	}
	if v := slotValue(t, m, l1, 0); v != 0 {
		t.Fatalf("level-1 slot 0 = %d after the search, want 0", v)
	}
	if v := slotValue(t, m, rootAddress, 0); v != AvailToCategory(3000) {
		t.Fatalf("root slot 0 = %d after the search, want %d", v, AvailToCategory(3000))
	}
	if blk := m.GetPageWithFreeSpace(2000); blk != 4200 {
		t.Fatalf("found %d, want 4200", blk)
	}
	if err := Check(m, nil, 5000); err != nil {
		t.Fatal(err)
	}
}

// A torn FSM page (inner nodes disagreeing with the leaves) is rebuilt by
// the search that notices it.
func TestSearchRebuildsTornPage(t *testing.T) {
	m := newTestMap(t, 16)
	mustRecord(t, m, 7, 1000)
	mustVacuumAll(t, m)
	a, _ := location(0)
	buf, err := m.readBuf(a, false)
	if err != nil {
		t.Fatal(err)
	}
	buf.Lock()
	n := nodes(buf.Page())
	n[0], n[2] = 250, 250 // the right half promises 250, its leaves have 0
	setPageNextSlot(buf.Page(), LeafNodesPerPage-1)
	buf.MarkDirty()
	buf.Unlock()
	buf.Release()
	m.hints.Delete(a.physical())
	// Upper levels also promise 250 for this page.
	if _, err := m.setAndSearch(rootAddress.child(0), 0, 250, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := m.setAndSearch(rootAddress, 0, 250, 0); err != nil {
		t.Fatal(err)
	}
	if blk := m.GetPageWithFreeSpace(7000); blk != InvalidBlock {
		t.Fatalf("found %d", blk)
	}
	if blk := m.GetPageWithFreeSpace(900); blk != 7 {
		t.Fatalf("found %d, want 7", blk)
	}
	if err := Check(m, nil, 100); err != nil {
		t.Fatal(err)
	}
}

func TestTruncate(t *testing.T) {
	const nblocks = 10000
	for _, c := range []struct {
		keep      uint32
		fsmBlocks uint32
	}{
		{5000, 4}, // mid bottom page 1: keep it, zero its tail
		{4069, 3}, // exactly at bottom page 1: drop it
		{4068, 3},
		{1, 3},
		{0, 2}, // only the root and the level-1 page remain
		{20000, 5},
	} {
		m := newTestMap(t, 16)
		for b := uint32(0); b < nblocks; b++ {
			mustRecord(t, m, b, 4000)
		}
		mustVacuumAll(t, m)
		if err := m.Truncate(c.keep); err != nil {
			t.Fatal(err)
		}
		if got := fsmBlocks(t, m); got != c.fsmBlocks {
			t.Errorf("Truncate(%d): FSM fork has %d blocks, want %d", c.keep, got, c.fsmBlocks)
		}
		for _, b := range []uint32{0, c.keep - 1, c.keep, c.keep + 1, 9999} {
			want := 0
			if b < c.keep && b < nblocks {
				want = CategoryToAvail(AvailToCategory(4000))
			}
			if got := m.GetRecordedFreeSpace(b); got != want {
				t.Errorf("Truncate(%d): block %d recorded %d, want %d", c.keep, b, got, want)
			}
		}
		for i := 0; i < 100; i++ {
			blk := m.GetPageWithFreeSpace(100)
			if c.keep == 0 && blk != InvalidBlock || blk != InvalidBlock && blk >= c.keep {
				t.Fatalf("Truncate(%d): search returned %d", c.keep, blk)
			}
		}
		if err := Check(m, nil, min(c.keep, nblocks)); err != nil {
			t.Errorf("Truncate(%d): %v", c.keep, err)
		}
		// The map grows again after a truncation.
		mustRecord(t, m, 12000, 4000)
		if got := m.GetRecordedFreeSpace(12000); got != CategoryToAvail(AvailToCategory(4000)) {
			t.Errorf("Truncate(%d): regrowth recorded %d", c.keep, got)
		}
	}
}

// FSM pages are ordinary pages: they are written with valid headers and read
// back by a new pool, next-slot hints included.
func TestMapSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	pool := newPool(t, dir, 16)
	if err := pool.CreateRel(testRel); err != nil {
		t.Fatal(err)
	}
	m := OpenMap(pool, testRel)
	for b := uint32(0); b < 9000; b += 3 {
		mustRecord(t, m, b, int(b)%8000)
	}
	mustVacuumAll(t, m)
	if err := pool.Close(); err != nil {
		t.Fatal(err)
	}
	pool2 := newPool(t, dir, 16)
	m2 := OpenMap(pool2, testRel)
	for b := uint32(0); b < 9000; b++ {
		want := 0
		if b%3 == 0 {
			want = CategoryToAvail(AvailToCategory(int(b) % 8000))
		}
		if got := m2.GetRecordedFreeSpace(b); got != want {
			t.Fatalf("block %d: %d after restart, want %d", b, got, want)
		}
	}
	if err := Check(m2, func(b uint32) (int, error) {
		if b%3 == 0 {
			return int(b) % 8000, nil
		}
		return 0, nil
	}, 9000); err != nil {
		t.Fatal(err)
	}
}

func TestCheckFindsProblems(t *testing.T) {
	m := newTestMap(t, 16)
	mustRecord(t, m, 10, 4000)
	mustRecord(t, m, 5000, 4000)
	// Upper levels not vacuumed: recorded space is unreachable.
	if err := Check(m, nil, 6000); err == nil {
		t.Fatal("Check passed with stale upper levels")
	}
	mustVacuumAll(t, m)
	if err := Check(m, nil, 6000); err != nil {
		t.Fatal(err)
	}
	// Free space recorded beyond the end of the relation.
	if err := Check(m, nil, 4000); err == nil {
		t.Fatal("Check passed with a block beyond the relation")
	}
	// More free space recorded than the page has.
	err := Check(m, func(b uint32) (int, error) { return 100, nil }, 6000)
	if err == nil {
		t.Fatal("Check passed with an overstated leaf")
	}
	if !isCorrupt(err) {
		t.Fatalf("Check error %v is not a corruption error", err)
	}
}

// The map under 8 concurrent sessions: each records the blocks it owns and
// searches the whole map. Afterwards every record is there, and once the
// upper levels are vacuumed Check passes.
func TestConcurrentRecordAndSearch(t *testing.T) {
	const (
		sessions = 8
		nblocks  = 12000
	)
	ops := 3000
	if testing.Short() {
		ops = 1000
	}
	m := newTestMap(t, 32)
	truth := make([][]int, sessions) // truth[g][i]: free space of block i*sessions+g
	var wg sync.WaitGroup
	for g := 0; g < sessions; g++ {
		truth[g] = make([]int, nblocks/sessions)
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(g)))
			mine := truth[g]
			for i := 0; i < ops; i++ {
				idx := rng.Intn(len(mine))
				blk := uint32(idx*sessions + g)
				avail := rng.Intn(page.BlockSize)
				switch rng.Intn(4) {
				case 0:
					if err := m.RecordPageWithFreeSpace(blk, avail); err != nil {
						t.Error(err)
						return
					}
				case 1:
					m.RecordAndGetPageWithFreeSpace(blk, avail, rng.Intn(MaxRequestSize))
				case 2:
					m.GetPageWithFreeSpace(rng.Intn(MaxRequestSize))
					continue
				case 3:
					if err := m.Vacuum(uint32(rng.Intn(nblocks)), uint32(rng.Intn(nblocks))+100); err != nil {
						t.Error(err)
						return
					}
					continue
				}
				mine[idx] = avail
			}
		}(g)
	}
	wg.Wait()
	actual := func(b uint32) (int, error) { return truth[b%sessions][b/sessions], nil }
	for b := uint32(0); b < nblocks; b++ {
		f, _ := actual(b)
		if got, want := m.GetRecordedFreeSpace(b), CategoryToAvail(AvailToCategory(f)); got != want {
			t.Fatalf("block %d recorded %d, want %d", b, got, want)
		}
	}
	mustVacuumAll(t, m)
	if err := Check(m, actual, nblocks); err != nil {
		t.Fatal(err)
	}
	if m.Err() != nil {
		t.Fatal(m.Err())
	}
	// Quiescent searches return blocks that really have the space.
	for _, need := range []int{10, 1000, 5000, 8100} {
		for i := 0; i < 20; i++ {
			blk := m.GetPageWithFreeSpace(need)
			if blk == InvalidBlock {
				break
			}
			if f, _ := actual(blk); AvailToCategory(f) < mustCat(need) {
				t.Fatalf("need %d: block %d has %d", need, blk, f)
			}
		}
	}
}

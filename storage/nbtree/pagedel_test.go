package nbtree

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// testHorizon is a transaction manager's horizon for tests: NextXid moves
// on with advance, and a reader registered with begin holds OldestXmin
// back until end.
type testHorizon struct {
	mu      sync.Mutex
	next    uint32
	readers map[int]uint32
	id      int
}

func newHorizon() *testHorizon { return &testHorizon{next: 100, readers: map[int]uint32{}} }

func (h *testHorizon) NextXid() uint32 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.next
}

func (h *testHorizon) OldestXmin() uint32 {
	h.mu.Lock()
	defer h.mu.Unlock()
	o := h.next
	for _, x := range h.readers {
		if xidPrecedes(x, o) {
			o = x
		}
	}
	return o
}

func (h *testHorizon) advance() {
	h.mu.Lock()
	h.next++
	h.mu.Unlock()
}

func (h *testHorizon) begin() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.id++
	h.readers[h.id] = h.next
	return h.id
}

func (h *testHorizon) end(id int) {
	h.mu.Lock()
	delete(h.readers, id)
	h.mu.Unlock()
}

// pageCounts counts the index's pages by state, reading every block:
// halfDead and deleted count pages of every level, the Internal fields
// internal pages among them.
type pageCounts struct {
	blocks, liveLeaves, halfDead, deleted           int
	liveInternal, halfDeadInternal, deletedInternal int
}

func countPages(t testing.TB, ix *Index) pageCounts {
	t.Helper()
	n, err := ix.pool.NBlocks(ix.rel, buffer.MainFork)
	if err != nil {
		t.Fatal(err)
	}
	c := pageCounts{blocks: int(n)}
	for blk := uint32(1); blk < n; blk++ {
		b, err := ix.getBuf(blk, false)
		if err != nil {
			t.Fatal(err)
		}
		p := b.Page()
		internal := !isLeaf(p) && btFlags(p)&flagMeta == 0
		switch {
		case isDeleted(p):
			c.deleted++
			if internal {
				c.deletedInternal++
			}
		case isHalfDead(p):
			c.halfDead++
			if internal {
				c.halfDeadInternal++
			}
		case internal:
			c.liveInternal++
		case isLeaf(p):
			c.liveLeaves++
		}
		relBuf(b, false)
	}
	return c
}

// fillSequential inserts keys [from, to) with one entry each, TID block = key.
func fillSequential(t testing.TB, ix *Index, m model, from, to uint64) {
	t.Helper()
	for k := from; k < to; k++ {
		en := mkEntry(k, "payload-payload", page.TID{Block: uint32(k), Offset: 1})
		if err := ix.Insert(en); err != nil {
			t.Fatal(err)
		}
		m[string(en)] = struct{}{}
	}
}

// deleteRange bulk-deletes the entries of keys [from, to) (their TIDs).
func deleteRange(t testing.TB, ix *Index, m model, from, to uint64) {
	t.Helper()
	tids := map[page.TID]struct{}{}
	for k := from; k < to; k++ {
		tids[page.TID{Block: uint32(k), Offset: 1}] = struct{}{}
		delete(m, string(mkEntry(k, "payload-payload", page.TID{Block: uint32(k), Offset: 1})))
	}
	if _, err := ix.DeleteTIDs(tids, nil); err != nil {
		t.Fatal(err)
	}
}

// TestPageDeletionAndReuse: VACUUM deletes the leaves it empties (the
// tree stays correct for scans both ways and for the checker, the live
// leaves drop), the deleted pages become reusable once the horizon passes
// their deletion, and later splits take them instead of growing the file;
// redo gives the same pages byte for byte.
func TestPageDeletionAndReuse(t *testing.T) {
	h := newHorizon()
	e := newEnv(t, 48, Options{pageBytes: 600, Horizon: h})
	m := model{}
	fillSequential(t, e.ix, m, 0, 3000)
	e.checkpoint(t)
	before := countPages(t, e.ix)
	reader := h.begin() // a transaction that was running at the deletion
	deleteRange(t, e.ix, m, 100, 2800)
	after := countPages(t, e.ix)
	st := mustCheck(t, e.ix)
	compareContents(t, e.ix, m)
	rev := m.sorted()
	slices.Reverse(rev)
	if got := collect(t, e.ix.NewIterator(Bound{}, Bound{}, true)); !slices.Equal(got, rev) {
		t.Fatalf("reverse scan after page deletion: %d entries, want %d", len(got), len(rev))
	}
	t.Logf("before %+v, after %+v, check %+v", before, after, st)
	if after.deleted < before.liveLeaves/2 || after.liveLeaves > before.liveLeaves/4 || after.halfDead != 0 {
		t.Fatalf("after deleting 90%% of the entries: %+v (before %+v)", after, before)
	}
	if st.Leaves != after.liveLeaves {
		t.Fatalf("the checker reached %d leaves, %d are live", st.Leaves, after.liveLeaves)
	}
	// Not reusable while the reader runs, even after a later VACUUM.
	h.advance()
	deleteRange(t, e.ix, m, 0, 0)
	if n := e.ix.FreePages(); n != 0 {
		t.Fatalf("%d pages free for reuse while a reader older than their deletion runs", n)
	}
	h.end(reader)
	deleteRange(t, e.ix, m, 0, 0)
	if n := e.ix.FreePages(); n != after.deleted {
		t.Fatalf("%d pages free for reuse, %d deleted", n, after.deleted)
	}
	// Refill the range: splits reuse the deleted pages, the file does not
	// grow until they are used up.
	for k := uint64(100); k < 2800; k++ {
		en := mkEntry(k, "other-payload", page.TID{Block: uint32(k), Offset: 2})
		if err := e.ix.Insert(en); err != nil {
			t.Fatal(err)
		}
		m[string(en)] = struct{}{}
		if e.ix.FreePages() > 0 {
			if c := countPages(t, e.ix); c.blocks != after.blocks {
				t.Fatalf("the file grew from %d to %d blocks with %d free pages left", after.blocks, c.blocks, e.ix.FreePages())
			}
		}
	}
	refilled := countPages(t, e.ix)
	t.Logf("refilled %+v", refilled)
	if refilled.deleted != 0 {
		t.Fatalf("refilled: %+v, after deletion %+v", refilled, after)
	}
	mustCheck(t, e.ix)
	compareContents(t, e.ix, m)

	kinds := recordKinds(t, e)
	if kinds["Btree/MARK_PAGE_HALFDEAD"] == 0 || kinds["Btree/UNLINK_PAGE"] == 0 {
		t.Fatalf("no page deletion logged: %v", kinds)
	}
	r := crashSamePages(t, e)
	mustCheck(t, r.ix)
	compareContents(t, r.ix, m)
}

// TestHalfDeadIsFinished: a crash between the two steps of a deletion
// leaves a half-dead leaf; the index is correct for readers, writers and
// the checker, and the next VACUUM unlinks the page.
func TestHalfDeadIsFinished(t *testing.T) {
	h := newHorizon()
	e := newEnv(t, 48, Options{pageBytes: 600, Horizon: h})
	m := model{}
	fillSequential(t, e.ix, m, 0, 1500)
	stops := 0
	testHookAfterHalfDead = func(int) bool { stops++; return true }
	tids := map[page.TID]struct{}{}
	for k := uint64(500); k < 1000; k++ {
		tids[page.TID{Block: uint32(k), Offset: 1}] = struct{}{}
		delete(m, string(mkEntry(k, "payload-payload", page.TID{Block: uint32(k), Offset: 1})))
	}
	_, err := e.ix.DeleteTIDs(tids, nil)
	testHookAfterHalfDead = nil
	if err != errTestStop || stops != 1 {
		t.Fatalf("DeleteTIDs: %v after %d stops", err, stops)
	}
	r := e.crash(t)
	st := mustCheck(t, r.ix)
	if st.HalfDead != 1 {
		t.Fatalf("%+v: want one half-dead page", st)
	}
	// The entries the stopped pass did not reach are still there: remove them.
	if _, err := r.ix.DeleteTIDs(tids, nil); err != nil {
		t.Fatal(err)
	}
	st = mustCheck(t, r.ix)
	c := countPages(t, r.ix)
	if st.HalfDead != 0 || c.halfDead != 0 || c.deleted < 10 {
		t.Fatalf("after the next VACUUM: check %+v, pages %+v", st, c)
	}
	compareContents(t, r.ix, m)
	// Writers into the deleted key space land on the right sibling.
	refillAndCrash(t, r, m, 600, 700)
}

// refillAndCrash inserts keys from..to-1 into r's index after a deletion,
// then checks it and its contents, before and after a crash.
func refillAndCrash(t testing.TB, r *env, m model, from, to uint64) {
	t.Helper()
	fillSequential(t, r.ix, m, from, to)
	mustCheck(t, r.ix)
	compareContents(t, r.ix, m)
	r2 := r.crash(t)
	mustCheck(t, r2.ix)
	compareContents(t, r2.ix, m)
}

// TestPageDeletionConcurrentScans: readers scan both ways while a writer
// empties and refills key ranges and VACUUM deletes and reuses pages.
// Anchor entries, there before every scan and never deleted, must each be
// seen exactly once, in order, by every scan (entries inserted during a
// forward scan may come out of order: see Iterator); the horizon keeps a
// page a reader may still reach from being reused.
func TestPageDeletionConcurrentScans(t *testing.T) {
	h := newHorizon()
	e := newEnv(t, 64, Options{pageBytes: 600, Horizon: h})
	ix := e.ix
	const keys = 4000
	anchor := func(k uint64) bool { return k%50 == 0 }
	for k := uint64(0); k < keys; k++ {
		if err := ix.Insert(mkEntry(k, "v0", page.TID{Block: uint32(k), Offset: 1})); err != nil {
			t.Fatal(err)
		}
	}
	var done atomic.Bool
	errc := make(chan error, 8)
	var rg sync.WaitGroup
	for r := range 3 {
		rg.Add(1)
		go func() {
			defer rg.Done()
			rng := rand.New(rand.NewPCG(uint64(r), 2))
			for !done.Load() {
				id := h.begin()
				reverse := rng.IntN(2) == 0
				it := ix.NewIterator(Bound{}, Bound{}, reverse)
				var last []byte
				var seen []uint64
				for {
					if _, ok := it.Next(); !ok {
						break
					}
					en := it.Entry()
					k := entryTID(en).Block
					if !anchor(uint64(k)) {
						continue
					}
					if last != nil && (bytes.Compare(en, last) <= 0) != reverse {
						errc <- fmt.Errorf("scan (reverse %v) out of order: %x after %x", reverse, en, last)
						h.end(id)
						return
					}
					last = bytes.Clone(en)
					seen = append(seen, uint64(k))
				}
				h.end(id)
				if err := it.Err(); err != nil {
					errc <- err
					return
				}
				if reverse {
					slices.Reverse(seen)
				}
				want := []uint64{}
				for k := uint64(0); k < keys; k += 50 {
					want = append(want, k)
				}
				if !slices.Equal(seen, want) {
					errc <- fmt.Errorf("scan (reverse %v) saw anchors %v", reverse, seen)
					return
				}
			}
		}()
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for round := range 30 {
		lo := rng.Uint64N(keys - 800)
		hi := lo + 200 + rng.Uint64N(600)
		tids := map[page.TID]struct{}{}
		for k := lo; k < hi; k++ {
			if !anchor(k) {
				tids[page.TID{Block: uint32(k), Offset: 1}] = struct{}{}
				tids[page.TID{Block: uint32(k), Offset: 2}] = struct{}{}
			}
		}
		h.advance()
		if _, err := ix.DeleteTIDs(tids, nil); err != nil {
			t.Fatal(err)
		}
		h.advance()
		for k := lo; k < hi; k++ {
			if !anchor(k) {
				if err := ix.Insert(mkEntry(k, fmt.Sprintf("v%d", round), page.TID{Block: uint32(k), Offset: uint16(1 + round%2)})); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	done.Store(true)
	rg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	st := mustCheck(t, ix)
	c := countPages(t, ix)
	t.Logf("check %+v, pages %+v, free %d", st, c, ix.FreePages())
}

// TestPageDeletionConcurrentWriters: inserters add entries all over the
// key space (some through InsertUnique) while VACUUM passes remove the
// entries of random key ranges above the lowest third; then inserters add
// entries to the upper half of the key space while a VACUUM pass removes
// every entry of the lowest third, so its leaves (some hundred) empty and
// are deleted whatever the interleaving, more than the inserters' splits
// can reuse. Nothing deadlocks; at the
// end the index holds exactly the entries inserted and not removed, and
// passes the checker, before and after a crash.
func TestPageDeletionConcurrentWriters(t *testing.T) {
	h := newHorizon()
	e := newEnv(t, 64, Options{pageBytes: 600, Horizon: h})
	ix := e.ix
	const writers, perWriter, keys = 3, 3000, 3000
	const upperPerWriter, band = 300, keys / 3
	// Phase one: every writer inserts every key once, in its own order.
	entryOf := func(w, i int) []byte {
		k := uint64((i*7919 + w*31) % keys)
		return mkEntry(k, "w", page.TID{Block: uint32(k), Offset: uint16(1 + w*perWriter + i)})
	}
	// Phase two: keys of the upper half only, with offsets of their own.
	upperOf := func(w, i int) []byte {
		k := uint64(keys/2 + (i*7919+w*31)%(keys/2))
		return mkEntry(k, "u", page.TID{Block: uint32(k), Offset: uint16(1 + writers*perWriter + w*upperPerWriter + i)})
	}
	var mu sync.Mutex
	inserted := map[string]bool{} // finished inserts
	removed := map[string]bool{}
	errc := make(chan error, 2*writers+2)
	write := func(n int, entry func(w, i int) []byte) *sync.WaitGroup {
		var wg sync.WaitGroup
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range n {
					id := h.begin()
					en := entry(w, i)
					var err error
					if w == 0 {
						_, err = ix.InsertUnique(en, func([]page.TID) (bool, error) { return true, nil })
					} else {
						err = ix.Insert(en)
					}
					h.end(id)
					if err != nil {
						errc <- err
						return
					}
					h.advance()
					mu.Lock()
					inserted[string(en)] = true
					mu.Unlock()
				}
			}()
		}
		return &wg
	}
	// removeRange removes every finished entry of keys [lo, hi).
	removeRange := func(lo, hi uint64) error {
		tids := map[page.TID]struct{}{}
		mu.Lock()
		for en := range inserted {
			tid := entryTID([]byte(en))
			if k := uint64(tid.Block); k >= lo && k < hi && !removed[en] {
				tids[tid] = struct{}{}
				removed[en] = true
			}
		}
		mu.Unlock()
		_, err := ix.DeleteTIDs(tids, nil)
		return err
	}

	wg := write(perWriter, entryOf)
	var done atomic.Bool
	var vg sync.WaitGroup
	vg.Add(1)
	go func() {
		defer vg.Done()
		rng := rand.New(rand.NewPCG(3, 3))
		for !done.Load() {
			lo := band + rng.Uint64N(keys-band-400)
			if err := removeRange(lo, lo+400); err != nil {
				errc <- err
				return
			}
		}
	}()
	wg.Wait()
	done.Store(true)
	vg.Wait()

	wg = write(upperPerWriter, upperOf)
	vg.Add(1)
	go func() {
		defer vg.Done()
		for lo := uint64(0); lo < band; lo += 100 {
			if err := removeRange(lo, lo+100); err != nil {
				errc <- err
				return
			}
		}
	}()
	wg.Wait()
	vg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	// One more pass removes nothing but makes the pages deleted above
	// reusable; the inserts above reused some already, fewer than the
	// lowest third's leaves.
	if _, err := ix.DeleteTIDs(nil, nil); err != nil {
		t.Fatal(err)
	}
	m := model{}
	for en := range inserted {
		if !removed[en] {
			m[en] = struct{}{}
		}
	}
	st := mustCheck(t, ix)
	compareContents(t, ix, m)
	c := countPages(t, ix)
	t.Logf("check %+v, pages %+v, free %d, %d entries left of %d", st, c, ix.FreePages(), len(m), len(inserted))
	if c.deleted == 0 {
		t.Fatalf("no page deleted: %+v", c)
	}
	r := e.crash(t)
	mustCheck(t, r.ix)
	compareContents(t, r.ix, m)
}

// TestVacuumFollowsSplitsIntoReusedPages: while a VACUUM pass is past the
// low blocks, splits of high blocks it has still to read move entries it
// must remove into reused low blocks it has read already; the pass follows
// the splits back (cycle ids) and removes every one of them.
func TestVacuumFollowsSplitsIntoReusedPages(t *testing.T) {
	h := newHorizon()
	e := newEnv(t, 48, Options{pageBytes: 600, Horizon: h})
	m := model{}
	fillSequential(t, e.ix, m, 0, 3000)
	// Empty the low blocks and make them reusable.
	deleteRange(t, e.ix, m, 0, 1500)
	h.advance()
	deleteRange(t, e.ix, m, 0, 0)
	free := e.ix.FreePages()
	if free < 50 {
		t.Fatalf("%d pages free for reuse", free)
	}
	maxFree := uint32(0)
	for blk := uint32(1); blk < uint32(countPages(t, e.ix).blocks); blk++ {
		if e.ix.FSM().GetRecordedFreeSpace(blk) > 0 {
			maxFree = blk
		}
	}
	// The pass removes the entries of keys 2000..2999 (high blocks); when
	// it is past every free block, inserts split those blocks.
	dead := map[page.TID]struct{}{}
	for k := uint64(2000); k < 3000; k++ {
		dead[page.TID{Block: uint32(k), Offset: 1}] = struct{}{}
		delete(m, string(mkEntry(k, "payload-payload", page.TID{Block: uint32(k), Offset: 1})))
	}
	pages, reused := 0, 0
	point := func(bool, bool) error {
		pages++
		if pages != int(maxFree)+3 {
			return nil
		}
		before := e.ix.FreePages()
		for k := uint64(2000); k < 3000; k++ {
			en := mkEntry(k, "new", page.TID{Block: uint32(k), Offset: 2})
			if err := e.ix.Insert(en); err != nil {
				return err
			}
			m[string(en)] = struct{}{}
		}
		reused = before - e.ix.FreePages()
		return nil
	}
	if _, err := e.ix.DeleteTIDs(dead, point); err != nil {
		t.Fatal(err)
	}
	if reused < 20 {
		t.Fatalf("the splits during the pass reused %d pages", reused)
	}
	mustCheck(t, e.ix)
	compareContents(t, e.ix, m)
	r := e.crash(t)
	mustCheck(t, r.ix)
	compareContents(t, r.ix, m)
}

// A stale entry of the free space map can name a live page, even the one
// a split is splitting (a VACUUM pass that read it while it was deleted
// records it after a split reused it). Taking it must not wait for the
// lock the split itself holds: every live page of the index is recorded
// free and inserts go on splitting; they finish, and the index checks.
func TestReuseSkipsLockedStaleEntries(t *testing.T) {
	h := newHorizon()
	e := newEnv(t, 64, Options{pageBytes: 600, Horizon: h})
	ix := e.ix
	insert := func(from, to uint64) {
		for k := from; k < to; k++ {
			if err := ix.Insert(mkEntry(k, "s", page.TID{Block: uint32(k), Offset: 1})); err != nil {
				t.Error(err)
				return
			}
		}
	}
	insert(0, 400)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for round := uint64(0); round < 20; round++ {
			n, err := ix.pool.NBlocks(ix.rel, buffer.MainFork)
			if err != nil {
				t.Error(err)
				return
			}
			for b := uint32(1); b < n; b++ {
				if err := ix.FSM().RecordFreeIndexPage(b); err != nil {
					t.Error(err)
					return
				}
			}
			if err := ix.FSM().IndexFreeSpaceMapVacuum(); err != nil {
				t.Error(err)
				return
			}
			insert(400+round*40, 440+round*40)
		}
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("inserts stuck: a split waited for a page it holds itself")
	}
	mustCheck(t, ix)
}

package nbtree

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// deadBlock is where the tests' dead rows live: an entry whose TID's block
// is at or above it points at tuples dead to every transaction.
const deadBlock = 5000

func isDeadTID(tid page.TID) bool { return tid.Block >= deadBlock }

// killScan scans the whole index, forwards or backwards, calling
// DeleteLast on the entries with a dead TID, and returns the entries it
// saw; stop > 0 closes the scan after that many entries.
func killScan(t testing.TB, ix *Index, reverse bool, stop int) []string {
	t.Helper()
	it := ix.NewIterator(Bound{}, Bound{}, reverse)
	var out []string
	for stop <= 0 || len(out) < stop {
		tid, ok := it.Next()
		if !ok {
			break
		}
		out = append(out, string(it.Entry()))
		if isDeadTID(tid) {
			it.DeleteLast()
		}
	}
	it.Close()
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// fillLeaf inserts entries 0..n-1 (every third one dead) and returns the
// model of the live ones.
func fillLeaf(t testing.TB, ix *Index, n int) (live, all model) {
	t.Helper()
	live, all = model{}, model{}
	for k := range n {
		tid := page.TID{Block: uint32(k), Offset: 1}
		if k%3 == 0 {
			tid.Block += deadBlock
		}
		en := mkEntry(uint64(k), "row", tid)
		if err := ix.Insert(en); err != nil {
			t.Fatal(err)
		}
		all[string(en)] = struct{}{}
		if !isDeadTID(tid) {
			live[string(en)] = struct{}{}
		}
	}
	return live, all
}

// leafFlags returns the btpo_flags and LP_DEAD offsets of block blk.
func leafFlags(t testing.TB, e *env, blk uint32) (uint16, []uint16) {
	t.Helper()
	b, err := e.ix.getBuf(blk, false)
	if err != nil {
		t.Fatal(err)
	}
	defer relBuf(b, false)
	return btFlags(b.Page()), deadItems(b.Page())
}

// TestKillItemsMarksAndSkips: entries a scan reports dead are marked
// LP_DEAD when it leaves their page (at the page's end, the scan's end or
// Close), BTP_HAS_GARBAGE is set, the checker counts them, later scans in
// both directions and lookups skip them, and VACUUM's pass removes them.
func TestKillItemsMarksAndSkips(t *testing.T) {
	for _, reverse := range []bool{false, true} {
		t.Run(fmt.Sprint("reverse=", reverse), func(t *testing.T) {
			e := newEnv(t, 64, Options{pageBytes: 600})
			live, all := fillLeaf(t, e.ix, 300)
			st := mustCheck(t, e.ix)
			if st.Leaves < 10 {
				t.Fatalf("%+v: want many leaves", st)
			}
			if got := killScan(t, e.ix, reverse, 0); len(got) != len(all) {
				t.Fatalf("first scan saw %d entries, want %d", len(got), len(all))
			}
			st = mustCheck(t, e.ix)
			if st.Dead != len(all)-len(live) || st.Entries != len(all) {
				t.Fatalf("%+v: want %d of %d entries dead", st, len(all)-len(live), len(all))
			}
			flags, dead := leafFlags(t, e, 1)
			if flags&flagHasGarbage == 0 || len(dead) == 0 {
				t.Fatalf("block 1: flags %#x, dead items %v", flags, dead)
			}
			compareContents(t, e.ix, live)
			sorted := live.sorted()
			for _, rev := range []bool{false, true} {
				got := collect(t, e.ix.NewIterator(Bound{Key: mkKey(30, "")}, Bound{Key: mkKey(90, "")}, rev))
				if want := modelRange(sorted, Bound{Key: mkKey(30, "")}, Bound{Key: mkKey(90, "")}, rev); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("range scan reverse=%v: %d entries, want %d", rev, len(got), len(want))
				}
			}
			if tids, err := e.ix.Lookup(mkKey(30, "row")); err != nil || len(tids) != 0 {
				t.Fatalf("lookup of a dead entry: %v %v", tids, err)
			}
			n, err := e.ix.DeleteTIDs(nil, nil)
			if err != nil || n != len(all)-len(live) {
				t.Fatalf("VACUUM removed %d (%v), want the %d dead entries", n, err, len(all)-len(live))
			}
			if st := mustCheck(t, e.ix); st.Dead != 0 || st.Entries != len(live) {
				t.Fatalf("%+v after VACUUM", st)
			}
			if flags, _ := leafFlags(t, e, 1); flags&flagHasGarbage != 0 {
				t.Fatalf("BTP_HAS_GARBAGE left after VACUUM: %#x", flags)
			}
			compareContents(t, e.ix, live)
		})
	}
}

// TestKillItemsOnClose: a scan closed in the middle of a page marks what
// it found there. If the page changed since the scan read it, the entries
// are found where they are now, unless a VACUUM pass ran meanwhile: it may
// have removed an entry, and the heap let a new row take its TID, so that
// the same entry now stands for a live row.
func TestKillItemsOnClose(t *testing.T) {
	e := newEnv(t, 64, Options{})
	fillLeaf(t, e.ix, 30) // one leaf: 0, 3, 6, ... dead
	killScan(t, e.ix, false, 7)
	if st := mustCheck(t, e.ix); st.Dead != 3 {
		t.Fatalf("%+v: want entries 0, 3 and 6 dead after Close", st)
	}
	// scanTo returns a scan positioned on the entry with key k, which
	// it has reported dead.
	scanTo := func(k uint32) *Iterator {
		it := e.ix.NewIterator(Bound{}, Bound{}, false)
		for {
			tid, ok := it.Next()
			if !ok {
				t.Fatalf("no entry %d", k)
			}
			if tid.Block == deadBlock+k {
				it.DeleteLast()
				return it
			}
		}
	}
	// An insertion moves the page's LSN and the entry's offset.
	it := scanTo(9)
	if err := e.ix.Insert(mkEntry(1, "a", page.TID{Block: 100, Offset: 1})); err != nil {
		t.Fatal(err)
	}
	it.Close()
	if st := mustCheck(t, e.ix); st.Dead != 4 {
		t.Fatalf("%+v: entry 9 not marked after an insertion into its page", st)
	}
	if _, ok := it.Next(); ok {
		t.Fatal("Next after Close returned an entry")
	}
	// VACUUM removes entry 12, the heap reuses its TID for a live row
	// with the same key: the scan must not mark it.
	it = scanTo(12)
	e12 := mkEntry(12, "row", page.TID{Block: deadBlock + 12, Offset: 1})
	if n, err := e.ix.DeleteTIDs(map[page.TID]struct{}{entryTID(e12): {}}, nil); err != nil || n != 5 {
		t.Fatalf("VACUUM removed %d (%v), want entry 12 and the 4 dead ones", n, err)
	}
	if err := e.ix.Insert(e12); err != nil {
		t.Fatal(err)
	}
	it.Close()
	if st := mustCheck(t, e.ix); st.Dead != 0 {
		t.Fatalf("%+v: a scan marked an entry VACUUM removed and a live row brought back", st)
	}
	if tids, err := e.ix.Lookup(mkKey(12, "row")); err != nil || len(tids) != 1 {
		t.Fatalf("entry 12: %v %v", tids, err)
	}
}

// TestKillItemsUniqueAndReinsert: a unique check does not count an entry
// marked dead as a conflict, and inserting an entry equal to a dead one
// brings it back as a normal item.
func TestKillItemsUniqueAndReinsert(t *testing.T) {
	e := newEnv(t, 64, Options{})
	_, all := fillLeaf(t, e.ix, 30)
	killScan(t, e.ix, false, 0)
	called := false
	check := func([]page.TID) (bool, error) { called = true; return false, nil }
	ok, err := e.ix.InsertUnique(mkEntry(3, "row", page.TID{Block: 77, Offset: 2}), check)
	if err != nil || !ok || called {
		t.Fatalf("unique insert over a dead entry: inserted %v, %v, check called %v", ok, err, called)
	}
	ok, err = e.ix.InsertUnique(mkEntry(4, "row", page.TID{Block: 77, Offset: 3}), check)
	if err != nil || ok || !called {
		t.Fatalf("unique insert over a live entry: inserted %v, %v, check called %v", ok, err, called)
	}
	dead0 := mkEntry(0, "row", page.TID{Block: deadBlock, Offset: 1})
	if _, ok := all[string(dead0)]; !ok {
		t.Fatal("no entry 0")
	}
	if err := e.ix.Insert(dead0); err != nil {
		t.Fatal(err)
	}
	if tids, err := e.ix.Lookup(mkKey(0, "row")); err != nil || len(tids) != 1 {
		t.Fatalf("reinserted entry: %v %v", tids, err)
	}
	if st := mustCheck(t, e.ix); st.Dead != 0 {
		t.Fatalf("%+v: the reinsertion removes the page's dead items", st)
	}
}

// TestKillItemsDeletedBeforeSplit: a full leaf whose entries were marked
// dead takes new entries after deleting them (one DELETE record) instead
// of splitting; recovery replays that record into the same bytes.
func TestKillItemsDeletedBeforeSplit(t *testing.T) {
	const pageBytes = 1000
	e := newEnv(t, 64, Options{pageBytes: pageBytes})
	n := pageBytes / itemSize(len(mkEntry(0, "row", page.TID{})))
	live, _ := fillLeaf(t, e.ix, n)
	if nb, _ := e.pool.NBlocks(testRel, buffer.MainFork); nb != 2 {
		t.Fatalf("%d entries in %d blocks, want one leaf", n, nb)
	}
	killScan(t, e.ix, false, 0)
	dead := n - len(live)
	for k := range dead {
		en := mkEntry(uint64(1000+k), "new", page.TID{Block: uint32(1000 + k), Offset: 1})
		if err := e.ix.Insert(en); err != nil {
			t.Fatal(err)
		}
		live[string(en)] = struct{}{}
	}
	if nb, _ := e.pool.NBlocks(testRel, buffer.MainFork); nb != 2 {
		t.Fatalf("the leaf split (%d blocks) instead of losing its %d dead entries", nb, dead)
	}
	st := mustCheck(t, e.ix)
	if st.Dead != 0 || st.Entries != n {
		t.Fatalf("%+v: want %d entries, none dead", st, n)
	}
	compareContents(t, e.ix, live)
	kinds := recordKinds(t, e)
	if kinds["Btree/DELETE"] != 1 || kinds["Btree image"] != 0 || kinds["Btree/SPLIT_L"]+kinds["Btree/SPLIT_R"] != 0 {
		t.Fatalf("records %v: want one DELETE, no split, no image", kinds)
	}
	// One more entry splits the page, which now holds no dead entry.
	en := mkEntry(5000, "new", page.TID{Block: 5, Offset: 2})
	if err := e.ix.Insert(en); err != nil {
		t.Fatal(err)
	}
	live[string(en)] = struct{}{}
	if n := len(e.pages(t)); n < 4 {
		t.Fatalf("%d blocks, want at least 4 (a split)", n)
	}
	r := crashSamePages(t, e)
	mustCheck(t, r.ix)
	compareContents(t, r.ix, live)
}

// TestKillItemsConcurrent: scans marking dead entries, inserters of live
// and dead entries (splits, and deletions of dead items instead of
// splits), single deletes and VACUUM passes run together (run under
// -race). No scan misses a live entry that was in before it started, and
// in the end the index holds every live entry.
func TestKillItemsConcurrent(t *testing.T) {
	e := newEnv(t, 64, Options{pageBytes: 700})
	ix := e.ix
	initial, _ := fillLeaf(t, ix, 1500)
	const writers, scanners, perWriter = 3, 3, 1200
	var mu sync.Mutex
	live := model{}
	for k := range initial {
		live[k] = struct{}{}
	}
	var ww, vg, sg sync.WaitGroup
	var done atomic.Bool
	errc := make(chan error, writers+scanners+1)
	for w := range writers {
		ww.Add(1)
		go func() {
			defer ww.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 3))
			for i := range perWriter {
				tid := page.TID{Block: uint32(100 + w), Offset: uint16(i + 1)}
				if rng.IntN(2) == 0 {
					tid.Block += deadBlock
				}
				en := mkEntry(rng.Uint64N(1500), fmt.Sprintf("w%d", w), tid)
				if err := ix.Insert(en); err != nil {
					errc <- err
					return
				}
				if !isDeadTID(tid) {
					mu.Lock()
					live[string(en)] = struct{}{}
					mu.Unlock()
				} else if i%7 == 0 {
					if _, err := ix.Delete(en); err != nil {
						errc <- err
						return
					}
				}
			}
		}()
	}
	vg.Add(1)
	go func() {
		defer vg.Done()
		for !done.Load() {
			if _, err := ix.DeleteTIDs(nil, nil); err != nil {
				errc <- err
				return
			}
		}
	}()
	for s := range scanners {
		sg.Add(1)
		go func() {
			defer sg.Done()
			for i := 0; !done.Load(); i++ {
				seen := map[string]bool{}
				for _, en := range killScan(t, ix, (s+i)%2 == 1, 0) {
					seen[en] = true
				}
				for k := range initial {
					if !seen[k] {
						errc <- fmt.Errorf("a scan missed live entry %x", k)
						return
					}
				}
			}
		}()
	}
	ww.Wait()
	done.Store(true)
	vg.Wait()
	sg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	st := mustCheck(t, ix)
	if _, err := ix.DeleteTIDs(nil, nil); err != nil {
		t.Fatal(err)
	}
	killScan(t, ix, false, 0)
	if _, err := ix.DeleteTIDs(nil, nil); err != nil {
		t.Fatal(err)
	}
	compareContents(t, ix, live)
	t.Logf("%+v", st)
}

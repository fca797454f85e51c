package nbtree

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"minipg/storage/page"
)

// TestConcurrentInsertersAndReaders: writers insert (and delete some of)
// their own entries in random order while readers scan both ways and look
// entries up. Readers must see every scan strictly ordered, and every entry
// a writer finished inserting (and has not deleted) before the lookup
// began. Small pages and a small pool make splits and evictions constant.
func TestConcurrentInsertersAndReaders(t *testing.T) {
	e := newEnv(t, 64, Options{pageBytes: 700})
	ix := e.ix
	const writers, readers, perWriter = 4, 3, 1500
	var published [writers]atomic.Int64 // entries [0, n) of writer w are in
	entryOf := func(w, i int) []byte {
		k := uint64((i*7919 + w*13) % 2000)
		return mkEntry(k, fmt.Sprintf("w%d-%d", w, i), page.TID{Block: uint32(w), Offset: uint16(i + 1)})
	}
	deleted := func(i int) bool { return i%5 == 0 }
	var wg sync.WaitGroup
	var done atomic.Bool
	errc := make(chan error, writers+readers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				if err := ix.Insert(entryOf(w, i)); err != nil {
					errc <- err
					return
				}
				if deleted(i) {
					if ok, err := ix.Delete(entryOf(w, i)); err != nil || !ok {
						errc <- fmt.Errorf("delete of own entry: %v %v", ok, err)
						return
					}
				}
				published[w].Store(int64(i + 1))
			}
		}()
	}
	var rg sync.WaitGroup
	for r := range readers {
		rg.Add(1)
		go func() {
			defer rg.Done()
			rng := rand.New(rand.NewPCG(uint64(r), 1))
			for !done.Load() {
				reverse := rng.IntN(2) == 0
				it := ix.NewIterator(Bound{}, Bound{}, reverse)
				var prev []byte
				for {
					if _, ok := it.Next(); !ok {
						break
					}
					cur := it.Entry()
					if c := bytes.Compare(prev, cur); prev != nil && (c == 0 || (c > 0) != reverse) {
						errc <- fmt.Errorf("scan reverse=%v out of order: %x then %x", reverse, prev, cur)
						return
					}
					prev = cur
				}
				if err := it.Err(); err != nil {
					errc <- err
					return
				}
				// Lookups of published entries.
				for range 20 {
					w := rng.IntN(writers)
					n := int(published[w].Load())
					if n == 0 {
						continue
					}
					i := rng.IntN(n)
					en := entryOf(w, i)
					tids, err := ix.Lookup(en[:len(en)-tidLen])
					if err != nil {
						errc <- err
						return
					}
					found := false
					for _, tid := range tids {
						found = found || tid == entryTID(en)
					}
					if found == deleted(i) {
						errc <- fmt.Errorf("lookup of writer %d entry %d: found=%v", w, i, found)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	done.Store(true)
	rg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	m := model{}
	for w := range writers {
		for i := range perWriter {
			if !deleted(i) {
				m[string(entryOf(w, i))] = struct{}{}
			}
		}
	}
	st := mustCheck(t, ix)
	if st.Levels < 3 {
		t.Fatalf("%+v: want a deeper tree", st)
	}
	compareContents(t, ix, m)
	// And the WAL written concurrently replays to the same index.
	r := e.crash(t)
	mustCheck(t, r.ix)
	compareContents(t, r.ix, m)
}

// TestInsertUniqueSerializes: goroutines insert entries with the same keys
// and different TIDs through InsertUnique with a check that refuses any
// duplicate (every other entry counts as live): exactly one entry per key
// must survive, whichever goroutine wins.
func TestInsertUniqueSerializes(t *testing.T) {
	e := newEnv(t, 64, Options{pageBytes: 500})
	ix := e.ix
	const goroutines, keys = 4, 600
	var wg sync.WaitGroup
	var wins [goroutines]int
	errc := make(chan error, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 3))
			for _, k := range rng.Perm(keys) {
				en := mkEntry(uint64(k), "u", page.TID{Block: uint32(g), Offset: uint16(k + 1)})
				ok, err := ix.InsertUnique(en, func(conflicts []page.TID) (bool, error) {
					for _, c := range conflicts {
						if c == entryTID(en) {
							return false, errors.New("own TID among the conflicts")
						}
					}
					return false, nil
				})
				if err != nil {
					errc <- err
					return
				}
				if ok {
					wins[g]++
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	total := 0
	for _, w := range wins {
		total += w
	}
	if total != keys {
		t.Fatalf("%d insertions won for %d keys (%v)", total, keys, wins)
	}
	for k := range keys {
		tids, err := ix.Lookup(mkKey(uint64(k), "u"))
		if err != nil || len(tids) != 1 {
			t.Fatalf("key %d has entries %v (%v)", k, tids, err)
		}
	}
	mustCheck(t, ix)
}

// TestInsertUniqueCheckSeesAllConflicts: the check gets the TIDs of every
// entry with the key, across leaf pages, and its answer decides.
func TestInsertUniqueCheckSeesAllConflicts(t *testing.T) {
	e := newEnv(t, 32, Options{pageBytes: 400})
	ix := e.ix
	key := mkKey(42, "dup")
	var want []page.TID
	for i := range 60 { // spans many leaves
		tid := page.TID{Block: uint32(i), Offset: 1}
		if err := ix.Insert(AppendTID(key, tid)); err != nil {
			t.Fatal(err)
		}
		want = append(want, tid)
		// Neighbours with other keys on both sides.
		for _, k := range []uint64{41, 43} {
			if err := ix.Insert(mkEntry(k, "dup", tid)); err != nil {
				t.Fatal(err)
			}
		}
	}
	newTID := page.TID{Block: 30, Offset: 2}
	var got []page.TID
	refuse := errors.New("wait for the inserter")
	ok, err := ix.InsertUnique(AppendTID(key, newTID), func(c []page.TID) (bool, error) {
		got = append([]page.TID(nil), c...)
		return false, refuse
	})
	if ok || !errors.Is(err, refuse) {
		t.Fatalf("InsertUnique = %v, %v; want the check's error", ok, err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("check got %v\nwant %v", got, want)
	}
	ok, err = ix.InsertUnique(AppendTID(key, newTID), func([]page.TID) (bool, error) { return true, nil })
	if !ok || err != nil {
		t.Fatalf("InsertUnique allowed = %v, %v", ok, err)
	}
	if tids, _ := ix.Lookup(key); len(tids) != 61 {
		t.Fatalf("%d entries for the key after the allowed insertion", len(tids))
	}
	// A key nobody has: no check.
	ok, err = ix.InsertUnique(mkEntry(7, "new", newTID), func([]page.TID) (bool, error) {
		return false, errors.New("check called without conflicts")
	})
	if !ok || err != nil {
		t.Fatalf("InsertUnique of a new key = %v, %v", ok, err)
	}
	mustCheck(t, ix)
}

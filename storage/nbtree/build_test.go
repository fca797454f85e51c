package nbtree

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// build fills a new index in e's directory from the model's entries.
func build(t *testing.T, e *env, rel buffer.RelFileNode, m model, opts Options) *Index {
	t.Helper()
	opts.WAL = e.log
	b, err := NewBuilder(e.pool, rel, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range m.sorted() {
		if err := b.Add([]byte(en)); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func randomModel(rng *rand.Rand, n int) model {
	m := model{}
	for len(m) < n {
		m[string(randEntry(rng, 1<<40, 30))] = struct{}{}
	}
	return m
}

// TestBuildThenCheck: a bulk build gives a valid tree holding the input,
// with leaves filled to the fillfactor, logged as one full-page image per
// page; after a crash before any page is written, the images rebuild it.
func TestBuildThenCheck(t *testing.T) {
	for _, tc := range []struct {
		n    int
		opts Options
	}{
		{0, Options{}},
		{1, Options{}},
		{30000, Options{}},
		{30000, Options{FillFactor: 50}},
		{3000, Options{pageBytes: 500}},
	} {
		e := newEnv(t, 64, Options{})
		const rel = testRel + 1
		m := randomModel(rand.New(rand.NewPCG(uint64(tc.n), 1)), tc.n)
		ix := build(t, e, rel, m, tc.opts)
		st := mustCheck(t, ix)
		compareContents(t, ix, m)
		if tc.n > 1000 {
			// Leaves hold fillfactor of the page, less the room kept for
			// a high key (at most a pivot header and an entry).
			var bytes, longest int
			for en := range m {
				bytes += itemSize(len(en))
				longest = max(longest, len(en))
			}
			ff := tc.opts.FillFactor
			if ff == 0 {
				ff = defaultFillFactor
			}
			fill := ix.capacity * ff / 100
			lo, hi := bytes/fill, bytes/(fill-2*itemSize(pivotHeader+longest))+1
			if st.Leaves < lo || st.Leaves > hi {
				t.Errorf("n=%d %+v: %d leaves, want %d..%d at fillfactor %d", tc.n, tc.opts, st.Leaves, lo, hi, ff)
			}
		}
		kinds := recordKinds(t, e)
		nblocks, _ := e.pool.NBlocks(rel, buffer.MainFork)
		envBlocks, _ := e.pool.NBlocks(testRel, buffer.MainFork) // e's own empty index
		if kinds["XLOG/FPI"] != int(nblocks+envBlocks) || len(kinds) != 3 {
			t.Errorf("n=%d: the build logged %v for %d blocks; want one FPI per block and nothing else", tc.n, kinds, nblocks)
		}
		r := e.crash(t)
		rix := Open(r.pool, rel, tc.opts)
		mustCheck(t, rix)
		compareContents(t, rix, m)
		// The built index takes inserts and deletes like any other.
		rng := rand.New(rand.NewPCG(7, uint64(tc.n)))
		for range 500 {
			en := randEntry(rng, 1<<40, 30)
			if err := rix.Insert(en); err != nil {
				t.Fatal(err)
			}
			m[string(en)] = struct{}{}
		}
		for _, en := range m.sorted()[:min(len(m), 200)] {
			if ok, err := rix.Delete([]byte(en)); !ok || err != nil {
				t.Fatalf("Delete: %v %v", ok, err)
			}
			delete(m, en)
		}
		mustCheck(t, rix)
		compareContents(t, rix, m)
	}
}

// TestBuildRefusesUnsortedInput: the input must be strictly ascending.
func TestBuildRefusesUnsortedInput(t *testing.T) {
	e := newEnv(t, 16, Options{})
	b, err := NewBuilder(e.pool, testRel+1, Options{WAL: e.log})
	if err != nil {
		t.Fatal(err)
	}
	a, c := mkEntry(2, "", page.TID{Block: 1, Offset: 1}), mkEntry(1, "", page.TID{Block: 1, Offset: 1})
	if err := b.Add(a); err != nil {
		t.Fatal(err)
	}
	for _, en := range [][]byte{c, a} {
		if err := b.Add(en); !errors.Is(err, ErrNotSorted) {
			t.Fatalf("Add out of order: %v", err)
		}
	}
	if _, err := NewBuilder(e.pool, testRel, Options{}); err == nil {
		t.Fatal("a build into an existing index was accepted")
	}
}

// TestBuildMatchesInserts: a built index and one filled by inserts in
// random order hold the same entries and answer scans alike.
func TestBuildMatchesInserts(t *testing.T) {
	e := newEnv(t, 64, Options{pageBytes: 800})
	rng := rand.New(rand.NewPCG(11, 11))
	m := randomModel(rng, 4000)
	built := build(t, e, testRel+1, m, Options{pageBytes: 800})
	keys := m.sorted()
	rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	for _, en := range keys {
		if err := e.ix.Insert([]byte(en)); err != nil {
			t.Fatal(err)
		}
	}
	for range 50 {
		lo, hi := randomBound(rng, 1<<40), randomBound(rng, 1<<40)
		rev := rng.IntN(2) == 0
		a := collect(t, built.NewIterator(lo, hi, rev))
		b := collect(t, e.ix.NewIterator(lo, hi, rev))
		if !slices.Equal(a, b) {
			t.Fatalf("scan %+v..%+v: built index returns %d entries, inserted one %d", lo, hi, len(a), len(b))
		}
	}
}

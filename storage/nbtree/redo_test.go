package nbtree

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"minipg/storage/page"
	"minipg/storage/wal"
)

// workload runs random inserts (splits at every level), deletes and bulk
// deletes on e's index, checkpointing once in the middle so that later first
// changes log full-page images, and writing some pages out before the end.
func workload(t *testing.T, e *env, rng *rand.Rand, m model, ops int) {
	t.Helper()
	var mine [][]byte
	for i := range ops {
		switch op := rng.IntN(20); {
		case op < 14:
			en := randEntry(rng, 400, 40)
			if err := e.ix.Insert(en); err != nil {
				t.Fatal(err)
			}
			m[string(en)] = struct{}{}
			mine = append(mine, en)
		case op < 18 && len(mine) > 0:
			en := mine[rng.IntN(len(mine))]
			if _, err := e.ix.Delete(en); err != nil {
				t.Fatal(err)
			}
			delete(m, string(en))
		case len(mine) > 0:
			tids := map[page.TID]struct{}{entryTID(mine[rng.IntN(len(mine))]): {}}
			if _, err := e.ix.DeleteTIDs(tids, nil); err != nil {
				t.Fatal(err)
			}
			for en := range m {
				if _, ok := tids[entryTID([]byte(en))]; ok {
					delete(m, en)
				}
			}
		}
		if i == ops/2 {
			e.checkpoint(t)
		}
		if i == ops*3/4 {
			// Some pages reach disk before the crash, some do not.
			if err := e.pool.FlushRel(testRel); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// recordKinds reads e's whole WAL and counts the btree record types and
// the FPI records.
func recordKinds(t *testing.T, e *env) map[string]int {
	t.Helper()
	if err := e.log.FlushAll(); err != nil {
		t.Fatal(err)
	}
	rd := e.log.NewReader(uint64(e.log.SegmentSize()))
	defer rd.Close()
	seen := map[string]int{}
	for {
		rec, err := rd.Next()
		if err != nil {
			break
		}
		name, typ := wal.RecordTypeName(rec.Rmgr, rec.Info)
		seen[name+"/"+typ]++
		for _, b := range rec.Blocks {
			if b.HasImage && rec.Rmgr == wal.RmgrBtree {
				seen["Btree image"]++
			}
		}
	}
	return seen
}

// TestRedoReproducesIndex: after a crash that loses every page not written
// out, replaying the WAL gives the same pages byte for byte, an index that
// passes the checker and holds the reference's entries, and that goes on
// working.
func TestRedoReproducesIndex(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		rng := rand.New(rand.NewPCG(seed, 7))
		e := newEnv(t, 48, Options{pageBytes: 600})
		m := model{}
		workload(t, e, rng, m, 3000)
		want := e.pages(t)
		kinds := recordKinds(t, e)
		for _, k := range []string{"Btree/INSERT_LEAF", "Btree/INSERT_UPPER", "Btree/SPLIT_L", "Btree/SPLIT_R",
			"Btree/NEWROOT", "Btree/DELETE", "Btree/VACUUM", "Btree image", "XLOG/FPI"} {
			if kinds[k] == 0 {
				t.Errorf("the workload logged no %s: %v", k, kinds)
			}
		}
		r := e.crash(t)
		if r.stats.Records == 0 || r.stats.FPI == 0 {
			t.Fatalf("recovery replayed %+v", r.stats)
		}
		samePages(t, want, r.pages(t))
		mustCheck(t, r.ix)
		compareContents(t, r.ix, m)
		// The recovered index goes on working, and survives a second crash.
		workload(t, r, rng, m, 1000)
		r2 := r.crash(t)
		mustCheck(t, r2.ix)
		compareContents(t, r2.ix, m)
	}
}

// TestRedoAfterCheckpointWithTornPages: pages torn on disk by the crash
// are restored from the full-page images their first change after the
// checkpoint logged.
func TestRedoAfterCheckpointWithTornPages(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	e := newEnv(t, 48, Options{pageBytes: 600})
	m := model{}
	workload(t, e, rng, m, 1500)
	e.checkpoint(t)
	// After the checkpoint every page's first change logs its image, so a
	// page torn on disk by the crash is restored whole.
	for range 400 {
		en := randEntry(rng, 400, 40)
		if err := e.ix.Insert(en); err != nil {
			t.Fatal(err)
		}
		m[string(en)] = struct{}{}
	}
	// The pages changed since the checkpoint are being written when the
	// crash comes: each is torn (half old, half zeroes) on disk.
	var changed []uint32
	for blk, p := range e.pages(t) {
		if page.LSN(p) > e.log.RedoLSN() {
			changed = append(changed, uint32(blk))
		}
	}
	if len(changed) < 10 {
		t.Fatalf("only %d pages changed after the checkpoint", len(changed))
	}
	if err := e.pool.FlushRel(testRel); err != nil {
		t.Fatal(err)
	}
	if err := e.log.Close(); err != nil {
		t.Fatal(err)
	}
	tearPages(t, e, changed)
	r := openEnv(t, e.dir, e.nbuf, e.opts)
	mustCheck(t, r.ix)
	compareContents(t, r.ix, m)
}

// TestIncompleteSplitIsFinished: a crash between a split and the insertion
// of its downlink leaves the left page marked INCOMPLETE_SPLIT; the tree
// is still correct for readers, and the next insertion that lands on the
// page adds the downlink.
func TestIncompleteSplitIsFinished(t *testing.T) {
	e := newEnv(t, 48, Options{pageBytes: 600})
	m := model{}
	rng := rand.New(rand.NewPCG(9, 9))
	for range 600 {
		en := randEntry(rng, 400, 20)
		if err := e.ix.Insert(en); err != nil {
			t.Fatal(err)
		}
		m[string(en)] = struct{}{}
	}
	// The next split stops before its parent insertion, as a crash would.
	stopped := 0
	testHookBeforeParent = func() bool { stopped++; return true }
	for stopped == 0 {
		en := randEntry(rng, 400, 20)
		err := e.ix.Insert(en)
		if err != nil && stopped == 0 {
			t.Fatal(err)
		}
		m[string(en)] = struct{}{}
	}
	testHookBeforeParent = nil
	r := e.crash(t)
	st := mustCheck(t, r.ix)
	if st.IncompleteSplits != 1 {
		t.Fatalf("%+v: want one incomplete split", st)
	}
	compareContents(t, r.ix, m)
	// Insert into every key range until the split is finished.
	for k := uint64(0); k < 400 && st.IncompleteSplits > 0; k++ {
		en := mkEntry(k, "zz", page.TID{Block: 9999, Offset: 1})
		if err := r.ix.Insert(en); err != nil {
			t.Fatal(err)
		}
		m[string(en)] = struct{}{}
		st = mustCheck(t, r.ix)
	}
	if st.IncompleteSplits != 0 {
		t.Fatalf("%+v: the split was never finished", st)
	}
	compareContents(t, r.ix, m)
	r2 := r.crash(t)
	if st := mustCheck(t, r2.ix); st.IncompleteSplits != 0 {
		t.Fatalf("%+v after redo of the finished split", st)
	}
	compareContents(t, r2.ix, m)
}

// TestScansBothWaysAfterRedo: scans in both directions agree with the
// model after recovery (left links are replayed too).
func TestScansBothWaysAfterRedo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	e := newEnv(t, 48, Options{pageBytes: 500})
	m := model{}
	workload(t, e, rng, m, 2000)
	r := e.crash(t)
	sorted := m.sorted()
	rev := slices.Clone(sorted)
	slices.Reverse(rev)
	if got := collect(t, r.ix.NewIterator(Bound{}, Bound{}, true)); !slices.Equal(got, rev) {
		t.Fatalf("reverse scan after redo: %d entries, want %d", len(got), len(rev))
	}
}

// tearPages zeroes the second half of blocks on disk, as a crash in the
// middle of writing them would leave them.
func tearPages(t *testing.T, e *env, blocks []uint32) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(e.dir, "base", fmt.Sprint(uint32(testRel))), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	half := make([]byte, page.BlockSize/2)
	for _, blk := range blocks {
		if _, err := f.WriteAt(half, int64(blk)*page.BlockSize+page.BlockSize/2); err != nil {
			t.Fatal(err)
		}
	}
}

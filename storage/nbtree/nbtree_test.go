package nbtree

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"minipg/pgerr"
	"minipg/storage/page"
)

// randomBound returns a bound on a key prefix (the 8-byte number, or the
// number and part of the text), or unbounded.
func randomBound(rng *rand.Rand, keys uint64) Bound {
	if rng.IntN(6) == 0 {
		return Bound{}
	}
	k := mkKey(rng.Uint64N(keys+2), "")
	k = k[:8+rng.IntN(2)] // the number, sometimes with the first text byte (0 or a letter)
	if len(k) == 9 && rng.IntN(2) == 0 {
		k[8] = byte('a' + rng.IntN(26))
	}
	return Bound{Key: k, Inclusive: rng.IntN(2) == 0}
}

// TestRandomAgainstModel runs random inserts, deletes, bulk deletes,
// lookups and range scans in both directions against a sorted reference,
// with pages small enough that the tree splits at every level.
func TestRandomAgainstModel(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		rng := rand.New(rand.NewPCG(seed, 99))
		e := newEnv(t, 32, Options{pageBytes: 400})
		ix := e.ix
		m := model{}
		var all [][]byte
		const keys = 300
		for round := range 40 {
			for range 150 {
				switch op := rng.IntN(10); {
				case op < 6:
					en := randEntry(rng, keys, 30)
					if err := ix.Insert(en); err != nil {
						t.Fatal(err)
					}
					m[string(en)] = struct{}{}
					all = append(all, en)
				case op < 9 && len(all) > 0:
					en := all[rng.IntN(len(all))]
					_, want := m[string(en)]
					got, err := ix.Delete(en)
					if err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Fatalf("Delete(%x) = %v, model says %v", en, got, want)
					}
					delete(m, string(en))
				default:
					// A bulk delete of the TIDs of a few entries (and of
					// every other entry with one of those TIDs).
					tids := map[page.TID]struct{}{}
					for range 1 + rng.IntN(8) {
						if len(all) > 0 {
							tids[entryTID(all[rng.IntN(len(all))])] = struct{}{}
						}
					}
					want := 0
					for en := range m {
						if _, ok := tids[entryTID([]byte(en))]; ok {
							delete(m, en)
							want++
						}
					}
					got, err := ix.DeleteTIDs(tids, nil)
					if err != nil || got != want {
						t.Fatalf("DeleteTIDs removed %d (%v), model %d", got, err, want)
					}
				}
			}
			sorted := m.sorted()
			for range 20 {
				lo, hi := randomBound(rng, keys), randomBound(rng, keys)
				reverse := rng.IntN(2) == 0
				got := collect(t, ix.NewIterator(lo, hi, reverse))
				if want := modelRange(sorted, lo, hi, reverse); !slices.Equal(got, want) {
					t.Fatalf("seed %d round %d: scan %+v..%+v reverse=%v: got %d entries, want %d (first difference at %d)",
						seed, round, lo, hi, reverse, len(got), len(want), firstDiff(got, want))
				}
			}
			for range 10 {
				k := mkKey(rng.Uint64N(keys), "")[:8]
				got, err := ix.Lookup(k)
				if err != nil {
					t.Fatal(err)
				}
				var want []page.TID
				for _, en := range modelRange(sorted, Bound{Key: k, Inclusive: true}, Bound{Key: k, Inclusive: true}, false) {
					want = append(want, entryTID([]byte(en)))
				}
				if !slices.Equal(got, want) {
					t.Fatalf("Lookup(%x) = %v, want %v", k, got, want)
				}
			}
			if round%8 == 7 {
				compareContents(t, ix, m)
				mustCheck(t, ix)
			}
		}
		st := mustCheck(t, ix)
		if st.Levels < 3 || st.IncompleteSplits != 0 {
			t.Fatalf("seed %d: %+v: want a tree of at least 3 levels and no incomplete split", seed, st)
		}
		t.Logf("seed %d: %+v", seed, st)
		compareContents(t, ix, m)
	}
}

// TestDuplicateInsertIsNoop: inserting an entry twice keeps one.
func TestDuplicateInsertIsNoop(t *testing.T) {
	e := newEnv(t, 16, Options{})
	en := mkEntry(7, "x", page.TID{Block: 1, Offset: 2})
	for range 3 {
		if err := e.ix.Insert(en); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := e.ix.Len(); n != 1 {
		t.Fatalf("Len = %d after inserting one entry three times", n)
	}
}

// TestEntryLimits: entries too long for a page or too short for a TID are
// refused with the right SQLSTATE, and the index is unchanged.
func TestEntryLimits(t *testing.T) {
	e := newEnv(t, 16, Options{})
	big := make([]byte, MaxEntrySize+1)
	if err := e.ix.Insert(big); pgerr.CodeOf(err) != pgerr.ProgramLimitExceeded {
		t.Fatalf("Insert of %d bytes: %v, want 54000", len(big), err)
	}
	if err := e.ix.Insert([]byte{1, 2, 3}); !errors.Is(err, ErrBadEntry) {
		t.Fatalf("Insert of 3 bytes: %v", err)
	}
	// Entries of the maximum size still split fine.
	for i := range 40 {
		en := make([]byte, MaxEntrySize)
		binary.BigEndian.PutUint32(en, uint32(i*7919%40))
		if err := e.ix.Insert(en); err != nil {
			t.Fatal(err)
		}
	}
	if st := mustCheck(t, e.ix); st.Entries != 40 || st.Levels < 2 {
		t.Fatalf("%+v", st)
	}
}

// TestAscendingInsertsFillPages: keys inserted in ascending order leave
// the left halves of rightmost splits fillfactor full, as PostgreSQL does,
// not half full.
func TestAscendingInsertsFillPages(t *testing.T) {
	e := newEnv(t, 64, Options{})
	const n = 20000
	for i := range n {
		if err := e.ix.Insert(mkEntry(uint64(i), "", page.TID{Block: uint32(i), Offset: 1})); err != nil {
			t.Fatal(err)
		}
	}
	st := mustCheck(t, e.ix)
	perLeaf := page.BlockSize * 90 / 100 / itemSize(len(mkEntry(0, "", page.TID{})))
	t.Logf("%+v", st)
	if min := n / perLeaf; st.Pages > min*11/10+3 {
		t.Fatalf("%d pages for %d ascending entries; about %d leaves at 90%% fill expected", st.Pages, n, min)
	}
}

// TestScanCopiesAPageAtOnce: a scan copies the entries of a leaf page out
// in one allocation, not one per entry (they stay valid, as Entry promises,
// after the scan has moved on), in both directions.
func TestScanCopiesAPageAtOnce(t *testing.T) {
	e := newEnv(t, 16, Options{})
	for k := range uint64(100) {
		if err := e.ix.Insert(mkEntry(k, "e", page.TID{Block: 1, Offset: uint16(k + 1)})); err != nil {
			t.Fatal(err)
		}
	}
	if st := mustCheck(t, e.ix); st.Levels != 1 {
		t.Fatalf("setup: %+v, want one leaf", st)
	}
	for _, reverse := range []bool{false, true} {
		var kept [][]byte
		allocs := testing.AllocsPerRun(5, func() {
			it := e.ix.NewIterator(Bound{}, Bound{}, reverse)
			kept = kept[:0]
			for {
				if _, ok := it.Next(); !ok {
					break
				}
				kept = append(kept, it.Entry())
			}
		})
		if len(kept) != 100 || allocs > 10 {
			t.Errorf("reverse=%v: %d entries with %.0f allocations per scan, want 100 with a handful", reverse, len(kept), allocs)
		}
		for i, en := range kept {
			k := uint64(i)
			if reverse {
				k = uint64(99 - i)
			}
			if want := mkEntry(k, "e", page.TID{Block: 1, Offset: uint16(k + 1)}); !bytes.Equal(en, want) {
				t.Fatalf("reverse=%v: entry %d is %x after the scan, want %x", reverse, i, en, want)
			}
		}
	}
}

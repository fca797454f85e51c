package nbtree

import (
	"math/rand/v2"
	"slices"
	"testing"

	"minipg/storage/page"
)

// TestDeleteFreeingByLeaf: DeleteFreeing removes the entries it is given
// that are present, in any order and with repeats, and leaves the rest;
// the entries of one leaf go in one record, one per leaf touched, and
// recovery gives back the same pages.
func TestDeleteFreeingByLeaf(t *testing.T) {
	e := newEnv(t, 64, Options{})
	const n = 5000
	entry := func(i int) []byte { return mkEntry(uint64(i), "", page.TID{Block: uint32(i), Offset: 1}) }
	for i := range n {
		if err := e.ix.Insert(entry(i)); err != nil {
			t.Fatal(err)
		}
	}
	leafOf := func(en []byte) uint32 {
		b, _, err := e.ix.descend(searchKey{key: en}, false)
		if err != nil {
			t.Fatal(err)
		}
		defer relBuf(b, false)
		return b.Block()
	}
	gone := map[int]bool{}
	for _, i := range []int{10, 11, 12, 13, 14, 15, 2500, 2501, 2502, 4999, 0} {
		gone[i] = true
	}
	var del [][]byte
	leaves := map[uint32]bool{}
	for i := range gone {
		del = append(del, entry(i))
		leaves[leafOf(entry(i))] = true
	}
	if len(leaves) < 3 {
		t.Fatalf("the entries to delete sit on %d leaves, want several", len(leaves))
	}
	del = append(del, entry(2500), mkEntry(n+7, "", page.TID{Block: 1, Offset: 1})) // a repeat, a missing one
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(del), func(i, j int) { del[i], del[j] = del[j], del[i] })

	records := e.log.Stats().Records
	found, err := e.ix.DeleteFreeing(del)
	if err != nil {
		t.Fatal(err)
	}
	if found != len(gone) {
		t.Errorf("DeleteFreeing found %d entries, want %d", found, len(gone))
	}
	if got := e.log.Stats().Records - records; got != int64(len(leaves)) {
		t.Errorf("%d records for entries on %d leaves, want one per leaf", got, len(leaves))
	}
	var want []string
	for i := range n {
		if !gone[i] {
			want = append(want, string(entry(i)))
		}
	}
	if got := collect(t, e.ix.NewIterator(Bound{}, Bound{}, false)); !slices.Equal(got, want) {
		t.Errorf("the index holds %d entries after the deletion, want %d", len(got), len(want))
	}
	if st := mustCheck(t, e.ix); st.Entries != n-len(gone) {
		t.Errorf("check: %+v", st)
	}
	// Nothing left to delete: no record.
	records = e.log.Stats().Records
	if found, err := e.ix.DeleteFreeing(del); err != nil || found != 0 || e.log.Stats().Records != records {
		t.Errorf("a second DeleteFreeing found %d (%v) and logged %d records", found, err, e.log.Stats().Records-records)
	}
	crashSamePages(t, e)
}

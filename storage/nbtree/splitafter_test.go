package nbtree

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"minipg/storage/page"
)

// localizedRun inserts, as TPC-C's New-Order inserts order lines, entries
// (group, seq) at the end of each of 20 groups of 100, the groups taken in
// random order, each entry's heap TID following its group's last one; it
// returns the leaves the tree ends with.
func localizedRun(t *testing.T, lead int) CheckStats {
	e := newEnv(t, 512, Options{LeadingColumnLen: fixedLead(lead)})
	const groups, initial, rounds = 20, 100, 1500
	m := model{}
	entry := func(g, seq uint64) []byte {
		k := binary.BigEndian.AppendUint64(nil, g)
		k = binary.BigEndian.AppendUint64(k, seq)
		return AppendTID(k, page.TID{Block: uint32(g*1000 + seq/50), Offset: uint16(seq%50) + 1})
	}
	add := func(g, seq uint64) {
		en := entry(g, seq)
		if err := e.ix.Insert(en); err != nil {
			t.Fatal(err)
		}
		m[string(en)] = struct{}{}
	}
	for g := uint64(0); g < groups; g++ {
		for s := uint64(0); s < initial; s++ {
			add(g, s)
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for r := uint64(0); r < rounds; r++ {
		for _, g := range rng.Perm(groups) {
			add(uint64(g), initial+r)
		}
	}
	compareContents(t, e.ix, m)
	return mustCheck(t, e.ix)
}

// fixedLead is a LeadingColumnLen that says n for every entry (nil for 0).
func fixedLead(n int) func([]byte) int {
	if n == 0 {
		return nil
	}
	return func([]byte) int { return n }
}

// TestSplitAfterNewItem: with the first column's width known, localized
// ascending inserts leave full pages behind them instead of half-full
// ones (PostgreSQL's split after the new item), and the tree holds the
// same entries.
func TestSplitAfterNewItem(t *testing.T) {
	plain := localizedRun(t, 0)
	after := localizedRun(t, 8)
	t.Logf("leaves: %d with 50:50 splits, %d splitting after the new entry (%d entries)", plain.Leaves, after.Leaves, after.Entries)
	if after.Entries != plain.Entries || after.Leaves*100 > plain.Leaves*75 {
		t.Fatalf("%d leaves for %d entries splitting after the new entry, against %d for %d with 50:50 splits: want at most 75%%",
			after.Leaves, after.Entries, plain.Leaves, plain.Entries)
	}
}

// TestSplitAfterNewItemNotApplied: the rule leaves other inserts to the
// 50:50 split: random keys, entries of different sizes, and a new entry
// whose TID does not follow the one before it.
func TestSplitAfterNewItemNotApplied(t *testing.T) {
	ix := &Index{leadingLen: fixedLead(8)}
	mk := func(g, seq uint64, blk uint32, off uint16) []byte {
		k := binary.BigEndian.AppendUint64(nil, g)
		k = binary.BigEndian.AppendUint64(k, seq)
		return AppendTID(k, page.TID{Block: blk, Offset: off})
	}
	items := [][]byte{mk(1, 1, 10, 1), mk(1, 2, 10, 2), mk(1, 3, 10, 3), mk(2, 1, 20, 1)}
	if !ix.afterNewItem(items, 2, false) {
		t.Fatal("(1,3) after (1,2) on the same heap block: want the split after it")
	}
	far := [][]byte{mk(1, 1, 10, 1), mk(1, 2, 10, 2), mk(1, 3, 99, 3), mk(2, 1, 20, 1)}
	if ix.afterNewItem(far, 2, false) {
		t.Error("TID not adjacent: rule applied")
	}
	if ix.afterNewItem(items, 2, true) {
		t.Error("rightmost page (fillfactor split already): rule applied")
	}
	if ix.afterNewItem(items, 0, false) {
		t.Error("new entry first: rule applied")
	}
	other := [][]byte{mk(1, 1, 10, 1), mk(1, 2, 10, 2), mk(2, 3, 10, 3), mk(3, 1, 20, 1)}
	if ix.afterNewItem(other, 2, false) {
		t.Error("first column differs from the entry before: rule applied")
	}
	dup := [][]byte{mk(1, 1, 10, 1), mk(1, 2, 10, 2), mk(1, 2, 10, 3), mk(2, 1, 20, 1)}
	if ix.afterNewItem(dup, 2, false) {
		t.Error("duplicate key: rule applied")
	}
	mixed := [][]byte{mk(1, 1, 10, 1), append(mk(1, 2, 10, 2), make([]byte, 8)...), mk(1, 3, 10, 3), mk(2, 1, 20, 1)}
	if ix.afterNewItem(mixed, 2, false) {
		t.Error("entries of different sizes: rule applied")
	}
	// Sizes that differ by less than the alignment are one width, as
	// compact integer keys of a few more or fewer bytes: 22 and 23 bytes
	// both take 24.
	wider := func(g, seq uint64, blk uint32, off uint16) []byte {
		k := binary.BigEndian.AppendUint64(nil, g)
		k = binary.BigEndian.AppendUint64(k, seq)
		return AppendTID(append(k, 0), page.TID{Block: blk, Offset: off})
	}
	near := [][]byte{mk(1, 1, 10, 1), wider(1, 2, 10, 2), mk(1, 3, 10, 3), mk(2, 1, 20, 1)}
	if !ix.afterNewItem(near, 2, false) {
		t.Error("entries of 22 and 23 bytes: rule not applied")
	}
	if (&Index{}).afterNewItem(items, 2, false) {
		t.Error("first column's width unknown: rule applied")
	}
	if (&Index{leadingLen: func([]byte) int { return 0 }}).afterNewItem(items, 2, false) {
		t.Error("first column's width unknown for this entry: rule applied")
	}
}

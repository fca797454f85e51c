package heap

import (
	"fmt"
	"testing"

	"minipg/storage/page"
	"minipg/storage/wal"
)

// A same-page update logs only the new tuple's data between the prefix and
// suffix it shares with the old version; redo rebuilds the rest from the old
// version on the page. Every form (prefix and suffix, prefix only, suffix
// only, neither) is logged and recovered to the same pages, with and
// without full-page images.
func TestUpdatePrefixSuffixRedo(t *testing.T) {
	cases := []struct {
		oldID, newID   int32
		oldPay, newPay string
		flags          uint8
	}{
		{1, 1, "abcdefghijXXXXklmnopqrst", "abcdefghijYYYYklmnopqrst", xlUpdatePrefixFromOld | xlUpdateSuffixFromOld},
		{2, 2, "abcdefgh", "abcdefgZZZZZ", xlUpdatePrefixFromOld},
		{3, 4, "hello world, hello", "hello world, hello", xlUpdateSuffixFromOld},
		{5, 6, "aa", "bb", 0},
		{7, 7, "same length, all equal", "same length, all equal", xlUpdatePrefixFromOld},
	}
	for _, fpw := range []bool{false, true} {
		t.Run(fmt.Sprintf("fpw=%v", fpw), func(t *testing.T) {
			e := openWALEnv(t, t.TempDir(), fpw)
			xid := e.o.Begin()
			var st InsertState
			tids := make([]page.TID, len(cases))
			for i, c := range cases {
				tid, err := e.rel.Insert(mkRow(t, c.oldID, c.oldPay), xid, uint32(i), &st)
				if err != nil {
					t.Fatal(err)
				}
				tids[i] = tid
			}
			e.o.Commit(xid)
			if fpw {
				e.checkpoint(t) // the first update logs an image of the page
			}
			start := e.log.InsertLSN()
			xid = e.o.Begin()
			for i, c := range cases {
				ntid, res, _, err := e.rel.Update(e.o.Snapshot(xid, uint32(i)), tids[i], mkRow(t, c.newID, c.newPay), xid, uint32(i), nil)
				if err != nil || res != TMOk || ntid.Block != tids[i].Block {
					t.Fatalf("update %d: %v %v %v", i, ntid, res, err)
				}
			}
			e.o.Commit(xid)
			want := e.pages(t)
			if err := e.log.FlushAll(); err != nil {
				t.Fatal(err)
			}
			rd := e.log.NewReader(start)
			var got []uint8
			for {
				rec, err := rd.Next()
				if err != nil {
					break
				}
				if op := rec.Info & xlHeapOpMask; rec.Rmgr == wal.RmgrHeap && (op == xlHeapUpdate || op == xlHeapHotUpdate) {
					got = append(got, decodeXmaxChange(rec.MainData).flags&(xlUpdatePrefixFromOld|xlUpdateSuffixFromOld))
				}
			}
			rd.Close()
			if len(got) != len(cases) {
				t.Fatalf("%d update records, want %d", len(got), len(cases))
			}
			for i, c := range cases {
				if got[i] != c.flags {
					t.Errorf("update %d (%q -> %q): flags %#x, want %#x", i, c.oldPay, c.newPay, got[i], c.flags)
				}
			}
			r := e.crashAndRecover(t, fpw, nil)
			comparePages(t, want, r.pages(t))
			mustCheckPages(t, r.rel)
		})
	}
}

func TestCommonAffixes(t *testing.T) {
	for _, c := range []struct {
		old, new       string
		prefix, suffix int
	}{
		{"abcdef", "abcdef", 6, 0},
		{"abcXdef", "abcYdef", 3, 3},
		{"abXdef", "abYdef", 0, 3},
		{"abcXde", "abcYde", 3, 0},
		{"abcdef", "abcdefgh", 6, 0},
		{"xyzabc", "abc", 0, 3},
		{"aaaa", "aaaaaa", 4, 0},
	} {
		mk := func(s string) []byte { return append(make([]byte, TupleHeaderSize), s...) }
		ot, nt := mk(c.old), mk(c.new)
		ot[offHoff], nt[offHoff] = TupleHeaderSize, TupleHeaderSize
		if p, s := commonAffixes(ot, nt); p != c.prefix || s != c.suffix {
			t.Errorf("%q -> %q: prefix %d suffix %d, want %d %d", c.old, c.new, p, s, c.prefix, c.suffix)
		}
	}
}

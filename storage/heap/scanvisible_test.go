package heap

import (
	"strings"
	"testing"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// TestScanAllVisiblePages: a scan takes every tuple of a page VACUUM marked
// all-visible without testing each (a tuple whose hint bits were made to
// say "aborted" behind the flag's back is still returned; a build with
// invariants panics on it instead), and a change clears the flag so that
// snapshots from before and after the change see what they must.
func TestScanAllVisiblePages(t *testing.T) {
	e := newEnv(t, 64, Options{})
	tids := e.insertCommitted(t, 0, 70, strings.Repeat("v", 1000)) // 7 rows per page
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	wantVisible(t, e.rel)
	if got := len(e.scanAll(t, e.snap(0, 0))); got != 70 {
		t.Fatalf("scan after VACUUM: %d rows, want 70", got)
	}

	// A delete clears its page's flag: a snapshot from before it still
	// sees the row, one from after it does not.
	before := e.snap(0, 0)
	victim := rowsOnBlock(tids, 3)[0]
	e.deleteCommitted(t, []page.TID{victim})
	wantVisible(t, e.rel, 3)
	after := e.snap(0, 0)
	if got := e.scanAll(t, before); len(got) != 70 {
		t.Errorf("snapshot from before the delete: %d rows, want 70", len(got))
	}
	got := e.scanAll(t, after)
	if len(got) != 69 {
		t.Errorf("snapshot from after the delete: %d rows, want 69", len(got))
	}
	for id, s := range got {
		if s.tid == victim {
			t.Errorf("deleted row %d at %s still seen", id, victim)
		}
	}

	// Behind the flag of block 5, mark one tuple's inserter aborted.
	odd := rowsOnBlock(tids, 5)[0]
	buf, err := e.pool.ReadBuffer(testRel, buffer.MainFork, odd.Block)
	if err != nil {
		t.Fatal(err)
	}
	buf.Lock()
	tup, err := normalItem(buf.Page(), odd.Block, odd.Offset)
	if err != nil || tup == nil {
		t.Fatalf("tuple at %s: %v", odd, err)
	}
	SetInfomask(tup, Infomask(tup)&^HeapXminFrozen|HeapXminInvalid)
	buf.Unlock()
	buf.Release()
	wantVisible(t, e.rel, 3)
	if invariants {
		defer func() {
			if recover() == nil {
				t.Error("a build with invariants returned an invisible tuple of an all-visible page without panicking")
			}
		}()
	}
	seen := false
	for _, s := range e.scanAll(t, e.snap(0, 0)) {
		seen = seen || s.tid == odd
	}
	if !seen {
		t.Errorf("the tuple at %s of an all-visible page was tested and skipped: the scan does not trust PD_ALL_VISIBLE", odd)
	}
}

// TestScanSkipTupleData: a scan told to skip the tuples' data returns the
// same TIDs as one that copies them, each with a nil tuple.
func TestScanSkipTupleData(t *testing.T) {
	e := newEnv(t, 64, Options{})
	tids := e.insertCommitted(t, 0, 40, strings.Repeat("v", 500))
	e.deleteCommitted(t, tids[3:5])
	want := e.scanAll(t, e.snap(0, 0))
	s := e.rel.NewScan(e.snap(0, 0))
	s.SkipTupleData()
	defer s.Close()
	got := map[page.TID]bool{}
	for {
		tid, tup, ok, err := s.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		if tup != nil {
			t.Fatalf("tuple data at %s after SkipTupleData", tid)
		}
		got[tid] = true
	}
	if len(got) != len(want) || len(got) != 38 {
		t.Fatalf("%d TIDs without data, %d with, want 38", len(got), len(want))
	}
	for id, r := range want {
		if !got[r.tid] {
			t.Errorf("row %d at %s missing without data", id, r.tid)
		}
	}
}

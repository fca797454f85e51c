package heap

import (
	"strings"
	"testing"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

func TestShouldTruncate(t *testing.T) {
	for _, c := range []struct {
		keep, nblocks uint32
		want          bool
	}{
		{0, 0, false}, {5, 5, false}, {0, 1, true}, {2, 6, true},
		{95, 100, false}, {94, 100, true}, // 1/16 of 100 is 6
		{15000, 16000, true}, {15001, 16000, false}, // 1000 pages, or 1/16
		{99001, 100000, false}, {99000, 100000, true},
	} {
		if got := ShouldTruncate(c.keep, c.nblocks); got != c.want {
			t.Errorf("ShouldTruncate(%d, %d) = %v, want %v", c.keep, c.nblocks, got, c.want)
		}
	}
}

// TestTruncateEmptyTail: after the rows of the last pages are deleted and
// vacuumed, the relation is cut after its last non-empty page (a page
// whose items are still LP_DEAD counts as non-empty), the FSM forgets the
// cut pages, new rows go after the cut, and crash recovery reproduces the
// shorter relation.
func TestTruncateEmptyTail(t *testing.T) {
	e := openWALEnv(t, t.TempDir(), true)
	r := e.rel
	payload := strings.Repeat("t", 100)
	x := e.o.Begin()
	var st InsertState
	var tids []page.TID
	for i := range 400 {
		tid, err := r.Insert(mkRow(t, int32(i), payload), x, 0, &st)
		if err != nil {
			t.Fatal(err)
		}
		tids = append(tids, tid)
	}
	e.o.Commit(x)
	nblocks, _ := r.NBlocks()
	if nblocks < 6 {
		t.Fatalf("setup: %d blocks", nblocks)
	}
	// Delete every row from block 3 on.
	x = e.o.Begin()
	for _, tid := range tids {
		if tid.Block >= 3 {
			if res, _, err := r.Delete(e.o.Snapshot(x, 0), tid, x, 0); err != nil || res != TMOk {
				t.Fatalf("delete %s: %v %v", tid, res, err)
			}
		}
	}
	e.o.Commit(x)
	if keep, n, err := r.NonEmptyBlocks(); err != nil || keep != nblocks || n != nblocks {
		t.Fatalf("before VACUUM: keep %d of %d (%v), want all %d", keep, n, err, nblocks)
	}
	if _, err := r.Vacuum(e.o.OldestXmin(), e.o, func([]page.TID) error { return nil }); err != nil {
		t.Fatal(err)
	}
	keep, n, err := r.NonEmptyBlocks()
	if err != nil || keep != 3 || n != nblocks {
		t.Fatalf("after VACUUM: keep %d of %d (%v), want 3 of %d", keep, n, err, nblocks)
	}
	removed, err := r.TruncateEmptyTail()
	if err != nil || removed != nblocks-3 {
		t.Fatalf("TruncateEmptyTail: removed %d (%v), want %d", removed, err, nblocks-3)
	}
	if n, _ := r.NBlocks(); n != 3 {
		t.Fatalf("%d blocks after truncation, want 3", n)
	}
	if blk := r.FSM().GetPageWithFreeSpace(1000); blk != page.InvalidBlock && blk >= 3 {
		t.Fatalf("the FSM still offers truncated block %d", blk)
	}
	if removed, err := r.TruncateEmptyTail(); err != nil || removed != 0 {
		t.Fatalf("second truncation removed %d (%v)", removed, err)
	}
	// Blocks 0-2 are full: new rows go to blocks 3 and 4, made anew. st
	// still names the old last block as its target, which is gone.
	if tgt := st.targetBlock(testRel); tgt < nblocks-1 {
		t.Fatalf("setup: target %d, want the old last block %d", tgt, nblocks-1)
	}
	x = e.o.Begin()
	for i := range 100 {
		tid, err := r.Insert(mkRow(t, int32(1000+i), payload), x, 0, &st)
		if err != nil {
			t.Fatal(err)
		}
		if tid.Block != 3 && tid.Block != 4 {
			t.Fatalf("insert after truncation went to %s", tid)
		}
	}
	e.o.Commit(x)
	mustCheckPages(t, r)
	want := e.pages(t)
	rec := e.crashAndRecover(t, true, nil)
	got := rec.pages(t)
	if len(got) != len(want) {
		t.Fatalf("recovered relation has %d blocks, want %d", len(got), len(want))
	}
	comparePages(t, want, got)
}

// TestCheckAbortedUpdatePastEnd: the new version of an aborted update is
// removed by VACUUM and its page truncated away; the old version keeps a
// t_ctid past the end of the relation, which is not corruption (PostgreSQL
// leaves it so too). The same t_ctid on a version whose update committed
// is.
func TestCheckAbortedUpdatePastEnd(t *testing.T) {
	e := newEnv(t, 32, Options{})
	var st InsertState
	x := e.o.Begin()
	var last page.TID
	for i := 0; ; i++ {
		tid, err := e.rel.Insert(mkRow(t, int32(i), strings.Repeat("p", 60)), x, 0, &st)
		if err != nil {
			t.Fatal(err)
		}
		if tid.Block == 1 {
			// Keep block 0 full and block 1 empty of committed rows.
			if res, _, err := e.rel.Delete(e.snap(x, 1), tid, x, 1); err != nil || res != TMOk {
				t.Fatalf("delete %s: %v %v", tid, res, err)
			}
			break
		}
		last = tid
	}
	e.o.Commit(x)
	u := e.o.Begin()
	ntid, res, _, err := e.rel.Update(e.snap(u, 0), last, mkRow(t, 0, strings.Repeat("q", 200)), u, 0, &st)
	if err != nil || res != TMOk || ntid.Block != 1 {
		t.Fatalf("update: %s %v %v", ntid, res, err)
	}
	e.o.Abort(u)
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	if removed, err := e.rel.TruncateEmptyTail(); err != nil || removed != 1 {
		t.Fatalf("truncation removed %d: %v", removed, err)
	}
	if err := CheckPages(e.rel); err != nil {
		t.Fatalf("aborted update's t_ctid past the end: %v", err)
	}
	// The same page with the update marked committed is corrupt.
	buf, err := e.pool.ReadBuffer(testRel, buffer.MainFork, 0)
	if err != nil {
		t.Fatal(err)
	}
	buf.Lock()
	tup := page.Item(buf.Page(), last.Offset)
	SetInfomask(tup, Infomask(tup)&^HeapXmaxInvalid|HeapXmaxCommitted)
	buf.Unlock()
	buf.Release()
	if err := CheckPages(e.rel); err == nil {
		t.Fatal("a committed update pointing past the end passed the check")
	}
}

package heap

import (
	"strings"
	"testing"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// vmState returns, per block, whether the map's bit and the page's
// PD_ALL_VISIBLE are set.
func vmState(tb testing.TB, r *Relation) (bits, flags []bool) {
	tb.Helper()
	n, err := r.NBlocks()
	if err != nil {
		tb.Fatal(err)
	}
	for blk := uint32(0); blk < n; blk++ {
		b, err := r.VisibilityMapBits(blk)
		if err != nil {
			tb.Fatal(err)
		}
		bits = append(bits, b&vmAllVisible != 0)
		buf, err := r.pool.ReadBuffer(r.rel, buffer.MainFork, blk)
		if err != nil {
			tb.Fatal(err)
		}
		buf.RLock()
		flags = append(flags, page.Flags(buf.Page())&page.PDAllVisible != 0)
		buf.RUnlock()
		buf.Release()
	}
	return bits, flags
}

// wantVisible fails unless exactly the blocks in notVisible have their
// bit and flag clear and every other block has both set.
func wantVisible(tb testing.TB, r *Relation, notVisible ...uint32) {
	tb.Helper()
	bits, flags := vmState(tb, r)
	clear := map[uint32]bool{}
	for _, b := range notVisible {
		clear[b] = true
	}
	for blk := range bits {
		want := !clear[uint32(blk)]
		if bits[blk] != want || flags[blk] != want {
			tb.Errorf("block %d: map bit %v, PD_ALL_VISIBLE %v, want %v", blk, bits[blk], flags[blk], want)
		}
	}
}

// rowsOnBlock returns the TIDs of tids on blk.
func rowsOnBlock(tids []page.TID, blk uint32) []page.TID {
	var out []page.TID
	for _, t := range tids {
		if t.Block == blk {
			out = append(out, t)
		}
	}
	return out
}

// TestVisibilityMapSetAndCleared: VACUUM marks every page of committed,
// unchanged rows all-visible; an insert, an update (both its pages) and a
// delete each clear the mark of the page they change and no other; a row
// lock does not; a page whose rows a running snapshot could still miss
// is not marked.
func TestVisibilityMapSetAndCleared(t *testing.T) {
	e := newEnv(t, 64, Options{})
	payload := strings.Repeat("v", 1000) // 7 rows per page
	tids := e.insertCommitted(t, 0, 70, payload)
	if n, _ := e.rel.NBlocks(); n != 10 {
		t.Fatalf("setup: %d blocks", n)
	}
	// A transaction that started before the last insert committed keeps
	// that insert's page from being visible to all.
	old := e.o.Begin()
	late := e.insertCommitted(t, 100, 1, "late")[0]
	n, _ := e.rel.NBlocks()
	vs, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantVisible(t, e.rel, late.Block)
	if vs.PagesAllVisible != int(n)-1 {
		t.Errorf("PagesAllVisible %d, want %d", vs.PagesAllVisible, n-1)
	}
	e.o.Commit(old)
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	wantVisible(t, e.rel)
	mustCheck(t, e.rel)

	// A lock leaves the mark.
	x := e.o.Begin()
	if res, _, err := e.rel.Lock(e.snap(x, 0), tids[0], x, 0); err != nil || res != TMOk {
		t.Fatalf("lock: %v %v", res, err)
	}
	e.o.Commit(x)
	wantVisible(t, e.rel)

	// A delete clears its page's.
	e.deleteCommitted(t, rowsOnBlock(tids, 2)[:1])
	wantVisible(t, e.rel, 2)

	// An update that leaves its page clears both pages'.
	x = e.o.Begin()
	var st InsertState
	ntid, res, _, err := e.rel.Update(e.snap(x, 0), rowsOnBlock(tids, 4)[0], mkRow(t, 4000, strings.Repeat("w", 1500)), x, 0, &st)
	if err != nil || res != TMOk {
		t.Fatalf("update: %v %v", res, err)
	}
	e.o.Commit(x)
	if ntid.Block == 4 {
		t.Fatalf("the update stayed on its full page: %s", ntid)
	}
	wantVisible(t, e.rel, 2, 4, ntid.Block)
	mustCheckPages(t, e.rel) // the FSM is exact only after VACUUM

	// VACUUM marks the pages again once their dead versions are gone (the
	// deleted and the updated rows' pages after the second heap pass).
	vs, err = e.rel.Vacuum(e.o.OldestXmin(), e.o, func([]page.TID) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	wantVisible(t, e.rel)
	mustCheck(t, e.rel)
}

// TestVacuumSkipsAllVisiblePages: a second VACUUM reads only the pages
// changed since the first and the last page; runs of fewer than 32
// all-visible pages are read all the same; DISABLE_PAGE_SKIPPING reads
// everything; the dead rows of the changed pages are removed either way.
func TestVacuumSkipsAllVisiblePages(t *testing.T) {
	e := newEnv(t, 128, Options{})
	payload := strings.Repeat("v", 1000)
	tids := e.insertCommitted(t, 0, 7*80, payload)
	if n, _ := e.rel.NBlocks(); n != 80 {
		t.Fatalf("setup: %d blocks", n)
	}
	vs, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vs.PagesScanned != 80 || vs.PagesSkipped != 0 || vs.PagesAllVisible != 80 {
		t.Fatalf("first VACUUM: %+v", vs)
	}

	// Page 40 changes: 0-39 and 41-78 are runs of at least 32, skipped.
	e.deleteCommitted(t, rowsOnBlock(tids, 40)[:3])
	vs, err = e.rel.Vacuum(e.o.OldestXmin(), e.o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vs.PagesScanned != 2 || vs.PagesSkipped != 78 || vs.TuplesRemoved != 3 || vs.PagesAllVisible != 1 {
		t.Fatalf("second VACUUM: %+v, want 2 scanned (40 and 79), 78 skipped, 3 removed, 1 marked", vs)
	}
	wantVisible(t, e.rel)

	// Page 20 changes: 0-19 is too short a run to skip, 21-79 is not.
	e.deleteCommitted(t, rowsOnBlock(tids, 20)[:1])
	vs, err = e.rel.Vacuum(e.o.OldestXmin(), e.o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vs.PagesScanned != 22 || vs.PagesSkipped != 58 || vs.TuplesRemoved != 1 {
		t.Fatalf("third VACUUM: %+v, want 22 scanned (0-20 and 79), 58 skipped, 1 removed", vs)
	}

	e.deleteCommitted(t, rowsOnBlock(tids, 60)[:1])
	vs, err = e.rel.VacuumWith(e.o.OldestXmin(), e.o, nil, VacuumOptions{DisablePageSkipping: true})
	if err != nil {
		t.Fatal(err)
	}
	if vs.PagesScanned != 80 || vs.PagesSkipped != 0 || vs.TuplesRemoved != 1 || vs.LiveTuples != 7*80-5 {
		t.Fatalf("VACUUM (DISABLE_PAGE_SKIPPING): %+v", vs)
	}
	mustCheck(t, e.rel)
}

// TestVisibilityMapTruncate: cutting the map at a heap block clears the
// bits of that block and every later one and keeps the earlier ones.
func TestVisibilityMapTruncate(t *testing.T) {
	e := newEnv(t, 64, Options{})
	e.insertCommitted(t, 0, 7*40, strings.Repeat("v", 1000))
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	if err := vmTruncate(e.pool, e.rel.rel, 10); err != nil {
		t.Fatal(err)
	}
	bits, _ := vmState(t, e.rel)
	for blk, set := range bits {
		if set != (blk < 10) {
			t.Errorf("block %d: bit %v after truncating the map at 10", blk, set)
		}
	}
	if err := vmTruncate(e.pool, e.rel.rel, 0); err != nil {
		t.Fatal(err)
	}
	if n, _ := e.pool.NBlocks(e.rel.rel, buffer.VMFork); n != 0 {
		t.Errorf("map of %d pages after truncating at 0", n)
	}
	if b, err := e.rel.VisibilityMapBits(3); err != nil || b != 0 {
		t.Errorf("block 3 after truncating at 0: %d %v", b, err)
	}
}

// TestVisibilityMapRedo: after a crash, the map and PD_ALL_VISIBLE are as
// VACUUM and the later changes left them: bits set by VACUUM come back
// from XLOG_HEAP2_VISIBLE, and a change made after a checkpoint wrote the
// map with the bit set clears it again in redo (else VACUUM would skip a
// page with dead rows).
func TestVisibilityMapRedo(t *testing.T) {
	for _, fpw := range []bool{true, false} {
		e := openWALEnv(t, t.TempDir(), fpw)
		xid := e.o.Begin()
		var st InsertState
		var tids []page.TID
		for i := 0; i < 7*6; i++ {
			tid, err := e.rel.Insert(mkRow(t, int32(i), strings.Repeat("v", 1000)), xid, 0, &st)
			if err != nil {
				t.Fatal(err)
			}
			tids = append(tids, tid)
		}
		e.o.Commit(xid)
		if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
			t.Fatal(err)
		}
		wantVisible(t, e.rel)
		e.checkpoint(t) // the map reaches disk with every bit set

		x := e.o.Begin()
		if res, _, err := e.rel.Delete(e.o.Snapshot(x, 0), rowsOnBlock(tids, 1)[0], x, 0); err != nil || res != TMOk {
			t.Fatalf("delete: %v %v", res, err)
		}
		if _, err := e.rel.Insert(mkRow(t, 999, "x"), x, 1, nil); err != nil {
			t.Fatal(err)
		}
		e.o.Commit(x)
		if err := e.log.FlushAll(); err != nil {
			t.Fatal(err)
		}
		bits, flags := vmState(t, e.rel)
		r := e.crashAndRecover(t, fpw, nil)
		r.o = e.o
		gotBits, gotFlags := vmState(t, r.rel)
		for blk := range bits {
			if gotBits[blk] != bits[blk] || gotFlags[blk] != flags[blk] {
				t.Errorf("fpw=%v block %d after recovery: bit %v flag %v, want %v %v", fpw, blk, gotBits[blk], gotFlags[blk], bits[blk], flags[blk])
			}
		}
		if bits[1] {
			t.Errorf("fpw=%v: block 1 still marked after its delete", fpw)
		}
		mustCheckPages(t, r.rel)
	}
}

package heap

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"minipg/storage/page"
)

// deleteCommitted deletes tids in one committed transaction.
func (e *testEnv) deleteCommitted(tb testing.TB, tids []page.TID) {
	tb.Helper()
	x := e.o.Begin()
	for _, tid := range tids {
		if res, _, err := e.rel.Delete(e.snap(x, 0), tid, x, 0); err != nil || res != TMOk {
			tb.Fatalf("delete %s: %v %v", tid, res, err)
		}
	}
	e.o.Commit(x)
}

// TestVacuumReusesSpace: after deleting every row of two pages and
// VACUUM, the index callback sees exactly those TIDs while they are still
// LP_DEAD, the pages' space is in the FSM, and a new session's inserts go
// to the freed pages (from offset 1) before the relation grows. (Not for
// append, which keeps no map and never reuses space: bloat_test.go.)
func TestVacuumReusesSpace(t *testing.T) {
	skipWithoutMap(t)
	e := newEnv(t, 32, Options{})
	payload := strings.Repeat("v", 100)
	tids := e.insertCommitted(t, 0, 300, payload) // 136 B + line pointer per row: 58 rows per page, 6 pages
	nblocks, _ := e.rel.NBlocks()
	if nblocks != 6 {
		t.Fatalf("setup: %d blocks", nblocks)
	}
	var victims []page.TID
	for _, tid := range tids {
		if tid.Block == 1 || tid.Block == 3 {
			victims = append(victims, tid)
		}
	}
	e.deleteCommitted(t, victims)

	var reported []page.TID
	vs, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, func(dead []page.TID) error {
		for _, tid := range dead {
			if f := e.lpFlags(t, tid); f != page.LPDead {
				t.Errorf("%s is %d during the index pass, want LP_DEAD", tid, f)
			}
		}
		// A concurrent insert must not take a dead TID.
		if tid := e.insertCommitted(t, 1000, 1, "during")[0]; tid.Block == 1 || tid.Block == 3 {
			t.Errorf("insert during the index pass went to %s", tid)
		}
		reported = append(reported, dead...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(reported) != len(victims) {
		t.Fatalf("callback got %d TIDs, want %d", len(reported), len(victims))
	}
	for i := range victims {
		if reported[i] != victims[i] {
			t.Fatalf("callback TID %d: %s, want %s", i, reported[i], victims[i])
		}
	}
	if vs.PagesScanned != 6 || vs.TuplesRemoved != len(victims) || vs.DeadItemsReclaimed != len(victims) ||
		vs.LiveTuples != 300-len(victims) || vs.BytesFreed < int64(len(victims)*136) {
		t.Errorf("stats %+v", vs)
	}
	mustCheckPages(t, e.rel)
	for _, blk := range []uint32{1, 3} {
		e.withPage(t, blk, func(p page.Page) {
			// PageTruncateLinePointerArray leaves one unused line pointer.
			if page.MaxOffset(p) != 1 || page.HeapFreeSpace(p) != page.BlockSize-page.HeaderSize-2*page.ItemIDSize {
				t.Errorf("block %d after VACUUM: %d line pointers, %d free", blk, page.MaxOffset(p), page.HeapFreeSpace(p))
			}
		})
		if got := e.rel.FSM().GetRecordedFreeSpace(blk); got < 8000 {
			t.Errorf("FSM has %d for block %d", got, blk)
		}
	}

	// A new session (no target block) gets its space from the FSM.
	n0, _ := e.rel.NBlocks()
	newTids := e.insertCommitted(t, 2000, 100, payload)
	n1, _ := e.rel.NBlocks()
	if n1 != n0 {
		t.Errorf("relation grew from %d to %d blocks despite two free pages", n0, n1)
	}
	onFreed := map[uint32]int{}
	for _, tid := range newTids {
		onFreed[tid.Block]++
	}
	if onFreed[1]+onFreed[3] < 58 {
		t.Errorf("new rows by block: %v, want them on the freed blocks 1 and 3", onFreed)
	}
	if b := newTids[0].Block; newTids[0].Offset != 1 || (b != 1 && b != 3) {
		t.Errorf("first new row at %s, want (1,1) or (3,1)", newTids[0])
	}
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, e.rel)
}

// TestVacuumHorizon: a deletion that some snapshot may still need is kept
// (recently dead); an aborted insert is removed whatever the horizon.
func TestVacuumHorizon(t *testing.T) {
	e := newEnv(t, 16, Options{})
	tids := e.insertCommitted(t, 0, 10, "h")
	old := e.o.Begin()
	oldSnap := e.snap(old, 0)
	e.deleteCommitted(t, tids[:4])
	ab := e.o.Begin()
	abTid, err := e.rel.Insert(mkRow(t, 99, "aborted"), ab, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.o.Abort(ab)

	vs, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vs.TuplesRemoved != 1 || vs.RecentlyDead != 4 || vs.LiveTuples != 6 {
		t.Errorf("with an old snapshot: %+v", vs)
	}
	if f := e.lpFlags(t, abTid); f != page.LPUnused && f != -1 {
		t.Errorf("aborted insert's line pointer is %d", f)
	}
	if rows := e.scanAll(t, oldSnap); len(rows) != 10 {
		t.Errorf("old snapshot sees %d rows, want 10", len(rows))
	}
	e.o.Commit(old)
	vs, err = e.rel.Vacuum(e.o.OldestXmin(), e.o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vs.TuplesRemoved != 4 || vs.RecentlyDead != 0 {
		t.Errorf("after the snapshot ended: %+v", vs)
	}
	mustCheck(t, e.rel)
}

// TestVacuumCallbackError: when the index pass fails, the dead TIDs stay
// LP_DEAD (not reusable) and the next VACUUM reports them again.
func TestVacuumCallbackError(t *testing.T) {
	e := newEnv(t, 16, Options{})
	tids := e.insertCommitted(t, 0, 5, "c")
	e.deleteCommitted(t, tids[1:3])
	boom := errors.New("index pass failed")
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, func([]page.TID) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("Vacuum: %v", err)
	}
	for _, tid := range tids[1:3] {
		if f := e.lpFlags(t, tid); f != page.LPDead {
			t.Errorf("%s is %d after a failed index pass", tid, f)
		}
	}
	if tid := e.insertCommitted(t, 10, 1, "x")[0]; tid.Offset != 6 {
		t.Errorf("insert took %s, a dead TID", tid)
	}
	var again []page.TID
	vs, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, func(d []page.TID) error { again = append(again, d...); return nil })
	if err != nil || len(again) != 2 || vs.DeadItemsReclaimed != 2 || vs.TuplesRemoved != 0 {
		t.Errorf("second VACUUM: %v %v %+v", err, again, vs)
	}
	mustCheck(t, e.rel)
}

// TestPruneOnFetch: a row updated many times on its page gets its dead
// versions pruned by fetches (heap_page_prune_opt), so the page's space is
// reused instead of the relation growing; VACUUM then reclaims the LP_DEAD
// line pointers. The payload is indexed and changes, so the updates are not
// HOT (TestHotPruneOnFetch is the HOT variant).
func TestPruneOnFetch(t *testing.T) {
	e := newEnv(t, 16, Options{})
	e.rel.SetIndexAttrs(IndexAttrs{Indexed: []int{1}})
	payload := strings.Repeat("u", 500) // 536 bytes a version: 15 per page
	cur := e.insertCommitted(t, 1, 1, payload)[0]
	const updates = 150
	for i := range updates {
		x := e.o.Begin()
		s := e.snap(x, 0)
		if _, ok, err := e.rel.Fetch(s, cur); err != nil || !ok {
			t.Fatalf("update %d: fetch %s: %v %v", i, cur, ok, err)
		}
		payload = strings.Repeat(string(rune('a'+i%26)), 500)
		ntid, res, _, err := e.rel.Update(s, cur, mkRow(t, 1, payload), x, 0, nil)
		if err != nil || res != TMOk {
			t.Fatalf("update %d: %v %v", i, res, err)
		}
		e.o.Commit(x)
		cur = ntid
	}
	if n, _ := e.rel.NBlocks(); n != 1 {
		t.Errorf("%d blocks after %d updates of one row: pruning did not reuse space", n, updates)
	}
	if st := e.rel.Stats(); st.PagesPruned == 0 || st.TuplesPruned < updates-15 || st.UpdatesSamePage != updates {
		t.Errorf("stats %+v", st)
	}
	dead := 0
	e.withPage(t, 0, func(p page.Page) {
		for off := uint16(1); off <= page.MaxOffset(p); off++ {
			if _, f, _ := page.ItemID(p, off); f == page.LPDead {
				dead++
			}
		}
	})
	if dead < updates-15 {
		t.Errorf("%d LP_DEAD line pointers after pruning, want about %d", dead, updates)
	}
	mustCheckPages(t, e.rel)
	vs, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vs.DeadItemsReclaimed != updates {
		t.Errorf("VACUUM reclaimed %d line pointers, want %d: %+v", vs.DeadItemsReclaimed, updates, vs)
	}
	if rows := e.scanAll(t, e.snap(0, 0)); len(rows) != 1 || rows[1].tid != cur {
		t.Errorf("rows after VACUUM: %v", rows)
	}
	mustCheck(t, e.rel)
}

// TestPruneRespectsSnapshots: pruning never removes a version a running
// transaction's snapshot can see.
func TestPruneRespectsSnapshots(t *testing.T) {
	e := newEnv(t, 16, Options{})
	payload := strings.Repeat("s", 500)
	first := e.insertCommitted(t, 1, 1, payload)[0]
	reader := e.o.Begin()
	rs := e.snap(reader, 0)
	cur := first
	for range 40 {
		x := e.o.Begin()
		s := e.snap(x, 0)
		if _, ok, err := e.rel.Fetch(s, cur); err != nil || !ok {
			t.Fatal(ok, err)
		}
		ntid, res, _, err := e.rel.Update(s, cur, mkRow(t, 1, payload), x, 0, nil)
		if err != nil || res != TMOk {
			t.Fatal(res, err)
		}
		e.o.Commit(x)
		cur = ntid
	}
	if _, ok, err := e.rel.Fetch(rs, first); err != nil || !ok {
		t.Fatalf("the reader's version was pruned: %v %v", ok, err)
	}
	if rows := e.scanAll(t, rs); len(rows) != 1 || rows[1].tid != first {
		t.Errorf("reader sees %v", rows)
	}
	e.o.Commit(reader)
	mustCheckPages(t, e.rel)
}

// TestVacuumConcurrent: VACUUM runs while sessions update and delete;
// nothing visible is lost and the relation checks clean.
func TestVacuumConcurrent(t *testing.T) {
	rounds := 300
	if testing.Short() || raceEnabled {
		rounds = 60
	}
	e := newEnv(t, 32, Options{FillFactor: 80})
	e.insertCommitted(t, 0, 50, "0")
	var wg sync.WaitGroup
	errc := make(chan error, 5)
	done := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				if err := increment(e, int32(i%50)); err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	go func() {
		for {
			select {
			case <-done:
				errc <- nil
				return
			default:
			}
			if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
				errc <- err
				return
			}
		}
	}()
	wg.Wait()
	close(done)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	rows := e.scanAll(t, e.snap(0, 0))
	if len(rows) != 50 {
		t.Errorf("%d rows", len(rows))
	}
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, e.rel)
}

package heap

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/fsm"
	"minipg/storage/page"
)

// update runs one committed Update of tid to (id, payload) and returns the
// new TID and whether newtup came back heap-only.
func (e *testEnv) update(tb testing.TB, tid page.TID, id int32, payload string) (page.TID, bool) {
	tb.Helper()
	x := e.o.Begin()
	newtup := mkRow(tb, id, payload)
	ntid, res, _, err := e.rel.Update(e.snap(x, 0), tid, newtup, x, 0, nil)
	if err != nil || res != TMOk {
		tb.Fatalf("update %s: %v %v", tid, res, err)
	}
	e.o.Commit(x)
	return ntid, IsHeapOnly(newtup)
}

// lp is a line pointer and, for LP_NORMAL, the tuple's t_infomask2 and
// t_ctid offset, as pageinspect's heap_page_items shows them.
type lp struct {
	off, flags, len int
	infomask2       uint16
	ctid            uint16
}

func (e *testEnv) linePointers(tb testing.TB, blk uint32) []lp {
	var out []lp
	e.withPage(tb, blk, func(p page.Page) {
		for off := uint16(1); off <= page.MaxOffset(p); off++ {
			var l lp
			l.off, l.flags, l.len = page.ItemID(p, off)
			if l.flags == page.LPNormal {
				t := page.Item(p, off)
				l.infomask2, l.ctid = Infomask2(t), Ctid(t).Offset
			}
			out = append(out, l)
		}
	})
	return out
}

func wantLinePointers(tb testing.TB, what string, got, want []lp) {
	tb.Helper()
	if len(got) != len(want) {
		tb.Errorf("%s: %d line pointers, want %d: %+v", what, len(got), len(want), got)
		return
	}
	for i := range want {
		if got[i] != want[i] {
			tb.Errorf("%s: lp %d is %+v, want %+v", what, i+1, got[i], want[i])
		}
	}
}

// HOT updates, VACUUM of HOT chains and line pointer reuse against
// PostgreSQL 15's page: testdata/page/hot_update (TestPageScripts).

// hkDesc is (id int4, t text, n int4).
var hkDesc = TupleDesc{{Len: 4, Align: 'i'}, {Len: -1, Align: 'i'}, {Len: 4, Align: 'i'}}

func mkHk(tb testing.TB, id int32, s string, n int32) []byte {
	tb.Helper()
	a, c := make([]byte, 4), make([]byte, 4)
	binary.LittleEndian.PutUint32(a, uint32(id))
	binary.LittleEndian.PutUint32(c, uint32(n))
	tup, err := FormTuple(hkDesc, [][]byte{a, []byte(s), c}, []bool{false, false, false})
	if err != nil {
		tb.Fatal(err)
	}
	return tup
}

// TestHotDecisionLikePostgres: an update is HOT only when no indexed column
// changes; changing a unique index's column sets HEAP_KEYS_UPDATED.
// Reference, pageinspect on PostgreSQL 15:
//
//	create table hk (id int4 primary key, t text, n int4) with (autovacuum_enabled = off);
//	create index on hk (n);
//	insert into hk values (1, 'a', 1), (2, 'b', 2), (3, 'c', 3);
//	update hk set t = 'bb' where id = 2;   -- HOT
//	update hk set n = 30 where id = 3;     -- indexed column: not HOT
//	update hk set id = 10 where id = 1;    -- key column: not HOT, HEAP_KEYS_UPDATED
//	select lp, lp_off, lp_flags, lp_len, t_infomask2, t_ctid from heap_page_items(get_raw_page('hk', 0));
func TestHotDecisionLikePostgres(t *testing.T) {
	e := newEnv(t, 16, Options{})
	const hkRel buffer.RelFileNode = testRel + 1
	if err := e.pool.CreateRel(hkRel); err != nil {
		t.Fatal(err)
	}
	r := Open(e.pool, hkRel, hkDesc, Options{Policy: fsm.NewClassic()})
	r.SetIndexAttrs(IndexAttrs{Indexed: []int{0, 2}, Key: []int{0}})
	x := e.o.Begin()
	var tids []page.TID
	for i := int32(1); i <= 3; i++ {
		tid, err := r.Insert(mkHk(t, i, string(rune('a'+i-1)), i), x, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		tids = append(tids, tid)
	}
	e.o.Commit(x)
	for _, u := range []struct {
		old     page.TID
		tup     []byte
		wantHot bool
	}{
		{tids[1], mkHk(t, 2, "bb", 2), true},
		{tids[2], mkHk(t, 3, "c", 30), false},
		{tids[0], mkHk(t, 10, "a", 1), false},
	} {
		x := e.o.Begin()
		_, res, _, err := r.Update(e.snap(x, 0), u.old, u.tup, x, 0, nil)
		if err != nil || res != TMOk {
			t.Fatal(res, err)
		}
		e.o.Commit(x)
		if IsHeapOnly(u.tup) != u.wantHot {
			t.Errorf("update of %s: heap-only %v, want %v", u.old, IsHeapOnly(u.tup), u.wantHot)
		}
	}
	var got []lp
	buf, err := e.pool.ReadBuffer(hkRel, buffer.MainFork, 0)
	if err != nil {
		t.Fatal(err)
	}
	buf.RLock()
	p := buf.Page()
	for off := uint16(1); off <= page.MaxOffset(p); off++ {
		var l lp
		l.off, l.flags, l.len = page.ItemID(p, off)
		l.infomask2, l.ctid = Infomask2(page.Item(p, off)), Ctid(page.Item(p, off)).Offset
		got = append(got, l)
	}
	buf.RUnlock()
	buf.Release()
	wantLinePointers(t, "hk", got, []lp{
		{8152, 1, 36, 8195, 6}, {8112, 1, 36, 16387, 4}, {8072, 1, 36, 3, 5},
		{8032, 1, 36, 32771, 4}, {7992, 1, 36, 3, 5}, {7952, 1, 36, 3, 6},
	})
	if st := r.Stats(); st.UpdatesHot != 1 || st.UpdatesSamePage != 3 {
		t.Errorf("stats %+v", st)
	}
	if err := CheckPages(r); err != nil {
		t.Fatal(err)
	}
}

// TestHotChainPruneRedirect: a chain of HOT updates, pruned once no
// snapshot needs the old versions, leaves the root redirected to the live
// version and the dead heap-only versions unused; the chain then grows on
// from the live version and is pruned again.
func TestHotChainPruneRedirect(t *testing.T) {
	e := newEnv(t, 16, Options{})
	root := e.insertCommitted(t, 1, 1, "v0")[0]
	cur := root
	for i := 1; i <= 4; i++ {
		var hot bool
		if cur, hot = e.update(t, cur, 1, fmt.Sprintf("v%d", i)); !hot {
			t.Fatalf("update %d not HOT", i)
		}
	}
	if cur.Offset != 5 {
		t.Fatalf("live version at %s", cur)
	}
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	e.withPage(t, 0, func(p page.Page) {
		if lpOff, f, _ := page.ItemID(p, 1); f != page.LPRedirect || lpOff != 5 {
			t.Errorf("root: flags %d off %d, want a redirect to 5", f, lpOff)
		}
		for off := uint16(2); off <= 4; off++ {
			if _, f, _ := page.ItemID(p, off); f != page.LPUnused {
				t.Errorf("lp %d: flags %d, want unused", off, f)
			}
		}
	})
	mustCheck(t, e.rel)
	// Two more HOT updates reuse the unused line pointers; pruning moves
	// the redirect along the chain.
	for i := 5; i <= 6; i++ {
		cur, _ = e.update(t, cur, 1, fmt.Sprintf("v%d", i))
	}
	if cur.Offset != 3 {
		t.Errorf("live version at %s, want (0,3)", cur)
	}
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	if lpOff, f := e.redirect(t, root); f != page.LPRedirect || lpOff != 3 {
		t.Errorf("root: flags %d off %d, want a redirect to 3", f, lpOff)
	}
	vt, tup, ok, err := e.rel.FetchHot(e.snap(0, 0), root)
	if err != nil || !ok || vt != cur {
		t.Fatalf("FetchHot(root) = %s %v %v, want %s", vt, ok, err, cur)
	}
	if _, p := rowOf(t, tup); p != "v6" {
		t.Errorf("FetchHot found %q", p)
	}
	// Deleting the row kills the whole chain: root LP_DEAD, the only TID
	// VACUUM hands to the index callback.
	e.deleteCommitted(t, []page.TID{cur})
	var dropped []page.TID
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, func(d []page.TID) error { dropped = append(dropped, d...); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(dropped) != 1 || dropped[0] != root {
		t.Errorf("dropIndexEntries got %v, want [%s]", dropped, root)
	}
	if f := e.lpFlags(t, root); f != page.LPUnused {
		t.Errorf("root after VACUUM: flags %d", f)
	}
	mustCheck(t, e.rel)
}

func (e *testEnv) redirect(tb testing.TB, tid page.TID) (lpOff, flags int) {
	e.withPage(tb, tid.Block, func(p page.Page) { lpOff, flags, _ = page.ItemID(p, tid.Offset) })
	return
}

// TestFetchHotSnapshots: FetchHot through the chain root returns, for each
// snapshot, the version that snapshot sees, before and after pruning.
func TestFetchHotSnapshots(t *testing.T) {
	e := newEnv(t, 16, Options{})
	root := e.insertCommitted(t, 1, 1, "v0")[0]
	snaps := []*Snapshot{e.snap(0, 0)} // sees v0
	cur := root
	for i := 1; i <= 3; i++ {
		cur, _ = e.update(t, cur, 1, fmt.Sprintf("v%d", i))
		snaps = append(snaps, e.snap(0, 0)) // sees v_i
	}
	// An update in progress: its own snapshot sees the new version,
	// everyone else v3.
	x := e.o.Begin()
	pending, res, _, err := e.rel.Update(e.snap(x, 0), cur, mkRow(t, 1, "v4"), x, 0, nil)
	if err != nil || res != TMOk {
		t.Fatal(res, err)
	}
	check := func(when string) {
		t.Helper()
		for i, s := range snaps {
			_, tup, ok, err := e.rel.FetchHot(s, root)
			if err != nil || !ok {
				t.Errorf("%s: snapshot %d: %v %v", when, i, ok, err)
				continue
			}
			if _, p := rowOf(t, tup); p != fmt.Sprintf("v%d", i) {
				t.Errorf("%s: snapshot %d sees %q", when, i, p)
			}
		}
		vt, tup, ok, _ := e.rel.FetchHot(e.snap(x, 1), root)
		if _, p := rowOf(t, tup); !ok || vt != pending || p != "v4" {
			t.Errorf("%s: own snapshot sees %s %q", when, vt, p)
		}
		vt, _, ok, _ = e.rel.FetchHot(e.snap(0, 0), root)
		if !ok || vt != cur {
			t.Errorf("%s: a new snapshot sees %s, want %s", when, vt, cur)
		}
	}
	check("before pruning")
	// Old snapshots hold the horizon: VACUUM may not remove v0..v2.
	if _, err := e.rel.Vacuum(snaps[0].Xmin, e.o, nil); err != nil {
		t.Fatal(err)
	}
	check("after VACUUM with old snapshots")
	// Without them, v0..v2 go; snapshots 0..2 are gone too.
	snaps = snaps[3:]
	for i := range snaps {
		snaps[i] = nil
	}
	snaps = nil
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	if lpOff, f := e.redirect(t, root); f != page.LPRedirect || lpOff != int(cur.Offset) {
		t.Errorf("root: flags %d off %d, want a redirect to %d", f, lpOff, cur.Offset)
	}
	check("after pruning")
	e.o.Abort(x)
	vt, _, ok, _ := e.rel.FetchHot(e.snap(0, 0), root)
	if !ok || vt != cur {
		t.Errorf("after abort: %s %v", vt, ok)
	}
	mustCheckPages(t, e.rel)
}

// TestHotAbortedUpdate: an aborted HOT update leaves a heap-only tuple no
// chain reaches once the row is locked or updated again; pruning makes it
// unused and the row keeps its root.
func TestHotAbortedUpdate(t *testing.T) {
	e := newEnv(t, 16, Options{})
	root := e.insertCommitted(t, 1, 1, "v0")[0]
	x := e.o.Begin()
	orphan, _, _, err := e.rel.Update(e.snap(x, 0), root, mkRow(t, 1, "aborted"), x, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.o.Abort(x)
	// The row is v0, through its root; a new HOT update chains from it.
	cur, hot := e.update(t, root, 1, "v1")
	if !hot || cur == orphan {
		t.Fatalf("second update: %s hot=%v", cur, hot)
	}
	mustCheckPages(t, e.rel)
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	if f := e.lpFlags(t, orphan); f != page.LPUnused {
		t.Errorf("orphaned heap-only tuple: flags %d, want unused", f)
	}
	vt, tup, ok, err := e.rel.FetchHot(e.snap(0, 0), root)
	if _, p := rowOf(t, tup); err != nil || !ok || vt != cur || p != "v1" {
		t.Errorf("FetchHot: %s %q %v %v", vt, p, ok, err)
	}
	// A row lock after an aborted HOT update ends the chain at the root.
	y := e.o.Begin()
	if _, _, _, err := e.rel.Update(e.snap(y, 0), cur, mkRow(t, 1, "aborted-2"), y, 0, nil); err != nil {
		t.Fatal(err)
	}
	e.o.Abort(y)
	z := e.o.Begin()
	if res, _, err := e.rel.Lock(e.snap(z, 0), cur, z, 0); err != nil || res != TMOk {
		t.Fatal(res, err)
	}
	if im2 := Infomask2(e.rawTuple(t, cur)); im2&HeapHotUpdated != 0 || Ctid(e.rawTuple(t, cur)) != cur {
		t.Errorf("locked tuple: infomask2 %#x ctid %s", im2, Ctid(e.rawTuple(t, cur)))
	}
	e.o.Commit(z)
	mustCheckPages(t, e.rel)
}

// TestHotPruneOnFetch: a row updated many times on its page (HOT) gets its
// dead versions pruned by fetches: the heap-only versions become unused at
// once, so neither the relation nor the line pointer array grows, and
// VACUUM finds nothing for the indexes.
func TestHotPruneOnFetch(t *testing.T) {
	e := newEnv(t, 16, Options{})
	payload := strings.Repeat("u", 500) // 536 bytes a version: 15 per page
	root := e.insertCommitted(t, 1, 1, payload)[0]
	const updates = 150
	cur := root
	for i := range updates {
		x := e.o.Begin()
		s := e.snap(x, 0)
		vt, _, ok, err := e.rel.FetchHot(s, root)
		if err != nil || !ok || vt != cur {
			t.Fatalf("update %d: FetchHot %s: %v %v", i, vt, ok, err)
		}
		newtup := mkRow(t, 1, payload)
		ntid, res, _, err := e.rel.Update(s, cur, newtup, x, 0, nil)
		if err != nil || res != TMOk || !IsHeapOnly(newtup) {
			t.Fatalf("update %d: %v %v hot=%v", i, res, err, IsHeapOnly(newtup))
		}
		e.o.Commit(x)
		cur = ntid
	}
	if n, _ := e.rel.NBlocks(); n != 1 {
		t.Errorf("%d blocks after %d updates of one row", n, updates)
	}
	st := e.rel.Stats()
	if st.PagesPruned == 0 || st.TuplesPruned < updates-15 || st.UpdatesHot != updates {
		t.Errorf("stats %+v", st)
	}
	e.withPage(t, 0, func(p page.Page) {
		if n := page.MaxOffset(p); n > 16 {
			t.Errorf("%d line pointers for one row", n)
		}
		if _, f, _ := page.ItemID(p, root.Offset); f != page.LPRedirect {
			t.Errorf("root flags %d", f)
		}
	})
	mustCheckPages(t, e.rel)
	var dropped []page.TID
	vs, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, func(d []page.TID) error { dropped = append(dropped, d...); return nil })
	if err != nil || len(dropped) != 0 || vs.DeadItemsReclaimed != 0 {
		t.Errorf("VACUUM: %v %+v, dropped %v", err, vs, dropped)
	}
	if rows := e.scanAll(t, e.snap(0, 0)); len(rows) != 1 || rows[1].tid != cur {
		t.Errorf("rows: %v", rows)
	}
	mustCheck(t, e.rel)
}

// TestScanRootTID: a sequential scan returns heap-only versions at their
// own TID and RootTID names the chain root, as an index build needs;
// HotRoots agrees.
func TestScanRootTID(t *testing.T) {
	e := newEnv(t, 16, Options{})
	tids := e.insertCommitted(t, 1, 3, "x")
	hotTid, _ := e.update(t, tids[1], 2, "y")
	s := e.rel.NewScan(e.snap(0, 0))
	s.TrackRootTIDs()
	defer s.Close()
	for {
		tid, tup, ok, err := s.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		id, _ := rowOf(t, tup)
		want := tids[id-1]
		if id == 2 && tid != hotTid {
			t.Errorf("row 2 at %s, want its own TID %s", tid, hotTid)
		}
		if s.RootTID() != want {
			t.Errorf("row %d: RootTID %s, want %s", id, s.RootTID(), want)
		}
	}
	roots, err := e.rel.HotRoots(0)
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint16{0, 1, 2, 3, 2}; fmt.Sprint(roots) != fmt.Sprint(want) {
		t.Errorf("HotRoots = %v, want %v", roots, want)
	}
}

// TestFetchHotMatch: a uniqueness check's walk finds the live member behind
// a redirect and reports a chain that is gone.
func TestFetchHotMatch(t *testing.T) {
	e := newEnv(t, 16, Options{})
	root := e.insertCommitted(t, 1, 1, "v0")[0]
	cur, _ := e.update(t, root, 1, "v1")
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	live := func(tup []byte) bool { return Infomask(tup)&HeapXmaxInvalid != 0 }
	found, tup, ok, allDead, err := e.rel.FetchHotMatch(root, live)
	if err != nil || !ok || allDead || found != cur {
		t.Fatalf("FetchHotMatch: %s %v %v %v", found, ok, allDead, err)
	}
	if _, p := rowOf(t, tup); p != "v1" {
		t.Errorf("found %q", p)
	}
	e.deleteCommitted(t, []page.TID{cur})
	if _, _, ok, allDead, _ = e.rel.FetchHotMatch(root, live); ok || allDead {
		t.Errorf("deleted, not pruned: ok %v allDead %v", ok, allDead)
	}
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, func([]page.TID) error { return pgerr.New(pgerr.InternalError, "keep them") }); err == nil {
		t.Fatal("VACUUM ignored the index callback's error")
	}
	if _, _, ok, allDead, _ = e.rel.FetchHotMatch(root, live); ok || !allDead {
		t.Errorf("pruned: ok %v allDead %v", ok, allDead)
	}
}

// TestCheckBadRedirect: Check reports a redirect to a tuple that is not
// heap-only, and a HOT chain that loops.
func TestCheckBadRedirect(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(p page.Page)
	}{
		{"redirect to a root tuple", func(p page.Page) { page.SetItemID(p, 1, 2, page.LPRedirect, 0) }},
		{"loop", func(p page.Page) {
			// (0,2) is HOT-updated to (0,3); make (0,3) HOT-updated back to 2.
			t3 := page.Item(p, 3)
			SetInfomask2(t3, Infomask2(t3)|HeapHotUpdated)
			SetInfomask(t3, Infomask(t3)&^HeapXmaxInvalid)
			SetXmax(t3, Xmin(t3))
			SetCtid(t3, page.TID{Block: 0, Offset: 2})
			t2 := page.Item(p, 2)
			SetXmin(t2, Xmin(t3))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 16, Options{})
			tids := e.insertCommitted(t, 1, 2, "x")
			e.update(t, tids[1], 2, "y")
			mustCheck(t, e.rel)
			buf, err := e.pool.ReadBuffer(testRel, buffer.MainFork, 0)
			if err != nil {
				t.Fatal(err)
			}
			buf.Lock()
			tc.damage(buf.Page())
			buf.MarkDirty()
			buf.Unlock()
			buf.Release()
			err = CheckPages(e.rel)
			if err == nil || !pgerr.IsCorruption(err) {
				t.Fatalf("CheckPages: %v", err)
			}
			t.Log(err)
		})
	}
}

// TestHotConcurrent: writers update their own rows through FetchHot (HOT
// when the new version fits on the page, else to another page with a new
// "index entry"), readers check through the roots that every row has
// exactly one version visible to their snapshot, and VACUUM runs all the
// while, dropping the roots of dead chains. At the end every row has its
// last value and Check passes. With a Pruner, pages are also pruned behind
// the writers' updates.
func TestHotConcurrent(t *testing.T) {
	for _, behind := range []bool{false, true} {
		t.Run(fmt.Sprintf("prune_behind=%v", behind), func(t *testing.T) { hotConcurrent(t, behind) })
	}
}

func hotConcurrent(t *testing.T, behind bool) {
	const writers, rowsPer = 4, 10
	perWriter := 200
	if testing.Short() || raceEnabled {
		perWriter = 50
	}
	e := newEnv(t, 32, Options{FillFactor: 80})
	if behind {
		pr := newPruner(e.o, 0)
		t.Cleanup(pr.Close) // before newEnv's check of the pool's pins
		e.rel = Open(e.pool, testRel, testDesc, Options{FillFactor: 80, Policy: testPolicy(), Pruner: pr})
	}
	e.rel.SetIndexAttrs(IndexAttrs{Indexed: []int{0}})
	var mu sync.Mutex // guards roots and want
	roots := map[int32][]page.TID{}
	want := map[int32]string{}
	for id := int32(0); id < writers*rowsPer; id++ {
		p := fmt.Sprintf("%d-0-%s", id, strings.Repeat("x", 20))
		roots[id] = []page.TID{e.insertCommitted(t, int(id), 1, p)[0]}
		want[id] = p
	}
	visible := func(s *Snapshot, id int32) (page.TID, string, int, error) {
		mu.Lock()
		rs := slices.Clone(roots[id])
		mu.Unlock()
		var at page.TID
		var payload string
		n := 0
		for _, r := range rs {
			vt, tup, ok, err := e.rel.FetchHot(s, r)
			if err != nil {
				return at, "", 0, err
			}
			if ok {
				if gid, p := rowOf(nil, tup); gid == id {
					at, payload = vt, p
					n++
				}
			}
		}
		return at, payload, n, nil
	}
	var wg sync.WaitGroup
	errc := make(chan error, writers+2)
	var stop atomic.Bool
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				id := int32(w*rowsPer + i%rowsPer)
				x := e.o.Begin()
				s := e.snap(x, 0)
				cur, _, n, err := visible(s, id)
				if err != nil || n != 1 {
					errc <- fmt.Errorf("writer %d: row %d: %d visible versions, %v", w, id, n, err)
					return
				}
				// 100-399 bytes: the rows' last versions together (about
				// 10 kB even in short runs) cannot all stay on the page
				// they were inserted on, so some updates must leave it.
				p := fmt.Sprintf("%d-%d-%s", id, i+1, strings.Repeat("y", 100+(i*7)%300))
				newtup := mkRow(nil, id, p)
				ntid, res, _, err := e.rel.Update(s, cur, newtup, x, 0, nil)
				if err != nil || res != TMOk {
					errc <- fmt.Errorf("writer %d: update %s: %v %v", w, cur, res, err)
					return
				}
				if IsHeapOnly(newtup) != (ntid.Block == cur.Block) {
					errc <- fmt.Errorf("writer %d: %s -> %s, heap-only %v", w, cur, ntid, IsHeapOnly(newtup))
					return
				}
				mu.Lock()
				if !IsHeapOnly(newtup) {
					roots[id] = append(roots[id], ntid)
				}
				want[id] = p
				mu.Unlock()
				e.o.Commit(x)
			}
			errc <- nil
		}()
	}
	wg.Add(2)
	go func() { // reader
		defer wg.Done()
		for !stop.Load() {
			rx := e.o.Begin()
			s := e.snap(rx, 0)
			for id := int32(0); id < writers*rowsPer; id++ {
				if _, _, n, err := visible(s, id); err != nil || n != 1 {
					errc <- fmt.Errorf("reader: row %d: %d visible versions, %v", id, n, err)
					e.o.Commit(rx)
					return
				}
			}
			e.o.Commit(rx)
		}
		errc <- nil
	}()
	go func() { // VACUUM
		defer wg.Done()
		for !stop.Load() {
			_, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, func(dead []page.TID) error {
				gone := map[page.TID]bool{}
				for _, d := range dead {
					gone[d] = true
				}
				mu.Lock()
				for id, rs := range roots {
					roots[id] = slices.DeleteFunc(rs, func(r page.TID) bool { return gone[r] })
				}
				mu.Unlock()
				return nil
			})
			if err != nil {
				errc <- err
				return
			}
		}
		errc <- nil
	}()
	for range writers {
		if err := <-errc; err != nil {
			stop.Store(true)
			wg.Wait()
			t.Fatal(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	for range 2 {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	s := e.snap(0, 0)
	for id, w := range want {
		if _, p, n, err := visible(s, id); err != nil || n != 1 || p != w {
			t.Errorf("row %d: %d versions, %q, want %q (%v)", id, n, p, w, err)
		}
	}
	if st := e.rel.Stats(); st.UpdatesHot == 0 || st.UpdatesOtherPage == 0 {
		t.Errorf("stats %+v: want both HOT and other-page updates", st)
	}
	mustCheckPages(t, e.rel)
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, e.rel)
}

package heap

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/fsm"
	"minipg/storage/page"
)

// TestConcurrentInsert: 8 sessions insert into one relation through a
// small buffer pool (so pages are evicted and read back); a scan then finds
// every row exactly once and the relation checks clean, before and after
// VACUUM. Half the sessions insert one row at a time, half in batches
// (MultiInsert with a bulk state).
//
// 200,000 rows per session normally; 20,000 under -short or the race
// detector (make test runs the race pass with -short).
func TestConcurrentInsert(t *testing.T) {
	const sessions = 8
	perSession := 200_000
	if testing.Short() || raceEnabled {
		perSession = 20_000
	}
	e := newEnv(t, 64, Options{})
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for g := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- insertSession(e, g, perSession)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}

	seen := make([]bool, sessions*perSession)
	s := e.rel.NewScan(e.snap(0, 0))
	n := 0
	for {
		tid, tup, ok, err := s.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		id, payload := rowOf(t, tup)
		if id < 0 || int(id) >= len(seen) {
			t.Fatalf("%s: unexpected id %d", tid, id)
		}
		if seen[id] {
			t.Fatalf("%s: row %d seen twice", tid, id)
		}
		if want := payloadFor(int(id)); payload != want {
			t.Fatalf("%s: row %d payload %q, want %q", tid, id, payload, want)
		}
		seen[id] = true
		n++
	}
	s.Close()
	if n != len(seen) {
		t.Fatalf("scan found %d rows, want %d", n, len(seen))
	}
	mustCheckPages(t, e.rel)

	st := e.pool.Stats(testRel)
	if st.BlocksWritten == 0 || st.BlocksRead == 0 {
		t.Errorf("expected eviction through a 64-buffer pool: %+v", st)
	}
	nblocks, _ := e.rel.NBlocks()
	t.Logf("%d rows in %d blocks; pool %+v; policy %+v", n, nblocks, st, e.rel.Policy().Stats())

	vs, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vs.TuplesRemoved != 0 || vs.LiveTuples != n {
		t.Errorf("VACUUM of an insert-only table: %+v", vs)
	}
	mustCheck(t, e.rel)
}

func payloadFor(id int) string { return fmt.Sprintf("payload-%07d", id) }

func insertSession(e *testEnv, g, n int) error {
	xid := e.o.Begin()
	base := g * n
	if g%2 == 0 {
		var st InsertState
		for i := range n {
			id := base + i
			if _, err := e.rel.Insert(mkRow(nil, int32(id), payloadFor(id)), xid, 0, &st); err != nil {
				return err
			}
		}
	} else {
		st := NewBulkInsertState()
		const batch = 100
		for i := 0; i < n; i += batch {
			var tups [][]byte
			for j := i; j < min(n, i+batch); j++ {
				tups = append(tups, mkRow(nil, int32(base+j), payloadFor(base+j)))
			}
			if _, err := e.rel.MultiInsert(tups, xid, 0, st); err != nil {
				return err
			}
		}
	}
	e.o.Commit(xid)
	return nil
}

// TestInsertHeader: Insert stamps the header as heap_prepare_insert and
// RelationPutHeapTuple do, without touching the caller's tuple.
func TestInsertHeader(t *testing.T) {
	e := newEnv(t, 16, Options{})
	tup := mkRow(t, 1, "a")
	SetInfomask(tup, Infomask(tup)|HeapXmaxCommitted|HeapUpdated)
	orig := append([]byte(nil), tup...)
	tid, err := e.rel.Insert(tup, 7, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(tup) != string(orig) {
		t.Fatal("Insert modified the caller's tuple")
	}
	if tid != (page.TID{Block: 0, Offset: 1}) {
		t.Fatalf("first tid %s", tid)
	}
	got := e.rawTuple(t, tid)
	if Xmin(got) != 7 || Cid(got) != 3 || Xmax(got) != 0 || Ctid(got) != tid {
		t.Errorf("header: xmin %d cid %d xmax %d ctid %s", Xmin(got), Cid(got), Xmax(got), Ctid(got))
	}
	if im := Infomask(got); im&HeapXactMask != HeapXmaxInvalid {
		t.Errorf("infomask %#x: want only HEAP_XMAX_INVALID among the transaction bits", im)
	}
	if id, p := rowOf(t, got); id != 1 || p != "a" {
		t.Errorf("row %d %q", id, p)
	}
}

// TestRowTooBig: a tuple that cannot fit on an empty page is 54000 with
// PostgreSQL's message; the largest one that fits is accepted.
func TestRowTooBig(t *testing.T) {
	e := newEnv(t, 16, Options{})
	big := mkRow(t, 1, strings.Repeat("x", 9000))
	_, err := e.rel.Insert(big, 5, 0, nil)
	if pgerr.CodeOf(err) != pgerr.ProgramLimitExceeded {
		t.Fatalf("Insert of %d bytes: %v (code %s)", len(big), err, pgerr.CodeOf(err))
	}
	want := fmt.Sprintf("row is too big: size %d, maximum size 8160", page.MaxAlignLen(len(big)))
	if err.Error() != want {
		t.Errorf("message %q, want %q", err.Error(), want)
	}
	if _, err := e.rel.MultiInsert([][]byte{mkRow(t, 1, "ok"), big}, 5, 0, nil); pgerr.CodeOf(err) != pgerr.ProgramLimitExceeded {
		t.Errorf("MultiInsert: %v", err)
	}
	if n, _ := e.rel.NBlocks(); n != 0 {
		t.Errorf("a failed MultiInsert inserted something: %d blocks", n)
	}
	// Header 24 + int4 4 + 4-byte varlena header 4 = 32; 8160 - 32 fits exactly.
	fits := mkRow(t, 2, strings.Repeat("y", MaxHeapTupleSize-32))
	if len(fits) != MaxHeapTupleSize {
		t.Fatalf("test tuple is %d bytes", len(fits))
	}
	if _, err := e.rel.Insert(fits, 5, 0, nil); err != nil {
		t.Fatalf("tuple of exactly MaxHeapTupleSize: %v", err)
	}
	if _, _, _, err := e.rel.Update(e.snap(6, 0), page.TID{Block: 0, Offset: 1}, big, 6, 0, nil); pgerr.CodeOf(err) != pgerr.ProgramLimitExceeded {
		t.Errorf("Update to a too-big row: %v", err)
	}
	mustCheckPages(t, e.rel)
}

// TestFillFactor: inserts leave the fill factor's reserve free, MultiInsert
// too, and an update may use it for a row already on the page.
func TestFillFactor(t *testing.T) {
	for _, ff := range []int{100, 70, 10} {
		t.Run(fmt.Sprint(ff), func(t *testing.T) {
			e := newEnv(t, 32, Options{FillFactor: ff})
			reserve := page.BlockSize * (100 - ff) / 100
			tids := e.insertCommitted(t, 0, 2000, "fill-factor-row")
			nblocks, _ := e.rel.NBlocks()
			for blk := uint32(0); blk+1 < nblocks; blk++ {
				e.withPage(t, blk, func(p page.Page) {
					free := page.HeapFreeSpace(p)
					// The row takes 48 bytes + a line pointer.
					if free < reserve-page.ItemIDSize || free >= reserve+48 {
						t.Errorf("block %d: %d free, reserve %d", blk, free, reserve)
					}
				})
			}
			// An update of a row on a full page stays there when it fits in
			// the reserve.
			if ff < 100 {
				xid := e.o.Begin()
				ntid, res, _, err := e.rel.Update(e.snap(xid, 0), tids[0], mkRow(t, 0, "fill-factor-row"), xid, 0, nil)
				if err != nil || res != TMOk {
					t.Fatal(res, err)
				}
				if ntid.Block != tids[0].Block {
					t.Errorf("update moved from block %d to %d despite the reserve", tids[0].Block, ntid.Block)
				}
				e.o.Commit(xid)
			}
			mustCheckPages(t, e.rel)
		})
	}
}

// The ctids of a single-session insert/update/delete/VACUUM sequence against
// PostgreSQL 15's: testdata/page/ctids (TestPageScripts).

// TestMultiInsertFillsPages: MultiInsert packs pages like heap_multi_insert
// and returns TIDs in input order.
func TestMultiInsertFillsPages(t *testing.T) {
	e := newEnv(t, 32, Options{})
	var tups [][]byte
	for i := range 1000 {
		tups = append(tups, mkRow(t, int32(i), "multi"))
	}
	x := e.o.Begin()
	tids, err := e.rel.MultiInsert(tups, x, 0, NewBulkInsertState())
	if err != nil {
		t.Fatal(err)
	}
	e.o.Commit(x)
	for i := 1; i < len(tids); i++ {
		a, b := tids[i-1], tids[i]
		if !(b.Block == a.Block && b.Offset == a.Offset+1) && !(b.Block == a.Block+1 && b.Offset == 1) {
			t.Fatalf("tids %s then %s: not packed in order", a, b)
		}
	}
	// Each full page holds as many rows as fit: the tuple is 24+4+6 = 34 ->
	// 40 bytes + 4 line pointer; (8192-24)/44 = 185.
	if tids[185].Block != 1 || tids[184].Block != 0 {
		t.Errorf("rows per page: tid[184]=%s tid[185]=%s", tids[184], tids[185])
	}
	rows := e.scanAll(t, e.snap(0, 0))
	for i, tid := range tids {
		if rows[int32(i)].tid != tid {
			t.Fatalf("row %d at %s, MultiInsert said %s", i, rows[int32(i)].tid, tid)
		}
	}
	mustCheckPages(t, e.rel)
}

// TestPageImageLikePostgres: line pointers and page header after a
// single-session sequence with updates (non-HOT), deletes, VACUUM and
// inserts equal PostgreSQL 15's. Reference, from pageinspect on PostgreSQL
// 15 (autovacuum off; the index on t makes the updates non-HOT, and
// SetIndexAttrs tells the heap about it):
//
//	create table hz (id int4, t text); create index on hz (t);
//	insert into hz select g, 'row-' || g from generate_series(1,6) g;
//	update hz set t = 'updated-two' where id = 2;
//	update hz set t = 'updated-five-longer-text' where id = 5;
//	delete from hz where id = 3; delete from hz where id = 6;
//	vacuum hz;
//	insert into hz values (7, 'seven'), (8, 'eight'), (9, 'nine');
//	select lp, lp_off, lp_flags, lp_len, t_ctid from heap_page_items(get_raw_page('hz', 0));
//	select lower, upper, flags, prune_xid from page_header(get_raw_page('hz', 0));
func TestPageImageLikePostgres(t *testing.T) {
	e := newEnv(t, 16, Options{})
	e.rel.SetIndexAttrs(IndexAttrs{Indexed: []int{1}})
	tids := map[int32]page.TID{}
	for i := int32(1); i <= 6; i++ {
		tids[i] = e.insertCommitted(t, int(i), 1, fmt.Sprintf("row-%d", i))[0]
	}
	update := func(id int32, payload string) {
		x := e.o.Begin()
		ntid, res, _, err := e.rel.Update(e.snap(x, 0), tids[id], mkRow(t, id, payload), x, 0, nil)
		if err != nil || res != TMOk {
			t.Fatal(res, err)
		}
		e.o.Commit(x)
		tids[id] = ntid
	}
	update(2, "updated-two")
	update(5, "updated-five-longer-text")
	e.deleteCommitted(t, []page.TID{tids[3]})
	e.deleteCommitted(t, []page.TID{tids[6]})
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	x := e.o.Begin()
	var st InsertState
	for i, p := range []string{"seven", "eight", "nine"} {
		if _, err := e.rel.Insert(mkRow(t, int32(7+i), p), x, 0, &st); err != nil {
			t.Fatal(err)
		}
	}
	e.o.Commit(x)

	type lp struct{ off, flags, len int }
	want := []lp{{8152, 1, 34}, {7976, 1, 34}, {7936, 1, 34}, {8112, 1, 34}, {7896, 1, 33}, {0, 0, 0}, {8072, 1, 40}, {8016, 1, 53}}
	e.withPage(t, 0, func(p page.Page) {
		if page.Lower(p) != 56 || page.Upper(p) != 7896 || page.Flags(p) != page.PDHasFreeLines || page.PruneXid(p) != 0 {
			t.Errorf("header: lower %d upper %d flags %d prune_xid %d, want 56 7896 1 0",
				page.Lower(p), page.Upper(p), page.Flags(p), page.PruneXid(p))
		}
		for i, w := range want {
			off := uint16(i + 1)
			var got lp
			got.off, got.flags, got.len = page.ItemID(p, off)
			if got != w {
				t.Errorf("lp %d: %+v, want %+v", off, got, w)
			}
			if w.flags == page.LPNormal {
				if c := Ctid(page.Item(p, off)); c != (page.TID{Block: 0, Offset: off}) {
					t.Errorf("lp %d: t_ctid %s", off, c)
				}
			}
		}
	})
	rows := e.scanAll(t, e.snap(0, 0))
	wantTid := map[int32]uint16{1: 1, 2: 7, 4: 4, 5: 8, 7: 2, 8: 3, 9: 5}
	for id, off := range wantTid {
		if rows[id].tid != (page.TID{Block: 0, Offset: off}) {
			t.Errorf("row %d at %s, PostgreSQL has (0,%d)", id, rows[id].tid, off)
		}
	}
}

// TestStaleTarget: a session's target block past the end of the relation
// (after the relation was truncated, as TRUNCATE does) is skipped.
func TestStaleTarget(t *testing.T) {
	e := newEnv(t, 16, Options{})
	var st InsertState
	x := e.o.Begin()
	for i := range 400 {
		if _, err := e.rel.Insert(mkRow(t, int32(i), strings.Repeat("s", 50)), x, 0, &st); err != nil {
			t.Fatal(err)
		}
	}
	e.o.Commit(x)
	if st.targetBlock(testRel) < 2 {
		t.Fatalf("setup: target %d", st.targetBlock(testRel))
	}
	if err := e.pool.TruncateRel(testRel, buffer.MainFork, 0); err != nil {
		t.Fatal(err)
	}
	if err := e.rel.FSM().Truncate(0); err != nil {
		t.Fatal(err)
	}
	tid, err := e.rel.Insert(mkRow(t, 1, "after"), e.o.Begin(), 0, &st)
	if err != nil || tid != (page.TID{Block: 0, Offset: 1}) {
		t.Fatalf("insert after truncation: %s %v", tid, err)
	}
	mustCheckPages(t, e.rel)
}

// TestInvalidateTargets: after InvalidateTargets (VACUUM, DDL) the classic
// policy no longer inserts on a session's remembered target but asks the
// map, as PostgreSQL does when a relcache invalidation resets rd_targblock;
// the locality policy keeps the target. Reopening the table (a new
// Relation on the same file) counts as an invalidation too.
func TestInvalidateTargets(t *testing.T) {
	for _, tc := range []struct {
		policy   fsm.Policy
		wantBlk0 bool // the insert after the invalidation goes to block 0
	}{{fsm.NewClassic(), true}, {fsm.NewLocality(), false}} {
		t.Run(tc.policy.Name(), func(t *testing.T) {
			e := newEnv(t, 64, Options{Policy: tc.policy})
			var st InsertState
			x := e.o.Begin()
			var tids []page.TID
			for i := range 500 {
				tid, err := e.rel.Insert(mkRow(t, int32(i), "x"), x, 0, &st)
				if err != nil {
					t.Fatal(err)
				}
				tids = append(tids, tid)
			}
			e.o.Commit(x)
			last := st.targetBlock(testRel)
			if last == 0 {
				t.Fatalf("setup: 500 rows fit on block 0")
			}
			// Free block 0 and tell the map, as VACUUM would.
			d := e.o.Begin()
			for _, tid := range tids {
				if tid.Block == 0 {
					if res, _, err := e.rel.Delete(e.snap(d, 0), tid, d, 0); err != nil || res != TMOk {
						t.Fatalf("delete %s: %v %v", tid, res, err)
					}
				}
			}
			e.o.Commit(d)
			if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
				t.Fatal(err)
			}
			if blk, inval := st.target(e.rel, false); blk != last || !inval {
				t.Fatalf("after VACUUM: target %d invalidated %v, want %d true", blk, inval, last)
			}
			tid, err := e.rel.Insert(mkRow(t, 1000, "after"), e.o.Begin(), 0, &st)
			if err != nil {
				t.Fatal(err)
			}
			if (tid.Block == 0) != tc.wantBlk0 {
				t.Fatalf("insert after VACUUM went to %s (target was %d)", tid, last)
			}
			if _, inval := st.target(e.rel, false); inval {
				t.Fatal("the insert did not remember its page afresh")
			}
			reopened := Open(e.pool, testRel, testDesc, Options{Policy: tc.policy})
			if _, inval := st.target(reopened, false); !inval {
				t.Fatal("a reopened relation kept the session's target")
			}
		})
	}
}

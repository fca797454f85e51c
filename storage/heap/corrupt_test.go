package heap

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/page"
)

// corruptOnDisk closes e's pool, applies damage to block blk of the main
// fork file, and reopens the pool and relation.
func (e *testEnv) corruptOnDisk(tb testing.TB, blk uint32, damage func(p page.Page)) {
	tb.Helper()
	if err := e.pool.Close(); err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(e.dir, strconv.Itoa(int(testRel)))
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		tb.Fatal(err)
	}
	p := make(page.Page, page.BlockSize)
	if _, err := f.ReadAt(p, int64(blk)*page.BlockSize); err != nil {
		tb.Fatal(err)
	}
	damage(p)
	if _, err := f.WriteAt(p, int64(blk)*page.BlockSize); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	pool, err := buffer.NewPool(buffer.Options{Dir: e.dir, NBuffers: 16})
	if err != nil {
		tb.Fatal(err)
	}
	e.pool = pool
	e.rel = Open(pool, testRel, testDesc, Options{})
}

func wantCorruption(tb testing.TB, what string, err error) {
	tb.Helper()
	if !pgerr.IsCorruption(err) {
		tb.Errorf("%s: got %v (code %s), want a corruption error", what, err, pgerr.CodeOf(err))
	}
}

// scanErr runs a full scan and returns its error.
func scanErr(r *Relation, snap *Snapshot) error {
	s := r.NewScan(snap)
	defer s.Close()
	for {
		_, _, ok, err := s.Next()
		if err != nil || !ok {
			return err
		}
	}
}

// TestCorruptHeader: a page whose header is damaged on disk is reported as
// corruption by every operation that reads it, never a panic.
func TestCorruptHeader(t *testing.T) {
	e := newEnv(t, 16, Options{})
	tids := e.insertCommitted(t, 0, 20, "row")
	e.corruptOnDisk(t, 0, func(p page.Page) {
		p[12], p[13] = 0xff, 0x7f // pd_lower = 32767
	})
	snap := e.snap(0, 0)
	_, _, err := e.rel.Fetch(snap, tids[0])
	wantCorruption(t, "Fetch", err)
	wantCorruption(t, "Scan", scanErr(e.rel, snap))
	wantCorruption(t, "Check", Check(e.rel))
	x := e.o.Begin()
	_, _, _, err = e.rel.Update(e.snap(x, 0), tids[1], mkRow(t, 1, "new"), x, 0, nil)
	wantCorruption(t, "Update", err)
	_, _, err = e.rel.Delete(e.snap(x, 0), tids[1], x, 0)
	wantCorruption(t, "Delete", err)
	_, _, err = e.rel.Lock(e.snap(x, 0), tids[1], x, 0)
	wantCorruption(t, "Lock", err)
	_, err = e.rel.Vacuum(e.o.OldestXmin(), e.o, nil)
	wantCorruption(t, "Vacuum", err)
	// The insert path's last-block fallback reads block 0, the only block.
	_, err = e.rel.Insert(mkRow(t, 99, "x"), x, 0, nil)
	wantCorruption(t, "Insert", err)
}

// TestCorruptLinePointer: damage that passes the header check (a line
// pointer pointing off the page, a bad t_hoff) is found by the code that
// follows it and by Check.
func TestCorruptLinePointer(t *testing.T) {
	e := newEnv(t, 16, Options{})
	tids := e.insertCommitted(t, 0, 20, "row")
	e.corruptOnDisk(t, 0, func(p page.Page) {
		page.SetItemID(p, 2, 8184, page.LPNormal, 100)
	})
	snap := e.snap(0, 0)
	if _, ok, err := e.rel.Fetch(snap, tids[0]); err != nil || !ok {
		t.Errorf("Fetch of an intact tuple: %v %v", ok, err)
	}
	_, _, err := e.rel.Fetch(snap, tids[1])
	wantCorruption(t, "Fetch", err)
	_, _, err = e.rel.FetchAny(tids[1])
	wantCorruption(t, "FetchAny", err)
	wantCorruption(t, "Scan", scanErr(e.rel, snap))
	wantCorruption(t, "Check", Check(e.rel))
	x := e.o.Begin()
	_, _, _, err = e.rel.Update(e.snap(x, 0), tids[1], mkRow(t, 1, "new"), x, 0, nil)
	wantCorruption(t, "Update", err)
	// Pruning and VACUUM step over the damaged item without crashing.
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil && !pgerr.IsCorruption(err) {
		t.Errorf("Vacuum: %v", err)
	}

	e2 := newEnv(t, 16, Options{})
	tids = e2.insertCommitted(t, 0, 3, "row")
	e2.corruptOnDisk(t, 0, func(p page.Page) {
		page.Item(p, tids[2].Offset)[22] = 3 // t_hoff
	})
	wantCorruption(t, "Check (t_hoff)", Check(e2.rel))
}

// TestCheckPage: the checker's verdict on hand-damaged pages.
func TestCheckPage(t *testing.T) {
	r := &Relation{desc: testDesc}
	build := func() page.Page {
		p := make(page.Page, page.BlockSize)
		page.Init(p, 0)
		for i := range 3 {
			tup := mkRow(t, int32(i), "abc")
			off := page.AddItem(p, tup, 0, false, true)
			it := page.Item(p, off)
			SetInfomask(it, Infomask(it)|HeapXmaxInvalid)
			SetXmin(it, FirstNormal)
			SetCtid(it, page.TID{Block: 0, Offset: off})
		}
		return p
	}
	if err := r.checkPage(build(), 0, 1); err != nil {
		t.Fatalf("intact page: %v", err)
	}
	// Undecided and super-deleted speculative insertions are no damage.
	p := build()
	SetCtid(page.Item(p, 1), page.TID{Block: 77, Offset: SpecTokenOffset})
	super := page.Item(p, 2)
	SetXmin(super, InvalidXid)
	SetInfomask(super, Infomask(super)&^heapXmaxBits)
	if err := r.checkPage(p, 0, 1); err != nil {
		t.Fatalf("page with speculative insertions: %v", err)
	}
	cases := []struct {
		name   string
		damage func(p page.Page)
	}{
		{"overlap", func(p page.Page) {
			lpOff, _, lpLen := page.ItemID(p, 2)
			page.SetItemID(p, 3, lpOff, page.LPNormal, lpLen)
		}},
		{"unaligned", func(p page.Page) {
			lpOff, _, lpLen := page.ItemID(p, 2)
			page.SetItemID(p, 2, lpOff+4, page.LPNormal, lpLen-4)
		}},
		{"short tuple", func(p page.Page) {
			lpOff, _, _ := page.ItemID(p, 1)
			page.SetItemID(p, 1, lpOff, page.LPNormal, 10)
		}},
		{"committed update's ctid outside relation", func(p page.Page) {
			t := page.Item(p, 1)
			SetInfomask(t, Infomask(t)&^HeapXmaxInvalid|HeapXmaxCommitted)
			SetXmax(t, 2)
			SetCtid(t, page.TID{Block: 5, Offset: 1})
		}},
		{"ctid offset 0", func(p page.Page) { SetCtid(page.Item(p, 1), page.TID{Block: 0, Offset: 0}) }},
		{"too many attributes", func(p page.Page) {
			it := page.Item(p, 1)
			SetInfomask2(it, Infomask2(it)&^HeapNattsMask|7)
		}},
		{"xmax 0 not invalid", func(p page.Page) {
			it := page.Item(p, 1)
			SetInfomask(it, Infomask(it)&^HeapXmaxInvalid)
		}},
		{"speculative insertion with an xmax", func(p page.Page) {
			it := page.Item(p, 1)
			SetCtid(it, page.TID{Block: 77, Offset: SpecTokenOffset})
			SetInfomask(it, Infomask(it)&^HeapXmaxInvalid)
			SetXmax(it, 5)
		}},
		{"unused with length", func(p page.Page) { page.SetItemID(p, 3, 0, page.LPUnused, 40) }},
		{"bad redirect", func(p page.Page) { page.SetItemID(p, 3, 9, page.LPRedirect, 0) }},
		{"pd_lower misaligned", func(p page.Page) { p[12]++ }},
		{"garbage in a new page", func(p page.Page) {
			clear(p)
			p[100] = 1
		}},
	}
	for _, c := range cases {
		p := build()
		c.damage(p)
		err := r.checkPage(p, 0, 1)
		if !pgerr.IsCorruption(err) {
			t.Errorf("%s: got %v", c.name, err)
		}
	}
}

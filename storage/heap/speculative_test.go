package heap

import (
	"testing"

	"minipg/storage/page"
	"minipg/storage/wal"
)

// TestSpeculativeInsertion: an undecided speculative insertion carries its
// token in t_ctid and is a running transaction's insert to everyone else;
// FinishSpeculative makes it an ordinary insert, AbortSpeculative makes it
// dead to everyone at once (t_xmin 0), including its own transaction and
// the uniqueness check's dirty snapshot, and leaves the page prunable.
func TestSpeculativeInsertion(t *testing.T) {
	e := newEnv(t, 16, Options{})
	r := e.rel
	xid := e.o.Begin()
	var st InsertState
	if _, err := r.InsertSpeculative(mkRow(t, 1, "a"), xid, 0, 0, &st); err != ErrBadSpecToken {
		t.Fatalf("token 0: %v, want ErrBadSpecToken", err)
	}
	kept, err := r.InsertSpeculative(mkRow(t, 1, "kept"), xid, 0, 7, &st)
	if err != nil {
		t.Fatal(err)
	}
	taken, err := r.InsertSpeculative(mkRow(t, 2, "taken back"), xid, 0, 8, &st)
	if err != nil {
		t.Fatal(err)
	}
	for tid, token := range map[page.TID]uint32{kept: 7, taken: 8} {
		tup := e.rawTuple(t, tid)
		if got, ok := SpeculativeToken(tup); !ok || got != token {
			t.Fatalf("%s: token %d %v, want %d", tid, got, ok, token)
		}
		if Ctid(tup) != (page.TID{Block: token, Offset: SpecTokenOffset}) {
			t.Fatalf("%s: t_ctid %s", tid, Ctid(tup))
		}
		if live, wait := SatisfiesDirty(tup, NewOwnXids(xid+100), e.o); !live || wait != xid {
			t.Fatalf("%s: dirty check by another transaction: live %v wait %d, want live, wait %d", tid, live, wait, xid)
		}
	}
	mustCheckPages(t, r) // an undecided insertion is no corruption

	if err := r.FinishSpeculative(kept, nil); err != nil {
		t.Fatal(err)
	}
	if err := r.FinishSpeculative(kept, nil); err == nil {
		t.Fatal("FinishSpeculative of a decided tuple succeeded")
	}
	if tup := e.rawTuple(t, kept); Ctid(tup) != kept {
		t.Fatalf("confirmed tuple: t_ctid %s, want %s", Ctid(tup), kept)
	}
	if err := r.AbortSpeculative(taken, xid+1, e.o, nil); err == nil {
		t.Fatal("AbortSpeculative by another transaction succeeded")
	}
	if err := r.AbortSpeculative(taken, xid, e.o, nil); err != nil {
		t.Fatal(err)
	}
	tup := e.rawTuple(t, taken)
	if Xmin(tup) != InvalidXid || Ctid(tup) != taken || Infomask(tup)&heapXmaxBits != 0 || Infomask2(tup)&HeapKeysUpdated != 0 {
		t.Fatalf("super-deleted tuple: xmin %d ctid %s infomask %#x infomask2 %#x", Xmin(tup), Ctid(tup), Infomask(tup), Infomask2(tup))
	}
	if live, _ := SatisfiesDirty(tup, NewOwnXids(xid), e.o); live {
		t.Fatal("a super-deleted tuple is live to its own transaction's dirty check")
	}
	if _, ok := SpeculativeToken(tup); ok {
		t.Fatal("a super-deleted tuple is still speculative")
	}
	if err := r.AbortSpeculative(kept, xid, e.o, nil); err == nil {
		t.Fatal("AbortSpeculative of a confirmed tuple succeeded")
	}
	e.withPage(t, taken.Block, func(p page.Page) {
		if page.PruneXid(p) == InvalidXid {
			t.Error("the super-delete left the page without a prunable xid")
		}
	})
	mustCheckPages(t, r)

	own := e.scanAll(t, e.snap(xid, 1))
	if len(own) != 1 || own[1].tid != kept {
		t.Fatalf("own transaction sees %v, want row 1 at %s only", own, kept)
	}
	e.o.Commit(xid)
	if got := e.scanAll(t, e.snap(0, 0)); len(got) != 1 || got[1].tid != kept {
		t.Fatalf("after commit: %v, want row 1 at %s only", got, kept)
	}
	// The super-deleted tuple is dead whatever the horizon: VACUUM with a
	// horizon older than its transaction removes it.
	vs, err := r.Vacuum(xid, e.o, func([]page.TID) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if e.lpFlags(t, taken) == page.LPNormal {
		t.Fatalf("VACUUM left the super-deleted tuple (%+v)", vs)
	}
	mustCheckPages(t, r)
}

// TestSpeculativeRedo: replaying the WAL after a crash gives the pages of
// speculative insertions confirmed, taken back and left undecided (its
// t_ctid becomes its own TID, as PostgreSQL's redo makes it and heap_mask
// hides), and logs each with PostgreSQL's record and flags.
func TestSpeculativeRedo(t *testing.T) {
	for _, fpw := range []bool{true, false} {
		e := openWALEnv(t, t.TempDir(), fpw)
		r := e.rel
		xid := e.o.Begin()
		var st InsertState
		var tids []page.TID
		for i := range 6 {
			tid, err := r.InsertSpeculative(mkRow(t, int32(i), "s"), xid, 0, uint32(i+1), &st)
			if err != nil {
				t.Fatal(err)
			}
			tids = append(tids, tid)
			switch i % 3 {
			case 0:
				err = r.FinishSpeculative(tid, nil)
			case 1:
				err = r.AbortSpeculative(tid, xid, e.o, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		want := e.pages(t)
		if err := e.log.FlushAll(); err != nil {
			t.Fatal(err)
		}
		var flags []string
		rd := e.log.NewReader(uint64(e.log.SegmentSize()))
		for {
			rec, err := rd.Next()
			if err != nil {
				break
			}
			if rec.Rmgr != wal.RmgrHeap {
				continue
			}
			_, name := wal.RecordTypeName(rec.Rmgr, rec.Info)
			if d := heapDesc(rec); d != "" {
				name += " " + d
			}
			flags = append(flags, name)
		}
		rd.Close()
		wantRecs := []string{
			"INSERT+INIT off 1 flags 0x04", "HEAP_CONFIRM off 1",
			"INSERT off 2 flags 0x04", "DELETE off 2 flags 0x08 ",
			"INSERT off 3 flags 0x04",
			"INSERT off 4 flags 0x04", "HEAP_CONFIRM off 4",
			"INSERT off 5 flags 0x04", "DELETE off 5 flags 0x08 ",
			"INSERT off 6 flags 0x04",
		}
		if len(flags) != len(wantRecs) {
			t.Fatalf("records %q, want %q", flags, wantRecs)
		}
		for i := range flags {
			if flags[i] != wantRecs[i] {
				t.Fatalf("record %d: %q, want %q (all: %q)", i, flags[i], wantRecs[i], flags)
			}
		}
		got := e.crashAndRecover(t, fpw, nil)
		comparePages(t, want, got.pages(t))
		for i, tid := range tids {
			tup := got.rawTuple(t, tid)
			if Ctid(tup) != tid {
				t.Errorf("fpw=%v: replayed tuple %s: t_ctid %s", fpw, tid, Ctid(tup))
			}
			if superDeleted := Xmin(tup) == InvalidXid; superDeleted != (i%3 == 1) {
				t.Errorf("fpw=%v: replayed tuple %s: t_xmin %d", fpw, tid, Xmin(tup))
			}
		}
		mustCheckPages(t, got.rel)
	}
}

// rawTuple returns a copy of the tuple at tid, whatever its visibility.
func (e *walEnv) rawTuple(tb testing.TB, tid page.TID) []byte {
	tb.Helper()
	tup, ok, err := e.rel.FetchAny(tid)
	if err != nil || !ok {
		tb.Fatalf("FetchAny(%s): ok=%v err=%v", tid, ok, err)
	}
	return tup
}

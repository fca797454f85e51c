package heap

import (
	"testing"

	"minipg/storage/page"
)

// A subtransaction's changes, as Snapshot.Own presents them: while its xid
// is in the set, its transaction sees its inserts and its deletes (of rows
// the parent inserted too, with a combo command id); once the xid leaves
// the set and aborts, its inserts are dead and its deletes undone, for its
// own transaction as for everyone, and the parent may change the rows again.
func TestSubtransactionVisibility(t *testing.T) {
	e := newEnv(t, 16, Options{})
	top, sub := e.o.Begin(), e.o.Begin()
	own := NewOwnXids(top, sub)
	var st InsertState
	tidTop, err := e.rel.Insert(mkRow(t, 1, "top"), top, 0, &st)
	if err != nil {
		t.Fatal(err)
	}
	tidSub, err := e.rel.Insert(mkRow(t, 2, "sub"), sub, 1, &st)
	if err != nil {
		t.Fatal(err)
	}
	snapAt := func(xid, cid uint32) *Snapshot {
		s := e.snap(xid, cid)
		s.Own = own
		return s
	}
	if res, _, err := e.rel.Delete(snapAt(sub, 2), tidTop, sub, 2); err != nil || res != TMOk {
		t.Fatalf("the subtransaction deleting its parent's row: %v %v", res, err)
	}
	if Infomask(tupAt(t, e, tidTop))&HeapComboCid == 0 {
		t.Fatal("a delete of a row of the same transaction keeps cmin and cmax in a combo id")
	}
	if got := e.scanAll(t, snapAt(sub, 3)); len(got) != 1 || got[2].tid != tidSub {
		t.Fatalf("the transaction sees %v, want its subtransaction's row 2 only", got)
	}
	if got := e.scanAll(t, snapAt(top, 1)); len(got) != 1 || got[1].tid != tidTop {
		t.Fatalf("at command 1 the transaction sees %v, want row 1 only", got)
	}
	other := e.o.Begin()
	if got := e.scanAll(t, e.snap(other, 0)); len(got) != 0 {
		t.Fatalf("another transaction sees %v", got)
	}

	// ROLLBACK TO: the subtransaction leaves the set and aborts.
	own.Remove([]uint32{sub})
	e.o.Abort(sub)
	if got := e.scanAll(t, snapAt(top, 3)); len(got) != 1 || got[1].tid != tidTop {
		t.Fatalf("after the rollback the transaction sees %v, want its row 1 back and row 2 gone", got)
	}
	live, wait := SatisfiesDirty(tupAt(t, e, tidSub), own, e.o)
	if live || wait != 0 {
		t.Fatalf("a rolled-back subtransaction's row: live %v, wait %d", live, wait)
	}
	if _, res, _, err := e.rel.Update(snapAt(top, 3), tidTop, mkRow(t, 1, "again"), top, 3, &st); err != nil || res != TMOk {
		t.Fatalf("the parent updating the row its rolled-back subtransaction deleted: %v %v", res, err)
	}
	e.o.Commit(top)
	got := e.scanAll(t, e.snap(other, 0))
	if len(got) != 1 || got[1].payload != "again" {
		t.Fatalf("after the commit another transaction sees %v", got)
	}
	mustCheck(t, e.rel)
}

// tupAt returns the tuple at tid, which must hold one.
func tupAt(t *testing.T, e *testEnv, tid page.TID) []byte {
	t.Helper()
	tup, ok, err := e.rel.FetchAny(tid)
	if err != nil || !ok {
		t.Fatalf("no tuple at %s: %v", tid, err)
	}
	return tup
}

// OwnXids answers alike with few members and many (a map past a few),
// and after removals.
func TestOwnXidsMany(t *testing.T) {
	o := NewOwnXids()
	for x := uint32(10); x < 2010; x += 2 {
		o.Add(x)
	}
	if !o.Has(10) || !o.Has(2008) || o.Has(11) || o.Has(2010) || o.Has(InvalidXid) {
		t.Fatal("membership with many xids")
	}
	o.Remove([]uint32{10, 1000, 2008})
	if o.Has(10) || o.Has(1000) || o.Has(2008) || !o.Has(12) || len(o.Xids()) != 997 {
		t.Fatalf("after removal: %d members", len(o.Xids()))
	}
	var nilSet *OwnXids
	if nilSet.Has(5) || len(nilSet.Xids()) != 0 {
		t.Fatal("a nil set is empty")
	}
}

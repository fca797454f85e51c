package heap

import (
	"testing"

	"minipg/storage/page"
)

// TestRewriteFate: what a rewrite by xOwn does with each kind of version.
// Another transaction still running that inserted, deleted or locked a
// version is waited for; the own transaction's changes keep their
// transaction; committed rows are copied frozen.
func TestRewriteFate(t *testing.T) {
	lockOnly := uint16(HeapXmaxLockOnly | HeapXmaxExclLock)
	cases := []struct {
		name string
		h    hdr
		fate CopyFate
		wait uint32
	}{
		{"committed insert", hdr{xmin: xCommitted}, CopyFrozen, 0},
		{"frozen", hdr{xmin: xAborted, mask: HeapXminFrozen}, CopyFrozen, 0},
		{"aborted insert", hdr{xmin: xAborted}, CopyNone, 0},
		{"aborted insert, hinted", hdr{xmin: xCommitted, mask: HeapXminInvalid}, CopyNone, 0},
		{"running insert", hdr{xmin: xRunning}, CopyNone, xRunning},
		{"own insert", hdr{xmin: xOwn}, CopyInsertedBy, 0},
		{"own insert, own delete", hdr{xmin: xOwn, xmax: xOwn}, CopyNone, 0},
		{"own insert, own lock", hdr{xmin: xOwn, xmax: xOwn, mask: lockOnly}, CopyInsertedBy, 0},
		{"own insert, aborted delete", hdr{xmin: xOwn, xmax: xAborted}, CopyInsertedBy, 0},
		{"committed delete", hdr{xmin: xCommitted, xmax: xCommitted}, CopyNone, 0},
		{"committed delete, hinted", hdr{xmin: xCommitted, xmax: xRunning, mask: HeapXmaxCommitted}, CopyNone, 0},
		{"aborted delete", hdr{xmin: xCommitted, xmax: xAborted}, CopyFrozen, 0},
		{"running delete", hdr{xmin: xCommitted, xmax: xRunning}, CopyNone, xRunning},
		{"own delete", hdr{xmin: xCommitted, xmax: xOwn}, CopyDeletedBy, 0},
		{"own lock", hdr{xmin: xCommitted, xmax: xOwn, mask: lockOnly}, CopyFrozen, 0},
		{"running lock", hdr{xmin: xCommitted, xmax: xRunning, mask: lockOnly}, CopyNone, xRunning},
		{"committed lock", hdr{xmin: xCommitted, xmax: xCommitted, mask: lockOnly}, CopyFrozen, 0},
	}
	for _, c := range cases {
		fate, wait := RewriteFate(c.h.tuple(t), NewOwnXids(xOwn), visOracle)
		if fate != c.fate || wait != c.wait {
			t.Errorf("%s: fate %d wait %d, want %d %d", c.name, fate, wait, c.fate, c.wait)
		}
	}
	own := NewOwnXids(xOwn)
	if !DeletedBy(hdr{xmin: xCommitted, xmax: xOwn}.tuple(t), own) || DeletedBy(hdr{xmin: xCommitted, xmax: xOwn, mask: lockOnly}.tuple(t), own) ||
		DeletedBy(hdr{xmin: xCommitted}.tuple(t), own) || DeletedBy(hdr{xmin: xCommitted, xmax: xOwn}.tuple(t), nil) {
		t.Error("DeletedBy: a deletion by xid only")
	}
}

// TestInsertFrozen: a row inserted frozen is visible to every snapshot
// whatever becomes of its inserter, also after WAL replay (the record
// carries HEAP_XMIN_FROZEN).
func TestInsertFrozen(t *testing.T) {
	e := newEnv(t, 16, Options{})
	xid := e.o.Begin()
	var st InsertState
	frozen, err := e.rel.InsertFrozen(mkRow(t, 1, "frozen"), xid, 0, &st)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.rel.Insert(mkRow(t, 2, "plain"), xid, 0, &st); err != nil {
		t.Fatal(err)
	}
	// Another transaction sees the frozen row before the inserter ends,
	// and after it aborts; not the plain one.
	other := e.o.Begin()
	for _, when := range []string{"running", "aborted"} {
		rows := e.scanAll(t, e.snap(other, 0))
		if _, ok := rows[1]; !ok || len(rows) != 1 {
			t.Fatalf("inserter %s: rows %v, want only the frozen one", when, rows)
		}
		e.o.Abort(xid)
	}
	if im := Infomask(e.rawTuple(t, frozen)); im&HeapXminFrozen != HeapXminFrozen {
		t.Fatalf("infomask %#x: HEAP_XMIN_FROZEN not set", im)
	}
	mustCheck(t, e.rel)
}

// TestInsertFrozenRedo: the insert record carries HEAP_XMIN_FROZEN, so the
// replayed row is visible though its inserter never committed.
func TestInsertFrozenRedo(t *testing.T) {
	e := openWALEnv(t, t.TempDir(), false)
	xid := e.o.Begin()
	var st InsertState
	tid, err := e.rel.InsertFrozen(mkRow(t, 7, "frozen"), xid, 0, &st)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.log.FlushAll(); err != nil {
		t.Fatal(err)
	}
	r := e.crashAndRecover(t, false, nil)
	if im := Infomask(mustFetchAny(t, r.rel, tid)); im&HeapXminFrozen != HeapXminFrozen {
		t.Fatalf("replayed infomask %#x: HEAP_XMIN_FROZEN lost", im)
	}
	r.o.Abort(r.o.Begin()) // the recovered oracle knows nothing of xid
	if _, ok, err := r.rel.Fetch(r.o.Snapshot(0, 0), tid); err != nil || !ok {
		t.Fatalf("replayed frozen row not visible: %v %v", ok, err)
	}
	mustCheckPages(t, r.rel)
}

func mustFetchAny(t *testing.T, r *Relation, tid page.TID) []byte {
	t.Helper()
	tup, ok, err := r.FetchAny(tid)
	if err != nil || !ok {
		t.Fatalf("fetch %s: %v %v", tid, ok, err)
	}
	return tup
}

package heap

import (
	"strings"
	"testing"
)

// loggedSinceRedo tells a page changed since the last checkpoint's redo
// point (its next change costs no full-page image) from one that is not.
func TestLoggedSinceRedo(t *testing.T) {
	e := openWALEnv(t, t.TempDir(), true)
	xid := e.o.Begin()
	var st InsertState
	for i := 0; i < 200; i++ {
		if _, err := e.rel.Insert(mkRow(t, int32(i), strings.Repeat("x", 100)), xid, uint32(i), &st); err != nil {
			t.Fatal(err)
		}
	}
	e.o.Commit(xid)
	n, err := e.rel.NBlocks()
	if err != nil || n < 3 {
		t.Fatalf("%d blocks (%v), want at least 3", n, err)
	}
	if !e.rel.loggedSinceRedo(0) || !e.rel.loggedSinceRedo(n-1) {
		t.Fatal("pages changed after the redo point are not reported logged")
	}
	if e.rel.loggedSinceRedo(n + 5) {
		t.Fatal("a block that does not exist is reported logged")
	}
	e.checkpoint(t)
	if e.rel.loggedSinceRedo(0) {
		t.Fatal("a page not changed since the checkpoint's redo point is reported logged")
	}
	xid = e.o.Begin()
	st = InsertState{}
	if _, err := e.rel.Insert(mkRow(t, 1, "y"), xid, 0, &st); err != nil {
		t.Fatal(err)
	}
	e.o.Commit(xid)
	got := 0
	for blk := uint32(0); blk < n; blk++ {
		if e.rel.loggedSinceRedo(blk) {
			got++
		}
	}
	if got != 1 {
		t.Fatalf("%d pages logged after one insert past the checkpoint, want 1", got)
	}
}

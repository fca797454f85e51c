package heap

import (
	"testing"

	"minipg/storage/fsm"
)

// With SetIgnoreTarget every insert goes to the policy without a target
// block, and the remembered target comes back when the flag is cleared.
func TestInsertStateIgnoreTarget(t *testing.T) {
	e := newEnv(t, 64, Options{Policy: fsm.NewClassic()})
	xid := e.o.Begin()
	var st InsertState
	insert := func(n int) {
		t.Helper()
		for i := range n {
			if _, err := e.rel.Insert(mkRow(t, int32(i), "x"), xid, 0, &st); err != nil {
				t.Fatal(err)
			}
		}
	}
	insert(10)
	before := e.rel.Policy().Stats().TargetTries
	if before != 9 {
		t.Fatalf("target tries after 10 inserts = %d, want 9", before)
	}
	st.SetIgnoreTarget(true)
	insert(10)
	if got := e.rel.Policy().Stats().TargetTries; got != before {
		t.Fatalf("target tries with the target ignored went from %d to %d", before, got)
	}
	if blk := st.targetBlock(testRel); blk != 0 {
		t.Fatalf("remembered target = %d, want 0 (kept while ignored)", blk)
	}
	st.SetIgnoreTarget(false)
	insert(1)
	if got := e.rel.Policy().Stats().TargetTries; got != before+1 {
		t.Fatalf("target tries after clearing the flag = %d, want %d", got, before+1)
	}
	e.o.Commit(xid)
}

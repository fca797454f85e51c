package txn

import (
	"context"
	"slices"
	"testing"

	"minipg/pgerr"
	"minipg/storage/heap"
)

// Subtransactions: a savepoint's xid is assigned after its parents',
// counts as the transaction's own, is running for everyone else until its
// top level ends, and a rollback to it aborts it (and what was released
// into it) at once while the top level goes on.
func TestSubtransactions(t *testing.T) {
	m := open(t, t.TempDir())
	var commits, aborts [][]uint32
	m.SetCommitHook(func(xid uint32, subs []uint32) error {
		commits = append(commits, append([]uint32{xid}, subs...))
		return nil
	})
	m.SetAbortHook(func(xid uint32, subs []uint32) error {
		aborts = append(aborts, append([]uint32{xid}, subs...))
		return nil
	})
	tx, other := m.Begin(), m.Begin()
	tx.BeginSub() // s1
	tx.BeginSub() // s2
	if tx.XidIfAssigned() != InvalidXid || tx.TopXid() != InvalidXid {
		t.Fatal("xids before the first write")
	}
	s2 := mustXid(t, tx)
	top := tx.TopXid()
	if top == InvalidXid || s2 != top+2 || tx.SubDepth() != 2 {
		t.Fatalf("top %d, s2 %d, depth %d: parents get their xids first", top, s2, tx.SubDepth())
	}
	s1 := top + 1
	if got := tx.Own().Xids(); !slices.Equal(got, []uint32{top, s1, s2}) {
		t.Fatalf("own %v", got)
	}
	snap := other.Snapshot()
	for _, x := range []uint32{top, s1, s2} {
		if !slices.Contains(snap.Xip, x) || snap.IsCurrent(x) {
			t.Errorf("xid %d: another transaction's snapshot must see it running", x)
		}
	}
	own := tx.Snapshot()
	if own.CurXid != s2 || !own.IsCurrent(top) || !own.IsCurrent(s1) || len(own.Xip) != 0 {
		t.Fatalf("own snapshot: cur %d, xip %v", own.CurXid, own.Xip)
	}

	tx.ReleaseSub() // s2 into s1
	tx.BeginSub()   // s3
	s3 := mustXid(t, tx)
	// ROLLBACK TO s1: s1, its released s2, and s3 inside it all abort.
	if err := tx.RollbackSub(); err != nil { // s3
		t.Fatal(err)
	}
	if err := tx.RollbackSub(); err != nil { // s1 (with s2)
		t.Fatal(err)
	}
	if want := [][]uint32{{s3}, {s1, s2}}; !slices.EqualFunc(aborts, want, slices.Equal) {
		t.Fatalf("abort records %v, want %v", aborts, want)
	}
	for _, x := range []uint32{s1, s2, s3} {
		if m.Status(x) != heap.XidAborted || tx.Own().Has(x) || own.IsCurrent(x) {
			t.Errorf("xid %d after the rollback: %v, own %v", x, m.Status(x), tx.Own().Has(x))
		}
	}
	if m.Status(top) != heap.XidInProgress || tx.XidIfAssigned() != top {
		t.Fatal("the top level must go on")
	}

	tx.BeginSub() // s4, released and committed with the top level
	s4 := mustXid(t, tx)
	tx.ReleaseSub()
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if want := [][]uint32{{top, s4}}; !slices.EqualFunc(commits, want, slices.Equal) {
		t.Fatalf("commit records %v, want %v", commits, want)
	}
	for _, x := range []uint32{top, s4} {
		if m.Status(x) != heap.XidCommitted {
			t.Errorf("xid %d: %v after the commit", x, m.Status(x))
		}
	}
	if len(m.Running()) != 0 {
		t.Fatalf("running after the end: %v", m.Running())
	}

	// An abort of the top level aborts its open and released subtransactions.
	tx = m.Begin()
	tx.BeginSub()
	sa := mustXid(t, tx)
	tx.ReleaseSub()
	tx.BeginSub()
	sb := mustXid(t, tx)
	if err := tx.Abort(); err != nil {
		t.Fatal(err)
	}
	for _, x := range []uint32{tx.TopXid(), sa, sb} {
		if m.Status(x) != heap.XidAborted {
			t.Errorf("xid %d: %v after the abort", x, m.Status(x))
		}
	}
}

// A waiter for a subtransaction's xid wakes when it is rolled back, or when
// its top level ends if it was released; the deadlock check follows top
// levels through subtransactions.
func TestSubtransactionWait(t *testing.T) {
	m := open(t, t.TempDir())
	a, b := m.Begin(), m.Begin()
	xa := mustXid(t, a)
	b.BeginSub()
	sb := mustXid(t, b)
	done := make(chan error)
	go func() { done <- a.WaitFor(context.Background(), sb) }()
	awaitWaiting(m, xa)
	// b waiting for a closes the cycle a -> b's subtransaction -> a.
	if err := b.WaitFor(context.Background(), xa); pgerr.CodeOf(err) != pgerr.DeadlockDetected {
		t.Fatalf("WaitFor closing a cycle through a subtransaction = %v, want 40P01", err)
	}
	if err := b.WaitFor(context.Background(), b.TopXid()); pgerr.CodeOf(err) != pgerr.DeadlockDetected {
		t.Fatalf("waiting for one's own top level = %v", err)
	}
	if err := b.RollbackSub(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if m.Status(sb) != heap.XidAborted || m.Status(b.TopXid()) != heap.XidInProgress {
		t.Fatal("rollback to the savepoint must abort the subtransaction only")
	}

	b.BeginSub()
	sb2 := mustXid(t, b)
	b.ReleaseSub()
	go func() { done <- a.WaitFor(context.Background(), sb2) }()
	awaitWaiting(m, xa)
	select {
	case err := <-done:
		t.Fatalf("a released subtransaction ended the wait: %v", err)
	default:
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if m.Status(sb2) != heap.XidCommitted {
		t.Fatal("released subtransaction not committed with its top level")
	}
}

package txn

import (
	"context"
	"testing"
	"time"

	"minipg/pgerr"
)

// TestSpeculativeLock: a waiter for a speculative insertion lock wakes when
// the holder releases it or its transaction ends, not before; a token no
// longer held (or never) does not block; the wait takes part in deadlock
// detection as a wait for the holder's transaction.
func TestSpeculativeLock(t *testing.T) {
	m := open(t, t.TempDir())
	a, b := m.Begin(), m.Begin()
	xa, _ := mustXid(t, a), mustXid(t, b)
	tok, err := a.BeginSpeculative()
	if err != nil || tok == 0 {
		t.Fatalf("BeginSpeculative = %d, %v", tok, err)
	}
	if err := b.WaitForSpeculative(context.Background(), xa, tok+1); err != nil {
		t.Fatalf("wait for a token not held: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- b.WaitForSpeculative(context.Background(), xa, tok) }()
	awaitWaiting(m, mustXid(t, b))
	select {
	case err := <-done:
		t.Fatalf("the wait ended while the lock was held: %v", err)
	case <-time.After(20 * time.Millisecond):
	}
	a.EndSpeculative()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := b.WaitForSpeculative(context.Background(), xa, tok); err != nil {
		t.Fatalf("wait for a released token: %v", err)
	}
	// A new token for the next insertion; the old one no longer blocks.
	tok2, err := a.BeginSpeculative()
	if err != nil || tok2 == tok {
		t.Fatalf("second BeginSpeculative = %d (first %d), %v", tok2, tok, err)
	}
	if err := b.WaitForSpeculative(context.Background(), xa, tok); err != nil {
		t.Fatal(err)
	}
	// b waits for a's insertion; a waiting for b closes the cycle.
	go func() { done <- b.WaitForSpeculative(context.Background(), xa, tok2) }()
	awaitWaiting(m, b.XidIfAssigned())
	if err := a.WaitFor(context.Background(), b.XidIfAssigned()); pgerr.CodeOf(err) != pgerr.DeadlockDetected {
		t.Fatalf("WaitFor closing a cycle through a speculative wait = %v, want 40P01", err)
	}
	// The end of a's transaction releases the lock it still holds.
	if err := a.Abort(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := m.Begin()
	tok3, err := c.BeginSpeculative()
	if err != nil {
		t.Fatal(err)
	}
	go func() { done <- b.WaitForSpeculative(ctx, c.XidIfAssigned(), tok3) }()
	awaitWaiting(m, b.XidIfAssigned())
	cancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("cancelled wait = %v", err)
	}
	if err := c.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
}

package txn

import (
	"context"
	"errors"
	"testing"
	"time"

	"minipg/pgerr"
)

// TestLockTimeout: each kind of lock wait gives up with 55P03 once the
// context's lock timeout passes, and a relation lock given up leaves the
// lock usable.
func TestLockTimeout(t *testing.T) {
	m := open(t, t.TempDir())
	ctx := WithLockTimeout(context.Background(), 50*time.Millisecond)
	is55P03 := func(err error) bool { return pgerr.CodeOf(err) == pgerr.LockNotAvailable }

	holder, waiter := m.Begin(), m.Begin()
	xh := mustXid(t, holder)
	mustXid(t, waiter)
	start := time.Now()
	if err := waiter.WaitFor(ctx, xh); !is55P03(err) {
		t.Fatalf("WaitFor: %v", err)
	}
	if err := m.Wait(ctx, xh); !is55P03(err) {
		t.Fatalf("Wait: %v", err)
	}
	if took := time.Since(start); took < 100*time.Millisecond || took > 5*time.Second {
		t.Fatalf("two waits of 50ms took %v", took)
	}
	rel, err := m.LockRelation(ctx, 7, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.LockRelation(ctx, 7, false); !is55P03(err) {
		t.Fatalf("LockRelation: %v", err)
	}
	rel()
	rel, err = m.LockRelation(ctx, 7, false)
	if err != nil {
		t.Fatalf("after a timed-out waiter: %v", err)
	}
	rel()
	// Without a lock timeout a wait lasts until the context ends.
	cctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := waiter.WaitFor(WithLockTimeout(cctx, 0), xh); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("no lock timeout: %v", err)
	}
	if err := holder.Abort(); err != nil {
		t.Fatal(err)
	}
	if err := waiter.Abort(); err != nil {
		t.Fatal(err)
	}
}

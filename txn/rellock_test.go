package txn

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestRelationLocks(t *testing.T) {
	m := open(t, t.TempDir())
	ctx := context.Background()
	r1, err := m.LockRelation(ctx, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := m.LockRelation(ctx, 1, false) // shared + shared
	if err != nil {
		t.Fatal(err)
	}
	other, err := m.LockRelation(ctx, 2, true) // another relation
	if err != nil {
		t.Fatal(err)
	}
	other()

	// An exclusive request waits for the readers and holds back new readers.
	got := make(chan func())
	go func() {
		rel, err := m.LockRelation(ctx, 1, true)
		if err != nil {
			t.Error(err)
		}
		got <- rel
	}()
	for {
		m.rel.mu.Lock()
		w := m.rel.locks[1].waitingWriters
		m.rel.mu.Unlock()
		if w == 1 {
			break
		}
		runtimeGosched()
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := m.LockRelation(cctx, 1, false); !errors.Is(err, context.Canceled) {
		t.Fatalf("reader behind a waiting writer: %v", err)
	}
	select {
	case <-got:
		t.Fatal("exclusive lock granted while shared held")
	default:
	}
	r1()
	r1() // a second call is a no-op
	r2()
	x := <-got
	if _, err := m.LockRelation(cctx, 1, false); !errors.Is(err, context.Canceled) {
		t.Fatal("shared lock granted while exclusive held")
	}
	x()
	m.rel.mu.Lock()
	n := len(m.rel.locks)
	m.rel.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d unused lock entries kept", n)
	}
}

// TestRelationLockExclusion: DDL never runs while DML holds the lock.
func TestRelationLockExclusion(t *testing.T) {
	m := open(t, t.TempDir())
	var mu sync.Mutex
	readers, writers := 0, 0
	var wg sync.WaitGroup
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func(excl bool) {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				rel, err := m.LockRelation(context.Background(), 7, excl)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if excl {
					writers++
				} else {
					readers++
				}
				if writers > 1 || (writers == 1 && readers > 0) {
					t.Errorf("conflict: %d writers, %d readers", writers, readers)
				}
				mu.Unlock()
				runtimeGosched()
				mu.Lock()
				if excl {
					writers--
				} else {
					readers--
				}
				mu.Unlock()
				rel()
			}
		}(g%3 == 0)
	}
	wg.Wait()
}

// TryLockRelationExclusive succeeds only on a free lock, never waits, and
// its lock excludes others like an exclusive LockRelation.
func TestTryLockRelationExclusive(t *testing.T) {
	m := open(t, t.TempDir())
	ctx := context.Background()
	shared, err := m.LockRelation(ctx, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.TryLockRelationExclusive(1); ok {
		t.Fatal("took an exclusive lock over a shared one")
	}
	shared()
	release, ok := m.TryLockRelationExclusive(1)
	if !ok {
		t.Fatal("free lock not taken")
	}
	if _, ok := m.TryLockRelationExclusive(1); ok {
		t.Fatal("took the exclusive lock twice")
	}
	got := make(chan struct{})
	go func() {
		rel, err := m.LockRelation(ctx, 1, false)
		if err == nil {
			rel()
		}
		close(got)
	}()
	select {
	case <-got:
		t.Fatal("shared lock granted over the exclusive one")
	case <-time.After(20 * time.Millisecond):
	}
	release()
	<-got
	release() // idempotent
	if r, ok := m.TryLockRelationExclusive(1); !ok {
		t.Fatal("lock not free after release")
	} else {
		r()
	}
}

// A yielding holder is asked to give way when DDL waits for the lock, and
// is not granted the lock while DDL holds or waits for it.
func TestTryLockRelationYielding(t *testing.T) {
	m := open(t, t.TempDir())
	asked := make(chan struct{}, 1)
	release, ok := m.TryLockRelationYielding(5, func() { asked <- struct{}{} })
	if !ok {
		t.Fatal("free lock not granted")
	}
	got := make(chan func())
	go func() {
		rel, err := m.LockRelation(context.Background(), 5, true)
		if err != nil {
			t.Error(err)
		}
		got <- rel
	}()
	select {
	case <-asked:
	case <-time.After(5 * time.Second):
		t.Fatal("yielding holder not asked to give way")
	}
	if _, ok := m.TryLockRelationYielding(5, func() {}); ok {
		t.Fatal("granted while an exclusive request waits")
	}
	select {
	case <-got:
		t.Fatal("exclusive lock granted while shared held")
	case <-time.After(20 * time.Millisecond):
	}
	release()
	ddl := <-got
	if _, ok := m.TryLockRelationYielding(5, func() {}); ok {
		t.Fatal("granted while held exclusively")
	}
	ddl()
	r2, ok := m.TryLockRelationYielding(5, func() { t.Error("asked with no one waiting") })
	if !ok {
		t.Fatal("not granted after release")
	}
	r2()
}

// TestRelationLockEntriesReused locks and unlocks relations over and over,
// with waiters and timed-out waiters between, so that lock entries and their
// wake-up channels are recycled: every waiter is woken, none is granted a
// conflicting lock, and no entry is left behind.
func TestRelationLockEntriesReused(t *testing.T) {
	m := open(t, t.TempDir())
	ctx := context.Background()
	for i := 0; i < 200; i++ {
		oid := uint32(1 + i%3)
		r1, err := m.LockRelation(ctx, oid, false)
		if err != nil {
			t.Fatal(err)
		}
		if i%5 == 0 {
			// A waiter that gives up leaves a channel no one closes.
			cctx, cancel := context.WithTimeout(ctx, time.Millisecond)
			if _, err := m.LockRelation(cctx, oid, true); err == nil {
				t.Fatal("exclusive lock granted while shared held")
			}
			cancel()
		}
		got := make(chan func())
		go func() {
			x, err := m.LockRelation(ctx, oid, true)
			if err != nil {
				t.Error(err)
			}
			got <- x
		}()
		for {
			m.rel.mu.Lock()
			w := m.rel.locks[oid].waitingWriters
			m.rel.mu.Unlock()
			if w == 1 {
				break
			}
			time.Sleep(50 * time.Microsecond)
		}
		r1()
		select {
		case x := <-got:
			x()
		case <-time.After(10 * time.Second):
			t.Fatalf("round %d: the waiting writer was not woken", i)
		}
	}
	m.rel.mu.Lock()
	n := len(m.rel.locks)
	m.rel.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d unused lock entries kept", n)
	}
}

// A lock owner (a session) that holds a relation shared gets it shared
// again at once, even past a waiting exclusive request, and is refused an
// exclusive lock at once instead of waiting for itself; others are not.
func TestRelationLockOwner(t *testing.T) {
	m := open(t, t.TempDir())
	type session struct{ name string }
	a, b := &session{"a"}, &session{"b"}
	ctxA := WithLockOwner(context.Background(), a)
	ctxB := WithLockOwner(context.Background(), b)
	cursor, err := m.LockRelation(ctxA, 7, false)
	if err != nil {
		t.Fatal(err)
	}
	if !m.HeldShared(a, 7) || m.HeldShared(b, 7) || m.HeldShared(a, 8) {
		t.Fatal("HeldShared")
	}
	// b's DDL waits for a's cursor.
	got := make(chan error, 1)
	go func() {
		rel, err := m.LockRelation(ctxB, 7, true)
		if err == nil {
			rel()
		}
		got <- err
	}()
	for {
		m.rel.mu.Lock()
		w := m.rel.locks[7].waitingWriters
		m.rel.mu.Unlock()
		if w == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	// a's next statement on the table does not queue behind b.
	stmt, err := m.LockRelation(ctxA, 7, false)
	if err != nil {
		t.Fatal(err)
	}
	stmt()
	_, err = m.LockRelation(ctxA, 7, true)
	var inUse *RelationInUseError
	if !errors.As(err, &inUse) || inUse.OID != 7 {
		t.Fatalf("exclusive request of the holder: %v, want RelationInUseError", err)
	}
	select {
	case err := <-got:
		t.Fatalf("b got the exclusive lock while a holds it shared: %v", err)
	default:
	}
	cursor()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if m.HeldShared(a, 7) {
		t.Fatal("a still holds the lock after releasing it")
	}
	m.rel.mu.Lock()
	n := len(m.rel.locks)
	m.rel.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d lock entries left", n)
	}
}

package buffer

import (
	"sync"
	"sync/atomic"
)

// ExtensionLock is a relation's extension lock (PostgreSQL's
// LockRelationForExtension). One exists per relation; Pool.ExtensionLock
// returns it. It is never taken while holding a buffer content lock.
type ExtensionLock struct {
	mu      sync.Mutex   // held by the session extending the relation
	waiters atomic.Int32 // sessions blocked in Lock
}

// Lock takes the lock, counting the caller as a waiter while it is blocked.
func (l *ExtensionLock) Lock() {
	if l.mu.TryLock() {
		return
	}
	l.waiters.Add(1)
	l.mu.Lock()
	l.waiters.Add(-1)
}

// TryLock takes the lock if it is free (ConditionalLockRelationForExtension).
func (l *ExtensionLock) TryLock() bool { return l.mu.TryLock() }

// Unlock releases the lock.
func (l *ExtensionLock) Unlock() { l.mu.Unlock() }

// Waiters returns the number of sessions currently blocked in Lock
// (RelationExtensionLockWaiterCount). It is a hint: it may change as soon as
// it is read.
func (l *ExtensionLock) Waiters() int { return int(l.waiters.Load()) }

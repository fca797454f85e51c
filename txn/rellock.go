package txn

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// relLocks is the relation lock table: one shared/exclusive lock per
// relation OID, held shared by DML and exclusively by DDL (DROP TABLE,
// CREATE INDEX, ALTER TABLE), for the duration of a statement. It is a
// simplification of PostgreSQL's heavyweight locks (RowExclusiveLock vs
// AccessExclusiveLock), without deadlock detection: a waiter gives up when
// its statement's ctx is cancelled.
type relLocks struct {
	mu    sync.Mutex // protects locks, free and every relLock's fields
	locks map[uint32]*relLock
	// free keeps a few entries removed from locks for reuse: most
	// statements lock a table no one else holds at that moment.
	free []*relLock
}

// maxFreeRelLocks bounds relLocks.free.
const maxFreeRelLocks = 16

type relLock struct {
	refs           int // holders and waiters; the entry is removed at 0
	readers        int
	writer         bool
	waitingWriters int
	// owners counts the shared holds of each lock owner (WithLockOwner)
	// among readers.
	owners   map[any]int
	changed  chan struct{}         // made by the first waiter; closed (and dropped) when the lock is released
	yielders map[*yielder]struct{} // shared holders that give way to a waiting writer
}

// yielder is a shared holder taken with LockRelationYielding.
type yielder struct {
	fn     func()
	called bool
}

// LockRelation takes the lock on relation oid, shared or exclusive, waiting
// while it conflicts; a waiting exclusive request blocks new shared ones, so
// DDL is not starved by a stream of DML. Returns ctx.Err() if ctx ends
// first, 55P03 if ctx's lock timeout (WithLockTimeout) passes first. The
// returned func releases the lock and must be called exactly once. The
// caller must not hold a buffer lock or Manager lock while waiting.
//
// ctx's lock owner (WithLockOwner), if any, is a session: a shared request
// of an owner that already holds the lock shared is granted at once, even
// past a waiting exclusive request (which waits for that holder anyway),
// and an exclusive request of an owner that holds it shared fails at once
// with *RelationInUseError, where it would wait for itself.
func (m *Manager) LockRelation(ctx context.Context, oid uint32, exclusive bool) (release func(), err error) {
	owner := ctx.Value(lockOwnerKey{})
	r := &m.rel
	r.mu.Lock()
	l := r.lockLocked(oid)
	if l == nil {
		l = r.newLocked(oid)
	}
	if owner != nil && l.owners[owner] > 0 {
		if exclusive {
			r.mu.Unlock()
			return nil, &RelationInUseError{OID: oid}
		}
		l.refs++
		l.readers++
		l.owners[owner]++
		r.mu.Unlock()
		return r.sharedRelease(oid, l, owner), nil
	}
	l.refs++
	if exclusive {
		l.waitingWriters++
	}
	waited := false
	var timeout <-chan time.Time
	var stopTimer func()
	for {
		if exclusive && !l.writer && l.readers == 0 {
			l.waitingWriters--
			l.writer = true
			break
		}
		if !exclusive && !l.writer && l.waitingWriters == 0 {
			l.readers++
			if owner != nil {
				if l.owners == nil {
					l.owners = map[any]int{}
				}
				l.owners[owner]++
			}
			break
		}
		if exclusive {
			l.askYieldersLocked()
		}
		if l.changed == nil {
			l.changed = make(chan struct{})
		}
		ch := l.changed
		r.mu.Unlock()
		if !waited {
			waited = true
			timeout, stopTimer = lockTimer(ctx)
			defer stopTimer()
		}
		var werr error
		select {
		case <-ch:
		case <-ctx.Done():
			werr = ctx.Err()
		case <-timeout:
			werr = errLockTimeout()
		}
		r.mu.Lock()
		if werr != nil {
			if exclusive {
				l.waitingWriters--
				// Readers held back by this writer may go now.
				l.wakeLocked()
			}
			r.releaseRefLocked(oid, l)
			r.mu.Unlock()
			return nil, werr
		}
	}
	r.mu.Unlock()
	if !exclusive {
		return r.sharedRelease(oid, l, owner), nil
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			l.writer = false
			l.wakeLocked()
			r.releaseRefLocked(oid, l)
			r.mu.Unlock()
		})
	}, nil
}

// sharedRelease returns the release of a shared hold of l by owner (nil:
// none).
func (r *relLocks) sharedRelease(oid uint32, l *relLock, owner any) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			l.readers--
			if owner != nil {
				if l.owners[owner]--; l.owners[owner] == 0 {
					delete(l.owners, owner)
				}
			}
			l.wakeLocked()
			r.releaseRefLocked(oid, l)
			r.mu.Unlock()
		})
	}
}

// HeldShared reports whether owner (WithLockOwner) holds relation oid's
// lock shared.
func (m *Manager) HeldShared(owner any, oid uint32) bool {
	r := &m.rel
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.lockLocked(oid)
	return l != nil && l.owners[owner] > 0
}

type lockOwnerKey struct{}

// WithLockOwner returns ctx carrying owner (a comparable value naming a
// session) for LockRelation.
func WithLockOwner(ctx context.Context, owner any) context.Context {
	return context.WithValue(ctx, lockOwnerKey{}, owner)
}

// RelationInUseError is LockRelation's refusal of an exclusive lock that
// its owner already holds shared (PostgreSQL's CheckTableNotInUse: a
// cursor of the session reads the relation).
type RelationInUseError struct {
	OID uint32
}

func (e *RelationInUseError) Error() string {
	return fmt.Sprintf("relation %d is in use by the session", e.OID)
}

// TryLockRelationYielding takes relation oid's lock shared for a holder
// that gives way to DDL, without waiting: ok=false if the lock is held
// exclusively or an exclusive request waits (PostgreSQL's autovacuum skips
// a locked table). While it is held, whenever an exclusive request has to
// wait, yield is called (once, holding the lock table's mutex, so it must
// only signal, e.g. cancel a context), and the holder is expected to stop
// and release soon after: what PostgreSQL's deadlock checker does to an
// autovacuum worker that blocks someone.
func (m *Manager) TryLockRelationYielding(oid uint32, yield func()) (release func(), ok bool) {
	r := &m.rel
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.lockLocked(oid)
	if l != nil && (l.writer || l.waitingWriters > 0) {
		return nil, false
	}
	if l == nil {
		l = r.newLocked(oid)
	}
	l.refs++
	l.readers++
	y := &yielder{fn: yield}
	if l.yielders == nil {
		l.yielders = map[*yielder]struct{}{}
	}
	l.yielders[y] = struct{}{}
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			delete(l.yielders, y)
			l.readers--
			l.wakeLocked()
			r.releaseRefLocked(oid, l)
			r.mu.Unlock()
		})
	}, true
}

// askYieldersLocked asks every yielding holder to give way. Caller holds mu.
func (l *relLock) askYieldersLocked() {
	for y := range l.yielders {
		if !y.called {
			y.called = true
			y.fn()
		}
	}
}

// wakeLocked wakes everyone waiting on l; they recheck. Caller holds mu.
func (l *relLock) wakeLocked() {
	if l.changed == nil {
		return // no one has waited since the last wake-up
	}
	close(l.changed)
	l.changed = nil
}

// newLocked enters an unused lock for oid in the table. Caller holds mu.
func (r *relLocks) newLocked(oid uint32) *relLock {
	var l *relLock
	if n := len(r.free); n > 0 {
		l, r.free = r.free[n-1], r.free[:n-1]
	} else {
		l = &relLock{}
	}
	r.locks[oid] = l
	return l
}

// releaseRefLocked drops one reference and forgets an unused lock. Caller
// holds mu.
func (r *relLocks) releaseRefLocked(oid uint32, l *relLock) {
	l.refs--
	if l.refs == 0 {
		delete(r.locks, oid)
		// Unused: no holder, no waiter (refs counts them), no yielder.
		if len(r.free) < maxFreeRelLocks && len(l.yielders) == 0 {
			*l = relLock{changed: l.changed}
			r.free = append(r.free, l)
		}
	}
}

// TryLockRelationExclusive takes relation oid's lock exclusively only if
// no one holds or waits for it (PostgreSQL's ConditionalLockRelation): it
// never waits and never holds others back. ok=false means the lock is busy.
func (m *Manager) TryLockRelationExclusive(oid uint32) (release func(), ok bool) {
	r := &m.rel
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.lockLocked(oid)
	if l != nil && (l.writer || l.readers > 0 || l.waitingWriters > 0) {
		return nil, false
	}
	if l == nil {
		l = r.newLocked(oid)
	}
	l.refs++
	l.writer = true
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			l.writer = false
			l.wakeLocked()
			r.releaseRefLocked(oid, l)
			r.mu.Unlock()
		})
	}, true
}

// lockLocked returns oid's entry in the lock table, or nil; the caller
// holds r.mu.
func (r *relLocks) lockLocked(oid uint32) *relLock {
	if r.locks == nil {
		r.locks = make(map[uint32]*relLock)
	}
	return r.locks[oid]
}

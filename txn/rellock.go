package txn

import (
	"context"
	"sync"
)

// relLocks is the relation lock table: one shared/exclusive lock per
// relation OID, held by DML shared and by DDL (DROP TABLE, CREATE INDEX)
// exclusively, for the duration of a statement.
type relLocks struct {
	mu    sync.Mutex // protects locks
	locks map[uint32]*relLock
}

type relLock struct {
	refs           int // holders and waiters; the entry is removed at 0
	readers        int
	writer         bool
	waitingWriters int
	changed        chan struct{} // closed (and replaced) on every release
}

// LockRelation takes the lock on relation oid, shared or exclusive, waiting
// while it conflicts; a waiting exclusive request blocks new shared ones.
// Returns ctx.Err() if ctx ends first. The returned func releases the lock
// and must be called exactly once.
func (m *Manager) LockRelation(ctx context.Context, oid uint32, exclusive bool) (release func(), err error) {
	panic("unimplemented")
}

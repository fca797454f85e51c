package txn

// Speculative insertion locks: PostgreSQL's SpeculativeInsertionLockAcquire,
// SpeculativeInsertionLockRelease and SpeculativeInsertionWait.
//
// INSERT ... ON CONFLICT inserts a row speculatively (heap.InsertSpeculative)
// and decides afterwards, once its index entries are in, whether to keep it
// or take it back. Another writer that meets the undecided row in a
// uniqueness check must not wait for the inserter's whole transaction: the
// inserter may be about to take the row back and then wait for that writer
// itself (PostgreSQL's "unprincipled deadlocks"). It waits for the
// inserter's speculative insertion lock instead, named by the token the
// inserter put in the row's t_ctid, and looks at the row again.
//
// A transaction holds at most one such lock at a time, under the xid of
// the (sub)transaction that inserts; the end of that xid (the transaction's
// end, or a rollback to a savepoint before it) releases a lock still held. The lock is in Manager.mu, next to the running set.

import "context"

// specLock is a held speculative insertion lock: its token and the channel
// closed when it is released.
type specLock struct {
	token uint32
	ch    chan struct{}
}

// BeginSpeculative takes the transaction's speculative insertion lock under
// a new token (never 0), for heap.InsertSpeculative. The transaction must
// have an xid and must not hold the lock already; EndSpeculative releases
// it once the insertion is decided.
func (t *Txn) BeginSpeculative() (uint32, error) {
	xid, err := t.Xid()
	if err != nil {
		return 0, err
	}
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	m.releaseSpecLocked(xid)
	m.mu.specNext++
	if m.mu.specNext == 0 {
		m.mu.specNext++
	}
	m.mu.spec[xid] = specLock{token: m.mu.specNext, ch: make(chan struct{})}
	return m.mu.specNext, nil
}

// EndSpeculative releases the speculative insertion lock of the
// transaction (of its innermost subtransaction, which took it), if it
// holds one, and wakes its waiters.
func (t *Txn) EndSpeculative() {
	xid := t.XidIfAssigned()
	if xid == InvalidXid {
		return
	}
	m := t.m
	m.mu.Lock()
	m.releaseSpecLocked(xid)
	m.mu.Unlock()
}

// releaseSpecLocked releases xid's speculative insertion lock if it holds
// one. Caller holds m.mu exclusively.
func (m *Manager) releaseSpecLocked(xid uint32) {
	if l, ok := m.mu.spec[xid]; ok {
		close(l.ch)
		delete(m.mu.spec, xid)
	}
}

// WaitForSpeculative waits until transaction xid no longer holds its
// speculative insertion lock under token: at once when it holds none, or
// one under another token (that insertion was decided). Deadlocks are
// detected as by WaitFor (the wait counts as one for xid); ctx ends it as
// it ends WaitFor. The caller then looks at the row again: decided, it is
// an ordinary insert of xid (wait for xid as usual) or dead.
func (t *Txn) WaitForSpeculative(ctx context.Context, xid, token uint32) error {
	m := t.m
	lookup := func() (chan struct{}, bool) {
		l, ok := m.mu.spec[xid]
		if !ok || l.token != token {
			return nil, false
		}
		return l.ch, true
	}
	if t.xid != InvalidXid {
		return t.waitOn(ctx, xid, lookup)
	}
	m.mu.Lock()
	ch, ok := lookup()
	m.mu.Unlock()
	if !ok {
		return nil
	}
	return waitClosed(ctx, ch)
}

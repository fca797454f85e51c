package txn

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"minipg/storage/heap"
)

// Special transaction ids and command ids, as in PostgreSQL's transam.h and
// c.h.
const (
	InvalidXid     uint32 = 0
	BootstrapXid   uint32 = 1 // always committed
	FrozenXid      uint32 = 2 // always committed
	FirstNormalXid uint32 = 3 // FirstNormalTransactionId: the first xid handed out
	// MaxXid bounds xid assignment: minipg does not freeze, so it refuses new
	// xids well before the 32-bit space wraps (see errXidExhausted).
	MaxXid         uint32 = 0xFFFFFFFF - 1000000
	InvalidCommand uint32 = 0xFFFFFFFF // InvalidCommandId
	FirstCommandID uint32 = 0          // FirstCommandId
)

// xidReserveBatch is how many xids one write of pg_xact_limit reserves.
const xidReserveBatch = 8192

// Manager assigns transaction ids, keeps their commit status (the commit log)
// and the set of running transactions, takes snapshots and lets sessions
// wait for each other. One per server. It implements heap.Oracle and
// heap.Horizon.
//
// Locking: mu guards everything in the mu block. It is held only for
// in-memory work, except while pg_xact_limit is rewritten (once per
// xidReserveBatch xids). Hooks and file writes of Save run without it.
// saveMu serializes Save. Lock order: saveMu, then mu; rel.mu is never held
// with mu.
type Manager struct {
	dir string

	commitHook func(xid uint32, subxids []uint32) error // set before the first Begin; nil = none
	abortHook  func(xid uint32, subxids []uint32) error // set before the first Begin; nil = none

	saveMu sync.Mutex // serializes Save (one pg_xact.tmp at a time)

	mu struct {
		sync.RWMutex
		clog     clog                     // 2 bits per xid
		nextXid  uint32                   // next xid to assign
		xidLimit uint32                   // xids below this are reserved on disk
		running  map[uint32]chan struct{} // xid -> closed when it ends
		active   map[*Txn]struct{}        // open transactions (for OldestXmin)
		inCommit map[uint32]chan struct{} // commit record maybe written, clog not yet updated
		waitsFor map[uint32]uint32        // waiter's top xid -> top xid it waits for (deadlock check)
		// parent maps a running subtransaction's xid to its top-level
		// transaction's (pg_subtrans, reduced to what the deadlock check
		// needs).
		parent   map[uint32]uint32
		spec     map[uint32]specLock // (sub)transaction xid -> its speculative insertion lock, while held
		specNext uint32              // last speculative insertion token handed out
	}

	rel relLocks
}

// Txn is one transaction. A Txn belongs to one session and is not safe for
// concurrent use; the Manager's methods are.
type Txn struct {
	m   *Manager
	xid uint32 // the top level's; InvalidXid until assigned
	// own holds xid and the xids of the subtransactions not rolled back,
	// for the snapshots' TransactionIdIsCurrentTransactionId.
	own *heap.OwnXids
	// subs are the open subtransactions (savepoints), outermost first.
	subs     []subXact
	cid      uint32 // current command id
	cidUsed  bool   // the current command id was used by a write
	xmin     atomic.Uint32
	pubXid   atomic.Uint32 // xid, for readers in other goroutines (Shown)
	lastSnap *heap.Snapshot
	done     bool
}

// subXact is an open subtransaction.
type subXact struct {
	xid  uint32   // InvalidXid until the subtransaction writes
	kids []uint32 // xids of the subtransactions released into it
}

var (
	_ heap.Oracle  = (*Manager)(nil)
	_ heap.Horizon = (*Manager)(nil)
)

// Open loads the transaction state stored in dir (see Save), creating dir if
// absent. Every xid below the loaded next xid that is not marked committed is
// aborted: it was running at a crash or shutdown. WAL replay may then correct
// that with RecoverCommitted before the first Begin.
func Open(dir string) (*Manager, error) {
	if err := ensureDir(dir); err != nil {
		return nil, err
	}
	m := &Manager{dir: dir}
	m.mu.running = make(map[uint32]chan struct{})
	m.mu.active = make(map[*Txn]struct{})
	m.mu.inCommit = make(map[uint32]chan struct{})
	m.mu.waitsFor = make(map[uint32]uint32)
	m.mu.parent = make(map[uint32]uint32)
	m.mu.spec = make(map[uint32]specLock)
	m.mu.nextXid = FirstNormalXid

	b, err := readFile(dir, clogFile)
	if err != nil {
		return nil, err
	}
	if b != nil {
		next, log, err := decodeClog(b)
		if err != nil {
			return nil, err
		}
		m.mu.clog.load(log)
		m.mu.nextXid = max(next, FirstNormalXid)
	}
	if b, err = readFile(dir, limitFile); err != nil {
		return nil, err
	}
	if b != nil {
		limit, err := decodeLimit(b)
		if err != nil {
			return nil, err
		}
		m.mu.nextXid = max(m.mu.nextXid, limit)
	}
	// Nothing beyond nextXid is reserved yet: the first assignment writes
	// a new limit.
	m.mu.xidLimit = m.mu.nextXid
	return m, nil
}

// SetCommitHook sets fn, called by Commit with the transaction's xid and
// those of its subtransactions that commit with it, before the commit log is
// updated: it writes the commit record and returns when it is durable (group
// commit happens inside it: Commit calls it from many goroutines at once,
// without locks held). Commit fails with its error. Set it before the first
// Begin.
func (m *Manager) SetCommitHook(fn func(xid uint32, subxids []uint32) error) { m.commitHook = fn }

// SetAbortHook sets fn, called by Abort, and by RollbackSub for a
// subtransaction, before the commit log is updated, with the (sub)transaction's
// xid and those of the subtransactions released into it (writes an abort
// record; need not flush). Its error is returned by Abort after the abort
// has happened anyway. Set it before the first Begin.
func (m *Manager) SetAbortHook(fn func(xid uint32, subxids []uint32) error) { m.abortHook = fn }

// Status returns the commit status of xid (heap.Oracle). Bootstrap and
// frozen xids are committed; the invalid xid and xids never handed out are
// aborted; an xid is in progress exactly while its transaction is running
// (it is recorded committed or aborted before it stops running, under one
// lock, so a snapshot never sees a finished xid as in progress after the
// Oracle said otherwise). Xids not recorded and not running were running at
// a crash: aborted.
func (m *Manager) Status(xid uint32) heap.XidStatus {
	switch {
	case xid == InvalidXid:
		return heap.XidAborted
	case xid < FirstNormalXid:
		return heap.XidCommitted
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	switch m.mu.clog.get(xid) {
	case statusCommitted:
		return heap.XidCommitted
	case statusAborted:
		return heap.XidAborted
	}
	if _, ok := m.mu.running[xid]; ok {
		return heap.XidInProgress
	}
	return heap.XidAborted
}

// Begin starts a transaction. It has no xid until Xid is called.
func (m *Manager) Begin() *Txn {
	t := &Txn{m: m, cid: FirstCommandID, own: &heap.OwnXids{}}
	m.mu.Lock()
	m.mu.active[t] = struct{}{}
	m.mu.Unlock()
	return t
}

// Wait blocks until transaction xid is no longer running (returns at once
// if it is not running), or ctx is done (returns ctx.Err()), or ctx's lock
// timeout (WithLockTimeout) passes (55P03). The caller then
// rechecks the tuple: Status tells whether xid committed. Wait does not
// detect deadlocks; Txn.WaitFor does.
func (m *Manager) Wait(ctx context.Context, xid uint32) error {
	m.mu.RLock()
	ch, ok := m.mu.running[xid]
	m.mu.RUnlock()
	if !ok {
		return nil
	}
	return waitClosed(ctx, ch)
}

// WaitClosed waits until ch is closed, ctx is done (ctx.Err()) or ctx's
// lock timeout passes (55P03), reporting the wait (WithWaitReporter): a
// wait for a lock kept outside this package (advisory locks).
func WaitClosed(ctx context.Context, ch <-chan struct{}) error { return waitClosed(ctx, ch) }

// waitClosed is WaitClosed.
func waitClosed(ctx context.Context, ch <-chan struct{}) error {
	timeout, stop := lockTimer(ctx)
	defer stop()
	defer reportWait(ctx)()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-timeout:
		return errLockTimeout()
	}
}

// OldestXmin returns the oldest xid that any open transaction may still
// consider running: tuples deleted by a committed xid older than it are dead
// to everyone, and VACUUM may remove them (GetOldestNonRemovableTransactionId).
// It is the minimum of the next xid, the running xids and the xmin of every
// snapshot still held (see Txn.ResetXmin). It never goes backwards.
func (m *Manager) OldestXmin() uint32 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	h := m.mu.nextXid
	for x := range m.mu.running {
		h = min(h, x)
	}
	for t := range m.mu.active {
		if x := t.xmin.Load(); x != InvalidXid {
			h = min(h, x)
		}
	}
	return h
}

// NextXid returns the next xid to be assigned.
func (m *Manager) NextXid() uint32 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.mu.nextXid
}

// Running returns the xids of running transactions, ascending.
func (m *Manager) Running() []uint32 {
	m.mu.RLock()
	out := make([]uint32, 0, len(m.mu.running))
	for x := range m.mu.running {
		out = append(out, x)
	}
	m.mu.RUnlock()
	slices.Sort(out)
	return out
}

// Save writes the commit log and the next xid to dir atomically (checkpoint,
// clean shutdown). Call it after the checkpoint's redo point is fixed: it
// first waits for transactions that have started writing their commit record
// but not yet updated the commit log (PostgreSQL's DELAY_CHKPT_START), so
// every commit whose record precedes the redo point is in the saved log.
// Transactions running at the time are saved as not recorded, i.e. aborted
// unless WAL replay finds their commit record.
func (m *Manager) Save() error {
	m.saveMu.Lock()
	defer m.saveMu.Unlock()
	m.mu.RLock()
	waits := make([]chan struct{}, 0, len(m.mu.inCommit))
	for _, ch := range m.mu.inCommit {
		waits = append(waits, ch)
	}
	m.mu.RUnlock()
	for _, ch := range waits {
		<-ch
	}
	m.mu.RLock()
	next := m.mu.nextXid
	log := m.mu.clog.bytes(next)
	m.mu.RUnlock()
	return writeFileAtomic(m.dir, clogFile, encodeClog(next, log))
}

// Close saves the state. Open transactions are not ended: their xids count as
// aborted when the state is loaded again.
func (m *Manager) Close() error { return m.Save() }

// RecoverCommitted marks xid committed (WAL replay of a commit record) and
// advances the next xid past it. Call before the first Begin.
func (m *Manager) RecoverCommitted(xid uint32) { m.recover(xid, statusCommitted) }

// RecoverAborted marks xid aborted (WAL replay of an abort record) and
// advances the next xid past it. Call before the first Begin.
func (m *Manager) RecoverAborted(xid uint32) { m.recover(xid, statusAborted) }

func (m *Manager) recover(xid uint32, st byte) {
	if xid < FirstNormalXid {
		return
	}
	m.mu.Lock()
	m.mu.clog.set(xid, st)
	m.mu.nextXid = max(m.mu.nextXid, xid+1)
	m.mu.Unlock()
}

// AdvanceNextXid makes sure the next xid is at least next (WAL replay saw
// a record of xid next-1, or a checkpoint record). Call before the first Begin.
func (m *Manager) AdvanceNextXid(next uint32) {
	m.mu.Lock()
	m.mu.nextXid = max(m.mu.nextXid, next)
	m.mu.Unlock()
}

// assignXidLocked hands out the next xid. Caller holds m.mu exclusively.
func (m *Manager) assignXidLocked() (uint32, error) {
	xid := m.mu.nextXid
	if xid >= MaxXid {
		return InvalidXid, errXidExhausted()
	}
	if xid >= m.mu.xidLimit {
		limit := min(xid+xidReserveBatch, MaxXid)
		if err := writeFileAtomic(m.dir, limitFile, encodeLimit(limit)); err != nil {
			return InvalidXid, err
		}
		m.mu.xidLimit = limit
	}
	m.mu.nextXid++
	m.mu.running[xid] = make(chan struct{})
	if invariants {
		m.checkLocked()
	}
	return xid, nil
}

// endLocked records the end of t, its xid and those of its subtransactions
// not rolled back, all with status st, and wakes their waiters. Caller holds
// m.mu exclusively, so no snapshot sees the subtransactions end apart from
// their parent.
func (m *Manager) endLocked(t *Txn, st byte) {
	if t.xid != InvalidXid {
		for _, x := range t.own.Xids() {
			m.endXidLocked(x, st)
		}
		if ch, ok := m.mu.inCommit[t.xid]; ok {
			close(ch)
			delete(m.mu.inCommit, t.xid)
		}
		delete(m.mu.waitsFor, t.xid)
	}
	delete(m.mu.active, t)
	if invariants {
		m.checkLocked()
	}
}

// endXidLocked records status st for one xid and wakes its waiters. Caller
// holds m.mu exclusively.
func (m *Manager) endXidLocked(xid uint32, st byte) {
	m.mu.clog.set(xid, st)
	if ch, ok := m.mu.running[xid]; ok {
		close(ch)
		delete(m.mu.running, xid)
	}
	delete(m.mu.parent, xid)
	m.releaseSpecLocked(xid)
}

// Xid returns the xid of the transaction, or of its innermost open
// subtransaction, assigning one on first call (the first write or row lock):
// as in PostgreSQL, the top level and every enclosing subtransaction get
// theirs first, so a parent's xid is always older than its children's.
// Fails with 54000 when the xid space is exhausted. If a snapshot was taken
// before, its CurXid is set too, so the statement that assigned the xid
// recognizes its own changes.
func (t *Txn) Xid() (uint32, error) {
	if cur := t.XidIfAssigned(); cur != InvalidXid {
		return cur, nil
	}
	if t.done {
		return InvalidXid, errTxnEnded()
	}
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if t.xid == InvalidXid {
		xid, err := m.assignXidLocked()
		if err != nil {
			return InvalidXid, err
		}
		t.xid = xid
		t.pubXid.Store(xid)
		t.own.Add(xid)
	}
	for i := range t.subs {
		if t.subs[i].xid != InvalidXid {
			continue
		}
		xid, err := m.assignXidLocked()
		if err != nil {
			return InvalidXid, err
		}
		m.mu.parent[xid] = t.xid
		t.subs[i].xid = xid
		t.own.Add(xid)
	}
	cur := t.XidIfAssigned()
	if t.lastSnap != nil {
		t.lastSnap.CurXid = cur
	}
	return cur, nil
}

// BeginSub starts a subtransaction (SAVEPOINT) inside the innermost open
// one. It gets an xid when it first writes.
func (t *Txn) BeginSub() { t.subs = append(t.subs, subXact{}) }

// SubDepth returns the number of open subtransactions.
func (t *Txn) SubDepth() int { return len(t.subs) }

// ReleaseSub ends the innermost subtransaction as PostgreSQL's subcommit
// (RELEASE SAVEPOINT): its xid and those released into it pass to the
// enclosing (sub)transaction and commit or abort with it. Until then they
// stay running for everyone else.
func (t *Txn) ReleaseSub() {
	n := len(t.subs) - 1
	s := t.subs[n]
	t.subs = t.subs[:n]
	if n > 0 && s.xid != InvalidXid {
		p := &t.subs[n-1]
		p.kids = append(append(p.kids, s.xid), s.kids...)
	}
}

// RollbackSub aborts the innermost subtransaction (ROLLBACK TO SAVEPOINT
// undoes it, then starts a new one): its xid and those released into it are
// recorded aborted, after the abort hook, and leave the transaction's own
// set, so its rows are dead to everyone, this transaction included, and
// its row locks are released. A subtransaction that never wrote just ends.
// The abort hook's error is returned after the abort has happened.
func (t *Txn) RollbackSub() error {
	n := len(t.subs) - 1
	s := t.subs[n]
	t.subs = t.subs[:n]
	if s.xid == InvalidXid {
		return nil
	}
	m := t.m
	var err error
	if m.abortHook != nil {
		err = m.abortHook(s.xid, s.kids)
	}
	xids := append([]uint32{s.xid}, s.kids...)
	m.mu.Lock()
	for _, x := range xids {
		m.endXidLocked(x, statusAborted)
	}
	if invariants {
		m.checkLocked()
	}
	m.mu.Unlock()
	t.own.Remove(xids)
	return err
}

// Own returns the xids that count as the transaction's own (its top
// level's and its subtransactions' not rolled back), for uniqueness checks
// (heap.SatisfiesDirty). The set changes as subtransactions start and end.
func (t *Txn) Own() *heap.OwnXids { return t.own }

// subxids returns the xids of the subtransactions that end with the top
// level (assigned, not rolled back).
func (t *Txn) subxids() []uint32 {
	xids := t.own.Xids()
	return slices.DeleteFunc(xids, func(x uint32) bool { return x == t.xid })
}

// Shown returns the xid (InvalidXid if none was assigned) and the xmin of
// the snapshots the transaction holds (InvalidXid if none), as
// pg_stat_activity's backend_xid and backend_xmin show them. Unlike the
// other methods it is safe to call from any goroutine.
func (t *Txn) Shown() (xid, xmin uint32) { return t.pubXid.Load(), t.xmin.Load() }

// XidIfAssigned returns the xid of the innermost open subtransaction, or of
// the transaction if none is open, or InvalidXid if none was assigned.
func (t *Txn) XidIfAssigned() uint32 {
	if n := len(t.subs); n > 0 {
		return t.subs[n-1].xid
	}
	return t.xid
}

// TopXid returns the top-level transaction's xid, InvalidXid if none was
// assigned.
func (t *Txn) TopXid() uint32 { return t.xid }

// CommandID returns the current command id, for snapshots and reads.
func (t *Txn) CommandID() uint32 { return t.cid }

// UseCommandID returns the current command id for a write (t_cmin/t_cmax)
// and marks it used, so that NextCommand advances it.
func (t *Txn) UseCommandID() uint32 { t.cidUsed = true; return t.cid }

// NextCommand ends a statement: if the statement wrote (UseCommandID), the
// command id advances, so later statements see its rows and a statement never
// sees its own (PostgreSQL's CommandCounterIncrement). 54000 after 2^32-1
// commands.
func (t *Txn) NextCommand() error {
	if !t.cidUsed {
		return nil
	}
	if t.cid+1 == InvalidCommand {
		return errTooManyCommands()
	}
	t.cid++
	t.cidUsed = false
	return nil
}

// Snapshot takes a new snapshot for the next statement (READ COMMITTED):
// Xmax is the next xid, Xip the running xids other than the transaction's
// own (its subtransactions' included), Xmin the oldest running xid (its own
// included), CurXid/CurCid the (sub)transaction's xid (0 if none yet; Xid
// fills it in later) and command id, Own the transaction's own xids.
// The transaction's advertised xmin (OldestXmin) stays at its oldest
// snapshot until ResetXmin or the end of the transaction.
func (t *Txn) Snapshot() *heap.Snapshot {
	m := t.m
	m.mu.RLock()
	xmax := m.mu.nextXid
	xmin := xmax
	xip := make([]uint32, 0, len(m.mu.running))
	for x := range m.mu.running {
		xmin = min(xmin, x)
		if !t.own.Has(x) {
			xip = append(xip, x)
		}
	}
	if t.xmin.Load() == InvalidXid {
		t.xmin.Store(xmin)
	}
	m.mu.RUnlock()
	slices.Sort(xip)
	s := &heap.Snapshot{Xmin: xmin, Xmax: xmax, Xip: xip, CurXid: t.XidIfAssigned(), CurCid: t.cid, Own: t.own, Oracle: m}
	t.lastSnap = s
	return s
}

// SnapshotTaken reports whether the transaction has taken a snapshot
// (PostgreSQL's FirstSnapshotSet: it has run a query).
func (t *Txn) SnapshotTaken() bool { return t.lastSnap != nil }

// ResetXmin tells the manager that no snapshot taken so far by the
// transaction is in use any more (no open portal), so OldestXmin need not hold
// back for them (PostgreSQL's SnapshotResetXmin).
func (t *Txn) ResetXmin() { t.xmin.Store(InvalidXid) }

// WaitFor waits until transaction xid ends, as Manager.Wait, and detects
// deadlocks: if xid (directly or through other waiters) waits for t, it
// returns 40P01 "deadlock detected" instead of waiting (the transaction that
// closes the cycle is the one that fails). ctx.Err() if ctx ends first. xid
// may be a subtransaction's: the wait ends when it is rolled back or its
// top level ends, and the deadlock check follows top levels.
func (t *Txn) WaitFor(ctx context.Context, xid uint32) error {
	if t.xid == InvalidXid {
		return t.m.Wait(ctx, xid)
	}
	return t.waitOn(ctx, xid, func() (chan struct{}, bool) {
		ch, ok := t.m.mu.running[xid]
		return ch, ok
	})
}

// waitOn waits for the channel lookup finds (under m.mu; ok false: nothing
// to wait for), which closes no later than transaction xid ends, with
// WaitFor's deadlock check: the wait counts as one for xid (for its top
// level, if xid is a subtransaction's).
func (t *Txn) waitOn(ctx context.Context, xid uint32, lookup func() (chan struct{}, bool)) error {
	m := t.m
	if t.own.Has(xid) {
		return errDeadlock(t.xid, xid) // waiting for ourselves would never end
	}
	m.mu.Lock()
	ch, ok := lookup()
	if !ok {
		m.mu.Unlock()
		return nil
	}
	top := xid
	if p, ok := m.mu.parent[xid]; ok {
		top = p
	}
	for cur, n := top, 0; n <= len(m.mu.waitsFor); n++ {
		next, ok := m.mu.waitsFor[cur]
		if !ok {
			break
		}
		if next == t.xid {
			m.mu.Unlock()
			return errDeadlock(t.xid, xid)
		}
		cur = next
	}
	m.mu.waitsFor[t.xid] = top
	m.mu.Unlock()

	err := waitClosed(ctx, ch)
	m.mu.Lock()
	delete(m.mu.waitsFor, t.xid)
	m.mu.Unlock()
	return err
}

// Commit ends the transaction: the commit hook makes the commit record
// durable, then the commit log says committed and waiters wake. A
// transaction without an xid just ends (no record, as PostgreSQL). If the
// hook fails, the transaction is recorded as aborted here and the error
// returned; whether the commit record reached the disk is then unknown, so
// the hook should treat a failed flush as fatal, as PostgreSQL PANICs.
// Committing an ended transaction does nothing.
func (t *Txn) Commit() error {
	if t.done {
		return nil
	}
	t.done = true
	m := t.m
	if t.xid == InvalidXid {
		m.mu.Lock()
		m.endLocked(t, statusCommitted)
		m.mu.Unlock()
		return nil
	}
	var err error
	if m.commitHook != nil {
		m.mu.Lock()
		m.mu.inCommit[t.xid] = make(chan struct{})
		m.mu.Unlock()
		err = m.commitHook(t.xid, t.subxids())
	}
	st := statusCommitted
	if err != nil {
		st = statusAborted
		err = errCommitFailed(err, t.xid)
	}
	m.mu.Lock()
	m.endLocked(t, st)
	m.mu.Unlock()
	return err
}

// Abort ends the transaction as aborted and wakes waiters. The abort hook's
// error, if any, is returned after the abort has happened. Aborting an ended
// transaction does nothing.
func (t *Txn) Abort() error {
	if t.done {
		return nil
	}
	t.done = true
	m := t.m
	var err error
	if t.xid != InvalidXid && m.abortHook != nil {
		err = m.abortHook(t.xid, t.subxids())
	}
	m.mu.Lock()
	m.endLocked(t, statusAborted)
	m.mu.Unlock()
	return err
}

// Done reports whether the transaction has ended.
func (t *Txn) Done() bool { return t.done }

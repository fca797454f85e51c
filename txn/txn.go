package txn

import (
	"context"
	"sync"

	"minipg/storage/heap"
)

// Special transaction ids, as in PostgreSQL's transam.h.
const (
	InvalidXid     uint32 = 0
	BootstrapXid   uint32 = 1 // always committed
	FrozenXid      uint32 = 2 // always committed
	FirstNormalXid uint32 = 3 // FirstNormalTransactionId: the first xid handed out
	MaxXid         uint32 = 0xFFFFFFFF - 1000000
	InvalidCommand uint32 = 0xFFFFFFFF // InvalidCommandId
	FirstCommandID uint32 = 0          // FirstCommandId
)

// Manager assigns transaction ids, keeps their commit status (the commit log)
// and the set of running transactions, takes snapshots and lets sessions
// wait for each other. One per server. It implements heap.Oracle.
//
// Locking: mu guards everything in the mu block. It is held only for
// in-memory work, except while the xid reservation file is extended (once per
// xidReserveBatch xids). The commit hook runs without it. Lock order:
// relLocks.mu and mu are never held together.
type Manager struct {
	dir string

	commitHook func(xid uint32) error // set once before use; nil = none
	abortHook  func(xid uint32) error // set once before use; nil = none

	mu struct {
		sync.RWMutex
		clog     clog                     // 2 bits per xid
		nextXid  uint32                   // next xid to assign
		xidLimit uint32                   // xids below this are reserved on disk
		running  map[uint32]chan struct{} // xid -> closed when it ends
		active   map[*Txn]struct{}        // open transactions (for OldestXmin)
		inCommit map[uint32]chan struct{} // between commit record and clog update
		waitsFor map[uint32]uint32        // waiter xid -> xid it waits for (deadlock check)
	}

	rel relLocks
}

// Txn is one transaction. A Txn belongs to one session and is not safe for
// concurrent use; the Manager's methods are.
type Txn struct {
	m        *Manager
	xid      uint32 // InvalidXid until assigned
	cid      uint32 // current command id
	cidUsed  bool   // the current command id was used by a write
	xmin     uint32 // oldest xmin of the snapshots taken (InvalidXid: none)
	lastSnap *heap.Snapshot
	done     bool
}

// Open loads the transaction state stored in dir (see Save), creating it if
// absent. Every xid below the loaded next xid that is not marked committed is
// aborted: it was running at a crash or shutdown. WAL replay may then correct
// that with RecoverCommitted before the first Begin.
func Open(dir string) (*Manager, error) { panic("unimplemented") }

// SetCommitHook sets fn, called by Commit with the transaction's xid before
// the commit log is updated: it writes the commit record and returns when it
// is durable. Commit fails with its error. Set it before the first Begin.
func (m *Manager) SetCommitHook(fn func(xid uint32) error) { m.commitHook = fn }

// SetAbortHook sets fn, called by Abort before the commit log is updated
// (writes an abort record; need not flush). Its error is returned by Abort
// after the abort has happened anyway. Set it before the first Begin.
func (m *Manager) SetAbortHook(fn func(xid uint32) error) { m.abortHook = fn }

// Status returns the commit status of xid (heap.Oracle). Bootstrap and
// frozen xids are committed; the invalid xid and xids never handed out are
// aborted; an xid is in progress only while its transaction is running.
func (m *Manager) Status(xid uint32) heap.XidStatus { panic("unimplemented") }

// Begin starts a transaction. It has no xid until Xid is called.
func (m *Manager) Begin() *Txn { panic("unimplemented") }

// Wait blocks until transaction xid is no longer running (returns at once
// if it is not running), or ctx is done (returns ctx.Err()). The caller then
// rechecks the tuple: Status tells whether xid committed.
func (m *Manager) Wait(ctx context.Context, xid uint32) error { panic("unimplemented") }

// OldestXmin returns the oldest xid that any open transaction may still
// consider running: tuples deleted by a committed xid older than it are dead
// to everyone, and VACUUM may remove them (GetOldestNonRemovableTransactionId).
func (m *Manager) OldestXmin() uint32 { panic("unimplemented") }

// NextXid returns the next xid to be assigned.
func (m *Manager) NextXid() uint32 { panic("unimplemented") }

// Save writes the commit log and the next xid to dir atomically (checkpoint,
// clean shutdown). Call it after the checkpoint's redo point is fixed: it
// first waits for transactions that have started writing their commit record
// but not yet updated the commit log (PostgreSQL's DELAY_CHKPT_START), so
// every commit whose record precedes the redo point is in the saved log.
func (m *Manager) Save() error { panic("unimplemented") }

// Close saves the state. Open transactions are not ended: their xids count as
// aborted when the state is loaded again.
func (m *Manager) Close() error { panic("unimplemented") }

// RecoverCommitted marks xid committed (WAL replay of a commit record) and
// advances the next xid past it. Call before the first Begin.
func (m *Manager) RecoverCommitted(xid uint32) { panic("unimplemented") }

// RecoverAborted marks xid aborted (WAL replay of an abort record) and
// advances the next xid past it. Call before the first Begin.
func (m *Manager) RecoverAborted(xid uint32) { panic("unimplemented") }

// AdvanceNextXid makes sure the next xid is at least next (WAL replay saw
// a record of xid next-1, or a checkpoint record). Call before the first Begin.
func (m *Manager) AdvanceNextXid(next uint32) { panic("unimplemented") }

// Xid returns the transaction's xid, assigning one on first call (the
// transaction's first write or row lock). Fails with 54000 when the xid space
// is exhausted. If a snapshot was taken before, its CurXid is set too, so the
// statement that assigned the xid recognizes its own changes.
func (t *Txn) Xid() (uint32, error) { panic("unimplemented") }

// XidIfAssigned returns the xid or InvalidXid if none was assigned.
func (t *Txn) XidIfAssigned() uint32 { return t.xid }

// CommandID returns the current command id, for snapshots and reads.
func (t *Txn) CommandID() uint32 { return t.cid }

// UseCommandID returns the current command id for a write (t_cmin/t_cmax)
// and marks it used, so that NextCommand advances it.
func (t *Txn) UseCommandID() uint32 { t.cidUsed = true; return t.cid }

// NextCommand ends a statement: if the statement wrote (UseCommandID), the
// command id advances, so later statements see its rows and a statement never
// sees its own (PostgreSQL's CommandCounterIncrement). 54000 after 2^32-1
// commands.
func (t *Txn) NextCommand() error { panic("unimplemented") }

// Snapshot takes a new snapshot for the next statement (READ COMMITTED).
func (t *Txn) Snapshot() *heap.Snapshot { panic("unimplemented") }

// ResetXmin tells the manager that no snapshot taken so far by the
// transaction is in use any more (no open portal), so OldestXmin need not hold
// back for them (PostgreSQL's SnapshotResetXmin).
func (t *Txn) ResetXmin() { panic("unimplemented") }

// WaitFor waits until transaction xid ends, as Manager.Wait, and detects
// deadlocks: if xid (directly or through other waiters) waits for t, it
// returns 40P01 "deadlock detected" instead of waiting. t must have an xid.
func (t *Txn) WaitFor(ctx context.Context, xid uint32) error { panic("unimplemented") }

// Commit ends the transaction: the commit hook makes the commit record
// durable, then the commit log says committed and waiters wake. A
// transaction without an xid just ends. If the hook fails, the transaction is
// aborted and the error returned.
func (t *Txn) Commit() error { panic("unimplemented") }

// Abort ends the transaction as aborted and wakes waiters. Aborting an ended
// transaction does nothing.
func (t *Txn) Abort() error { panic("unimplemented") }

// Done reports whether the transaction has ended.
func (t *Txn) Done() bool { return t.done }

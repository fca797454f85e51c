package heap

// Tuple visibility, after PostgreSQL 15's heapam_visibility.c.
//
// The functions here only read the tuple header; they return the hint bits
// (HEAP_XMIN_COMMITTED, HEAP_XMIN_INVALID, HEAP_XMAX_COMMITTED,
// HEAP_XMAX_INVALID) that the answer justifies, and the caller sets them if
// it holds the buffer's exclusive content lock, or queues them (see
// hintQueue) if it holds only the share lock. PostgreSQL sets hint bits under
// a share lock because a racing byte store is harmless in C; in Go it is a
// data race, so minipg never writes a page under a share lock.

import (
	"slices"

	"minipg/storage/buffer"
)

// XidStatus is a transaction's commit status.
type XidStatus int

// Commit statuses.
const (
	XidInProgress XidStatus = iota
	XidCommitted
	XidAborted
)

func (s XidStatus) String() string {
	switch s {
	case XidInProgress:
		return "in progress"
	case XidCommitted:
		return "committed"
	case XidAborted:
		return "aborted"
	}
	return "unknown"
}

// Oracle is the commit-status source (the commit log), implemented by the
// transaction manager. Status must be final once it says committed or
// aborted. A transaction must be recorded as committed before it leaves the
// set of running transactions that new snapshots copy (PostgreSQL's order:
// clog, then ProcArray).
type Oracle interface {
	Status(xid uint32) XidStatus
}

// Horizon is optionally implemented by an Oracle: OldestXmin is the oldest
// xid that any running transaction or registered snapshot may still consider
// running (GetOldestNonRemovableTransactionId). A committed deletion by an
// xid older than it is dead to everyone. Opportunistic page pruning runs
// only when the snapshot's Oracle implements Horizon.
type Horizon interface {
	OldestXmin() uint32
}

// Special transaction ids (transam.h).
const (
	InvalidXid   uint32 = 0
	BootstrapXid uint32 = 1
	FrozenXid    uint32 = 2
	FirstNormal  uint32 = 3
)

// XidPrecedes is TransactionIdPrecedes: a < b in modulo-2^32 order for
// normal xids, plain order when either is special.
func XidPrecedes(a, b uint32) bool {
	if a < FirstNormal || b < FirstNormal {
		return a < b
	}
	return int32(a-b) < 0
}

// Snapshot is an MVCC snapshot (SnapshotData). Transactions with xid <
// Xmin are finished; >= Xmax were running (or not yet started) when the
// snapshot was taken; in between, those listed in Xip were running.
// CurXid/CurCid identify the snapshot's own transaction (0 = none) and
// command: rows it inserted with cid >= CurCid are not yet visible, rows it
// deleted with cid >= CurCid still are. Own, when not nil, replaces CurXid
// in that test: it holds every xid of the transaction that counts as its
// own, the top-level one and its subtransactions' not rolled back
// (TransactionIdIsCurrentTransactionId).
//
// Usage, when not nil, counts the buffer accesses of the operations that
// use the snapshot (scans, fetches, updates, deletes, row locks): the
// session's counters for EXPLAIN (ANALYZE, BUFFERS). The snapshot's
// session is the only one to use it.
type Snapshot struct {
	Xmin, Xmax uint32
	Xip        []uint32
	CurXid     uint32
	CurCid     uint32
	Own        *OwnXids
	Oracle     Oracle
	Usage      *buffer.Usage
}

// IsCurrent is TransactionIdIsCurrentTransactionId for the snapshot's
// transaction: xid is its own (Own, or CurXid when Own is nil).
func (s *Snapshot) IsCurrent(xid uint32) bool {
	switch {
	case xid == InvalidXid:
		return false
	case s.Own != nil:
		return s.Own.Has(xid)
	}
	return xid == s.CurXid
}

// OwnXids is the set of xids one transaction counts as its own: its
// top-level xid and those of its subtransactions, in order of assignment,
// less the rolled-back ones. The transaction's goroutine changes it
// between statements; its snapshots read it, so that a snapshot taken
// before a ROLLBACK TO SAVEPOINT no longer counts the rolled-back xids.
// A nil *OwnXids is empty. Past a few members (a transaction that writes
// under a savepoint per statement, as psql's ON_ERROR_ROLLBACK and JDBC's
// autosave make it) a map answers Has.
type OwnXids struct {
	xids []uint32
	set  map[uint32]struct{} // the members, once there are more than ownXidsLinear
}

// ownXidsLinear is how many members Has scans before the set keeps a map.
const ownXidsLinear = 8

// NewOwnXids returns the set holding xids.
func NewOwnXids(xids ...uint32) *OwnXids {
	o := &OwnXids{}
	for _, x := range xids {
		o.Add(x)
	}
	return o
}

// Has reports whether xid is in the set.
func (o *OwnXids) Has(xid uint32) bool {
	if o == nil || xid == InvalidXid {
		return false
	}
	if o.set != nil {
		_, ok := o.set[xid]
		return ok
	}
	for i := len(o.xids) - 1; i >= 0; i-- {
		if o.xids[i] == xid {
			return true
		}
	}
	return false
}

// Add puts xid in the set.
func (o *OwnXids) Add(xid uint32) {
	o.xids = append(o.xids, xid)
	switch {
	case o.set != nil:
		o.set[xid] = struct{}{}
	case len(o.xids) > ownXidsLinear:
		o.set = make(map[uint32]struct{}, 2*len(o.xids))
		for _, x := range o.xids {
			o.set[x] = struct{}{}
		}
	}
}

// Remove takes xids out of the set.
func (o *OwnXids) Remove(xids []uint32) {
	gone := make(map[uint32]bool, len(xids))
	for _, x := range xids {
		gone[x] = true
		delete(o.set, x)
	}
	o.xids = slices.DeleteFunc(o.xids, func(x uint32) bool { return gone[x] })
}

// Xids returns the set's members in order of assignment (a copy).
func (o *OwnXids) Xids() []uint32 {
	if o == nil {
		return nil
	}
	return slices.Clone(o.xids)
}

// usage is s.Usage, nil for a nil s.
func (s *Snapshot) usage() *buffer.Usage {
	if s == nil {
		return nil
	}
	return s.Usage
}

// xidInSnapshot is XidInMVCCSnapshot: xid was running as far as s knows.
func (s *Snapshot) xidInSnapshot(xid uint32) bool {
	if xid < FirstNormal {
		return false
	}
	if XidPrecedes(xid, s.Xmin) {
		return false
	}
	if !XidPrecedes(xid, s.Xmax) {
		return true
	}
	for _, x := range s.Xip {
		if x == xid {
			return true
		}
	}
	return false
}

// status is the Oracle's answer with the special xids handled.
func status(o Oracle, xid uint32) XidStatus {
	switch xid {
	case InvalidXid:
		return XidAborted
	case BootstrapXid, FrozenXid:
		return XidCommitted
	}
	return o.Status(xid)
}

// Infomask helpers.
const (
	// heapXmaxBits is HEAP_XMAX_BITS.
	heapXmaxBits = HeapXmaxCommitted | HeapXmaxInvalid | HeapXmaxIsMulti | HeapLockMask | HeapXmaxLockOnly
	hintBits     = HeapXminCommitted | HeapXminInvalid | HeapXmaxCommitted | HeapXmaxInvalid
)

// xmaxIsLockedOnly is HEAP_XMAX_IS_LOCKED_ONLY.
func xmaxIsLockedOnly(infomask uint16) bool {
	return infomask&HeapXmaxLockOnly != 0 ||
		infomask&(HeapXmaxIsMulti|HeapLockMask) == HeapXmaxExclLock
}

func xminCommitted(im uint16) bool { return im&HeapXminCommitted != 0 }
func xminInvalid(im uint16) bool   { return im&HeapXminFrozen == HeapXminInvalid }
func xminFrozen(im uint16) bool    { return im&HeapXminFrozen == HeapXminFrozen }

// Combo command ids. PostgreSQL keeps a backend-local array of (cmin, cmax)
// pairs when a transaction deletes a row it inserted itself, and stores the
// array index in t_cid with HEAP_COMBOCID set. The pair only matters to the
// transaction itself, so minipg packs it into t_cid directly: cmin in the
// low 16 bits, cmax in the high 16 bits. A transaction that would need a
// command id above 65535 for such a pair gets ErrTooManyCommands.

// cmin is HeapTupleHeaderGetCmin.
func cmin(t []byte) uint32 {
	c := Cid(t)
	if Infomask(t)&HeapComboCid != 0 {
		return c & 0xFFFF
	}
	return c
}

// cmax is HeapTupleHeaderGetCmax.
func cmax(t []byte) uint32 {
	c := Cid(t)
	if Infomask(t)&HeapComboCid != 0 {
		return c >> 16
	}
	return c
}

// cmaxValue computes what setCmax will store: the t_cid value and whether it
// is a combo id (HeapTupleHeaderAdjustCmax). It reads the tuple only.
func cmaxValue(t []byte, w writer, cid uint32) (val uint32, combo bool, err error) {
	im := Infomask(t)
	if im&HeapXminCommitted == 0 && w.is(Xmin(t)) {
		mn := cmin(t)
		if mn > 0xFFFF || cid > 0xFFFF {
			return 0, false, ErrTooManyCommands
		}
		return mn | cid<<16, true, nil
	}
	return cid, false, nil
}

// setCidValue stores a value computed by cmaxValue.
func setCidValue(t []byte, val uint32, combo bool) {
	SetCid(t, val)
	im := Infomask(t)
	if combo {
		im |= HeapComboCid
	} else {
		im &^= HeapComboCid
	}
	SetInfomask(t, im)
}

// satisfiesMVCC is HeapTupleSatisfiesMVCC. It returns whether tuple t is
// visible to snap and the hint bits that may be set on it.
func satisfiesMVCC(t []byte, snap *Snapshot) (visible bool, hints uint16) {
	im := Infomask(t)
	if !xminCommitted(im) {
		if xminInvalid(im) {
			return false, 0
		}
		xmin := Xmin(t)
		switch {
		case snap.IsCurrent(xmin):
			if cmin(t) >= snap.CurCid {
				return false, 0 // inserted after scan started
			}
			if im&HeapXmaxInvalid != 0 {
				return true, 0
			}
			if xmaxIsLockedOnly(im) {
				return true, 0 // not deleter
			}
			if !snap.IsCurrent(Xmax(t)) {
				// The deleting (sub)transaction must have aborted.
				return true, HeapXmaxInvalid
			}
			return cmax(t) >= snap.CurCid, 0 // deleted after scan started?
		case snap.xidInSnapshot(xmin):
			return false, 0
		}
		switch status(snap.Oracle, xmin) {
		case XidCommitted:
			hints |= HeapXminCommitted
		case XidAborted:
			return false, HeapXminInvalid
		default:
			// Running yet not in the snapshot: only possible if the snapshot
			// was taken before the xid was assigned. Treat as invisible and
			// set no hint.
			return false, 0
		}
	} else if !xminFrozen(im) && snap.xidInSnapshot(Xmin(t)) {
		return false, 0 // xmin committed, but not according to the snapshot
	}

	// By here, the inserting transaction has committed.
	if im&HeapXmaxInvalid != 0 {
		return true, hints
	}
	if xmaxIsLockedOnly(im) {
		return true, hints
	}
	xmax := Xmax(t)
	if im&HeapXmaxCommitted == 0 {
		if snap.IsCurrent(xmax) {
			return cmax(t) >= snap.CurCid, hints
		}
		if snap.xidInSnapshot(xmax) {
			return true, hints
		}
		switch status(snap.Oracle, xmax) {
		case XidCommitted:
			hints |= HeapXmaxCommitted
		case XidAborted:
			return true, hints | HeapXmaxInvalid
		default:
			return true, hints
		}
	} else if snap.xidInSnapshot(xmax) {
		return true, hints // xmax committed, but not according to the snapshot
	}
	return false, hints
}

// writer is the transaction that writes: xid, the (sub)transaction's xid
// it stamps, and own, the xids that count as its own (nil: xid alone).
type writer struct {
	xid uint32
	own *OwnXids
}

// is reports whether x is one of the writer's own xids
// (TransactionIdIsCurrentTransactionId).
func (w writer) is(x uint32) bool {
	return x != InvalidXid && (x == w.xid || w.own.Has(x))
}

// satisfiesUpdate is HeapTupleSatisfiesUpdate for writer w at command
// curcid: can it update, delete or lock tuple t (at tid self)?
func satisfiesUpdate(t []byte, selfBlk uint32, selfOff uint16, w writer, curcid uint32, o Oracle) (res Result, hints uint16) {
	im := Infomask(t)
	if !xminCommitted(im) {
		if xminInvalid(im) {
			return TMInvisible, 0
		}
		xmin := Xmin(t)
		if w.is(xmin) {
			if cmin(t) >= curcid {
				return TMInvisible, 0 // inserted after scan started
			}
			if im&HeapXmaxInvalid != 0 {
				return TMOk, 0
			}
			if xmaxIsLockedOnly(im) {
				if w.is(Xmax(t)) {
					return TMBeingModified, 0 // our own lock; the caller proceeds
				}
				if status(o, Xmax(t)) != XidInProgress {
					return TMOk, 0
				}
				return TMBeingModified, 0
			}
			if !w.is(Xmax(t)) {
				return TMOk, HeapXmaxInvalid // deleting subtransaction aborted
			}
			if cmax(t) >= curcid {
				return TMSelfModified, 0 // updated after scan started
			}
			return TMInvisible, 0 // updated before scan started
		}
		switch status(o, xmin) {
		case XidInProgress:
			return TMInvisible, 0
		case XidCommitted:
			hints |= HeapXminCommitted
		default:
			return TMInvisible, HeapXminInvalid
		}
	}

	// By here, the inserting transaction has committed.
	if im&HeapXmaxInvalid != 0 {
		return TMOk, hints
	}
	ctid := Ctid(t)
	updatedOrDeleted := TMDeleted
	if ctid.Block != selfBlk || ctid.Offset != selfOff {
		updatedOrDeleted = TMUpdated
	}
	if im&HeapXmaxCommitted != 0 {
		if xmaxIsLockedOnly(im) {
			return TMOk, hints
		}
		return updatedOrDeleted, hints
	}
	xmax := Xmax(t)
	if w.is(xmax) {
		if xmaxIsLockedOnly(im) {
			return TMBeingModified, hints
		}
		if cmax(t) >= curcid {
			return TMSelfModified, hints
		}
		return TMInvisible, hints
	}
	switch status(o, xmax) {
	case XidInProgress:
		return TMBeingModified, hints
	case XidAborted:
		return TMOk, hints | HeapXmaxInvalid
	}
	// xmax committed
	if xmaxIsLockedOnly(im) {
		return TMOk, hints | HeapXmaxInvalid
	}
	return updatedOrDeleted, hints | HeapXmaxCommitted
}

// SatisfiesDirty is HeapTupleSatisfiesDirty as a uniqueness check by the
// transaction whose xids are own uses it: is tuple t live, that is inserted
// by a committed transaction, by a running one or by own, and not deleted by
// a committed transaction or by own? A row lock is not a deletion. wait is
// the running transaction not in own whose outcome decides (PostgreSQL returns it in
// the snapshot's xmin or xmax): the inserter if it is running, else the
// deleter if it is running; 0 when the answer is final. SatisfiesDirty reads
// the header only and returns no hint bits; the caller needs at least a pin
// on t's buffer and must recheck after waiting.
func SatisfiesDirty(t []byte, own *OwnXids, o Oracle) (live bool, wait uint32) {
	im := Infomask(t)
	if !xminCommitted(im) {
		if xminInvalid(im) {
			return false, 0
		}
		if xmin := Xmin(t); !own.Has(xmin) {
			switch status(o, xmin) {
			case XidAborted:
				return false, 0
			case XidInProgress:
				return true, xmin
			}
		}
	}
	xmax := Xmax(t)
	if im&HeapXmaxInvalid != 0 || xmax == InvalidXid || xmaxIsLockedOnly(im) {
		return true, 0
	}
	if im&HeapXmaxCommitted != 0 || own.Has(xmax) {
		return false, 0
	}
	switch status(o, xmax) {
	case XidCommitted:
		return false, 0
	case XidInProgress:
		return true, xmax
	}
	return true, 0 // deleter aborted
}

// DeletedBy reports whether the transaction whose xids are own deleted or
// updated row version t (a row lock is neither). SatisfiesDirty calls such
// a version dead to it; an index build must still give it an entry, as
// PostgreSQL's does for a DELETE_IN_PROGRESS of its own transaction, since
// the transaction may yet abort.
func DeletedBy(t []byte, own *OwnXids) bool {
	im := Infomask(t)
	return own.Has(Xmax(t)) && im&HeapXmaxInvalid == 0 && !xmaxIsLockedOnly(im)
}

// CopyFate is what a table rewrite by one transaction does with a row
// version it finds (RewriteFate).
type CopyFate int

const (
	CopyNone       CopyFate = iota // dead whatever the rewriter's fate: inserter aborted, deleter committed, or both the rewriter
	CopyFrozen                     // committed and not deleted: copied frozen (InsertFrozen)
	CopyInsertedBy                 // inserted by the rewriter and not deleted by it: copied as its insert
	CopyDeletedBy                  // committed and deleted by the rewriter: copied frozen, then deleted by it
)

// RewriteFate tells a rewrite of the table by the transaction whose xids
// are own (the top level's and its subtransactions': the rewrite runs
// outside any savepoint) what to do with row version t so that the copy
// reads, for every transaction and whatever becomes of the transaction, as
// t did: PostgreSQL's rewrites copy what the
// rewriter's snapshot sees, and its ALTER TABLE follows the transaction;
// minipg's does not, so the rewriter's own changes keep their
// transaction. wait is another transaction still running that inserted,
// deleted or locked t: the caller must wait for it (without the table's
// lock) and start over, as PostgreSQL's AccessExclusiveLock waits for
// every transaction that has touched the table. Reads the header only;
// the caller holds a pin.
func RewriteFate(t []byte, own *OwnXids, o Oracle) (fate CopyFate, wait uint32) {
	im := Infomask(t)
	mine := false
	if !xminCommitted(im) {
		if xminInvalid(im) {
			return CopyNone, 0
		}
		if xmin := Xmin(t); own.Has(xmin) {
			mine = true
		} else {
			switch status(o, xmin) {
			case XidAborted:
				return CopyNone, 0
			case XidInProgress:
				return CopyNone, xmin
			}
		}
	}
	live := CopyFrozen
	if mine {
		live = CopyInsertedBy
	}
	xmax := Xmax(t)
	switch {
	case im&HeapXmaxInvalid != 0 || xmax == InvalidXid:
		return live, 0
	case own.Has(xmax):
		if xmaxIsLockedOnly(im) {
			return live, 0
		}
		if mine {
			return CopyNone, 0
		}
		return CopyDeletedBy, 0
	case im&HeapXmaxCommitted != 0 && !xmaxIsLockedOnly(im):
		return CopyNone, 0
	}
	switch status(o, xmax) {
	case XidInProgress:
		return CopyNone, xmax
	case XidCommitted:
		if xmaxIsLockedOnly(im) {
			return live, 0
		}
		return CopyNone, 0
	}
	return live, 0 // deleter aborted
}

// vacStatus is HTSV_Result.
type vacStatus int

const (
	vacDead             vacStatus = iota // dead to everyone: removable
	vacLive                              // visible to everyone now or later
	vacRecentlyDead                      // deleted, but someone may still see it
	vacInsertInProgress                  // inserter still running
	vacDeleteInProgress                  // deleter still running
)

// satisfiesVacuum is HeapTupleSatisfiesVacuum against horizon oldestXmin.
func satisfiesVacuum(t []byte, oldestXmin uint32, o Oracle) (vs vacStatus, hints uint16) {
	im := Infomask(t)
	if !xminCommitted(im) {
		if xminInvalid(im) {
			return vacDead, 0
		}
		switch status(o, Xmin(t)) {
		case XidInProgress:
			return vacInsertInProgress, 0
		case XidCommitted:
			hints |= HeapXminCommitted
		default:
			return vacDead, HeapXminInvalid
		}
	}
	if im&HeapXmaxInvalid != 0 {
		return vacLive, hints
	}
	xmax := Xmax(t)
	if xmaxIsLockedOnly(im) {
		if im&HeapXmaxCommitted == 0 && status(o, xmax) != XidInProgress {
			hints |= HeapXmaxInvalid // locker gone
		}
		return vacLive, hints
	}
	if im&HeapXmaxCommitted == 0 {
		switch status(o, xmax) {
		case XidInProgress:
			return vacDeleteInProgress, hints
		case XidCommitted:
			hints |= HeapXmaxCommitted
		default:
			return vacLive, hints | HeapXmaxInvalid
		}
	}
	if !XidPrecedes(xmax, oldestXmin) {
		return vacRecentlyDead, hints
	}
	return vacDead, hints
}

// applyHints sets hint bits on t; the caller holds the exclusive lock.
func applyHints(t []byte, hints uint16) bool {
	if hints == 0 {
		return false
	}
	im := Infomask(t)
	if im|hints == im {
		return false
	}
	SetInfomask(t, im|hints)
	return true
}

// hintQueue remembers hint bits found under a share lock, to be set later
// under the exclusive lock if the tuple still has the same xmin/xmax (its
// line pointer may have been reused meanwhile).
type hintQueue []pendingHint

type pendingHint struct {
	off        uint16
	hints      uint16
	xmin, xmax uint32
}

func (q *hintQueue) add(off uint16, t []byte, hints uint16) {
	if hints == 0 || Infomask(t)|hints == Infomask(t) {
		return
	}
	*q = append(*q, pendingHint{off: off, hints: hints, xmin: Xmin(t), xmax: Xmax(t)})
}

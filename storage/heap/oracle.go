package heap

import (
	"slices"
	"sync"
)

// MapOracle is a minimal, real commit-status source for tests and tools
// that run without the transaction manager: it assigns xids, keeps a commit
// log in a map, and takes READ COMMITTED-style snapshots. Xids below the
// next one that were never committed or aborted explicitly count as running
// until Commit or Abort.
//
// OldestXmin (Horizon) is, as PostgreSQL computes it, the oldest of the
// running xids and of the snapshot xmins they hold: a snapshot taken for a
// running transaction (Snapshot with cur != 0) holds the horizon back until
// that transaction ends. A snapshot taken without a transaction (cur == 0)
// holds nothing back; use one only when no pruning can race with it.
type MapOracle struct {
	mu      sync.RWMutex // protects the fields below
	next    uint32
	status  map[uint32]XidStatus
	running map[uint32]uint32 // running xid -> oldest xmin of its snapshots (or itself)
}

// NewMapOracle returns an oracle whose first xid is FirstNormal (3).
func NewMapOracle() *MapOracle {
	return &MapOracle{next: FirstNormal, status: map[uint32]XidStatus{}, running: map[uint32]uint32{}}
}

// Begin assigns a new running xid.
func (o *MapOracle) Begin() uint32 {
	o.mu.Lock()
	defer o.mu.Unlock()
	x := o.next
	o.next++
	o.status[x] = XidInProgress
	o.running[x] = x
	return x
}

// Commit marks xid committed (before it stops being running).
func (o *MapOracle) Commit(xid uint32) { o.end(xid, XidCommitted) }

// Abort marks xid aborted.
func (o *MapOracle) Abort(xid uint32) { o.end(xid, XidAborted) }

func (o *MapOracle) end(xid uint32, s XidStatus) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.status[xid] = s
	delete(o.running, xid)
}

// Status implements Oracle. Unknown xids below the next one are aborted
// (as after a crash); xids not yet assigned are in progress.
func (o *MapOracle) Status(xid uint32) XidStatus {
	switch xid {
	case InvalidXid:
		return XidAborted
	case BootstrapXid, FrozenXid:
		return XidCommitted
	}
	o.mu.RLock()
	s, ok := o.status[xid]
	next := o.next
	o.mu.RUnlock()
	if ok {
		return s
	}
	if XidPrecedes(xid, next) {
		return XidAborted
	}
	return XidInProgress
}

// OldestXmin implements Horizon: the oldest running xid or xmin of a
// running transaction's snapshot, or the next xid if nothing runs.
func (o *MapOracle) OldestXmin() uint32 {
	o.mu.RLock()
	defer o.mu.RUnlock()
	h := o.next
	for _, xmin := range o.running {
		if XidPrecedes(xmin, h) {
			h = xmin
		}
	}
	return h
}

// Snapshot takes a snapshot for transaction cur (0 for none) at command
// cid: Xmax is the next xid, Xip the running ones, Xmin the oldest of them.
func (o *MapOracle) Snapshot(cur, cid uint32) *Snapshot {
	o.mu.Lock()
	defer o.mu.Unlock()
	s := &Snapshot{Xmin: o.next, Xmax: o.next, CurXid: cur, CurCid: cid, Oracle: o}
	for x := range o.running {
		s.Xip = append(s.Xip, x)
		if XidPrecedes(x, s.Xmin) {
			s.Xmin = x
		}
	}
	slices.Sort(s.Xip)
	if held, ok := o.running[cur]; ok && XidPrecedes(s.Xmin, held) {
		o.running[cur] = s.Xmin
	}
	return s
}

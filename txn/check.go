package txn

import "fmt"

// checkLocked verifies the manager's invariants; it panics on a broken one.
// Called after every xid assignment and transaction end in builds with the
// invariants tag. Caller holds m.mu.
//
//   - every running xid is normal, below the next xid and not recorded in
//     the commit log;
//   - the next xid never passes the reserved limit;
//   - a commit in progress, a waiter and the holder of a speculative
//     insertion lock are running transactions;
//   - a running subtransaction's top level is running and older.
func (m *Manager) checkLocked() {
	if m.mu.nextXid > m.mu.xidLimit {
		panic(fmt.Sprintf("txn: next xid %d beyond reserved limit %d", m.mu.nextXid, m.mu.xidLimit))
	}
	for x := range m.mu.running {
		if x < FirstNormalXid || x >= m.mu.nextXid {
			panic(fmt.Sprintf("txn: running xid %d outside [%d, %d)", x, FirstNormalXid, m.mu.nextXid))
		}
		if st := m.mu.clog.get(x); st != statusInProgress {
			panic(fmt.Sprintf("txn: running xid %d has status %d in the commit log", x, st))
		}
	}
	for x := range m.mu.inCommit {
		if _, ok := m.mu.running[x]; !ok {
			panic(fmt.Sprintf("txn: committing xid %d not running", x))
		}
	}
	for x, top := range m.mu.parent {
		if _, ok := m.mu.running[x]; !ok {
			panic(fmt.Sprintf("txn: subtransaction %d not running", x))
		}
		if _, ok := m.mu.running[top]; !ok || top >= x {
			panic(fmt.Sprintf("txn: subtransaction %d's top level %d not running or not older", x, top))
		}
	}
	for w := range m.mu.waitsFor {
		if _, ok := m.mu.running[w]; !ok {
			panic(fmt.Sprintf("txn: waiting xid %d not running", w))
		}
	}
	for x := range m.mu.spec {
		if _, ok := m.mu.running[x]; !ok {
			panic(fmt.Sprintf("txn: xid %d not running holds a speculative insertion lock", x))
		}
	}
}

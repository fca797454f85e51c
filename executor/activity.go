package executor

import (
	"sort"
	"sync"
	"time"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/txn"
	"minipg/types"
)

// pg_stat_activity: one row per open session, as PostgreSQL 15 shows its
// client backends. The wire layer reports what a session is doing
// (ReportQuery when a query or an extended-protocol message arrives,
// ReportIdle before ReadyForQuery); the session reports its transaction
// (ensureTx, endTx) and application_name (setValue). Other sessions read
// it through the view at any time, hence the mutex.

// activity is what pg_stat_activity shows of one session.
type activity struct {
	mu          sync.Mutex
	appName     string
	clientAddr  string // "" for a Unix-domain socket or an in-process session
	clientPort  int64  // -1 for a Unix-domain socket
	start       time.Time
	xactStart   time.Time // zero outside a transaction
	queryStart  time.Time // zero before the first query
	stateChange time.Time
	state       string // "" before the first ReadyForQuery
	query       string
	tx          *txn.Txn // the open transaction (backend_xid, backend_xmin)
	lockWait    bool     // waiting for another transaction to end
}

// activityStates are pg_stat_activity.state's values for ReadyForQuery's
// transaction status.
var activityStates = map[byte]string{'I': "idle", 'T': "idle in transaction", 'E': "idle in transaction (aborted)"}

// sessionRegistry holds the engine's open sessions (*Session) and the
// autovacuum workers at work (*workerActivity).
type sessionRegistry struct {
	mu  sync.Mutex
	set map[any]struct{}
}

// add shows x (a *Session or *workerActivity) until remove.
func (r *sessionRegistry) add(x any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.set == nil {
		r.set = map[any]struct{}{}
	}
	r.set[x] = struct{}{}
}

func (r *sessionRegistry) remove(x any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.set, x)
}

// workerActivity is an autovacuum worker's row while it processes a table.
type workerActivity struct {
	pid   int32
	query string // "autovacuum: VACUUM public.t", as PostgreSQL words it
	start time.Time
}

// row is the worker's pg_stat_activity row: no user or client, in the one
// database, active since it took the table, as PostgreSQL shows an
// autovacuum worker.
func (w *workerActivity) row() []types.Datum {
	t := tsDatum(w.start)
	return []types.Datum{int64(databaseOID), "postgres", int64(w.pid), nil, nil, nil, "", nil, nil, nil,
		t, t, t, t, nil, nil, "active", nil, nil, nil, w.query, "autovacuum worker"}
}

// autovacuumQuery is what PostgreSQL's autovac_report_activity reports.
func autovacuumQuery(vacuum, analyze bool, table string) string {
	q := "autovacuum: ANALYZE"
	if vacuum {
		q = "autovacuum: VACUUM"
		if analyze {
			q += " ANALYZE"
		}
	}
	return q + " public." + table
}

// listed is an open session or a worker, with the pid read under the
// registry's lock (Attach changes a session's).
type listed struct {
	s   *Session
	w   *workerActivity
	pid int32
}

// list returns the open sessions and the workers at work in pid order.
func (r *sessionRegistry) list() []listed {
	r.mu.Lock()
	out := make([]listed, 0, len(r.set))
	for x := range r.set {
		switch v := x.(type) {
		case *Session:
			out = append(out, listed{s: v, pid: v.pid})
		case *workerActivity:
			out = append(out, listed{w: v, pid: v.pid})
		}
	}
	r.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].pid < out[j].pid })
	return out
}

// Attach gives the session the process id its connection announced in
// BackendKeyData (pg_backend_pid and pg_stat_activity.pid show it, as
// they show the backend's in PostgreSQL) and the client's address and
// port (client_addr, client_port): an empty addr and port -1 for a
// Unix-domain socket, as PostgreSQL shows one. The wire layer calls it
// once, before the first statement.
func (s *Session) Attach(pid int32, addr string, port int) {
	s.e.sessions.mu.Lock()
	s.pid = pid
	s.e.sessions.mu.Unlock()
	s.ist.SetOwner(pid)
	a := &s.act
	a.mu.Lock()
	a.clientAddr, a.clientPort = addr, int64(port)
	a.mu.Unlock()
}

// ReportQuery records that the session runs query from now on (state
// active), as PostgreSQL reports it for a Query message and for each
// Parse, Bind and Execute of the extended protocol.
func (s *Session) ReportQuery(query string) {
	now := time.Now()
	a := &s.act
	a.mu.Lock()
	a.state, a.query, a.queryStart, a.stateChange = "active", query, now, now
	a.mu.Unlock()
}

// ReportIdle records that the session waits for the client: idle, idle in
// transaction or idle in transaction (aborted), by TxStatus. The last
// query stays shown, as in PostgreSQL.
func (s *Session) ReportIdle() {
	state := activityStates[s.TxStatus()]
	a := &s.act
	a.mu.Lock()
	if a.state != state {
		a.state, a.stateChange = state, time.Now()
	}
	a.mu.Unlock()
}

// ReportLockWait records that the session's statement waits for another
// transaction to end (waiting true) or no longer does: pg_stat_activity
// shows wait event Lock / transactionid meanwhile, as PostgreSQL does for
// a row lock held by another transaction. txn.WithWaitReporter carries it
// to the wait.
func (s *Session) ReportLockWait(waiting bool) {
	s.act.update(func(a *activity) { a.lockWait = waiting })
}

// reportTx records the transaction the session opened (tx, started at
// start) or, with a nil tx, that it has none.
func (s *Session) reportTx(tx *txn.Txn, start time.Time) {
	s.act.update(func(a *activity) { a.tx, a.xactStart = tx, start })
}

// reportAppName records a new application_name.
func (s *Session) reportAppName(v string) {
	s.act.update(func(a *activity) { a.appName = v })
}

// update changes the activity under its lock (other sessions read it).
func (a *activity) update(change func(a *activity)) {
	a.mu.Lock()
	change(a)
	a.mu.Unlock()
}

// xidDatum is an xid column: NULL for InvalidXid.
func xidDatum(x uint32) types.Datum {
	if x == txn.InvalidXid {
		return nil
	}
	return int64(x)
}

// activityRow is the session's pg_stat_activity row (pid read by list).
func (s *Session) activityRow(pid int32) []types.Datum {
	a := &s.act
	a.mu.Lock()
	defer a.mu.Unlock()
	var xid, xmin uint32
	if a.tx != nil {
		xid, xmin = a.tx.Shown()
	}
	var state, waitType, wait, addr, port types.Datum
	if a.state != "" {
		state = a.state
	}
	switch {
	case a.state == "active" && a.lockWait:
		waitType, wait = "Lock", "transactionid"
	case a.state != "" && a.state != "active":
		waitType, wait = "Client", "ClientRead"
	}
	if a.clientAddr != "" {
		addr = a.clientAddr
	}
	if a.clientAddr != "" || a.clientPort == -1 {
		port = a.clientPort
	}
	return []types.Datum{int64(databaseOID), s.database, int64(pid), nil, int64(bootstrapSuperuserOID), s.user,
		a.appName, addr, nil, port, tsDatum(a.start), tsDatum(a.xactStart), tsDatum(a.queryStart),
		tsDatum(a.stateChange), waitType, wait, state, xidDatum(xid), xidDatum(xmin), nil, a.query, "client backend"}
}

// SetBackendSignal hands the engine the wire layer's way to cancel the
// statement of the connection with a pid (terminate false) or to end the
// connection (true), reporting whether one has that pid: what
// pg_cancel_backend and pg_terminate_backend call. Set once, before the
// first session; without it no pid is a backend's.
func (e *Engine) SetBackendSignal(signal func(pid int32, terminate bool) bool) { e.signal = signal }

// signalBackend is pg_cancel_backend and pg_terminate_backend: false, with
// PostgreSQL's warning, when pid is no connection's.
func (s *Session) signalBackend(pid int64, terminate bool) bool {
	if s.e.signal == nil || pid != int64(int32(pid)) || !s.e.signal(int32(pid), terminate) {
		s.notice(pgerr.SeverityWarning, pgerr.Warning, "PID %d is not a PostgreSQL backend process", pid)
		return false
	}
	return true
}

// waitBackendGone waits up to timeout for the session with pid to end
// (pg_terminate_backend's timeout), as PostgreSQL polls for the process.
func (s *Session) waitBackendGone(pid int64, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		gone := true
		for _, l := range s.e.sessions.list() {
			if l.s != nil && int64(l.pid) == pid {
				gone = false
				break
			}
		}
		if gone {
			return true
		}
		if time.Now().After(deadline) {
			s.notice(pgerr.SeverityWarning, pgerr.Warning, "backend with PID %d did not terminate within %d milliseconds", pid, timeout.Milliseconds())
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// bootstrapSuperuserOID is usesysid of every session (minipg has no
// roles; PostgreSQL's bootstrap superuser is 10).
const bootstrapSuperuserOID = 10

func init() {
	col := func(name string, t types.OID) catalog.Column {
		return catalog.Column{Name: name, TypeOID: uint32(t), Typmod: -1}
	}
	// client_addr is inet in PostgreSQL; minipg has no inet and shows the
	// address as text.
	sql.RegisterVirtualTable("pg_stat_activity", []catalog.Column{
		col("datid", types.Oid), col("datname", types.Text), col("pid", types.Int4), col("leader_pid", types.Int4),
		col("usesysid", types.Oid), col("usename", types.Text), col("application_name", types.Text),
		col("client_addr", types.Text), col("client_hostname", types.Text), col("client_port", types.Int4),
		col("backend_start", types.TimestampTZ), col("xact_start", types.TimestampTZ),
		col("query_start", types.TimestampTZ), col("state_change", types.TimestampTZ),
		col("wait_event_type", types.Text), col("wait_event", types.Text), col("state", types.Text),
		col("backend_xid", types.Xid), col("backend_xmin", types.Xid), col("query_id", types.Int8),
		col("query", types.Text), col("backend_type", types.Text),
	}, func(env any) ([][]types.Datum, error) {
		var out [][]types.Datum
		for _, l := range env.(*Engine).sessions.list() {
			if l.w != nil {
				out = append(out, l.w.row())
			} else {
				out = append(out, l.s.activityRow(l.pid))
			}
		}
		return out, nil
	})
	// pg_locks: each transaction's lock on its own xid, and the advisory
	// locks held and waited for. Relation and row locks, waits for a
	// transaction and virtual xids are not listed.
	sql.RegisterVirtualTable("pg_locks", []catalog.Column{
		col("locktype", types.Text), col("database", types.Oid), col("relation", types.Oid), col("page", types.Int4),
		col("tuple", types.Int2), col("virtualxid", types.Text), col("transactionid", types.Xid), col("classid", types.Oid),
		col("objid", types.Oid), col("objsubid", types.Int2), col("virtualtransaction", types.Text), col("pid", types.Int4),
		col("mode", types.Text), col("granted", types.Bool), col("fastpath", types.Bool), col("waitstart", types.TimestampTZ),
	}, func(env any) ([][]types.Datum, error) {
		e := env.(*Engine)
		var out [][]types.Datum
		for _, l := range e.sessions.list() {
			if l.s == nil {
				continue
			}
			var xid uint32
			l.s.act.update(func(a *activity) {
				if a.tx != nil {
					xid, _ = a.tx.Shown()
				}
			})
			if xid != txn.InvalidXid {
				out = append(out, []types.Datum{"transactionid", nil, nil, nil, nil, nil, int64(xid), nil, nil, nil, nil,
					int64(l.pid), "ExclusiveLock", true, false, nil})
			}
		}
		return append(out, e.advisory.lockRows()...), nil
	})
	builtin("pg_cancel_backend", oids(types.Int4), types.Bool, sql.Volatile,
		func(env any, args []types.Datum, _ *sql.Func) (types.Datum, error) {
			return session(env).signalBackend(args[0].(int64), false), nil
		})
	terminate := func(env any, args []types.Datum, _ *sql.Func) (types.Datum, error) {
		var timeout int64
		if len(args) > 1 {
			if timeout = args[1].(int64); timeout < 0 {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "\"timeout\" must not be negative")
			}
		}
		s, pid := session(env), args[0].(int64)
		if !s.signalBackend(pid, true) {
			return false, nil
		}
		if timeout == 0 {
			return true, nil
		}
		return s.waitBackendGone(pid, time.Duration(timeout)*time.Millisecond), nil
	}
	builtin("pg_terminate_backend", oids(types.Int4), types.Bool, sql.Volatile, terminate)
	builtin("pg_terminate_backend", oids(types.Int4, types.Int8), types.Bool, sql.Volatile, terminate)
}

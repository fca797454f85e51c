package executor

import (
	"context"
	"fmt"
	"math/rand"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"minipg/pgerr"
	"minipg/pgstat"
	"minipg/sql"
	"minipg/storage/buffer"
	"minipg/storage/heap"
	"minipg/txn"
	"minipg/types"
)

// Column describes one result column (RowDescription).
type Column struct {
	Name     string
	Type     types.T
	TableOID uint32
	AttNum   int16
}

// Prepared is one parsed and bound statement.
type Prepared struct {
	SQL        string
	ParamTypes []types.OID
	Columns    []Column // nil => NoData
	IsCopyFrom bool
	IsCopyTo   bool

	bound      *sql.Bound
	catVersion uint64
	reqTypes   []types.OID // parameter types as the client gave them
}

var nextPID atomic.Int32

// Session is one connection's state. It is not safe for concurrent use,
// except that the context passed to Run/CopyFrom may be cancelled from
// another goroutine.
type Session struct {
	e        *Engine
	user     string
	database string
	pid      int32

	settings map[string]string
	startup  map[string]string // settings the start-up packet gave (their RESET value)
	ddl      []ddlChange       // relations the current transaction created or dropped (ddl_undo.go)
	// sqlPrepared are the statements SQL's PREPARE made (prepare.go).
	sqlPrepared map[string]*sqlStatement
	// cursors are the transaction's SQL cursors (cursor.go).
	cursors map[string]*Portal
	// savepoints are the transaction's open savepoints, oldest first
	// (savepoint.go).
	savepoints []savepoint
	adv        advisoryLocks // the advisory locks held (advisory.go)
	mem        memAccount    // the running statement's memory (memory.go)
	ints       intBoxes      // boxed integers of scans (rowvalues.go)
	plans      planCache     // index plans of the statements' WHERE clauses (path.go)
	// bufUsage counts the session's shared buffer accesses (PostgreSQL's
	// pgBufferUsage): its snapshots and insert state carry it to the heap,
	// and EXPLAIN (ANALYZE, BUFFERS) reads it around each plan node.
	bufUsage buffer.Usage
	// explainSource, while an EXPLAIN ANALYZE runs an UPDATE or DELETE,
	// receives the figures of the statement's row source (explainDML).
	explainSource *instrStats
	// explainUpsert, while an EXPLAIN ANALYZE runs an INSERT ... ON
	// CONFLICT, receives its conflict counts (explainDML).
	explainUpsert *upsertCounts
	// explainMerge, while an EXPLAIN ANALYZE runs a MERGE, receives what
	// became of its source rows.
	explainMerge *mergeCounts
	// fnBodies caches the bound bodies of the SQL functions called, and
	// fnDepth counts the calls running, one inside another.
	fnBodies map[uint32]boundFunction
	fnDepth  int
	changed  map[string]string // reported settings changed since ParamStatusChanges
	// zone caches the *time.Location of settings["timezone"].
	zone struct {
		name string
		loc  *time.Location
	}
	istyle struct {
		name  string
		style types.IntervalStyle
	}
	notices []*pgerr.Error

	tx       *txn.Txn
	explicit bool // inside BEGIN ... COMMIT
	failed   bool // a statement failed in the current transaction
	txStart  time.Time
	ist      *heap.InsertState
	lastIns  lastInserted // for heap.InsertState.RowShares (dml.go)
	active   int          // portals holding a snapshot
	xstat    pgstat.Xact  // the transaction's row changes per table (stats.go)
	act      activity     // what pg_stat_activity shows (activity.go)

	// Settings changed inside the current transaction: gucUndo holds each
	// one's value before the transaction's first SET of it (restored on
	// abort), gucKeep the value a plain SET gave it (kept on commit; a
	// setting changed only by SET LOCAL reverts at commit too).
	gucUndo map[string]string
	gucKeep map[string]string

	seqs    map[uint32]*seqCache // sequences used in this session (currval)
	lastSeq uint32               // the sequence nextval last advanced (lastval)
	newRels map[uint32]bool      // tables created or truncated in this transaction (COPY FREEZE)
	rng     *rand.Rand           // random() and setseed (func_math.go); nil until first used
}

// NewSession starts a session. startup holds the start-up packet's
// parameters (user, database, application_name, client_encoding, ...);
// settings among them are applied (invalid values are ignored).
func (e *Engine) NewSession(startup map[string]string) *Session {
	s := &Session{e: e, user: startup["user"], database: startup["database"], pid: nextPID.Add(1) + 1000,
		settings: map[string]string{}, changed: map[string]string{}, ist: &heap.InsertState{}}
	s.ist.SetOwner(s.pid)
	s.ist.SetUsage(&s.bufUsage)
	if s.user == "" {
		s.user = "postgres"
	}
	if s.database == "" {
		s.database = s.user
	}
	for k, v := range e.settings {
		s.settings[k] = v
	}
	s.settings["session_authorization"] = s.user
	for k, v := range startup {
		name := strings.ToLower(k)
		def, ok := gucTable[name]
		if !ok && checkPlaceholder(name, k) != nil || def.readOnly != "" {
			continue
		}
		if nv, err := checkGUC(name, v); err == nil {
			s.settings[name] = nv
			if s.startup == nil {
				s.startup = map[string]string{}
			}
			s.startup[name] = nv
		}
	}
	for name, def := range gucTable {
		if def.report {
			s.changed[name] = s.settings[name]
		}
	}
	s.act.start, s.act.appName = time.Now(), s.settings["application_name"]
	e.sessions.add(s)
	return s
}

// resetValue is what RESET gives setting name: the start-up packet's
// value, else the server's (PostgreSQL's reset_val).
func (s *Session) resetValue(name string) string {
	if v, ok := s.startup[name]; ok {
		return v
	}
	return s.e.settings[name]
}

// Setting returns the session's value of a setting.
func (s *Session) Setting(name string) (string, bool) {
	v, ok := s.settings[strings.ToLower(name)]
	return v, ok
}

// PID is the session's backend process id (BackendKeyData).
func (s *Session) PID() int32 { return s.pid }

// SplitQuery splits a simple-query string into statements.
func SplitQuery(query string) ([]string, error) { return sql.Split(query) }

func errAborted() error {
	return pgerr.New(pgerr.InFailedSQLTransaction, "current transaction is aborted, commands ignored until end of transaction block")
}

func isTxnExit(b *sql.Bound) bool {
	if b == nil {
		return false
	}
	t, ok := b.Stmt.(*sql.Txn)
	return ok && (t.Kind == sql.TxnCommit || t.Kind == sql.TxnRollback || t.Kind == sql.TxnRollbackTo)
}

// Prepare parses and binds ONE statement. An empty or comment-only query
// returns (nil, nil) (EmptyQueryResponse). paramTypes[i] == 0 asks for the
// type to be inferred.
func (s *Session) Prepare(query string, paramTypes []types.OID) (p *Prepared, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, s.fail(s.internalError("binding", r))
		}
	}()
	for _, oid := range paramTypes {
		if oid != 0 && !types.Known(oid) {
			return nil, s.fail(pgerr.New(pgerr.FeatureNotSupported, "parameters of type OID %d are not supported", oid))
		}
	}
	ver := s.e.cat.Version()
	b, err := sql.Prepare(sessionCatalog{s.e.cat, s}, query, paramTypes)
	if s.failed && s.explicit && !isTxnExit(b) {
		return nil, errAborted()
	}
	if err != nil {
		return nil, s.fail(err)
	}
	if b == nil {
		return nil, nil
	}
	s.notices = append(s.notices, b.Notices...)
	p = &Prepared{SQL: query, ParamTypes: b.ParamTypes, bound: b, catVersion: ver,
		reqTypes: append([]types.OID(nil), paramTypes...)}
	p.Columns = convColumns(b.Columns)
	_, p.IsCopyFrom = b.Stmt.(*sql.Copy)
	_, p.IsCopyTo = b.Stmt.(*sql.CopyTo)
	return p, nil
}

func convColumns(cols []sql.ResultCol) []Column {
	if cols == nil {
		return nil
	}
	out := make([]Column, len(cols))
	for i, c := range cols {
		out[i] = Column{Name: c.Name, Type: c.T, TableOID: c.TableOID, AttNum: c.AttNum}
	}
	return out
}

// fail marks the current transaction failed (any error inside a transaction
// aborts it) and returns err.
func (s *Session) fail(err error) error {
	if s.tx != nil || s.explicit {
		s.failed = true
	}
	return err
}

// Portal is a bound statement ready to run.
type Portal struct {
	s      *Session
	p      *Prepared
	params []types.Datum

	started bool
	done    bool
	tag     string
	rows    rowIter // SELECT plan or buffered RETURNING rows
	nrows   int64   // rows emitted so far
	tagFn   func(n int64) string
	release []func()        // relation locks to release when the statement ends
	shared  map[uint32]bool // tables openRel has locked (shared) for the statement
	// cteRows holds the rows of each CTE referenced more than once
	// (sql.FromTable.Shared), evaluated once per statement.
	cteRows map[int][][]types.Datum
	// withRows holds the RETURNING rows of each data-modifying WITH query
	// (sql.Bound.With), by number (with_dml.go).
	withRows map[int][][]types.Datum
	copy     *sql.Copy
	copyTo   *sql.CopyTo
	active   bool // counted in Session.active
}

// Bind binds parameter values (already converted to p.ParamTypes).
func (s *Session) Bind(p *Prepared, params []types.Datum) (*Portal, error) {
	if s.failed && s.explicit && !isTxnExit(p.bound) {
		return nil, errAborted()
	}
	if len(params) != len(p.ParamTypes) {
		return nil, s.fail(pgerr.New(pgerr.ProtocolViolation, "bind message supplies %d parameters, but prepared statement requires %d", len(params), len(p.ParamTypes)))
	}
	if v := s.e.cat.Version(); v != p.catVersion {
		// DDL since Prepare: bind the statement again.
		b, err := sql.Prepare(sessionCatalog{s.e.cat, s}, p.SQL, p.ParamTypes)
		if err != nil {
			return nil, s.fail(err)
		}
		if !sameColumns(convColumns(b.Columns), p.Columns) {
			return nil, s.fail(pgerr.New(pgerr.FeatureNotSupported, "cached plan must not change result type"))
		}
		p.bound, p.catVersion = b, v
	}
	// A developer setting: every insert of the statement asks the
	// free-space policy instead of the session's remembered target block.
	s.ist.SetIgnoreTarget(s.settings["debug_fsm_ignore_target"] == "on")
	if ex, ok := p.bound.Stmt.(*sql.ExecuteSQL); ok {
		return s.bindExecute(ex, params)
	}
	pt := &Portal{s: s, p: p, params: params}
	if c, ok := p.bound.Stmt.(*sql.Copy); ok {
		if err := foldCopyDefaults(s, c); err != nil {
			return nil, s.fail(err)
		}
		pt.copy = c
	}
	if c, ok := p.bound.Stmt.(*sql.CopyTo); ok {
		pt.copyTo = c
	}
	return pt, nil
}

// foldCopyDefaults evaluates, before any data is asked for, the defaults of
// the columns COPY does not give that are casts of constants, as
// PostgreSQL's BeginCopyFrom does when it plans them (constant folding):
// a default that cannot be stored in its column ('toolong' into
// varchar(3)) fails the COPY at its start, even with no rows.
func foldCopyDefaults(s *Session, c *sql.Copy) error {
	given := make([]bool, len(c.Defaults))
	for _, col := range c.Cols {
		given[col] = true
	}
	ev := &evalCtx{s: s}
	for col, d := range c.Defaults {
		if given[col] || d == nil {
			continue
		}
		if cast, ok := d.(*sql.Cast); ok {
			if _, isConst := cast.X.(*sql.Const); isConst {
				if _, err := ev.eval(d, nil); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func sameColumns(a, b []Column) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Type != b[i].Type {
			return false
		}
	}
	return true
}

// Columns returns the result columns (nil => NoData).
func (pt *Portal) Columns() []Column { return pt.p.Columns }

// Sync ends an implicit transaction (end of a simple-query message, or the
// Sync message): commit it, or roll it back if a statement failed. Inside a
// BEGIN block it does nothing.
func (s *Session) Sync() error {
	if s.explicit || s.tx == nil {
		return nil
	}
	return s.endTx(!s.failed)
}

// endTx commits or aborts the open transaction and leaves the block.
func (s *Session) endTx(commit bool) error {
	s.closeCursors()
	s.savepoints = nil
	s.releaseXactAdvisory(0)
	tx := s.tx
	s.tx, s.explicit, s.failed, s.active = nil, false, false, 0
	if tx != nil {
		s.reportTx(nil, time.Time{})
	}
	s.newRels = nil
	s.lastIns.forget()
	s.endTxSettings(commit)
	if tx == nil {
		return nil
	}
	// After the commit or abort: the rows a bulk transaction inserted are
	// in place, and its run's remaining pages go back to the map. A
	// transaction that moved through heap.BulkPages pages of a table
	// loaded it in bulk; a New-Order's few rows fill part of one page and
	// keep their run, so the session's next order continues next to this
	// one.
	defer func() {
		s.releaseRunsOf(s.ist.BulkRelations(heap.BulkPages))
		s.ist.ResetMoves()
	}()
	if commit {
		s.e.noteCommitMode(tx.TopXid(), s.settings["synchronous_commit"])
		err := tx.Commit()
		s.endXactStats(err == nil)
		if err != nil {
			s.undoDDL()
		} else {
			s.commitDDL()
		}
		return err
	}
	s.endXactStats(false)
	err := tx.Abort()
	s.undoDDL()
	return err
}

// ownXids returns the xids of the open transaction and of its
// subtransactions not rolled back; nil outside a transaction.
func (s *Session) ownXids() *heap.OwnXids {
	if s.tx == nil {
		return nil
	}
	return s.tx.Own()
}

// TxStatus returns 'I', 'T' or 'E' for ReadyForQuery.
func (s *Session) TxStatus() byte {
	switch {
	case !s.explicit:
		return 'I'
	case s.failed:
		return 'E'
	}
	return 'T'
}

// TakeNotices returns the warnings and notices raised since the last call.
// Those below the session's client_min_messages are dropped (INFO always
// goes, as in PostgreSQL).
func (s *Session) TakeNotices() []*pgerr.Error {
	n := s.notices
	s.notices = nil
	floor, ok := messageLevels[s.settings["client_min_messages"]]
	if !ok {
		return n
	}
	kept := n[:0]
	for _, e := range n {
		if lv, known := noticeLevel(e.Severity); !known || lv >= floor {
			kept = append(kept, e)
		}
	}
	return kept
}

// messageLevels orders client_min_messages' values.
var messageLevels = map[string]int{"debug5": 0, "debug4": 1, "debug3": 2, "debug2": 3, "debug1": 4,
	"log": 5, "notice": 6, "warning": 7, "error": 8}

// noticeLevel is a notice's place among messageLevels; known is false for
// INFO, which every client gets.
func noticeLevel(severity string) (lv int, known bool) {
	switch severity {
	case "", pgerr.SeverityNotice:
		return messageLevels["notice"], true
	case pgerr.SeverityWarning:
		return messageLevels["warning"], true
	case "LOG":
		return messageLevels["log"], true
	case "DEBUG":
		return messageLevels["debug1"], true
	}
	return 0, false
}

func (s *Session) notice(severity string, code pgerr.Code, format string, args ...any) {
	e := pgerr.New(code, format, args...)
	e.Severity = severity
	s.notices = append(s.notices, e)
}

// ParamStatusChanges returns the GUC_REPORT settings changed since the last
// call (name as PostgreSQL spells it in ParameterStatus). The first call
// after NewSession returns all of them with the session's values.
func (s *Session) ParamStatusChanges() map[string]string {
	if len(s.changed) == 0 {
		return nil
	}
	out := make(map[string]string, len(s.changed))
	for k, v := range s.changed {
		out[reportName(k)] = v
	}
	s.changed = map[string]string{}
	return out
}

func reportName(name string) string {
	switch name {
	case "datestyle":
		return "DateStyle"
	case "timezone":
		return "TimeZone"
	case "intervalstyle":
		return "IntervalStyle"
	}
	return name
}

// Close aborts any open transaction and ends the session.
func (s *Session) Close() {
	s.e.sessions.remove(s)
	if s.tx != nil {
		_ = s.tx.Abort()
		s.tx = nil
		s.reportTx(nil, time.Time{})
	}
	s.endXactStats(false)
	s.explicit, s.failed = false, false
	s.releaseXactAdvisory(0)
	s.releaseAllAdvisory()
	s.releaseRuns()
}

// releaseRuns gives back the pages the free-space policies still reserve
// for this session in the tables it inserted into (heap.InsertState's
// ReleaseRun): a session that ends loads no more, and pages reserved for it
// would otherwise stay empty between pages other sessions fill. Only
// tables still open are released; holding the engine's lock keeps a DROP
// from unlinking one meanwhile (it removes the table from the map first).
func (s *Session) releaseRuns() { s.releaseRunsOf(s.ist.Relations()) }

// releaseRunsOf is releaseRuns for the given tables.
func (s *Session) releaseRunsOf(rels []*heap.Relation) {
	if len(rels) == 0 {
		return
	}
	e := s.e
	e.mu.RLock()
	defer e.mu.RUnlock()
	for _, r := range rels {
		for _, open := range e.mu.rels {
			if open.heap == r {
				s.ist.ReleaseRun(r)
				break
			}
		}
	}
}

// ensureTx starts an implicit transaction if none is open.
func (s *Session) ensureTx() *txn.Txn {
	if s.tx == nil {
		s.tx = s.e.txns.Begin()
		s.txStart = time.Now().UTC().Truncate(time.Microsecond)
		s.reportTx(s.tx, s.txStart)
	}
	return s.tx
}

// canceled maps a done context to 57014.
func canceled(ctx context.Context) error {
	if ctx.Err() != nil {
		return pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request")
	}
	return nil
}

// mapCtxErr turns a context error returned by a wait into 57014.
func mapCtxErr(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil && (err == ctx.Err()) {
		return pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request")
	}
	return err
}

// internalError turns a recovered panic into an XX000 error, so that a bug
// in binding or evaluation fails the statement instead of the connection.
func (s *Session) internalError(where string, r any) error {
	s.e.log.Error("internal error", "while", where, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	return pgerr.New(pgerr.InternalError, "internal error while %s: %v", where, r)
}

// Location is the session's TimeZone as a *time.Location (UTC when the
// setting names no zone Go knows, which checkGUC prevents).
func (s *Session) Location() *time.Location {
	name := s.settings["timezone"]
	if s.zone.loc != nil && s.zone.name == name {
		return s.zone.loc
	}
	loc, _, ok := types.LoadZone(name)
	if !ok {
		loc = time.UTC
	}
	s.zone.name, s.zone.loc = name, loc
	return loc
}

// IntervalStyle is the session's IntervalStyle setting.
func (s *Session) IntervalStyle() types.IntervalStyle {
	name := s.settings["intervalstyle"]
	if s.istyle.name != name {
		st, _ := types.IntervalStyleByName(name)
		s.istyle.name, s.istyle.style = name, st
	}
	return s.istyle.style
}

// Conv is the session state text I/O and casts read: TimeZone,
// IntervalStyle, bytea_output, extra_float_digits and the transaction's
// start ('now').
func (s *Session) Conv() types.Conv {
	cv := types.Conv{Loc: s.Location(), IntervalStyle: s.IntervalStyle(), ByteaEscape: s.settings["bytea_output"] == "escape"}
	if efd, err := strconv.Atoi(s.settings["extra_float_digits"]); err == nil && efd < 1 {
		cv.FloatCut = 1 - efd
	}
	if s.tx != nil {
		cv.Now = s.txStart
	}
	return cv
}

package executor

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/txn"
	"minipg/types"
)

// rowIter produces rows; Close releases what it holds.
type rowIter interface {
	Next(ctx context.Context) ([]types.Datum, bool, error)
	Close()
}

// sliceIter hands out buffered rows.
type sliceIter struct {
	rows [][]types.Datum
	i    int
}

func (it *sliceIter) Next(context.Context) ([]types.Datum, bool, error) {
	if it.i >= len(it.rows) {
		return nil, false, nil
	}
	it.i++
	return it.rows[it.i-1], true, nil
}
func (it *sliceIter) Close() {}

// Run executes up to maxRows rows (0 = all) calling emit per row. done=false
// means the portal is suspended (PortalSuspended) and Run may be called
// again. tag is the CommandComplete tag once done. The row passed to emit
// is valid until emit returns: the next row may reuse the slice (copy it to
// keep it; its values are immutable and may be kept).
func (pt *Portal) Run(ctx context.Context, maxRows int, emit func(row []types.Datum) error) (tag string, done bool, err error) {
	s := pt.s
	defer func() {
		if r := recover(); r != nil {
			pt.finish(errAborted())
			pt.done = true
			tag, done, err = "", true, s.fail(s.internalError("executing", r))
		}
	}()
	if pt.done {
		return pt.tag, true, nil
	}
	ctx = txn.WithLockOwner(ctx, s)
	if !pt.started {
		if tag, done, err := pt.begin(ctx); done || err != nil {
			return tag, done, err
		}
	}
	n := 0
	for maxRows <= 0 || n < maxRows {
		row, ok, err := pt.rows.Next(ctx)
		if err != nil {
			pt.finish(err)
			return "", true, s.fail(err)
		}
		if !ok {
			pt.finish(nil)
			pt.done, pt.tag = true, pt.tagFn(pt.nrows)
			return pt.tag, true, nil
		}
		if err := emit(row); err != nil {
			pt.finish(err)
			return "", true, s.fail(err)
		}
		pt.nrows++
		n++
	}
	return "", false, nil
}

// begin starts the portal's statement; done is true when it has ended
// (a utility statement, or an error).
func (pt *Portal) begin(ctx context.Context) (tag string, done bool, err error) {
	s := pt.s
	pt.started = true
	if s.failed && s.explicit && !isTxnExit(pt.p.bound) {
		pt.done = true
		return "", true, errAborted()
	}
	if err := canceled(ctx); err != nil {
		pt.finish(err)
		return "", true, s.fail(err)
	}
	tag, err = pt.start(ctx)
	if err != nil {
		err = s.inUseError(err, pt.p.bound.Stmt)
		pt.finish(err)
		return "", true, s.fail(err)
	}
	if pt.rows == nil {
		pt.finish(nil)
		pt.done, pt.tag = true, tag
		return tag, true, nil
	}
	return "", false, nil
}

// finish ends the portal's statement: releases locks and iterators and
// advances the command counter.
func (pt *Portal) finish(err error) {
	if pt.rows != nil {
		pt.rows.Close()
		pt.rows = nil
	}
	for _, rel := range pt.release {
		rel()
	}
	pt.release, pt.shared = nil, nil
	s := pt.s
	if err == nil && s.tx != nil {
		if e := s.tx.NextCommand(); e != nil {
			s.failed = true
		}
	}
	if pt.active {
		pt.active = false
		if s.active > 0 {
			s.active--
		}
		if s.active == 0 && s.tx != nil {
			// No snapshot of this transaction is in use any more (READ
			// COMMITTED): stop holding back VACUUM's horizon.
			s.tx.ResetXmin()
		}
	}
}

// Close releases the portal. A suspended statement ends here.
func (pt *Portal) Close() {
	if !pt.done && pt.started {
		pt.finish(nil)
		pt.done = true
	}
}

// start begins executing the statement. Utility statements complete here
// and return their tag with pt.rows nil; row-returning statements set
// pt.rows and pt.tagFn.
func (pt *Portal) start(ctx context.Context) (string, error) {
	s := pt.s
	s.mem.reset(s.sessionMemoryLimit())
	switch st := pt.p.bound.Stmt.(type) {
	case *sql.Txn:
		return s.txnControl(st)
	case *sql.Set:
		return s.set(st)
	case *sql.Show:
		v, ok := s.settings[st.Name]
		if st.Name == "transaction_read_only" && !s.explicit {
			v = s.settings["default_transaction_read_only"]
		}
		if !ok {
			if st.Name == "all" {
				var rows [][]types.Datum
				for _, name := range sortedSettings(s.settings) {
					if _, ok := gucTable[name]; !ok {
						continue // a placeholder
					}
					rows = append(rows, []types.Datum{reportName(name), s.settings[name], ""})
				}
				pt.rows = &sliceIter{rows: rows}
				pt.tagFn = func(int64) string { return "SHOW" }
				return "", nil
			}
			return "", pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter \"%s\"", st.Name)
		}
		pt.rows = &sliceIter{rows: [][]types.Datum{{v}}}
		pt.tagFn = func(int64) string { return "SHOW" }
		return "", nil
	case *sql.Discard:
		if st.All {
			if s.explicit {
				return "", pgerr.New(pgerr.ActiveSQLTransaction, "DISCARD ALL cannot run inside a transaction block")
			}
			if _, err := s.set(&sql.Set{Reset: true}); err != nil {
				return "", err
			}
			s.sqlPrepared = nil // and DEALLOCATE ALL
		}
		if st.Sequences {
			s.seqs, s.lastSeq = nil, 0
		}
		return st.Tag, nil
	case *sql.CreateTable, *sql.DropTable, *sql.CreateIndex, *sql.DropIndex, *sql.AlterOptions, *sql.AlterConstraints, *sql.AlterMissing,
		*sql.CreateSequence, *sql.DropSequence, *sql.AlterDefault, *sql.AlterNotNull, *sql.Truncate,
		*sql.CreateExtension, *sql.DropExtension, *sql.CreateView, *sql.DropView, *sql.AlterAddColumns, *sql.Rename, *sql.AlterChecks, *sql.Comment, *sql.AlterSequence, *sql.Insert, *sql.Update, *sql.Delete, *sql.Merge, *sql.CreateTableAs,
		*sql.CreateFunction, *sql.DropFunction:
		if err := s.checkReadOnly(readOnlyName(st)); err != nil {
			return "", err
		}
	case *sql.Select:
		if st.ForUpdate {
			if err := s.checkReadOnly("SELECT " + st.LockStrength); err != nil {
				return "", err
			}
		}
	}
	if _, explain := pt.p.bound.Stmt.(*sql.Explain); len(pt.p.bound.With) > 0 && !explain && pt.withRows == nil {
		if err := pt.runWithDML(ctx); err != nil {
			return "", err
		}
	}
	switch st := pt.p.bound.Stmt.(type) {
	case *sql.Explain:
		return "", pt.startExplain(ctx, st)
	case *sql.Checkpoint:
		if err := s.e.Checkpoint(); err != nil {
			return "", err
		}
		return "CHECKPOINT", nil
	case *sql.CreateTable:
		s.ensureTx()
		return s.createTable(ctx, st)
	case *sql.CreateTableAs:
		return pt.createTableAs(ctx, st)
	case *sql.DropTable:
		s.ensureTx()
		return s.dropTable(ctx, st)
	case *sql.CreateIndex:
		s.ensureTx()
		return s.createIndex(ctx, st)
	case *sql.DropIndex:
		return s.dropIndex(ctx, st)
	case *sql.AlterOptions:
		return s.alterOptions(ctx, st)
	case *sql.AlterConstraints:
		return s.alterConstraints(ctx, st)
	case *sql.AlterMissing:
		return s.alterMissing(st)
	case *sql.AlterAddColumns:
		return s.alterAddColumns(ctx, st)
	case *sql.AlterDropColumns:
		return s.alterDropColumns(ctx, st)
	case *sql.AlterColumnTypes:
		return s.alterColumnTypes(ctx, pt, st)
	case *sql.CreateSequence:
		return s.createSequence(st)
	case *sql.DropSequence:
		return s.dropSequence(ctx, st, st.Cascade)
	case *sql.Rename:
		return s.rename(ctx, st)
	case *sql.AlterSequence:
		return s.alterSequence(st)
	case *sql.Comment:
		return s.comment(st)
	case *sql.AlterChecks:
		return s.alterChecks(ctx, st)
	case *sql.DeclareCursor:
		return s.declareCursor(ctx, st)
	case *sql.FetchCursor:
		return "", pt.fetchCursor(ctx, st)
	case *sql.CloseCursor:
		return s.closeCursor(st)
	case *sql.PrepareSQL:
		return s.prepareSQL(st, pt.p.SQL)
	case *sql.Deallocate:
		return s.deallocate(st)
	case *sql.CreateView:
		return s.createView(st)
	case *sql.CreateFunction:
		return s.createFunction(st)
	case *sql.Cluster:
		return s.cluster(ctx, pt, st)
	case *sql.DropFunction:
		return s.dropFunction(st)
	case *sql.DropView:
		return s.dropView(st)
	case *sql.CreateExtension:
		return s.createExtension(st)
	case *sql.DropExtension:
		return s.dropExtension(st)
	case *sql.AlterDefault:
		return s.alterDefault(ctx, st)
	case *sql.AlterNotNull:
		return s.alterNotNull(ctx, st)
	case *sql.Truncate:
		return s.truncate(ctx, pt, st)
	case *sql.Vacuum:
		if s.explicit && !st.AnalyzeOnly {
			return "", pgerr.New(pgerr.ActiveSQLTransaction, "VACUUM cannot run inside a transaction block")
		}
		return s.vacuum(ctx, pt, st)
	case *sql.Copy:
		return "", pgerr.New(pgerr.ProtocolViolation, "COPY FROM STDIN must be run with CopyFrom")
	case *sql.CopyTo:
		return "", pgerr.New(pgerr.ProtocolViolation, "COPY TO STDOUT must be run with CopyTo")
	case *sql.Select:
		return "", pt.startSelect(ctx, st)
	case *sql.Insert:
		return pt.startDML(ctx, st.Table.OID, func(x *execCtx) (int64, error) { return x.insert(st) }, "INSERT 0 %d", st.Returning != nil)
	case *sql.Update:
		return pt.startDML(ctx, st.Table.OID, func(x *execCtx) (int64, error) { return x.update(st) }, "UPDATE %d", st.Returning != nil)
	case *sql.Delete:
		return pt.startDML(ctx, st.Table.OID, func(x *execCtx) (int64, error) { return x.delete(st) }, "DELETE %d", st.Returning != nil)
	case *sql.Merge:
		return pt.startDML(ctx, st.Table.OID, func(x *execCtx) (int64, error) { return x.merge(st) }, "MERGE %d", false)
	}
	return "", pgerr.New(pgerr.InternalError, "unexpected statement %T", pt.p.bound.Stmt)
}

// inUseError turns LockRelation's refusal of an exclusive lock the session
// already holds shared (a cursor of its reads the table) into PostgreSQL's
// 55006, naming the statement st and the table; other errors pass.
func (s *Session) inUseError(err error, st sql.Stmt) error {
	var inUse *txn.RelationInUseError
	if !errors.As(err, &inUse) {
		return err
	}
	name := fmt.Sprint(inUse.OID)
	if t, ok := s.e.cat.TableByOID(inUse.OID); ok {
		name = t.Name
	}
	what := strings.TrimSuffix(readOnlyName(st), " TABLE") // TRUNCATE, as PostgreSQL names it
	if _, ok := st.(*sql.Truncate); !ok {
		what = readOnlyName(st)
	}
	return pgerr.New(pgerr.ObjectInUse, "cannot %s \"%s\" because it is being used by active queries in this session", what, name)
}

// readOnlyName names a writing statement as PostgreSQL's read-only
// transaction error does.
func readOnlyName(st sql.Stmt) string {
	switch st := st.(type) {
	case *sql.CreateTable:
		return "CREATE TABLE"
	case *sql.CreateTableAs:
		if st.SelectInto {
			return "SELECT INTO"
		}
		return "CREATE TABLE AS"
	case *sql.DropTable:
		return "DROP TABLE"
	case *sql.DropIndex:
		return "DROP INDEX"
	case *sql.CreateIndex:
		return "CREATE INDEX"
	case *sql.AlterOptions, *sql.AlterConstraints, *sql.AlterMissing, *sql.AlterDefault, *sql.AlterNotNull, *sql.AlterAddColumns, *sql.AlterChecks:
		return "ALTER TABLE"
	case *sql.Rename:
		return "ALTER " + st.Stmt
	case *sql.CreateSequence:
		return "CREATE SEQUENCE"
	case *sql.DropSequence:
		return "DROP SEQUENCE"
	case *sql.AlterSequence:
		return "ALTER SEQUENCE"
	case *sql.Comment:
		return "COMMENT"
	case *sql.CreateView:
		return "CREATE VIEW"
	case *sql.DropView:
		return "DROP VIEW"
	case *sql.CreateExtension:
		return "CREATE EXTENSION"
	case *sql.DropExtension:
		return "DROP EXTENSION"
	case *sql.Truncate:
		return "TRUNCATE TABLE"
	case *sql.Insert:
		return "INSERT"
	case *sql.Update:
		return "UPDATE"
	case *sql.Delete:
		return "DELETE"
	case *sql.Merge:
		return "MERGE"
	case *sql.CreateFunction:
		return "CREATE FUNCTION"
	case *sql.DropFunction:
		return "DROP FUNCTION"
	}
	return "COPY FROM"
}

func (s *Session) txnControl(st *sql.Txn) (string, error) {
	switch st.Kind {
	case sql.TxnSavepoint, sql.TxnRelease, sql.TxnRollbackTo:
		return s.savepointControl(st)
	case sql.TxnBegin:
		if s.explicit {
			s.notice(pgerr.SeverityWarning, pgerr.ActiveSQLTransaction, "there is already a transaction in progress")
			return st.Tag, nil
		}
		s.ensureTx()
		s.explicit = true
		if st.ReadOnly || !st.ReadWrite && s.settings["default_transaction_read_only"] == "on" {
			s.assignSetting("transaction_read_only", "on", true)
		}
		return st.Tag, nil
	}
	if st.Chain && !s.explicit {
		return "", pgerr.New(pgerr.NoActiveSQLTransaction, "%s AND CHAIN can only be used in transaction blocks", st.Tag)
	}
	if !s.explicit {
		s.notice(pgerr.SeverityWarning, pgerr.NoActiveSQLTransaction, "there is no transaction in progress")
	}
	readOnly := s.settings["transaction_read_only"]
	tag, commit := "ROLLBACK", false
	if st.Kind == sql.TxnCommit && !s.failed {
		tag, commit = "COMMIT", true
	}
	if err := s.endTx(commit); err != nil || !st.Chain {
		return tag, err
	}
	// AND CHAIN: a new block with the same characteristics.
	s.ensureTx()
	s.explicit = true
	if readOnly == "on" {
		s.assignSetting("transaction_read_only", "on", true)
	}
	return tag, nil
}

func (s *Session) set(st *sql.Set) (string, error) {
	tag := "SET"
	if st.Reset {
		tag = "RESET"
	}
	if st.Tag != "" {
		tag = st.Tag // SET name TO DEFAULT
	}
	if st.Name == "" {
		if st.Reset { // RESET ALL
			for name := range s.settings {
				if def, ok := gucTable[name]; !ok || def.readOnly == "" && name != "transaction_read_only" {
					s.assignSetting(name, s.resetValue(name), false)
				}
			}
		}
		return tag, nil
	}
	if st.Name == "transaction_snapshot" {
		// Importing a snapshot takes REPEATABLE READ or SERIALIZABLE,
		// which minipg does not have.
		if !s.explicit {
			s.notice(pgerr.SeverityWarning, pgerr.NoActiveSQLTransaction, "SET TRANSACTION can only be used in transaction blocks")
		}
		return "", pgerr.New(pgerr.FeatureNotSupported, "a snapshot-importing transaction must have isolation level SERIALIZABLE or REPEATABLE READ")
	}
	if st.Local && !s.explicit {
		// The implicit transaction ends with this statement: no effect.
		s.notice(pgerr.SeverityWarning, pgerr.NoActiveSQLTransaction, "SET LOCAL can only be used in transaction blocks")
		return tag, nil
	}
	name := st.Name
	if name == "time zone" {
		name = "timezone"
	}
	def, ok := gucTable[name]
	if !ok {
		if err := checkPlaceholder(name, st.Name); err != nil {
			return "", err
		}
	}
	switch def.readOnly {
	case roInternal:
		return "", pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed", name)
	case roPostmaster:
		return "", pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed without restarting the server", name)
	case roSighup:
		return "", pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed now", name)
	}
	v := s.resetValue(name)
	if !st.Reset {
		nv, err := checkGUC(name, st.Value)
		if err != nil {
			return "", err
		}
		v = nv
	}
	if name == "transaction_read_only" && v == "off" && s.explicit && s.settings[name] == "on" {
		// check_transaction_read_only's rules.
		if len(s.savepoints) > 0 {
			return "", pgerr.New(pgerr.ActiveSQLTransaction, "cannot set transaction read-write mode inside a read-only transaction")
		}
		if s.tx.SnapshotTaken() {
			return "", pgerr.New(pgerr.ActiveSQLTransaction, "transaction read-write mode must be set before any query")
		}
	}
	// A SET belongs to the (implicit) transaction it runs in: if a later
	// statement of the same query string fails, it is undone.
	s.ensureTx()
	s.assignSetting(name, v, st.Local || name == "transaction_read_only")
	return tag, nil
}

// assignSetting sets name for the session; inside a transaction it records
// what to restore when the transaction ends (local: at its end either way;
// otherwise only if it aborts), as PostgreSQL's GUC nesting does.
func (s *Session) assignSetting(name, v string, local bool) {
	if s.explicit || s.tx != nil {
		if s.gucUndo == nil {
			s.gucUndo, s.gucKeep = map[string]string{}, map[string]string{}
		}
		if _, ok := s.gucUndo[name]; !ok {
			s.gucUndo[name] = s.settings[name]
		}
		if !local {
			s.gucKeep[name] = v
		}
		s.noteSetting(name)
	}
	s.setValue(name, v)
	s.e.walSettingChanged(name, v)
}

// endTxSettings restores the settings the ending transaction changed:
// all of them on abort, those changed only by SET LOCAL on commit.
func (s *Session) endTxSettings(commit bool) {
	for name, old := range s.gucUndo {
		v := old
		if keep, ok := s.gucKeep[name]; ok && commit {
			v = keep
		}
		s.setValue(name, v)
		s.e.walSettingChanged(name, v)
	}
	s.gucUndo, s.gucKeep = nil, nil
}

// checkReadOnly refuses a statement that writes in a read-only transaction.
func (s *Session) checkReadOnly(what string) error {
	if s.txnReadOnly() {
		return pgerr.New(pgerr.ReadOnlySQLTransaction, "cannot execute %s in a read-only transaction", what)
	}
	return nil
}

// txnReadOnly reports whether the current transaction is read-only: a
// transaction block's own transaction_read_only, and for a statement
// outside a block default_transaction_read_only, with which every
// transaction begins.
func (s *Session) txnReadOnly() bool {
	if !s.explicit {
		return s.settings["default_transaction_read_only"] == "on"
	}
	return s.settings["transaction_read_only"] == "on"
}

func (s *Session) setValue(name, v string) {
	if old, ok := s.settings[name]; ok && old == v {
		return
	}
	s.settings[name] = v
	if gucTable[name].report {
		s.changed[name] = v
	}
	if name == "application_name" {
		s.reportAppName(v)
	}
}

// startDML runs an INSERT/UPDATE/DELETE to completion, buffering RETURNING
// rows, so that a row limit on Execute only limits what is sent.
func (pt *Portal) startDML(ctx context.Context, tableOID uint32, run func(*execCtx) (int64, error), tagFmt string, returning bool) (string, error) {
	x, err := pt.newExecCtx(ctx, tableOID, true)
	if err != nil {
		return "", err
	}
	var buf [][]types.Datum
	if returning {
		x.emitReturning = func(row []types.Datum) { buf = append(buf, row) }
	}
	n, err := run(x)
	if err != nil {
		return "", err
	}
	if returning {
		// The rows wait in memory for Execute to send them.
		if _, err := pt.s.mem.chargeRows(buf); err != nil {
			return "", err
		}
		pt.rows = &sliceIter{rows: buf}
		pt.tagFn = func(int64) string { return fmt.Sprintf(tagFmt, n) }
		return "", nil
	}
	return fmt.Sprintf(tagFmt, n), nil
}

func sortedSettings(m map[string]string) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

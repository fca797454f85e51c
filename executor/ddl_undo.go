package executor

// DDL and the transaction's end. minipg's catalog is not versioned by
// transaction, so DDL takes effect at once; two kinds are made to follow
// the transaction instead:
//
//   - What a transaction creates (tables, indexes, sequences, views) is noted,
//     and an abort drops it again, newest first, so that BEGIN; CREATE
//     TABLE ...; ROLLBACK, a migration that fails half-way, or a
//     multi-statement query whose later statement fails leaves nothing
//     behind.
//   - DROP TABLE hides the table (catalog.HideTable: the table and its
//     indexes take hidden names and leave pg_class) and the commit drops
//     it; an abort gives the names back, rows and all. A crash in between
//     is settled at start-up by the dropping transaction's fate
//     (settleHiddenTables). DROP VIEW marks the view the same way
//     (view.go).
//
// Other DDL (DROP INDEX, DROP SEQUENCE, ALTER TABLE) stays done, and so
// does what it drops with CASCADE: the views and the other tables' foreign
// keys and defaults that ALTER TABLE ... DROP COLUMN ... CASCADE takes are
// dropped at once, not hidden until the commit as DROP VIEW's are, since
// the column they need does not come back. ALTER COLUMN ... TYPE's rewrite
// stays done too: the committed rows are copied frozen, the transaction's
// own inserts and deletes keep their transaction (altertype.go). A table
// another transaction created and has not committed is not found by name
// (sessionCatalog), though the system catalogs list it (README, "Where
// minipg departs").

import (
	"context"

	"minipg/catalog"
	"minipg/sql"
	"minipg/storage/heap"
)

// ddlChange is a relation the current transaction created or dropped.
type ddlChange struct {
	kind byte   // createdTable, createdIndex, createdSequence, droppedTable
	oid  uint32 // the table's (for an index, its table's) or the sequence's OID
	name string // the name it was created with ("" for a dropped table)
	// seq is an altered sequence's parameters and state before the ALTER.
	seq *seqBefore
}

// seqBefore is what ALTER SEQUENCE changed, for an abort to restore.
type seqBefore struct {
	def    catalog.Sequence
	last   int64
	called bool
}

// ddlChange kinds.
const (
	createdTable     = 't'
	createdIndex     = 'i'
	createdSequence  = 's'
	createdView      = 'v'
	createdFunction  = 'f'
	replacedFunction = 'r' // CREATE OR REPLACE: the previous definition kept
	droppedFunction  = 'g' // marked, deleted at the commit
	alteredSequence  = 'q'
	droppedTable     = 'd' // hidden, dropped at the commit
	droppedView      = 'w' // marked, deleted at the commit
)

// noteCreated records a relation the current transaction created.
func (s *Session) noteCreated(kind byte, oid uint32, name string) {
	s.ddl = append(s.ddl, ddlChange{kind: kind, oid: oid, name: name})
}

// noteDropped records a table the current transaction hid to drop it
// (droppedTable) or a view it marked (droppedView).
func (s *Session) noteDropped(kind byte, oid uint32) {
	s.ddl = append(s.ddl, ddlChange{kind: kind, oid: oid})
}

// commitDDL ends the committed transaction's DDL: the tables it hid are
// dropped, those it created lose their creator's mark.
func (s *Session) commitDDL() {
	ddl := s.ddl
	s.ddl = nil
	for _, c := range ddl {
		switch c.kind {
		case droppedTable:
			if err := s.e.dropTableNow(context.Background(), c.oid); err != nil {
				// The table stays hidden; start-up drops it (settleHiddenTables).
				s.e.log.Warn("could not drop a table its transaction dropped", "oid", c.oid, "err", err)
			}
		case createdTable:
			if t, ok := s.e.cat.TableByOID(c.oid); ok && t.CreatedXid != 0 {
				if err := s.e.cat.ClearCreated(c.oid); err != nil {
					s.e.log.Warn("could not mark a created table committed", "table", c.name, "err", err)
				}
			}
		case droppedView:
			if err := s.e.cat.DropView(c.oid); err != nil {
				// Start-up deletes it (settleViews).
				s.e.log.Warn("could not drop a view its transaction dropped", "oid", c.oid, "err", err)
			}
		case droppedFunction:
			if err := s.e.cat.DropFunction(c.oid); err != nil {
				// Start-up deletes it (settleFunctions).
				s.e.log.Warn("could not drop a function its transaction dropped", "oid", c.oid, "err", err)
			}
		case createdFunction, replacedFunction:
			if f, ok := s.e.cat.FunctionByOID(c.oid); ok && (f.CreatedXid != 0 || f.ReplacedXid != 0) {
				if _, err := s.e.cat.UpdateFunction(c.oid, func(f *catalog.Function) error {
					f.CreatedXid, f.ReplacedXid, f.Previous = 0, 0, nil
					return nil
				}); err != nil {
					s.e.log.Warn("could not mark a created function committed", "function", c.name, "err", err)
				}
			}
		case createdView:
			if v, ok := s.e.cat.ViewByOID(c.oid); ok && v.CreatedXid != 0 {
				if _, err := s.e.cat.UpdateView(c.oid, func(v *catalog.View) error {
					v.CreatedXid = 0
					return nil
				}); err != nil {
					s.e.log.Warn("could not mark a created view committed", "view", c.name, "err", err)
				}
			}
		}
	}
}

// undoDDL drops what the aborted transaction created and gives the
// tables it dropped back, newest first.
func (s *Session) undoDDL() { s.undoDDLAfter(0) }

// undoDDLAfter undoes the DDL changes after the first mark ones (those of
// an aborted transaction, or of a subtransaction rolled back to its
// savepoint), newest first. Each object is dropped only if it is still the
// one created (a later statement may have dropped it or reused its name).
// The notices the drops raise are not sent: PostgreSQL's abort raises
// none.
func (s *Session) undoDDLAfter(mark int) {
	ddl := s.ddl[mark:]
	s.ddl = s.ddl[:mark:mark]
	if len(ddl) == 0 {
		return
	}
	ctx := context.Background()
	notices := len(s.notices)
	for i := len(ddl) - 1; i >= 0; i-- {
		c := ddl[i]
		var err error
		switch c.kind {
		case createdTable:
			if t, ok := s.e.cat.Table(c.name); ok && t.OID == c.oid {
				if err = s.dropTableDependents(ctx, []*catalog.Table{t}, true); err == nil {
					err = s.e.dropTableNow(ctx, c.oid)
				}
			}
		case createdIndex:
			if t, _, ok := s.e.cat.IndexByName(c.name); ok && t.OID == c.oid {
				err = s.e.dropIndex(ctx, c.oid, c.name)
			}
		case createdSequence:
			if q, ok := s.e.cat.Sequence(c.name); ok && q.OID == c.oid {
				_, err = s.dropSequence(ctx, &sql.DropSequence{Names: []string{c.name}, IfExists: true}, true)
			}
		case droppedTable:
			var t *catalog.Table
			if t, err = s.e.cat.UnhideTable(c.oid); err == nil {
				s.e.renamedRel(t)
			}
		case createdView:
			if v, ok := s.e.cat.ViewByOID(c.oid); ok && v.Name == c.name {
				err = s.e.cat.DropView(c.oid)
			}
		case droppedView:
			_, err = s.e.cat.UpdateView(c.oid, func(v *catalog.View) error {
				v.DroppingXid = 0
				return nil
			})
		case createdFunction:
			if f, ok := s.e.cat.FunctionByOID(c.oid); ok && f.CreatedXid != 0 {
				err = s.e.cat.DropFunction(c.oid)
			}
		case replacedFunction:
			if f, ok := s.e.cat.FunctionByOID(c.oid); ok && f.ReplacedXid != 0 {
				_, err = s.e.cat.UpdateFunction(c.oid, func(f *catalog.Function) error { restorePrevious(f); return nil })
			}
		case droppedFunction:
			_, err = s.e.cat.UpdateFunction(c.oid, func(f *catalog.Function) error {
				f.DroppingXid = 0
				return nil
			})
		case alteredSequence:
			err = s.undoAlterSequence(c)
		}
		if err != nil {
			s.e.log.Warn("could not undo a change of an aborted transaction's DDL", "kind", string(c.kind), "oid", c.oid, "relation", c.name, "err", err)
		}
	}
	s.notices = s.notices[:notices]
}

// settleHiddenTables ends the CREATE and DROP TABLEs a crash interrupted:
// a table created by a transaction that did not commit is dropped (newest
// first), then a table hidden by a transaction that committed is dropped,
// one hidden by a transaction that did not is given its names back.
// Start-up calls it once the WAL is replayed and the transactions' fates
// are known.
func (e *Engine) settleHiddenTables() error {
	tables := e.cat.Tables()
	for i := len(tables) - 1; i >= 0; i-- {
		t := tables[i]
		if t.CreatedXid == 0 {
			continue
		}
		var err error
		if e.txns.Status(t.CreatedXid) == heap.XidCommitted {
			err = e.cat.ClearCreated(t.OID)
		} else {
			err = e.dropTableNow(context.Background(), t.OID)
		}
		if err != nil {
			return err
		}
	}
	for _, t := range e.cat.Tables() {
		if t.Dropping == nil {
			continue
		}
		if e.txns.Status(t.Dropping.Xid) == heap.XidCommitted {
			if err := e.dropTableNow(context.Background(), t.OID); err != nil {
				return err
			}
			continue
		}
		u, err := e.cat.UnhideTable(t.OID)
		if err != nil {
			return err
		}
		e.renamedRel(u)
	}
	return nil
}

// sessionCatalog is the catalog as session s's statements are bound
// against it: a table created by another transaction that has not
// committed (catalog.Table.CreatedXid) is not found by name, as in
// PostgreSQL, whose catalog rows are MVCC.
type sessionCatalog struct {
	catalogStore
	s *Session
}

func (c sessionCatalog) Table(name string) (*catalog.Table, bool) {
	t, ok := c.catalogStore.Table(name)
	if !ok || t.CreatedXid == 0 || c.visibleCreation(t.CreatedXid) {
		return t, ok
	}
	return nil, false
}

// visibleCreation reports whether a relation created by transaction xid
// (not yet marked committed) is visible to the session: it is the
// session's own transaction, or one that has committed (the mark is about
// to go, commitDDL).
func (c sessionCatalog) visibleCreation(xid uint32) bool {
	if c.s.ownXids().Has(xid) {
		return true
	}
	return c.s.e.txns.Status(xid) == heap.XidCommitted
}

// undoAlterSequence puts an aborted ALTER SEQUENCE's parameters back, and
// its state too unless values past it were handed out meanwhile (the
// sequence is shared: a later nextval of another session may have used
// the new parameters), so that no value is handed out twice.
func (s *Session) undoAlterSequence(c ddlChange) error {
	cur, curCalled, err := s.e.cat.SequenceState(c.oid)
	if err != nil {
		return err
	}
	last, called := cur, curCalled
	if b := c.seq; b.def.Increment > 0 && cur <= b.last || b.def.Increment < 0 && cur >= b.last {
		last, called = b.last, b.called
	}
	if err := s.e.cat.AlterSequence(c.oid, c.seq.def, &last); err != nil {
		return err
	}
	return s.e.cat.SetVal(c.oid, last, called)
}

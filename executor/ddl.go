package executor

import (
	"context"
	"strings"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/reloptions"
	"minipg/sql"
	"minipg/storage/buffer"
)

func (s *Session) createTable(ctx context.Context, st *sql.CreateTable) (string, error) {
	_, err := s.createTableDef(ctx, st)
	if err != nil {
		return "", err
	}
	return "CREATE TABLE", nil
}

// createTableDef creates the table st describes, its indexes and the
// sequences of its serial columns, and returns it; with IF NOT EXISTS and
// a relation of that name already there it returns nil after the notice.
// The creating transaction owns the table until it commits: an abort
// drops it (ddl_undo.go).
func (s *Session) createTableDef(ctx context.Context, st *sql.CreateTable) (*catalog.Table, error) {
	e := s.e
	if st.IfNotExists && e.cat.RelationExists(st.Def.Name) {
		s.notice(pgerr.SeverityNotice, pgerr.Code("42P07"), "relation \"%s\" already exists, skipping", st.Def.Name)
		return nil, nil
	}
	def := st.Def.Clone() // a prepared statement may run again: names are chosen each time
	nameConstraintIndexes(e.cat, def)
	if err := s.createTableForeignKeys(def, st.ForeignKeys); err != nil {
		return nil, err
	}
	for _, p := range reloptions.All() {
		// The session's value of a parameter such as fsm_policy becomes the
		// new table's option when it differs from the server's.
		if _, ok := def.Options[p.Name]; !ok && p.SessionDefault {
			if v := s.settings[p.Name]; v != "" && v != e.settings[p.Name] {
				if def.Options == nil {
					def.Options = map[string]string{}
				}
				def.Options[p.Name] = v
			}
		}
	}
	if len(def.Options) == 0 {
		def.Options = nil
	}
	// The creator's xid stays in the catalog until it commits: a crash
	// before that drops the table at start-up (settleHiddenTables).
	xid, err := s.ensureTx().Xid()
	if err != nil {
		return nil, err
	}
	def.CreatedXid = xid
	seqs := serialSequences(e.cat, def, st.Serials)
	// Disk indexes get their (empty) files before the catalog names them.
	disk := e.indexStorageDisk()
	for i := range def.Indexes {
		def.Indexes[i].RelFileNode, def.Indexes[i].KeyFormat = 0, 0
		if disk {
			keepOnDisk(&def.Indexes[i], catalog.AssignRelFileNode)
		}
	}
	var made []catalog.Index
	t, _, err := e.cat.CreateTableWithFiles(def, seqs, func(t *catalog.Table) error {
		for _, idx := range t.Indexes {
			if idx.OnDisk() {
				made = append(made, idx)
				if err := e.createEmptyIndex(idx.RelFileNode); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		if derr := e.dropIndexFiles(made...); derr != nil {
			return nil, derr
		}
		if pgerr.CodeOf(err) == pgerr.DuplicateTable && st.IfNotExists {
			s.notice(pgerr.SeverityNotice, pgerr.DuplicateTable, "relation \"%s\" already exists, skipping", def.Name)
			return nil, nil
		}
		return nil, err
	}
	if err := e.walLogCreate(t.RelFileNode); err != nil {
		return nil, err
	}
	if err := e.pool.CreateRel(buffer.RelFileNode(t.RelFileNode)); err != nil {
		return nil, err
	}
	r, err := e.openRelation(t)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.mu.rels[t.OID] = r
	e.mu.Unlock()
	s.markNewRelfilenode(t.OID)
	s.noteCreated(createdTable, t.OID, t.Name)
	return t, nil
}

func (s *Session) dropTable(ctx context.Context, st *sql.DropTable) (string, error) {
	e := s.e
	// Check all names first, as PostgreSQL does.
	var tables []*catalog.Table
	for _, name := range st.Names {
		t, ok := e.cat.Table(name)
		if !ok {
			if _, isSeq := e.cat.Sequence(name); isSeq {
				return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table", name).
					WithHint("Use DROP SEQUENCE to remove a sequence.")
			}
			if _, isView := e.cat.View(name); isView {
				return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table", name).
					WithHint("Use DROP VIEW to remove a view.")
			}
			if st.IfExists {
				s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, "table \"%s\" does not exist, skipping", name)
				continue
			}
			return "", pgerr.New(pgerr.UndefinedTable, "table \"%s\" does not exist", name)
		}
		tables = append(tables, t)
	}
	roots := make([]viewDepRoot, len(tables))
	for i, t := range tables {
		roots[i] = viewDepRoot{oid: t.OID, desc: "table " + t.Name}
	}
	views, err := s.viewDependents(roots, st.Cascade)
	if err != nil {
		return "", err
	}
	if err := s.dropTableDependents(ctx, tables, st.Cascade); err != nil {
		return "", err
	}
	if err := s.hideViews(views); err != nil {
		return "", err
	}
	// The tables are hidden now and dropped when the transaction commits
	// (ddl_undo.go).
	xid, err := s.ensureTx().Xid()
	if err != nil {
		return "", err
	}
	for _, t := range tables {
		if err := e.hideTable(ctx, t.OID, xid); err != nil {
			return "", err
		}
		s.noteDropped(droppedTable, t.OID)
	}
	return "DROP TABLE", nil
}

// hideTable gives table oid and its indexes hidden names under the
// table's exclusive lock (catalog.HideTable): the first half of a DROP
// TABLE, whose files stay until the transaction ends.
func (e *Engine) hideTable(ctx context.Context, oid, xid uint32) error {
	return e.renameUnderLock(ctx, oid, func() (*catalog.Table, error) { return e.cat.HideTable(oid, xid) })
}

// changeDef changes table oid's definition under the table's exclusive
// lock: change (given the open relation) stores the new definition, which
// the open relation then takes, its indexes' definitions with it, and
// with them its defaults.
func (e *Engine) changeDef(ctx context.Context, oid uint32, change func(r *relation) (*catalog.Table, error)) error {
	release, err := e.txns.LockRelation(ctx, oid, true)
	if err != nil {
		return mapCtxErr(ctx, err)
	}
	defer release()
	r, err := e.rel(oid)
	if err != nil {
		return err
	}
	t, err := change(r)
	if err != nil {
		return err
	}
	nr := *r
	nr.def = t
	if nr.defaults, err = sql.Defaults(t); err != nil {
		return err
	}
	nr.indexes = make([]*relIndex, len(r.indexes))
	for i, ri := range r.indexes {
		c := *ri
		for _, d := range t.Indexes {
			if d.OID == ri.def.OID {
				c.def = d
			}
		}
		nr.indexes[i] = &c
	}
	e.replaceRel(&nr)
	return nil
}

// renameUnderLock changes table oid's names by change under the table's
// exclusive lock and refreshes its open relation.
func (e *Engine) renameUnderLock(ctx context.Context, oid uint32, change func() (*catalog.Table, error)) error {
	release, err := e.txns.LockRelation(ctx, oid, true)
	if err != nil {
		return mapCtxErr(ctx, err)
	}
	defer release()
	t, err := change()
	if err != nil {
		return err
	}
	e.renamedRel(t)
	return nil
}

// renamedRel refreshes the open relation of table t after its names
// changed (hidden or given back).
func (e *Engine) renamedRel(t *catalog.Table) {
	r, err := e.rel(t.OID)
	if err != nil {
		return
	}
	nr := *r
	nr.def = t
	e.replaceRel(&nr)
}

// dropTableNow drops table oid, files and all: the end of a DROP TABLE
// whose transaction committed.
func (e *Engine) dropTableNow(ctx context.Context, oid uint32) error {
	release, err := e.txns.LockRelation(ctx, oid, true)
	if err != nil {
		return mapCtxErr(ctx, err)
	}
	defer release()
	dropped, err := e.cat.DropTable(oid) // as it was under the lock
	if err != nil {
		return err
	}
	e.mu.Lock()
	r := e.mu.rels[oid]
	delete(e.mu.rels, oid)
	e.mu.Unlock()
	e.stats.Drop(oid)
	if r != nil {
		r.heap.Retire()
	}
	// The catalog change is committed: log the drop, then unlink.
	if err := e.walLogDrop(dropped.RelFileNode); err != nil {
		return err
	}
	if err := e.pool.DropRel(buffer.RelFileNode(dropped.RelFileNode)); err != nil {
		return err
	}
	return e.dropIndexFiles(dropped.Indexes...)
}

func (s *Session) createIndex(ctx context.Context, st *sql.CreateIndex) (string, error) {
	if st.Concurrent && s.explicit {
		return "", pgerr.New(pgerr.ActiveSQLTransaction, "CREATE INDEX CONCURRENTLY cannot run inside a transaction block")
	}
	e := s.e
	idx := st.Index
	if idx.Name == "" {
		var cols []string
		for _, a := range idx.Columns {
			cols = append(cols, st.Table.Columns[a-1].Name)
		}
		label := "idx"
		if idx.Primary {
			label = "pkey"
		}
		idx.Name = e.cat.ChooseRelationName(st.Table.Name, strings.Join(cols, "_"), label)
	}
	if e.cat.RelationExists(idx.Name) {
		if st.IfNotExists {
			s.notice(pgerr.SeverityNotice, pgerr.DuplicateTable, "relation \"%s\" already exists, skipping", idx.Name)
			return "CREATE INDEX", nil
		}
		return "", pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", idx.Name)
	}
	for {
		wait, err := s.addIndex(ctx, st.Table.OID, idx)
		if wait == 0 {
			if err != nil {
				return "", err
			}
			s.ensureTx()
			s.noteCreated(createdIndex, st.Table.OID, idx.Name)
			return "CREATE INDEX", nil
		}
		// A row version whose inserter or deleter is still running decides
		// uniqueness: wait for its transaction without holding the table
		// lock (it may need the lock to finish), then build again.
		if err := s.ensureTx().WaitFor(ctx, wait); err != nil {
			return "", mapCtxErr(ctx, err)
		}
	}
}

// addIndex builds idx on table oid under the table's exclusive lock and
// publishes it. wait != 0 means the build needs transaction wait to end
// first (see buildIndex); nothing was changed.
func (s *Session) addIndex(ctx context.Context, oid uint32, idx catalog.Index) (wait uint32, err error) {
	e := s.e
	release, err := e.txns.LockRelation(ctx, oid, true)
	if err != nil {
		return 0, mapCtxErr(ctx, err)
	}
	defer release()
	r, err := e.rel(oid)
	if err != nil {
		return 0, err
	}
	if err := e.prepareIndex(&idx); err != nil {
		return 0, err
	}
	ri := e.newRelIndex(r, idx)
	x := &execCtx{ctx: ctx, s: s, tx: s.ensureTx(), rel: r}
	x.xid = x.tx.XidIfAssigned()
	if _, wait, err := x.buildIndex(ri, nil); wait != 0 || err != nil {
		if derr := e.dropIndexFiles(idx); derr != nil && err == nil {
			err = derr
		}
		return wait, err
	}
	t, stored, err := e.cat.AddIndex(oid, idx)
	if err != nil {
		if derr := e.dropIndexFiles(idx); derr != nil {
			return 0, derr
		}
		return 0, err
	}
	ri.def = stored
	nr := *r
	nr.def = t
	nr.indexes = append(append([]*relIndex(nil), r.indexes...), ri)
	setIndexAttrs(&nr)
	e.replaceRel(&nr)
	return 0, nil
}

// alterOptions changes storage parameters and reopens the table's heap with
// them (the indexes are kept).
func (s *Session) alterOptions(ctx context.Context, st *sql.AlterOptions) (string, error) {
	e := s.e
	release, err := e.txns.LockRelation(ctx, st.Table.OID, true)
	if err != nil {
		return "", mapCtxErr(ctx, err)
	}
	defer release()
	old, err := e.rel(st.Table.OID)
	if err != nil {
		return "", err
	}
	t, err := e.cat.SetOptions(st.Table.OID, st.Options)
	if err != nil {
		return "", err
	}
	r, err := e.openRelation(t)
	if err != nil {
		return "", err
	}
	r.indexes = old.indexes
	e.replaceRel(r)
	return "ALTER TABLE", nil
}

// replaceRel installs r, the new state of a table after DDL, in place of the
// old one. As a relcache invalidation does in PostgreSQL, it makes every
// session forget its remembered target block of the table (a reopened heap
// does that by itself; a shared one is told). The old heap, if another, is
// retired: the pruner's notes on it are dropped, so none outlives a later
// drop of the files.
func (e *Engine) replaceRel(r *relation) {
	e.mu.Lock()
	old := e.mu.rels[r.def.OID]
	e.mu.rels[r.def.OID] = r
	e.mu.Unlock()
	if old != nil && old.heap != r.heap {
		old.heap.Retire()
	}
	r.heap.InvalidateTargets()
}

func (s *Session) dropIndex(ctx context.Context, st *sql.DropIndex) (string, error) {
	e := s.e
	if st.Concurrent && s.explicit {
		return "", pgerr.New(pgerr.ActiveSQLTransaction, "DROP INDEX CONCURRENTLY cannot run inside a transaction block")
	}
	for _, name := range st.Names {
		t, idx, ok := e.cat.IndexByName(name)
		if !ok {
			if st.IfExists {
				s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, "index \"%s\" does not exist, skipping", name)
				continue
			}
			return "", pgerr.New(pgerr.UndefinedObject, "index \"%s\" does not exist", name)
		}
		if idx.IsConstraint() {
			return "", pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop index %s because constraint %s on table %s requires it", name, name, t.Name).
				WithHint("You can drop constraint %s on table %s instead.", name, t.Name)
		}
		if err := s.indexDependents(ctx, t, idx, false); err != nil {
			return "", err
		}
		if err := e.dropIndex(ctx, t.OID, name); err != nil {
			return "", err
		}
	}
	return "DROP INDEX", nil
}

func (e *Engine) dropIndex(ctx context.Context, oid uint32, name string) error {
	release, err := e.txns.LockRelation(ctx, oid, true)
	if err != nil {
		return mapCtxErr(ctx, err)
	}
	defer release()
	r, err := e.rel(oid)
	if err != nil {
		return err
	}
	t, removed, err := e.cat.DropIndex(name)
	if err != nil {
		return err
	}
	nr := *r
	nr.def = t
	nr.indexes = nil
	for _, ri := range r.indexes {
		if ri.def.Name != name {
			nr.indexes = append(nr.indexes, ri)
		}
	}
	setIndexAttrs(&nr)
	e.replaceRel(&nr)
	return e.dropIndexFiles(removed)
}

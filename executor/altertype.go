package executor

// ALTER TABLE ... ALTER COLUMN ... TYPE, as PostgreSQL 15 does it.
//
// A change that keeps the stored bytes valid (sql.AlterColumnTypes.Rewrite
// false: varchar to text, a longer varchar, ...) changes the catalog alone;
// the indexes stay as they are, their keys encoded the same.
//
// Any other change rewrites the table, as TRUNCATE switches its files but
// with the rows converted (PostgreSQL's ATRewriteTable): under the table's
// exclusive lock, once no other transaction that inserted, deleted or
// locked a row of it is still running (such a transaction is waited for
// without the lock, and the statement starts over),
//
//  1. a new heap file is reserved (catalog.AllocOID), its creation
//     WAL-logged, and every row version that still matters is decoded,
//     converted (the USING expression or an assignment cast, over the old
//     row), checked (NOT NULL, CHECK) and inserted into it, WAL-logged; a
//     dropped column is NULL in the copy;
//  2. every index is built anew over the new heap (a disk index into a new
//     file, in the current key format), which checks uniqueness again,
//     and the foreign keys over a converted column are validated, both
//     ways;
//  3. the WAL is flushed, and the catalog switches the table to the new
//     files with the new column types in one synced batch;
//  4. the new relation is installed and the old files' removal WAL-logged
//     and done.
//
// A failure before 3 (a conversion error, a violated constraint, a crash)
// leaves the old table as it was: the new files are removed, or, after a
// crash, found without a catalog entry and removed at start-up. After 3 the
// WAL holds every new page, so recovery rebuilds the new files.
//
// Transactions. minipg's ALTER TABLE takes effect at once and stays done
// if its transaction block rolls back (ddl_undo.go), where PostgreSQL's
// rewrite follows the transaction. So the copies of committed rows are
// inserted frozen (HEAP_XMIN_FROZEN, heap.InsertFrozen): visible to every
// transaction whatever becomes of the ALTER's. The ALTER's own transaction
// keeps its changes: a row it inserted is copied as its insert, a row it
// deleted is copied frozen and deleted by it, so that a rollback ends with
// the rows it had begun with (heap.RewriteFate). Update chains are not
// kept: every version copied is a row of its own, as in PostgreSQL's
// rewrite.

import (
	"context"
	"slices"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/buffer"
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/types"
)

func (s *Session) alterColumnTypes(ctx context.Context, pt *Portal, st *sql.AlterColumnTypes) (string, error) {
	if err := s.underTableLock(ctx, st.Table.OID, func() (uint32, error) { return s.alterColumnTypesLocked(ctx, pt, st) }); err != nil {
		return "", err
	}
	return "ALTER TABLE", nil
}

// alterColumnTypesLocked runs the statement under the table's exclusive
// lock; it returns a transaction to wait for (without the lock) when the
// rewrite meets one still running.
func (s *Session) alterColumnTypesLocked(ctx context.Context, pt *Portal, st *sql.AlterColumnTypes) (uint32, error) {
	e := s.e
	r, err := e.rel(st.Table.OID)
	if err != nil {
		return 0, err
	}
	t := r.def
	// The statement was bound against st.Table; a DDL that ran while it
	// waited for the lock may have changed a column it converts.
	for _, ch := range st.Cols {
		o := st.Table.Columns[ch.Col]
		if ch.Col >= len(t.Columns) || t.Columns[ch.Col].Name != o.Name || t.Columns[ch.Col].TypeOID != o.TypeOID ||
			t.Columns[ch.Col].Typmod != o.Typmod || t.Columns[ch.Col].Dropped {
			return 0, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "table \"%s\" changed while ALTER TABLE waited for it", t.Name).
				WithHint("Run the statement again.")
		}
	}
	if err := s.typeChangeViews(t, st); err != nil {
		return 0, err
	}
	nt := t.Clone()
	changes := make([]catalog.ColumnType, len(st.Cols))
	for i, ch := range st.Cols {
		c := &nt.Columns[ch.Col]
		c.TypeOID, c.Typmod = uint32(ch.T.OID), ch.T.Typmod
		if c.Default != "" {
			// The default keeps its old type, and is cast to the new one
			// when used, as PostgreSQL's stored expression is: a bare
			// literal takes the cast pg_get_expr showed on it.
			c.Default = defaultExpr(t.Columns[ch.Col])
		}
		changes[i] = catalog.ColumnType{Col: ch.Col, TypeOID: c.TypeOID, Typmod: c.Typmod, Default: c.Default}
	}
	fks, err := s.typeChangeForeignKeys(t, nt, st)
	if err != nil {
		return 0, err
	}
	seqs, err := s.identityTypeChanges(t, st)
	if err != nil {
		return 0, err
	}
	// The defaults and CHECK constraints, kept as text, must bind over the
	// new types (PostgreSQL re-parses them: 42883 for an operator that is
	// gone, for one).
	if _, err := sql.Defaults(nt); err != nil {
		return 0, withoutPosition(err)
	}
	if _, err := sql.CheckExprs(nt); err != nil {
		return 0, withoutPosition(err)
	}
	if !st.Rewrite {
		if err := s.alterSequences(seqs); err != nil {
			return 0, err
		}
		stored, err := e.cat.AlterColumnTypes(t.OID, changes, nil)
		if err != nil {
			return 0, err
		}
		nr, err := e.openRelation(stored)
		if err != nil {
			return 0, err
		}
		// The indexes keep their entries, encoded the same for the new
		// types (a memory index's tree keeps the old ones, which compare
		// the same).
		nr.indexes = make([]*relIndex, len(r.indexes))
		for i, ri := range r.indexes {
			c := *ri
			c.types = nil
			for _, col := range c.cols {
				c.types = append(c.types, nr.types[col])
			}
			for _, d := range stored.Indexes {
				if d.OID == ri.def.OID {
					c.def = d
				}
			}
			nr.indexes[i] = &c
		}
		setIndexAttrs(nr)
		e.replaceRel(nr)
		return 0, nil
	}
	copyRows := func(x *execCtx, r, nr *relation) error { return x.copyConverted(r, nr, st) }
	return s.rewriteTable(ctx, pt, r, nt, copyRows, changes, fks, seqs)
}

// withoutPosition drops the position of an error met in a stored
// expression's text, which is not the statement's.
func withoutPosition(err error) error {
	if pe, ok := err.(*pgerr.Error); ok && pe.Position != 0 {
		c := *pe
		c.Position = 0
		return &c
	}
	return err
}

// typeChangeViews refuses to change the type of a column a view reads
// (0A000 with PostgreSQL's message: its rule depends on the column).
func (s *Session) typeChangeViews(t *catalog.Table, st *sql.AlterColumnTypes) error {
	e := s.e
	views := e.cat.DependentViews(t.OID)
	if len(views) == 0 {
		return nil
	}
	deps := make([]map[sql.ColumnDep]bool, len(views))
	for i, v := range views {
		var err error
		if deps[i], err = sql.ViewColumnDeps(e.cat, v); err != nil {
			return err
		}
	}
	for _, ch := range st.Cols {
		for i, v := range views {
			if deps[i][sql.ColumnDep{Table: t.OID, AttNum: int16(ch.Col + 1)}] {
				return pgerr.New(pgerr.FeatureNotSupported, "cannot alter type of a column used by a view or rule").
					WithDetail("rule _RETURN on view %s depends on column \"%s\"", v.Name, t.Columns[ch.Col].Name)
			}
		}
	}
	return nil
}

// fkCheck is a foreign key whose rows a rewrite validates again: child
// references parent; either is the table rewritten.
type fkCheck struct {
	fk            catalog.ForeignKey
	child, parent uint32
}

// typeChangeForeignKeys checks the foreign keys over a changed column, the
// table's own and those that reference it, against the new types (t as it
// was, nt with them): 42804 when the two sides no longer compare. It
// returns those a rewrite must validate, since their values may change.
func (s *Session) typeChangeForeignKeys(t, nt *catalog.Table, st *sql.AlterColumnTypes) ([]fkCheck, error) {
	changed := func(cols []int16) bool {
		return slices.ContainsFunc(st.Cols, func(ch sql.ColumnTypeChange) bool { return slices.Contains(cols, int16(ch.Col+1)) })
	}
	var out []fkCheck
	for _, fk := range nt.ForeignKeys {
		self := fk.RefTable == t.OID
		if !changed(fk.Columns) && !(self && changed(fk.RefColumns)) {
			continue
		}
		ref := nt
		if !self {
			var ok bool
			if ref, ok = s.e.cat.TableByOID(fk.RefTable); !ok {
				return nil, pgerr.New(pgerr.UndefinedTable, "relation with OID %d does not exist", fk.RefTable)
			}
		}
		if err := fkTypesMatch(nt, ref, fk); err != nil {
			return nil, err
		}
		out = append(out, fkCheck{fk: fk, child: t.OID, parent: fk.RefTable})
	}
	for _, ref := range s.e.referencing(t.OID) {
		if ref.child == t.OID || !changed(ref.fk.RefColumns) {
			continue
		}
		child, ok := s.e.cat.TableByOID(ref.child)
		if !ok {
			continue
		}
		if err := fkTypesMatch(child, nt, ref.fk); err != nil {
			return nil, err
		}
		out = append(out, fkCheck{fk: ref.fk, child: ref.child, parent: t.OID})
	}
	return out, nil
}

// seqChange is a sequence's new parameters.
type seqChange struct {
	oid uint32
	def catalog.Sequence
}

// identityTypeChanges are the new parameters of the sequences of identity
// columns whose type changes: AS the new type, as PostgreSQL's ALTER
// COLUMN ... TYPE does (a serial's sequence keeps its type).
func (s *Session) identityTypeChanges(t *catalog.Table, st *sql.AlterColumnTypes) ([]seqChange, error) {
	var out []seqChange
	for _, ch := range st.Cols {
		if t.Columns[ch.Col].Identity == "" {
			continue
		}
		for _, q := range s.e.ownedSequences(t.OID) {
			if int(q.OwnedByColumn) != ch.Col+1 || q.TypeOID == uint32(ch.T.OID) {
				continue
			}
			def, err := sql.SequenceAs(q, ch.T)
			if err != nil {
				return nil, err
			}
			out = append(out, seqChange{oid: q.OID, def: def})
		}
	}
	return out, nil
}

// alterSequences stores the sequences' new parameters.
func (s *Session) alterSequences(seqs []seqChange) error {
	for _, c := range seqs {
		if err := s.e.cat.AlterSequence(c.oid, c.def, nil); err != nil {
			return err
		}
		if sc, ok := s.seqs[c.oid]; ok {
			sc.cached = sc.last // values cached under the old parameters are given up
		}
	}
	return nil
}

// rewriteTable copies the rows of r into new files under definition nt
// (copyRows: converted to new column types, or VACUUM FULL's copies),
// rebuilds the indexes and switches the table to them (see the file's
// comment). wait != 0: a transaction must end first; nothing was changed.
func (s *Session) rewriteTable(ctx context.Context, pt *Portal, r *relation, nt *catalog.Table,
	copyRows func(x *execCtx, r, nr *relation) error,
	changes []catalog.ColumnType, fks []fkCheck, seqs []seqChange) (wait uint32, err error) {
	e := s.e
	if s.tx != nil && s.tx.SubDepth() > 0 {
		// The copies of the transaction's own rows take the rewriter's
		// xid; a rollback to the savepoint would take them back while
		// the new column type stays.
		return 0, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE ... ALTER COLUMN TYPE that rewrites the table is not supported inside a savepoint")
	}
	if wait, err := s.rewriteWaits(ctx, r); wait != 0 || err != nil {
		return wait, err
	}
	x, err := pt.newExecCtx(ctx, 0, true)
	if err != nil {
		return 0, err
	}
	x.rel = r

	// The new files, each reserved before the catalog names it and removed
	// if the rewrite does not get that far.
	var made []uint32
	var nr *relation
	switched := false
	defer func() {
		if switched {
			return
		}
		if nr != nil {
			nr.heap.Retire()
		}
		for _, rfn := range made {
			if derr := e.walLogDrop(rfn); derr == nil {
				derr = e.pool.DropRel(buffer.RelFileNode(rfn))
				if derr != nil && err == nil {
					err = derr
				}
			} else if err == nil {
				err = derr
			}
		}
	}()
	rfn, err := e.cat.AllocOID()
	if err != nil {
		return 0, err
	}
	if err := e.walLogCreate(rfn); err != nil {
		return 0, err
	}
	made = append(made, rfn)
	if err := e.pool.CreateRel(buffer.RelFileNode(rfn)); err != nil {
		return 0, err
	}
	rw := &catalog.TableRewrite{RelFileNode: rfn, Indexes: map[uint32]uint32{}, KeyFormat: uint8(newKeyFormat)}
	nt.RelFileNode = rfn
	for i := range nt.Columns {
		nt.Columns[i].Missing = nil // every copy has every attribute
	}
	for i := range nt.Indexes {
		idx := &nt.Indexes[i]
		if !idx.OnDisk() {
			continue
		}
		irfn, err := e.cat.AllocOID()
		if err != nil {
			return 0, err
		}
		made = append(made, irfn)
		keepOnDisk(idx, irfn)
		rw.Indexes[idx.OID] = irfn
	}
	if nr, err = e.openRelation(nt); err != nil {
		return 0, err
	}

	// 1. The rows.
	if err := copyRows(x, r, nr); err != nil {
		return 0, err
	}
	// 2. The indexes, then the foreign keys.
	nx := *x
	nx.rel = nr
	for _, ri := range nr.indexes {
		if _, w, err := nx.buildIndex(ri, nil); w != 0 || err != nil {
			if err == nil {
				err = pgerr.New(pgerr.InternalError, "rewrite of table \"%s\" met transaction %d still running", nt.Name, w)
			}
			return 0, err
		}
	}
	setIndexAttrs(nr)
	for _, c := range fks {
		if err := s.validateRewrittenKey(ctx, &nx, nr, c); err != nil {
			return 0, err
		}
	}
	if err := s.alterSequences(seqs); err != nil {
		return 0, err
	}

	// 3. Durable, then named by the catalog.
	if err := e.walLog().FlushAll(); err != nil {
		return 0, err
	}
	stored, err := e.cat.AlterColumnTypes(r.def.OID, changes, rw)
	if err != nil {
		return 0, err
	}
	switched = true

	// 4. The new relation in place of the old; the old files go.
	nr.def = stored
	for _, ri := range nr.indexes {
		for _, d := range stored.Indexes {
			if d.OID == ri.def.OID {
				ri.def = d
			}
		}
	}
	e.replaceRel(nr) // retires the old heap before its files are dropped
	s.markNewRelfilenode(stored.OID)
	if err := e.walLogDrop(r.def.RelFileNode); err != nil {
		return 0, err
	}
	if err := e.pool.DropRel(buffer.RelFileNode(r.def.RelFileNode)); err != nil {
		return 0, err
	}
	return 0, e.dropIndexFiles(r.def.Indexes...)
}

// rewriteWaits returns a transaction other than this session's, still
// running, that inserted, deleted or locked a row version of r: a
// rewrite waits for it, as PostgreSQL's ALTER TABLE waits for its lock.
func (s *Session) rewriteWaits(ctx context.Context, r *relation) (uint32, error) {
	var wait uint32
	err := scanVersions(ctx, r, func(_ page.TID, tup []byte) (bool, error) {
		_, wait = heap.RewriteFate(tup, s.ownXids(), s.e.txns)
		return wait == 0, nil
	})
	return wait, err
}

// scanVersions calls fn with every row version of r stored in a normal
// line pointer, in TID order, until it returns false. The caller holds
// the table's exclusive lock.
func scanVersions(ctx context.Context, r *relation, fn func(tid page.TID, tup []byte) (bool, error)) error {
	nblocks, err := r.heap.NBlocks()
	if err != nil {
		return err
	}
	for blk := uint32(0); blk < nblocks; blk++ {
		if err := canceled(ctx); err != nil {
			return err
		}
		roots, err := r.heap.HotRoots(blk)
		if err != nil {
			return err
		}
		for off := uint16(1); int(off) < len(roots); off++ {
			tid := page.TID{Block: blk, Offset: off}
			tup, ok, err := r.heap.FetchAny(tid)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if more, err := fn(tid, tup); err != nil || !more {
				return err
			}
		}
	}
	return nil
}

// copyConverted copies the row versions of r into nr (empty, with the new
// column types), each converted by st's expressions and checked against
// nr's NOT NULL and CHECK constraints, as heap.RewriteFate says.
func (x *execCtx) copyConverted(r, nr *relation, st *sql.AlterColumnTypes) error {
	dec := newDecoder(r)
	dec.reuse = true // the new row is built apart
	ins := x.s.ist
	ncols := len(nr.types)
	newRow := make([]types.Datum, ncols+1)
	return scanVersions(x.ctx, r, func(tid page.TID, tup []byte) (bool, error) {
		fate, wait := heap.RewriteFate(tup, x.s.ownXids(), x.s.e.txns)
		if wait != 0 {
			return false, pgerr.New(pgerr.InternalError, "rewrite of table \"%s\" met transaction %d still running", r.def.Name, wait)
		}
		if fate == heap.CopyNone {
			return true, nil
		}
		old, err := dec.decode(tup, tid)
		if err != nil {
			return false, err
		}
		copy(newRow, old[:ncols])
		for _, ch := range st.Cols {
			v, err := x.ev.eval(ch.Conv, old)
			if err != nil {
				return false, err
			}
			newRow[ch.Col] = v
		}
		if fate != heap.CopyDeletedBy {
			// A row the transaction deleted is not one it sees: not
			// checked, as PostgreSQL's rewrite does not copy it.
			for i, c := range nr.def.Columns {
				if c.NotNull && newRow[i] == nil {
					return false, pgerr.New(pgerr.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", c.Name, r.def.Name).
						WithTable(publicSchema, r.def.Name).WithColumn(c.Name)
				}
			}
			for i, ck := range nr.checks {
				v, err := x.ev.eval(ck, newRow)
				if err != nil {
					return false, err
				}
				if v == false {
					name := nr.def.Checks[i].Name
					return false, pgerr.New(pgerr.CheckViolation, "check constraint \"%s\" of relation \"%s\" is violated by some row", name, r.def.Name).
						WithTable(publicSchema, r.def.Name).WithConstraint(name)
				}
			}
		}
		ntup, err := nr.encode(newRow)
		if err != nil {
			return false, err
		}
		switch fate {
		case heap.CopyInsertedBy:
			_, err = nr.heap.Insert(ntup, x.xid, x.cid, ins)
		case heap.CopyFrozen:
			_, err = nr.heap.InsertFrozen(ntup, x.xid, x.cid, ins)
		case heap.CopyDeletedBy:
			var ntid page.TID
			if ntid, err = nr.heap.InsertFrozen(ntup, x.xid, x.cid, ins); err == nil {
				var res heap.Result
				if res, _, err = nr.heap.Delete(x.snap, ntid, x.xid, x.cid); err == nil && res != heap.TMOk {
					err = pgerr.New(pgerr.InternalError, "rewrite of table \"%s\": delete of copied version (%d,%d): %v", r.def.Name, ntid.Block, ntid.Offset, res)
				}
			}
		}
		return err == nil, err
	})
}

// validateRewrittenKey checks the rows of foreign key c against the
// rewritten table nr (not yet published), the other side as it is (under
// a shared lock): 23503 as ALTER TABLE ... ADD FOREIGN KEY's check.
func (s *Session) validateRewrittenKey(ctx context.Context, x *execCtx, nr *relation, c fkCheck) error {
	other := c.parent
	if c.child != nr.def.OID {
		other = c.child
	}
	child, parent := nr, nr
	if other != nr.def.OID {
		release, err := s.e.txns.LockRelation(ctx, other, false)
		if err != nil {
			return mapCtxErr(ctx, err)
		}
		defer release()
		or, err := s.e.rel(other)
		if err != nil {
			return err
		}
		if other == c.child {
			child = or
		} else {
			parent = or
		}
	}
	return x.validateForeignKeyIn(child, parent, c.fk)
}

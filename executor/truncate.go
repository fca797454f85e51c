package executor

// TRUNCATE.
//
// Outside a transaction block TRUNCATE does what PostgreSQL does: each
// table gets a new, empty relfilenode. Under the tables' exclusive locks,
// once no running transaction has an inserted or deleted row version in
// them, the catalog switches each table to a new relfilenode (one synced
// pebble batch per table), the new file's creation is WAL-logged and the
// file created, the relation reopened with empty indexes, and then the old
// file's removal is WAL-logged (flushed) and the file unlinked. A crash
// before the catalog switch leaves the old data; after it the table is
// empty; either way start-up removes the file the catalog does not name.
//
// Inside a transaction block minipg's DDL is not transactional, so
// TRUNCATE there deletes every row as DELETE does (MVCC, WAL-logged, undone
// by ROLLBACK) instead of switching files: the space comes back with
// VACUUM rather than at once, and a transaction whose snapshot predates the
// TRUNCATE still sees the rows (in PostgreSQL TRUNCATE is not MVCC-safe and
// it sees an empty table). RESTART IDENTITY resets the owned sequences at
// once in both cases: a ROLLBACK does not undo that (PostgreSQL does).

import (
	"context"
	"slices"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/buffer"
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/txn"
)

func (s *Session) truncate(ctx context.Context, pt *Portal, st *sql.Truncate) (string, error) {
	e := s.e
	tables := slices.Clone(st.Tables)
	in := map[uint32]bool{}
	for _, t := range tables {
		in[t.OID] = true
	}
	// Foreign keys: CASCADE adds the referencing tables (recursively);
	// otherwise a referencing table left out is an error.
	for i := 0; i < len(tables); i++ {
		for _, ref := range e.referencing(tables[i].OID) {
			if in[ref.child] {
				continue
			}
			child, ok := e.cat.TableByOID(ref.child)
			if !ok {
				continue
			}
			if !st.Cascade {
				return "", pgerr.New(pgerr.FeatureNotSupported, "cannot truncate a table referenced in a foreign key constraint").
					WithDetail("Table \"%s\" references \"%s\".", child.Name, tables[i].Name).
					WithHint("Truncate table \"%s\" at the same time, or use TRUNCATE ... CASCADE.", child.Name)
			}
			s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, "truncate cascades to table \"%s\"", child.Name)
			in[child.OID] = true
			tables = append(tables, child)
		}
	}
	if s.explicit {
		// A cursor of the session reading one of the tables would see it
		// emptied under it: PostgreSQL refuses, as truncateFiles does when
		// the exclusive lock is its own.
		for _, t := range tables {
			if e.txns.HeldShared(s, t.OID) {
				return "", &txn.RelationInUseError{OID: t.OID}
			}
		}
		if err := s.truncateByDelete(ctx, pt, tables); err != nil {
			return "", err
		}
	} else if err := s.truncateFiles(ctx, tables); err != nil {
		return "", err
	}
	for _, t := range tables {
		s.markNewRelfilenode(t.OID)
	}
	if st.RestartIdentity {
		for _, t := range tables {
			for _, q := range e.ownedSequences(t.OID) {
				if err := e.cat.SetVal(q.OID, q.Start, false); err != nil {
					return "", err
				}
			}
		}
	}
	return "TRUNCATE TABLE", nil
}

// ownedSequences returns the sequences owned by columns of table oid.
func (e *Engine) ownedSequences(oid uint32) []*catalog.Sequence {
	var out []*catalog.Sequence
	for _, q := range e.cat.Sequences() {
		if q.OwnedByTable == oid {
			out = append(out, q)
		}
	}
	return out
}

// markNewRelfilenode records that table oid was created or truncated in
// the current transaction (COPY FREEZE's condition).
func (s *Session) markNewRelfilenode(oid uint32) {
	if s.newRels == nil {
		s.newRels = map[uint32]bool{}
	}
	s.newRels[oid] = true
}

// truncateByDelete deletes every row of tables in the current transaction
// (pt is the TRUNCATE's portal). Every table referencing one of them is
// among them, so the deletes skip the foreign-key checks.
func (s *Session) truncateByDelete(ctx context.Context, pt *Portal, tables []*catalog.Table) error {
	for _, t := range tables {
		x, err := pt.newExecCtx(ctx, t.OID, true)
		if err != nil {
			return err
		}
		x.skipReferenced = true
		if _, err := x.delete(&sql.Delete{Table: x.rel.def}); err != nil {
			return err
		}
	}
	return nil
}

// truncateFiles gives every table of tables a new, empty relfilenode.
func (s *Session) truncateFiles(ctx context.Context, tables []*catalog.Table) error {
	e := s.e
	slices.SortFunc(tables, func(a, b *catalog.Table) int { return int(int64(a.OID) - int64(b.OID)) })
	for {
		var releases []func()
		releaseAll := func() {
			for _, r := range releases {
				r()
			}
		}
		var wait uint32
		for _, t := range tables {
			release, err := e.txns.LockRelation(ctx, t.OID, true)
			if err != nil {
				releaseAll()
				return mapCtxErr(ctx, err)
			}
			releases = append(releases, release)
			r, err := e.rel(t.OID)
			if err != nil {
				releaseAll()
				return err
			}
			if wait, err = s.runningWriter(ctx, r); err != nil || wait != 0 {
				if err != nil {
					releaseAll()
					return err
				}
				break
			}
		}
		if wait != 0 {
			// A transaction still running wrote to the table: its rows
			// would be lost with the old file. Wait for it without the
			// locks, then start over.
			releaseAll()
			if err := s.ensureTx().WaitFor(ctx, wait); err != nil {
				return mapCtxErr(ctx, err)
			}
			continue
		}
		err := s.switchRelfilenodes(tables)
		releaseAll()
		return err
	}
}

// switchRelfilenodes does the file switch; the caller holds the tables'
// exclusive locks.
func (s *Session) switchRelfilenodes(tables []*catalog.Table) error {
	e := s.e
	for _, t := range tables {
		old, err := e.rel(t.OID)
		if err != nil {
			return err
		}
		// Disk indexes get new, empty files before the catalog names them.
		var newIdx map[uint32]uint32
		var made []catalog.Index
		for _, idx := range old.def.Indexes {
			if !idx.OnDisk() {
				continue
			}
			rfn, err := e.cat.AllocOID()
			if err == nil {
				made = append(made, catalog.Index{RelFileNode: rfn})
				err = e.createEmptyIndex(rfn)
			}
			if err != nil {
				_ = e.dropIndexFiles(made...)
				return err
			}
			if newIdx == nil {
				newIdx = map[uint32]uint32{}
			}
			newIdx[idx.OID] = rfn
		}
		nt, err := e.cat.NewRelFileNode(t.OID, newIdx)
		if err != nil {
			if derr := e.dropIndexFiles(made...); derr != nil {
				return derr
			}
			return err
		}
		if err := e.walLogCreate(nt.RelFileNode); err != nil {
			return err
		}
		if err := e.pool.CreateRel(buffer.RelFileNode(nt.RelFileNode)); err != nil {
			return err
		}
		r, err := e.openRelation(nt)
		if err != nil {
			return err
		}
		e.replaceRel(r) // retires old.heap before its files are dropped
		if err := e.walLogDrop(old.def.RelFileNode); err != nil {
			return err
		}
		if err := e.pool.DropRel(buffer.RelFileNode(old.def.RelFileNode)); err != nil {
			return err
		}
		if err := e.dropIndexFiles(old.def.Indexes...); err != nil {
			return err
		}
	}
	return nil
}

// runningWriter returns a running transaction (other than this session's)
// that inserted or deleted a row version of r, or 0.
func (s *Session) runningWriter(ctx context.Context, r *relation) (uint32, error) {
	nblocks, err := r.heap.NBlocks()
	if err != nil {
		return 0, err
	}
	for blk := uint32(0); blk < nblocks; blk++ {
		if err := canceled(ctx); err != nil {
			return 0, err
		}
		roots, err := r.heap.HotRoots(blk)
		if err != nil {
			return 0, err
		}
		for off := uint16(1); int(off) < len(roots); off++ {
			tup, ok, err := r.heap.FetchAny(page.TID{Block: blk, Offset: off})
			if err != nil {
				return 0, err
			}
			if !ok {
				continue
			}
			if _, w := heap.SatisfiesDirty(tup, s.ownXids(), s.e.txns); w != 0 {
				return w, nil
			}
		}
	}
	return 0, nil
}

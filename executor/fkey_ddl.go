package executor

import (
	"context"
	"slices"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
)

// foreignKeyDrops runs the DROP CONSTRAINT subcommands of st that name
// foreign keys and checks the others against the foreign keys that need
// the dropped index (2BP01 with PostgreSQL's wording, or with CASCADE those
// foreign keys are dropped with a notice). It returns st without the
// foreign-key drops. Each foreign key is dropped in its own catalog batch,
// before the rest of the statement.
func (s *Session) foreignKeyDrops(ctx context.Context, st *sql.AlterConstraints) (*sql.AlterConstraints, error) {
	e := s.e
	t, ok := e.cat.TableByOID(st.Table.OID)
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", st.Table.Name)
	}
	out := *st
	out.Cmds = nil
	for _, c := range st.Cmds {
		if !c.Drop {
			out.Cmds = append(out.Cmds, c)
			continue
		}
		if _, ok := t.ForeignKey(c.Name); ok {
			if err := s.dropForeignKey(ctx, t.OID, c.Name); err != nil {
				return nil, err
			}
			continue
		}
		i := slices.IndexFunc(t.Indexes, func(idx catalog.Index) bool { return idx.Name == c.Name && idx.IsConstraint() })
		if i >= 0 {
			if err := s.indexDependents(ctx, t, t.Indexes[i], c.Cascade); err != nil {
				return nil, err
			}
		}
		out.Cmds = append(out.Cmds, c)
	}
	return &out, nil
}

// indexDependents handles the foreign keys that reference t through idx
// (a unique index over exactly their referenced columns, with no other
// such index left): an error (worded for DROP CONSTRAINT, or DROP INDEX
// when idx is a plain index), or with cascade their removal.
func (s *Session) indexDependents(ctx context.Context, t *catalog.Table, idx catalog.Index, cascade bool) error {
	for _, ref := range s.e.referencing(t.OID) {
		u := uniqueIndexOn(t, ref.fk.RefColumns)
		if u == nil || u.Name != idx.Name {
			continue
		}
		others := slices.DeleteFunc(slices.Clone(t.Indexes), func(i catalog.Index) bool { return i.Name == idx.Name })
		if uniqueIndexOn(&catalog.Table{Indexes: others}, ref.fk.RefColumns) != nil {
			continue
		}
		child, _ := s.e.cat.TableByOID(ref.child)
		childName := ""
		if child != nil {
			childName = child.Name
		}
		if !cascade && !idx.IsConstraint() {
			return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop index %s because other objects depend on it", idx.Name).
				WithDetail("constraint %s on table %s depends on index %s", ref.fk.Name, childName, idx.Name).
				WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		}
		if !cascade {
			return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop constraint %s on table %s because other objects depend on it", idx.Name, t.Name).
				WithDetail("constraint %s on table %s depends on index %s", ref.fk.Name, childName, idx.Name).
				WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		}
		s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, "drop cascades to constraint %s on table %s", ref.fk.Name, childName)
		if err := s.dropForeignKey(ctx, ref.child, ref.fk.Name); err != nil {
			return err
		}
	}
	return nil
}

// dropForeignKey removes a foreign key under its table's exclusive lock.
func (s *Session) dropForeignKey(ctx context.Context, oid uint32, name string) error {
	e := s.e
	return e.changeDef(ctx, oid, func(*relation) (*catalog.Table, error) { return e.cat.DropForeignKey(oid, name) })
}

// addForeignKeys runs ALTER TABLE ... ADD FOREIGN KEY: each is resolved,
// the existing rows are checked (unless NOT VALID) under both tables'
// exclusive locks, and the constraint is stored.
func (s *Session) addForeignKeys(ctx context.Context, oid uint32, cmds []sql.FKCmd) error {
	e := s.e
	for _, cmd := range cmds {
		release, err := e.txns.LockRelation(ctx, oid, true)
		if err != nil {
			return mapCtxErr(ctx, err)
		}
		err = s.addForeignKey(ctx, oid, cmd)
		release()
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *Session) addForeignKey(ctx context.Context, oid uint32, cmd sql.FKCmd) error {
	e := s.e
	r, err := e.rel(oid)
	if err != nil {
		return err
	}
	t := r.def
	fk, ref, err := resolveForeignKey(e.cat, t, false, cmd, t.HasConstraint)
	if err != nil {
		return err
	}
	if ref.OID != oid {
		release, err := e.txns.LockRelation(ctx, ref.OID, true)
		if err != nil {
			return mapCtxErr(ctx, err)
		}
		defer release()
	}
	if !cmd.NotValid {
		x := &execCtx{ctx: ctx, s: s, tx: s.ensureTx(), rel: r}
		x.ev = &evalCtx{s: s, x: x}
		x.xid = x.tx.XidIfAssigned()
		x.cid = x.tx.UseCommandID()
		if err := x.validateForeignKey(r, fk); err != nil {
			return err
		}
	}
	nt, err := e.cat.AddForeignKey(oid, fk)
	if err != nil {
		return err
	}
	nr := *r
	nr.def = nt
	e.replaceRel(&nr)
	return nil
}

// createTableForeignKeys resolves CREATE TABLE's foreign keys into def.
func (s *Session) createTableForeignKeys(def *catalog.Table, cmds []sql.FKCmd) error {
	for _, cmd := range cmds {
		taken := func(name string) bool {
			return def.HasConstraint(name)
		}
		fk, _, err := resolveForeignKey(s.e.cat, def, true, cmd, taken)
		if err != nil {
			return err
		}
		def.ForeignKeys = append(def.ForeignKeys, fk)
	}
	return nil
}

// dropTableDependents handles, for DROP TABLE, the foreign keys that
// reference one of tables: those of tables dropped by the same statement
// are dropped with them; others make the statement fail before anything is
// dropped (2BP01, PostgreSQL's wording) or, with cascade, are dropped with
// a notice.
func (s *Session) dropTableDependents(ctx context.Context, tables []*catalog.Table, cascade bool) error {
	dropping := map[uint32]bool{}
	for _, t := range tables {
		dropping[t.OID] = true
	}
	for pass := 0; pass < 2; pass++ {
		for _, t := range tables {
			for _, ref := range s.e.referencing(t.OID) {
				if ref.child == t.OID {
					continue
				}
				child, ok := s.e.cat.TableByOID(ref.child)
				if !ok {
					continue
				}
				switch {
				case pass == 0 && !dropping[ref.child] && !cascade:
					return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop table %s because other objects depend on it", t.Name).
						WithDetail("constraint %s on table %s depends on table %s", ref.fk.Name, child.Name, t.Name).
						WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
				case pass == 1:
					if !dropping[ref.child] {
						s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, "drop cascades to constraint %s on table %s", ref.fk.Name, child.Name)
					}
					if err := s.dropForeignKey(ctx, ref.child, ref.fk.Name); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

package executor

// ALTER TABLE ... DROP COLUMN without a table rewrite, as PostgreSQL does
// it: the column stays in the catalog as a dropped attribute
// (catalog.DropColumns) and in the stored tuples, which keep its bytes;
// rows decoded from now on read NULL there (relation.dropped), so new and
// updated rows store NULL. SQL sees the column nowhere.
//
// What goes with the column follows PostgreSQL's dependencies:
//
//   - without a word (its "auto" and "internal" dependencies): the
//     table's indexes with the column as a key column, a PRIMARY KEY or
//     UNIQUE constraint over it, the table's own foreign keys over it,
//     every CHECK constraint that reads it (also one reading other columns
//     too), the sequence it owns (serial, identity);
//   - with CASCADE, each announced in a notice, and otherwise refused with
//     2BP01 listing them: the foreign keys that reference it (another
//     table's, or the table's own from another column), the views that
//     read it and the views that read those, the defaults of other tables'
//     columns that call nextval of the sequence it owns.
//
// The subcommands of one statement are checked in order, each seeing the
// columns the ones before it dropped, and nothing is changed unless all
// pass. Then the dependents CASCADE takes are dropped (each in its own
// catalog batch, as DROP TABLE ... CASCADE does), and the columns, with
// what goes with them, in one synced batch under the table's exclusive
// lock. Like minipg's other ALTER TABLE forms (ddl_undo.go), DROP COLUMN
// takes effect at once and stays done if the transaction block rolls
// back; so does every cascaded drop, views included.

import (
	"context"
	"fmt"
	"slices"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
)

// dropColumnPlan is what one ALTER TABLE ... DROP COLUMN statement drops.
type dropColumnPlan struct {
	cols   []int    // 0-based, in statement order
	checks []string // the table's CHECK constraints that read one of them
	// fks are the foreign keys that reference one of the columns (not
	// those of the table over its own dropped columns).
	fks []fkRef
	// views read one of the columns, or one of those views.
	views []*catalog.View
	// defaults are other columns whose DEFAULT calls nextval of a
	// sequence one of the columns owns.
	defaults []colRef
}

// colRef is a column of a table (0-based).
type colRef struct {
	t   *catalog.Table
	col int
}

func (s *Session) alterDropColumns(ctx context.Context, st *sql.AlterDropColumns) (string, error) {
	e := s.e
	t, ok := e.cat.TableByOID(st.Table.OID)
	if !ok {
		return "", pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", st.Table.Name)
	}
	plan, err := s.planDropColumns(t, st, false)
	if err != nil {
		return "", err
	}
	if len(plan.cols) == 0 {
		return "ALTER TABLE", nil // every column was IF EXISTS and missing
	}
	// The dependents CASCADE takes go first, each under its own table's
	// lock, before the table's own lock is taken (as DROP TABLE does).
	for _, ref := range plan.fks {
		if err := s.dropForeignKey(ctx, ref.child, ref.fk.Name); err != nil {
			return "", err
		}
	}
	for _, d := range plan.defaults {
		if err := s.setDefault(ctx, d.t.OID, d.col, ""); err != nil {
			return "", err
		}
	}
	for _, v := range plan.views {
		if err := e.cat.DropView(v.OID); err != nil {
			return "", err
		}
	}
	err = s.underTableLock(ctx, t.OID, func() (uint32, error) { return 0, s.dropColumnsLocked(st) })
	if err != nil {
		return "", err
	}
	return "ALTER TABLE", nil
}

// dropColumnsLocked drops the columns under the table's exclusive lock,
// once what CASCADE takes is gone: the plan is made again, and a
// dependent made meanwhile fails the statement.
func (s *Session) dropColumnsLocked(st *sql.AlterDropColumns) error {
	e := s.e
	r, err := e.rel(st.Table.OID)
	if err != nil {
		return err
	}
	plan, err := s.planDropColumns(r.def, st, true)
	if err != nil || len(plan.cols) == 0 {
		return err
	}
	nt, removed, err := e.cat.DropColumns(r.def.OID, plan.cols, plan.checks)
	if err != nil {
		return err
	}
	nr, err := e.openRelation(nt)
	if err != nil {
		return err
	}
	nr.indexes = slices.DeleteFunc(slices.Clone(r.indexes), func(ri *relIndex) bool {
		return slices.ContainsFunc(removed, func(idx catalog.Index) bool { return idx.OID == ri.def.OID })
	})
	setIndexAttrs(nr)
	e.replaceRel(nr)
	return e.dropIndexFiles(removed...)
}

// planDropColumns resolves the DROP COLUMN subcommands of st against table
// t in order: 0A000 for a system column, 42703 for a column that does not
// exist (a notice with IF EXISTS), 2BP01 for one that other objects need
// without CASCADE, with CASCADE's notices. recheck is the second look,
// under the lock, once CASCADE's dependents are gone: no notices, and any
// dependent is an error. A plan that drops nothing has no cols.
func (s *Session) planDropColumns(t *catalog.Table, st *sql.AlterDropColumns, recheck bool) (*dropColumnPlan, error) {
	e := s.e
	plan := &dropColumnPlan{}
	notice := func(format string, args ...any) {
		if !recheck {
			s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, format, args...)
		}
	}
	// The state as the subcommands go on: the columns dropped so far.
	cur := t.Clone()
	dropped := map[uint32]bool{} // views dropped by an earlier CASCADE
	var viewDeps map[uint32]map[sql.ColumnDep]bool
	for _, c := range st.Cols {
		if sql.IsSystemColumnName(c.Name) {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot drop system column \"%s\"", c.Name)
		}
		col := cur.ColumnIndex(c.Name)
		if col < 0 {
			if c.IfExists {
				notice("column \"%s\" of relation \"%s\" does not exist, skipping", c.Name, t.Name)
				continue
			}
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.Name, t.Name)
		}
		what := fmt.Sprintf("column %s of table %s", c.Name, t.Name)
		attnum := int16(col + 1)
		var lines, drops []string

		// Foreign keys that reference the column: another table's, or the
		// table's own unless it goes with the column anyway.
		for _, ref := range e.referencing(t.OID) {
			if !slices.Contains(ref.fk.RefColumns, attnum) || slices.ContainsFunc(plan.fks, func(o fkRef) bool { return o.child == ref.child && o.fk.Name == ref.fk.Name }) {
				continue
			}
			child, ok := e.cat.TableByOID(ref.child)
			if !ok {
				continue
			}
			if ref.child == t.OID {
				fk, ok := cur.ForeignKey(ref.fk.Name)
				if !ok || slices.Contains(fk.Columns, attnum) {
					continue
				}
				child = cur
			}
			lines = append(lines, fmt.Sprintf("constraint %s on table %s depends on %s", ref.fk.Name, child.Name, what))
			drops = append(drops, fmt.Sprintf("drop cascades to constraint %s on table %s", ref.fk.Name, child.Name))
			plan.fks = append(plan.fks, ref)
		}

		// Views that read the column, and the views that read them.
		if viewDeps == nil {
			viewDeps = map[uint32]map[sql.ColumnDep]bool{}
			for _, v := range e.cat.DependentViews(t.OID) {
				deps, err := sql.ViewColumnDeps(e.cat, v)
				if err != nil {
					return nil, err
				}
				viewDeps[v.OID] = deps
			}
		}
		w := newViewDepWalk(e)
		for oid := range dropped {
			w.skip[oid] = true
		}
		for _, v := range e.cat.DependentViews(t.OID) {
			if viewDeps[v.OID][sql.ColumnDep{Table: t.OID, AttNum: attnum}] {
				w.add(v, what)
			}
		}
		lines, drops = append(lines, w.lines...), append(drops, w.drops...)
		for _, v := range w.views {
			dropped[v.OID] = true
			plan.views = append(plan.views, v)
		}

		// Other columns' defaults that call nextval of the sequence the
		// column owns (the column's own default goes with it).
		for _, q := range e.ownedSequences(t.OID) {
			if q.OwnedByColumn != attnum {
				continue
			}
			for _, o := range e.cat.Tables() {
				if o.OID == t.OID {
					o = cur
				}
				for i, oc := range o.Columns {
					if o == cur && (i == col || oc.Dropped) {
						continue
					}
					if oc.Default != "" && defaultUses(oc.Default, q.Name) {
						lines = append(lines, fmt.Sprintf("default value for column %s of table %s depends on sequence %s", oc.Name, o.Name, q.Name))
						drops = append(drops, fmt.Sprintf("drop cascades to default value for column %s of table %s", oc.Name, o.Name))
						plan.defaults = append(plan.defaults, colRef{o, i})
					}
				}
			}
		}

		if len(lines) > 0 && (!c.Cascade || recheck) {
			return nil, dependentObjectsErr(what, lines)
		}
		if !recheck {
			s.cascadeNotice(drops)
		}

		// What goes with the column without a word.
		r, err := e.rel(t.OID)
		if err != nil {
			return nil, err
		}
		for i, ck := range r.def.Checks {
			if !slices.Contains(plan.checks, ck.Name) && slices.Contains(e.checkColumns(r.def, i), attnum) {
				plan.checks = append(plan.checks, ck.Name)
			}
		}
		cur.Checks = slices.DeleteFunc(cur.Checks, func(ck catalog.Check) bool { return slices.Contains(plan.checks, ck.Name) })
		cur.ForeignKeys = slices.DeleteFunc(cur.ForeignKeys, func(fk catalog.ForeignKey) bool {
			return slices.Contains(fk.Columns, attnum) || fk.RefTable == t.OID && slices.Contains(fk.RefColumns, attnum)
		})
		cur.Columns[col].Dropped = true
		plan.cols = append(plan.cols, col)
	}
	return plan, nil
}

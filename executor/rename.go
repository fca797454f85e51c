package executor

// ALTER ... RENAME. Tables, indexes, sequences and views are found by OID
// everywhere but in the text minipg keeps of two things: a view's query
// and a column's DEFAULT. So renaming a table or view rewrites the
// queries of the views that read it (sql.RenameInQuery); renaming a
// column of a table a view reads, or a sequence a DEFAULT names, is
// refused (0A000) rather than left to break them.

import (
	"context"
	"slices"
	"strings"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
)

func (s *Session) rename(ctx context.Context, st *sql.Rename) (string, error) {
	e := s.e
	tag := "ALTER " + st.Stmt
	name := st.Relation
	t, isTable := e.cat.Table(name)
	v, isView := e.cat.View(name)
	q, isSeq := e.cat.Sequence(name)
	it, _, isIndex := e.cat.IndexByName(name)
	switch {
	case !isTable && !isView && !isSeq && !isIndex:
		if st.IfExists {
			s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, "relation \"%s\" does not exist, skipping", name)
			return tag, nil
		}
		return "", pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", name)
	case st.Stmt == "VIEW" && !isView:
		return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a view", name)
	case st.Stmt == "SEQUENCE" && !isSeq:
		return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", name)
	}
	if st.Kind != sql.RenameRelation {
		if !isTable {
			return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table", name)
		}
		if st.Kind == sql.RenameConstraint {
			return tag, s.renameConstraint(ctx, t, st.Column, st.NewName)
		}
		return tag, s.renameColumn(ctx, t, st.Column, st.NewName)
	}
	if e.cat.RelationExists(st.NewName) {
		return "", pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", st.NewName)
	}
	switch {
	case isTable:
		if err := s.renameInViews(t.OID, name, st.NewName); err != nil {
			return "", err
		}
		return tag, e.renameTable(ctx, t.OID, st.NewName)
	case isView:
		if err := s.renameInViews(v.OID, name, st.NewName); err != nil {
			return "", err
		}
		_, err := e.cat.UpdateView(v.OID, func(v *catalog.View) error { v.Name = st.NewName; return nil })
		return tag, err
	case isSeq:
		if err := sequenceInDefaults(e, name); err != nil {
			return "", err
		}
		return tag, e.cat.RenameSequence(q.OID, st.NewName)
	}
	return tag, e.renameIndex(ctx, it.OID, name, st.NewName)
}

// renameInViews rewrites the queries of the views that read relation oid
// for its new name.
func (s *Session) renameInViews(oid uint32, old, name string) error {
	for _, v := range s.e.cat.DependentViews(oid) {
		q, ok, err := sql.RenameInQuery(v.Query, old, name)
		if err != nil {
			return err
		}
		if !ok {
			return pgerr.New(pgerr.FeatureNotSupported, "cannot rename \"%s\": view \"%s\" also has a WITH query of that name", old, v.Name)
		}
		if _, err := s.e.cat.UpdateView(v.OID, func(v *catalog.View) error { v.Query = q; return nil }); err != nil {
			return err
		}
	}
	return nil
}

// renameTable renames a table under its exclusive lock.
func (e *Engine) renameTable(ctx context.Context, oid uint32, name string) error {
	return e.renameUnderLock(ctx, oid, func() (*catalog.Table, error) { return e.cat.RenameTable(oid, name) })
}

// renameIndex renames an index of table oid under the table's lock.
func (e *Engine) renameIndex(ctx context.Context, oid uint32, old, name string) error {
	return e.changeDef(ctx, oid, func(*relation) (*catalog.Table, error) { return e.cat.RenameIndex(oid, old, name) })
}

func (s *Session) renameColumn(ctx context.Context, t *catalog.Table, old, name string) error {
	e := s.e
	if sql.IsSystemColumnName(old) {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot rename system column \"%s\"", old)
	}
	col := t.ColumnIndex(old)
	if col < 0 {
		return pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", old)
	}
	if sql.IsSystemColumnName(name) {
		return pgerr.New(pgerr.DuplicateColumn, "column name \"%s\" conflicts with a system column name", name)
	}
	if vs := e.cat.DependentViews(t.OID); len(vs) > 0 {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot rename column \"%s\" of table \"%s\": view \"%s\" reads the table", old, t.Name, vs[0].Name).
			WithHint("Drop the view, rename the column, then create the view again.")
	}
	return e.changeDef(ctx, t.OID, func(r *relation) (*catalog.Table, error) {
		for i := range r.checks {
			if slices.Contains(e.checkColumns(t, i), int16(col+1)) {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot rename column \"%s\" of table \"%s\": check constraint \"%s\" reads it", old, t.Name, t.Checks[i].Name).
					WithHint("Drop the constraint, rename the column, then add the constraint again.")
			}
		}
		return e.cat.RenameColumn(t.OID, col, name)
	})
}

// renameConstraint renames a PRIMARY KEY or UNIQUE constraint (and its
// index) or a foreign key of table t.
func (s *Session) renameConstraint(ctx context.Context, t *catalog.Table, old, name string) error {
	for _, idx := range t.Indexes {
		if idx.Name == old && idx.IsConstraint() {
			if s.e.cat.RelationExists(name) {
				return pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", name)
			}
			return s.e.renameIndex(ctx, t.OID, old, name)
		}
	}
	if t.HasConstraint(old) {
		return pgerr.New(pgerr.FeatureNotSupported, "renaming a foreign key constraint is not supported")
	}
	return pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" for table \"%s\" does not exist", old, t.Name)
}

// sequenceInDefaults refuses to rename sequence name while a column's
// DEFAULT names it (nextval('name')): minipg keeps defaults as text.
func sequenceInDefaults(e *Engine, name string) error {
	for _, t := range e.visibleTables() {
		for _, c := range t.Columns {
			if strings.Contains(c.Default, "'"+name+"'") {
				return pgerr.New(pgerr.FeatureNotSupported, "cannot rename sequence \"%s\": the default of column \"%s\" of table \"%s\" names it", name, c.Name, t.Name).
					WithHint("Set the column's default again after the rename.")
			}
		}
	}
	return nil
}

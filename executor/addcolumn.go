package executor

// ALTER TABLE ... ADD COLUMN without a table rewrite, as PostgreSQL 11
// and later do it: the catalog gains the columns, the stored tuples keep
// their attributes (heap.Natts), and a tuple with fewer attributes than
// the table has columns reads, for each column past its end, the value
// the ALTER computed from the column's DEFAULT (catalog.Column.Missing,
// PostgreSQL's attmissingval; NULL without a default). New and updated
// rows are stored with every column.

import (
	"context"
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

func (s *Session) alterAddColumns(ctx context.Context, st *sql.AlterAddColumns) (string, error) {
	if err := s.underTableLock(ctx, st.Table.OID, func() (uint32, error) { return s.addColumnsLocked(ctx, st) }); err != nil {
		return "", err
	}
	return "ALTER TABLE", nil
}

// addColumnsLocked adds the columns under the table's exclusive lock. It
// returns a transaction to wait for when a NOT NULL column without a
// default needs the table checked for rows while another transaction is
// still writing it.
func (s *Session) addColumnsLocked(ctx context.Context, st *sql.AlterAddColumns) (uint32, error) {
	e := s.e
	r, err := e.rel(st.Table.OID)
	if err != nil {
		return 0, err
	}
	t := r.def
	if err := starViews(e, t); err != nil {
		return 0, err
	}
	var cols []catalog.Column
	ev := &evalCtx{s: s}
	for _, ac := range st.Cols {
		col := ac.Col
		if t.ColumnIndex(col.Name) >= 0 || slices.ContainsFunc(cols, func(c catalog.Column) bool { return c.Name == col.Name }) {
			if ac.IfNotExists {
				s.notice(pgerr.SeverityNotice, pgerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists, skipping", col.Name, t.Name)
				continue
			}
			return 0, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", col.Name, t.Name)
		}
		if ac.Default != nil {
			v, err := ev.eval(ac.Default, nil)
			if err != nil {
				return 0, err
			}
			if v != nil {
				txt := types.FormatText(types.T{OID: types.OID(col.TypeOID), Typmod: col.Typmod}, v)
				col.Missing = &txt
			}
		}
		if col.NotNull && col.Missing == nil {
			// The rows already stored would have a NULL there.
			found, wait, err := s.someRow(ctx, r, nil)
			if err != nil || wait != 0 {
				return wait, err
			}
			if found {
				return 0, pgerr.New(pgerr.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", col.Name, t.Name).
					WithTable(publicSchema, t.Name).WithColumn(col.Name)
			}
		}
		cols = append(cols, col)
	}
	if len(cols) == 0 {
		return 0, nil
	}
	nt, err := e.cat.AddColumns(t.OID, cols)
	if err != nil {
		return 0, err
	}
	nr, err := e.openRelation(nt)
	if err != nil {
		return 0, err
	}
	nr.indexes = r.indexes
	e.replaceRel(nr)
	return 0, nil
}

// starViews refuses to change the columns of table t while a view reads
// it with "*": a view keeps its query as text, so the new column would
// change what the view returns, where PostgreSQL expanded the "*" when
// the view was created.
func starViews(e *Engine, t *catalog.Table) error {
	for _, v := range e.cat.DependentViews(t.OID) {
		tree, err := pg_query.Parse(v.Query)
		if err != nil {
			return err
		}
		if hasStar(tree.ProtoReflect()) {
			return pgerr.New(pgerr.FeatureNotSupported, "cannot add a column to table \"%s\": view \"%s\" reads it with *", t.Name, v.Name).
				WithHint("Create the view again with the columns named, or drop it first.")
		}
	}
	return nil
}

// hasStar reports whether a parse tree holds a column reference ending in
// "*" (x.* or *).
func hasStar(m protoreflect.Message) bool {
	if cr, ok := m.Interface().(*pg_query.ColumnRef); ok {
		if n := len(cr.Fields); n > 0 && cr.Fields[n-1].GetAStar() != nil {
			return true
		}
	}
	found := false
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len() && !found; i++ {
				found = hasStar(l.Get(i).Message())
			}
		case fd.Message() != nil && !fd.IsMap():
			found = hasStar(v.Message())
		}
		return !found
	})
	return found
}

// missingValues are the values a tuple stored before ADD COLUMN reads for
// the columns past its attributes (nil for NULL); nil if no column has
// one.
func missingValues(t *catalog.Table) ([]types.Datum, error) {
	var out []types.Datum
	for i, c := range t.Columns {
		if c.Missing == nil {
			continue
		}
		if out == nil {
			out = make([]types.Datum, len(t.Columns))
		}
		v, err := types.ParseText(types.T{OID: types.OID(c.TypeOID), Typmod: c.Typmod}, *c.Missing)
		if err != nil {
			return nil, pgerr.New(pgerr.DataCorrupted, "column \"%s\" of table \"%s\": bad missing value %q: %v", c.Name, t.Name, *c.Missing, err)
		}
		out[i] = v
	}
	return out, nil
}

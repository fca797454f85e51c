package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
)

// AlterAddColumns is ALTER TABLE ... ADD [COLUMN] [IF NOT EXISTS], one or
// more columns. As in PostgreSQL 11 and later, the table is not
// rewritten: the rows already stored keep their attributes, and a column
// added with a DEFAULT reads, in them, the default's value computed once
// by the ALTER (catalog.Column.Missing, PostgreSQL's attmissingval).
type AlterAddColumns struct {
	Table *catalog.Table
	Cols  []AddColumn
}

// AddColumn is one column ALTER TABLE adds.
type AddColumn struct {
	Col         catalog.Column // Missing is set by the executor
	IfNotExists bool
	// Default is the bound DEFAULT expression (nil for none): the
	// executor evaluates it once for the rows already stored.
	Default Expr
}

func (*AlterAddColumns) stmt() {}

// addColumns binds the ADD COLUMN subcommands of an ALTER TABLE whose
// subcommands are all ADD COLUMN. Each column definition is bound as
// CREATE TABLE binds its columns; what would need the table rewritten,
// an index built or the stored rows checked with it (a volatile default,
// serial and identity columns, PRIMARY KEY, UNIQUE, REFERENCES and CHECK
// on the new column) is refused with 0A000.
func (b *binder) addColumns(t *catalog.Table, s *pg_query.AlterTableStmt) (*AlterAddColumns, error) {
	out := &AlterAddColumns{Table: t}
	for _, cn := range s.Cmds {
		c := cn.GetAlterTableCmd()
		if c.Subtype != pg_query.AlterTableType_AT_AddColumn {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE with ADD COLUMN and other subcommands is not supported").
				WithHint("Run them as separate ALTER TABLE statements.")
		}
		cd := c.Def.GetColumnDef()
		if cd == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "this ADD COLUMN form is not supported")
		}
		ct, err := b.createTable(&pg_query.CreateStmt{Relation: s.Relation,
			TableElts: []*pg_query.Node{{Node: &pg_query.Node_ColumnDef{ColumnDef: cd}}}})
		if err != nil {
			if pe, ok := err.(*pgerr.Error); ok && pe.Code == pgerr.DuplicateColumn {
				pe.Position = 0 // ALTER TABLE checks the name outside the parser
			}
			return nil, err
		}
		col := ct.Def.Columns[0]
		switch {
		case len(ct.Serials) > 0:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ADD COLUMN of a serial or identity column is not supported").
				WithHint("Add an integer column, then set its default.")
		case len(ct.Def.Indexes) > 0 || len(ct.ForeignKeys) > 0 || len(ct.Def.Checks) > 0:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ADD COLUMN with a PRIMARY KEY, UNIQUE, REFERENCES or CHECK constraint is not supported").
				WithHint("Add the column, then add the constraint with ALTER TABLE ... ADD.")
		}
		ac := AddColumn{Col: col, IfNotExists: c.MissingOk}
		if col.Default != "" {
			typ := colType(col)
			d, err := ParseExpr(col.Default, typ)
			if err != nil {
				return nil, err
			}
			if IsVolatile(d) {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "ADD COLUMN with a volatile DEFAULT is not supported").
					WithDetail("PostgreSQL rewrites the table to give each row its own value; minipg does not rewrite tables.").
					WithHint("Add the column without a default, set the default, then UPDATE the rows.")
			}
			ac.Default = d
		}
		out.Cols = append(out.Cols, ac)
	}
	return out, nil
}

// IsVolatile reports whether e calls a volatile function (or one the
// executor dispatches by name, which is taken to be volatile).
func IsVolatile(e Expr) bool {
	found := false
	Walk(e, func(x Expr) {
		if f, ok := x.(*Func); ok && (f.Builtin == nil || f.Builtin.Volatility == Volatile) {
			found = true
		}
	})
	return found
}

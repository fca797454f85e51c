package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
)

// AlterDropColumns is ALTER TABLE ... DROP [COLUMN] [IF EXISTS] c
// [RESTRICT | CASCADE], one or more columns. Nothing is resolved here:
// the executor looks each name up under the table's exclusive lock, in
// statement order, as PostgreSQL runs the subcommands one after the other
// (a name dropped by an earlier subcommand no longer exists).
type AlterDropColumns struct {
	Table *catalog.Table
	Cols  []DropColumn
}

// DropColumn is one DROP COLUMN subcommand.
type DropColumn struct {
	Name     string
	IfExists bool
	Cascade  bool // CASCADE: the views and other tables' foreign keys that need the column go too
}

func (*AlterDropColumns) stmt() {}

// dropColumns binds an ALTER TABLE whose subcommands are all DROP COLUMN.
func (b *binder) dropColumns(t *catalog.Table, s *pg_query.AlterTableStmt) (*AlterDropColumns, error) {
	out := &AlterDropColumns{Table: t}
	for _, cn := range s.Cmds {
		c := cn.GetAlterTableCmd()
		if c.Subtype != pg_query.AlterTableType_AT_DropColumn {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE with DROP COLUMN and other subcommands is not supported").
				WithHint("Run them as separate ALTER TABLE statements.")
		}
		out.Cols = append(out.Cols, DropColumn{Name: c.Name, IfExists: c.MissingOk, Cascade: c.Behavior == pg_query.DropBehavior_DROP_CASCADE})
	}
	return out, nil
}

package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
)

// FKCmd is one FOREIGN KEY constraint as written (ALTER TABLE ... ADD, a
// table constraint or a column's REFERENCES): the executor resolves the
// names and checks the referenced table's unique index and the rows.
type FKCmd struct {
	Name       string   // "" lets the executor choose table_cols_fkey
	Columns    []string // referencing columns
	RefTable   string
	RefColumns []string // nil: the referenced table's primary key
	OnDelete   string   // catalog.FKNoAction, ...
	OnUpdate   string
	NotValid   bool  // NOT VALID: existing rows are not checked
	Position   int32 // 1-based character position of the constraint
}

// fkConstraint binds a FOREIGN KEY constraint. col is the column of a
// column constraint (REFERENCES), "" for a table constraint.
func (b *binder) fkConstraint(c *pg_query.Constraint, col string) (FKCmd, error) {
	cmd := FKCmd{Name: c.Conname, RefTable: c.Pktable.GetRelname(), Position: charPos(b.query, c.Location), NotValid: c.SkipValidation}
	if sc := c.Pktable.GetSchemaname(); sc != "" && sc != "public" {
		return cmd, b.errAt(c.Pktable.Location, pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", sc, cmd.RefTable)
	}
	switch {
	case c.Deferrable || c.Initdeferred:
		return cmd, b.errAt(c.Location, pgerr.FeatureNotSupported, "DEFERRABLE constraints are not supported")
	case c.FkMatchtype == "f" || c.FkMatchtype == "p":
		return cmd, b.errAt(c.Location, pgerr.FeatureNotSupported, "MATCH FULL and MATCH PARTIAL are not supported")
	case len(c.FkDelSetCols) > 0:
		return cmd, b.errAt(c.Location, pgerr.FeatureNotSupported, "ON DELETE SET NULL/SET DEFAULT with a column list is not supported")
	}
	action := func(a string) (string, error) {
		switch a {
		case "", "a":
			return "", nil
		case "r", "c", "n":
			return a, nil
		}
		return "", b.errAt(c.Location, pgerr.FeatureNotSupported, "ON DELETE/ON UPDATE SET DEFAULT is not supported")
	}
	var err error
	if cmd.OnDelete, err = action(c.FkDelAction); err != nil {
		return cmd, err
	}
	if cmd.OnUpdate, err = action(c.FkUpdAction); err != nil {
		return cmd, err
	}
	if col != "" {
		cmd.Columns = []string{col}
	}
	for _, a := range c.FkAttrs {
		cmd.Columns = append(cmd.Columns, a.GetString_().GetSval())
	}
	for _, a := range c.PkAttrs {
		cmd.RefColumns = append(cmd.RefColumns, a.GetString_().GetSval())
	}
	return cmd, nil
}

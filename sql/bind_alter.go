package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
)

// AlterConstraints is ALTER TABLE t with ADD [CONSTRAINT name] PRIMARY KEY
// (cols), ADD [CONSTRAINT name] UNIQUE (cols) and DROP CONSTRAINT [IF
// EXISTS] name subcommands, in statement order. Nothing is checked against
// the table here: the executor checks names and columns under the table's
// exclusive lock, in the order PostgreSQL's ALTER TABLE passes do (all
// drops, then the key columns of the primary keys, then each new index in
// turn), so that a statement with several faults reports the same one.
type AlterConstraints struct {
	Table *catalog.Table
	Cmds  []ConstraintCmd
	// ForeignKeys are ADD FOREIGN KEY subcommands, added after Cmds.
	ForeignKeys []FKCmd
}

// ConstraintCmd is one ADD or DROP CONSTRAINT subcommand.
type ConstraintCmd struct {
	Drop     bool     // DROP CONSTRAINT; otherwise ADD
	Cascade  bool     // DROP CONSTRAINT ... CASCADE: drops the foreign keys that need its index
	IfExists bool     // DROP CONSTRAINT IF EXISTS
	Name     string   // the constraint's name; "" for an ADD lets the executor choose one
	Primary  bool     // ADD PRIMARY KEY; otherwise ADD UNIQUE
	Columns  []string // key columns as written
	Position int32    // 1-based character position of the constraint in the query, for errors that point at it
}

// AlterMissing is ALTER TABLE IF EXISTS on a table that does not exist:
// the executor raises a notice and does nothing.
type AlterMissing struct{ Name string }

func (*AlterConstraints) stmt() {}
func (*AlterMissing) stmt()     {}

// alterTable binds ALTER TABLE. Storage parameters (SET/RESET) and
// constraints (ADD/DROP CONSTRAINT) are each supported, several subcommands
// of one kind per statement; mixing the kinds is not.
func (b *binder) alterTable(s *pg_query.AlterTableStmt) (Stmt, error) {
	if s.Objtype != pg_query.ObjectType_OBJECT_TABLE {
		return nil, pgerr.Unimplemented("ALTER " + strings.TrimPrefix(s.Objtype.String(), "OBJECT_"))
	}
	t, err := b.table(s.Relation)
	if err != nil {
		if pgerr.CodeOf(err) != pgerr.UndefinedTable {
			return nil, err
		}
		if s.MissingOk {
			return &AlterMissing{Name: s.Relation.Relname}, nil
		}
		// ALTER TABLE looks the table up outside the parser: PostgreSQL's
		// error carries no position.
		if pe, ok := err.(*pgerr.Error); ok {
			pe.Position = 0
		}
		return nil, err
	}
	if len(s.Cmds) > 0 {
		switch s.Cmds[0].GetAlterTableCmd().Subtype {
		case pg_query.AlterTableType_AT_AddColumn:
			return b.addColumns(t, s)
		case pg_query.AlterTableType_AT_DropColumn:
			return b.dropColumns(t, s)
		case pg_query.AlterTableType_AT_AlterColumnType:
			return b.alterColumnTypes(t, s)
		}
	}
	opts := &AlterOptions{Table: t, Options: map[string]string{}}
	cons := &AlterConstraints{Table: t}
	nopts := 0
	var checks []checkDef
	checkAlter := &AlterChecks{Table: t}
	for _, cn := range s.Cmds {
		c := cn.GetAlterTableCmd()
		switch c.Subtype {
		case pg_query.AlterTableType_AT_SetRelOptions:
			o, err := b.relOptions(c.Def.GetList().GetItems())
			if err != nil {
				return nil, err
			}
			for k, v := range o {
				opts.Options[k] = v
			}
			nopts++
		case pg_query.AlterTableType_AT_ResetRelOptions:
			for _, n := range c.Def.GetList().GetItems() {
				d := n.GetDefElem()
				if d.Arg != nil {
					return nil, pgerr.New(pgerr.SyntaxError, "RESET must not include values for parameters")
				}
				// As in PostgreSQL, resetting a parameter the table cannot
				// have (unknown, or in a namespace) does nothing.
				if d.Defnamespace == "" && isRelOption(d.Defname) {
					opts.Options[d.Defname] = ""
				}
			}
			nopts++
		case pg_query.AlterTableType_AT_AddConstraint:
			con := c.Def.GetConstraint()
			switch con.Contype {
			case pg_query.ConstrType_CONSTR_PRIMARY, pg_query.ConstrType_CONSTR_UNIQUE:
			case pg_query.ConstrType_CONSTR_FOREIGN:
				fk, err := b.fkConstraint(con, "")
				if err != nil {
					return nil, err
				}
				cons.ForeignKeys = append(cons.ForeignKeys, fk)
				continue
			case pg_query.ConstrType_CONSTR_CHECK:
				checks = append(checks, newCheckDef(con))
				continue
			default:
				return nil, b.errAt(con.Location, pgerr.FeatureNotSupported, "%s constraints are not supported", constraintName(con.Contype))
			}
			cmd, err := b.keyConstraint(con)
			if err != nil {
				return nil, err
			}
			cons.Cmds = append(cons.Cmds, cmd)
		case pg_query.AlterTableType_AT_ColumnDefault:
			if len(s.Cmds) != 1 {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE with ALTER COLUMN ... DEFAULT and other subcommands is not supported").
					WithHint("Run them as separate ALTER TABLE statements.")
			}
			return b.alterDefault(t, c)
		case pg_query.AlterTableType_AT_SetNotNull, pg_query.AlterTableType_AT_DropNotNull:
			if len(s.Cmds) != 1 {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE with SET/DROP NOT NULL and other subcommands is not supported").
					WithHint("Run them as separate ALTER TABLE statements.")
			}
			col := t.ColumnIndex(c.Name)
			if col < 0 {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.Name, t.Name)
			}
			if c.Subtype == pg_query.AlterTableType_AT_DropNotNull && t.Columns[col].Identity != "" {
				return nil, pgerr.New(pgerr.SyntaxError, "column \"%s\" of relation \"%s\" is an identity column", c.Name, t.Name)
			}
			return &AlterNotNull{Table: t, Col: col, Set: c.Subtype == pg_query.AlterTableType_AT_SetNotNull}, nil
		case pg_query.AlterTableType_AT_AddColumn:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE with ADD COLUMN and other subcommands is not supported").
				WithHint("Run them as separate ALTER TABLE statements.")
		case pg_query.AlterTableType_AT_DropColumn:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE with DROP COLUMN and other subcommands is not supported").
				WithHint("Run them as separate ALTER TABLE statements.")
		case pg_query.AlterTableType_AT_AlterColumnType:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE with ALTER COLUMN ... TYPE and other subcommands is not supported").
				WithHint("Run them as separate ALTER TABLE statements.")
		case pg_query.AlterTableType_AT_DropConstraint:
			if slices.ContainsFunc(t.Checks, func(ck catalog.Check) bool { return ck.Name == c.Name }) {
				checkAlter.Drop = append(checkAlter.Drop, c.Name)
				continue
			}
			cons.Cmds = append(cons.Cmds, ConstraintCmd{Drop: true, IfExists: c.MissingOk, Name: c.Name, Cascade: c.Behavior == pg_query.DropBehavior_DROP_CASCADE})
		default:
			what := map[pg_query.AlterTableType]string{
				pg_query.AlterTableType_AT_ColumnDefault: "ALTER COLUMN DEFAULT",
				pg_query.AlterTableType_AT_SetNotNull:    "SET NOT NULL",
				pg_query.AlterTableType_AT_DropNotNull:   "DROP NOT NULL",
				pg_query.AlterTableType_AT_AddIndex:      "ADD INDEX",
				pg_query.AlterTableType_AT_SetStatistics: "ALTER COLUMN SET STATISTICS",
				pg_query.AlterTableType_AT_SetStorage:    "ALTER COLUMN SET STORAGE",
			}[c.Subtype]
			if what == "" {
				what = strings.ToLower(strings.TrimPrefix(c.Subtype.String(), "AT_"))
			}
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE %s is not supported", what).
				WithHint("minipg supports ALTER TABLE ... SET (...), RESET (...), ADD COLUMN, DROP COLUMN, ALTER COLUMN ... TYPE, ADD PRIMARY KEY, ADD UNIQUE, ADD FOREIGN KEY, DROP CONSTRAINT and ALTER COLUMN ... SET/DROP DEFAULT and SET/DROP NOT NULL.")
		}
	}
	if len(checks)+len(checkAlter.Drop) > 0 {
		if nopts > 0 || len(cons.Cmds)+len(cons.ForeignKeys) > 0 {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE with CHECK constraints and other subcommands is not supported").
				WithHint("Run them as separate ALTER TABLE statements.")
		}
		// The constraints dropped free their names for those added.
		rest := t.Clone()
		rest.Checks = slices.DeleteFunc(rest.Checks, func(ck catalog.Check) bool { return slices.Contains(checkAlter.Drop, ck.Name) })
		var err error
		if checkAlter.Add, err = b.bindChecks(rest, checks); err != nil {
			return nil, err
		}
		return checkAlter, nil
	}
	switch {
	case nopts > 0 && len(cons.Cmds)+len(cons.ForeignKeys) > 0:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE with both storage parameters and constraints is not supported").
			WithHint("Run them as separate ALTER TABLE statements.")
	case len(cons.Cmds)+len(cons.ForeignKeys) > 0:
		return cons, nil
	}
	return opts, nil
}

// keyConstraint binds a PRIMARY KEY or UNIQUE constraint, of ALTER TABLE
// ... ADD or of CREATE TABLE (a column constraint has no Keys: the caller
// sets Columns). The options minipg's indexes lack are refused.
func (b *binder) keyConstraint(c *pg_query.Constraint) (ConstraintCmd, error) {
	cmd := ConstraintCmd{Name: c.Conname, Primary: c.Contype == pg_query.ConstrType_CONSTR_PRIMARY, Position: charPos(b.query, c.Location)}
	unsupported := ""
	switch {
	case c.Indexname != "":
		unsupported = "ADD CONSTRAINT ... USING INDEX is"
	case c.Deferrable || c.Initdeferred:
		unsupported = "DEFERRABLE constraints are"
	case len(c.Including) > 0:
		unsupported = "INCLUDE columns are"
	case len(c.Options) > 0:
		unsupported = "WITH (...) on a constraint's index is"
	case c.Indexspace != "":
		unsupported = "USING INDEX TABLESPACE is"
	case c.NullsNotDistinct:
		unsupported = "NULLS NOT DISTINCT is"
	}
	if unsupported != "" {
		return cmd, b.errAt(c.Location, pgerr.FeatureNotSupported, "%s not supported", unsupported)
	}
	for _, k := range c.Keys {
		cmd.Columns = append(cmd.Columns, k.GetString_().GetSval())
	}
	return cmd, nil
}

// keyIndexes turns CREATE TABLE's PRIMARY KEY and UNIQUE constraints into
// the table's indexes as PostgreSQL's transformIndexConstraints does: each
// in the order written is checked (a second primary key, 42P16; a column
// that does not exist, 42703; a column named twice, 42701; all pointing at
// the constraint) and a primary key makes its columns NOT NULL; then the
// primary key comes first and a constraint over the same columns as an
// earlier one is dropped, its name going to the earlier one if that had
// none. An index without a name (Name "") is named by the executor, which
// sees the relations in use.
func (b *binder) keyIndexes(def *catalog.Table, keys []ConstraintCmd) ([]catalog.Index, error) {
	var pk *catalog.Index
	var others []catalog.Index
	for _, k := range keys {
		if k.Primary && pk != nil {
			return nil, b.errPos(k.Position, pgerr.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", def.Name)
		}
		idx := catalog.Index{Name: k.Name, Unique: true, Primary: k.Primary, Constraint: !k.Primary}
		for i, name := range k.Columns {
			c := def.ColumnIndex(name)
			if c < 0 {
				return nil, b.errPos(k.Position, pgerr.UndefinedColumn, "column \"%s\" named in key does not exist", name)
			}
			if slices.Contains(k.Columns[:i], name) {
				kind := "unique"
				if k.Primary {
					kind = "primary key"
				}
				return nil, b.errPos(k.Position, pgerr.DuplicateColumn, "column \"%s\" appears twice in %s constraint", name, kind)
			}
			idx.Columns = append(idx.Columns, int16(c+1))
			if k.Primary {
				def.Columns[c].NotNull = true
			}
		}
		if k.Primary {
			pk = &idx
		} else {
			others = append(others, idx)
		}
	}
	var out []catalog.Index
	if pk != nil {
		out = append(out, *pk)
	}
	for _, idx := range others {
		if i := slices.IndexFunc(out, func(o catalog.Index) bool { return slices.Equal(o.Columns, idx.Columns) }); i >= 0 {
			if out[i].Name == "" {
				out[i].Name = idx.Name
			}
			continue
		}
		out = append(out, idx)
	}
	return out, nil
}

// errPos is errAt for a position already converted by charPos.
func (b *binder) errPos(pos int32, code pgerr.Code, format string, args ...any) *pgerr.Error {
	e := pgerr.New(code, format, args...)
	e.Position = pos
	return e
}

package executor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
)

// alterConstraints runs ALTER TABLE ... ADD PRIMARY KEY / ADD UNIQUE / DROP
// CONSTRAINT under the table's exclusive lock. PostgreSQL runs the
// subcommands of one ALTER TABLE in passes, and the checks here follow the
// same order so that a statement with several faults reports the same one:
//
//  1. every DROP CONSTRAINT (42704 for a name that is no constraint);
//  2. each ADD's key, for a column named twice (42701);
//  3. the columns of each PRIMARY KEY, which become NOT NULL (42703);
//  4. each ADD in turn: its columns (42703), a second primary key (42P16),
//     its name (42P07, or a generated one as ChooseIndexName makes it), and
//     the index build with its uniqueness check (23505);
//  5. the rows, for NULLs in the columns that became NOT NULL (23502).
//
// Nothing is published before all of it succeeded: the catalog takes the
// whole change in one synced batch, then the relation with its new set of
// indexes replaces the old one.
func (s *Session) alterConstraints(ctx context.Context, st *sql.AlterConstraints) (string, error) {
	st, err := s.foreignKeyDrops(ctx, st)
	if err != nil {
		return "", err
	}
	if len(st.Cmds) == 0 {
		if err := s.addForeignKeys(ctx, st.Table.OID, st.ForeignKeys); err != nil {
			return "", err
		}
		return "ALTER TABLE", nil
	}
	for {
		var notices []*pgerr.Error
		wait, err := s.alterConstraintsOnce(ctx, st, &notices)
		if wait == 0 {
			s.notices = append(s.notices, notices...)
			if err != nil {
				return "", err
			}
			if err := s.addForeignKeys(ctx, st.Table.OID, st.ForeignKeys); err != nil {
				return "", err
			}
			return "ALTER TABLE", nil
		}
		// A row version whose inserter or deleter is still running decides
		// the outcome: wait for its transaction without holding the table
		// lock (it may need the lock to finish), then start over.
		if err := s.ensureTx().WaitFor(ctx, wait); err != nil {
			return "", mapCtxErr(ctx, err)
		}
	}
}

// alterConstraintsOnce makes one attempt at st under the table's exclusive
// lock. wait != 0 means a transaction must end first; nothing was changed
// then. Notices go to *notices, for the attempt that counts.
func (s *Session) alterConstraintsOnce(ctx context.Context, st *sql.AlterConstraints, notices *[]*pgerr.Error) (wait uint32, err error) {
	e := s.e
	release, err := e.txns.LockRelation(ctx, st.Table.OID, true)
	if err != nil {
		return 0, mapCtxErr(ctx, err)
	}
	defer release()
	r, err := e.rel(st.Table.OID)
	if err != nil {
		return 0, err
	}
	t := r.def

	// 1. Drops. indexes is the table's set of indexes as the statement
	// goes on.
	indexes := slices.Clone(t.Indexes)
	dropped := map[string]bool{}
	var drops []string
	for _, c := range st.Cmds {
		if !c.Drop {
			continue
		}
		i := slices.IndexFunc(indexes, func(idx catalog.Index) bool { return idx.Name == c.Name && idx.IsConstraint() })
		if i < 0 {
			if c.IfExists {
				n := pgerr.New(pgerr.SuccessfulCompletion, "constraint \"%s\" of relation \"%s\" does not exist, skipping", c.Name, t.Name)
				n.Severity = pgerr.SeverityNotice
				*notices = append(*notices, n)
				continue
			}
			return 0, pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" of relation \"%s\" does not exist", c.Name, t.Name)
		}
		indexes = slices.Delete(indexes, i, i+1)
		dropped[c.Name] = true
		drops = append(drops, c.Name)
	}

	// 2. Keys naming a column twice.
	for _, c := range st.Cmds {
		if c.Drop {
			continue
		}
		for i, name := range c.Columns {
			if slices.Contains(c.Columns[:i], name) {
				kind := "unique"
				if c.Primary {
					kind = "primary key"
				}
				err := pgerr.New(pgerr.DuplicateColumn, "column \"%s\" appears twice in %s constraint", name, kind)
				err.Position = c.Position
				return 0, err
			}
		}
	}

	// 3. Primary key columns: they must exist, and those not yet NOT NULL
	// are checked for NULLs at the end.
	var notNull []int
	for _, c := range st.Cmds {
		if c.Drop || !c.Primary {
			continue
		}
		for _, name := range c.Columns {
			col := t.ColumnIndex(name)
			if col < 0 {
				return 0, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, t.Name)
			}
			if !t.Columns[col].NotNull && !slices.Contains(notNull, col) {
				notNull = append(notNull, col)
			}
		}
	}

	// 4. The new indexes, each checked and built in turn.
	x := &execCtx{ctx: ctx, s: s, tx: s.ensureTx(), rel: r}
	x.xid = x.tx.XidIfAssigned()
	taken := func(name string) bool {
		return (e.cat.RelationExists(name) && !dropped[name]) ||
			slices.ContainsFunc(indexes, func(idx catalog.Index) bool { return idx.Name == name })
	}
	var adds []catalog.Index
	var built []*relIndex
	committed := false
	defer func() {
		// The files of disk indexes built for an ALTER TABLE that failed.
		if !committed {
			if derr := e.dropIndexFiles(adds...); derr != nil && err == nil {
				err = derr
			}
		}
	}()
	nullCol := -1
	for _, c := range st.Cmds {
		if c.Drop {
			continue
		}
		idx := catalog.Index{Name: c.Name, Unique: true, Primary: c.Primary, Constraint: !c.Primary}
		for _, name := range c.Columns {
			col := t.ColumnIndex(name)
			if col < 0 {
				return 0, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" named in key does not exist", name)
			}
			idx.Columns = append(idx.Columns, int16(col+1))
		}
		if c.Primary && slices.ContainsFunc(indexes, func(idx catalog.Index) bool { return idx.Primary }) {
			return 0, pgerr.New(pgerr.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", t.Name)
		}
		if idx.Name == "" {
			idx.Name = chooseConstraintName(t.Name, c.Columns, c.Primary, taken)
		} else if taken(idx.Name) {
			return 0, pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", idx.Name)
		}
		if err := e.prepareIndex(&idx); err != nil {
			return 0, err
		}
		adds = append(adds, idx) // its file goes if a later step fails
		ri := e.newRelIndex(r, idx)
		var check []int
		if c.Primary {
			check = notNull
		}
		n, wait, err := x.buildIndex(ri, check)
		if wait != 0 || err != nil {
			return wait, err
		}
		if c.Primary {
			nullCol = n
		}
		indexes = append(indexes, idx)
		built = append(built, ri)
	}

	// 5. NULLs in the new primary key.
	if nullCol >= 0 {
		return 0, pgerr.New(pgerr.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", t.Columns[nullCol].Name, t.Name).
			WithTable(publicSchema, t.Name).WithColumn(t.Columns[nullCol].Name)
	}

	nt, stored, err := e.cat.AlterConstraints(t.OID, drops, adds)
	if err != nil {
		return 0, err
	}
	committed = true
	nr := *r
	nr.def = nt
	nr.indexes = nil
	for _, ri := range r.indexes {
		if !dropped[ri.def.Name] {
			nr.indexes = append(nr.indexes, ri)
		}
	}
	var droppedDefs []catalog.Index
	for _, ri := range r.indexes {
		if dropped[ri.def.Name] {
			droppedDefs = append(droppedDefs, ri.def)
		}
	}
	for i, ri := range built {
		ri.def = stored[i]
		nr.indexes = append(nr.indexes, ri)
	}
	setIndexAttrs(&nr)
	e.replaceRel(&nr)
	return 0, e.dropIndexFiles(droppedDefs...)
}

// chooseConstraintName names a constraint's index as PostgreSQL's
// ChooseIndexName does: table_pkey, or table_col1_col2_key for a unique
// constraint, cut to fit NAMEDATALEN, with 1, 2, ... appended to the label
// until taken says the name is free.
func chooseConstraintName(table string, cols []string, primary bool, taken func(string) bool) string {
	if primary {
		return chooseName(table, "", "pkey", taken)
	}
	return chooseName(table, strings.Join(cols, "_"), "key", taken)
}

// chooseIndexName is PostgreSQL's ChooseIndexName for an index that is not
// a constraint's: table_col1_col2_idx, numbered until free.
func chooseIndexName(table string, cols []string, taken func(string) bool) string {
	return chooseName(table, strings.Join(cols, "_"), "idx", taken)
}

// chooseName is name1_name2_label cut to fit NAMEDATALEN, with 1, 2, ...
// appended to the label until taken says the name is free.
func chooseName(name1, name2, label string, taken func(string) bool) string {
	modlabel := label
	for pass := 1; ; pass++ {
		name := catalog.MakeObjectName(name1, name2, modlabel)
		if !taken(name) {
			return name
		}
		modlabel = fmt.Sprintf("%s%d", label, pass)
	}
}

// nameConstraintIndexes names the unnamed constraint indexes of a table
// about to be created, in order, as PostgreSQL's DefineIndex does for each
// once the table exists: a name is taken if the table, a relation in the
// catalog or an earlier index of def has it. A later explicit name may
// still clash with a chosen one; CreateTable reports that (42P07), as
// PostgreSQL does.
func nameConstraintIndexes(cat catalogStore, def *catalog.Table) {
	for i := range def.Indexes {
		idx := &def.Indexes[i]
		if idx.Name != "" {
			continue
		}
		var cols []string
		for _, a := range idx.Columns {
			cols = append(cols, def.Columns[a-1].Name)
		}
		earlier := def.Indexes[:i]
		taken := func(name string) bool {
			return name == def.Name || cat.RelationExists(name) ||
				slices.ContainsFunc(earlier, func(o catalog.Index) bool { return o.Name == name })
		}
		if !idx.IsConstraint() {
			// A plain index CREATE TABLE ... LIKE copies: ChooseIndexName's table_cols_idx.
			idx.Name = chooseIndexName(def.Name, cols, taken)
			continue
		}
		idx.Name = chooseConstraintName(def.Name, cols, idx.Primary, taken)
	}
}

// alterMissing is ALTER TABLE IF EXISTS on a missing table.
func (s *Session) alterMissing(st *sql.AlterMissing) (string, error) {
	s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, "relation \"%s\" does not exist, skipping", st.Name)
	return "ALTER TABLE", nil
}

package executor

// Sequences: CREATE/DROP SEQUENCE, nextval/currval/setval/lastval and
// ALTER COLUMN SET/DROP DEFAULT.
//
// A sequence's state lives in the catalog (catalog.NextVal): nextval
// stores the state SeqLogVals values ahead, synced in pebble, before it
// hands out a value, so after a crash a sequence resumes past every value
// it returned (PostgreSQL WAL-logs the same prefetch in the sequence's
// page). Nothing of it is transactional: ROLLBACK keeps the advance, as
// in PostgreSQL. CACHE n fetches n values per catalog call and hands them
// out from the session, as PostgreSQL's backend-local cache does.

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// seqCache is a session's view of one sequence (PostgreSQL's SeqTable
// entry): the last value nextval returned (currval) and the last value of
// the range fetched into the session's cache.
type seqCache struct {
	last, cached int64
	incr         int64
	valid        bool
}

func (s *Session) createSequence(st *sql.CreateSequence) (string, error) {
	e := s.e
	if st.IfNotExists && e.cat.RelationExists(st.Def.Name) {
		s.notice(pgerr.SeverityNotice, pgerr.DuplicateTable, "relation \"%s\" already exists, skipping", st.Def.Name)
		return "CREATE SEQUENCE", nil
	}
	def := st.Def
	if st.OwnedBy != nil {
		var err error
		if def.OwnedByTable, def.OwnedByColumn, err = e.ownedBy(st.OwnedBy); err != nil {
			return "", err
		}
	}
	q, err := e.cat.CreateSequence(def)
	if err != nil {
		return "", err
	}
	s.ensureTx()
	s.noteCreated(createdSequence, q.OID, q.Name)
	return "CREATE SEQUENCE", nil
}

func (s *Session) dropSequence(ctx context.Context, st *sql.DropSequence, cascade bool) (string, error) {
	e := s.e
	var seqs []*catalog.Sequence
	for _, name := range st.Names {
		q, ok := e.cat.Sequence(name)
		if !ok {
			if _, isTable := e.cat.Table(name); isTable {
				return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", name).
					WithHint("Use DROP TABLE to remove a table.")
			}
			if st.IfExists {
				s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, "sequence \"%s\" does not exist, skipping", name)
				continue
			}
			return "", pgerr.New(pgerr.UndefinedTable, "sequence \"%s\" does not exist", name)
		}
		seqs = append(seqs, q)
	}
	for _, q := range seqs {
		if err := s.dropSequenceDependents(ctx, q, cascade); err != nil {
			return "", err
		}
		if err := e.cat.DropSequence(q.OID); err != nil {
			return "", err
		}
		delete(s.seqs, q.OID)
	}
	return "DROP SEQUENCE", nil
}

// defaultUses reports whether a DEFAULT expression calls a sequence
// function on sequence name.
func defaultUses(expr, name string) bool {
	if !strings.Contains(expr, "nextval(") {
		return false
	}
	e, err := sql.ParseExpr(expr, types.TText)
	if err != nil {
		return false
	}
	found := false
	sql.Walk(e, func(x sql.Expr) {
		f, ok := x.(*sql.Func)
		if !ok || f.Name != "nextval" || len(f.Args) != 1 {
			return
		}
		sql.Walk(f.Args[0], func(y sql.Expr) {
			if k, ok := y.(*sql.Const); ok {
				if s, ok := k.Val.(string); ok {
					if n, valid := sql.SeqName(s); valid && n == name {
						found = true
					}
				}
			}
		})
	})
	return found
}

// dropSequenceDependents handles the column defaults that call nextval on
// q: an error (2BP01, PostgreSQL's wording) unless cascade, which drops
// them with a notice.
func (s *Session) dropSequenceDependents(ctx context.Context, q *catalog.Sequence, cascade bool) error {
	e := s.e
	type dep struct {
		t   *catalog.Table
		col int
	}
	var deps []dep
	for _, t := range e.cat.Tables() {
		if t.OID == q.OwnedByTable {
			continue // the owner's default goes with the sequence in PostgreSQL too
		}
		for i, c := range t.Columns {
			if c.Default != "" && defaultUses(c.Default, q.Name) {
				deps = append(deps, dep{t, i})
			}
		}
	}
	if q.OwnedByTable != 0 {
		if t, ok := e.cat.TableByOID(q.OwnedByTable); ok {
			for i, c := range t.Columns {
				if c.Default != "" && defaultUses(c.Default, q.Name) {
					deps = append(deps, dep{t, i})
				}
			}
		}
	}
	if len(deps) == 0 {
		return nil
	}
	if !cascade {
		var lines []string
		for _, d := range deps {
			lines = append(lines, "default value for column "+d.t.Columns[d.col].Name+" of table "+d.t.Name+" depends on sequence "+q.Name)
		}
		return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop sequence %s because other objects depend on it", q.Name).
			WithDetail("%s", strings.Join(lines, "\n")).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	for _, d := range deps {
		s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, "drop cascades to default value for column %s of table %s", d.t.Columns[d.col].Name, d.t.Name)
		if err := s.setDefault(ctx, d.t.OID, d.col, ""); err != nil {
			return err
		}
	}
	return nil
}

func (s *Session) alterDefault(ctx context.Context, st *sql.AlterDefault) (string, error) {
	if err := s.setDefault(ctx, st.Table.OID, st.Col, st.Expr); err != nil {
		return "", err
	}
	return "ALTER TABLE", nil
}

// setDefault stores a column's new DEFAULT and installs the relation with
// it, under the table's exclusive lock.
func (s *Session) setDefault(ctx context.Context, oid uint32, col int, expr string) error {
	e := s.e
	return e.changeDef(ctx, oid, func(*relation) (*catalog.Table, error) { return e.cat.SetColumnDefault(oid, col, expr) })
}

// sequenceByArg resolves the text argument of a sequence function: 42P01
// if no relation has the name, 42809 if it is not a sequence.
func (s *Session) sequenceByArg(arg string) (*catalog.Sequence, error) {
	name, ok := sql.SeqName(arg)
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", arg)
	}
	q, ok := s.e.cat.Sequence(name)
	if !ok {
		if _, isTable := s.e.cat.Table(name); isTable {
			return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", name)
		}
		if _, _, isIndex := s.e.cat.IndexByName(name); isIndex {
			return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", name)
		}
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", name)
	}
	return q, nil
}

// nextval is PostgreSQL's nextval: from the session's cache when CACHE > 1
// left values in it, else from the catalog.
func (s *Session) nextval(arg string) (int64, error) {
	q, err := s.sequenceByArg(arg)
	if err != nil {
		return 0, err
	}
	if err := s.checkReadOnly("nextval()"); err != nil {
		return 0, err
	}
	c := s.seqCacheFor(q.OID)
	s.lastSeq = q.OID
	if c.valid && c.last != c.cached {
		c.last += c.incr
		return c.last, nil
	}
	first, last, err := s.e.cat.NextVal(q.OID)
	if err != nil {
		return 0, err
	}
	c.last, c.cached, c.incr, c.valid = first, last, q.Increment, true
	return first, nil
}

func (s *Session) currval(arg string) (int64, error) {
	q, err := s.sequenceByArg(arg)
	if err != nil {
		return 0, err
	}
	c := s.seqs[q.OID]
	if c == nil || !c.valid {
		return 0, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "currval of sequence \"%s\" is not yet defined in this session", q.Name)
	}
	return c.last, nil
}

func (s *Session) lastval() (int64, error) {
	if s.lastSeq == 0 {
		return 0, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "lastval is not yet defined in this session")
	}
	if _, ok := s.e.cat.SequenceByOID(s.lastSeq); !ok {
		return 0, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "lastval is not yet defined in this session")
	}
	c := s.seqs[s.lastSeq]
	if c == nil || !c.valid {
		return 0, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "lastval is not yet defined in this session")
	}
	return c.last, nil
}

// setval sets the sequence's state; with isCalled the session's currval
// becomes v. The session's cached values are forgotten, as in PostgreSQL.
func (s *Session) setval(arg string, v int64, isCalled bool) (int64, error) {
	q, err := s.sequenceByArg(arg)
	if err != nil {
		return 0, err
	}
	if err := s.checkReadOnly("setval()"); err != nil {
		return 0, err
	}
	if err := s.e.cat.SetVal(q.OID, v, isCalled); err != nil {
		return 0, err
	}
	c := s.seqCacheFor(q.OID)
	if isCalled {
		c.last, c.valid, c.incr = v, true, q.Increment
	}
	c.cached = c.last
	return v, nil
}

// callSequenceFunc evaluates nextval/currval/setval/lastval; handled
// reports whether f is one of them.
func (c *evalCtx) callSequenceFunc(f *sql.Func, args []types.Datum) (v types.Datum, handled bool, err error) {
	var n int64
	switch f.Name {
	case "nextval":
		n, err = c.s.nextval(args[0].(string))
	case "currval":
		n, err = c.s.currval(args[0].(string))
	case "lastval":
		n, err = c.s.lastval()
	case "setval":
		called := true
		if len(args) == 3 {
			called = args[2].(bool)
		}
		n, err = c.s.setval(args[0].(string), args[1].(int64), called)
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	return n, true, nil
}

// serialSequences names the sequences of def's serial columns as
// PostgreSQL does (table_column_seq, made unique with a number), sets each
// column's default to nextval of it and returns their definitions, AS the
// column's type.
func serialSequences(cat catalogStore, def *catalog.Table, serials []int) []catalog.Sequence {
	var out []catalog.Sequence
	taken := map[string]bool{}
	for _, c := range serials {
		col := &def.Columns[c]
		name := cat.ChooseRelationName(def.Name, col.Name, "seq")
		for pass := 1; taken[name] || name == def.Name; pass++ {
			name = catalog.MakeObjectName(def.Name, col.Name, "seq"+strconv.Itoa(pass))
		}
		taken[name] = true
		ref := name
		if strings.ToLower(name) != name || strings.ContainsAny(name, ".\" ") {
			ref = `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
		}
		col.Default = "nextval('" + strings.ReplaceAll(ref, "'", "''") + "'::regclass)"
		_, hi := catalog.SeqTypeBounds(col.TypeOID)
		out = append(out, catalog.Sequence{Name: name, TypeOID: col.TypeOID, Increment: 1, MinValue: 1, MaxValue: hi,
			Start: 1, Cache: 1, OwnedByColumn: int16(c + 1)})
	}
	return out
}

// alterNotNull runs ALTER COLUMN ... SET NOT NULL (after checking that no
// row has a NULL there, waiting for transactions still writing the table)
// or DROP NOT NULL (refused for a primary key column, 42P16).
func (s *Session) alterNotNull(ctx context.Context, st *sql.AlterNotNull) (string, error) {
	if err := s.underTableLock(ctx, st.Table.OID, func() (uint32, error) { return s.alterNotNullLocked(ctx, st) }); err != nil {
		return "", err
	}
	return "ALTER TABLE", nil
}

// underTableLock runs locked under table oid's exclusive lock. When locked
// returns a transaction to wait for (a writer of the table still running,
// whose rows decide the outcome), the lock is released, the transaction
// waited for, and locked run again.
func (s *Session) underTableLock(ctx context.Context, oid uint32, locked func() (uint32, error)) error {
	for {
		release, err := s.e.txns.LockRelation(ctx, oid, true)
		if err != nil {
			return mapCtxErr(ctx, err)
		}
		wait, err := locked()
		release()
		if err != nil || wait == 0 {
			return err
		}
		if err := s.ensureTx().WaitFor(ctx, wait); err != nil {
			return mapCtxErr(ctx, err)
		}
	}
}

// someRow reports whether a row of r that the transaction sees satisfies
// where (all rows for nil), after the transactions still writing r end:
// wait is then one of them, to wait for with the table's lock released.
func (s *Session) someRow(ctx context.Context, r *relation, where sql.Expr) (found bool, wait uint32, err error) {
	if wait, err := s.runningWriter(ctx, r); err != nil || wait != 0 {
		return false, wait, err
	}
	x := &execCtx{ctx: ctx, s: s, tx: s.ensureTx(), rel: r}
	x.ev = &evalCtx{s: s, x: x}
	x.xid = x.tx.XidIfAssigned()
	x.cid = x.tx.UseCommandID()
	src, err := x.relCtx(r).source(where)
	if err != nil {
		return false, 0, err
	}
	defer src.Close()
	_, found, err = src.Next(ctx)
	return found, 0, err
}

func (s *Session) alterNotNullLocked(ctx context.Context, st *sql.AlterNotNull) (uint32, error) {
	e := s.e
	r, err := e.rel(st.Table.OID)
	if err != nil {
		return 0, err
	}
	t := r.def
	name := t.Columns[st.Col].Name
	if !st.Set {
		if pk, ok := t.PrimaryKey(); ok && slices.Contains(pk.Columns, int16(st.Col+1)) {
			return 0, pgerr.New(pgerr.InvalidTableDefinition, "column \"%s\" is in a primary key", name)
		}
	} else if !t.Columns[st.Col].NotNull {
		found, wait, err := s.someRow(ctx, r, &sql.IsNull{X: &sql.ColRef{Idx: st.Col, T: r.types[st.Col], Name: name}})
		if err != nil || wait != 0 {
			return wait, err
		}
		if found {
			return 0, pgerr.New(pgerr.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", name, t.Name).
				WithTable(publicSchema, t.Name).WithColumn(name)
		}
	}
	nt, err := e.cat.SetColumnNotNull(t.OID, st.Col, st.Set)
	if err != nil {
		return 0, err
	}
	nr := *r
	nr.def = nt
	e.replaceRel(&nr)
	return 0, nil
}

// seqCacheFor returns the session's cache of sequence oid, making it.
func (s *Session) seqCacheFor(oid uint32) *seqCache {
	if s.seqs == nil {
		s.seqs = map[uint32]*seqCache{}
	}
	c := s.seqs[oid]
	if c == nil {
		c = &seqCache{}
		s.seqs[oid] = c
	}
	return c
}

// alterSequence stores ALTER SEQUENCE's parameters, resolving OWNED BY as
// CREATE SEQUENCE does.
func (s *Session) alterSequence(st *sql.AlterSequence) (string, error) {
	e := s.e
	if st.Missing != "" {
		s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, "relation \"%s\" does not exist, skipping", st.Missing)
		return "ALTER SEQUENCE", nil
	}
	def := st.Def
	if st.OwnedBy != nil {
		def.OwnedByTable, def.OwnedByColumn = 0, 0 // OWNED BY NONE
		if len(st.OwnedBy) == 2 {
			var err error
			if def.OwnedByTable, def.OwnedByColumn, err = e.ownedBy(st.OwnedBy); err != nil {
				return "", err
			}
		}
	}
	old, ok := e.cat.SequenceByOID(st.OID)
	if !ok {
		return "", pgerr.New(pgerr.UndefinedTable, "could not open relation with OID %d", st.OID)
	}
	last, called, err := e.cat.SequenceState(st.OID)
	if err != nil {
		return "", err
	}
	if err := e.cat.AlterSequence(st.OID, def, st.Restart); err != nil {
		return "", err
	}
	// An abort puts the parameters and the state back, as PostgreSQL's
	// ALTER SEQUENCE is transactional.
	s.ensureTx()
	s.ddl = append(s.ddl, ddlChange{kind: alteredSequence, oid: st.OID, name: old.Name,
		seq: &seqBefore{def: *old, last: last, called: called}})
	if c, ok := s.seqs[st.OID]; ok {
		c.cached = c.last // the values cached under the old parameters are given up; currval stays
	}
	return "ALTER SEQUENCE", nil
}

// ownedBy resolves OWNED BY table.column to the table's OID and the
// column's number.
func (e *Engine) ownedBy(tc []string) (uint32, int16, error) {
	t, ok := e.cat.Table(tc[0])
	if !ok {
		return 0, 0, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", tc[0])
	}
	c := t.ColumnIndex(tc[1])
	if c < 0 {
		return 0, 0, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", tc[1], t.Name)
	}
	return t.OID, int16(c + 1), nil
}

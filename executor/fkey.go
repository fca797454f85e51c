package executor

// Foreign keys: resolution and validation when added (CREATE TABLE, ALTER
// TABLE ... ADD FOREIGN KEY), and enforcement on both sides.
//
// Referencing side (INSERT, COPY, an UPDATE that changes the key): the
// referenced row is looked up with a fresh snapshot through the referenced
// table's unique index (the plan chooses it: one index probe per row) and
// locked, as PostgreSQL's RI trigger runs SELECT ... FOR KEY SHARE. minipg
// has only FOR UPDATE row locks, so the lock taken is FOR UPDATE: it keeps a
// concurrent DELETE (or key UPDATE) of the referenced row from committing
// before the referencing transaction ends, as in PostgreSQL, but it also
// makes two transactions that reference the same row, or that reference a
// row another one updates, wait for each other where PostgreSQL's KEY SHARE
// lets them run.
//
// Referenced side (DELETE, an UPDATE that changes the referenced key):
// after each row, the referencing rows are looked up with a fresh snapshot
// (an index of the referencing table whose leading columns are the key is
// used when there is one, else a scan) and, by the action, the statement
// fails (NO ACTION and RESTRICT, 23503), the rows are deleted (CASCADE) or
// their key set to NULL (SET NULL). A referencing row inserted by a
// transaction still running holds the lock above, so the modification of
// the referenced row waited for it. NO ACTION is checked at once per row,
// as RESTRICT, where PostgreSQL checks it at the end of the statement: a
// statement that removes a referenced key and puts it back in the same
// statement fails here.

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/types"
)

// resolveForeignKey checks one FOREIGN KEY of table t (def, not yet stored
// when t is being created; self is true then and a reference to t's own
// name means t) and returns it resolved: PostgreSQL's checks and messages
// from ATAddForeignKeyConstraint and transformFkeyCheckAttrs. taken
// reports constraint names already used on t.
func resolveForeignKey(cat catalogStore, t *catalog.Table, self bool, cmd sql.FKCmd, taken func(string) bool) (catalog.ForeignKey, *catalog.Table, error) {
	var fk catalog.ForeignKey
	var ref *catalog.Table
	if self && cmd.RefTable == t.Name {
		ref = t
	} else {
		r, ok := cat.Table(cmd.RefTable)
		if !ok {
			if _, isSeq := cat.Sequence(cmd.RefTable); isSeq {
				return fk, nil, pgerr.New(pgerr.WrongObjectType, "referenced relation \"%s\" is not a table", cmd.RefTable)
			}
			return fk, nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", cmd.RefTable)
		}
		ref = r
	}
	for _, name := range cmd.Columns {
		c := t.ColumnIndex(name)
		if c < 0 {
			return fk, nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" referenced in foreign key constraint does not exist", name)
		}
		fk.Columns = append(fk.Columns, int16(c+1))
	}
	if cmd.RefColumns == nil {
		pk, ok := ref.PrimaryKey()
		if !ok {
			return fk, nil, pgerr.New(pgerr.InvalidForeignKey, "there is no primary key for referenced table \"%s\"", ref.Name)
		}
		fk.RefColumns = slices.Clone(pk.Columns)
	} else {
		for _, name := range cmd.RefColumns {
			c := ref.ColumnIndex(name)
			if c < 0 {
				return fk, nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" referenced in foreign key constraint does not exist", name)
			}
			fk.RefColumns = append(fk.RefColumns, int16(c+1))
		}
	}
	if cmd.RefColumns != nil && uniqueIndexOn(ref, fk.RefColumns) == nil {
		return fk, nil, pgerr.New(pgerr.InvalidForeignKey, "there is no unique constraint matching given keys for referenced table \"%s\"", ref.Name)
	}
	if len(fk.Columns) != len(fk.RefColumns) {
		return fk, nil, pgerr.New(pgerr.InvalidForeignKey, "number of referencing and referenced columns for foreign key disagree")
	}
	fk.Name = cmd.Name
	if fk.Name == "" {
		var cols []string
		for _, c := range fk.Columns {
			cols = append(cols, t.Columns[c-1].Name)
		}
		name2 := strings.Join(cols, "_")
		fk.Name = catalog.MakeObjectName(t.Name, name2, "fkey")
		for pass := 1; taken(fk.Name); pass++ {
			fk.Name = catalog.MakeObjectName(t.Name, name2, "fkey"+strconv.Itoa(pass))
		}
	} else if taken(fk.Name) {
		return fk, nil, pgerr.New(pgerr.DuplicateObject, "constraint \"%s\" for relation \"%s\" already exists", fk.Name, t.Name)
	}
	if err := fkTypesMatch(t, ref, fk); err != nil {
		return fk, nil, err
	}
	fk.OnDelete, fk.OnUpdate = cmd.OnDelete, cmd.OnUpdate
	if self && ref == t {
		fk.RefTable = 0 // the catalog fills in the new table's OID
	} else {
		fk.RefTable = ref.OID
	}
	return fk, ref, nil
}

// uniqueIndexOn returns a unique index of t whose columns are exactly cols
// in some order.
func uniqueIndexOn(t *catalog.Table, cols []int16) *catalog.Index {
	for i := range t.Indexes {
		idx := &t.Indexes[i]
		if !idx.Unique || len(idx.Columns) != len(cols) {
			continue
		}
		ok := true
		for _, c := range cols {
			ok = ok && slices.Contains(idx.Columns, c)
		}
		if ok {
			return idx
		}
	}
	return nil
}

// keyWhere builds "col1 = v1 AND col2 = v2 ..." over table t's row for
// columns cols (1-based) and values vals, each converted to its column's
// type.
func keyWhere(t *catalog.Table, cols []int16, vals []types.Datum, valTypes []types.T) (sql.Expr, error) {
	var conj []sql.Expr
	for i, c := range cols {
		ct := types.T{OID: types.OID(t.Columns[c-1].TypeOID), Typmod: t.Columns[c-1].Typmod}
		v := vals[i]
		if valTypes[i].OID != ct.OID {
			var err error
			base := types.T{OID: ct.OID, Typmod: -1}
			if v, err = types.Coerce(v, valTypes[i], base, true); err != nil {
				return nil, err
			}
			ct = base
		}
		conj = append(conj, &sql.Cmp{Op: "=", L: &sql.ColRef{Idx: int(c - 1), T: ct, Name: t.Columns[c-1].Name}, R: &sql.Const{T: ct, Val: v}, CT: ct})
	}
	if len(conj) == 1 {
		return conj[0], nil
	}
	return &sql.BoolOp{Op: "AND", Args: conj}, nil
}

// keyValues returns row's values of cols (1-based) and their types; null
// reports a NULL among them (MATCH SIMPLE: such a key is not checked).
func keyValues(r *relation, row []types.Datum, cols []int16) (vals []types.Datum, ts []types.T, null bool) {
	for _, c := range cols {
		v := row[c-1]
		null = null || v == nil
		vals = append(vals, v)
		ts = append(ts, r.types[c-1])
	}
	return vals, ts, null
}

// keyChanged reports whether old and new differ in any of cols.
func keyChanged(r *relation, old, new []types.Datum, cols []int16) bool {
	for _, c := range cols {
		a, b := old[c-1], new[c-1]
		if (a == nil) != (b == nil) {
			return true
		}
		if a != nil && types.Compare(r.types[c-1], a, b) != 0 {
			return true
		}
	}
	return false
}

// keyDetail renders "(a, b)=(1, 2)" for an error's DETAIL.
func keyDetail(t *catalog.Table, cols []int16, vals []types.Datum, ts []types.T) string {
	var ns, vs []string
	for i, c := range cols {
		ns = append(ns, t.Columns[c-1].Name)
		if vals[i] == nil {
			vs = append(vs, "null")
		} else {
			vs = append(vs, types.FormatText(ts[i], vals[i]))
		}
	}
	return "(" + strings.Join(ns, ", ") + ")=(" + strings.Join(vs, ", ") + ")"
}

// relCtx returns a copy of x working on relation r with a fresh snapshot
// (the referential checks see what has committed by now, as PostgreSQL's
// RI queries in READ COMMITTED) that also sees the changes of the current
// command, as PostgreSQL's RI triggers, queued to the end of the statement,
// see all of them.
func (x *execCtx) relCtx(r *relation) *execCtx {
	cx := *x
	cx.rel = r
	cx.need, cx.reuseRows, cx.needOwner = nil, false, nil
	cx.emitReturning = nil
	snap := x.tx.Snapshot()
	snap.CurXid, snap.CurCid = x.xid, x.cid+1
	snap.Usage = &x.s.bufUsage
	cx.snap = snap
	return &cx
}

// fkTypesMatch checks that foreign key fk of table t can compare its
// columns with those of ref (42804 otherwise, PostgreSQL's message):
// the same type, or two of the numeric or of the string category.
func fkTypesMatch(t, ref *catalog.Table, fk catalog.ForeignKey) error {
	for i := range fk.Columns {
		a, b := t.Columns[fk.Columns[i]-1], ref.Columns[fk.RefColumns[i]-1]
		at, bt := types.T{OID: types.OID(a.TypeOID), Typmod: -1}, types.T{OID: types.OID(b.TypeOID), Typmod: -1}
		if at.OID != bt.OID && (at.Category() != bt.Category() || (at.Category() != 'N' && at.Category() != 'S')) {
			return pgerr.New(pgerr.DatatypeMismatch, "foreign key constraint \"%s\" cannot be implemented", fk.Name).
				WithDetail("Key columns \"%s\" and \"%s\" are of incompatible types: %s and %s.", a.Name, b.Name, at.Name(), bt.Name())
		}
	}
	return nil
}

// checkReferencing enforces row's foreign keys (r is the referencing
// table): each non-NULL key must match a row of the referenced table,
// which is then locked. old is the previous version for an UPDATE (keys it
// leaves unchanged are not checked), nil for INSERT.
func (x *execCtx) checkReferencing(r *relation, row, old []types.Datum) error {
	for _, fk := range r.def.ForeignKeys {
		if old != nil && !keyChanged(r, old, row, fk.Columns) {
			continue
		}
		vals, ts, null := keyValues(r, row, fk.Columns)
		if null {
			continue
		}
		if err := x.lockReferenced(r, fk, vals, ts); err != nil {
			return err
		}
	}
	return nil
}

// lockReferenced finds and locks the row of fk's referenced table with key
// vals: 23503 if there is none.
func (x *execCtx) lockReferenced(r *relation, fk catalog.ForeignKey, vals []types.Datum, ts []types.T) error {
	pr, err := x.s.e.rel(fk.RefTable)
	if err != nil {
		return err
	}
	where, err := keyWhere(pr.def, fk.RefColumns, vals, ts)
	if err != nil {
		return err
	}
	for {
		found, retry, err := x.lockReferencedOnce(pr, where)
		if err != nil {
			return err
		}
		if found {
			return nil
		}
		if !retry {
			break
		}
	}
	return pgerr.New(pgerr.ForeignKeyViolation, "insert or update on table \"%s\" violates foreign key constraint \"%s\"", r.def.Name, fk.Name).
		WithDetail("Key %s is not present in table \"%s\".", keyDetail(r.def, fk.Columns, vals, ts), pr.def.Name).
		WithTable(publicSchema, r.def.Name).WithConstraint(fk.Name)
}

// lockReferencedOnce looks the referenced row up with a fresh snapshot and
// locks it. retry means it changed meanwhile (updated, deleted, or a
// running transaction had to be waited for): look again.
func (x *execCtx) lockReferencedOnce(pr *relation, where sql.Expr) (found, retry bool, err error) {
	px := x.relCtx(pr)
	src, err := px.source(where)
	if err != nil {
		return false, false, err
	}
	defer src.Close()
	prow, ok, err := src.Next(x.ctx)
	if err != nil || !ok {
		return false, false, err
	}
	tid := prow[len(pr.types)].(page.TID)
	res, fd, err := pr.heap.Lock(px.snap, tid, x.xid, x.cid)
	if err != nil {
		return false, false, err
	}
	switch res {
	case heap.TMOk, heap.TMInvisible, heap.TMSelfModified:
		// Locked, or made by this transaction: no other one can remove it
		// before this one ends.
		return true, false, nil
	case heap.TMBeingModified:
		if err := x.tx.WaitFor(x.ctx, fd.Xmax); err != nil {
			return false, false, mapCtxErr(x.ctx, err)
		}
	}
	return false, true, nil
}

// fkRef is a foreign key of table child that references some table.
type fkRef struct {
	child uint32
	fk    catalog.ForeignKey
}

// fkRefCache maps each table to the foreign keys that reference it, as of
// one catalog version.
type fkRefCache struct {
	mu      sync.Mutex // guards the fields below
	version uint64
	valid   bool
	byRef   map[uint32][]fkRef
}

// referencing returns the foreign keys that reference table oid.
func (e *Engine) referencing(oid uint32) []fkRef {
	c := &e.fkRefs
	v := e.cat.Version()
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.valid || c.version != v {
		c.byRef = map[uint32][]fkRef{}
		for _, t := range e.cat.Tables() {
			if t.Dropping != nil {
				continue // dropped, its transaction not ended: its keys no longer bind
			}
			for _, fk := range t.ForeignKeys {
				c.byRef[fk.RefTable] = append(c.byRef[fk.RefTable], fkRef{child: t.OID, fk: fk})
			}
		}
		c.version, c.valid = v, true
	}
	return c.byRef[oid]
}

// checkReferenced applies the foreign keys that reference r to old, a row
// just deleted (new == nil) or updated to new: NO ACTION/RESTRICT fail if
// a referencing row still has old's key, CASCADE deletes those rows (or
// gives them the new key), SET NULL clears their key.
func (x *execCtx) checkReferenced(r *relation, refs []fkRef, old, new []types.Datum) error {
	for _, ref := range refs {
		fk := ref.fk
		if new != nil && !keyChanged(r, old, new, fk.RefColumns) {
			continue
		}
		vals, ts, null := keyValues(r, old, fk.RefColumns)
		if null {
			continue
		}
		cr, err := x.s.e.rel(ref.child)
		if err != nil {
			return err
		}
		where, err := keyWhere(cr.def, fk.Columns, vals, ts)
		if err != nil {
			return err
		}
		cx := x.relCtx(cr)
		action := fk.OnDelete
		if new != nil {
			action = fk.OnUpdate
		}
		switch action {
		case catalog.FKCascade:
			if new == nil {
				_, err = cx.delete(&sql.Delete{Table: cr.def, Where: where})
			} else {
				var set []sql.SetItem
				for i, c := range fk.Columns {
					ct := cr.types[c-1]
					v := new[fk.RefColumns[i]-1]
					if rt := r.types[fk.RefColumns[i]-1]; rt.OID != ct.OID {
						if v, err = types.Coerce(v, rt, ct, true); err != nil {
							return err
						}
					}
					set = append(set, sql.SetItem{Col: int(c - 1), E: &sql.Const{T: ct, Val: v}})
				}
				_, err = cx.update(&sql.Update{Table: cr.def, Where: where, Set: set})
			}
			if err != nil {
				return err
			}
			continue
		case catalog.FKSetNull:
			var set []sql.SetItem
			for _, c := range fk.Columns {
				set = append(set, sql.SetItem{Col: int(c - 1), E: &sql.Const{T: cr.types[c-1]}})
			}
			if _, err := cx.update(&sql.Update{Table: cr.def, Where: where, Set: set}); err != nil {
				return err
			}
			continue
		}
		src, err := cx.source(where)
		if err != nil {
			return err
		}
		_, found, err := src.Next(x.ctx)
		src.Close()
		if err != nil {
			return err
		}
		if found {
			return pgerr.New(pgerr.ForeignKeyViolation, "update or delete on table \"%s\" violates foreign key constraint \"%s\" on table \"%s\"", r.def.Name, fk.Name, cr.def.Name).
				WithDetail("Key %s is still referenced from table \"%s\".", keyDetail(r.def, fk.RefColumns, vals, ts), cr.def.Name).
				WithTable(publicSchema, cr.def.Name).WithConstraint(fk.Name)
		}
	}
	return nil
}

// validateForeignKey checks every row of the referencing table r against
// fk, as ALTER TABLE ... ADD FOREIGN KEY does: the first row without a
// match is 23503. The caller holds both tables' locks exclusively, so no
// row lock is needed.
func (x *execCtx) validateForeignKey(r *relation, fk catalog.ForeignKey) error {
	pr, err := x.s.e.rel(fk.RefTable)
	if err != nil {
		return err
	}
	if fk.RefTable == r.def.OID {
		pr = r
	}
	return x.validateForeignKeyIn(r, pr, fk)
}

// validateForeignKeyIn is validateForeignKey with the referenced table's
// relation given: one not published yet (a table being rewritten).
func (x *execCtx) validateForeignKeyIn(r, pr *relation, fk catalog.ForeignKey) error {
	cx := x.relCtx(r)
	src, err := cx.source(nil)
	if err != nil {
		return err
	}
	defer src.Close()
	px := x.relCtx(pr)
	n := 0
	for {
		row, ok, err := src.Next(x.ctx)
		if err != nil || !ok {
			return err
		}
		vals, ts, null := keyValues(r, row, fk.Columns)
		if null {
			continue
		}
		where, err := keyWhere(pr.def, fk.RefColumns, vals, ts)
		if err != nil {
			return err
		}
		psrc, err := px.source(where)
		if err != nil {
			return err
		}
		_, found, err := psrc.Next(x.ctx)
		psrc.Close()
		if err != nil {
			return err
		}
		if !found {
			return pgerr.New(pgerr.ForeignKeyViolation, "insert or update on table \"%s\" violates foreign key constraint \"%s\"", r.def.Name, fk.Name).
				WithDetail("Key %s is not present in table \"%s\".", keyDetail(r.def, fk.Columns, vals, ts), pr.def.Name).
				WithTable(publicSchema, r.def.Name).WithConstraint(fk.Name)
		}
		if n++; n%checkEvery == 0 {
			if err := canceled(x.ctx); err != nil {
				return err
			}
		}
	}
}

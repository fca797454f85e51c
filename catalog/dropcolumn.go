package catalog

import (
	"encoding/json"
	"fmt"
	"slices"

	"minipg/pgerr"
)

// ALTER TABLE ... DROP COLUMN, as PostgreSQL does it: the column is not
// removed from Table.Columns but marked Dropped (attisdropped), renamed
// "........pg.dropped.N........" and stripped of what only a live column
// has (NOT NULL, DEFAULT, missing value), so that attribute
// numbers, and the stored tuples' layout, stay as they were. Its type and
// typmod are kept: they give the attribute's length and alignment, which
// PostgreSQL keeps in attlen and attalign (pg_attribute shows atttypid 0).

// DroppedColumnName is the name PostgreSQL gives dropped attribute attnum.
func DroppedColumnName(attnum int) string {
	return fmt.Sprintf("........pg.dropped.%d........", attnum)
}

// DropColumns drops columns cols (0-based) of table tableOID in one synced
// batch, with what cannot outlive them, as PostgreSQL's dependencies of
// kind "auto" and "internal" take them along: the table's indexes that
// have one of them as a key column (a PRIMARY KEY or UNIQUE constraint
// with its index), its foreign keys over one of them, its CHECK
// constraints named in checks (the caller knows which read the columns),
// the sequences owned by one of them, and the columns' comments.
//
// What depends on the columns from outside the table must be gone first
// (the caller drops it, or refuses without CASCADE): 2BP01 if another
// table's foreign key still references one of them. 42703 for a column
// already dropped or out of range. Returns the updated table and the
// indexes removed (the caller removes their files).
func (c *Catalog) DropColumns(tableOID uint32, cols []int, checks []string) (*Table, []Index, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	old, err := c.tableLocked(tableOID)
	if err != nil {
		return nil, nil, err
	}
	t := old.Clone()
	attnums := make([]int16, 0, len(cols))
	for _, col := range cols {
		if col < 0 || col >= len(t.Columns) || t.Columns[col].Dropped {
			return nil, nil, pgerr.New(pgerr.UndefinedColumn, "column number %d of relation \"%s\" does not exist", col+1, t.Name)
		}
		attnums = append(attnums, int16(col+1))
	}
	uses := func(keys []int16) bool {
		return slices.ContainsFunc(keys, func(a int16) bool { return slices.Contains(attnums, a) })
	}
	for _, other := range c.mu.byOID {
		for _, fk := range other.ForeignKeys {
			if fk.RefTable == tableOID && other.OID != tableOID && uses(fk.RefColumns) {
				return nil, nil, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop a column of table %s: constraint %s on table %s depends on it", t.Name, fk.Name, other.Name)
			}
		}
	}
	var removed []Index
	t.Indexes = slices.DeleteFunc(t.Indexes, func(idx Index) bool {
		if uses(idx.Columns) {
			removed = append(removed, idx)
			return true
		}
		return false
	})
	t.ForeignKeys = slices.DeleteFunc(t.ForeignKeys, func(fk ForeignKey) bool {
		return uses(fk.Columns) || fk.RefTable == tableOID && uses(fk.RefColumns)
	})
	for _, name := range checks {
		i := slices.IndexFunc(t.Checks, func(ck Check) bool { return ck.Name == name })
		if i < 0 {
			return nil, nil, pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" of relation \"%s\" does not exist", name, t.Name)
		}
		t.Checks = slices.Delete(t.Checks, i, i+1)
	}
	for _, a := range attnums {
		col := &t.Columns[a-1]
		// attidentity stays, as RemoveAttributeById leaves it.
		*col = Column{Name: DroppedColumnName(int(a)), TypeOID: col.TypeOID, Typmod: col.Typmod, Identity: col.Identity, Dropped: true}
	}
	var seqs []*seqState
	var seqDel []uint32
	for _, st := range c.ownedSequencesLocked(tableOID) {
		if slices.Contains(attnums, st.def.OwnedByColumn) {
			seqs = append(seqs, st)
			seqDel = append(seqDel, st.def.OID)
		}
	}
	var comments []commentKey
	for k := range c.mu.comments {
		if k.obj == tableOID && k.class == PgClassOID && slices.Contains(attnums, int16(k.sub)) {
			comments = append(comments, k)
		}
	}

	b := c.db.NewBatch()
	defer b.Close()
	v, err := json.Marshal(t)
	if err != nil {
		return nil, nil, pgerr.Wrapf(err, pgerr.InternalError, "could not encode table %q", t.Name)
	}
	if err := b.Set(tableKey(t.OID), v, nil); err != nil {
		return nil, nil, pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
	}
	if err := putSeqs(b, nil, seqDel); err != nil {
		return nil, nil, err
	}
	for _, k := range comments {
		if err := b.Delete(k.bytes(), nil); err != nil {
			return nil, nil, pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
		}
	}
	if err := c.commit(b); err != nil {
		return nil, nil, pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
	}
	for _, st := range seqs {
		c.dropSeqLocked(st)
	}
	c.mu.Lock()
	for _, k := range comments {
		delete(c.mu.comments, k)
	}
	c.mu.Unlock()
	c.replace(old, t)
	return t, removed, nil
}

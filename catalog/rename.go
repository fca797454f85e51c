package catalog

import (
	"minipg/pgerr"
)

// Renames (ALTER ... RENAME). Relations are found by OID elsewhere, so a
// rename changes only the name: 42P07 if another relation has the new
// one.

// RenameTable gives table tableOID a new name.
func (c *Catalog) RenameTable(tableOID uint32, name string) (*Table, error) {
	return c.updateTable(tableOID, func(t *Table) error {
		if c.relationExistsLocked(name) {
			return errRelationExists(name)
		}
		t.Name = name
		return nil
	})
}

// RenameIndex gives index old of table tableOID a new name (a PRIMARY KEY
// or UNIQUE constraint's name with it: they share it).
func (c *Catalog) RenameIndex(tableOID uint32, old, name string) (*Table, error) {
	return c.updateTable(tableOID, func(t *Table) error {
		if c.relationExistsLocked(name) {
			return errRelationExists(name)
		}
		for i := range t.Indexes {
			if t.Indexes[i].Name == old {
				t.Indexes[i].Name = name
				return nil
			}
		}
		return pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", old)
	})
}

// RenameColumn renames column col (0-based) of table tableOID. 42701 if
// another column has the name.
func (c *Catalog) RenameColumn(tableOID uint32, col int, name string) (*Table, error) {
	return c.updateTable(tableOID, func(t *Table) error {
		if t.nameTaken(name) {
			return pgerr.New(pgerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", name, t.Name)
		}
		if col < 0 || col >= len(t.Columns) {
			return pgerr.New(pgerr.UndefinedColumn, "column number %d of relation \"%s\" does not exist", col+1, t.Name)
		}
		t.Columns[col].Name = name
		return nil
	})
}

// RenameSequence gives sequence oid a new name. Its state is stored as
// it is now (the values logged ahead are given up, as a setval would), so
// the lock order stays seqState.mu, then ddlMu.
func (c *Catalog) RenameSequence(oid uint32, name string) error {
	st, err := c.seqState(oid)
	if err != nil {
		return err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return err
	}
	if st.dropped {
		return errNoTable(oid)
	}
	if c.relationExistsLocked(name) {
		return errRelationExists(name)
	}
	def := *st.def
	def.Name, def.LastValue, def.IsCalled = name, st.last, st.called
	if err := c.writeBatchLocked(c.mu.nextOID, nil, nil, []*Sequence{&def}, nil); err != nil {
		return err
	}
	st.logCnt = 0
	renamed := *st.def
	renamed.Name = name
	c.mu.Lock()
	delete(c.mu.seqs, st.def.Name)
	st.def = &renamed
	c.mu.seqs[name] = st
	c.mu.version++
	c.mu.Unlock()
	return nil
}

package catalog

import (
	"encoding/json"

	"minipg/pgerr"
)

// Check verifies the catalog's invariants against its in-memory copy and the
// store: every stored table is cached and equal; names are unique across
// tables and indexes; OIDs are unique and below the OID counter; index
// columns exist; at most one primary key per table, unique, over NOT NULL
// columns; constraint indexes unique; the relfilenodes of disk indexes
// distinct and below the OID counter. It returns a DataCorrupted error describing the first violation.
func (c *Catalog) Check() error {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return err
	}
	stored, err := c.readTablesLocked()
	if err != nil {
		return err
	}
	if len(stored) != len(c.mu.byOID) {
		return corrupt("%d tables stored, %d cached", len(stored), len(c.mu.byOID))
	}
	oids := map[uint32]string{}
	names := map[string]bool{}
	claim := func(oid uint32, name string) error {
		if oid < FirstNormalObjectID || oid >= c.mu.nextOID {
			return corrupt("relation %q has OID %d outside [%d, %d)", name, oid, FirstNormalObjectID, c.mu.nextOID)
		}
		if other, ok := oids[oid]; ok {
			return corrupt("OID %d used by %q and %q", oid, other, name)
		}
		if names[name] {
			return corrupt("relation name %q used twice", name)
		}
		oids[oid], names[name] = name, true
		return nil
	}
	// The files of disk indexes: each relfilenode below the OID counter
	// and owned by one index.
	files := map[uint32]string{}
	for _, t := range c.mu.byOID {
		for _, idx := range t.Indexes {
			if !idx.OnDisk() {
				continue
			}
			if idx.RelFileNode >= c.mu.nextOID {
				return corrupt("index %q has relfilenode %d past the OID counter %d", idx.Name, idx.RelFileNode, c.mu.nextOID)
			}
			if other, ok := files[idx.RelFileNode]; ok {
				return corrupt("relfilenode %d used by indexes %q and %q", idx.RelFileNode, other, idx.Name)
			}
			files[idx.RelFileNode] = idx.Name
		}
	}
	for oid, t := range c.mu.byOID {
		if s, ok := stored[oid]; !ok || !sameEncoding(s, t) {
			return corrupt("cached table %q differs from the stored one", t.Name)
		}
		if c.mu.byName[t.Name] != t {
			return corrupt("table %q missing from the name map", t.Name)
		}
		if err := claim(t.OID, t.Name); err != nil {
			return err
		}
		primaries := 0
		for _, idx := range t.Indexes {
			if err := claim(idx.OID, idx.Name); err != nil {
				return err
			}
			if c.mu.indexes[idx.Name] != t.OID {
				return corrupt("index %q missing from the index map", idx.Name)
			}
			for _, a := range idx.Columns {
				if a < 1 || int(a) > len(t.Columns) {
					return corrupt("index %q has column %d; table %q has %d", idx.Name, a, t.Name, len(t.Columns))
				}
				if t.Columns[a-1].Dropped {
					return corrupt("index %q has dropped column %d of %q", idx.Name, a, t.Name)
				}
				if idx.Primary && !t.Columns[a-1].NotNull {
					return corrupt("primary key column %q of %q is nullable", t.Columns[a-1].Name, t.Name)
				}
			}
			if idx.Constraint && !idx.Unique {
				return corrupt("constraint index %q is not unique", idx.Name)
			}
			if idx.Primary {
				primaries++
				if !idx.Unique {
					return corrupt("primary key %q is not unique", idx.Name)
				}
			}
		}
		for _, fk := range t.ForeignKeys {
			ref, ok := c.mu.byOID[fk.RefTable]
			if !ok {
				return corrupt("foreign key %q of %q references missing table %d", fk.Name, t.Name, fk.RefTable)
			}
			if len(fk.Columns) == 0 || len(fk.Columns) != len(fk.RefColumns) {
				return corrupt("foreign key %q of %q has %d columns referencing %d", fk.Name, t.Name, len(fk.Columns), len(fk.RefColumns))
			}
			for i := range fk.Columns {
				if fk.Columns[i] < 1 || int(fk.Columns[i]) > len(t.Columns) || fk.RefColumns[i] < 1 || int(fk.RefColumns[i]) > len(ref.Columns) {
					return corrupt("foreign key %q of %q has a column out of range", fk.Name, t.Name)
				}
				if t.Columns[fk.Columns[i]-1].Dropped || ref.Columns[fk.RefColumns[i]-1].Dropped {
					return corrupt("foreign key %q of %q has a dropped column", fk.Name, t.Name)
				}
			}
		}
		for i, col := range t.Columns {
			if col.Dropped && (col.Name != DroppedColumnName(i+1) || col.NotNull || col.Default != "" || col.Missing != nil) {
				return corrupt("dropped column %d of %q is %+v", i+1, t.Name, col)
			}
		}
		if primaries > 1 {
			return corrupt("table %q has %d primary keys", t.Name, primaries)
		}
	}
	if err := c.checkSequencesLocked(claim); err != nil {
		return err
	}
	if len(names) != len(c.mu.byName)+len(c.mu.indexes)+len(c.mu.seqs) {
		return corrupt("name maps hold %d tables and %d indexes, %d relations found",
			len(c.mu.byName), len(c.mu.indexes), len(names))
	}
	return nil
}

// readTablesLocked reads every stored table definition. Caller holds ddlMu.
func (c *Catalog) readTablesLocked() (map[uint32]*Table, error) {
	iter, err := c.db.NewIter(nil)
	if err != nil {
		return nil, pgerr.Wrapf(err, pgerr.IOError, "could not read catalog")
	}
	defer iter.Close()
	out := map[uint32]*Table{}
	for iter.SeekGE([]byte(tablePrefix)); iter.Valid() && string(iter.Key()) < tablePrefixEnd; iter.Next() {
		t, err := decodeTable(iter.Key(), iter.Value())
		if err != nil {
			return nil, err
		}
		out[t.OID] = t
	}
	return out, nil
}

// sameEncoding reports whether a and b are stored alike (their JSON).
func sameEncoding(a, b *Table) bool {
	ea, err1 := json.Marshal(a)
	eb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ea) == string(eb)
}

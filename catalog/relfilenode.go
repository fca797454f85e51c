package catalog

// Relation files: the relfilenodes of tables and of indexes kept on disk.

import "minipg/pgerr"

// NewRelFileNode gives table tableOID a new relfilenode (a fresh OID), as
// TRUNCATE does in PostgreSQL, in one synced batch, and returns the updated
// table. indexes maps the OID of each of the table's indexes kept on disk
// to its new relfilenode (reserved with AllocOID, its file already made);
// an index it does not name keeps its file. The caller creates the new
// heap file and removes the old ones; a crash in between leaves one of them
// an orphan, which start-up removes.
func (c *Catalog) NewRelFileNode(tableOID uint32, indexes map[uint32]uint32) (*Table, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	old, err := c.tableLocked(tableOID)
	if err != nil {
		return nil, err
	}
	t := old.Clone()
	t.RelFileNode = c.mu.nextOID
	for i := range t.Indexes {
		if rfn, ok := indexes[t.Indexes[i].OID]; ok {
			if !t.Indexes[i].OnDisk() || rfn == 0 {
				return nil, pgerr.New(pgerr.InternalError, "catalog: index \"%s\" is not kept on disk", t.Indexes[i].Name)
			}
			t.Indexes[i].RelFileNode = rfn
		}
	}
	if err := c.writeLocked(t.RelFileNode+1, []*Table{t}, nil); err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.mu.nextOID = t.RelFileNode + 1
	c.unpublishLocked(old)
	c.publishLocked(t)
	c.mu.version++
	c.mu.Unlock()
	return t, nil
}

// AllocOID reserves a fresh OID, durably (one synced write of the OID
// counter), for a relation file made before the catalog entry that will
// own it (an index built on disk): a crash in between leaves the file
// without an owner, which start-up removes.
func (c *Catalog) AllocOID() (uint32, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return 0, err
	}
	oid := c.mu.nextOID
	if err := c.writeLocked(oid+1, nil, nil); err != nil {
		return 0, err
	}
	c.mu.Lock()
	c.mu.nextOID = oid + 1
	c.mu.Unlock()
	return oid, nil
}

package catalog

import "minipg/pgerr"

// ColumnType is a column's new type (ALTER TABLE ... ALTER COLUMN ...
// TYPE).
type ColumnType struct {
	Col     int // 0-based
	TypeOID uint32
	Typmod  int32
	// Default is the column's DEFAULT text after the change ("" for
	// none): PostgreSQL keeps the old expression, cast to the new type.
	Default string
}

// TableRewrite names the new files of a table whose rows were rewritten
// into a new relation (ALTER COLUMN ... TYPE), each reserved with AllocOID
// and made before the catalog names it.
type TableRewrite struct {
	RelFileNode uint32 // the heap's
	// Indexes maps the OID of each of the table's indexes kept on disk to
	// its new file, built in key format KeyFormat; every such index must
	// be there (an index in memory is rebuilt from the heap).
	Indexes   map[uint32]uint32
	KeyFormat uint8
}

// AlterColumnTypes gives columns of table tableOID new types in one synced
// batch and returns the updated table. With rw, the rows were rewritten:
// the table and its disk indexes take their new files, and no column has a
// missing value any more (every tuple now has every attribute, as after
// PostgreSQL's finish_heap_swap). Without it the change is the catalog's
// alone: the stored bytes must read the same under the new types. The
// caller removes the old files once this returns.
// Errors: 42703 for a column dropped or out of range; XX000 for a rewrite
// that leaves a disk index without a new file.
func (c *Catalog) AlterColumnTypes(tableOID uint32, cols []ColumnType, rw *TableRewrite) (*Table, error) {
	return c.updateTable(tableOID, func(t *Table) error {
		for _, ct := range cols {
			if ct.Col < 0 || ct.Col >= len(t.Columns) || t.Columns[ct.Col].Dropped {
				return pgerr.New(pgerr.UndefinedColumn, "column number %d of relation \"%s\" does not exist", ct.Col+1, t.Name)
			}
			t.Columns[ct.Col].TypeOID, t.Columns[ct.Col].Typmod, t.Columns[ct.Col].Default = ct.TypeOID, ct.Typmod, ct.Default
		}
		if rw == nil {
			return nil
		}
		if rw.RelFileNode == 0 || rw.RelFileNode >= c.mu.nextOID {
			return pgerr.New(pgerr.InternalError, "catalog: relfilenode %d of table \"%s\" was not reserved", rw.RelFileNode, t.Name)
		}
		t.RelFileNode = rw.RelFileNode
		for i := range t.Columns {
			t.Columns[i].Missing = nil
		}
		for i := range t.Indexes {
			idx := &t.Indexes[i]
			if !idx.OnDisk() {
				continue
			}
			rfn, ok := rw.Indexes[idx.OID]
			if !ok || rfn == 0 || rfn >= c.mu.nextOID {
				return pgerr.New(pgerr.InternalError, "catalog: index \"%s\" has no new file", idx.Name)
			}
			idx.RelFileNode, idx.KeyFormat = rfn, rw.KeyFormat
		}
		return nil
	})
}

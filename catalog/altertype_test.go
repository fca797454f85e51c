package catalog

import (
	"testing"

	"minipg/pgerr"
)

// TestAlterColumnTypes: a change of the catalog alone keeps the files and
// the missing values; a rewrite takes the new files, every disk index's
// among them, and drops the missing values; both survive a reopen. A
// dropped column, an unreserved file or a disk index left without a new
// file are refused.
func TestAlterColumnTypes(t *testing.T) {
	dir := t.TempDir()
	c := mustOpen(t, dir)
	def := orders()
	def.Indexes = append(def.Indexes, Index{Name: "orders_customer", Columns: []int16{2}, RelFileNode: AssignRelFileNode})
	tb, err := c.CreateTable(def)
	if err != nil {
		t.Fatal(err)
	}
	seven := "7"
	if tb, err = c.AddColumns(tb.OID, []Column{{Name: "qty", TypeOID: 23, Typmod: -1, Default: "7", Missing: &seven}}); err != nil {
		t.Fatal(err)
	}
	// varchar(10) to varchar(20): the catalog alone.
	nt, err := c.AlterColumnTypes(tb.OID, []ColumnType{{Col: 1, TypeOID: 1043, Typmod: 24}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if nt.RelFileNode != tb.RelFileNode || nt.Columns[1].Typmod != 24 || nt.Columns[3].Missing == nil {
		t.Fatalf("after a change of the catalog alone: %+v", nt)
	}
	var diskIdx Index
	for _, idx := range nt.Indexes {
		if idx.OnDisk() {
			diskIdx = idx
		}
	}
	heapFile, err := c.AllocOID()
	if err != nil {
		t.Fatal(err)
	}
	idxFile, err := c.AllocOID()
	if err != nil {
		t.Fatal(err)
	}
	qty := []ColumnType{{Col: 3, TypeOID: 20, Typmod: -1, Default: "7"}}
	_, err = c.AlterColumnTypes(tb.OID, qty, &TableRewrite{RelFileNode: heapFile})
	wantCode(t, err, pgerr.InternalError) // the disk index has no new file
	_, err = c.AlterColumnTypes(tb.OID, qty, &TableRewrite{RelFileNode: idxFile + 100, Indexes: map[uint32]uint32{diskIdx.OID: idxFile}})
	wantCode(t, err, pgerr.InternalError) // not reserved
	nt, err = c.AlterColumnTypes(tb.OID, qty, &TableRewrite{RelFileNode: heapFile, Indexes: map[uint32]uint32{diskIdx.OID: idxFile}, KeyFormat: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.DropColumns(tb.OID, []int{2}, nil); err != nil {
		t.Fatal(err)
	}
	_, err = c.AlterColumnTypes(tb.OID, []ColumnType{{Col: 2, TypeOID: 23, Typmod: -1}}, nil)
	wantCode(t, err, pgerr.UndefinedColumn)
	check(t, c)
	c.Close()

	c = mustOpen(t, dir)
	defer c.Close()
	check(t, c)
	got, _ := c.TableByOID(tb.OID)
	if got.RelFileNode != heapFile || got.Columns[3].TypeOID != 20 || got.Columns[3].Missing != nil || got.Columns[3].Default != "7" {
		t.Fatalf("after the rewrite and a reopen: %+v", got)
	}
	for _, idx := range got.Indexes {
		if idx.OID == diskIdx.OID && (idx.RelFileNode != idxFile || idx.KeyFormat != 2) {
			t.Fatalf("disk index after the rewrite: %+v", idx)
		}
	}
}

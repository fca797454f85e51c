package catalog

import (
	"errors"
	"testing"
)

// TestDiskIndexRelFileNodes: the relfilenodes of indexes kept on disk are
// assigned as PostgreSQL assigns a new relation's (equal to its OID), are
// kept across a reopen, change with NewRelFileNode, and a makeFiles that
// fails stores nothing.
func TestDiskIndexRelFileNodes(t *testing.T) {
	dir := t.TempDir()
	c := mustOpen(t, dir)
	def := orders()
	def.Indexes[0].RelFileNode = AssignRelFileNode
	var seen *Table
	boom := errors.New("no space")
	if _, _, err := c.CreateTableWithFiles(def, nil, func(t *Table) error { seen = t; return boom }); err != boom {
		t.Fatalf("CreateTableWithFiles with a failing makeFiles: %v", err)
	}
	if seen == nil || !seen.Indexes[0].OnDisk() || seen.Indexes[0].RelFileNode != seen.Indexes[0].OID {
		t.Fatalf("makeFiles saw %+v, want the index's relfilenode = its OID", seen)
	}
	if c.RelationExists("orders") || c.RelationExists("orders_pkey") {
		t.Fatal("a failed makeFiles left the table in the catalog")
	}
	tbl, _, err := c.CreateTableWithFiles(def, nil, func(*Table) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	pk := tbl.Indexes[0]
	if !pk.OnDisk() || pk.RelFileNode != pk.OID || pk.OID != tbl.OID+1 {
		t.Fatalf("primary key %+v of table %d", pk, tbl.OID)
	}
	rfn, err := c.AllocOID()
	if err != nil {
		t.Fatal(err)
	}
	tbl, idx, err := c.AddIndex(tbl.OID, Index{Name: "orders_customer", Columns: []int16{2}, RelFileNode: rfn})
	if err != nil {
		t.Fatal(err)
	}
	if idx.OID != rfn || idx.RelFileNode != rfn {
		t.Fatalf("added index %+v, want OID = relfilenode = %d", idx, rfn)
	}
	mem, _, err := c.CreateTableWithFiles(&Table{Name: "m", Columns: []Column{{Name: "a", TypeOID: 23, Typmod: -1}},
		Indexes: []Index{{Name: "m_pkey", Columns: []int16{1}, Primary: true}}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if mem.Indexes[0].OnDisk() || mem.OID <= rfn {
		t.Fatalf("memory index %+v of table %d (the reserved OID was %d)", mem.Indexes[0], mem.OID, rfn)
	}
	newRFN, err := c.AllocOID()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.NewRelFileNode(mem.OID, map[uint32]uint32{mem.Indexes[0].OID: newRFN}); err == nil {
		t.Fatal("NewRelFileNode gave a memory index a file")
	}
	tr, err := c.NewRelFileNode(tbl.OID, map[uint32]uint32{pk.OID: newRFN})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Indexes[0].RelFileNode != newRFN || tr.Indexes[1].RelFileNode != rfn || tr.Indexes[0].OID != pk.OID {
		t.Fatalf("after NewRelFileNode: %+v", tr.Indexes)
	}
	check(t, c)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = mustOpen(t, dir)
	defer c.Close()
	got, _ := c.Table("orders")
	if got.Indexes[0].RelFileNode != newRFN || got.Indexes[1].RelFileNode != rfn {
		t.Fatalf("after reopening: %+v", got.Indexes)
	}
	next, err := c.AllocOID()
	if err != nil {
		t.Fatal(err)
	}
	if next <= max(newRFN, tr.RelFileNode) {
		t.Fatalf("AllocOID after reopening gave %d, not past %d", next, max(newRFN, tr.RelFileNode))
	}
	check(t, c)
}

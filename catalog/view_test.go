package catalog

import (
	"testing"

	"minipg/pgerr"
)

// TestViews: views share the relation namespace, survive a reopen with
// their marks, free their name while marked dropped, and cannot take a
// name back that another relation has taken meanwhile.
func TestViews(t *testing.T) {
	dir := t.TempDir()
	c := mustOpen(t, dir)
	tb, err := c.CreateTable(orders())
	if err != nil {
		t.Fatal(err)
	}
	def := View{Name: "big_orders", Columns: []Column{{Name: "id", TypeOID: 23, Typmod: -1}},
		Query: "SELECT id FROM orders", Relations: []uint32{tb.OID}, CreatedXid: 5}
	v, err := c.CreateView(def)
	if err != nil {
		t.Fatal(err)
	}
	if v.OID <= tb.OID || v.CreatedXid != 5 {
		t.Fatalf("view %+v", v)
	}
	if _, err := c.CreateView(View{Name: "orders", Query: "SELECT 1"}); err == nil {
		t.Fatal("a view took a table's name")
	} else {
		wantCode(t, err, pgerr.DuplicateTable)
	}
	if _, err := c.CreateTable(&Table{Name: "big_orders", Columns: []Column{{Name: "a", TypeOID: 23, Typmod: -1}}}); err == nil {
		t.Fatal("a table took a view's name")
	}
	if deps := c.DependentViews(tb.OID); len(deps) != 1 || deps[0].OID != v.OID {
		t.Fatalf("dependents of orders: %v", deps)
	}
	if _, err := c.UpdateView(v.OID, func(v *View) error { v.DroppingXid = 6; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.View("big_orders"); ok || c.RelationExists("big_orders") {
		t.Fatal("a view marked dropped is found by name")
	}
	if len(c.DependentViews(tb.OID)) != 0 {
		t.Fatal("a view marked dropped is still a dependent")
	}
	// Reopened, the marked view is still marked and the OIDs move on.
	c.Close()
	c = mustOpen(t, dir)
	got, ok := c.ViewByOID(v.OID)
	if !ok || got.DroppingXid != 6 || got.CreatedXid != 5 || got.Query != def.Query || len(got.Columns) != 1 {
		t.Fatalf("after reopening: %+v, %v", got, ok)
	}
	other, err := c.CreateView(View{Name: "big_orders", Query: "SELECT 2"})
	if err != nil {
		t.Fatal(err)
	}
	if other.OID <= v.OID {
		t.Fatalf("OID %d reused", other.OID)
	}
	// The name is taken: the marked view cannot have it back.
	if _, err := c.UpdateView(v.OID, func(v *View) error { v.DroppingXid = 0; return nil }); err == nil {
		t.Fatal("unmarked a view whose name is taken")
	}
	if err := c.DropView(other.OID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateView(v.OID, func(v *View) error { v.DroppingXid = 0; return nil }); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.View("big_orders"); !ok || got.OID != v.OID {
		t.Fatalf("the view given back: %+v, %v", got, ok)
	}
	if err := c.DropView(v.OID); err != nil {
		t.Fatal(err)
	}
	if err := c.DropView(v.OID); err == nil {
		t.Fatal("dropped a view twice")
	}
	c.Close()
	c = mustOpen(t, dir)
	if len(c.Views()) != 0 {
		t.Fatalf("views after dropping all: %v", c.Views())
	}
	c.Close()
}

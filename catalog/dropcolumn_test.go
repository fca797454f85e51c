package catalog

import (
	"testing"

	"minipg/pgerr"
)

// TestDropColumns: a dropped column keeps its attribute number and type
// under PostgreSQL's dropped name, loses its default and NOT NULL, takes
// the indexes, foreign keys, named checks, owned sequences and comments
// over it along, and all of it survives a reopen. A dropped column is
// not found by name, its name is not free, and dropping it again or a
// column another table references is refused.
func TestDropColumns(t *testing.T) {
	dir := t.TempDir()
	c := mustOpen(t, dir)
	def := orders()
	def.Columns = append(def.Columns, Column{Name: "note", TypeOID: 25, Typmod: -1})
	def.Indexes = append(def.Indexes,
		Index{Name: "orders_customer_total", Columns: []int16{2, 3}},
		Index{Name: "orders_note", Columns: []int16{4}})
	def.Checks = []Check{{Name: "orders_total_check", Expr: "total > 0"}, {Name: "orders_note_check", Expr: "note <> ''"}}
	tb, seqs, err := c.CreateTableWithSequences(def, []Sequence{{Name: "orders_total_seq", TypeOID: 20, Increment: 1,
		MinValue: 1, MaxValue: 1 << 62, Start: 1, Cache: 1, OwnedByColumn: 3}})
	if err != nil {
		t.Fatal(err)
	}
	child, err := c.CreateTable(&Table{Name: "lines", Columns: []Column{{Name: "order_id", TypeOID: 23, Typmod: -1}},
		ForeignKeys: []ForeignKey{{Name: "lines_order_id_fkey", Columns: []int16{1}, RefTable: tb.OID, RefColumns: []int16{1}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetComment(PgClassOID, tb.OID, 3, "the total"); err != nil {
		t.Fatal(err)
	}
	if err := c.SetComment(PgClassOID, tb.OID, 4, "a note"); err != nil {
		t.Fatal(err)
	}

	_, _, err = c.DropColumns(tb.OID, []int{0}, nil)
	wantCode(t, err, pgerr.DependentObjectsStillExist)
	nt, removed, err := c.DropColumns(tb.OID, []int{2}, []string{"orders_total_check"})
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0].Name != "orders_customer_total" {
		t.Fatalf("removed indexes %+v", removed)
	}
	_, _, err = c.DropColumns(tb.OID, []int{2}, nil)
	wantCode(t, err, pgerr.UndefinedColumn)
	_, err = c.AddColumns(tb.OID, []Column{{Name: "........pg.dropped.3........", TypeOID: 23, Typmod: -1}})
	wantCode(t, err, pgerr.DuplicateColumn)
	_, err = c.RenameColumn(tb.OID, 3, "........pg.dropped.3........")
	wantCode(t, err, pgerr.DuplicateColumn)
	if _, _, err := c.DropColumns(child.OID, []int{0}, nil); err != nil {
		t.Fatal(err)
	}
	// The referencing side went: the referenced column may go now.
	if _, _, err := c.DropColumns(tb.OID, []int{0}, nil); err != nil {
		t.Fatal(err)
	}
	check(t, c)
	c.Close()

	c = mustOpen(t, dir)
	defer c.Close()
	check(t, c)
	got, _ := c.TableByOID(tb.OID)
	want := []Column{
		{Name: "........pg.dropped.1........", TypeOID: 23, Typmod: -1, Dropped: true},
		nt.Columns[1],
		{Name: "........pg.dropped.3........", TypeOID: 1700, Typmod: (10<<16 | 2) + 4, Dropped: true},
		{Name: "note", TypeOID: 25, Typmod: -1},
	}
	if len(got.Columns) != len(want) {
		t.Fatalf("columns %+v", got.Columns)
	}
	for i := range want {
		if g, w := got.Columns[i], want[i]; g.Name != w.Name || g.TypeOID != w.TypeOID || g.Typmod != w.Typmod ||
			g.Dropped != w.Dropped || g.Default != "" || g.NotNull != w.NotNull {
			t.Fatalf("column %d: %+v, want %+v", i+1, g, w)
		}
	}
	if len(got.Indexes) != 1 || got.Indexes[0].Name != "orders_note" || len(got.Checks) != 1 || got.Checks[0].Name != "orders_note_check" {
		t.Fatalf("indexes %+v checks %+v", got.Indexes, got.Checks)
	}
	if ch, _ := c.TableByOID(child.OID); len(ch.ForeignKeys) != 0 {
		t.Fatalf("foreign keys of the referencing table: %+v", ch.ForeignKeys)
	}
	if _, ok := c.Sequence(seqs[0].Name); ok {
		t.Fatal("the sequence owned by the dropped column is still there")
	}
	if c.CommentOf(PgClassOID, tb.OID, 3) != "" || c.CommentOf(PgClassOID, tb.OID, 4) != "a note" {
		t.Fatal("comments: the dropped column's should be gone, the other's kept")
	}
	if got.ColumnIndex("........pg.dropped.1........") >= 0 || got.ColumnIndex("note") != 3 {
		t.Fatal("ColumnIndex finds a dropped column, or not a live one")
	}
	if l := got.LiveColumns(); len(l) != 2 || l[0] != 1 || l[1] != 3 {
		t.Fatalf("LiveColumns %v", l)
	}
	// An index over a dropped column is refused.
	_, _, err = c.AddIndex(tb.OID, Index{Name: "bad", Columns: []int16{3}})
	wantCode(t, err, pgerr.UndefinedColumn)
}

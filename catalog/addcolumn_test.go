package catalog

import (
	"testing"

	"minipg/pgerr"
)

// TestAddColumns: added columns and their missing values survive a
// reopen; a name in use is 42701.
func TestAddColumns(t *testing.T) {
	dir := t.TempDir()
	c := mustOpen(t, dir)
	tb, err := c.CreateTable(orders())
	if err != nil {
		t.Fatal(err)
	}
	n := len(tb.Columns)
	seven, empty := "7", ""
	if _, err := c.AddColumns(tb.OID, []Column{{Name: "qty", TypeOID: 23, Typmod: -1, NotNull: true, Default: "7", Missing: &seven},
		{Name: "note", TypeOID: 25, Typmod: -1, Missing: &empty}, {Name: "plain", TypeOID: 25, Typmod: -1}}); err != nil {
		t.Fatal(err)
	}
	_, err = c.AddColumns(tb.OID, []Column{{Name: "qty", TypeOID: 23, Typmod: -1}})
	wantCode(t, err, pgerr.DuplicateColumn)
	c.Close()
	c = mustOpen(t, dir)
	got, ok := c.TableByOID(tb.OID)
	if !ok || len(got.Columns) != n+3 {
		t.Fatalf("after reopening: %+v", got)
	}
	q, note, plain := got.Columns[n], got.Columns[n+1], got.Columns[n+2]
	if q.Missing == nil || *q.Missing != "7" || !q.NotNull || note.Missing == nil || *note.Missing != "" || plain.Missing != nil {
		t.Fatalf("added columns after reopening: %+v %+v %+v", q, note, plain)
	}
}

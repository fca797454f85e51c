package catalog

import (
	"testing"

	"minipg/pgerr"
)

// TestSequenceReopen: a reopened catalog resumes a sequence from its stored
// state, which nextval keeps SeqLogVals values ahead of what it returned;
// setval is stored at once; OWNED BY sequences go with their table.
func TestSequenceReopen(t *testing.T) {
	dir := t.TempDir()
	c := mustOpen(t, dir)
	s, err := c.CreateSequence(Sequence{Name: "s", TypeOID: 20, Increment: 1, MinValue: 1, MaxValue: 1 << 62, Start: 1, Cache: 1})
	if err != nil {
		t.Fatal(err)
	}
	for want := int64(1); want <= 5; want++ {
		if v, _, err := c.NextVal(s.OID); err != nil || v != want {
			t.Fatalf("nextval = %d, %v; want %d", v, err, want)
		}
	}
	q, err := c.CreateSequence(Sequence{Name: "q", TypeOID: 20, Increment: 1, MinValue: 1, MaxValue: 100, Start: 1, Cache: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetVal(q.OID, 50, false); err != nil {
		t.Fatal(err)
	}
	if err := c.SetVal(q.OID, 101, true); pgerr.CodeOf(err) != pgerr.NumericValueOutOfRange {
		t.Fatalf("setval out of bounds: %v", err)
	}
	if _, err := c.CreateSequence(Sequence{Name: "s"}); pgerr.CodeOf(err) != pgerr.DuplicateTable {
		t.Fatalf("duplicate name: %v", err)
	}
	tab, err := c.CreateTable(&Table{Name: "t", Columns: []Column{{Name: "a", TypeOID: 23, Typmod: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateSequence(Sequence{Name: "t_a_seq", TypeOID: 20, Increment: 1, MinValue: 1, MaxValue: 10, Start: 1, Cache: 1, OwnedByTable: tab.OID, OwnedByColumn: 1}); err != nil {
		t.Fatal(err)
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	c.Close()

	c = mustOpen(t, dir)
	defer c.Close()
	if v, _, err := c.NextVal(s.OID); err != nil || v != 1+SeqLogVals+1 {
		t.Fatalf("nextval after reopen = %d, %v; want %d (the first call logs SeqLogVals values past 1)", v, err, 1+SeqLogVals+1)
	}
	if v, _, err := c.NextVal(q.OID); err != nil || v != 50 {
		t.Fatalf("nextval after setval(50, false) and reopen = %d, %v", v, err)
	}
	if _, err := c.DropTable(tab.OID); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Sequence("t_a_seq"); ok {
		t.Fatal("owned sequence survived its table")
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
}

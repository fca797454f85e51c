package catalog

import (
	"testing"

	"minipg/pgerr"
)

// TestAlterConstraints: ALTER TABLE ... ADD/DROP CONSTRAINT as one batch:
// errors leave the catalog unchanged, a dropped primary key leaves its
// columns NOT NULL, and the result survives a reopen.
func TestAlterConstraints(t *testing.T) {
	dir := t.TempDir()
	c := mustOpen(t, dir)
	tb, err := c.CreateTable(&Table{Name: "t", Columns: []Column{
		{Name: "a", TypeOID: 23, Typmod: -1}, {Name: "b", TypeOID: 23, Typmod: -1}, {Name: "c", TypeOID: 25, Typmod: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.AddIndex(tb.OID, Index{Name: "t_c_idx", Columns: []int16{3}, Unique: true}); err != nil {
		t.Fatal(err)
	}
	v0 := c.Version()
	for _, tc := range []struct {
		drop []string
		add  []Index
		code pgerr.Code
	}{
		{[]string{"nosuch"}, nil, pgerr.UndefinedObject},
		{[]string{"t_c_idx"}, nil, pgerr.UndefinedObject}, // a plain index is no constraint
		{nil, []Index{{Name: "t", Columns: []int16{1}, Primary: true}}, pgerr.DuplicateTable},
		{nil, []Index{{Name: "t_c_idx", Columns: []int16{1}, Constraint: true, Unique: true}}, pgerr.DuplicateTable},
		{nil, []Index{{Name: "p1", Columns: []int16{1}, Primary: true}, {Name: "p2", Columns: []int16{2}, Primary: true}}, pgerr.InvalidTableDefinition},
		{nil, []Index{{Name: "u", Columns: []int16{1}, Constraint: true, Unique: true}, {Name: "u", Columns: []int16{2}, Constraint: true, Unique: true}}, pgerr.DuplicateTable},
		{nil, []Index{{Name: "u", Columns: []int16{7}, Constraint: true, Unique: true}}, pgerr.UndefinedColumn},
	} {
		_, _, err := c.AlterConstraints(tb.OID, tc.drop, tc.add)
		wantCode(t, err, tc.code)
	}
	if _, _, err := c.AlterConstraints(999, nil, nil); pgerr.CodeOf(err) != pgerr.UndefinedTable {
		t.Fatalf("missing table: %v", err)
	}
	if c.Version() != v0 {
		t.Fatal("a failed ALTER changed the catalog")
	}
	check(t, c)

	nt, added, err := c.AlterConstraints(tb.OID, nil, []Index{
		{Name: "t_pkey", Columns: []int16{1, 2}, Primary: true},
		{Name: "t_c_key", Columns: []int16{3}, Constraint: true, Unique: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(added) != 2 || added[0].OID == 0 || added[1].OID != added[0].OID+1 || !added[0].Unique {
		t.Fatalf("added %+v", added)
	}
	if !nt.Columns[0].NotNull || !nt.Columns[1].NotNull || nt.Columns[2].NotNull {
		t.Fatalf("NOT NULL after ADD PRIMARY KEY: %+v", nt.Columns)
	}
	if _, _, err := c.DropIndex("t_c_key"); pgerr.CodeOf(err) != pgerr.DependentObjectsStillExist {
		t.Fatalf("DROP INDEX of a constraint's index: %v", err)
	}
	// Dropping and re-adding under the same name in one statement.
	nt, _, err = c.AlterConstraints(tb.OID, []string{"t_pkey"}, []Index{{Name: "t_pkey", Columns: []int16{2}, Primary: true}})
	if err != nil {
		t.Fatal(err)
	}
	pk, _ := nt.PrimaryKey()
	if len(pk.Columns) != 1 || pk.Columns[0] != 2 || !nt.Columns[0].NotNull {
		t.Fatalf("after re-adding: pk %+v, columns %+v", pk, nt.Columns)
	}
	check(t, c)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	c = mustOpen(t, dir)
	defer c.Close()
	check(t, c)
	rt, _ := c.Table("t")
	if len(rt.Indexes) != 3 || !rt.Columns[0].NotNull {
		t.Fatalf("after reopen: %+v", rt)
	}
	if _, idx, ok := c.IndexByName("t_c_key"); !ok || !idx.IsConstraint() || idx.Primary {
		t.Fatalf("t_c_key after reopen: %+v %v", idx, ok)
	}
	if _, _, err := c.AlterConstraints(rt.OID, []string{"t_pkey", "t_c_key"}, nil); err != nil {
		t.Fatal(err)
	}
	rt, _ = c.Table("t")
	if len(rt.Indexes) != 1 || rt.Indexes[0].Name != "t_c_idx" || c.RelationExists("t_pkey") {
		t.Fatalf("after dropping both: %+v", rt)
	}
	check(t, c)
}

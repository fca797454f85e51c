package sql

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"minipg/pgerr"
)

func TestBindAlterConstraints(t *testing.T) {
	q := "ALTER TABLE t DROP CONSTRAINT IF EXISTS x CASCADE, ADD CONSTRAINT t_k UNIQUE (n, s), ADD PRIMARY KEY (id)"
	b, err := Prepare(testCat, q, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := b.Stmt.(*AlterConstraints)
	if !ok || st.Table.Name != "t" {
		t.Fatalf("bound %T %+v", b.Stmt, b.Stmt)
	}
	want := []ConstraintCmd{
		{Drop: true, Cascade: true, IfExists: true, Name: "x"},
		{Name: "t_k", Columns: []string{"n", "s"}, Position: int32(strings.Index(q, "CONSTRAINT t_k") + 1)},
		{Primary: true, Columns: []string{"id"}, Position: int32(strings.Index(q, "PRIMARY") + 1)},
	}
	if !reflect.DeepEqual(st.Cmds, want) {
		t.Fatalf("cmds\n%+v\nwant\n%+v", st.Cmds, want)
	}

	b, err = Prepare(testCat, "ALTER TABLE IF EXISTS nosuch ADD PRIMARY KEY (a)", nil)
	if m, ok := b.Stmt.(*AlterMissing); err != nil || !ok || m.Name != "nosuch" {
		t.Fatalf("IF EXISTS: %+v %v", b, err)
	}
	if b, err := Prepare(testCat, "ALTER TABLE t SET (fillfactor = 70)", nil); err != nil || b.Stmt.(*AlterOptions).Options["fillfactor"] != "70" {
		t.Fatalf("SET: %v", err)
	}

	for _, tc := range []struct {
		q    string
		code pgerr.Code
		pos  int32 // 0: none
	}{
		{"ALTER TABLE nosuch ADD PRIMARY KEY (a)", pgerr.UndefinedTable, 0},
		{"ALTER TABLE t ADD CONSTRAINT c EXCLUDE (id WITH =)", pgerr.FeatureNotSupported, 19},
		{"ALTER TABLE t ADD FOREIGN KEY (n) REFERENCES t (id) DEFERRABLE", pgerr.FeatureNotSupported, 19},
		{"ALTER TABLE t ADD UNIQUE (n) DEFERRABLE", pgerr.FeatureNotSupported, 19},
		{"ALTER TABLE t ADD UNIQUE (n) INCLUDE (s)", pgerr.FeatureNotSupported, 19},
		{"ALTER TABLE t ADD UNIQUE (n) WITH (fillfactor = 50)", pgerr.FeatureNotSupported, 19},
		{"ALTER TABLE t ADD UNIQUE NULLS NOT DISTINCT (n)", pgerr.FeatureNotSupported, 19},
		{"ALTER TABLE t ADD CONSTRAINT u UNIQUE USING INDEX t_n_idx", pgerr.FeatureNotSupported, 19},
		{"ALTER TABLE t SET (fillfactor = 70), ADD UNIQUE (n)", pgerr.FeatureNotSupported, 0},
		{"ALTER TABLE t DROP COLUMN n, ADD COLUMN z int", pgerr.FeatureNotSupported, 0},
		{"ALTER TABLE t SET (fillfactor = 70), DROP COLUMN n", pgerr.FeatureNotSupported, 0},
		{"ALTER TABLE t ADD COLUMN z int, SET (fillfactor = 70)", pgerr.FeatureNotSupported, 0},
		{"ALTER FUNCTION f() RENAME TO g", pgerr.FeatureNotSupported, 0},
	} {
		_, err := Prepare(testCat, tc.q, nil)
		pe, _ := err.(*pgerr.Error)
		if pe == nil || pe.Code != tc.code || pe.Position != tc.pos {
			t.Errorf("%s: %v (%+v), want %s at %d", tc.q, err, pe, tc.code, tc.pos)
		}
	}
}

// TestCreateTableConstraints: CREATE TABLE's PRIMARY KEY and UNIQUE
// constraints become indexes as PostgreSQL's transformIndexConstraints makes
// them: the primary key first, redundant ones dropped (an explicit name
// going to the one kept), errors pointing at the constraint.
func TestCreateTableConstraints(t *testing.T) {
	b, err := Prepare(testCat, "CREATE TABLE c (a int UNIQUE, b int, c int, UNIQUE (b), CONSTRAINT c_b UNIQUE (b), CONSTRAINT c_pk PRIMARY KEY (c, a), UNIQUE (c, a), UNIQUE (a, c))", nil)
	if err != nil {
		t.Fatal(err)
	}
	ct := b.Stmt.(*CreateTable)
	got := ""
	for _, ix := range ct.Def.Indexes {
		got += fmt.Sprintf("%q %v p=%v c=%v u=%v; ", ix.Name, ix.Columns, ix.Primary, ix.Constraint, ix.Unique)
	}
	want := `"c_pk" [3 1] p=true c=false u=true; "" [1] p=false c=true u=true; "c_b" [2] p=false c=true u=true; "" [1 3] p=false c=true u=true; `
	if got != want {
		t.Fatalf("indexes\n%s\nwant\n%s", got, want)
	}
	if !ct.Def.Columns[0].NotNull || ct.Def.Columns[1].NotNull || !ct.Def.Columns[2].NotNull {
		t.Fatalf("NOT NULL %+v", ct.Def.Columns)
	}
	for _, tc := range []struct {
		q    string
		code pgerr.Code
		pos  int32
	}{
		{"CREATE TABLE c (a int, b int, UNIQUE (zz), PRIMARY KEY (a), PRIMARY KEY (b))", pgerr.UndefinedColumn, 31},
		{"CREATE TABLE c (a int, b int, PRIMARY KEY (a), PRIMARY KEY (b))", pgerr.InvalidTableDefinition, 48},
		{"CREATE TABLE c (a int PRIMARY KEY, b int PRIMARY KEY)", pgerr.InvalidTableDefinition, 42},
		{"CREATE TABLE c (a int, b int, UNIQUE (b, a, b))", pgerr.DuplicateColumn, 31},
		{"CREATE TABLE c (a int, CONSTRAINT k PRIMARY KEY (a, a))", pgerr.DuplicateColumn, 24},
		{"CREATE TABLE c (a int, UNIQUE (a) DEFERRABLE)", pgerr.FeatureNotSupported, 24},
	} {
		_, err := Prepare(testCat, tc.q, nil)
		pe, _ := err.(*pgerr.Error)
		if pe == nil || pe.Code != tc.code || pe.Position != tc.pos {
			t.Errorf("%s: %v (%+v), want %s at %d", tc.q, err, pe, tc.code, tc.pos)
		}
	}
}

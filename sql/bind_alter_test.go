package sql

import (
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
		{Drop: true, IfExists: true, Name: "x"},
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
		{"ALTER TABLE t ADD CONSTRAINT c CHECK (id > 0)", pgerr.FeatureNotSupported, 19},
		{"ALTER TABLE t ADD FOREIGN KEY (n) REFERENCES t (id)", pgerr.FeatureNotSupported, 19},
		{"ALTER TABLE t ADD UNIQUE (n) DEFERRABLE", pgerr.FeatureNotSupported, 19},
		{"ALTER TABLE t ADD UNIQUE (n) INCLUDE (s)", pgerr.FeatureNotSupported, 19},
		{"ALTER TABLE t ADD UNIQUE (n) WITH (fillfactor = 50)", pgerr.FeatureNotSupported, 19},
		{"ALTER TABLE t ADD UNIQUE NULLS NOT DISTINCT (n)", pgerr.FeatureNotSupported, 19},
		{"ALTER TABLE t ADD CONSTRAINT u UNIQUE USING INDEX t_n_idx", pgerr.FeatureNotSupported, 19},
		{"ALTER TABLE t SET (fillfactor = 70), ADD UNIQUE (n)", pgerr.FeatureNotSupported, 0},
		{"ALTER TABLE t ADD COLUMN z int", pgerr.FeatureNotSupported, 0},
		{"ALTER INDEX t_pkey RENAME TO x", pgerr.FeatureNotSupported, 0},
	} {
		_, err := Prepare(testCat, tc.q, nil)
		pe, _ := err.(*pgerr.Error)
		if pe == nil || pe.Code != tc.code || pe.Position != tc.pos {
			t.Errorf("%s: %v (%+v), want %s at %d", tc.q, err, pe, tc.code, tc.pos)
		}
	}
}

// TestCreateTableConstraintNames: CREATE TABLE names its constraints'
// indexes as PostgreSQL's makeObjectName does, cut to NAMEDATALEN, and
// marks UNIQUE ones as constraints.
func TestCreateTableConstraintNames(t *testing.T) {
	long := strings.Repeat("x", 63)
	b, err := Prepare(testCat, "CREATE TABLE "+long+" (a int PRIMARY KEY, "+long+" int UNIQUE)", nil)
	if err != nil {
		t.Fatal(err)
	}
	ix := b.Stmt.(*CreateTable).Def.Indexes
	if len(ix) != 2 || ix[0].Name != strings.Repeat("x", 58)+"_pkey" || ix[1].Name != strings.Repeat("x", 29)+"_"+strings.Repeat("x", 29)+"_key" {
		t.Fatalf("names %q %q", ix[0].Name, ix[1].Name)
	}
	if !ix[0].IsConstraint() || !ix[1].Constraint || !ix[1].Unique || ix[1].Primary {
		t.Fatalf("flags %+v", ix)
	}
}

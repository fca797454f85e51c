package sql

import (
	"testing"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

type fakeCat map[string]*catalog.Table

func (f fakeCat) Table(name string) (*catalog.Table, bool) {
	t, ok := f[name]
	return t, ok
}

var testCat = fakeCat{
	"t": {OID: 16384, Name: "t", Columns: []catalog.Column{
		{Name: "id", TypeOID: uint32(types.Int4), Typmod: -1, NotNull: true},
		{Name: "n", TypeOID: uint32(types.Int8), Typmod: -1},
		{Name: "s", TypeOID: uint32(types.Varchar), Typmod: 14},
		{Name: "amt", TypeOID: uint32(types.Numeric), Typmod: (12<<16 | 2) + 4},
	}, Indexes: []catalog.Index{{Name: "t_pkey", Columns: []int16{1}, Unique: true, Primary: true}}},
}

func TestResultTypes(t *testing.T) {
	tests := []struct {
		q    string
		want []types.OID
	}{
		{"SELECT 1", []types.OID{types.Int4}},
		{"SELECT 3000000000", []types.OID{types.Int8}},
		{"SELECT 1.5", []types.OID{types.Numeric}},
		{"SELECT 'x'", []types.OID{types.Text}},
		{"SELECT id + 1, id + n, id + amt, id * 2.5::float8 FROM t", []types.OID{types.Int4, types.Int8, types.Numeric, types.Float8}},
		{"SELECT count(*), count(id), sum(id), sum(n), sum(amt), avg(id), min(s), max(amt) FROM t", []types.OID{types.Int8, types.Int8, types.Int8, types.Numeric, types.Numeric, types.Numeric, types.Text, types.Numeric}},
		{"SELECT ctid, s || 'x', id = 1, version() FROM t", []types.OID{types.TID, types.Text, types.Bool, types.Text}},
		{"SELECT coalesce(n, 0) FROM t", []types.OID{types.Int8}},
		// Set operations: the common type of each column; unknown
		// literals take it, and are text when nothing else decides.
		{"SELECT id FROM t INTERSECT SELECT n FROM t", []types.OID{types.Int8}},
		{"SELECT id, s FROM t EXCEPT ALL SELECT 1, 'x'", []types.OID{types.Int4, types.Varchar}},
		{"SELECT 'a', NULL INTERSECT SELECT NULL, 1.5", []types.OID{types.Text, types.Numeric}},
		{"SELECT 1 UNION SELECT 2 INTERSECT SELECT amt FROM t", []types.OID{types.Numeric}},
		// Among string types the first one wins; CASE puts ELSE first.
		{"SELECT s FROM t UNION SELECT 'x'::text", []types.OID{types.Varchar}},
		{"SELECT 'x'::text UNION SELECT s FROM t", []types.OID{types.Text}},
		{"SELECT coalesce(s, 'a'::text) FROM t", []types.OID{types.Varchar}},
		{"SELECT CASE WHEN id > 0 THEN s ELSE 'a'::text END FROM t", []types.OID{types.Text}},
		{"SELECT CASE WHEN id > 0 THEN 'a'::text ELSE s END FROM t", []types.OID{types.Varchar}},
	}
	for _, tc := range tests {
		b, err := Prepare(testCat, tc.q, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		if len(b.Columns) != len(tc.want) {
			t.Errorf("%s: %d columns, want %d", tc.q, len(b.Columns), len(tc.want))
			continue
		}
		for i, c := range b.Columns {
			if c.T.OID != tc.want[i] {
				t.Errorf("%s: column %d (%s) type %d, want %d", tc.q, i, c.Name, c.T.OID, tc.want[i])
			}
		}
	}
}

func TestColumnNames(t *testing.T) {
	b, err := Prepare(testCat, "SELECT id, id::text, 'a'::text, count(*), 1 + 1, n AS x, t.s FROM t GROUP BY id, n, s", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"id", "id", "text", "count", "?column?", "x", "s"}
	for i, c := range b.Columns {
		if c.Name != want[i] {
			t.Errorf("column %d named %q, want %q", i, c.Name, want[i])
		}
	}
	if b.Columns[0].TableOID != 16384 || b.Columns[0].AttNum != 1 {
		t.Errorf("column 0 source %d/%d", b.Columns[0].TableOID, b.Columns[0].AttNum)
	}
}

func TestParamInference(t *testing.T) {
	tests := []struct {
		q    string
		want []types.OID
	}{
		{"SELECT * FROM t WHERE id = $1", []types.OID{types.Int4}},
		{"SELECT * FROM t WHERE $1 = n AND s = $2", []types.OID{types.Int8, types.Varchar}},
		{"UPDATE t SET n = n + $1 WHERE id = $2", []types.OID{types.Int8, types.Int4}},
		{"INSERT INTO t VALUES ($1, $2, $3, $4)", []types.OID{types.Int4, types.Int8, types.Varchar, types.Numeric}},
		{"SELECT * FROM t LIMIT $1 OFFSET $2", []types.OID{types.Int8, types.Int8}},
		{"SELECT $1", []types.OID{types.Text}},
		{"SELECT * FROM t WHERE id IN ($1, $2)", []types.OID{types.Int4, types.Int4}},
		{"SELECT * FROM t WHERE id BETWEEN $1 AND $2", []types.OID{types.Int4, types.Int4}},
	}
	for _, tc := range tests {
		b, err := Prepare(testCat, tc.q, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		if len(b.ParamTypes) != len(tc.want) {
			t.Errorf("%s: params %v, want %v", tc.q, b.ParamTypes, tc.want)
			continue
		}
		for i := range tc.want {
			if b.ParamTypes[i] != tc.want[i] {
				t.Errorf("%s: params %v, want %v", tc.q, b.ParamTypes, tc.want)
				break
			}
		}
	}
	// Given types win.
	b, err := Prepare(testCat, "SELECT * FROM t WHERE id = $1", []types.OID{types.Int8})
	if err != nil || b.ParamTypes[0] != types.Int8 {
		t.Errorf("given type: %v %v", b, err)
	}
}

func TestBindErrors(t *testing.T) {
	tests := []bindErrCase{
		{"SELECT * FROM nosuch", pgerr.UndefinedTable, 15},
		{"SELEC 1", pgerr.SyntaxError, 1},
		{"SELECT nosuch FROM t", pgerr.UndefinedColumn, 8},
		{"SELECT nosuchfunc(1)", pgerr.UndefinedFunction, 8},
		{"SELECT 1 + 'a'", pgerr.InvalidTextRepresentation, 12},
		{"SELECT 'abc' + 1", pgerr.InvalidTextRepresentation, 0},
		{"SELECT id, n FROM t GROUP BY id", pgerr.GroupingError, 0},
		{"SELECT * FROM t WHERE count(*) > 1", pgerr.GroupingError, 0},
		{"SELECT * FROM t a FULL JOIN t b USING (nosuch)", pgerr.UndefinedColumn, 0},
		{"SELECT id FROM t a, t b", pgerr.AmbiguousColumn, 8},
		{"SELECT * FROM t, t", pgerr.Code("42712"), 0},
		{"SELECT x.id FROM t a", pgerr.UndefinedTable, 0},
		{"SELECT * FROM t INTERSECT SELECT id FROM t", pgerr.SyntaxError, 34},
		{"SELECT 1 UNION SELECT 2 INTERSECT SELECT 3, 4", pgerr.SyntaxError, 42},
		{"SELECT id FROM t EXCEPT SELECT s FROM t", pgerr.DatatypeMismatch, 32},
		{"SELECT id AS a FROM t EXCEPT SELECT 1 ORDER BY b", pgerr.UndefinedColumn, 48},
		{"SELECT id AS a FROM t EXCEPT SELECT 1 ORDER BY a + 1", pgerr.FeatureNotSupported, 48},
		{"INSERT INTO t VALUES (1, 2, 'x', 1, 5)", pgerr.SyntaxError, 0},
		{"INSERT INTO t (nosuch) VALUES (1)", pgerr.UndefinedColumn, 0},
		{"UPDATE t SET nosuch = 1", pgerr.UndefinedColumn, 0},
		{"CREATE TABLE x (a int) WITH (fillfactor=5)", pgerr.InvalidParameterValue, 0},
		{"CREATE TABLE x (a int) WITH (nosuch=1)", pgerr.InvalidParameterValue, 0},
		{"CREATE TABLE x (a nosuchtype)", pgerr.UndefinedObject, 0},
		{"CREATE TABLE x (a int REFERENCES t MATCH FULL)", pgerr.FeatureNotSupported, 0},
		{"SELECT * FROM t WHERE id = 'abc'", pgerr.InvalidTextRepresentation, 0},
		{"SELECT s + 1 FROM t", pgerr.UndefinedFunction, 0},
		{"SELECT DISTINCT s FROM t ORDER BY id", pgerr.InvalidColumnReference, 0},
	}
	checkBindErrors(t, testCat, tests)
}

func TestFillFactorMessage(t *testing.T) {
	_, err := Prepare(testCat, "CREATE TABLE x (a int) WITH (fillfactor=101)", nil)
	pe, ok := err.(*pgerr.Error)
	if !ok || pe.Message != `value 101 out of bounds for option "fillfactor"` || pe.Detail != `Valid values are between "10" and "100".` {
		t.Fatalf("got %#v", err)
	}
}

func TestCreateTablePrimaryKey(t *testing.T) {
	b, err := Prepare(testCat, "CREATE TABLE ix (a int, b int, c text DEFAULT 'x' || 'y', PRIMARY KEY (a, b))", nil)
	if err != nil {
		t.Fatal(err)
	}
	ct := b.Stmt.(*CreateTable)
	// The executor names the index (ix_pkey unless that is taken).
	if len(ct.Def.Indexes) != 1 || ct.Def.Indexes[0].Name != "" || !ct.Def.Indexes[0].Primary || len(ct.Def.Indexes[0].Columns) != 2 {
		t.Fatalf("indexes %+v", ct.Def.Indexes)
	}
	if !ct.Def.Columns[0].NotNull || !ct.Def.Columns[1].NotNull || ct.Def.Columns[2].NotNull {
		t.Errorf("not null %+v", ct.Def.Columns)
	}
	if ct.Def.Columns[2].Default == "" {
		t.Errorf("default lost")
	}
}

func TestSplit(t *testing.T) {
	parts, err := Split("SELECT 1; SELECT ';'; -- comment\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 2 {
		t.Fatalf("%q", parts)
	}
	b, err := Prepare(testCat, "-- ping", nil)
	if err != nil || b != nil {
		t.Fatalf("empty query: %v %v", b, err)
	}
}

// TestUnsupportedStatementNames: a statement minipg does not implement is
// 0A000 naming it as SQL, not as a parse node.
func TestUnsupportedStatementNames(t *testing.T) {
	for q, want := range map[string]string{
		"CREATE PROCEDURE p() AS 'select 1' LANGUAGE sql":                        "CREATE PROCEDURE is not supported",
		"CREATE MATERIALIZED VIEW v AS SELECT 1":                                 "CREATE MATERIALIZED VIEW is not supported",
		"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION f()": "CREATE TRIGGER is not supported",
		"DO $$ BEGIN END $$":                "DO is not supported",
		"ALTER DATABASE postgres SET x = 1": "ALTER DATABASE SET is not supported",
		"CREATE SCHEMA s":                   "CREATE SCHEMA is not supported",
		"LISTEN ch":                         "LISTEN is not supported",
	} {
		_, err := Prepare(testCat, q, nil)
		if pgerr.CodeOf(err) != pgerr.FeatureNotSupported || err.Error() != want {
			t.Errorf("%s: %v (%s), want 0A000 %q", q, err, pgerr.CodeOf(err), want)
		}
	}
}

// bindErrCase is a statement Prepare must refuse with code, at character
// position pos (0: not checked).
type bindErrCase struct {
	q    string
	code pgerr.Code
	pos  int32
}

// checkBindErrors prepares each case's statement against cat and checks
// its error.
func checkBindErrors(t *testing.T, cat Catalog, tests []bindErrCase) {
	t.Helper()
	for _, tc := range tests {
		_, err := Prepare(cat, tc.q, nil)
		if err == nil {
			t.Errorf("%s: no error, want %s", tc.q, tc.code)
			continue
		}
		if got := pgerr.CodeOf(err); got != tc.code {
			t.Errorf("%s: %s (%v), want %s", tc.q, got, err, tc.code)
			continue
		}
		if tc.pos != 0 {
			if pe, ok := err.(*pgerr.Error); !ok || pe.Position != tc.pos {
				t.Errorf("%s: %v, want position %d", tc.q, err, tc.pos)
			}
		}
	}
}

package sql

import (
	"testing"

	"minipg/pgerr"
	"minipg/types"
)

// TestCreateTableAsColumns checks the columns CREATE TABLE AS and SELECT
// INTO give the new table: names from the query or the column list, types
// (typmods kept) from the query's output, unknown literals as text.
func TestCreateTableAsColumns(t *testing.T) {
	type col struct {
		name   string
		oid    types.OID
		typmod int32
	}
	tests := []struct {
		q        string
		skipData bool
		into     bool
		want     []col
	}{
		{"CREATE TABLE x AS SELECT id, s, amt, 'a' AS l, NULL AS n FROM t", false, false,
			[]col{{"id", types.Int4, -1}, {"s", types.Varchar, 14}, {"amt", types.Numeric, (12<<16 | 2) + 4}, {"l", types.Text, -1}, {"n", types.Text, -1}}},
		{"CREATE TABLE x (a, b) AS SELECT id, n, 1.5 FROM t WITH NO DATA", true, false,
			[]col{{"a", types.Int4, -1}, {"b", types.Int8, -1}, {"?column?", types.Numeric, -1}}},
		{"CREATE TABLE x AS VALUES (1, 'a')", false, false,
			[]col{{"column1", types.Int4, -1}, {"column2", types.Text, -1}}},
		{"SELECT id AS k INTO x FROM t UNION SELECT 2", false, true,
			[]col{{"k", types.Int4, -1}}},
		{"SELECT INTO x", false, true, nil},
	}
	for _, tc := range tests {
		b, err := Prepare(testCat, tc.q, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		st, ok := b.Stmt.(*CreateTableAs)
		if !ok {
			t.Errorf("%s: bound to %T", tc.q, b.Stmt)
			continue
		}
		if st.SkipData != tc.skipData || st.SelectInto != tc.into || st.Create.Def.Name != "x" {
			t.Errorf("%s: skipData %v into %v name %q", tc.q, st.SkipData, st.SelectInto, st.Create.Def.Name)
		}
		cols := st.Create.Def.Columns
		if len(cols) != len(tc.want) {
			t.Errorf("%s: %d columns, want %d", tc.q, len(cols), len(tc.want))
			continue
		}
		for i, c := range cols {
			if c.Name != tc.want[i].name || types.OID(c.TypeOID) != tc.want[i].oid || c.Typmod != tc.want[i].typmod {
				t.Errorf("%s: column %d is %s %d(%d), want %v", tc.q, i, c.Name, c.TypeOID, c.Typmod, tc.want[i])
			}
		}
	}
}

func TestCreateTableAsErrors(t *testing.T) {
	tests := []bindErrCase{
		{"CREATE TABLE x (a, b) AS SELECT 1", pgerr.SyntaxError, 0},
		{"CREATE TABLE x AS SELECT 1 AS a, 2 AS a", pgerr.DuplicateColumn, 0},
		{"CREATE TABLE x AS SELECT ctid AS c FROM t", pgerr.FeatureNotSupported, 0},
		{"CREATE TABLE x AS SELECT 1 AS xmin", pgerr.DuplicateColumn, 0},
		{"CREATE TEMP TABLE x AS SELECT 1", pgerr.FeatureNotSupported, 0},
		{"CREATE MATERIALIZED VIEW x AS SELECT 1", pgerr.FeatureNotSupported, 0},
		{"CREATE TABLE x AS EXECUTE p", pgerr.FeatureNotSupported, 0},
		{"CREATE TABLE x WITH (fillfactor = 5) AS SELECT 1", pgerr.InvalidParameterValue, 0},
		{"SELECT 1 UNION SELECT 2 INTO x", pgerr.SyntaxError, 30},
		{"SELECT * FROM (SELECT 1 INTO x) s", pgerr.SyntaxError, 30},
		{"EXPLAIN CREATE TABLE x AS EXECUTE p", pgerr.FeatureNotSupported, 0},
	}
	checkBindErrors(t, testCat, tests)
}

// TestExplainCreateTableAs checks that EXPLAIN takes both spellings.
func TestExplainCreateTableAs(t *testing.T) {
	for _, q := range []string{"EXPLAIN CREATE TABLE x AS SELECT id FROM t", "EXPLAIN ANALYZE SELECT id INTO x FROM t"} {
		b, err := Prepare(testCat, q, nil)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		if ex, ok := b.Stmt.(*Explain); !ok {
			t.Errorf("%s: bound to %T", q, b.Stmt)
		} else if _, ok := ex.Stmt.(*CreateTableAs); !ok {
			t.Errorf("%s: explains %T", q, ex.Stmt)
		}
	}
}

package executor

import (
	"strings"
	"testing"

	"minipg/sql"
	"minipg/types"
)

// TestSetOpCopies checks the copies of a row INTERSECT and EXCEPT give
// for m copies in the left arm and n in the right, as nodeSetOp counts.
func TestSetOpCopies(t *testing.T) {
	tests := []struct {
		op         sql.SetOpKind
		all        bool
		m, n, want int64
	}{
		{sql.SetOpIntersect, false, 3, 2, 1},
		{sql.SetOpIntersect, false, 3, 0, 0},
		{sql.SetOpIntersect, false, 0, 2, 0},
		{sql.SetOpIntersect, true, 3, 2, 2},
		{sql.SetOpIntersect, true, 1, 5, 1},
		{sql.SetOpIntersect, true, 4, 0, 0},
		{sql.SetOpExcept, false, 3, 0, 1},
		{sql.SetOpExcept, false, 3, 1, 0},
		{sql.SetOpExcept, false, 0, 1, 0},
		{sql.SetOpExcept, true, 3, 1, 2},
		{sql.SetOpExcept, true, 2, 2, 0},
		{sql.SetOpExcept, true, 1, 4, 0},
		{sql.SetOpExcept, true, 5, 0, 5},
	}
	for _, tc := range tests {
		if got := setOpCopies(tc.op, tc.all, tc.m, tc.n); got != tc.want {
			t.Errorf("%s all=%v m=%d n=%d: %d copies, want %d", tc.op, tc.all, tc.m, tc.n, got, tc.want)
		}
	}
}

// TestSetOpParams runs set operations, CREATE TABLE AS and a recursive
// CTE with parameters through the extended protocol: an untyped $n in an
// arm takes the column's common type.
func TestSetOpParams(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	p, err := s.Prepare("SELECT $1 INTERSECT SELECT 2", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.ParamTypes) != 1 || p.ParamTypes[0] != types.Int4 {
		t.Fatalf("param types %v", p.ParamTypes)
	}
	s.Sync()
	rows, _ := mustExec(t, s, "SELECT $1 INTERSECT SELECT 2", int64(2))
	if len(rows) != 1 || rows[0][0].(int64) != 2 {
		t.Fatalf("intersect: %v", rows)
	}
	rows, _ = mustExec(t, s, "SELECT g FROM generate_series(1, 5) g EXCEPT ALL SELECT $1::int", int64(3))
	if len(rows) != 4 {
		t.Fatalf("except all: %v", rows)
	}
	rows, _ = mustExec(t, s, "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < $1) SELECT count(*) FROM r", int64(7))
	if len(rows) != 1 || rows[0][0].(int64) != 7 {
		t.Fatalf("recursive: %v", rows)
	}
	_, tag := mustExec(t, s, "CREATE TABLE sp_t AS SELECT g FROM generate_series(1, $1) g", int64(4))
	if tag != "SELECT 4" {
		t.Fatalf("create table as: %q", tag)
	}
}

// TestExplainSetOpDoesNotRun: EXPLAIN without ANALYZE of INTERSECT and
// EXCEPT runs neither arm (a nextval in one is not called, a division by
// zero is not raised), nor UNION's arms (shown under an Append), nor a
// WITH query read twice; EXPLAIN ANALYZE does.
func TestExplainSetOpDoesNotRun(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	mustExec(t, s, "CREATE SEQUENCE eso")
	mustExec(t, s, "EXPLAIN SELECT nextval('eso') INTERSECT SELECT 1")
	mustExec(t, s, "EXPLAIN SELECT 1 / 0 EXCEPT SELECT 1")
	mustExec(t, s, "EXPLAIN WITH x AS (SELECT nextval('eso') AS n) SELECT * FROM x, x y")
	mustExec(t, s, "EXPLAIN SELECT 1 / 0 UNION SELECT 1")
	rows, _ := mustExec(t, s, "EXPLAIN (COSTS OFF) SELECT nextval('eso') UNION ALL SELECT 2")
	if len(rows) != 3 || rows[0][0] != "Append" || rows[1][0] != "  ->  Result" {
		t.Fatalf("EXPLAIN of UNION ALL: %v", rows)
	}
	rows, _ = mustExec(t, s, "SELECT nextval('eso')")
	if rows[0][0].(int64) != 1 {
		t.Fatalf("EXPLAIN ran the arm: nextval gives %v", rows[0][0])
	}
	mustExec(t, s, "EXPLAIN ANALYZE SELECT nextval('eso') INTERSECT SELECT 1")
	rows, _ = mustExec(t, s, "SELECT nextval('eso')")
	if rows[0][0].(int64) != 3 {
		t.Fatalf("EXPLAIN ANALYZE did not run the arm once: nextval gives %v", rows[0][0])
	}
}

// TestExplainSetOpArms: INTERSECT and EXCEPT show their arms as
// PostgreSQL does, an Append of Subquery Scans named "*SELECT* n", whose
// figures under ANALYZE are the arms' (the Append's their sum).
func TestExplainSetOpArms(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	mustExec(t, s, "CREATE TABLE esa (a int)")
	mustExec(t, s, "INSERT INTO esa SELECT generate_series(1, 5)")
	lines := func(q string) []string {
		t.Helper()
		rows, _ := mustExec(t, s, q)
		var out []string
		for _, r := range rows {
			out = append(out, r[0].(string))
		}
		return out
	}
	got := lines("EXPLAIN (COSTS OFF) SELECT a FROM esa INTERSECT SELECT a FROM esa WHERE a > 2")
	want := []string{"HashSetOp Intersect", "  ->  Append", `        ->  Subquery Scan on "*SELECT* 1"`,
		"              ->  Seq Scan on esa", `        ->  Subquery Scan on "*SELECT* 2"`,
		"              ->  Seq Scan on esa", "                    Filter: (a > 2)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("EXPLAIN:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = lines("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT a FROM esa EXCEPT ALL SELECT a FROM esa WHERE a > 2")
	if len(got) < 5 || got[0] != "HashSetOp Except All (actual rows=2 loops=1)" || got[1] != "  ->  Append (actual rows=8 loops=1)" ||
		got[2] != `        ->  Subquery Scan on "*SELECT* 1" (actual rows=5 loops=1)` {
		t.Fatalf("EXPLAIN ANALYZE:\n%s", strings.Join(got, "\n"))
	}
}

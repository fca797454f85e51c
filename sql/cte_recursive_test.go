package sql

import (
	"testing"

	"minipg/pgerr"
	"minipg/types"
)

// TestRecursiveBinding checks the shape a reference to a recursive CTE
// binds to: a recursive union whose recursive term reads its work table.
func TestRecursiveBinding(t *testing.T) {
	b, err := Prepare(testCat, "WITH RECURSIVE r(k) AS (SELECT id FROM t UNION SELECT k + 1 FROM r WHERE k < 5) SELECT k FROM r", nil)
	if err != nil {
		t.Fatal(err)
	}
	sel := b.Stmt.(*Select)
	u := sel.From[0].Sub
	if u == nil || u.SetOp != SetOpRecursive || u.UnionAll || len(u.Union) != 2 || u.WorkTable == 0 {
		t.Fatalf("not a recursive union: %+v", u)
	}
	rec := u.Union[1]
	if len(rec.From) != 1 || rec.From[0].WorkTable != u.WorkTable {
		t.Errorf("recursive term reads %+v, want work table %d", rec.From, u.WorkTable)
	}
	if b.Columns[0].Name != "k" || b.Columns[0].T.OID != types.Int4 {
		t.Errorf("column %+v", b.Columns[0])
	}
	// Two recursive CTEs, one inside the other's recursive term, get
	// work tables of their own.
	b, err = Prepare(testCat, "WITH RECURSIVE a(n) AS (SELECT 1 UNION ALL (WITH RECURSIVE c(m) AS (SELECT 1 UNION ALL SELECT m FROM c WHERE false) SELECT n + m FROM a, c WHERE n < 3)) SELECT * FROM a", nil)
	if err != nil {
		t.Fatal(err)
	}
	outer := b.Stmt.(*Select).From[0].Sub
	inner := outer.Union[1].From[0]
	if inner.WorkTable != outer.WorkTable {
		t.Errorf("outer recursive term reads %+v first, want work table %d", inner, outer.WorkTable)
	}
	if c := outer.Union[1].From[1].Sub; c == nil || c.SetOp != SetOpRecursive || c.WorkTable == outer.WorkTable {
		t.Errorf("inner recursive union %+v", c)
	}
}

func TestRecursiveErrors(t *testing.T) {
	const with = "WITH RECURSIVE r(n) AS (SELECT 1 "
	tests := []bindErrCase{
		{with + "UNION ALL SELECT n + 1::int8 FROM r) SELECT * FROM r", pgerr.DatatypeMismatch, 32},
		{with + "UNION ALL SELECT 'a' || n FROM r) SELECT * FROM r", pgerr.DatatypeMismatch, 51},
		{"WITH RECURSIVE r(n) AS (SELECT n FROM r) SELECT * FROM r", pgerr.InvalidRecursion, 16},
		{"WITH RECURSIVE r(n) AS (SELECT n FROM r UNION SELECT 1) SELECT * FROM r", pgerr.InvalidRecursion, 39},
		{with + "UNION ALL SELECT a.n FROM r a, r b) SELECT * FROM r", pgerr.InvalidRecursion, 65},
		{with + "UNION ALL SELECT (SELECT n FROM r)) SELECT * FROM r", pgerr.InvalidRecursion, 66},
		{with + "UNION ALL SELECT r.n FROM t LEFT JOIN r ON true) SELECT * FROM r", pgerr.InvalidRecursion, 0},
		{with + "UNION ALL (SELECT n FROM r INTERSECT ALL SELECT 2)) SELECT * FROM r", pgerr.InvalidRecursion, 0},
		{with + "UNION ALL (SELECT 2 EXCEPT SELECT n FROM r)) SELECT * FROM r", pgerr.InvalidRecursion, 0},
		{with + "UNION ALL SELECT count(*) FROM r) SELECT * FROM r", pgerr.InvalidRecursion, 51},
		{with + "UNION ALL SELECT n FROM r ORDER BY 1) SELECT * FROM r", pgerr.FeatureNotSupported, 0},
		{with + "UNION ALL SELECT n FROM r LIMIT 1) SELECT * FROM r", pgerr.FeatureNotSupported, 0},
		{"WITH RECURSIVE a(n) AS (SELECT 1 UNION ALL SELECT n FROM b), b(n) AS (SELECT 1 UNION ALL SELECT n FROM a) SELECT * FROM a",
			pgerr.FeatureNotSupported, 16},
		{"WITH RECURSIVE r(n, m) AS (SELECT 1 UNION ALL SELECT n FROM r) SELECT * FROM r", pgerr.Code("42P10"), 16},
		{with + "UNION ALL SELECT n, 2 FROM r) SELECT * FROM r", pgerr.SyntaxError, 51},
		{with + "UNION ALL SELECT n FROM r) SEARCH DEPTH FIRST BY n SET o SELECT * FROM r", pgerr.FeatureNotSupported, 0},
	}
	checkBindErrors(t, testCat, tests)
}

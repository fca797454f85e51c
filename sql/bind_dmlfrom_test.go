package sql

import (
	"testing"

	"minipg/pgerr"
)

// TestDMLFromLayout checks where UPDATE ... FROM and DELETE ... USING put
// the target in the joined row: last when WHERE joins a column leading one
// of its indexes to the other items (each of their rows looks it up), first
// otherwise; and that SET, WHERE and RETURNING read the target's slots.
func TestDMLFromLayout(t *testing.T) {
	tests := []struct {
		q      string
		target int // index of the target in Source.From
		base   int // its first slot
		items  int // len(Source.From)
	}{
		{"UPDATE t SET n = u.n FROM t u WHERE t.id = u.id", 1, 5, 2},
		{"UPDATE t SET n = u.n FROM t u WHERE u.id = t.id + 0 AND u.n > 1", 0, 0, 2},
		{"UPDATE t SET n = u.n FROM t u WHERE u.n = t.n", 0, 0, 2},
		{"UPDATE t SET n = 1 FROM t u WHERE t.id = 3", 0, 0, 2},
		{"DELETE FROM t USING (SELECT 1 AS k) q, t u WHERE t.id = q.k", 2, 6, 3},
		{"DELETE FROM t x USING t y WHERE x.id = y.id OR x.n = y.n", 0, 0, 2},
	}
	for _, tc := range tests {
		b, err := Prepare(testCat, tc.q, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		var f *DMLFrom
		switch s := b.Stmt.(type) {
		case *Update:
			f = s.From
			if s.Set[0].Col != 1 {
				t.Errorf("%s: SET column %d", tc.q, s.Set[0].Col)
			}
		case *Delete:
			f = s.From
		}
		if f == nil {
			t.Fatalf("%s: no FROM", tc.q)
		}
		if f.Target != tc.target || f.TargetBase() != tc.base || len(f.Source.From) != tc.items {
			t.Errorf("%s: target %d base %d of %d items, want %d %d %d", tc.q, f.Target, f.TargetBase(), len(f.Source.From), tc.target, tc.base, tc.items)
		}
		if tgt := f.Source.From[f.Target]; tgt.Table == nil || tgt.Table.Name != "t" || tgt.Width != 5 {
			t.Errorf("%s: target item %+v", tc.q, tgt)
		}
		// The tree's leaves are the items in From order.
		var leaves []int
		var walk func(j *JoinNode)
		walk = func(j *JoinNode) {
			if j.L == nil {
				leaves = append(leaves, j.Item)
				return
			}
			walk(j.L)
			walk(j.R)
		}
		walk(f.Source.Join)
		for i, l := range leaves {
			if l != i {
				t.Errorf("%s: leaves %v", tc.q, leaves)
				break
			}
		}
	}
	b, err := Prepare(testCat, "UPDATE t SET n = u.n + t.n FROM t u WHERE t.id = u.id RETURNING t.id, u.id, *", nil)
	if err != nil {
		t.Fatal(err)
	}
	up := b.Stmt.(*Update)
	var refs []int
	Walk(up.Set[0].E, func(e Expr) {
		if r, ok := e.(*ColRef); ok {
			refs = append(refs, r.Idx)
		}
	})
	if len(refs) != 2 || refs[0] != 1 || refs[1] != 6 {
		t.Errorf("SET reads slots %v, want [1 6]", refs)
	}
	if len(up.Returning) != 10 || up.Returning[0].(*ColRef).Idx != 5 || up.Returning[1].(*ColRef).Idx != 0 ||
		up.Returning[2].(*ColRef).Idx != 5 || up.Returning[6].(*ColRef).Idx != 0 {
		t.Errorf("RETURNING %v", up.Returning)
	}
	if up.Columns[0].TableOID != 16384 || up.Columns[0].AttNum != 1 {
		t.Errorf("RETURNING column %+v", up.Columns[0])
	}
	if up.Where == nil || up.From.Source.Where != up.Where {
		t.Errorf("WHERE is not the join's condition")
	}
}

// TestDMLFromErrors checks PostgreSQL's errors for the FROM list of UPDATE
// and the USING list of DELETE, with their positions.
func TestDMLFromErrors(t *testing.T) {
	tests := []struct {
		q    string
		code pgerr.Code
		pos  int32
		hint string
	}{
		{"UPDATE t SET n = 1 FROM t", pgerr.Code("42712"), 0, ""},
		{"DELETE FROM t x USING t y, t x", pgerr.Code("42712"), 0, ""},
		{"UPDATE t SET n = id FROM t u", pgerr.AmbiguousColumn, 18, ""},
		{"UPDATE t SET n = 1 FROM (SELECT t.n) q", pgerr.UndefinedTable, 33,
			`There is an entry for table "t", but it cannot be referenced from this part of the query.`},
		{"UPDATE t x SET n = 1 FROM (SELECT t.n) q", pgerr.UndefinedTable, 35,
			`There is an entry for table "x", but it cannot be referenced from this part of the query.`},
		{"UPDATE t SET n = 1 FROM (SELECT amt) q", pgerr.UndefinedColumn, 33,
			`There is a column named "amt" in table "t", but it cannot be referenced from this part of the query.`},
		{"UPDATE t SET n = 1 FROM LATERAL (SELECT amt) q", pgerr.InvalidColumnReference, 41,
			`There is an entry for table "t", but it cannot be referenced from this part of the query.`},
		{"DELETE FROM t USING generate_series(1, t.n) g", pgerr.InvalidColumnReference, 40, ""},
		{"DELETE FROM t USING t u JOIN t v ON v.id = t.id", pgerr.UndefinedTable, 44, ""},
		{"UPDATE t SET n = count(*) FROM t u", pgerr.GroupingError, 0, ""},
		{"UPDATE t SET n = 1 FROM t u WHERE u.n", pgerr.DatatypeMismatch, 35, ""},
	}
	for _, tc := range tests {
		_, err := Prepare(testCat, tc.q, nil)
		pe, ok := err.(*pgerr.Error)
		if !ok {
			t.Errorf("%s: %v, want %s", tc.q, err, tc.code)
			continue
		}
		if pe.Code != tc.code || (tc.pos != 0 && pe.Position != tc.pos) || (tc.hint != "" && pe.Hint != tc.hint) {
			t.Errorf("%s: %s at %d (%v, hint %q), want %s at %d", tc.q, pe.Code, pe.Position, pe, pe.Hint, tc.code, tc.pos)
		}
	}
}

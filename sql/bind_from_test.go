package sql

import "testing"

// TestCorrelation checks which subqueries are marked correlated and the
// levels of their outer references.
func TestCorrelation(t *testing.T) {
	tests := []struct {
		q          string
		correlated []bool // the subqueries of WHERE, outermost first
		levels     []int  // OuterRef levels found, in walk order
	}{
		{"SELECT id FROM t WHERE EXISTS (SELECT 1 FROM t u WHERE u.id = 1)", []bool{false}, nil},
		{"SELECT id FROM t WHERE EXISTS (SELECT 1 FROM t u WHERE u.id = t.id)", []bool{true}, []int{1}},
		// The inner subquery reads only the middle one: the middle one is
		// not correlated with the outer query.
		{"SELECT id FROM t WHERE EXISTS (SELECT 1 FROM t u WHERE EXISTS (SELECT 1 FROM t v WHERE v.id = u.id))", []bool{false, true}, []int{1}},
		// The inner subquery reads the outermost row: both are correlated.
		{"SELECT id FROM t WHERE EXISTS (SELECT 1 FROM t u WHERE EXISTS (SELECT 1 FROM t v WHERE v.n = t.n))", []bool{true, true}, []int{2}},
	}
	for _, tc := range tests {
		b, err := Prepare(testCat, tc.q, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		var got []bool
		var levels []int
		var visit func(s *Select)
		visit = func(s *Select) {
			Walk(s.Where, func(e Expr) {
				switch x := e.(type) {
				case *SubPlan:
					got = append(got, x.Correlated)
					visit(x.Select)
				case *OuterRef:
					levels = append(levels, x.Level)
				}
			})
		}
		visit(b.Stmt.(*Select))
		if len(got) != len(tc.correlated) || len(levels) != len(tc.levels) {
			t.Errorf("%s: correlated %v levels %v, want %v %v", tc.q, got, levels, tc.correlated, tc.levels)
			continue
		}
		for i := range got {
			if got[i] != tc.correlated[i] {
				t.Errorf("%s: correlated %v, want %v", tc.q, got, tc.correlated)
			}
		}
		for i := range levels {
			if levels[i] != tc.levels[i] {
				t.Errorf("%s: levels %v, want %v", tc.q, levels, tc.levels)
			}
		}
	}
}

// TestJoinUsingColumns checks the columns * and unqualified names see
// under JOIN ... USING: the merged column once, first.
func TestJoinUsingColumns(t *testing.T) {
	b, err := Prepare(testCat, "SELECT * FROM t a FULL JOIN t b USING (id, s)", nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range b.Columns {
		names = append(names, c.Name)
	}
	if got, want := len(names), 6; got != want {
		t.Fatalf("columns %v, want %d", names, want)
	}
	for i, want := range []string{"id", "s", "n", "amt", "n", "amt"} {
		if names[i] != want {
			t.Errorf("columns %v", names)
			break
		}
	}
	sel := b.Stmt.(*Select)
	if _, ok := sel.Targets[0].(*Coalesce); !ok {
		t.Errorf("FULL JOIN USING column is %T, want coalesce of both sides", sel.Targets[0])
	}
	if _, err := Prepare(testCat, "SELECT id FROM t a JOIN t b USING (id)", nil); err != nil {
		t.Errorf("unqualified merged column: %v", err)
	}
}

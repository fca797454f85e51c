package sql

import (
	"fmt"
	"testing"
)

// GROUP BY's grouping sets expand as PostgreSQL's expand_grouping_sets
// expands them; every distinct key is one entry of Group, the last entry
// the grouping set's id.
func TestGroupingSetsExpansion(t *testing.T) {
	for _, tc := range []struct {
		group string
		want  string // the sets, over Group's entries
		keys  int    // keys besides the set id
	}{
		{"ROLLUP (id, n)", "[[0 1] [0] []]", 2},
		{"CUBE (id, n)", "[[0 1] [0] [1] []]", 2},
		{"GROUPING SETS (id, (n, s), ())", "[[0] [1 2] []]", 3},
		{"id, ROLLUP (n, s)", "[[0 1 2] [0 1] [0]]", 3},
		{"ROLLUP ((id, n), s)", "[[0 1 2] [0 1] []]", 3},
		{"GROUPING SETS (ROLLUP (id), CUBE (n))", "[[0] [] [1] []]", 2},
		{"DISTINCT GROUPING SETS (ROLLUP (id), CUBE (n))", "[[0] [] [1]]", 2},
		{"ROLLUP (id), ROLLUP (id)", "[[0] [0] [0] []]", 1},
		{"()", "[[]]", 0},
		{"GROUPING SETS ((), GROUPING SETS ((), ()))", "[[] [] []]", 0},
		{"id, n + 1, CUBE (n + 1)", "[[0 1] [0 1]]", 2},
	} {
		b, err := Prepare(testCat, "SELECT count(*) FROM t GROUP BY "+tc.group, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.group, err)
			continue
		}
		sel := b.Stmt.(*Select)
		if got := fmt.Sprint(sel.GroupingSets); got != tc.want {
			t.Errorf("%s: sets %s, want %s", tc.group, got, tc.want)
		}
		if len(sel.Group) != tc.keys+1 {
			t.Errorf("%s: %d group entries, want %d and the set id", tc.group, len(sel.Group), tc.keys)
		} else if _, ok := sel.Group[tc.keys].(*GroupingSetID); !ok {
			t.Errorf("%s: the last group entry is %T", tc.group, sel.Group[tc.keys])
		}
	}
	b, err := Prepare(testCat, "SELECT count(*) FROM t GROUP BY id, n", nil)
	if err != nil || b.Stmt.(*Select).GroupingSets != nil || len(b.Stmt.(*Select).Group) != 2 {
		t.Fatalf("plain GROUP BY: %v", err)
	}
}

// GROUPING() gives each set's bits, the first argument's the highest.
func TestGroupingFuncValues(t *testing.T) {
	b, err := Prepare(testCat, "SELECT grouping(id, n), grouping(n) FROM t GROUP BY CUBE (id, n)", nil)
	if err != nil {
		t.Fatal(err)
	}
	sel := b.Stmt.(*Select)
	var got []string
	for _, e := range sel.Targets[:2] {
		g, ok := e.(*GroupingFunc)
		if !ok || g.Set == nil {
			t.Fatalf("target %T, want a resolved GroupingFunc", e)
		}
		got = append(got, fmt.Sprint(g.Values))
	}
	if want := "[[0 1 2 3] [0 1 0 1]]"; fmt.Sprint(got) != want {
		t.Fatalf("values %v, want %s", got, want)
	}
}

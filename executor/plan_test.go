package executor

import (
	"testing"

	"minipg/sql"
)

// TestPlanChoice checks which access path a WHERE clause gets.
func TestPlanChoice(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE p (w int, d int, o int, c int, v text, PRIMARY KEY (w, d, o))")
	mustExec(t, s, "CREATE INDEX p_c ON p (w, d, c, o)")
	tests := []struct {
		where  string
		index  string // "" = sequential scan
		eq     int
		in     bool
		sorted bool // ORDER BY o served by the index
	}{
		{"w = 1 AND d = 2 AND o = 3", "p_pkey", 3, false, true},
		{"w = $1 AND d = $2 ORDER BY o", "p_pkey", 2, false, true},
		{"w = 1 AND d = 2 AND o >= 5 AND o < 9", "p_pkey", 2, false, true},
		{"w = 1 AND d = 2 AND c = 7", "p_c", 3, false, true},
		{"w = 1 AND o IN (1, 2)", "p_pkey", 1, false, false},
		{"w = 1 AND d IN (1, 2) AND o = 4", "p_pkey", 3, true, false},
		{"d = 2", "", 0, false, false},
		{"v = 'x'", "", 0, false, false},
		{"w = 1 OR d = 2", "", 0, false, false},
		{"w::numeric = 1.5", "", 0, false, false},
	}
	for _, tc := range tests {
		q := "SELECT o FROM p WHERE " + tc.where
		if len(tc.where) < 9 || tc.where[len(tc.where)-10:] != "ORDER BY o" {
			q += " ORDER BY o"
		}
		p, err := s.Prepare(q, nil)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		st := p.bound.Stmt.(*sql.Select)
		r, _ := e.rel(st.Table.OID)
		plan := chooseIndex(r, st.Where)
		name := ""
		if plan != nil {
			name = plan.ri.def.Name
		}
		if name != tc.index {
			t.Errorf("%s: index %q, want %q", tc.where, name, tc.index)
			continue
		}
		if plan == nil {
			continue
		}
		if len(plan.eq) != tc.eq || (plan.inList != nil) != tc.in {
			t.Errorf("%s: eq %d in %v", tc.where, len(plan.eq), plan.inList != nil)
		}
		_, sorted := indexOrder(plan, []sql.SortKey{{Idx: 2}})
		if sorted != tc.sorted {
			t.Errorf("%s: sorted %v", tc.where, sorted)
		}
	}
}

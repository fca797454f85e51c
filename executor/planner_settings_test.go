package executor

import (
	"strings"
	"testing"
)

// TestIndexScanSwitch: with enable_indexscan off and enable_bitmapscan on,
// PostgreSQL reads through the index with a bitmap scan, which yields no
// order; minipg keeps its index scan for the rows but sorts them, and
// min/max no longer read the index's ends. The regress script
// planner_settings covers both switches off, where the plans are
// PostgreSQL's.
func TestIndexScanSwitch(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	mustExec(t, s, "CREATE TABLE iss (id int PRIMARY KEY, v int)")
	mustExec(t, s, "INSERT INTO iss SELECT g, g % 7 FROM generate_series(1, 100) g")
	plan := func(q string) string {
		t.Helper()
		rows, _ := mustExec(t, s, "EXPLAIN (COSTS OFF) "+q)
		var out []string
		for _, r := range rows {
			out = append(out, strings.TrimSpace(r[0].(string)))
		}
		return strings.Join(out, "\n")
	}
	const q = "SELECT id FROM iss WHERE id < 5 ORDER BY id DESC"
	if p := plan(q); strings.Contains(p, "Sort") || !strings.Contains(p, "Index Scan Backward") {
		t.Fatalf("index order not used with the defaults:\n%s", p)
	}
	mustExec(t, s, "SET enable_indexscan = off")
	if p := plan(q); !strings.HasPrefix(p, "Sort") || !strings.Contains(p, "Index Scan using iss_pkey") {
		t.Fatalf("enable_indexscan off: want a Sort over the index scan:\n%s", p)
	}
	rows, _ := mustExec(t, s, q)
	if len(rows) != 4 || rows[0][0].(int64) != 4 || rows[3][0].(int64) != 1 {
		t.Fatalf("enable_indexscan off: rows %v", rows)
	}
	if p := plan("SELECT min(id) FROM iss"); strings.Contains(p, "Index") {
		t.Fatalf("enable_indexscan off: min read the index:\n%s", p)
	}
	rows, _ = mustExec(t, s, "SELECT min(id), max(id) FROM iss")
	if rows[0][0].(int64) != 1 || rows[0][1].(int64) != 100 {
		t.Fatalf("min/max: %v", rows)
	}
	mustExec(t, s, "RESET enable_indexscan")
	if p := plan("SELECT min(id) FROM iss"); !strings.Contains(p, "Index") {
		t.Fatalf("min does not read the index after RESET:\n%s", p)
	}
}

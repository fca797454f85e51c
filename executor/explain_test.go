package executor

import (
	"regexp"
	"strings"
	"testing"

	"minipg/pgerr"
	"minipg/types"
)

// TestExplainAnalyze: EXPLAIN ANALYZE runs the pipeline and reports what
// happened in it: actual rows and loops per node (an inner side opened per
// outer row shows its loops), a sort that spilled says so, times appear
// with TIMING, Planning/Execution Time with SUMMARY, and an UPDATE under
// EXPLAIN ANALYZE changes the rows; plain EXPLAIN changes nothing.
func TestExplainAnalyze(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	mustExec(t, s, "CREATE TABLE ea (id int PRIMARY KEY, g int, t text)")
	mustExec(t, s, "INSERT INTO ea SELECT i, i % 5, repeat('y', 50) || i FROM generate_series(1, 5000) i")
	plan := func(q string, params ...types.Datum) string {
		t.Helper()
		rows, tag := mustExec(t, s, q, params...)
		if tag != "EXPLAIN" {
			t.Fatalf("%s: tag %q", q, tag)
		}
		var b strings.Builder
		for _, r := range rows {
			b.WriteString(r[0].(string) + "\n")
		}
		return b.String()
	}
	want := func(got string, res ...string) {
		t.Helper()
		for _, re := range res {
			if !regexp.MustCompile(re).MatchString(got) {
				t.Errorf("no %q in\n%s", re, got)
			}
		}
	}
	want(plan("EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF) SELECT * FROM ea a JOIN ea b ON b.id = a.g WHERE a.id <= 3"),
		`(?m)^Nested Loop \(actual rows=3 loops=1\)$`,
		`(?m)^  ->  Index Scan using ea_pkey on ea \(actual rows=3 loops=1\)$`,
		`(?m)^        Index Cond: \(id <= 3\)$`,
		`(?m)^  ->  Index Scan using ea_pkey on ea \(actual rows=1 loops=3\)$`)
	want(plan("EXPLAIN ANALYZE SELECT t FROM ea ORDER BY t DESC"),
		`(?m)^Sort \(actual time=\d+\.\d{3}\.\.\d+\.\d{3} rows=5000 loops=1\)$`,
		`(?m)^  Sort Key: t DESC$`,
		`(?m)^  Sort Method: quicksort  Memory: \d+kB$`,
		`(?m)^Planning Time: \d+\.\d{3} ms$`,
		`(?m)^Execution Time: \d+\.\d{3} ms$`)
	mustExec(t, s, "SET work_mem = '64kB'")
	want(plan("EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF) SELECT t FROM ea ORDER BY t"),
		`(?m)^  Sort Method: external merge  Disk: \d+kB$`)
	mustExec(t, s, "RESET work_mem")
	want(plan("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM ea WHERE g = 1 AND id < 100"),
		`(?m)^Index Scan using ea_pkey on ea \(actual rows=20 loops=1\)$`,
		`(?m)^  Index Cond: \(id < 100\)$`, `(?m)^  Filter: \(g = 1\)$`, `(?m)^  Rows Removed by Filter: 79$`)
	// The plan is for the value bound, as PostgreSQL's custom plan.
	want(plan("EXPLAIN SELECT * FROM ea WHERE id = $1", int64(3)), `(?m)^  Index Cond: \(id = 3\)$`)
	want(plan("EXPLAIN SELECT * FROM ea WHERE id = (SELECT max(g) FROM ea)"),
		`(?m)^  Index Cond: \(id = \$0\)$`, `(?m)^  InitPlan 1 \(returns \$0\)$`)

	plan("EXPLAIN UPDATE ea SET g = 99 WHERE id < 10")
	if rows, _ := mustExec(t, s, "SELECT count(*) FROM ea WHERE g = 99"); rows[0][0] != int64(0) {
		t.Errorf("EXPLAIN changed %v rows", rows[0][0])
	}
	want(plan("EXPLAIN (ANALYZE, SUMMARY OFF) UPDATE ea SET g = 99 WHERE id < 10"),
		`(?m)^Update on ea \(actual rows=0 loops=1\)$`,
		`(?m)^  ->  Index Scan using ea_pkey on ea \(actual rows=9 loops=1\)$`)
	if rows, _ := mustExec(t, s, "SELECT count(*) FROM ea WHERE g = 99"); rows[0][0] != int64(9) {
		t.Errorf("EXPLAIN ANALYZE UPDATE changed %v rows, want 9", rows[0][0])
	}
	for q, code := range map[string]pgerr.Code{
		"EXPLAIN (FORMAT JSON) SELECT 1": pgerr.FeatureNotSupported,
		"EXPLAIN (TIMING) SELECT 1":      pgerr.InvalidParameterValue,
		"EXPLAIN (ANALYZE 2) SELECT 1":   pgerr.SyntaxError,
		"EXPLAIN CREATE TABLE z (a int)": pgerr.SyntaxError,
		"EXPLAIN SELECT * FROM nosuch":   pgerr.UndefinedTable,
		"EXPLAIN (FORMAT nope) SELECT 1": pgerr.InvalidParameterValue,
	} {
		if _, _, err := exec(t, s, q); pgerr.CodeOf(err) != code {
			t.Errorf("%s: %v (%s), want %s", q, err, pgerr.CodeOf(err), code)
		}
		s.Sync()
	}
}

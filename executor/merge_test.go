package executor

import (
	"strings"
	"testing"
)

// TestMergeTagAndExplain: MERGE's command tag counts the rows inserted,
// updated and deleted, not those no clause (or DO NOTHING) took; EXPLAIN
// ANALYZE shows what became of every source row as PostgreSQL's
// show_modifytable_info does, and plain EXPLAIN changes nothing.
func TestMergeTagAndExplain(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	mustExec(t, s, "CREATE TABLE mgt (tid int PRIMARY KEY, balance int)")
	mustExec(t, s, "CREATE TABLE mgs (sid int, delta int)")
	mustExec(t, s, "INSERT INTO mgt VALUES (1, 10), (2, 20), (3, 30)")
	mustExec(t, s, "INSERT INTO mgs VALUES (2, 5), (3, -30), (4, 40), (5, 1)")
	const q = "MERGE INTO mgt t USING mgs s ON t.tid = s.sid " +
		"WHEN MATCHED AND s.delta < 0 THEN DELETE " +
		"WHEN MATCHED THEN UPDATE SET balance = t.balance + s.delta " +
		"WHEN NOT MATCHED AND s.sid = 4 THEN INSERT VALUES (s.sid, s.delta)"
	rows, _ := mustExec(t, s, "EXPLAIN (COSTS OFF) "+q)
	if len(rows) == 0 || rows[0][0] != "Merge on mgt t" || !strings.Contains(rows[1][0].(string), "Nested Loop Left Join") {
		t.Fatalf("EXPLAIN MERGE: %v", rows)
	}
	if rows, _ := mustExec(t, s, "SELECT count(*) FROM mgt"); rows[0][0].(int64) != 3 {
		t.Fatalf("plain EXPLAIN ran the MERGE: %v rows", rows[0][0])
	}
	rows, _ = mustExec(t, s, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) "+q)
	var plan []string
	for _, r := range rows {
		plan = append(plan, r[0].(string))
	}
	if len(plan) < 3 || plan[1] != "  Tuples: inserted=1 updated=1 deleted=1 skipped=1" ||
		!strings.Contains(plan[2], "(actual rows=4 loops=1)") {
		t.Fatalf("EXPLAIN ANALYZE MERGE:\n%s", strings.Join(plan, "\n"))
	}
	got, _ := mustExec(t, s, "SELECT tid, balance FROM mgt ORDER BY tid")
	if len(got) != 3 || got[1][1].(int64) != 25 || got[2][0].(int64) != 4 {
		t.Fatalf("after EXPLAIN ANALYZE: %v", got)
	}
	_, tag := mustExec(t, s, "MERGE INTO mgt t USING mgs s ON t.tid = s.sid "+
		"WHEN MATCHED AND s.sid = 2 THEN DO NOTHING WHEN MATCHED THEN UPDATE SET balance = 0 "+
		"WHEN NOT MATCHED THEN INSERT VALUES (s.sid, s.delta)")
	if tag != "MERGE 3" { // 4 updated, 3 and 5 inserted; 2 skipped
		t.Fatalf("tag %q", tag)
	}
}

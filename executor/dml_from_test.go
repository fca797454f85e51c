package executor

import (
	"fmt"
	"strings"
	"testing"
)

// TestUpdateFromPlan: EXPLAIN of UPDATE ... FROM and DELETE ... USING shows
// the statement's node over the join, the target looked up by its index per
// row of the other items when WHERE joins an indexed column of it, else
// scanned first; EXPLAIN ANALYZE runs the statement.
func TestUpdateFromPlan(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	mustExec(t, s, "CREATE TABLE uft (id int PRIMARY KEY, a int, b text)")
	mustExec(t, s, "CREATE TABLE ufs (id int, v int)")
	mustExec(t, s, "INSERT INTO uft SELECT i, i, 'x' FROM generate_series(1, 100) i")
	mustExec(t, s, "INSERT INTO ufs VALUES (1, 10), (2, 20), (3, 30)")
	plan := func(q string) string {
		t.Helper()
		rows, _ := mustExec(t, s, q)
		var lines []string
		for _, r := range rows {
			lines = append(lines, r[0].(string))
		}
		return strings.Join(lines, "\n")
	}
	for _, c := range []struct{ q, want string }{
		{"EXPLAIN UPDATE uft SET a = ufs.v FROM ufs WHERE uft.id = ufs.id", `Update on uft
  ->  Nested Loop
        ->  Seq Scan on ufs
        ->  Index Scan using uft_pkey on uft
              Index Cond: (id = id)`},
		{"EXPLAIN DELETE FROM uft USING ufs WHERE uft.a = ufs.v AND uft.b = 'x'", `Delete on uft
  ->  Nested Loop
        ->  Seq Scan on uft
              Filter: (b = 'x'::text)
        ->  Seq Scan on ufs
              Filter: (a = v)`},
		{"EXPLAIN UPDATE uft SET a = q.n FROM (SELECT id, v FROM ufs WHERE v > 10) q (k, n) WHERE q.k = uft.id", `Update on uft
  ->  Nested Loop
        ->  Seq Scan on ufs
              Filter: (v > 10)
        ->  Index Scan using uft_pkey on uft
              Index Cond: (id = k)`},
		{"EXPLAIN UPDATE uft SET (a, b) = (SELECT v, 'y' FROM ufs WHERE ufs.id = uft.id) WHERE id < 3", `Update on uft
  ->  Index Scan using uft_pkey on uft
        Index Cond: (id < 3)
        SubPlan 1 (returns $0,$1)
          ->  Seq Scan on ufs
                Filter: (id = uft.id)`},
	} {
		if got := plan(c.q); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.q, got, c.want)
		}
	}
	got := plan("EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF) UPDATE uft SET a = ufs.v FROM ufs WHERE uft.id = ufs.id")
	if !strings.Contains(got, "Update on uft (actual rows=0 loops=1)") || !strings.Contains(got, "Nested Loop (actual rows=3 loops=1)") {
		t.Errorf("EXPLAIN ANALYZE:\n%s", got)
	}
	rows, _ := mustExec(t, s, "SELECT sum(a) FROM uft WHERE id <= 3")
	if fmt.Sprint(rows) != "[[60]]" {
		t.Errorf("after EXPLAIN ANALYZE: %v", rows)
	}
}

// TestUpdateFromOnce: a target row joined to many rows is changed once
// (the tag counts it once), its index entries follow the new values, and
// an UPDATE ... FROM of a column no index covers is heap-only.
func TestUpdateFromOnce(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	mustExec(t, s, "CREATE TABLE ufo (id int PRIMARY KEY, k int, note text)")
	mustExec(t, s, "CREATE INDEX ufo_k ON ufo (k)")
	mustExec(t, s, "CREATE TABLE ufm (id int)")
	mustExec(t, s, "INSERT INTO ufo SELECT i, i, 'n' FROM generate_series(1, 50) i")
	mustExec(t, s, "INSERT INTO ufm SELECT i % 5 FROM generate_series(1, 100) i")
	if _, tag := mustExec(t, s, "UPDATE ufo SET k = ufo.k + 1000 FROM ufm WHERE ufo.id = ufm.id"); tag != "UPDATE 4" {
		t.Errorf("tag %q, want UPDATE 4", tag)
	}
	rows, _ := mustExec(t, s, "SELECT id FROM ufo WHERE k > 1000 ORDER BY k")
	if fmt.Sprint(rows) != "[[1] [2] [3] [4]]" {
		t.Errorf("index lookup after UPDATE ... FROM: %v", rows)
	}
	rows, _ = mustExec(t, s, "SELECT count(*) FROM ufo WHERE k = 2")
	if fmt.Sprint(rows) != "[[0]]" {
		t.Errorf("old key still found: %v", rows)
	}
	hot := func() string {
		rows, _ := mustExec(t, s, "SELECT updates_hot FROM minipg_stat_heap WHERE relname = 'ufo'")
		return fmt.Sprint(rows)
	}
	before := hot()
	if _, tag := mustExec(t, s, "UPDATE ufo SET note = 'm' FROM ufm WHERE ufo.id = ufm.id"); tag != "UPDATE 4" {
		t.Errorf("tag %q, want UPDATE 4", tag)
	}
	if after := hot(); before != "[[0]]" || after != "[[4]]" {
		t.Errorf("heap-only updates %s before, %s after, want 0 and 4", before, after)
	}
	if _, tag := mustExec(t, s, "DELETE FROM ufo USING ufm WHERE ufo.id = ufm.id + 10"); tag != "DELETE 5" {
		t.Errorf("tag %q, want DELETE 5", tag)
	}
}

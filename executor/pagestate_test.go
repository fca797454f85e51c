package executor

import (
	"fmt"
	"strings"
	"testing"
)

// pageStates runs minipg_page_state on tbl and returns its rows as
// "blkno|state|fsm_avail|owner" lines.
func pageStates(t *testing.T, s *Session, tbl string) []string {
	t.Helper()
	out := runSimple(s, "SELECT blkno, state, fsm_avail, owner FROM minipg_page_state('"+tbl+"') ORDER BY blkno", "")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 2 || lines[0] != "blkno|state|fsm_avail|owner" || strings.Contains(out, "ERROR") {
		t.Fatalf("minipg_page_state('%s'):\n%s", tbl, out)
	}
	return lines[1 : len(lines)-1] // without the header and the command tag
}

// mustRun runs q as runSimple does and returns what it rendered; an error
// fails the test.
func mustRun(t *testing.T, s *Session, q string) string {
	t.Helper()
	out := runSimple(s, q, "")
	if strings.Contains(out, "ERROR") {
		t.Fatalf("%s: %s", q, out)
	}
	return out
}

// mustValue runs q, which must return one row, and returns that row as
// runSimple renders it (one column: its value).
func mustValue(t *testing.T, s *Session, q string) string {
	t.Helper()
	out := runSimple(s, q, "")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || strings.Contains(out, "ERROR") {
		t.Fatalf("%s:\n%s", q, out)
	}
	return lines[1]
}

// The same table under each policy (the layout of TestInspectPolicies:
// seven blocks, rows deleted from blocks 1-5, VACUUM): minipg_page_state
// shows each policy's view, its fsm_avail agrees with pg_freespace where
// the policy keeps a map, and the loading session's page carries its pid.
func TestPageStatePolicies(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	mustRun(t, s, "CREATE EXTENSION pg_freespacemap")
	pid := fmt.Sprint(s.PID())
	run := func(policy string) (before, after []string, fsm string) {
		tbl := "ps_" + policy
		mustRun(t, s, "CREATE TABLE "+tbl+" (id int NOT NULL, flag int, pad text) WITH (fsm_policy="+policy+")")
		mustRun(t, s, "INSERT INTO "+tbl+" SELECT g, CASE WHEN g % 5 = 0 THEN NULL ELSE g % 3 END, repeat(chr(97 + g % 26), 200) FROM generate_series(1, 200) g")
		before = pageStates(t, s, tbl)
		mustRun(t, s, "DELETE FROM "+tbl+" WHERE id BETWEEN 40 AND 100")
		mustRun(t, s, "DELETE FROM "+tbl+" WHERE id IN (150, 151, 152)")
		mustRun(t, s, "VACUUM "+tbl)
		after = pageStates(t, s, tbl)
		fsm = runSimple(s, "SELECT blkno, avail FROM pg_freespace('"+tbl+"') ORDER BY blkno", "")
		return before, after, fsm
	}
	check := func(policy, when string, got, want []string) {
		t.Helper()
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s, %s:\n%s\nwant:\n%s", policy, when, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}

	// classic: every block open, with what the map records: the leftover
	// each page was left with, the last page (the target) unrecorded;
	// after VACUUM pg_freespace's figures (PostgreSQL's).
	before, after, fsm := run("classic")
	check("classic", "after the load", before, []string{
		"0|open|160|NULL", "1|open|160|NULL", "2|open|160|NULL", "3|open|160|NULL",
		"4|open|160|NULL", "5|open|160|NULL", "6|open|0|NULL"})
	check("classic", "after VACUUM", after, []string{
		"0|open|160|NULL", "1|open|6688|NULL", "2|open|8160|NULL", "3|open|384|NULL",
		"4|open|864|NULL", "5|open|160|NULL", "6|open|7680|NULL"})
	for _, row := range after {
		f := strings.Split(row, "|")
		if !strings.Contains(fsm, "\n"+f[0]+"|"+f[2]+"\n") {
			t.Errorf("classic block %s: fsm_avail %s, pg_freespace:\n%s", f[0], f[2], fsm)
		}
	}

	// locality: the pages the session left full are closed (the map
	// records 0), the one it is filling is loading, with its pid; VACUUM
	// reopens the pages it finds under the reopen threshold (1 and 2),
	// keeps the others closed, and the session's page, given back as the
	// session has not moved since, is open.
	before, after, fsm = run("locality")
	if len(before) != 7 || before[6] != "6|loading|0|"+pid {
		t.Errorf("locality after the load, the session's page: %v, want 6|loading|0|%s", before, pid)
	}
	for _, row := range before[4:6] {
		if !strings.HasSuffix(row, "|closed|0|NULL") {
			t.Errorf("locality after the load: %s, want closed", row)
		}
	}
	check("locality", "after VACUUM", after, []string{
		"0|closed|0|NULL", "1|reopened|6688|NULL", "2|reopened|8160|NULL", "3|closed|0|NULL",
		"4|closed|0|NULL", "5|closed|0|NULL", "6|open|7680|NULL"})
	for _, row := range after {
		f := strings.Split(row, "|")
		if !strings.Contains(fsm, "\n"+f[0]+"|"+f[2]+"\n") {
			t.Errorf("locality block %s: fsm_avail %s, pg_freespace:\n%s", f[0], f[2], fsm)
		}
	}

	// append: no map, nothing to say but append.
	before, after, _ = run("append")
	for _, rows := range [][]string{before, after} {
		if len(rows) != 7 {
			t.Fatalf("append: %v", rows)
		}
		for i, row := range rows {
			if want := fmt.Sprintf("%d|append|NULL|NULL", i); row != want {
				t.Errorf("append: %s, want %s", row, want)
			}
		}
	}

	// A locality table of fsm_small_table_blocks blocks or fewer has no map.
	mustRun(t, s, "CREATE TABLE ps_small (id int) WITH (fsm_policy=locality)")
	mustRun(t, s, "INSERT INTO ps_small VALUES (1)")
	check("locality", "a one-row table", pageStates(t, s, "ps_small"), []string{"0|small|NULL|NULL"})
	if out := runSimple(s, "SELECT state FROM minipg_page_state('ps_small'::regclass)", ""); !strings.Contains(out, "\nsmall\n") {
		t.Errorf("regclass argument: %s", out)
	}
	// An empty table has no rows; a NULL argument gives none either.
	mustRun(t, s, "CREATE TABLE ps_empty (id int)")
	if out := runSimple(s, "SELECT count(*) FROM minipg_page_state('ps_empty')", ""); !strings.Contains(out, "\n0\n") {
		t.Errorf("empty table: %s", out)
	}
	if out := runSimple(s, "SELECT count(*) FROM minipg_page_state(NULL)", ""); !strings.Contains(out, "\n0\n") {
		t.Errorf("NULL: %s", out)
	}
	// Errors are pg_freespace's.
	if out := runSimple(s, "SELECT * FROM minipg_page_state('no_such_table')", ""); !strings.Contains(out, "ERROR 42P01") {
		t.Errorf("missing table: %s", out)
	}
	mustRun(t, s, "CREATE INDEX ps_small_id ON ps_small (id)")
	if out := runSimple(s, "SELECT * FROM minipg_page_state('ps_small_id')", ""); !strings.Contains(out, "ERROR 42809") {
		t.Errorf("an index: %s", out)
	}
}

// Two sessions loading one locality table in turns: once the other is
// active, a session leaving its page gets a run; minipg_page_state shows
// its page loading and the run reserved, both with its pid, and the other
// session's page with the other's.
func TestPageStateLoaders(t *testing.T) {
	e := openTestEngine(t, "")
	a := e.NewSession(map[string]string{"user": "postgres"})
	b := e.NewSession(map[string]string{"user": "postgres"})
	mustRun(t, a, "CREATE TABLE ps_load (id int, pad text) WITH (fsm_policy=locality)")
	ins := func(s *Session, from, n int) {
		mustRun(t, s, fmt.Sprintf("INSERT INTO ps_load SELECT g, repeat('x', 1000) FROM generate_series(%d, %d) g", from, from+n-1))
	}
	ins(a, 1, 800) // 115 blocks: runs of 3 pages for two loaders
	ins(b, 1000, 3)
	ins(a, 2000, 10) // fills the page it was on and one of its run
	pa, pb := fmt.Sprint(a.PID()), fmt.Sprint(b.PID())
	count := map[string]int{}
	for _, row := range pageStates(t, a, "ps_load") {
		f := strings.Split(row, "|")
		switch f[1] {
		case "loading", "reserved":
			count[f[1]+"/"+f[3]]++
			if f[2] != "0" {
				t.Errorf("%s: a loading session's page is advertised", row)
			}
		}
	}
	if count["loading/"+pa] != 1 || count["reserved/"+pa] == 0 || count["loading/"+pb] != 1 {
		t.Fatalf("loading and reserved pages per pid (a %s, b %s): %v\n%s", pa, pb, count,
			runSimple(a, "SELECT * FROM minipg_page_state('ps_load') WHERE state <> 'closed'", ""))
	}
}

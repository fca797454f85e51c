package executor

import (
	"strings"
	"testing"
	"time"
)

// TestPruneBehindSetting: a table whose pages are pruned behind its
// updates (heap_prune_behind on, or auto under the locality policy) is
// pruned soon after a committed UPDATE, by one PRUNE record without a
// full-page image (the update logged the page after the checkpoint); a
// table with it off, or auto under the classic policy, updated in the
// same transaction, is not.
func TestPruneBehindSetting(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	if v := mustValue(t, s, "SHOW heap_prune_behind"); v != "auto" {
		t.Errorf("SHOW heap_prune_behind: %q, want auto", v)
	}
	tables := []struct {
		name, with string
		pruned     bool
	}{
		{"pb_auto", "", true}, // the server's policy, locality
		{"pb_on", "fsm_policy = classic, heap_prune_behind = true", true},
		{"pb_classic", "fsm_policy = classic", false},
		{"pb_off", "heap_prune_behind = off", false},
	}
	for _, q := range []string{"CREATE EXTENSION pageinspect", "CREATE EXTENSION pg_walinspect"} {
		mustRun(t, s, q)
	}
	update := "BEGIN"
	for _, tb := range tables {
		with := ""
		if tb.with != "" {
			with = " WITH (" + tb.with + ")"
		}
		mustRun(t, s, "CREATE TABLE "+tb.name+" (id int PRIMARY KEY, v int)"+with)
		mustRun(t, s, "INSERT INTO "+tb.name+" SELECT g, 0 FROM generate_series(1, 10) g")
		update += "; UPDATE " + tb.name + " SET v = 1 WHERE id = 1"
	}
	mustRun(t, s, "CHECKPOINT")
	if out := runSimple(s, "ALTER TABLE pb_off SET (heap_prune_behind = sometimes)", ""); !strings.Contains(out, "22023") {
		t.Errorf("a bad value: %s, want SQLSTATE 22023", out)
	}
	start := mustValue(t, s, "SELECT pg_current_wal_lsn()")
	mustRun(t, s, update+"; COMMIT")
	lpFlags := func(table string) string {
		return mustValue(t, s, "SELECT lp_flags FROM heap_page_items(get_raw_page('"+table+"', 0)) WHERE lp = 1")
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, tb := range tables {
		for tb.pruned && lpFlags(tb.name) != "2" { // LP_REDIRECT
			if time.Now().After(deadline) {
				t.Fatalf("%s's updated row was not pruned in 10 s: lp_flags %s", tb.name, lpFlags(tb.name))
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	for _, tb := range tables {
		if f := lpFlags(tb.name); !tb.pruned && f != "1" { // LP_NORMAL
			t.Errorf("%s's updated row has lp_flags %s, want 1 (not pruned)", tb.name, f)
		}
	}
	mustRun(t, s, "CHECKPOINT") // flushes the WAL, so that pg_walinspect reads the prunes
	recs := mustRun(t, s, "SELECT record_type, fpi_length FROM pg_get_wal_records_info('"+start+
		"', pg_current_wal_flush_lsn()) WHERE resource_manager = 'Heap2' ORDER BY start_lsn")
	if strings.Count(recs, "PRUNE|0\n") != 2 || strings.Count(recs, "PRUNE") != 2 {
		t.Errorf("WAL since the update, Heap2 records:\n%s\nwant two PRUNEs without an image", recs)
	}
	mustRun(t, s, "SET heap_prune_behind = yes")
	if v := mustValue(t, s, "SHOW heap_prune_behind"); v != "on" {
		t.Errorf("SET heap_prune_behind = yes: SHOW says %q, want on", v)
	}
}

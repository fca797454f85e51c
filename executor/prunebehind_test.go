package executor

import (
	"strings"
	"testing"
	"time"
)

// TestPruneBehindSetting: with heap_prune_behind on, a table's page is
// pruned soon after a committed UPDATE, by a PRUNE record without a
// full-page image (the update logged the page after the checkpoint); a
// table without the option, updated in the same transaction, is not.
func TestPruneBehindSetting(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	value := func(q string) string { // the first row of a one-column result
		t.Helper()
		lines := strings.Split(mustRun(t, s, q), "\n")
		if len(lines) < 2 {
			t.Fatalf("%s: no row", q)
		}
		return lines[1]
	}
	for _, q := range []string{
		"CREATE EXTENSION pageinspect", "CREATE EXTENSION pg_walinspect",
		"CREATE TABLE pb_on (id int PRIMARY KEY, v int) WITH (heap_prune_behind = on)",
		"CREATE TABLE pb_off (id int PRIMARY KEY, v int)",
		"INSERT INTO pb_on SELECT g, 0 FROM generate_series(1, 10) g",
		"INSERT INTO pb_off SELECT g, 0 FROM generate_series(1, 10) g",
		"CHECKPOINT",
	} {
		mustRun(t, s, q)
	}
	if v := value("SHOW heap_prune_behind"); v != "off" {
		t.Errorf("SHOW heap_prune_behind: %q, want off", v)
	}
	if out := runSimple(s, "ALTER TABLE pb_off SET (heap_prune_behind = sometimes)", ""); !strings.Contains(out, "22023") {
		t.Errorf("a bad value: %s, want SQLSTATE 22023", out)
	}
	start := value("SELECT pg_current_wal_lsn()")
	mustRun(t, s, "BEGIN; UPDATE pb_off SET v = 1 WHERE id = 1; UPDATE pb_on SET v = 1 WHERE id = 1; COMMIT")
	const lpFlags = "SELECT lp_flags FROM heap_page_items(get_raw_page('%s', 0)) WHERE lp = 1"
	deadline := time.Now().Add(10 * time.Second)
	for value(strings.Replace(lpFlags, "%s", "pb_on", 1)) != "2" { // LP_REDIRECT
		if time.Now().After(deadline) {
			t.Fatalf("pb_on's updated row was not pruned in 10 s: lp_flags %s",
				value(strings.Replace(lpFlags, "%s", "pb_on", 1)))
		}
		time.Sleep(5 * time.Millisecond)
	}
	if f := value(strings.Replace(lpFlags, "%s", "pb_off", 1)); f != "1" { // LP_NORMAL
		t.Errorf("pb_off's updated row has lp_flags %s, want 1 (not pruned)", f)
	}
	mustRun(t, s, "CHECKPOINT") // flushes the WAL, so that pg_walinspect reads the prune
	recs := mustRun(t, s, "SELECT record_type, fpi_length FROM pg_get_wal_records_info('"+start+
		"', pg_current_wal_flush_lsn()) WHERE resource_manager = 'Heap2' ORDER BY start_lsn")
	if !strings.Contains(recs, "PRUNE|0\n") || strings.Count(recs, "PRUNE") != 1 {
		t.Errorf("WAL since the update, Heap2 records:\n%s\nwant one PRUNE without an image", recs)
	}
}

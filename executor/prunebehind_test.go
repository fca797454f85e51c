package executor

import (
	"context"
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

// TestReclaimBehindIndexes: under the default settings a locality table's
// pruner frees the line pointers its prunes leave LP_DEAD (deleted rows,
// versions a non-HOT update moved away) at once: their index entries are
// deleted, the heap's change is one VACUUM record without an image, and
// the freed TIDs are reused by the next inserts with every index right
// (lookups through each index; amcheck's heapallindexed on disk indexes). With
// heap_reclaim_behind off the line pointers stay LP_DEAD for VACUUM.
func TestReclaimBehindIndexes(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	for _, q := range []string{"CREATE EXTENSION pageinspect", "CREATE EXTENSION pg_walinspect", "CREATE EXTENSION amcheck",
		"CREATE TABLE rb_on (id int PRIMARY KEY, k int, pad text)",
		"CREATE TABLE rb_off (id int PRIMARY KEY, k int, pad text) WITH (heap_reclaim_behind = off)",
		"CREATE INDEX rb_on_k ON rb_on (k)", "CREATE INDEX rb_off_k ON rb_off (k)",
		"INSERT INTO rb_on SELECT g, g * 10, 'row ' || g FROM generate_series(1, 10) g",
		"INSERT INTO rb_off SELECT g, g * 10, 'row ' || g FROM generate_series(1, 10) g",
		"CHECKPOINT"} {
		mustRun(t, s, q)
	}
	start := mustValue(t, s, "SELECT pg_current_wal_lsn()")
	// Rows 1-3 deleted; row 5's k changed (not HOT: its old version's
	// line pointer becomes LP_DEAD too).
	mustRun(t, s, "BEGIN; DELETE FROM rb_on WHERE id <= 3; DELETE FROM rb_off WHERE id <= 3; "+
		"UPDATE rb_on SET k = 55 WHERE id = 5; UPDATE rb_off SET k = 55 WHERE id = 5; COMMIT")
	lpFlags := func(table string) string {
		return mustValue(t, s, "SELECT string_agg(lp_flags::text, ',' ORDER BY lp) FROM heap_page_items(get_raw_page('"+
			table+"', 0)) WHERE lp IN (1, 2, 3, 5)")
	}
	// The pruner gathers a page's changes for a while; a checkpoint
	// prunes what waits before it moves the redo point.
	mustRun(t, s, "CHECKPOINT")
	for table, w := range map[string]string{"rb_on": "0,0,0,0", "rb_off": "3,3,3,3"} { // LP_UNUSED, LP_DEAD
		if got := lpFlags(table); got != w {
			t.Fatalf("%s: line pointers 1, 2, 3, 5 have flags %s after a CHECKPOINT, want %s", table, got, w)
		}
	}
	recs := mustRun(t, s, "SELECT record_type, fpi_length FROM pg_get_wal_records_info('"+start+
		"', pg_current_wal_flush_lsn()) WHERE resource_manager = 'Heap2' ORDER BY start_lsn")
	if strings.Count(recs, "PRUNE|0\n") != 2 || strings.Count(recs, "VACUUM|0\n") != 1 || !strings.HasSuffix(recs, "SELECT 3\n") {
		t.Errorf("Heap2 records since the deletes:\n%s\nwant two PRUNEs and one VACUUM, without images", recs)
	}

	for table, w := range map[string]string{"rb_on": "3|1|4|0", "rb_off": "3|1|0|0"} {
		got := mustRun(t, s, "SELECT deletes, pages_pruned_behind, reclaimed_behind, reclaim_refused FROM minipg_stat_heap WHERE relname = '"+table+"'")
		if want := "deletes|pages_pruned_behind|reclaimed_behind|reclaim_refused\n" + w + "\nSELECT 1\n"; got != want {
			t.Errorf("minipg_stat_heap for %s:\n%s\nwant\n%s", table, got, want)
		}
	}

	// The freed TIDs take new rows, some with the deleted rows' keys.
	for _, table := range []string{"rb_on", "rb_off"} {
		mustRun(t, s, "INSERT INTO "+table+" VALUES (1, 10, 'again'), (3, 31, 'again'), (11, 110, 'new'), (12, 50, 'new')")
	}
	if got := mustValue(t, s, "SELECT string_agg(t_ctid::text, ' ' ORDER BY lp) FROM heap_page_items(get_raw_page('rb_on', 0)) WHERE lp IN (1, 2, 3, 5)"); got != "(0,1) (0,2) (0,3) (0,5)" {
		t.Errorf("rb_on's freed line pointers hold %q, want the four new rows", got)
	}
	mustRun(t, s, "SET enable_seqscan = off")
	onDisk := mustValue(t, s, "SHOW index_storage") == "disk" // amcheck checks disk indexes
	for _, table := range []string{"rb_on", "rb_off"} {
		for _, q := range []struct{ where, want string }{
			{"id = 1", "1|10|again"}, {"id = 2", ""}, {"id = 3", "3|31|again"}, {"id = 5", "5|55|row 5"},
			{"k = 10", "1|10|again"}, {"k = 30", ""}, {"k = 50", "12|50|new"}, {"k = 55", "5|55|row 5"},
		} {
			got := mustRun(t, s, "SELECT id, k, pad FROM "+table+" WHERE "+q.where)
			if w := "id|k|pad\n" + q.want + "\nSELECT 1\n"; q.want == "" && got != "id|k|pad\nSELECT 0\n" || q.want != "" && got != w {
				t.Errorf("%s WHERE %s: %q, want %q", table, q.where, got, q.want)
			}
		}
		if onDisk {
			for _, ix := range []string{table + "_pkey", table + "_k"} {
				mustRun(t, s, "SELECT bt_index_check('"+ix+"', true)")
			}
		}
	}
	if got := mustValue(t, s, "SELECT count(*) FROM rb_on WHERE k BETWEEN 0 AND 1000"); got != "11" {
		t.Errorf("rb_on through its k index: %s rows, want 11", got)
	}
}

// TestReclaimSlot: a reclaim behind and a VACUUM of one table exclude each
// other through its vacuum slot: a reclaim never waits (refused while a
// VACUUM holds or waits for the slot), a VACUUM waits for the reclaims
// running, and reclaims run side by side; an ANALYZE alone neither waits
// for reclaims nor keeps them off.
func TestReclaimSlot(t *testing.T) {
	e := openTestEngine(t, "")
	const oid = 424242
	r1, ok := tryReclaimSlot(e.vacSlot(oid))
	if !ok {
		t.Fatal("a reclaim was refused on an idle table")
	}
	r2, ok := tryReclaimSlot(e.vacSlot(oid))
	if !ok {
		t.Fatal("a second reclaim was refused beside the first")
	}
	// askVacuum asks for the slot for a VACUUM in the background; the
	// channel gets its release once it has it (closed on an error).
	askVacuum := func() chan func() {
		got := make(chan func())
		go func() {
			release, err := e.vacuumSlot(context.Background(), oid, nil, false)
			if err != nil {
				t.Error(err)
				close(got)
				return
			}
			got <- release
		}()
		return got
	}
	got := askVacuum()
	// The VACUUM waits for both reclaims; once it has asked for the slot,
	// new ones are refused (those taken before it asked run on).
	var before []func()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, ok := tryReclaimSlot(e.vacSlot(oid))
		if !ok {
			break
		}
		before = append(before, r)
		if time.Now().After(deadline) {
			t.Fatal("reclaims still taken 10 s after a VACUUM asked for the slot")
		}
		time.Sleep(time.Millisecond)
	}
	r1()
	for _, r := range before {
		r()
	}
	select {
	case <-got:
		t.Fatal("the VACUUM started while a reclaim was running")
	case <-time.After(20 * time.Millisecond):
	}
	r2()
	release := <-got
	if release == nil {
		t.Fatal("no slot for the VACUUM")
	}
	if _, ok := tryReclaimSlot(e.vacSlot(oid)); ok {
		t.Fatal("a reclaim was let in during a VACUUM")
	}
	release()
	if r, ok := tryReclaimSlot(e.vacSlot(oid)); !ok {
		t.Fatal("a reclaim was refused after the VACUUM")
	} else {
		r()
	}

	// An ANALYZE alone takes the slot with a reclaim running and lets
	// more in; a VACUUM still waits for the ANALYZE, then for the
	// reclaims it let in.
	r3, _ := tryReclaimSlot(e.vacSlot(oid))
	analyze, err := e.vacuumSlot(context.Background(), oid, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	r4, ok := tryReclaimSlot(e.vacSlot(oid))
	if !ok {
		t.Fatal("a reclaim was refused during an ANALYZE")
	}
	r3()
	vacuum := askVacuum()
	select {
	case <-vacuum:
		t.Fatal("a VACUUM started during an ANALYZE")
	case <-time.After(30 * time.Millisecond):
	}
	analyze()
	select {
	case <-vacuum:
		t.Fatal("the VACUUM started while a reclaim let in by the ANALYZE was running")
	case <-time.After(30 * time.Millisecond):
	}
	r4()
	if release := <-vacuum; release == nil {
		t.Fatal("no slot for the VACUUM after the ANALYZE")
	} else {
		release()
	}
}

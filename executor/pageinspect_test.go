package executor

import (
	"fmt"
	"strings"
	"testing"
)

// TestInspectPolicies runs the regress script's inspection (pageinspect,
// pg_freespace, pg_walinspect) on a table under each free-space policy:
// the pages and the WAL are the same; pg_freespace is PostgreSQL 15's
// (regress/expected/pageinspect.out) under classic, and under locality the
// same but for the pages VACUUM left at least half full, which it keeps
// closed (advertised as 0).
func TestInspectPolicies(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	if out := runSimple(s, "CREATE EXTENSION pageinspect; CREATE EXTENSION pg_freespacemap; CREATE EXTENSION pg_walinspect", ""); strings.Contains(out, "ERROR") {
		t.Fatal(out)
	}
	inspect := func(policy string) (pages, fsm, walOut string) {
		tbl := "inspect_" + policy
		setup := "CREATE TABLE " + tbl + " (id int NOT NULL, flag int, pad text) WITH (fsm_policy=" + policy + ");" +
			"INSERT INTO " + tbl + " SELECT g, CASE WHEN g % 5 = 0 THEN NULL ELSE g % 3 END, repeat(chr(97 + g % 26), 200) FROM generate_series(1, 200) g;" +
			"DELETE FROM " + tbl + " WHERE id BETWEEN 40 AND 100; DELETE FROM " + tbl + " WHERE id IN (150, 151, 152); VACUUM " + tbl
		for _, q := range strings.Split(setup, ";") { // each its own transaction, as psql sends them
			if out := runSimple(s, q, ""); strings.Contains(out, "ERROR") {
				t.Fatal(out)
			}
		}
		var b strings.Builder
		for blk := range 7 {
			b.WriteString(runSimple(s, "SELECT lower, upper, special, pagesize, version FROM page_header(get_raw_page('"+tbl+"', "+string(rune('0'+blk))+"))", ""))
			b.WriteString(runSimple(s, "SELECT lp, lp_off, lp_flags, lp_len, t_ctid, t_infomask2, t_hoff, t_bits, t_data FROM heap_page_items(get_raw_page('"+tbl+"', "+string(rune('0'+blk))+"))", ""))
		}
		fsm = runSimple(s, "SELECT * FROM pg_freespace('"+tbl+"')", "")
		lsn := runSimple(s, "SELECT pg_current_wal_lsn()", "")
		start := strings.Split(lsn, "\n")[1]
		runSimple(s, "INSERT INTO "+tbl+" VALUES (1000, 1, 'x')", "")
		walOut = runSimple(s, "SELECT resource_manager, record_type, record_length, fpi_length FROM pg_get_wal_records_info('"+start+"', pg_current_wal_lsn()) WHERE resource_manager = 'Heap'", "")
		return b.String(), fsm, walOut
	}
	cPages, cFSM, cWAL := inspect("classic")
	lPages, lFSM, lWAL := inspect("locality")
	if cPages != lPages {
		t.Errorf("pages differ:\nclassic:\n%s\nlocality:\n%s", cPages, lPages)
	}
	if cWAL != lWAL || !strings.Contains(cWAL, "INSERT") {
		t.Errorf("WAL differs:\nclassic:\n%s\nlocality:\n%s", cWAL, lWAL)
	}
	for _, want := range []string{"0|160", "1|6688", "2|8160", "3|384", "4|864", "5|160", "6|7680"} {
		if !strings.Contains(cFSM, want) {
			t.Errorf("classic pg_freespace lacks %q (PostgreSQL's value):\n%s", want, cFSM)
		}
	}
	for _, want := range []string{"0|0", "1|6688", "2|8160", "3|0", "4|0", "5|0", "6|7680"} {
		if !strings.Contains(lFSM, want) {
			t.Errorf("locality pg_freespace lacks %q:\n%s", want, lFSM)
		}
	}
}

// TestPageinspectBtPageItemsDead: bt_page_items on a disk index's leaf, after rows
// were deleted and an index scan went over them, shows them dead, as
// PostgreSQL 15 does for
//
//	CREATE TABLE t (id int PRIMARY KEY, v int) WITH (autovacuum_enabled = off);
//	INSERT INTO t SELECT g, g FROM generate_series(1, 10) g;
//	DELETE FROM t WHERE id <= 5;
//	SET enable_seqscan = off; SELECT count(*) FROM t WHERE id BETWEEN 1 AND 8;
//	SELECT itemoffset, ctid, dead, htid FROM bt_page_items('t_pkey', 1);
//
// (the other columns describe minipg's own item format); block 0 is the
// metapage.
func TestPageinspectBtPageItemsDead(t *testing.T) {
	e := openIndexEngine(t, t.TempDir(), "disk")
	s := e.NewSession(map[string]string{"user": "postgres"})
	for _, q := range []string{"CREATE EXTENSION pageinspect",
		"CREATE TABLE t (id int PRIMARY KEY, v int) WITH (autovacuum_enabled = off)",
		"INSERT INTO t SELECT g, g FROM generate_series(1, 10) g",
		"DELETE FROM t WHERE id <= 5", "SET enable_seqscan = off"} {
		mustExec(t, s, q)
	}
	const items = "SELECT itemoffset, ctid, dead, htid FROM bt_page_items('t_pkey', 1)"
	before := runSimple(s, items, "")
	if got := one(t, s, "SELECT count(*) FROM t WHERE id BETWEEN 1 AND 8"); got != "3" {
		t.Fatalf("count %s, want 3", got)
	}
	after := runSimple(s, items, "")
	want := "itemoffset|ctid|dead|htid\n"
	for i := 1; i <= 10; i++ {
		want += fmt.Sprintf("%d|(0,%d)|%s|(0,%d)\n", i, i, map[bool]string{true: "t", false: "f"}[i <= 5], i)
	}
	want += "SELECT 10\n"
	if after != want {
		t.Fatalf("after the scan:\n%s\nwant (PostgreSQL 15):\n%s", after, want)
	}
	if strings.Contains(before, "|t|") {
		t.Fatalf("dead before any scan:\n%s", before)
	}
	if got := runSimple(s, "SELECT * FROM bt_page_items('t_pkey', 0)", ""); !strings.Contains(got, "block 0 is a meta page") {
		t.Fatalf("block 0: %s", got)
	}
	if got := runSimple(s, "SELECT count(*) FROM bt_page_items(get_raw_page('t_pkey', 1)) WHERE dead", ""); !strings.Contains(got, "\n5\n") {
		t.Fatalf("bytea form: %s", got)
	}
}

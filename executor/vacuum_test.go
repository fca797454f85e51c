package executor

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"minipg/pgerr"
	"minipg/pgstat"
)

// TestVacuumTruncateWaitsForLock: VACUUM truncates the empty end of a
// table only when it can have the table to itself; while another statement
// holds it, VACUUM gives up on the truncation after the lock timeout and
// the table keeps its size.
func TestVacuumTruncateWaitsForLock(t *testing.T) {
	old := truncateLockTimeout
	truncateLockTimeout = 150 * time.Millisecond
	defer func() { truncateLockTimeout = old }()
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE vtl (id int, pad text)")
	pad := strings.Repeat("p", 200)
	for i := range 20 {
		var vals []string
		for j := range 50 {
			vals = append(vals, fmt.Sprintf("(%d, '%s')", i*50+j, pad))
		}
		mustExec(t, s, "INSERT INTO vtl VALUES "+strings.Join(vals, ", "))
	}
	size := func() string {
		rows, _ := mustExec(t, s, "SELECT pg_relation_size('vtl')")
		return fmt.Sprint(rows[0][0])
	}
	full := size()
	mustExec(t, s, "DELETE FROM vtl WHERE id >= 100")
	tbl, ok := e.cat.Table("vtl")
	if !ok {
		t.Fatal("no table vtl")
	}
	oid := tbl.OID
	release, err := e.txns.LockRelation(context.Background(), oid, false) // another statement on the table
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	mustExec(t, s, "VACUUM vtl")
	if d := time.Since(start); d < truncateLockTimeout {
		t.Errorf("VACUUM returned after %v, before the lock timeout", d)
	}
	if got := size(); got != full {
		t.Fatalf("size %s while the table was in use, want %s", got, full)
	}
	release()
	mustExec(t, s, "VACUUM vtl")
	if got := size(); got != "24576" { // 100 rows of 232 bytes: 3 pages
		t.Fatalf("size %s after VACUUM, want 24576", got)
	}
	rows, _ := mustExec(t, s, "SELECT count(*), min(id), max(id) FROM vtl")
	if fmt.Sprint(rows[0]) != "[100 0 99]" {
		t.Fatalf("rows after truncation: %v", rows[0])
	}
}

// TestEstimateRelTuples: reltuples after a VACUUM that skipped pages is
// vac_estimate_reltuples: the old density over the pages not read plus
// what was counted, the old figure when under 2% of an unchanged table was
// read, the count scaled up when no old figure exists.
func TestEstimateRelTuples(t *testing.T) {
	for _, tc := range []struct {
		old            pgstat.RelSize
		total, scanned uint32
		tuples, want   float64
	}{
		{pgstat.RelSize{RelPages: 100, RelTuples: 700}, 100, 100, 650, 650}, // read it all
		{pgstat.RelSize{RelPages: 100, RelTuples: 700}, 100, 1, 3, 700},     // 1%: keep
		{pgstat.RelSize{RelPages: 100, RelTuples: 700}, 120, 22, 150, 836},  // 7/page x 98 + 150
		{pgstat.RelSize{RelPages: 0, RelTuples: -1}, 50, 10, 70, 350},       // unknown: scale up
		{pgstat.RelSize{RelPages: 100, RelTuples: 700}, 100, 0, 0, 700},     // nothing read
	} {
		if got := estimateRelTuples(tc.old, tc.total, tc.scanned, tc.tuples); got != tc.want {
			t.Errorf("estimateRelTuples(%+v, %d, %d, %v) = %v, want %v", tc.old, tc.total, tc.scanned, tc.tuples, got, tc.want)
		}
	}
}

// TestVacuumVisibilityMap: VACUUM leaves the pages of a table nobody
// changes all-visible in its _vm fork (get_raw_page(..., 'vm', 0): two
// bits a page, 0x55 for four all-visible pages); a second VACUUM that
// skips them keeps n_live_tup right; DISABLE_PAGE_SKIPPING takes a Boolean.
func TestVacuumVisibilityMap(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE EXTENSION pageinspect")
	mustExec(t, s, "CREATE TABLE vmt (id int, pad text) WITH (autovacuum_enabled = off)")
	if _, _, err := exec(t, s, "SELECT get_raw_page('vmt', 'vm', 0)"); pgerr.CodeOf(err) != pgerr.UndefinedFile {
		t.Fatalf("the map before any VACUUM: %v, want no such file", err)
	}
	_ = s.Sync()
	mustExec(t, s, "INSERT INTO vmt SELECT g, repeat('p', 1000) FROM generate_series(1, 700) g") // 100 pages
	mustExec(t, s, "VACUUM vmt")
	vm := func() []byte {
		rows, _ := mustExec(t, s, "SELECT get_raw_page('vmt', 'vm', 0)")
		b, ok := rows[0][0].([]byte)
		if !ok || len(b) != 8192 {
			t.Fatalf("get_raw_page('vmt', 'vm', 0): %T of %d bytes", rows[0][0], len(b))
		}
		return b
	}
	if rows, _ := mustExec(t, s, "SELECT pg_relation_size('vmt', 'vm')"); fmt.Sprint(rows[0][0]) != "8192" {
		t.Errorf("pg_relation_size('vmt', 'vm') = %v, want one page", rows[0][0])
	}
	if b := vm(); b[24] != 0x55 || b[24+24] != 0x55 || b[24+25] != 0 {
		t.Fatalf("map bytes of blocks 0-3, 96-99, 100-103: %#x %#x %#x, want 0x55 0x55 0", b[24], b[48], b[49])
	}
	mustExec(t, s, "DELETE FROM vmt WHERE id IN (350, 351)")
	if b := vm(); b[24+12] != 0x41 { // blocks 48-51: 49 (ids 344-350) and 50 cleared, 0b01000001
		t.Fatalf("map byte of blocks 48-51 after the delete: %#x, want 0x41", b[36])
	}
	mustExec(t, s, "VACUUM vmt")
	if got := fmt.Sprint(tableStat(t, s, "vmt", "n_live_tup")); got != "698" {
		t.Errorf("n_live_tup %s after a VACUUM that skipped pages, want 698", got)
	}
	mustExec(t, s, "VACUUM (DISABLE_PAGE_SKIPPING) vmt")
	mustExec(t, s, "VACUUM (DISABLE_PAGE_SKIPPING false, ANALYZE) vmt")
	if _, _, err := exec(t, s, "VACUUM (DISABLE_PAGE_SKIPPING maybe) vmt"); pgerr.CodeOf(err) != pgerr.SyntaxError {
		t.Errorf("DISABLE_PAGE_SKIPPING maybe: %v, want a syntax error", err)
	}
}

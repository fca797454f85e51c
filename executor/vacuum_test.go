package executor

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
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

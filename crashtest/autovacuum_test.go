package crashtest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestAutovacuumCrash kills the server (SIGKILL) while an autovacuum is
// half way through a table: after recovery every committed row is there
// and the heap checks pass (the restarted server checks every table); the
// statistics are gone, as PostgreSQL 15 discards them after a crash, so the
// table is vacuumed again once new changes cross the threshold, and that
// run finishes the work: no dead row version is left.
func TestAutovacuumCrash(t *testing.T) {
	dir := t.TempDir()
	settings := []string{"autovacuum_naptime=1s", "log_autovacuum_min_duration=0"}
	s := startServer(t, dir, settings...)
	c := connect(t, s)
	ctx := context.Background()
	// At most 80ms per page: the vacuum of the table's pages takes seconds.
	exec1(t, c, "CREATE TABLE av (id int PRIMARY KEY, v text) WITH (autovacuum_vacuum_cost_limit = 1, autovacuum_vacuum_cost_delay = 20)")
	const n = 6000
	for first := 1; first <= n; first += 500 {
		var b strings.Builder
		b.WriteString("INSERT INTO av VALUES ")
		for i := first; i < first+500; i++ {
			if i > first {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "(%d, '%s')", i, strings.Repeat("a", 100))
		}
		exec1(t, c, b.String())
	}
	exec1(t, c, "DELETE FROM av WHERE id % 3 = 0")
	deadline := time.Now().Add(10 * time.Second)
	for {
		var scanned int64
		err := c.QueryRow(ctx, "SELECT heap_blks_scanned FROM pg_stat_progress_vacuum").Scan(&scanned)
		if err == nil && scanned >= 5 {
			break
		}
		if err != nil && err != pgx.ErrNoRows {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no autovacuum under way on av\n%s", s.log)
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.kill()
	if strings.Contains(s.log.String(), "automatic vacuum of table \"av\"") {
		t.Fatalf("the autovacuum finished before the kill\n%s", s.log)
	}

	s = startServer(t, dir, settings...)
	if !strings.Contains(s.log.String(), "redo starts") {
		t.Fatalf("no replay after the crash:\n%s", s.log)
	}
	c = connect(t, s)
	var count, sum int64
	if err := c.QueryRow(ctx, "SELECT count(*), sum(id) FROM av").Scan(&count, &sum); err != nil {
		t.Fatal(err)
	}
	wantCount, wantSum := int64(0), int64(0)
	for i := int64(1); i <= n; i++ {
		if i%3 != 0 {
			wantCount++
			wantSum += i
		}
	}
	if count != wantCount || sum != wantSum {
		t.Fatalf("after recovery: %d rows summing to %d, want %d and %d", count, sum, wantCount, wantSum)
	}
	var v string
	if err := c.QueryRow(ctx, "SELECT v FROM av WHERE id = 4001").Scan(&v); err != nil || v != strings.Repeat("a", 100) {
		t.Fatalf("index probe after recovery: %q %v", v, err)
	}
	var del, autovacuums int64
	if err := c.QueryRow(ctx, "SELECT n_tup_del, autovacuum_count FROM pg_stat_user_tables WHERE relname = 'av'").Scan(&del, &autovacuums); err != nil {
		t.Fatal(err)
	}
	if del != 0 || autovacuums != 0 {
		t.Fatalf("statistics survived the crash: n_tup_del %d, autovacuum_count %d", del, autovacuums)
	}

	// New deletes cross the threshold (reltuples was never recorded: 50
	// dead tuples); the run they trigger finishes the interrupted one's work.
	exec1(t, c, "ALTER TABLE av RESET (autovacuum_vacuum_cost_limit, autovacuum_vacuum_cost_delay)")
	exec1(t, c, "DELETE FROM av WHERE id <= 300 AND id % 3 <> 0")
	deadline = time.Now().Add(10 * time.Second)
	for autovacuums == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("av not vacuumed after the restart\n%s", s.log)
		}
		time.Sleep(50 * time.Millisecond)
		if err := c.QueryRow(ctx, "SELECT autovacuum_count FROM pg_stat_user_tables WHERE relname = 'av'").Scan(&autovacuums); err != nil {
			t.Fatal(err)
		}
	}
	exec1(t, c, "ANALYZE av")
	var live, dead int64
	if err := c.QueryRow(ctx, "SELECT n_live_tup, n_dead_tup FROM pg_stat_user_tables WHERE relname = 'av'").Scan(&live, &dead); err != nil {
		t.Fatal(err)
	}
	if live != wantCount-200 || dead != 0 {
		t.Fatalf("after the next autovacuum ANALYZE counts %d live and %d dead row versions, want %d and 0", live, dead, wantCount-200)
	}
	var ok bool
	if err := c.QueryRow(ctx, "SELECT minipg_check('av')").Scan(&ok); err != nil || !ok {
		t.Fatalf("minipg_check: %v %v", ok, err)
	}
	s.stop(t)
}

package executor

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"minipg/internal/testutil"
	"minipg/types"
)

// openAutovacuumEngine opens an engine whose launcher wakes every naptime
// (settings may add more), with the index storage the environment chooses
// (testutil.IndexStorageEnv), as openTestEngine: the workers vacuum the
// tables' indexes, in memory or on disk.
func openAutovacuumEngine(t *testing.T, dir string, naptime string, settings map[string]string) *Engine {
	t.Helper()
	cfg := Config{DataDir: dir, SharedBuffers: 4 << 20,
		Settings: testutil.IndexStorageSettings(map[string]string{"autovacuum_naptime": naptime})}
	for k, v := range settings {
		cfg.Settings[k] = v
	}
	e, err := Open(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// insertRows inserts rows first..last as (id, 'x...') in one statement.
func insertRows(t *testing.T, s *Session, table string, first, last int) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s VALUES ", table)
	for i := first; i <= last; i++ {
		if i > first {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(%d, '%s')", i, strings.Repeat("x", 40))
	}
	mustExec(t, s, b.String())
}

// tableStat returns one column of pg_stat_user_tables for a table.
func tableStat(t *testing.T, s *Session, table, col string) types.Datum {
	t.Helper()
	rows, _ := mustExec(t, s, fmt.Sprintf("SELECT %s FROM pg_stat_user_tables WHERE relname = '%s'", col, table))
	if len(rows) != 1 {
		t.Fatalf("pg_stat_user_tables has %d rows for %s", len(rows), table)
	}
	return rows[0][0]
}

// waitFor polls cond every 50ms until it holds or d passes.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return cond()
}

// The trigger rules: a table past the dead-tuple threshold (50 + 0.2 x
// reltuples) and one past the insert threshold (1000 + 0.2 x reltuples)
// are vacuumed within two naptimes; one below both is only analyzed (past
// 50 + 0.1 x reltuples changes); one with autovacuum_enabled = off is left
// alone.
func TestAutovacuumTriggerRules(t *testing.T) {
	const naptime = time.Second
	e := openAutovacuumEngine(t, t.TempDir(), "1s", nil)
	s := e.NewSession(map[string]string{"user": "postgres"})
	mustExec(t, s, "CREATE TABLE dead (id int PRIMARY KEY, v text) WITH (fsm_policy = classic)")
	mustExec(t, s, "CREATE TABLE ins (id int, v text)")
	// The deleted rows stay dead tuples until VACUUM, as in PostgreSQL:
	// the pruner of a locality table would otherwise free them at once.
	mustExec(t, s, "CREATE TABLE below (id int, v text) WITH (heap_reclaim_behind = off)")
	mustExec(t, s, "CREATE TABLE off (id int, v text) WITH (autovacuum_enabled = off, heap_reclaim_behind = off)")
	insertRows(t, s, "dead", 1, 200)
	mustExec(t, s, "DELETE FROM dead WHERE id <= 100") // 100 dead > 50
	insertRows(t, s, "ins", 1, 1100)                   // 1100 inserted > 1000
	insertRows(t, s, "below", 1, 100)
	mustExec(t, s, "DELETE FROM below WHERE id <= 40") // 40 dead < 50, 140 changes > 50
	insertRows(t, s, "off", 1, 1200)
	mustExec(t, s, "DELETE FROM off WHERE id <= 600")
	crossed := time.Now() // every table is past its thresholds

	vacuumed := func(table string) bool { return tableStat(t, s, table, "autovacuum_count").(int64) > 0 }
	if !waitFor(2*naptime-time.Since(crossed)+500*time.Millisecond, func() bool { return vacuumed("dead") && vacuumed("ins") }) {
		t.Fatalf("not vacuumed within two naptimes: dead %v, ins %v", tableStat(t, s, "dead", "autovacuum_count"), tableStat(t, s, "ins", "autovacuum_count"))
	}
	// Let another naptime pass for the tables that must not be vacuumed.
	time.Sleep(naptime + 200*time.Millisecond)
	for _, c := range []struct {
		table                              string
		autovacuums, autoanalyzes          int64
		live, dead, insSinceVac, modSinceA int64
	}{
		{"dead", 1, 1, 100, 0, 0, 0},
		{"ins", 1, 1, 1100, 0, 0, 0},
		{"below", 0, 1, 60, 40, 100, 0}, // ANALYZE counts live and dead anew
		{"off", 0, 0, 600, 600, 1200, 1800},
	} {
		rows, _ := mustExec(t, s, "SELECT autovacuum_count, autoanalyze_count, n_live_tup, n_dead_tup, n_ins_since_vacuum, n_mod_since_analyze, last_autovacuum IS NULL FROM pg_stat_user_tables WHERE relname = '"+c.table+"'")
		got := rows[0]
		want := []types.Datum{c.autovacuums, c.autoanalyzes, c.live, c.dead, c.insSinceVac, c.modSinceA, c.autovacuums == 0}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: autovacuum_count, autoanalyze_count, n_live_tup, n_dead_tup, n_ins_since_vacuum, n_mod_since_analyze, last_autovacuum IS NULL = %v, want %v", c.table, got, want)
		}
	}
	// The vacuum was an ordinary one: relpages/reltuples recorded, the
	// deleted rows' space reported free.
	rows, _ := mustExec(t, s, "SELECT relpages, reltuples FROM minipg_relsize WHERE relname = 'dead'")
	if fmt.Sprint(rows[0]) != "[2 100]" {
		t.Errorf("dead: relpages, reltuples = %v, want [2 100]", rows[0])
	}
	r, err := e.relByName("dead")
	if err != nil {
		t.Fatal(err)
	}
	if free := r.heap.FSM().GetRecordedFreeSpace(0) + r.heap.FSM().GetRecordedFreeSpace(1); free < 100*72 {
		t.Errorf("dead: %d bytes recorded free after autovacuum, want the 100 deleted rows' space", free)
	}
	// The worker vacuumed the primary key too, wherever it is kept: only
	// the live rows' entries are left.
	if n := indexEntries(t, e, s, "dead", "dead_pkey"); n != 100 {
		t.Errorf("dead_pkey: %d entries after autovacuum, want 100", n)
	}
}

// indexEntries returns the number of entries of index name on tbl, in
// memory or on disk (counted by bt_page_items: s must be a superuser's and
// may create the extension pageinspect once). The index must be kept where
// testutil.IndexStorageEnv says, on disk when it says nothing.
func indexEntries(t *testing.T, e *Engine, s *Session, tbl, name string) int {
	t.Helper()
	disk := isDiskStore(relIndexOf(t, e, tbl, name).ix)
	if want := testutil.IndexStorage(); disk != (want == "" || want == "disk") {
		t.Fatalf("index %s: on disk = %v, but %s=%q", name, disk, testutil.IndexStorageEnv, want)
	}
	if !disk {
		return memIndexLen(t, e, tbl, name)
	}
	mustExec(t, s, "CREATE EXTENSION pageinspect")
	_, n := btDead(t, s, name)
	return n
}

// autovacuum = off starts no worker: nothing is vacuumed.
func TestAutovacuumOff(t *testing.T) {
	e := openAutovacuumEngine(t, t.TempDir(), "1s", map[string]string{"autovacuum": "off"})
	s := e.NewSession(map[string]string{"user": "postgres"})
	mustExec(t, s, "CREATE TABLE t (id int, v text)")
	insertRows(t, s, "t", 1, 1500)
	mustExec(t, s, "DELETE FROM t")
	time.Sleep(2500 * time.Millisecond)
	if n := tableStat(t, s, "t", "autovacuum_count + autoanalyze_count").(int64); n != 0 {
		t.Fatalf("%d autovacuum runs with autovacuum = off", n)
	}
	if e.av.Runs() != 0 {
		t.Fatalf("launcher ran %d tables", e.av.Runs())
	}
}

// An autovacuum gives its table up as soon as DDL waits for it: the DDL
// does not wait for the (slowed down) vacuum, the cancelled run reports
// nothing, and a later run does the work.
func TestAutovacuumYieldsToDDL(t *testing.T) {
	e := openAutovacuumEngine(t, t.TempDir(), "1s", map[string]string{"log_autovacuum_min_duration": "0"})
	s := e.NewSession(map[string]string{"user": "postgres"})
	// 400ms per page at most: the table's 40-odd pages take many seconds.
	// The deleted rows wait for VACUUM (no reclaim behind the pruner).
	mustExec(t, s, "CREATE TABLE slow (id int, v text) WITH (autovacuum_vacuum_cost_limit = 1, autovacuum_vacuum_cost_delay = 100, heap_reclaim_behind = off)")
	for i := 0; i < 4; i++ {
		insertRows(t, s, "slow", i*1000+1, i*1000+1000)
	}
	mustExec(t, s, "DELETE FROM slow WHERE id % 2 = 0")
	running := func() bool {
		rows, _ := mustExec(t, s, "SELECT phase, heap_blks_scanned FROM pg_stat_progress_vacuum")
		return len(rows) == 1 && rows[0][0] == "scanning heap" && rows[0][1].(int64) >= 1
	}
	if !waitFor(5*time.Second, running) {
		t.Fatal("no autovacuum running on slow")
	}
	// pg_stat_activity shows the worker under the pid of its progress row.
	rows, _ := mustExec(t, s, "SELECT a.query, a.state, a.usename FROM pg_stat_activity a JOIN pg_stat_progress_vacuum p USING (pid) WHERE a.backend_type = 'autovacuum worker'")
	if len(rows) != 1 || rows[0][0] != "autovacuum: VACUUM ANALYZE public.slow" || rows[0][1] != "active" || rows[0][2] != nil {
		t.Fatalf("autovacuum worker in pg_stat_activity: %v", rows)
	}
	// Rows keep flowing while it runs (it holds the lock shared).
	insertRows(t, s, "slow", 5001, 5010)
	start := time.Now()
	mustExec(t, s, "CREATE INDEX slow_id ON slow (id)")
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("CREATE INDEX waited %v for the autovacuum", d)
	}
	if !waitFor(2*time.Second, func() bool { return e.av.Yields() == 1 }) {
		t.Fatalf("yields = %d, want 1", e.av.Yields())
	}
	if rows, _ := mustExec(t, s, "SELECT count(*) FROM pg_stat_progress_vacuum"); rows[0][0].(int64) != 0 {
		t.Fatal("the cancelled vacuum is still listed in pg_stat_progress_vacuum")
	}
	if rows, _ := mustExec(t, s, "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'"); rows[0][0].(int64) != 0 {
		t.Fatal("the cancelled worker is still listed in pg_stat_activity")
	}
	if n := tableStat(t, s, "slow", "autovacuum_count").(int64); n != 0 {
		t.Fatalf("a cancelled run was counted (%d)", n)
	}
	if n := tableStat(t, s, "slow", "n_dead_tup").(int64); n != 2000 {
		t.Fatalf("n_dead_tup = %d after the cancelled run, want 2000", n)
	}
	// Without the slow cost settings the next run finishes.
	mustExec(t, s, "ALTER TABLE slow RESET (autovacuum_vacuum_cost_limit, autovacuum_vacuum_cost_delay)")
	if !waitFor(5*time.Second, func() bool { return tableStat(t, s, "slow", "autovacuum_count").(int64) == 1 }) {
		t.Fatal("slow was not vacuumed after the cancelled run")
	}
	if n := tableStat(t, s, "slow", "n_dead_tup").(int64); n != 0 {
		t.Fatalf("n_dead_tup = %d after autovacuum, want 0", n)
	}
	rows, _ = mustExec(t, s, "SELECT count(*) FROM slow WHERE id > 5000")
	if rows[0][0].(int64) != 10 {
		t.Fatalf("rows inserted during the autovacuum: %v", rows[0][0])
	}
}

// Close stops the launcher in the middle of a slow run, promptly.
func TestAutovacuumStopsWithEngine(t *testing.T) {
	e := openAutovacuumEngine(t, t.TempDir(), "1s", nil)
	s := e.NewSession(map[string]string{"user": "postgres"})
	mustExec(t, s, "CREATE TABLE slow (id int, v text) WITH (autovacuum_vacuum_cost_limit = 1, autovacuum_vacuum_cost_delay = 100)")
	insertRows(t, s, "slow", 1, 3000)
	if !waitFor(5*time.Second, func() bool {
		rows, _ := mustExec(t, s, "SELECT count(*) FROM pg_stat_progress_vacuum")
		return rows[0][0].(int64) == 1
	}) {
		t.Fatal("no autovacuum running")
	}
	s.Close()
	start := time.Now()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("Close took %v", d)
	}
}

// A VACUUM statement on a table an autovacuum is working on does not run
// alongside it (one vacuum per table at a time) nor wait for it: the
// autovacuum gives the table up.
func TestVacuumStatementPreemptsAutovacuum(t *testing.T) {
	e := openAutovacuumEngine(t, t.TempDir(), "1s", nil)
	s := e.NewSession(map[string]string{"user": "postgres"})
	mustExec(t, s, "CREATE TABLE slow (id int PRIMARY KEY, v text) WITH (autovacuum_vacuum_cost_limit = 1, autovacuum_vacuum_cost_delay = 100)")
	for i := 0; i < 3; i++ {
		insertRows(t, s, "slow", i*1000+1, i*1000+1000)
	}
	mustExec(t, s, "DELETE FROM slow WHERE id % 2 = 0")
	if !waitFor(5*time.Second, func() bool {
		rows, _ := mustExec(t, s, "SELECT count(*) FROM pg_stat_progress_vacuum")
		return rows[0][0].(int64) == 1
	}) {
		t.Fatal("no autovacuum running")
	}
	start := time.Now()
	mustExec(t, s, "VACUUM slow")
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("VACUUM waited %v for the autovacuum", d)
	}
	if e.av.Yields() != 1 {
		t.Fatalf("yields = %d, want 1", e.av.Yields())
	}
	rows, _ := mustExec(t, s, "SELECT vacuum_count, autovacuum_count, n_dead_tup FROM pg_stat_user_tables WHERE relname = 'slow'")
	if fmt.Sprint(rows[0]) != "[1 0 0]" {
		t.Fatalf("vacuum_count, autovacuum_count, n_dead_tup = %v, want [1 0 0]", rows[0])
	}
	mustExec(t, s, "SELECT minipg_check('slow')")
}

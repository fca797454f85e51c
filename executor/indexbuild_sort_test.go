package executor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"minipg/pgerr"
)

// openTempFiles returns the files this process holds open under dir.
func openTempFiles(t *testing.T, dir string) []string {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	var out []string
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasPrefix(target, dir) {
			out = append(out, target)
		}
	}
	return out
}

// TestDiskIndexBuildSpills: CREATE INDEX on a table whose entries exceed
// maintenance_work_mem sorts them in runs written to temporary files under
// base/pgsql_tmp and merged at the end (runs past maxMergeRuns are merged
// into one first); the index passes bt_index_check and finds every row, and
// no temporary file is left, open or on disk, after the build nor after a
// build that fails half way. A unique build checks its keys as it merges
// the runs: a duplicate is 23505 naming the key.
func TestDiskIndexBuildSpills(t *testing.T) {
	dir := t.TempDir()
	e := openIndexEngine(t, dir, "disk")
	s := e.NewSession(nil)
	tmp := filepath.Join(dir, "base", "pgsql_tmp")
	runs, spilled := 0, 0
	onIndexSpillRun = func(n int) { runs++; spilled += n }
	defer func() { onIndexSpillRun = nil }()
	saved := maxMergeRuns
	maxMergeRuns = 2
	defer func() { maxMergeRuns = saved }()
	noTempFiles := func(when string) {
		t.Helper()
		if open := openTempFiles(t, tmp); len(open) > 0 {
			t.Fatalf("%s: temporary files still open: %v", when, open)
		}
		if ents, err := os.ReadDir(tmp); err == nil && len(ents) > 0 {
			t.Fatalf("%s: %d files left in base/pgsql_tmp", when, len(ents))
		}
	}

	mustExec(t, s, "CREATE EXTENSION amcheck")
	mustExec(t, s, "CREATE TABLE sp (id int, k text, d int, w text)")
	mustExec(t, s, "INSERT INTO sp SELECT i, md5(i::text) || repeat('s', 60), i % 29000, repeat('w', 80) FROM generate_series(1, 30000) i")
	if code := failCode(t, s, "SET maintenance_work_mem = '100kB'"); code != pgerr.InvalidParameterValue {
		t.Fatalf("maintenance_work_mem below 1MB: %s, want 22023", code)
	}
	// The default (64MB) holds the whole build in memory.
	mustExec(t, s, "CREATE INDEX sp_id ON sp (id)")
	if runs != 0 {
		t.Fatalf("a 30000-entry build wrote %d runs within 64MB", runs)
	}
	mustExec(t, s, "SET maintenance_work_mem = '1MB'")
	mustExec(t, s, "CREATE INDEX sp_k ON sp (k, id)")
	// About 3.5MB of entries: a run per MB, the first two merged into one
	// when the third comes.
	if runs < 3 || spilled < 20000 {
		t.Fatalf("the build wrote %d runs of %d entries in all, want at least 3 runs", runs, spilled)
	}
	t.Logf("%d runs, %d entries spilled", runs, spilled)
	noTempFiles("after CREATE INDEX")
	mustExec(t, s, "SELECT bt_index_check('sp_k', true)")
	if got := one(t, s, "SELECT count(*) FROM sp WHERE k >= ''"); got != "30000" {
		t.Fatalf("%s rows through sp_k", got)
	}
	if got := one(t, s, "SELECT id FROM sp WHERE k = md5('12345') || repeat('s', 60)"); got != "12345" {
		t.Fatalf("lookup through sp_k: %s", got)
	}

	// A unique build that meets its duplicate after spilling runs.
	runs = 0
	mustExec(t, s, "CREATE UNIQUE INDEX sp_d ON sp (d, k)")
	if runs < 3 {
		t.Fatalf("the unique build wrote %d runs", runs)
	}
	noTempFiles("after CREATE UNIQUE INDEX")
	mustExec(t, s, "SELECT bt_index_check('sp_d', true)")
	runs = 0
	_, _, err := exec(t, s, "CREATE UNIQUE INDEX sp_d2 ON sp (d, w)")
	var pe *pgerr.Error
	if !errors.As(err, &pe) || pe.Code != pgerr.UniqueViolation || !strings.HasPrefix(pe.Detail, "Key (d, w)=(1, www") {
		t.Fatalf("unique build over duplicates: %v, want 23505 naming the key (1, www...)", err)
	}
	s.Sync()
	if runs == 0 {
		t.Fatal("the failed build wrote no run before its duplicate")
	}
	noTempFiles("after a failed CREATE UNIQUE INDEX")
}

package executor

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"minipg/pgerr"
)

// TestSortSpill: past work_mem a sort writes runs (more than maxMergeRuns of
// them here, so they are merged into one on the way) and its answer is the
// in-memory sort's, NULLs and ties included; no file stays open after the
// statement, whether it ran to the end or stopped at a LIMIT.
func TestSortSpill(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	mustExec(t, s, "CREATE TABLE sp (id int, g int, t text)")
	mustExec(t, s, "INSERT INTO sp SELECT i, i % 13, CASE WHEN i % 101 = 0 THEN NULL ELSE 'v' || (i * 7919 % 30011) END FROM generate_series(1, 30000) i")
	const q = "SELECT g, t, id FROM sp ORDER BY g DESC, t NULLS FIRST, id"
	want, _ := mustExec(t, s, q)
	if len(want) != 30000 {
		t.Fatalf("%d rows", len(want))
	}
	old := maxMergeRuns
	maxMergeRuns = 4
	defer func() { maxMergeRuns, onSpillRun = old, nil }()
	runs := 0
	onSpillRun = func(int) { runs++ }
	fds := openFiles(t)
	mustExec(t, s, "SET work_mem = '64kB'")
	got, _ := mustExec(t, s, q)
	if runs <= 4 {
		t.Fatalf("%d runs written with work_mem 64kB", runs)
	}
	if !reflect.DeepEqual(got, want) {
		for i := range want {
			if i >= len(got) || !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("row %d: %v, want %v (%d rows, want %d)", i, got[min(i, len(got)-1)], want[i], len(got), len(want))
			}
		}
	}
	if fds != 0 {
		t.Fatalf("%d sort files open before the sorts", fds)
	}
	mustExec(t, s, "SELECT id FROM sp ORDER BY t LIMIT 3")
	if n := openFiles(t); n != fds {
		t.Errorf("%d files open after the sorts, %d before", n, fds)
	}
}

// openFiles counts the process's open temporary files of sorts.
func openFiles(t *testing.T) int {
	dir := fmt.Sprintf("/proc/%d/fd", os.Getpid())
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Skip("no /proc")
	}
	n := 0
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && strings.Contains(l, "pgsql_tmp") {
			n++
		}
	}
	return n
}

// TestSessionMemoryLimit: DISTINCT, GROUP BY, a kept join input, an
// IN (SELECT ...) set and a window's rows that pass session_memory_limit
// fail with 53200; the session goes on, and the same statements pass under the default limit.
func TestSessionMemoryLimit(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	mustExec(t, s, "CREATE TABLE ml (id int, t text)")
	mustExec(t, s, "INSERT INTO ml SELECT i, repeat('x', 200) || i FROM generate_series(1, 20000) i")
	queries := []string{
		"SELECT count(*) FROM (SELECT DISTINCT t FROM ml) s",
		"SELECT count(*) FROM (SELECT t, count(*) FROM ml GROUP BY t) s",
		"SELECT count(*) FROM ml a JOIN (SELECT id, t FROM ml) b ON a.id = b.id WHERE a.id < 10",
		"SELECT count(*) FROM ml WHERE t IN (SELECT t FROM ml WHERE id % 2 = 0)",
		"UPDATE ml SET id = id RETURNING *",
		"SELECT count(*) FROM (SELECT t, row_number() OVER (ORDER BY id) FROM ml) s",
	}
	mustExec(t, s, "SET session_memory_limit = '1MB'")
	for _, q := range queries {
		_, _, err := exec(t, s, q)
		if code := pgerr.CodeOf(err); code != pgerr.OutOfMemory {
			t.Errorf("%s under 1MB: %v (%s), want 53200", q, err, code)
		}
		s.Sync()
	}
	mustExec(t, s, "RESET session_memory_limit")
	for _, q := range queries {
		mustExec(t, s, q)
	}
	for _, v := range []string{"'100kB'", "'abc'", "'5XB'"} {
		if _, _, err := exec(t, s, "SET session_memory_limit = "+v); pgerr.CodeOf(err) != pgerr.InvalidParameterValue {
			t.Errorf("SET session_memory_limit = %s: %v", v, err)
		}
		s.Sync()
	}
}

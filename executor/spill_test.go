package executor

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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

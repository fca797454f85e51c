package pgstat

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Row changes are applied at transaction end as AtEOXact_PgStat does.
func TestEndXact(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var x Xact
	x.For(1).Inserted = 10
	x.For(1).Updated = 3
	x.For(1).HotUpdated = 2
	x.For(1).Deleted = 4
	c.EndXact(x, true)
	if len(x) != 0 {
		t.Fatal("EndXact left counts behind")
	}
	got := c.Table(1)
	want := TableStats{TupIns: 10, TupUpd: 3, TupHotUpd: 2, TupDel: 4, LiveTup: 6, DeadTup: 7, ModSinceAnalyze: 17, InsSinceVacuum: 10}
	if got != want {
		t.Fatalf("after commit %+v, want %+v", got, want)
	}
	x.For(1).Inserted = 5
	x.For(1).Updated = 1
	x.For(1).Deleted = 2
	c.EndXact(x, false)
	got = c.Table(1)
	// Aborted: inserted rows and new versions dead, a delete undone,
	// nothing counted as a change for ANALYZE.
	want = TableStats{TupIns: 15, TupUpd: 4, TupHotUpd: 2, TupDel: 6, LiveTup: 6, DeadTup: 13, ModSinceAnalyze: 17, InsSinceVacuum: 15}
	if got != want {
		t.Fatalf("after abort %+v, want %+v", got, want)
	}
	c.Pruned(1, 5)
	c.Pruned(1, 100)
	if d := c.Table(1).DeadTup; d != 0 {
		t.Fatalf("n_dead_tup %d after pruning more than counted, want 0", d)
	}
	now := time.Now()
	c.ReportVacuum(1, 6, 1, true, now)
	c.ReportAnalyze(1, 6, 1, 10, false, now)
	got = c.Table(1)
	if got.InsSinceVacuum != 0 || got.AutovacuumCount != 1 || got.VacuumCount != 0 || got.LastAutovacuum.IsZero() ||
		got.ModSinceAnalyze != 7 || got.AnalyzeCount != 1 || got.LastAnalyze.IsZero() {
		t.Fatalf("after vacuum and analyze: %+v", got)
	}
}

// The counters survive a clean shutdown (Save) and not a crash (no Save:
// the file read at Open is gone); the recorded sizes survive both.
func TestPersistence(t *testing.T) {
	dir := t.TempDir()
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	c.CountSeqScan(7)
	c.ReportVacuum(7, 100, 0, false, time.Now())
	if err := c.SetRelSize(7, RelSize{RelPages: 3, RelTuples: 100}); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st := c.Table(7); st.SeqScan != 1 || st.LiveTup != 100 || st.VacuumCount != 1 || st.LastVacuum.IsZero() {
		t.Fatalf("after a clean restart: %+v", st)
	}
	if _, err := os.Stat(filepath.Join(dir, statFile)); !os.IsNotExist(err) {
		t.Fatalf("%s still there after Open: %v", statFile, err)
	}
	// A crash: no Save.
	c, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.HasTable(7) {
		t.Fatalf("counters survived a crash: %+v", c.Table(7))
	}
	if rs := c.RelSize(7); rs != (RelSize{RelPages: 3, RelTuples: 100}) {
		t.Fatalf("relsize after a crash: %+v", rs)
	}
	if rs := c.RelSize(8); rs.RelTuples != -1 {
		t.Fatalf("relsize of a table never vacuumed: %+v", rs)
	}
	c.Drop(7)
	c, _ = Open(dir)
	if rs := c.RelSize(7); rs.RelTuples != -1 {
		t.Fatalf("relsize of a dropped table: %+v", rs)
	}
}

func TestResetAndProgress(t *testing.T) {
	c, _ := Open(t.TempDir())
	c.CountIdxScan(1)
	c.Reset()
	if c.HasTable(1) || c.Table(1) != (TableStats{}) {
		t.Fatal("Reset left counters")
	}
	p := c.StartProgress(42, 1)
	p.HeapBlksScanned.Store(3)
	if r := c.Running(); len(r) != 1 || r[0].PID != 42 || r[0].HeapBlksScanned.Load() != 3 {
		t.Fatalf("Running = %v", r)
	}
	c.EndProgress(p)
	if len(c.Running()) != 0 {
		t.Fatal("EndProgress left the vacuum listed")
	}
}

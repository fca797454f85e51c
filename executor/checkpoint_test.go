package executor

import (
	"fmt"
	"sync"
	"testing"

	"minipg/pgerr"
)

// TestCheckpointStatementsRaceClose: sessions commit rows and run CHECKPOINT
// concurrently (the checkpointer runs the requests one at a time, each
// flushing buffers whose pages need WAL flushed and saving the commit log
// while commits wait for their records); then CHECKPOINT statements race
// Engine.Close. Each statement returns CHECKPOINT or, once the checkpointer
// has stopped, 55000; none hangs, Close returns, and after a reopen every
// committed row is there.
func TestCheckpointStatementsRaceClose(t *testing.T) {
	dir := t.TempDir()
	e := openTestEngine(t, dir)
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE ck (id int PRIMARY KEY, w int)")
	s.Close()
	const workers, iters = 4, 15
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ss := e.NewSession(nil)
			defer ss.Close()
			for i := range iters {
				if _, _, err := exec(t, ss, "INSERT INTO ck VALUES ($1, $2)", int64(w*iters+i), int64(w)); err != nil {
					t.Errorf("worker %d: insert: %v", w, err)
					ss.Sync()
					return
				}
				if err := ss.Sync(); err != nil {
					t.Errorf("worker %d: commit: %v", w, err)
					return
				}
				if _, tag, err := exec(t, ss, "CHECKPOINT"); err != nil || tag != "CHECKPOINT" {
					t.Errorf("worker %d: %q %v", w, tag, err)
					ss.Sync()
					return
				}
				ss.Sync()
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		e.Close()
		t.FailNow()
	}

	first := make(chan struct{}, workers)
	ended := make(chan error, workers)
	for range workers {
		go func() {
			ss := e.NewSession(nil)
			defer ss.Close()
			for n := 0; ; n++ {
				_, tag, err := exec(t, ss, "CHECKPOINT")
				ss.Sync()
				if n == 0 {
					first <- struct{}{}
				}
				if err == nil && tag != "CHECKPOINT" {
					err = fmt.Errorf("tag %q", tag)
				}
				if err != nil {
					ended <- err
					return
				}
			}
		}()
	}
	for range workers {
		<-first
	}
	if err := e.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	for range workers {
		if err := <-ended; pgerr.CodeOf(err) != pgerr.ObjectNotInPrerequisiteState {
			t.Errorf("CHECKPOINT during shutdown: %v", err)
		}
	}

	e = openTestEngine(t, dir)
	defer e.Close()
	s = e.NewSession(nil)
	defer s.Close()
	rows, _ := mustExec(t, s, "SELECT count(*), count(DISTINCT id) FROM ck")
	if rows[0][0].(int64) != workers*iters || rows[0][1].(int64) != workers*iters {
		t.Fatalf("after reopen: %v rows, want %d", rows[0], workers*iters)
	}
}

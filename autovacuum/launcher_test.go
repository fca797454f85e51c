package autovacuum

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"minipg/pgstat"
)

// fakeTarget has tables that always need a vacuum; each run blocks until
// its context ends or release is closed.
type fakeTarget struct {
	mu      sync.Mutex
	running map[uint32]int // table -> runs in progress
	max     int            // most runs in progress at once on one table
	started chan uint32
	release chan struct{}
	tables  []Table
}

func (f *fakeTarget) AutovacuumTables() []Table { return f.tables }
func (f *fakeTarget) NewWorkerPID() int32       { return 1 }

func (f *fakeTarget) AutovacuumTable(ctx context.Context, w Work) (Result, error) {
	f.mu.Lock()
	f.running[w.OID]++
	f.max = max(f.max, f.running[w.OID])
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.running[w.OID]--
		f.mu.Unlock()
	}()
	f.started <- w.OID
	select {
	case <-ctx.Done():
		return Result{}, ctx.Err()
	case <-f.release:
		return Result{}, nil
	}
}

// Workers start one per naptime up to autovacuum_max_workers, never work
// on the same table at once, and Stop cancels them and waits for them.
func TestLauncherWorkers(t *testing.T) {
	f := &fakeTarget{running: map[uint32]int{}, started: make(chan uint32, 16), release: make(chan struct{})}
	for oid := uint32(1); oid <= 3; oid++ {
		f.tables = append(f.tables, Table{OID: oid, Name: "t", Options: UnsetTableOptions(), HasStats: true,
			RelTuples: 0, Stats: pgstat.TableStats{DeadTup: 100}})
	}
	s := DefaultSettings()
	s.Naptime, s.MaxWorkers = 20*time.Millisecond, 2
	l := Start(f, s, slog.New(slog.NewTextHandler(io.Discard, nil)))
	got := map[uint32]bool{}
	for range 2 {
		select {
		case oid := <-f.started:
			got[oid] = true
		case <-time.After(5 * time.Second):
			t.Fatal("workers did not start")
		}
	}
	// Two workers, two different tables; no third worker.
	time.Sleep(100 * time.Millisecond)
	select {
	case oid := <-f.started:
		t.Fatalf("a third run started (table %d) with autovacuum_max_workers = 2", oid)
	default:
	}
	if len(got) != 2 {
		t.Fatalf("both workers took the same table: %v", got)
	}
	done := make(chan struct{})
	go func() { l.Stop(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Stop did not return")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.max != 1 {
		t.Fatalf("%d runs at once on one table", f.max)
	}
	for oid, n := range f.running {
		if n != 0 {
			t.Fatalf("table %d: run still in progress after Stop", oid)
		}
	}
	l.Stop() // a second Stop returns at once
}

// Disabled, the launcher starts nothing and Stop returns.
func TestLauncherDisabled(t *testing.T) {
	f := &fakeTarget{running: map[uint32]int{}, started: make(chan uint32, 1)}
	f.tables = []Table{{OID: 1, Options: UnsetTableOptions(), HasStats: true, Stats: pgstat.TableStats{DeadTup: 100}}}
	s := DefaultSettings()
	s.Enabled, s.Naptime = false, time.Millisecond
	l := Start(f, s, nil)
	time.Sleep(20 * time.Millisecond)
	l.Stop()
	if len(f.started) != 0 {
		t.Fatal("a worker ran with autovacuum off")
	}
}

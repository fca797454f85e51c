package autovacuum

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"minipg/storage/heap"
)

// Target is what autovacuum works on: the engine.
type Target interface {
	// AutovacuumTables lists the tables with their options, statistics and
	// reltuples.
	AutovacuumTables() []Table
	// AutovacuumTable vacuums and/or analyzes one table as w says. It must
	// skip the table (returning ErrSkipped) if its lock is not free, hold
	// the lock so that DDL waiting for it calls w.Yield, stop with an error
	// soon after ctx is cancelled (w.Yield cancels it; so does shutdown),
	// use w.Cost for the cost-based delay and w.PID in
	// pg_stat_progress_vacuum.
	AutovacuumTable(ctx context.Context, w Work) (Result, error)
	// NewWorkerPID returns a process id for a new worker (as a backend's).
	NewWorkerPID() int32
}

// ErrSkipped is returned by Target.AutovacuumTable for a table whose lock
// was taken.
var ErrSkipped = errors.New("autovacuum: table skipped, its lock is taken")

// Work is one table for one worker.
type Work struct {
	OID             uint32
	Name            string
	Vacuum, Analyze bool
	Cost            *heap.VacuumCost
	PID             int32
	// Yield cancels the run because someone else needs the table.
	Yield func()
}

// errYield is the cancellation cause of a run that gave its table up.
var errYield = errors.New("autovacuum: canceled, the table is wanted by DDL")

// Result is what a run did, for log_autovacuum_min_duration.
type Result struct {
	Vacuum  heap.VacuumStats
	Analyze heap.AnalyzeStats
	// Pages are the table's blocks after the run; PagesRemoved those the
	// truncation of its empty tail cut off.
	Pages, PagesRemoved uint32
}

// Launcher is the autovacuum launcher and its workers.
type Launcher struct {
	target Target
	set    Settings
	log    *slog.Logger

	stop chan struct{} // closed by Stop
	done chan struct{} // closed when the launcher and all its workers have returned

	mu struct {
		sync.Mutex
		workers map[*worker]struct{} // running workers
		claimed map[uint32]*worker   // table OID -> the worker on it
	}
	runs   atomic.Int64 // table runs finished, successful or not
	yields atomic.Int64 // runs cancelled because DDL wanted the table
}

// worker is one autovacuum worker: one goroutine.
type worker struct {
	pid  int32
	stop chan struct{} // closed by the launcher
	done chan struct{} // closed by the worker when it returns

	// Cost parameters of the table being processed; limit is rebalanced
	// by the launcher (guarded by Launcher.mu except limit, read atomically
	// at every delay point).
	baseLimit int
	delay     time.Duration
	balance   bool
	limit     atomic.Int64
}

// Start starts the launcher (it does nothing if s.Enabled is false, but
// Stop must still be called).
func Start(target Target, s Settings, log *slog.Logger) *Launcher {
	if log == nil {
		log = slog.Default()
	}
	if s.MaxWorkers < 1 {
		s.MaxWorkers = 1
	}
	if s.Naptime <= 0 {
		s.Naptime = time.Minute
	}
	l := &Launcher{target: target, set: s, log: log, stop: make(chan struct{}), done: make(chan struct{})}
	l.mu.workers = map[*worker]struct{}{}
	l.mu.claimed = map[uint32]*worker{}
	if !s.Enabled {
		close(l.done)
		return l
	}
	go l.run()
	return l
}

// Stop stops the launcher and its workers (cancelling the tables they are
// on) and waits for them. It may be called more than once.
func (l *Launcher) Stop() {
	select {
	case <-l.stop:
	default:
		close(l.stop)
	}
	<-l.done
}

// Runs returns how many table runs the workers have finished (successful
// or not) since Start.
func (l *Launcher) Runs() int64 { return l.runs.Load() }

// Yields returns how many runs gave their table up to DDL since Start.
func (l *Launcher) Yields() int64 { return l.yields.Load() }

// run is the launcher's loop: one worker per naptime, at most MaxWorkers.
func (l *Launcher) run() {
	defer close(l.done)
	t := time.NewTicker(l.set.Naptime)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			l.stopWorkers()
			return
		case <-t.C:
			l.mu.Lock()
			n := len(l.mu.workers)
			l.mu.Unlock()
			if n < l.set.MaxWorkers {
				l.startWorker()
			}
		}
	}
}

func (l *Launcher) startWorker() {
	w := &worker{pid: l.target.NewWorkerPID(), stop: make(chan struct{}), done: make(chan struct{})}
	l.mu.Lock()
	l.mu.workers[w] = struct{}{}
	l.mu.Unlock()
	go l.work(w)
}

// stopWorkers closes every worker's stop channel and waits for its done.
func (l *Launcher) stopWorkers() {
	l.mu.Lock()
	ws := make([]*worker, 0, len(l.mu.workers))
	for w := range l.mu.workers {
		ws = append(ws, w)
	}
	l.mu.Unlock()
	for _, w := range ws {
		close(w.stop)
	}
	for _, w := range ws {
		<-w.done
	}
}

// work is a worker's life (do_autovacuum): list the tables that need
// work, then process them one by one, rechecking each.
func (l *Launcher) work(w *worker) {
	defer func() {
		l.mu.Lock()
		delete(l.mu.workers, w)
		l.mu.Unlock()
		close(w.done)
	}()
	ctx, cancel := context.WithCancel(context.Background())
	// The stop channel cancels the table the worker is on; the goroutine
	// relaying it ends before the worker does.
	relayed := make(chan struct{})
	defer func() {
		cancel()
		<-relayed
	}()
	go func() {
		defer close(relayed)
		select {
		case <-w.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	var todo []uint32
	for _, t := range l.target.AutovacuumTables() {
		if d := NeedsVacAnalyze(t, l.set); d.Vacuum || d.Analyze {
			todo = append(todo, t.OID)
		}
	}
	for _, oid := range todo {
		if ctx.Err() != nil {
			return
		}
		l.processTable(ctx, w, oid)
	}
}

// processTable is table_recheck_autovac plus the run: fresh statistics,
// skip a table another worker has or that no longer needs work.
func (l *Launcher) processTable(ctx context.Context, w *worker, oid uint32) {
	var t Table
	found := false
	for _, c := range l.target.AutovacuumTables() {
		if c.OID == oid {
			t, found = c, true
			break
		}
	}
	if !found {
		return // dropped meanwhile
	}
	d := NeedsVacAnalyze(t, l.set)
	if !d.Vacuum && !d.Analyze {
		return
	}
	l.mu.Lock()
	if l.mu.claimed[oid] != nil {
		l.mu.Unlock()
		return
	}
	l.mu.claimed[oid] = w
	w.baseLimit, w.delay, w.balance = costParams(t.Options, l.set)
	w.limit.Store(int64(w.baseLimit))
	l.balanceLocked()
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		delete(l.mu.claimed, oid)
		w.balance, w.delay = false, 0
		l.balanceLocked()
		l.mu.Unlock()
	}()

	tctx, tcancel := context.WithCancelCause(ctx)
	defer tcancel(nil)
	cost := &heap.VacuumCost{
		PageHit: l.set.PageHit, PageMiss: l.set.PageMiss, PageDirty: l.set.PageDirty,
		Params: func() (int, time.Duration) { return int(w.limit.Load()), w.delay },
		Sleep: func(d time.Duration) error {
			tm := time.NewTimer(d)
			defer tm.Stop()
			select {
			case <-tm.C:
				return nil
			case <-tctx.Done():
				return tctx.Err()
			}
		},
	}
	logMin := l.set.LogMinDuration
	if t.Options.LogMinDuration != -2 {
		logMin = t.Options.LogMinDuration
	}
	start := time.Now()
	res, err := l.target.AutovacuumTable(tctx, Work{OID: oid, Name: t.Name, Vacuum: d.Vacuum, Analyze: d.Analyze,
		Cost: cost, PID: w.pid, Yield: func() { tcancel(errYield) }})
	l.runs.Add(1)
	elapsed := time.Since(start)
	switch {
	case errors.Is(err, ErrSkipped):
		l.log.Debug("skipping vacuum of table: lock not available", "table", t.Name)
	case err != nil && context.Cause(tctx) == errYield:
		l.yields.Add(1)
		l.log.Info(fmt.Sprintf("canceling autovacuum task: automatic %s of table \"%s\"", what(d), t.Name))
	case err != nil && ctx.Err() != nil:
		// Shutdown.
	case err != nil:
		l.log.Error(fmt.Sprintf("automatic %s of table \"%s\" failed", what(d), t.Name), "err", err)
	case logMin >= 0 && elapsed >= logMin:
		l.logRun(t.Name, d, res, cost, elapsed)
	}
}

func what(d Decision) string {
	switch {
	case d.Vacuum && d.Analyze:
		return "vacuum and analyze"
	case d.Vacuum:
		return "vacuum"
	}
	return "analyze"
}

// logRun writes log_autovacuum_min_duration's report of a run.
func (l *Launcher) logRun(name string, d Decision, res Result, cost *heap.VacuumCost, elapsed time.Duration) {
	secs := elapsed.Seconds()
	if d.Vacuum {
		v := res.Vacuum
		scannedPct := 100.0
		if total := v.PagesScanned + v.PagesSkipped; total > 0 {
			scannedPct = 100 * float64(v.PagesScanned) / float64(total)
		}
		l.log.Info(fmt.Sprintf("automatic vacuum of table \"%s\": pages: %d removed, %d remain, %d scanned (%.2f%% of total); "+
			"tuples: %d removed, %d remain, %d are dead but not yet removable; "+
			"buffer usage: %d hits, %d misses, %d dirtied; delayed %.3f s; elapsed: %.2f s",
			name, res.PagesRemoved, res.Pages, v.PagesScanned, scannedPct, v.TuplesRemoved, v.LiveTuples, v.RecentlyDead,
			cost.Hits, cost.Misses, cost.Dirtied, cost.Slept.Seconds(), secs))
	}
	if d.Analyze {
		a := res.Analyze
		l.log.Info(fmt.Sprintf("automatic analyze of table \"%s\": %d pages, %d live rows and %d dead rows; elapsed: %.2f s",
			name, a.Pages, a.LiveTuples, a.DeadTuples, secs))
	}
}

// balanceLocked is autovac_balance_cost: share the cost limit among the
// workers on tables without their own cost settings, in proportion to
// limit/delay. Caller holds mu.
func (l *Launcher) balanceLocked() {
	vacLimit := l.set.VacuumCostLimit
	if vacLimit <= 0 {
		vacLimit = l.set.BaseCostLimit
	}
	total := 0.0
	for w := range l.mu.workers {
		if w.balance && w.baseLimit > 0 && w.delay > 0 {
			total += float64(w.baseLimit) / float64(w.delay)
		}
	}
	if total <= 0 {
		return
	}
	for w := range l.mu.workers {
		if !w.balance || w.baseLimit <= 0 || w.delay <= 0 {
			continue
		}
		share := int(float64(vacLimit) * (float64(w.baseLimit) / float64(w.delay)) / total)
		w.limit.Store(int64(max(min(share, w.baseLimit), 1)))
	}
}

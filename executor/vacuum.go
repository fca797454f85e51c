package executor

import (
	"context"
	"math"
	"sync"
	"time"

	"minipg/autovacuum"
	"minipg/index"
	"minipg/pgerr"
	"minipg/pgstat"
	"minipg/sql"
	"minipg/storage/buffer"
	"minipg/storage/heap"
	"minipg/storage/page"
)

// How VACUUM waits for the exclusive lock it needs to truncate
// (VACUUM_TRUNCATE_LOCK_WAIT_INTERVAL and VACUUM_TRUNCATE_LOCK_TIMEOUT;
// a variable for tests).
const truncateLockInterval = 50 * time.Millisecond

var truncateLockTimeout = 5 * time.Second

// vacuumParams say how one table is vacuumed and/or analyzed: by a
// VACUUM / ANALYZE statement or by an autovacuum worker.
type vacuumParams struct {
	vacuum, analyze bool
	auto            bool             // an autovacuum worker (statistics count it as such)
	cost            *heap.VacuumCost // nil: no cost-based delay
	ring            *buffer.Strategy // the pages' ring (BAS_VACUUM); vacuumTable sets it
	pid             int32            // shown in pg_stat_progress_vacuum
	// yield, for autovacuum, is called when DDL waits for the table: the
	// table's lock is taken with TryLockRelationYielding (a taken lock
	// skips the table) and ctx is expected to be cancelled by yield.
	yield func()
	// noSkip reads every heap page (VACUUM (DISABLE_PAGE_SKIPPING)).
	noSkip bool
}

// errSkipped is returned for an autovacuum whose table's lock was taken.
var errSkipped = autovacuum.ErrSkipped

func (s *Session) vacuum(ctx context.Context, pt *Portal, st *sql.Vacuum) (string, error) {
	e := s.e
	var oids []uint32
	for _, v := range st.Views {
		what := "vacuum"
		if st.AnalyzeOnly {
			what = "analyze"
		}
		s.notice(pgerr.SeverityWarning, pgerr.Code("01000"), "skipping \"%s\" --- cannot %s non-tables or special system tables", v, what)
	}
	if len(st.Tables) == 0 && len(st.Views) == 0 {
		for _, t := range e.cat.Tables() {
			oids = append(oids, t.OID)
		}
	} else {
		for _, t := range st.Tables {
			oids = append(oids, t.OID)
		}
	}
	if st.Full {
		for _, oid := range oids {
			if err := s.vacuumFull(ctx, pt, oid); err != nil {
				return "", mapCtxErr(ctx, err)
			}
		}
		if !st.Analyze {
			return "VACUUM", nil
		}
	}
	p := vacuumParams{vacuum: !st.AnalyzeOnly && !st.Full, analyze: st.Analyze || st.AnalyzeOnly, pid: s.pid, noSkip: st.DisablePageSkipping}
	p.cost = s.manualVacuumCost(ctx)
	for _, oid := range oids {
		if err := canceled(ctx); err != nil {
			return "", err
		}
		if _, err := e.vacuumTable(ctx, oid, p); err != nil {
			return "", mapCtxErr(ctx, err)
		}
	}
	if st.AnalyzeOnly {
		return "ANALYZE", nil
	}
	return "VACUUM", nil
}

// sleepCtx sleeps d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// vacuumTable vacuums (heap pass, index entries, empty tail) and/or
// analyzes table oid as p says, and reports to the statistics: n_live_tup,
// n_dead_tup, the last_* times and counts, relpages and reltuples. A table
// dropped meanwhile is skipped. Cancelled (ctx), it stops between pages,
// keeps what it did and reports nothing.
func (e *Engine) vacuumTable(ctx context.Context, oid uint32, p vacuumParams) (autovacuum.Result, error) {
	var res autovacuum.Result
	release, err := e.vacuumSlot(ctx, oid, p.yield, !p.vacuum)
	if err != nil {
		return res, err
	}
	defer release()
	if p.ring == nil && e.pool != nil {
		// One ring for the table's heap and index passes and its ANALYZE.
		p.ring = e.pool.NewStrategy(buffer.RingBlocks)
	}
	interrupt := func() error { return ctx.Err() }
	if p.vacuum {
		prog := e.stats.StartProgress(p.pid, oid)
		vs, ok, err := e.vacuumHeap(ctx, oid, p, prog, interrupt)
		if err != nil || !ok {
			e.stats.EndProgress(prog)
			return res, err
		}
		res.Vacuum = vs
		prog.SetPhase(heap.PhaseTruncate)
		removed, err := e.truncateEmptyTail(ctx, oid)
		e.stats.EndProgress(prog)
		if err != nil {
			return res, err
		}
		res.PagesRemoved = removed
		r, err := e.rel(oid)
		if err != nil {
			return res, nil
		}
		n, err := r.heap.NBlocks()
		if err != nil {
			return res, err
		}
		res.Pages = n
		live := int64(estimateRelTuples(e.stats.RelSize(oid), uint32(vs.PagesScanned+vs.PagesSkipped),
			uint32(vs.PagesScanned), float64(vs.LiveTuples)))
		e.stats.ReportVacuum(oid, live, int64(vs.RecentlyDead), p.auto, time.Now())
		if err := e.stats.SetRelSize(oid, pgstat.RelSize{RelPages: n, RelTuples: float64(live)}); err != nil {
			return res, err
		}
	}
	if p.analyze {
		as, ok, err := e.analyzeHeap(ctx, oid, p, interrupt)
		if err != nil || !ok {
			return res, err
		}
		res.Analyze = as
	}
	return res, nil
}

// vacuumSlot is VACUUM's and ANALYZE's self-exclusive lock on a table
// (PostgreSQL's ShareUpdateExclusiveLock, which conflicts with itself): two
// vacuums of one table must not run at once, or one could drop the index
// entry of a TID the other has already made reusable. An autovacuum
// (yield set) does not wait: it skips the table. A statement waits, and
// asks an autovacuum holding the table to give way, as PostgreSQL cancels
// an autovacuum that blocks a lock request.
//
// A reclaim behind (reclaimer) is a small VACUUM of a few TIDs: it holds
// the slot shared for the moment it takes, never waits for it, and a
// VACUUM that finds it held waits for it to end. An ANALYZE alone
// (analyzeOnly), which frees no line pointer and deletes no index entry,
// neither waits for reclaims nor keeps them off: an autoanalyze of a table
// the mix is changing would otherwise leave every page pruned meanwhile to
// VACUUM.
func (e *Engine) vacuumSlot(ctx context.Context, oid uint32, yield func(), analyzeOnly bool) (release func(), err error) {
	slot := e.vacSlot(oid)
	for {
		slot.mu.Lock()
		if !slot.held {
			slot.held, slot.yield, slot.analyzeOnly = true, yield, analyzeOnly
			for !analyzeOnly && slot.reclaims > 0 {
				slot.drained.Wait()
			}
			slot.mu.Unlock()
			return func() {
				slot.mu.Lock()
				slot.held, slot.yield, slot.analyzeOnly = false, nil, false
				slot.mu.Unlock()
			}, nil
		}
		holder := slot.yield
		slot.mu.Unlock()
		if yield != nil {
			return nil, errSkipped
		}
		if holder != nil {
			holder()
		}
		select {
		case <-ctx.Done():
			return nil, mapCtxErr(ctx, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// vacSlot is one table's vacuumSlot.
type vacSlot struct {
	mu   sync.Mutex // protects the fields below
	held bool
	// analyzeOnly is set while the holder is an ANALYZE alone, which
	// reclaims do not wait for.
	analyzeOnly bool
	yield       func()     // the holder's, when it is an autovacuum
	reclaims    int        // reclaims behind running
	drained     *sync.Cond // on mu: reclaims fell to 0
}

// vacSlot returns table oid's vacuum slot (kept for the server's life).
func (e *Engine) vacSlot(oid uint32) *vacSlot {
	if v, ok := e.vacSlots.Load(oid); ok {
		return v.(*vacSlot)
	}
	v, _ := e.vacSlots.LoadOrStore(oid, &vacSlot{})
	return v.(*vacSlot)
}

// tryReclaimSlot takes slot for a reclaim behind, without waiting: ok is
// false while a VACUUM holds it (an ANALYZE alone does not keep it off).
func tryReclaimSlot(slot *vacSlot) (release func(), ok bool) {
	slot.mu.Lock()
	defer slot.mu.Unlock()
	if slot.held && !slot.analyzeOnly {
		return nil, false
	}
	if slot.drained == nil {
		slot.drained = sync.NewCond(&slot.mu)
	}
	slot.reclaims++
	return func() {
		slot.mu.Lock()
		if slot.reclaims--; slot.reclaims == 0 {
			slot.drained.Broadcast()
		}
		slot.mu.Unlock()
	}, true
}

// reclaimer is table oid's heap.Reclaimer: it deletes the index entries of
// the versions its pruner removed, so that their line pointers are freed
// behind the prune instead of in VACUUM's second heap pass. Begin takes the
// vacuum slot without waiting (once per prune: a mutex of the table's);
// Delete takes the table's lock shared without waiting (DDL that changes
// the indexes or drops the table holds it exclusively), deleting nothing
// while DDL holds or waits for it. A TID is returned as gone once every
// index's entry for it is deleted (or was not there: a unique check or a
// scan may have deleted it first).
func (e *Engine) reclaimer(oid uint32) *heap.Reclaimer {
	slot := e.vacSlot(oid)
	return &heap.Reclaimer{
		Begin: func() (func(), bool) { return tryReclaimSlot(slot) },
		Delete: func(dead []heap.DeadVersion) []page.TID {
			unlock, ok := e.txns.TryLockRelationYielding(oid, func() {})
			if !ok {
				return nil
			}
			defer unlock()
			r, err := e.rel(oid)
			if err != nil {
				return nil // dropped meanwhile
			}
			if len(r.indexes) == 0 {
				// Nothing points at the TIDs.
				gone := make([]page.TID, len(dead))
				for i, d := range dead {
					gone[i] = d.TID
				}
				return gone
			}
			dec := newDecoder(r)
			dec.need = indexColumns(r, r.indexes...)
			var gone []page.TID
			keys := make([][]index.Key, len(r.indexes))
			for _, d := range dead {
				row, err := dec.decode(d.Tuple, d.TID)
				if err != nil {
					continue
				}
				for i, ri := range r.indexes {
					key, _ := ri.key(row)
					keys[i] = append(keys[i], key)
				}
				gone = append(gone, d.TID)
			}
			// Each index's entries at once: those on one leaf go in one
			// record. A failure leaves every TID as it was (some entries
			// gone): their line pointers stay LP_DEAD until VACUUM.
			for i, ri := range r.indexes {
				if err := ri.ix.DeleteFreeing(keys[i], gone); err != nil {
					return nil
				}
			}
			return gone
		},
	}
}

// estimateRelTuples is vac_estimate_reltuples: reltuples after a VACUUM
// that read scanned of total pages and counted tuples live ones there.
// The pages it skipped (all-visible) are taken to hold as many tuples per
// page as the table did before (old); a VACUUM that read fewer than 2% of
// a table whose size did not change keeps the old figure, so that reading
// the same few pages again and again cannot drift it.
func estimateRelTuples(old pgstat.RelSize, total, scanned uint32, tuples float64) float64 {
	switch {
	case scanned >= total:
		return tuples
	case old.RelPages == total && float64(scanned) < float64(total)*0.02, scanned == 0:
		return max(old.RelTuples, 0)
	case old.RelTuples < 0 || old.RelPages == 0:
		return math.Floor(tuples/float64(scanned)*float64(total) + 0.5)
	}
	density := old.RelTuples / float64(old.RelPages)
	return math.Floor(density*float64(total-scanned) + tuples + 0.5)
}

// lockForVacuum takes table oid's lock as VACUUM holds it: shared, so
// DML goes on; for autovacuum without waiting and giving way to DDL.
func (e *Engine) lockForVacuum(ctx context.Context, oid uint32, p vacuumParams) (func(), error) {
	if p.yield != nil {
		release, ok := e.txns.TryLockRelationYielding(oid, p.yield)
		if !ok {
			return nil, errSkipped
		}
		return release, nil
	}
	release, err := e.txns.LockRelation(ctx, oid, false)
	if err != nil {
		return nil, mapCtxErr(ctx, err)
	}
	return release, nil
}

// vacuumHeap is the heap pass and the index entries of the removed row
// versions. ok is false if the table was dropped meanwhile.
func (e *Engine) vacuumHeap(ctx context.Context, oid uint32, p vacuumParams, prog *pgstat.Progress, interrupt func() error) (heap.VacuumStats, bool, error) {
	release, err := e.lockForVacuum(ctx, oid, p)
	if err != nil {
		return heap.VacuumStats{}, false, err
	}
	defer release()
	r, err := e.rel(oid)
	if err != nil {
		return heap.VacuumStats{}, false, nil
	}
	opts := heap.VacuumOptions{Cost: p.cost, Progress: &prog.VacuumProgress, Interrupt: interrupt, Strategy: p.ring,
		DisablePageSkipping: p.noSkip}
	var drop func(dead []page.TID) error
	passed := false // DeleteTIDs ran: no cleanup pass
	if len(r.indexes) > 0 {
		drop = func(dead []page.TID) error {
			passed = true
			set := make(map[page.TID]struct{}, len(dead))
			for _, t := range dead {
				set[t] = struct{}{}
			}
			for _, ri := range r.indexes {
				if _, err := ri.ix.DeleteTIDs(set, opts.DelayPoint, opts.Strategy); err != nil {
					return err
				}
			}
			return nil
		}
	}
	vs, err := r.heap.VacuumWith(e.txns.OldestXmin(), e.txns, drop, opts)
	if err != nil {
		return vs, false, err
	}
	// Index cleanup (lazy_cleanup_all_indexes): when no entry had to go,
	// disk indexes may still record the pages they deleted earlier in
	// their free space maps, now that no transaction can reach them.
	if !passed {
		prog.VacuumProgress.SetPhase(heap.PhaseIndexCleanup)
		for _, ri := range r.indexes {
			if err := ri.ix.VacuumCleanup(opts.DelayPoint, opts.Strategy); err != nil {
				return vs, false, err
			}
		}
		prog.VacuumProgress.SetPhase(heap.PhaseFinalCleanup)
	}
	return vs, true, nil
}

// analyzeHeap is ANALYZE: count the table's pages and live and dead rows,
// record them as relpages/reltuples and in the statistics. ok is false if
// the table was dropped meanwhile.
func (e *Engine) analyzeHeap(ctx context.Context, oid uint32, p vacuumParams, interrupt func() error) (heap.AnalyzeStats, bool, error) {
	release, err := e.lockForVacuum(ctx, oid, p)
	if err != nil {
		return heap.AnalyzeStats{}, false, err
	}
	defer release()
	r, err := e.rel(oid)
	if err != nil {
		return heap.AnalyzeStats{}, false, nil
	}
	mods := e.stats.Table(oid).ModSinceAnalyze
	as, err := r.heap.Analyze(e.txns.OldestXmin(), e.txns, heap.VacuumOptions{Cost: p.cost, Interrupt: interrupt, Strategy: p.ring})
	if err != nil {
		return as, false, err
	}
	e.stats.ReportAnalyze(oid, as.LiveTuples, as.DeadTuples, mods, p.auto, time.Now())
	if err := e.stats.SetRelSize(oid, pgstat.RelSize{RelPages: as.Pages, RelTuples: float64(as.LiveTuples)}); err != nil {
		return as, false, err
	}
	return as, true, nil
}

// truncateEmptyTail is VACUUM's last step on a table (lazy_truncate_heap):
// when enough empty pages end it (heap.ShouldTruncate), take the table
// exclusively, never queueing behind or ahead of anyone (a waiting
// exclusive request would stall every statement on the table), retrying
// for up to 5 seconds as PostgreSQL does and otherwise leaving the pages,
// then cut them off. Holding the lock, no statement can use the table, and
// heap.TruncateEmptyTail checks the pages again. It returns how many
// blocks it removed.
func (e *Engine) truncateEmptyTail(ctx context.Context, oid uint32) (uint32, error) {
	r, err := e.rel(oid)
	if err != nil {
		return 0, nil // dropped meanwhile
	}
	keep, nblocks, err := r.heap.NonEmptyBlocks()
	if err != nil || !heap.ShouldTruncate(keep, nblocks) {
		return 0, err
	}
	deadline := time.Now().Add(truncateLockTimeout)
	for {
		release, ok := e.txns.TryLockRelationExclusive(oid)
		if ok {
			defer release()
			break
		}
		if time.Now().After(deadline) {
			e.log.Debug("VACUUM did not truncate: the table stayed in use", "oid", oid)
			return 0, nil
		}
		select {
		case <-ctx.Done():
			return 0, mapCtxErr(ctx, ctx.Err())
		case <-time.After(truncateLockInterval):
		}
	}
	if r, err = e.rel(oid); err != nil {
		return 0, nil
	}
	return r.heap.TruncateEmptyTail()
}

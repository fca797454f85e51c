package heap

import (
	"sync/atomic"
	"time"

	"minipg/storage/buffer"
)

// VacuumOptions are what a caller may add to a Vacuum: cost-based delay,
// progress reporting and a way to stop it. The zero value runs as fast as
// it can, reports nothing and never stops early.
type VacuumOptions struct {
	// Cost, when not nil, charges each page VACUUM touches and sleeps when
	// the balance reaches the limit (PostgreSQL's vacuum_delay_point).
	Cost *VacuumCost
	// Progress, when not nil, is kept up to date as the vacuum goes
	// (pg_stat_progress_vacuum).
	Progress *VacuumProgress
	// Interrupt, when not nil, is called at every delay point (once per
	// page); an error it returns stops the vacuum and is returned. Pages
	// already vacuumed stay vacuumed; dead items collected but not yet
	// passed to dropIndexEntries stay LP_DEAD until the next vacuum.
	Interrupt func() error
	// Strategy, when not nil, is the ring the pages are read through
	// (PostgreSQL's BAS_VACUUM), so that a scan of the whole table keeps
	// the pages others use in the buffer pool.
	Strategy *buffer.Strategy
	// DisablePageSkipping makes the heap pass read every page, all-visible
	// or not (VACUUM (DISABLE_PAGE_SKIPPING)).
	DisablePageSkipping bool
}

// VacuumCost is PostgreSQL's cost-based vacuum delay: every page read
// from the pool costs PageHit, every page read from disk PageMiss, every
// page this vacuum dirties PageDirty; when the accumulated balance reaches
// the limit the vacuum sleeps delay x balance / limit (at most 4 x delay)
// and starts a new balance. One VacuumCost belongs to one vacuum at a time.
type VacuumCost struct {
	PageHit, PageMiss, PageDirty int
	// Params returns the cost limit and delay in force. It is read at every
	// delay point, so a limit rebalanced while the vacuum runs (autovacuum's
	// workers share one budget) takes effect at once. A delay of 0 or a
	// limit below 1 means no sleeping.
	Params func() (limit int, delay time.Duration)
	// Sleep waits d; nil means time.Sleep. An error stops the vacuum (the
	// caller was cancelled while sleeping).
	Sleep func(d time.Duration) error

	balance int

	// What this vacuum did (PostgreSQL's "buffer usage" log line).
	Hits, Misses, Dirtied int64
	Slept                 time.Duration
}

// charge adds one page access to the balance.
func (c *VacuumCost) charge(hit, dirtied bool) {
	if c == nil {
		return
	}
	if hit {
		c.Hits++
		c.balance += c.PageHit
	} else {
		c.Misses++
		c.balance += c.PageMiss
	}
	if dirtied {
		c.Dirtied++
		c.balance += c.PageDirty
	}
}

// delay sleeps if the balance has reached the limit.
func (c *VacuumCost) delay() error {
	if c == nil || c.Params == nil {
		return nil
	}
	limit, d := c.Params()
	if d <= 0 || limit < 1 || c.balance < limit {
		return nil
	}
	wait := d * time.Duration(c.balance) / time.Duration(limit)
	wait = min(wait, 4*d)
	c.balance = 0
	c.Slept += wait
	if c.Sleep != nil {
		return c.Sleep(wait)
	}
	time.Sleep(wait)
	return nil
}

// VacuumPhase is a phase of pg_stat_progress_vacuum.
type VacuumPhase int32

// The phases a vacuum goes through, with PostgreSQL 15's names.
const (
	PhaseInitializing VacuumPhase = iota
	PhaseScanHeap
	PhaseVacuumIndexes
	PhaseVacuumHeap
	PhaseIndexCleanup
	PhaseTruncate
	PhaseFinalCleanup
)

var phaseNames = [...]string{"initializing", "scanning heap", "vacuuming indexes", "vacuuming heap",
	"cleaning up indexes", "truncating heap", "performing final cleanup"}

// String is the phase as pg_stat_progress_vacuum shows it.
func (p VacuumPhase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "unknown"
}

// VacuumProgress is one running vacuum's progress. Vacuum writes it and
// anyone may read it at any time (each field is atomic; together they are
// not a consistent snapshot, as in PostgreSQL).
type VacuumProgress struct {
	Phase            atomic.Int32 // a VacuumPhase
	HeapBlksTotal    atomic.Int64
	HeapBlksScanned  atomic.Int64
	HeapBlksVacuumed atomic.Int64
	IndexVacuumCount atomic.Int64
	MaxDeadTuples    atomic.Int64
	NumDeadTuples    atomic.Int64
}

// SetPhase records the phase the vacuum is in.
func (p *VacuumProgress) SetPhase(ph VacuumPhase) {
	if p != nil {
		p.Phase.Store(int32(ph))
	}
}

// DelayPoint is vacuum_delay_point for the pages of an index pass (the
// dropIndexEntries callback's): it charges one page access (hit: found in
// the buffer pool; dirtied: this vacuum dirtied it), then checks for an
// interrupt and sleeps if the balance reached the limit, as PostgreSQL's
// btvacuumpage does through vacuum_delay_point.
func (o *VacuumOptions) DelayPoint(hit, dirtied bool) error {
	o.Cost.charge(hit, dirtied)
	return o.point()
}

// point is vacuum_delay_point: the interrupt check, then the cost delay.
func (o *VacuumOptions) point() error {
	if o.Interrupt != nil {
		if err := o.Interrupt(); err != nil {
			return err
		}
	}
	return o.Cost.delay()
}

// Package pgstat keeps the cumulative table statistics PostgreSQL 15
// shows in pg_stat_user_tables and pg_stat_all_tables, the sizes VACUUM and
// ANALYZE record for the planner and for autovacuum (pg_class.relpages and
// reltuples), and the progress of running vacuums
// (pg_stat_progress_vacuum).
//
// # Counting
//
// Scans are counted when they start (seq_scan, idx_scan) and rows as they
// are read. Row changes are counted per transaction in an XactCounts and
// applied at its end as PostgreSQL's AtEOXact_PgStat does: on commit an
// insert adds a live tuple, a delete removes one, and an update or delete
// leaves a dead one; on abort the rows the transaction inserted (new row
// versions of its updates included) are dead. n_tup_ins/upd/del and
// n_ins_since_vacuum count both; n_mod_since_analyze counts committed
// changes only. An opportunistic prune subtracts what it removed from
// n_dead_tup. VACUUM and ANALYZE replace n_live_tup and n_dead_tup with what
// they counted.
//
// # Persistence
//
// As in PostgreSQL 15: the counters are written to
// <datadir>/pg_stat/pgstat.stat at a clean shutdown and read back (and the
// file removed) at the next start, so a crash leaves no file and the next
// start begins with zeroed counters. relpages and reltuples are different:
// PostgreSQL keeps them in pg_class, which survives a crash, so they are
// written (synced) to <datadir>/pg_stat/relsize.json each time VACUUM or
// ANALYZE changes them.
//
// # Locking
//
// mu guards the maps; each entry's counters are atomics, so counting takes
// mu shared only. Reset and Drop take it exclusively.
package pgstat

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"minipg/internal/durable"
)

// statFile and relsizeFile live in the pg_stat directory.
const (
	statFile    = "pgstat.stat"
	relsizeFile = "relsize.json"
	fileMagic   = "minipg pgstat 1"
)

// TableStats is one table's row of pg_stat_all_tables (timestamps are zero
// when the event never happened).
type TableStats struct {
	SeqScan          int64     `json:"seq_scan"`
	SeqTupRead       int64     `json:"seq_tup_read"`
	IdxScan          int64     `json:"idx_scan"`
	IdxTupFetch      int64     `json:"idx_tup_fetch"`
	TupIns           int64     `json:"n_tup_ins"`
	TupUpd           int64     `json:"n_tup_upd"`
	TupDel           int64     `json:"n_tup_del"`
	TupHotUpd        int64     `json:"n_tup_hot_upd"`
	LiveTup          int64     `json:"n_live_tup"`
	DeadTup          int64     `json:"n_dead_tup"`
	ModSinceAnalyze  int64     `json:"n_mod_since_analyze"`
	InsSinceVacuum   int64     `json:"n_ins_since_vacuum"`
	LastVacuum       time.Time `json:"last_vacuum"`
	LastAutovacuum   time.Time `json:"last_autovacuum"`
	LastAnalyze      time.Time `json:"last_analyze"`
	LastAutoanalyze  time.Time `json:"last_autoanalyze"`
	VacuumCount      int64     `json:"vacuum_count"`
	AutovacuumCount  int64     `json:"autovacuum_count"`
	AnalyzeCount     int64     `json:"analyze_count"`
	AutoanalyzeCount int64     `json:"autoanalyze_count"`
}

// entry is a table's live counters.
type entry struct {
	seqScan, seqTupRead, idxScan, idxTupFetch atomic.Int64
	tupIns, tupUpd, tupDel, tupHotUpd         atomic.Int64
	liveTup, deadTup, modSinceAnalyze         atomic.Int64
	insSinceVacuum                            atomic.Int64
	lastVacuum, lastAutovacuum                atomic.Int64 // Unix microseconds; 0 = never
	lastAnalyze, lastAutoanalyze              atomic.Int64
	vacuumCount, autovacuumCount              atomic.Int64
	analyzeCount, autoanalyzeCount            atomic.Int64
}

// RelSize is what VACUUM and ANALYZE last recorded of a table
// (pg_class.relpages and reltuples; RelTuples is -1 until the first).
type RelSize struct {
	RelPages  uint32  `json:"relpages"`
	RelTuples float64 `json:"reltuples"`
}

// Collector holds the statistics of one data directory. All methods are
// safe for concurrent use.
type Collector struct {
	dir string // <datadir>/pg_stat

	mu struct {
		sync.RWMutex
		tables  map[uint32]*entry
		relsize map[uint32]RelSize
		running map[*Progress]struct{}
	}
	sizeMu sync.Mutex // serializes writes of relsizeFile
}

// Open loads the statistics of the data directory whose pg_stat directory
// is dir (created if needed): the counters a clean shutdown saved (the
// file is removed once read, so a crash before the next clean shutdown
// starts from zero) and the recorded table sizes.
func Open(dir string) (*Collector, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("pgstat: %w", err)
	}
	c := &Collector{dir: dir}
	c.mu.tables = map[uint32]*entry{}
	c.mu.relsize = map[uint32]RelSize{}
	c.mu.running = map[*Progress]struct{}{}
	var saved struct {
		Magic  string                `json:"magic"`
		Tables map[uint32]TableStats `json:"tables"`
	}
	path := filepath.Join(dir, statFile)
	if b, err := os.ReadFile(path); err == nil {
		// A damaged file is ignored, as PostgreSQL ignores a corrupt one.
		if json.Unmarshal(b, &saved) == nil && saved.Magic == fileMagic {
			for oid, ts := range saved.Tables {
				c.mu.tables[oid] = fromStats(ts)
			}
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("pgstat: %w", err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("pgstat: %w", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, relsizeFile)); err == nil {
		if err := json.Unmarshal(b, &c.mu.relsize); err != nil {
			return nil, fmt.Errorf("pgstat: %s: %w", relsizeFile, err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("pgstat: %w", err)
	}
	return c, nil
}

// Save writes the counters for the next start (a clean shutdown calls it
// once, after the last statement).
func (c *Collector) Save() error {
	out := struct {
		Magic  string                `json:"magic"`
		Tables map[uint32]TableStats `json:"tables"`
	}{Magic: fileMagic, Tables: map[uint32]TableStats{}}
	c.mu.RLock()
	for oid, e := range c.mu.tables {
		out.Tables[oid] = e.stats()
	}
	c.mu.RUnlock()
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	return writeFileSync(filepath.Join(c.dir, statFile), b)
}

// writeFileSync replaces path with b durably.
func writeFileSync(path string, b []byte) error {
	if err := durable.WriteFile(path, b); err != nil {
		return fmt.Errorf("pgstat: %w", err)
	}
	return nil
}

// get returns oid's entry, creating it.
func (c *Collector) get(oid uint32) *entry {
	c.mu.RLock()
	e := c.mu.tables[oid]
	c.mu.RUnlock()
	if e != nil {
		return e
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e = c.mu.tables[oid]; e == nil {
		e = &entry{}
		c.mu.tables[oid] = e
	}
	return e
}

// CountSeqScan counts a sequential scan of table oid started.
func (c *Collector) CountSeqScan(oid uint32) { c.get(oid).seqScan.Add(1) }

// CountIdxScan counts an index scan of table oid started.
func (c *Collector) CountIdxScan(oid uint32) { c.get(oid).idxScan.Add(1) }

// CountTuplesRead counts n rows returned by a sequential scan (seq) or
// fetched through an index.
func (c *Collector) CountTuplesRead(oid uint32, seq bool, n int64) {
	if n == 0 {
		return
	}
	if seq {
		c.get(oid).seqTupRead.Add(n)
	} else {
		c.get(oid).idxTupFetch.Add(n)
	}
}

// XactCounts are one transaction's row changes on one table.
type XactCounts struct {
	Inserted, Updated, Deleted, HotUpdated int64
}

// Xact collects a transaction's row changes per table until EndXact. The
// zero value is ready; it belongs to one session.
type Xact map[uint32]*XactCounts

// For returns the counts of table oid, creating them.
func (x *Xact) For(oid uint32) *XactCounts {
	if *x == nil {
		*x = Xact{}
	}
	xc := (*x)[oid]
	if xc == nil {
		xc = &XactCounts{}
		(*x)[oid] = xc
	}
	return xc
}

// Clone returns a copy of x, for a savepoint.
func (x Xact) Clone() Xact {
	if x == nil {
		return nil
	}
	c := make(Xact, len(x))
	for oid, xc := range x {
		cp := *xc
		c[oid] = &cp
	}
	return c
}

// Since returns the changes x counted after base, a Clone of x taken
// earlier (a subtransaction's, to be applied as aborted when it is rolled
// back).
func (x Xact) Since(base Xact) Xact {
	var d Xact
	for oid, xc := range x {
		b := base[oid]
		if b == nil {
			b = &XactCounts{}
		}
		c := XactCounts{xc.Inserted - b.Inserted, xc.Updated - b.Updated, xc.Deleted - b.Deleted, xc.HotUpdated - b.HotUpdated}
		if c != (XactCounts{}) {
			if d == nil {
				d = Xact{}
			}
			d[oid] = &c
		}
	}
	return d
}

// EndXact applies a finished transaction's changes (AtEOXact_PgStat) and
// empties x.
func (c *Collector) EndXact(x Xact, commit bool) {
	for oid, xc := range x {
		e := c.get(oid)
		e.tupIns.Add(xc.Inserted)
		e.tupUpd.Add(xc.Updated)
		e.tupDel.Add(xc.Deleted)
		e.tupHotUpd.Add(xc.HotUpdated)
		e.insSinceVacuum.Add(xc.Inserted)
		if commit {
			e.liveTup.Add(xc.Inserted - xc.Deleted)
			e.deadTup.Add(xc.Updated + xc.Deleted)
			e.modSinceAnalyze.Add(xc.Inserted + xc.Updated + xc.Deleted)
		} else {
			e.deadTup.Add(xc.Inserted + xc.Updated)
		}
		delete(x, oid)
	}
}

// Pruned subtracts n dead row versions an opportunistic prune removed.
func (c *Collector) Pruned(oid uint32, n int) {
	e := c.get(oid)
	for {
		old := e.deadTup.Load()
		nv := max(old-int64(n), 0)
		if e.deadTup.CompareAndSwap(old, nv) {
			return
		}
	}
}

// ReportVacuum records a finished VACUUM of oid (pgstat_report_vacuum):
// live and dead are what it counted; auto tells autovacuum from a manual
// VACUUM.
func (c *Collector) ReportVacuum(oid uint32, live, dead int64, auto bool, at time.Time) {
	e := c.get(oid)
	e.liveTup.Store(live)
	e.deadTup.Store(dead)
	e.insSinceVacuum.Store(0)
	if auto {
		e.lastAutovacuum.Store(at.UnixMicro())
		e.autovacuumCount.Add(1)
	} else {
		e.lastVacuum.Store(at.UnixMicro())
		e.vacuumCount.Add(1)
	}
}

// ReportAnalyze records a finished ANALYZE of oid (pgstat_report_analyze).
// modsSeen is n_mod_since_analyze when it started: changes made while it
// ran stay counted.
func (c *Collector) ReportAnalyze(oid uint32, live, dead, modsSeen int64, auto bool, at time.Time) {
	e := c.get(oid)
	e.liveTup.Store(live)
	e.deadTup.Store(dead)
	e.modSinceAnalyze.Add(-min(modsSeen, e.modSinceAnalyze.Load()))
	if auto {
		e.lastAutoanalyze.Store(at.UnixMicro())
		e.autoanalyzeCount.Add(1)
	} else {
		e.lastAnalyze.Store(at.UnixMicro())
		e.analyzeCount.Add(1)
	}
}

// Drop forgets a dropped table.
func (c *Collector) Drop(oid uint32) {
	c.mu.Lock()
	delete(c.mu.tables, oid)
	_, sized := c.mu.relsize[oid]
	delete(c.mu.relsize, oid)
	c.mu.Unlock()
	if sized {
		_ = c.saveRelSize()
	}
}

// Reset zeroes every table's counters (pg_stat_reset()), n_live_tup and
// n_dead_tup included, as PostgreSQL 15 does. Recorded sizes are kept.
func (c *Collector) Reset() {
	c.mu.Lock()
	c.mu.tables = map[uint32]*entry{}
	c.mu.Unlock()
}

// Table returns table oid's statistics (zero if it has none).
func (c *Collector) Table(oid uint32) TableStats {
	c.mu.RLock()
	e := c.mu.tables[oid]
	c.mu.RUnlock()
	if e == nil {
		return TableStats{}
	}
	return e.stats()
}

// HasTable reports whether table oid has statistics (autovacuum skips a
// table without, as PostgreSQL's does).
func (c *Collector) HasTable(oid uint32) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.tables[oid] != nil
}

// RelSize returns what VACUUM or ANALYZE last recorded for oid; RelTuples
// is -1 if neither has run.
func (c *Collector) RelSize(oid uint32) RelSize {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if rs, ok := c.mu.relsize[oid]; ok {
		return rs
	}
	return RelSize{RelTuples: -1}
}

// SetRelSize records oid's size (vac_update_relstats) durably.
func (c *Collector) SetRelSize(oid uint32, rs RelSize) error {
	c.mu.Lock()
	c.mu.relsize[oid] = rs
	c.mu.Unlock()
	return c.saveRelSize()
}

func (c *Collector) saveRelSize() error {
	c.sizeMu.Lock()
	defer c.sizeMu.Unlock()
	c.mu.RLock()
	b, err := json.Marshal(c.mu.relsize)
	c.mu.RUnlock()
	if err != nil {
		return err
	}
	return writeFileSync(filepath.Join(c.dir, relsizeFile), b)
}

func micros(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMicro()
}

func fromMicros(us int64) time.Time {
	if us == 0 {
		return time.Time{}
	}
	return time.UnixMicro(us).UTC()
}

func (e *entry) stats() TableStats {
	return TableStats{
		SeqScan: e.seqScan.Load(), SeqTupRead: e.seqTupRead.Load(), IdxScan: e.idxScan.Load(), IdxTupFetch: e.idxTupFetch.Load(),
		TupIns: e.tupIns.Load(), TupUpd: e.tupUpd.Load(), TupDel: e.tupDel.Load(), TupHotUpd: e.tupHotUpd.Load(),
		LiveTup: e.liveTup.Load(), DeadTup: e.deadTup.Load(), ModSinceAnalyze: e.modSinceAnalyze.Load(),
		InsSinceVacuum: e.insSinceVacuum.Load(),
		LastVacuum:     fromMicros(e.lastVacuum.Load()), LastAutovacuum: fromMicros(e.lastAutovacuum.Load()),
		LastAnalyze: fromMicros(e.lastAnalyze.Load()), LastAutoanalyze: fromMicros(e.lastAutoanalyze.Load()),
		VacuumCount: e.vacuumCount.Load(), AutovacuumCount: e.autovacuumCount.Load(),
		AnalyzeCount: e.analyzeCount.Load(), AutoanalyzeCount: e.autoanalyzeCount.Load(),
	}
}

func fromStats(ts TableStats) *entry {
	e := &entry{}
	e.seqScan.Store(ts.SeqScan)
	e.seqTupRead.Store(ts.SeqTupRead)
	e.idxScan.Store(ts.IdxScan)
	e.idxTupFetch.Store(ts.IdxTupFetch)
	e.tupIns.Store(ts.TupIns)
	e.tupUpd.Store(ts.TupUpd)
	e.tupDel.Store(ts.TupDel)
	e.tupHotUpd.Store(ts.TupHotUpd)
	e.liveTup.Store(ts.LiveTup)
	e.deadTup.Store(ts.DeadTup)
	e.modSinceAnalyze.Store(ts.ModSinceAnalyze)
	e.insSinceVacuum.Store(ts.InsSinceVacuum)
	e.lastVacuum.Store(micros(ts.LastVacuum))
	e.lastAutovacuum.Store(micros(ts.LastAutovacuum))
	e.lastAnalyze.Store(micros(ts.LastAnalyze))
	e.lastAutoanalyze.Store(micros(ts.LastAutoanalyze))
	e.vacuumCount.Store(ts.VacuumCount)
	e.autovacuumCount.Store(ts.AutovacuumCount)
	e.analyzeCount.Store(ts.AnalyzeCount)
	e.autoanalyzeCount.Store(ts.AutoanalyzeCount)
	return e
}

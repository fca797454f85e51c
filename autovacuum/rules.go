package autovacuum

import (
	"time"

	"minipg/pgstat"
)

// Settings are the server's autovacuum settings (PostgreSQL 15's names;
// DefaultSettings has their defaults).
type Settings struct {
	Enabled                 bool          // autovacuum
	MaxWorkers              int           // autovacuum_max_workers
	Naptime                 time.Duration // autovacuum_naptime
	VacuumThreshold         float64       // autovacuum_vacuum_threshold
	VacuumScaleFactor       float64       // autovacuum_vacuum_scale_factor
	VacuumInsertThreshold   float64       // autovacuum_vacuum_insert_threshold; -1 disables insert-driven vacuums
	VacuumInsertScaleFactor float64       // autovacuum_vacuum_insert_scale_factor
	AnalyzeThreshold        float64       // autovacuum_analyze_threshold
	AnalyzeScaleFactor      float64       // autovacuum_analyze_scale_factor
	VacuumCostDelay         time.Duration // autovacuum_vacuum_cost_delay; -1 means vacuum_cost_delay
	VacuumCostLimit         int           // autovacuum_vacuum_cost_limit; -1 means vacuum_cost_limit
	BaseCostDelay           time.Duration // vacuum_cost_delay
	BaseCostLimit           int           // vacuum_cost_limit
	PageHit                 int           // vacuum_cost_page_hit
	PageMiss                int           // vacuum_cost_page_miss
	PageDirty               int           // vacuum_cost_page_dirty
	LogMinDuration          time.Duration // log_autovacuum_min_duration; -1 logs nothing
}

// DefaultSettings returns PostgreSQL 15's defaults.
func DefaultSettings() Settings {
	return Settings{
		Enabled: true, MaxWorkers: 3, Naptime: time.Minute,
		VacuumThreshold: 50, VacuumScaleFactor: 0.2,
		VacuumInsertThreshold: 1000, VacuumInsertScaleFactor: 0.2,
		AnalyzeThreshold: 50, AnalyzeScaleFactor: 0.1,
		VacuumCostDelay: 2 * time.Millisecond, VacuumCostLimit: -1,
		BaseCostDelay: 0, BaseCostLimit: 200,
		PageHit: 1, PageMiss: 2, PageDirty: 20,
		LogMinDuration: 10 * time.Minute,
	}
}

// TableOptions are a table's own autovacuum storage parameters
// (PostgreSQL's AutoVacOpts). A negative number means "not set: use the
// server's setting" (-2 for VacuumInsertThreshold, whose -1 means off);
// Enabled is autovacuum_enabled.
type TableOptions struct {
	Enabled                 bool
	VacuumThreshold         float64
	VacuumScaleFactor       float64
	VacuumInsertThreshold   float64 // -2 unset, -1 disables insert-driven vacuums (as in reloptions.c)
	VacuumInsertScaleFactor float64
	AnalyzeThreshold        float64
	AnalyzeScaleFactor      float64
	VacuumCostDelay         time.Duration // -1 unset
	VacuumCostLimit         int           // -1 unset
	LogMinDuration          time.Duration // -2 unset, -1 logs nothing
}

// UnsetTableOptions is a table without autovacuum storage parameters.
func UnsetTableOptions() TableOptions {
	return TableOptions{Enabled: true, VacuumThreshold: -1, VacuumScaleFactor: -1, VacuumInsertThreshold: -2,
		VacuumInsertScaleFactor: -1, AnalyzeThreshold: -1, AnalyzeScaleFactor: -1, VacuumCostDelay: -1, VacuumCostLimit: -1, LogMinDuration: -2}
}

// Table is a table as the launcher sees it.
type Table struct {
	OID     uint32
	Name    string
	Options TableOptions
	// HasStats is false for a table the statistics know nothing about
	// (never touched since they were reset or lost in a crash): autovacuum
	// leaves it alone, as PostgreSQL's does.
	HasStats  bool
	Stats     pgstat.TableStats
	RelTuples float64 // pg_class.reltuples; -1 until the first VACUUM or ANALYZE
}

// Decision is what NeedsVacAnalyze found, with the figures it compared.
type Decision struct {
	Vacuum, Analyze bool
	// The thresholds and the counts compared with them.
	VacThresh, VacInsThresh, AnlThresh float64
	DeadTuples, InsTuples, ModTuples   int64
}

// NeedsVacAnalyze is relation_needs_vacanalyze: a table needs VACUUM when
// its dead tuples exceed autovacuum_vacuum_threshold +
// autovacuum_vacuum_scale_factor x reltuples, or its inserts since the last
// vacuum exceed autovacuum_vacuum_insert_threshold +
// autovacuum_vacuum_insert_scale_factor x reltuples (unless that threshold
// is -1); ANALYZE when its changes since the last analyze exceed
// autovacuum_analyze_threshold + autovacuum_analyze_scale_factor x
// reltuples. A table's own storage parameters replace the server's
// settings; a table with autovacuum_enabled = off, or without statistics,
// needs nothing (minipg has no transaction-ID wraparound to force it).
// reltuples counts as 0 before the first VACUUM or ANALYZE.
func NeedsVacAnalyze(t Table, s Settings) Decision {
	var d Decision
	o := t.Options
	pick := func(table, server float64) float64 {
		if table >= 0 {
			return table
		}
		return server
	}
	vacBase := pick(o.VacuumThreshold, s.VacuumThreshold)
	vacScale := pick(o.VacuumScaleFactor, s.VacuumScaleFactor)
	insBase := s.VacuumInsertThreshold
	if o.VacuumInsertThreshold >= -1 {
		insBase = o.VacuumInsertThreshold
	}
	insScale := pick(o.VacuumInsertScaleFactor, s.VacuumInsertScaleFactor)
	anlBase := pick(o.AnalyzeThreshold, s.AnalyzeThreshold)
	anlScale := pick(o.AnalyzeScaleFactor, s.AnalyzeScaleFactor)
	reltuples := max(t.RelTuples, 0)
	d.VacThresh = vacBase + vacScale*reltuples
	d.VacInsThresh = insBase + insScale*reltuples
	d.AnlThresh = anlBase + anlScale*reltuples
	d.DeadTuples, d.InsTuples, d.ModTuples = t.Stats.DeadTup, t.Stats.InsSinceVacuum, t.Stats.ModSinceAnalyze
	if !o.Enabled || !t.HasStats {
		return d
	}
	d.Vacuum = float64(d.DeadTuples) > d.VacThresh || (insBase >= 0 && float64(d.InsTuples) > d.VacInsThresh)
	d.Analyze = float64(d.ModTuples) > d.AnlThresh
	return d
}

// costParams are the cost limit and delay a worker uses on a table
// (table_recheck_autovac's choice): the table's own, else
// autovacuum_vacuum_cost_*, else vacuum_cost_*. balance is false when the
// table has its own, which keeps the worker out of cost balancing.
func costParams(o TableOptions, s Settings) (limit int, delay time.Duration, balance bool) {
	switch {
	case o.VacuumCostLimit > 0:
		limit = o.VacuumCostLimit
	case s.VacuumCostLimit > 0:
		limit = s.VacuumCostLimit
	default:
		limit = s.BaseCostLimit
	}
	switch {
	case o.VacuumCostDelay >= 0:
		delay = o.VacuumCostDelay
	case s.VacuumCostDelay >= 0:
		delay = s.VacuumCostDelay
	default:
		delay = s.BaseCostDelay
	}
	balance = o.VacuumCostLimit <= 0 && o.VacuumCostDelay < 0
	return limit, delay, balance
}

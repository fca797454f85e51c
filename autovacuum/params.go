package autovacuum

import (
	"math"
	"time"

	"minipg/reloptions"
)

// The autovacuum and cost-based vacuum delay parameters, with PostgreSQL
// 15's names, defaults, ranges, units and contexts. Those PostgreSQL also
// accepts per table (reloptions.c's autovacuum_* and
// log_autovacuum_min_duration) are storage parameters too; a table's own
// value wins over the server's.
var (
	EnabledParam = reloptions.Declare(reloptions.Param{
		Name: "autovacuum", Kind: reloptions.Bool, Default: "on", Setting: reloptions.Sighup,
		Desc: "Starts the autovacuum subprocess.",
	})
	TableEnabledParam = reloptions.Declare(reloptions.Param{
		Name: "autovacuum_enabled", Kind: reloptions.Bool, Default: "on", Table: true,
		Desc: "Enables autovacuum in this relation",
	})
	MaxWorkersParam = reloptions.Declare(reloptions.Param{
		Name: "autovacuum_max_workers", Kind: reloptions.Int, Default: "3", Min: 1, Max: 262143,
		Setting: reloptions.Postmaster,
		Desc:    "Sets the maximum number of simultaneously running autovacuum worker processes.",
	})
	NaptimeParam = reloptions.Declare(reloptions.Param{
		Name: "autovacuum_naptime", Kind: reloptions.Int, Unit: "s", Default: "60", Min: 1, Max: 2147483,
		Setting: reloptions.Sighup,
		Desc:    "Time to sleep between autovacuum runs.",
	})
	VacuumThresholdParam = reloptions.Declare(reloptions.Param{
		Name: "autovacuum_vacuum_threshold", Kind: reloptions.Int, Default: "50", Min: 0, Max: math.MaxInt32,
		Table: true, Setting: reloptions.Sighup,
		Desc: "Minimum number of tuple updates or deletes prior to vacuum.",
	})
	VacuumInsertThresholdParam = reloptions.Declare(reloptions.Param{
		Name: "autovacuum_vacuum_insert_threshold", Kind: reloptions.Int, Default: "1000", Min: -1, Max: math.MaxInt32,
		Table: true, Setting: reloptions.Sighup,
		Desc: "Minimum number of tuple inserts prior to vacuum, or -1 to disable insert vacuums.",
	})
	AnalyzeThresholdParam = reloptions.Declare(reloptions.Param{
		Name: "autovacuum_analyze_threshold", Kind: reloptions.Int, Default: "50", Min: 0, Max: math.MaxInt32,
		Table: true, Setting: reloptions.Sighup,
		Desc: "Minimum number of tuple inserts, updates, or deletes prior to analyze.",
	})
	VacuumScaleFactorParam = reloptions.Declare(reloptions.Param{
		Name: "autovacuum_vacuum_scale_factor", Kind: reloptions.Real, Default: "0.2", Min: 0, Max: 100,
		Table: true, Setting: reloptions.Sighup,
		Desc: "Number of tuple updates or deletes prior to vacuum as a fraction of reltuples.",
	})
	VacuumInsertScaleFactorParam = reloptions.Declare(reloptions.Param{
		Name: "autovacuum_vacuum_insert_scale_factor", Kind: reloptions.Real, Default: "0.2", Min: 0, Max: 100,
		Table: true, Setting: reloptions.Sighup,
		Desc: "Number of tuple inserts prior to vacuum as a fraction of reltuples.",
	})
	AnalyzeScaleFactorParam = reloptions.Declare(reloptions.Param{
		Name: "autovacuum_analyze_scale_factor", Kind: reloptions.Real, Default: "0.1", Min: 0, Max: 100,
		Table: true, Setting: reloptions.Sighup,
		Desc: "Number of tuple inserts, updates, or deletes prior to analyze as a fraction of reltuples.",
	})
	// The cost parameters: as server settings -1 means "use
	// vacuum_cost_delay/limit"; PostgreSQL's storage parameters start at 0
	// and 1, minipg's accept -1 too (one declaration serves both).
	VacuumCostDelayParam = reloptions.Declare(reloptions.Param{
		Name: "autovacuum_vacuum_cost_delay", Kind: reloptions.Real, Unit: "ms", Default: "2", Min: -1, Max: 100,
		Table: true, Setting: reloptions.Sighup,
		Desc: "Vacuum cost delay in milliseconds, for autovacuum.",
	})
	VacuumCostLimitParam = reloptions.Declare(reloptions.Param{
		Name: "autovacuum_vacuum_cost_limit", Kind: reloptions.Int, Default: "-1", Min: -1, Max: 10000,
		Table: true, Setting: reloptions.Sighup,
		Desc: "Vacuum cost amount available before napping, for autovacuum.",
	})
	LogMinDurationParam = reloptions.Declare(reloptions.Param{
		Name: "log_autovacuum_min_duration", Kind: reloptions.Int, Unit: "ms", Default: "600000", Min: -1, Max: math.MaxInt32,
		Table: true, Setting: reloptions.Sighup,
		Desc: "Sets the minimum execution time above which autovacuum actions will be logged.",
	})
	CostDelayParam = reloptions.Declare(reloptions.Param{
		Name: "vacuum_cost_delay", Kind: reloptions.Real, Unit: "ms", Default: "0", Min: 0, Max: 100,
		Setting: reloptions.UserSet,
		Desc:    "Vacuum cost delay in milliseconds.",
	})
	CostLimitParam = reloptions.Declare(reloptions.Param{
		Name: "vacuum_cost_limit", Kind: reloptions.Int, Default: "200", Min: 1, Max: 10000,
		Setting: reloptions.UserSet,
		Desc:    "Vacuum cost amount available before napping.",
	})
	CostPageHitParam = reloptions.Declare(reloptions.Param{
		Name: "vacuum_cost_page_hit", Kind: reloptions.Int, Default: "1", Min: 0, Max: 10000,
		Setting: reloptions.UserSet,
		Desc:    "Vacuum cost for a page found in the buffer cache.",
	})
	CostPageMissParam = reloptions.Declare(reloptions.Param{
		Name: "vacuum_cost_page_miss", Kind: reloptions.Int, Default: "2", Min: 0, Max: 10000,
		Setting: reloptions.UserSet,
		Desc:    "Vacuum cost for a page not found in the buffer cache.",
	})
	CostPageDirtyParam = reloptions.Declare(reloptions.Param{
		Name: "vacuum_cost_page_dirty", Kind: reloptions.Int, Default: "20", Min: 0, Max: 10000,
		Setting: reloptions.UserSet,
		Desc:    "Vacuum cost for a page dirtied by vacuum.",
	})
)

// ms is a number of milliseconds as a Duration; negative stays -1.
func ms(v float64) time.Duration {
	if v < 0 {
		return -1
	}
	return time.Duration(v * float64(time.Millisecond))
}

// SettingsFrom reads the server's settings (src: the server's values over
// the declared defaults).
func SettingsFrom(src reloptions.Source) Settings {
	return Settings{
		Enabled:                 EnabledParam.Bool(src),
		MaxWorkers:              MaxWorkersParam.Int(src),
		Naptime:                 time.Duration(NaptimeParam.Int(src)) * time.Second,
		VacuumThreshold:         float64(VacuumThresholdParam.Int(src)),
		VacuumScaleFactor:       VacuumScaleFactorParam.Real(src),
		VacuumInsertThreshold:   float64(VacuumInsertThresholdParam.Int(src)),
		VacuumInsertScaleFactor: VacuumInsertScaleFactorParam.Real(src),
		AnalyzeThreshold:        float64(AnalyzeThresholdParam.Int(src)),
		AnalyzeScaleFactor:      AnalyzeScaleFactorParam.Real(src),
		VacuumCostDelay:         ms(VacuumCostDelayParam.Real(src)),
		VacuumCostLimit:         VacuumCostLimitParam.Int(src),
		BaseCostDelay:           ms(CostDelayParam.Real(src)),
		BaseCostLimit:           CostLimitParam.Int(src),
		PageHit:                 CostPageHitParam.Int(src),
		PageMiss:                CostPageMissParam.Int(src),
		PageDirty:               CostPageDirtyParam.Int(src),
		LogMinDuration:          ms(float64(LogMinDurationParam.Int(src))),
	}
}

// TableOptionsFrom reads a table's own autovacuum storage parameters
// (its reloptions, as the catalog keeps them); those it does not set
// stay unset.
func TableOptionsFrom(opts map[string]string) TableOptions {
	o := UnsetTableOptions()
	src := reloptions.Layers(opts)
	set := func(p *reloptions.Param) bool { _, ok := opts[p.Name]; return ok }
	o.Enabled = TableEnabledParam.Bool(src)
	if set(VacuumThresholdParam) {
		o.VacuumThreshold = float64(VacuumThresholdParam.Int(src))
	}
	if set(VacuumScaleFactorParam) {
		o.VacuumScaleFactor = VacuumScaleFactorParam.Real(src)
	}
	if set(VacuumInsertThresholdParam) {
		o.VacuumInsertThreshold = float64(VacuumInsertThresholdParam.Int(src))
	}
	if set(VacuumInsertScaleFactorParam) {
		o.VacuumInsertScaleFactor = VacuumInsertScaleFactorParam.Real(src)
	}
	if set(AnalyzeThresholdParam) {
		o.AnalyzeThreshold = float64(AnalyzeThresholdParam.Int(src))
	}
	if set(AnalyzeScaleFactorParam) {
		o.AnalyzeScaleFactor = AnalyzeScaleFactorParam.Real(src)
	}
	if set(VacuumCostDelayParam) {
		o.VacuumCostDelay = ms(VacuumCostDelayParam.Real(src))
	}
	if set(VacuumCostLimitParam) {
		o.VacuumCostLimit = VacuumCostLimitParam.Int(src)
	}
	if set(LogMinDurationParam) {
		o.LogMinDuration = ms(float64(LogMinDurationParam.Int(src)))
	}
	return o
}

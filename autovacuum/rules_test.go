package autovacuum

import (
	"testing"
	"time"

	"minipg/pgstat"
)

func table(reltuples float64, dead, ins, mod int64, opts TableOptions) Table {
	return Table{OID: 1, Name: "t", Options: opts, HasStats: true, RelTuples: reltuples,
		Stats: pgstat.TableStats{DeadTup: dead, InsSinceVacuum: ins, ModSinceAnalyze: mod}}
}

func TestNeedsVacAnalyze(t *testing.T) {
	s := DefaultSettings()
	unset := UnsetTableOptions()
	with := func(f func(*TableOptions)) TableOptions { o := unset; f(&o); return o }
	for _, c := range []struct {
		name            string
		t               Table
		vacuum, analyze bool
	}{
		{"nothing", table(1000, 0, 0, 0, unset), false, false},
		// 50 + 0.2 x 1000 = 250 dead tuples.
		{"dead at threshold", table(1000, 250, 0, 0, unset), false, false},
		{"dead past threshold", table(1000, 251, 0, 0, unset), true, false},
		// Never vacuumed: reltuples counts as 0.
		{"never vacuumed", table(-1, 51, 0, 0, unset), true, false},
		// 1000 + 0.2 x 1000 = 1200 inserts.
		{"inserts at threshold", table(1000, 0, 1200, 0, unset), false, false},
		{"inserts past threshold", table(1000, 0, 1201, 0, unset), true, false},
		// 50 + 0.1 x 1000 = 150 changes.
		{"changes past analyze threshold", table(1000, 0, 0, 151, unset), false, true},
		{"changes at analyze threshold", table(1000, 0, 0, 150, unset), false, false},
		{"disabled", table(1000, 5000, 5000, 5000, with(func(o *TableOptions) { o.Enabled = false })), false, false},
		{"no statistics", Table{OID: 1, Options: unset, HasStats: false,
			Stats: pgstat.TableStats{DeadTup: 5000}}, false, false},
		{"table threshold", table(1000, 20, 0, 0, with(func(o *TableOptions) { o.VacuumThreshold, o.VacuumScaleFactor = 10, 0 })), true, false},
		{"table scale factor", table(1000, 100, 0, 0, with(func(o *TableOptions) { o.VacuumScaleFactor = 0.01 })), true, false},
		{"table insert vacuums off", table(1000, 0, 1e6, 0, with(func(o *TableOptions) { o.VacuumInsertThreshold = -1 })), false, false},
		{"table insert threshold", table(0, 0, 11, 0, with(func(o *TableOptions) { o.VacuumInsertThreshold = 10 })), true, false},
		{"table analyze", table(1000, 0, 0, 60, with(func(o *TableOptions) { o.AnalyzeScaleFactor = 0 })), false, true},
	} {
		d := NeedsVacAnalyze(c.t, s)
		if d.Vacuum != c.vacuum || d.Analyze != c.analyze {
			t.Errorf("%s: vacuum %v analyze %v, want %v %v (%+v)", c.name, d.Vacuum, d.Analyze, c.vacuum, c.analyze, d)
		}
	}
	s.VacuumInsertThreshold = -1
	if d := NeedsVacAnalyze(table(0, 0, 1e6, 0, unset), s); d.Vacuum {
		t.Error("insert vacuum with autovacuum_vacuum_insert_threshold = -1")
	}
}

func TestCostParams(t *testing.T) {
	s := DefaultSettings()
	unset := UnsetTableOptions()
	limit, delay, balance := costParams(unset, s)
	if limit != 200 || delay != 2*time.Millisecond || !balance {
		t.Errorf("defaults: %d %v %v, want vacuum_cost_limit 200, 2ms, balanced", limit, delay, balance)
	}
	s.VacuumCostLimit, s.VacuumCostDelay = 400, -1
	s.BaseCostDelay = 7 * time.Millisecond
	if limit, delay, _ = costParams(unset, s); limit != 400 || delay != 7*time.Millisecond {
		t.Errorf("autovacuum_vacuum_cost_limit 400, delay -1: %d %v", limit, delay)
	}
	o := unset
	o.VacuumCostLimit, o.VacuumCostDelay = 50, 10*time.Millisecond
	if limit, delay, balance = costParams(o, s); limit != 50 || delay != 10*time.Millisecond || balance {
		t.Errorf("table's own: %d %v %v", limit, delay, balance)
	}
}

// Balancing shares the limit among the workers in proportion to
// limit/delay; a worker with its own table settings keeps them.
func TestBalanceCost(t *testing.T) {
	l := &Launcher{set: DefaultSettings()}
	l.mu.workers = map[*worker]struct{}{}
	mk := func(limit int, delay time.Duration, balance bool) *worker {
		w := &worker{baseLimit: limit, delay: delay, balance: balance}
		w.limit.Store(int64(limit))
		l.mu.workers[w] = struct{}{}
		return w
	}
	a := mk(200, 2*time.Millisecond, true)
	l.balanceLocked()
	if a.limit.Load() != 200 {
		t.Errorf("one worker: limit %d, want 200", a.limit.Load())
	}
	b := mk(200, 2*time.Millisecond, true)
	c := mk(1000, 20*time.Millisecond, false)
	l.balanceLocked()
	if a.limit.Load() != 100 || b.limit.Load() != 100 || c.limit.Load() != 1000 {
		t.Errorf("limits %d %d %d, want 100 100 1000", a.limit.Load(), b.limit.Load(), c.limit.Load())
	}
	d := mk(200, 6*time.Millisecond, true) // a third of the others' rate
	l.balanceLocked()
	// total = 100+100+33.3 per ms; a gets 200 x 100/233.3 = 85, d 28.
	if a.limit.Load() != 85 || d.limit.Load() != 28 {
		t.Errorf("limits a %d d %d, want 85 28", a.limit.Load(), d.limit.Load())
	}
}

// The declared parameters give PostgreSQL 15's defaults, and a table's
// storage parameters are read in their base units.
func TestParams(t *testing.T) {
	if got, want := SettingsFrom(func(string) (string, bool) { return "", false }), DefaultSettings(); got != want {
		t.Errorf("defaults from the declarations:\n%+v\nwant\n%+v", got, want)
	}
	s := SettingsFrom(func(name string) (string, bool) {
		v, ok := map[string]string{"autovacuum_naptime": "5s", "autovacuum": "off", "autovacuum_vacuum_cost_delay": "-1"}[name]
		return v, ok
	})
	if s.Naptime != 5*time.Second || s.Enabled || s.VacuumCostDelay != -1 {
		t.Errorf("settings: %+v", s)
	}
	o := TableOptionsFrom(map[string]string{"autovacuum_enabled": "off", "autovacuum_vacuum_threshold": "10",
		"autovacuum_vacuum_insert_threshold": "-1", "autovacuum_vacuum_cost_delay": "20", "log_autovacuum_min_duration": "1000"})
	want := UnsetTableOptions()
	want.Enabled, want.VacuumThreshold, want.VacuumInsertThreshold = false, 10, -1
	want.VacuumCostDelay, want.LogMinDuration = 20*time.Millisecond, time.Second
	if o != want {
		t.Errorf("table options %+v, want %+v", o, want)
	}
	if o := TableOptionsFrom(nil); o != UnsetTableOptions() {
		t.Errorf("no options: %+v", o)
	}
}

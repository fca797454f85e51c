package executor

import (
	"context"
	"strconv"
	"time"

	"minipg/autovacuum"
)

// The engine is autovacuum's target: it lists its tables with their
// statistics and runs an autovacuum of one table as an ordinary VACUUM
// and/or ANALYZE (vacuumTable) that skips a locked table and gives its
// lock up to DDL.

// avTarget adapts the engine to autovacuum.Target.
type avTarget struct{ e *Engine }

// startAutovacuum starts the launcher with the server's settings (Close
// stops it before anything else).
func (e *Engine) startAutovacuum() error {
	e.av = autovacuum.Start(avTarget{e}, e.autovacuumSettings(), e.log)
	return nil
}

func (t avTarget) NewWorkerPID() int32 { return nextPID.Add(1) + 1000 }

func (t avTarget) AutovacuumTables() []autovacuum.Table {
	e := t.e
	rels := e.openRelations()
	out := make([]autovacuum.Table, 0, len(rels))
	for _, r := range rels {
		oid := r.def.OID
		out = append(out, autovacuum.Table{
			OID: oid, Name: r.def.Name, Options: tableAutovacuumOptions(r.def.Options),
			HasStats: e.stats.HasTable(oid), Stats: e.stats.Table(oid), RelTuples: e.stats.RelSize(oid).RelTuples,
		})
	}
	return out
}

func (t avTarget) AutovacuumTable(ctx context.Context, w autovacuum.Work) (autovacuum.Result, error) {
	return t.e.vacuumTable(ctx, w.OID, vacuumParams{vacuum: w.Vacuum, analyze: w.Analyze, auto: true,
		cost: w.Cost, pid: w.PID, yield: w.Yield})
}

// tableAutovacuumOptions reads a table's autovacuum storage parameters
// (validated when they were set).
func tableAutovacuumOptions(opts map[string]string) autovacuum.TableOptions {
	o := autovacuum.UnsetTableOptions()
	if v, ok := opts["autovacuum_enabled"]; ok {
		if b, ok := parseBool(v); ok {
			o.Enabled = b
		}
	}
	num := func(name string, dst *float64) {
		if v, ok := opts[name]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				*dst = f
			}
		}
	}
	num("autovacuum_vacuum_threshold", &o.VacuumThreshold)
	num("autovacuum_vacuum_scale_factor", &o.VacuumScaleFactor)
	num("autovacuum_vacuum_insert_threshold", &o.VacuumInsertThreshold)
	num("autovacuum_vacuum_insert_scale_factor", &o.VacuumInsertScaleFactor)
	num("autovacuum_analyze_threshold", &o.AnalyzeThreshold)
	num("autovacuum_analyze_scale_factor", &o.AnalyzeScaleFactor)
	var limit, delay float64 = -1, -1
	num("autovacuum_vacuum_cost_limit", &limit)
	num("autovacuum_vacuum_cost_delay", &delay)
	o.VacuumCostLimit = int(limit)
	if delay >= 0 {
		o.VacuumCostDelay = time.Duration(delay * float64(time.Millisecond))
	}
	return o
}

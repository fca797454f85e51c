package executor

import (
	"context"
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
			OID: oid, Name: r.def.Name, Options: autovacuum.TableOptionsFrom(r.def.Options),
			HasStats: e.stats.HasTable(oid), Stats: e.stats.Table(oid), RelTuples: e.stats.RelSize(oid).RelTuples,
		})
	}
	return out
}

func (t avTarget) AutovacuumTable(ctx context.Context, w autovacuum.Work) (autovacuum.Result, error) {
	wa := &workerActivity{pid: w.PID, query: autovacuumQuery(w.Vacuum, w.Analyze, w.Name), start: time.Now()}
	t.e.sessions.add(wa)
	defer t.e.sessions.remove(wa)
	return t.e.vacuumTable(ctx, w.OID, vacuumParams{vacuum: w.Vacuum, analyze: w.Analyze, auto: true,
		cost: w.Cost, pid: w.PID, yield: w.Yield})
}

package executor

import (
	"context"
	"time"

	"minipg/autovacuum"
	"minipg/reloptions"
	"minipg/storage/heap"
)

// The autovacuum and vacuum cost parameters are declared in package
// autovacuum (through reloptions); these read them.

// autovacuumSettings are the server's autovacuum settings.
func (e *Engine) autovacuumSettings() autovacuum.Settings {
	return autovacuum.SettingsFrom(reloptions.Layers(e.settings))
}

// manualVacuumCost is the cost-based delay of a VACUUM or ANALYZE
// statement: the session's vacuum_cost_* settings, or nil when
// vacuum_cost_delay is 0 (the default), as in PostgreSQL.
func (s *Session) manualVacuumCost(ctx context.Context) *heap.VacuumCost {
	src := reloptions.Layers(s.settings)
	delay := time.Duration(autovacuum.CostDelayParam.Real(src) * float64(time.Millisecond))
	if delay <= 0 {
		return nil
	}
	limit := autovacuum.CostLimitParam.Int(src)
	return &heap.VacuumCost{
		PageHit: autovacuum.CostPageHitParam.Int(src), PageMiss: autovacuum.CostPageMissParam.Int(src),
		PageDirty: autovacuum.CostPageDirtyParam.Int(src),
		Params:    func() (int, time.Duration) { return limit, delay },
		Sleep:     func(d time.Duration) error { return sleepCtx(ctx, d) },
	}
}

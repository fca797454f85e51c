package executor

import (
	"cmp"
	"maps"
	"slices"

	"minipg/catalog"
	"minipg/sql"
	"minipg/storage/buffer"
	"minipg/types"
)

// System views computed from the engine's counters. Other packages add
// theirs with sql.RegisterVirtualTable / sql.RegisterFunction; the env
// argument of their callbacks is the *Engine.

func int8Col(name string) catalog.Column {
	return catalog.Column{Name: name, TypeOID: uint32(types.Int8), Typmod: -1}
}

func textCol(name string) catalog.Column {
	return catalog.Column{Name: name, TypeOID: uint32(types.Text), Typmod: -1}
}

func init() {
	// minipg_stat_fsm: the free-space policy's decisions per table.
	sql.RegisterVirtualTable("minipg_stat_fsm", []catalog.Column{
		textCol("relname"), textCol("policy"), int8Col("target_tries"), int8Col("target_hits"),
		int8Col("fsm_answers"), int8Col("fsm_hits"), int8Col("last_block_tries"), int8Col("retries"),
		int8Col("extensions"), int8Col("blocks_extended"), int8Col("max_extend_by"), int8Col("extend_rechecks"),
		int8Col("nearby_answers"), int8Col("nearby_hits"), int8Col("far_answers"), int8Col("far_hits"),
		int8Col("fresh_pages"), int8Col("closed_pages"), int8Col("reopened_pages"), int8Col("reserved_pages"),
		{Name: "blocks_per_extension", TypeOID: uint32(types.Float8), Typmod: -1},
	}, func(env any) ([][]types.Datum, error) {
		e := env.(*Engine)
		var out [][]types.Datum
		for _, r := range e.openRelations() {
			pol := r.heap.Policy()
			st := pol.Stats()
			out = append(out, []types.Datum{r.def.Name, pol.Name(), st.TargetTries, st.TargetHits,
				st.FSMAnswers, st.FSMHits, st.LastBlockTries, st.Retries,
				st.Extensions, st.BlocksExtended, st.MaxExtendBy, st.ExtendRechecks,
				st.NearbyAnswers, st.NearbyHits, st.FarAnswers, st.FarHits,
				st.FreshPages, st.ClosedPages, st.ReopenedPages, st.ReservedPages, st.BlocksPerExtension()})
		}
		return out, nil
	})
	// minipg_stat_io: buffer pool counters per table (main and FSM forks).
	sql.RegisterVirtualTable("minipg_stat_io", []catalog.Column{
		textCol("relname"), int8Col("blocks"), int8Col("blks_read"), int8Col("blks_written"),
		int8Col("blks_dirtied"), int8Col("blks_extended"), int8Col("extensions"),
	}, func(env any) ([][]types.Datum, error) {
		e := env.(*Engine)
		var out [][]types.Datum
		for _, r := range e.openRelations() {
			n, err := r.heap.NBlocks()
			if err != nil {
				return nil, err
			}
			st := e.pool.Stats(buffer.RelFileNode(r.def.RelFileNode))
			out = append(out, []types.Datum{r.def.Name, int64(n), st.BlocksRead, st.BlocksWritten,
				st.BlocksDirtied, st.BlocksExtended, st.Extensions})
		}
		return out, nil
	})
}

// openRelations returns the open tables ordered by name.
func (e *Engine) openRelations() []*relation {
	e.mu.RLock()
	out := slices.Collect(maps.Values(e.mu.rels))
	e.mu.RUnlock()
	slices.SortFunc(out, func(a, b *relation) int { return cmp.Compare(a.def.Name, b.def.Name) })
	return out
}

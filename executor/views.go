package executor

import (
	"cmp"
	"maps"
	"slices"

	"minipg/catalog"
	"minipg/sql"
	"minipg/storage/buffer"
	"minipg/storage/fsm"
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
	// minipg_stat_fsm: the free-space policy's decisions per table, one
	// column per counter the policies declare (fsm.StatColumns).
	fsmCols := fsm.StatColumns()
	cols := []catalog.Column{textCol("relname"), textCol("policy")}
	for _, c := range fsmCols {
		if c.Float {
			cols = append(cols, catalog.Column{Name: c.Name, TypeOID: uint32(types.Float8), Typmod: -1})
		} else {
			cols = append(cols, int8Col(c.Name))
		}
	}
	sql.RegisterVirtualTable("minipg_stat_fsm", cols, func(env any) ([][]types.Datum, error) {
		e := env.(*Engine)
		var out [][]types.Datum
		for _, r := range e.openRelations() {
			pol := r.heap.Policy()
			st := pol.Stats()
			row := []types.Datum{r.def.Name, pol.Name()}
			for _, c := range fsmCols {
				row = append(row, c.Value(st))
			}
			out = append(out, row)
		}
		return out, nil
	})
	// minipg_stat_placement: where each table's new row versions landed
	// since minipg_stat_placement_mark() (heap.PlacementStats): on fresh
	// pages, on pages that existed at the mark, on pages already changed
	// since the checkpoint's redo point (no full-page image to pay); the
	// update_ columns count the versions of updates that left their page
	// (the rest are inserts).
	sql.RegisterVirtualTable("minipg_stat_placement", []catalog.Column{
		textCol("relname"), textCol("policy"), int8Col("placements"), int8Col("fresh_pages"),
		int8Col("pre_run_pages"), int8Col("logged_pages"), int8Col("update_placements"),
		int8Col("update_pre_run_pages"), int8Col("mark_blocks"),
	}, func(env any) ([][]types.Datum, error) {
		e := env.(*Engine)
		var out [][]types.Datum
		for _, r := range e.openRelations() {
			st := r.heap.PlacementStats()
			out = append(out, []types.Datum{r.def.Name, r.heap.Policy().Name(), st.Placements, st.FreshPages,
				st.PreRunPages, st.LoggedPages, st.Updates, st.UpdatesPreRun, int64(st.MarkBlocks)})
		}
		return out, nil
	})
	sql.RegisterFunction(sql.Function{
		Name:   "minipg_stat_placement_mark",
		Result: types.T{OID: types.Void, Typmod: -1},
		Fn: func(env any, _ []types.Datum) (types.Datum, error) {
			for _, r := range env.(*Engine).openRelations() {
				if err := r.heap.MarkRunStart(); err != nil {
					return nil, err
				}
			}
			return "", nil
		},
	})
	// minipg_stat_heap: each table's heap counters since the table was
	// opened (heap.Stats; server start, or the DDL that reopened it):
	// tuples written, where updates went, opportunistic prunes, and the
	// pruner's work behind updates and deletes (heap_prune_behind,
	// heap_reclaim_behind).
	sql.RegisterVirtualTable("minipg_stat_heap", []catalog.Column{
		textCol("relname"), int8Col("inserts"), int8Col("updates_same_page"), int8Col("updates_other_page"),
		int8Col("updates_hot"), int8Col("deletes"), int8Col("locks"), int8Col("pages_pruned"),
		int8Col("tuples_pruned"), int8Col("hint_pages_dirtied"), int8Col("pages_pruned_behind"),
		int8Col("prune_behind_images_avoided"), int8Col("prune_behind_dropped"), int8Col("reclaimed_behind"),
		int8Col("reclaim_refused"),
	}, func(env any) ([][]types.Datum, error) {
		e := env.(*Engine)
		var out [][]types.Datum
		for _, r := range e.openRelations() {
			st := r.heap.Stats()
			out = append(out, []types.Datum{r.def.Name, st.Inserts, st.UpdatesSamePage, st.UpdatesOtherPage,
				st.UpdatesHot, st.Deletes, st.Locks, st.PagesPruned, st.TuplesPruned, st.HintPagesDirtied,
				st.PagesPrunedBehind, st.PruneBehindImage, st.PruneBehindDropped, st.ReclaimedBehind,
				st.ReclaimRefused})
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
	// A table dropped by a transaction still running is gone for views.
	out = slices.DeleteFunc(out, func(r *relation) bool { return r.def.Dropping != nil })
	slices.SortFunc(out, func(a, b *relation) int { return cmp.Compare(a.def.Name, b.def.Name) })
	return out
}

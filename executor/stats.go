package executor

import (
	"time"

	"minipg/catalog"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/types"
)

// Table statistics: the views PostgreSQL 15 shows them in, and the hooks
// that count row changes per transaction (applied at its end by
// Session.endTx through pgstat.Collector.EndXact).

func tsCol(name string) catalog.Column {
	return catalog.Column{Name: name, TypeOID: uint32(types.Timestamp), Typmod: -1}
}

// tsDatum is a timestamp column of a statistics view (last_vacuum,
// query_start, ...): NULL when it never happened, else to the microsecond.
func tsDatum(t time.Time) types.Datum {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Truncate(time.Microsecond)
}

// statTablesColumns are pg_stat_all_tables' columns. relid is an oid and
// the last_* columns timestamptz in PostgreSQL; minipg shows them as int8
// and timestamp (UTC).
var statTablesColumns = []catalog.Column{
	int8Col("relid"), textCol("schemaname"), textCol("relname"),
	int8Col("seq_scan"), int8Col("seq_tup_read"), int8Col("idx_scan"), int8Col("idx_tup_fetch"),
	int8Col("n_tup_ins"), int8Col("n_tup_upd"), int8Col("n_tup_del"), int8Col("n_tup_hot_upd"),
	int8Col("n_live_tup"), int8Col("n_dead_tup"), int8Col("n_mod_since_analyze"), int8Col("n_ins_since_vacuum"),
	tsCol("last_vacuum"), tsCol("last_autovacuum"), tsCol("last_analyze"), tsCol("last_autoanalyze"),
	int8Col("vacuum_count"), int8Col("autovacuum_count"), int8Col("analyze_count"), int8Col("autoanalyze_count"),
}

// statTablesRows are the rows of pg_stat_all_tables (minipg has no system
// tables, so pg_stat_user_tables shows the same).
func statTablesRows(env any) ([][]types.Datum, error) {
	e := env.(*Engine)
	var out [][]types.Datum
	for _, r := range e.openRelations() {
		oid := r.def.OID
		st := e.stats.Table(oid)
		var idxScan, idxFetch types.Datum // NULL for a table without indexes, as in PostgreSQL
		if len(r.indexes) > 0 {
			idxScan, idxFetch = st.IdxScan, st.IdxTupFetch
		}
		out = append(out, []types.Datum{int64(oid), "public", r.def.Name,
			st.SeqScan, st.SeqTupRead, idxScan, idxFetch,
			st.TupIns, st.TupUpd, st.TupDel, st.TupHotUpd,
			st.LiveTup, st.DeadTup, st.ModSinceAnalyze, st.InsSinceVacuum,
			tsDatum(st.LastVacuum), tsDatum(st.LastAutovacuum), tsDatum(st.LastAnalyze), tsDatum(st.LastAutoanalyze),
			st.VacuumCount, st.AutovacuumCount, st.AnalyzeCount, st.AutoanalyzeCount})
	}
	return out, nil
}

func init() {
	sql.RegisterVirtualTable("pg_stat_all_tables", statTablesColumns, statTablesRows)
	sql.RegisterVirtualTable("pg_stat_user_tables", statTablesColumns, statTablesRows)
	sql.RegisterVirtualTable("pg_stat_progress_vacuum", []catalog.Column{
		{Name: "pid", TypeOID: uint32(types.Int4), Typmod: -1}, int8Col("datid"), textCol("datname"), int8Col("relid"),
		textCol("phase"), int8Col("heap_blks_total"), int8Col("heap_blks_scanned"), int8Col("heap_blks_vacuumed"),
		int8Col("index_vacuum_count"), int8Col("max_dead_tuples"), int8Col("num_dead_tuples"),
	}, func(env any) ([][]types.Datum, error) {
		e := env.(*Engine)
		var out [][]types.Datum
		for _, p := range e.stats.Running() {
			out = append(out, []types.Datum{int64(p.PID), int64(databaseOID), "postgres", int64(p.RelID),
				heap.VacuumPhase(p.Phase.Load()).String(), p.HeapBlksTotal.Load(), p.HeapBlksScanned.Load(),
				p.HeapBlksVacuumed.Load(), p.IndexVacuumCount.Load(), p.MaxDeadTuples.Load(), p.NumDeadTuples.Load()})
		}
		return out, nil
	})
	// minipg_relsize: what VACUUM and ANALYZE recorded (pg_class.relpages
	// and reltuples; minipg has no pg_class).
	sql.RegisterVirtualTable("minipg_relsize", []catalog.Column{
		int8Col("relid"), textCol("relname"), int8Col("relpages"),
		{Name: "reltuples", TypeOID: uint32(types.Float8), Typmod: -1},
	}, func(env any) ([][]types.Datum, error) {
		e := env.(*Engine)
		var out [][]types.Datum
		for _, r := range e.openRelations() {
			rs := e.stats.RelSize(r.def.OID)
			out = append(out, []types.Datum{int64(r.def.OID), r.def.Name, int64(rs.RelPages), rs.RelTuples})
		}
		return out, nil
	})
	// Counts are applied when a transaction ends, so there is never a
	// pending report to force out: PostgreSQL 15's function does nothing
	// here.
	sql.RegisterFunction(sql.Function{
		Name:   "pg_stat_force_next_flush",
		Result: types.TVoid,
		Fn:     func(any, []types.Datum) (types.Datum, error) { return "", nil },
	})
	sql.RegisterFunction(sql.Function{
		Name:   "pg_stat_reset",
		Result: types.TVoid,
		Fn: func(env any, _ []types.Datum) (types.Datum, error) {
			env.(*Engine).stats.Reset()
			return "", nil
		},
	})
}

// databaseOID is the one database's OID (PostgreSQL's first user
// database, "postgres", is 5).
const databaseOID = 5

// countInsert counts n rows the statement inserted into its table.
func (x *execCtx) countInsert(n int) { x.s.xstat.For(x.rel.def.OID).Inserted += int64(n) }

// countUpdate counts one row updated (hot: as a heap-only tuple).
func (x *execCtx) countUpdate(hot bool) {
	c := x.s.xstat.For(x.rel.def.OID)
	c.Updated++
	if hot {
		c.HotUpdated++
	}
}

// countDelete counts one row deleted.
func (x *execCtx) countDelete() { x.s.xstat.For(x.rel.def.OID).Deleted++ }

// countSeqScan counts a sequential scan of the statement's table started.
func (x *execCtx) countSeqScan() { x.s.e.stats.CountSeqScan(x.rel.def.OID) }

// countIdxScan counts an index scan of the statement's table started.
func (x *execCtx) countIdxScan() { x.s.e.stats.CountIdxScan(x.rel.def.OID) }

// countRead counts n rows returned by a sequential scan (seq) or fetched
// through an index; a scan adds its count once, when it is closed.
func (x *execCtx) countRead(seq bool, n int64) { x.s.e.stats.CountTuplesRead(x.rel.def.OID, seq, n) }

// endXactStats applies the transaction's row counts.
func (s *Session) endXactStats(commit bool) {
	if len(s.xstat) > 0 {
		s.e.stats.EndXact(s.xstat, commit)
	}
}

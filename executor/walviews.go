package executor

// SQL views and functions of the write-ahead log, registered with the sql
// package's registry:
//
//	pg_stat_wal                       wal_records bigint, wal_fpi bigint, wal_bytes numeric
//	                                  (PostgreSQL's names and types), plus wal_write, wal_sync
//	                                  bigint and stats_reset (NULL)
//	pg_current_wal_lsn()              pg_lsn: the current write position
//	pg_current_wal_insert_lsn()       pg_lsn: the current insert position
//	pg_current_wal_flush_lsn()        pg_lsn: the position flushed to disk
//	pg_stat_get_blocks_dirtied(text)  bigint: buffers of the table dirtied since start
//	                                  (per-relation pages dirtied; see also minipg_stat_io)
//	minipg_check(text)                boolean: heap.CheckPages on the table; an
//	                                  inconsistency is a DataCorrupted (XX001) error
//	minipg_stat_wal_rel               WAL per table or disk index and record type since start or the
//	                                  last reset: relname, relfilenode, resource_manager
//	                                  and record_type (pg_walinspect's names), wal_records,
//	                                  wal_fpi, wal_bytes (numeric) and pages_dirtied (the
//	                                  records' changes that found their page clean; a page
//	                                  dirtied by hint bits alone is in minipg_stat_io's
//	                                  blks_dirtied, in no record's row); records
//	                                  that concern no table (commits, checkpoints) have a
//	                                  NULL relname and relfilenode, those of a dropped
//	                                  table a NULL relname
//	minipg_stat_wal_rel_reset()       void: forgets minipg_stat_wal_rel's counters

import (
	"cmp"
	"slices"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"minipg/catalog"
	"minipg/sql"
	"minipg/storage/buffer"
	"minipg/storage/heap"
	"minipg/storage/wal"
	"minipg/types"
)

func init() {
	sql.RegisterVirtualTable("pg_stat_wal", []catalog.Column{
		int8Col("wal_records"), int8Col("wal_fpi"),
		{Name: "wal_bytes", TypeOID: uint32(types.Numeric), Typmod: -1},
		int8Col("wal_buffers_full"), int8Col("wal_write"), int8Col("wal_sync"),
		{Name: "stats_reset", TypeOID: uint32(types.Timestamp), Typmod: -1},
	}, func(env any) ([][]types.Datum, error) {
		st := env.(*Engine).WALStats()
		return [][]types.Datum{{st.Records, st.FPI, apd.New(st.Bytes, 0), int64(0), st.Write, st.Sync, nil}}, nil
	})
	sql.RegisterFunction(sql.Function{
		Name:   "pg_current_wal_lsn",
		Result: types.TPgLSN,
		Fn: func(env any, _ []types.Datum) (types.Datum, error) {
			return types.LSN(env.(*Engine).CurrentWALLSN()), nil
		},
	})
	// pg_walfile_name: the WAL segment file holding the byte before lsn
	// (XLByteToPrevSeg), named as minipg names its segments, PostgreSQL's
	// way.
	sql.RegisterFunction(sql.Function{
		Name:   "pg_walfile_name",
		Args:   []types.OID{types.PgLSN},
		Result: types.TText,
		Fn: func(env any, a []types.Datum) (types.Datum, error) {
			seg := env.(*Engine).walLog().SegmentSize()
			return wal.SegmentName((uint64(a[0].(types.LSN))-1)/uint64(seg), seg), nil
		},
	})
	sql.RegisterFunction(sql.Function{
		Name:   "pg_current_wal_insert_lsn",
		Result: types.TPgLSN,
		Fn: func(env any, _ []types.Datum) (types.Datum, error) {
			return types.LSN(env.(*Engine).walLog().InsertLSN()), nil
		},
	})
	sql.RegisterFunction(sql.Function{
		Name:   "pg_current_wal_flush_lsn",
		Result: types.TPgLSN,
		Fn: func(env any, _ []types.Datum) (types.Datum, error) {
			return types.LSN(env.(*Engine).walLog().FlushedLSN()), nil
		},
	})
	sql.RegisterFunction(sql.Function{
		Name:   "pg_stat_get_blocks_dirtied",
		Args:   []types.OID{types.Text},
		Result: types.T{OID: types.Int8, Typmod: -1},
		Fn: func(env any, args []types.Datum) (types.Datum, error) {
			e := env.(*Engine)
			r, err := e.relByName(strings.ToLower(args[0].(string)))
			if err != nil {
				return nil, err
			}
			return e.pool.Stats(buffer.RelFileNode(r.def.RelFileNode)).BlocksDirtied, nil
		},
	})
	sql.RegisterVirtualTable("minipg_stat_wal_rel", []catalog.Column{
		textCol("relname"), int8Col("relfilenode"), textCol("resource_manager"), textCol("record_type"),
		int8Col("wal_records"), int8Col("wal_fpi"),
		{Name: "wal_bytes", TypeOID: uint32(types.Numeric), Typmod: -1},
		int8Col("pages_dirtied"),
	}, func(env any) ([][]types.Datum, error) {
		return env.(*Engine).walRelRows(), nil
	})
	sql.RegisterFunction(sql.Function{
		Name:   "minipg_stat_wal_rel_reset",
		Result: types.T{OID: types.Void, Typmod: -1},
		Fn: func(env any, _ []types.Datum) (types.Datum, error) {
			env.(*Engine).walLog().ResetRelStats()
			return "", nil // void: a value, empty, as PostgreSQL's reset functions return
		},
	})
	sql.RegisterFunction(sql.Function{
		Name:   "minipg_check",
		Args:   []types.OID{types.Text},
		Result: types.T{OID: types.Bool, Typmod: -1},
		Fn: func(env any, args []types.Datum) (types.Datum, error) {
			r, err := env.(*Engine).relByName(strings.ToLower(args[0].(string)))
			if err != nil {
				return nil, err
			}
			if err := heap.CheckPages(r.heap); err != nil {
				return nil, err
			}
			return true, nil
		},
	})
}

// walRelRows are minipg_stat_wal_rel's rows, ordered by relation name
// (tables and indexes on disk; the records of no relation, and of
// relations no longer open, last), resource manager and record type.
func (e *Engine) walRelRows() [][]types.Datum {
	names := map[buffer.RelFileNode]string{}
	for _, r := range e.openRelations() {
		names[buffer.RelFileNode(r.def.RelFileNode)] = r.def.Name
		for _, ri := range r.indexes {
			if ri.def.OnDisk() {
				names[buffer.RelFileNode(ri.def.RelFileNode)] = ri.def.Name
			}
		}
	}
	type row struct {
		name, rmgr, kind string
		st               wal.RelStats
	}
	var rows []row
	for _, st := range e.walLog().RelStats() {
		rmgr, kind := wal.RecordTypeName(st.Rmgr, st.Info)
		rows = append(rows, row{names[st.Rel], rmgr, kind, st})
	}
	slices.SortFunc(rows, func(a, b row) int {
		if (a.name == "") != (b.name == "") {
			return cmp.Compare(b.name, a.name) // named tables first
		}
		return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.st.Rel, b.st.Rel),
			cmp.Compare(a.rmgr, b.rmgr), cmp.Compare(a.kind, b.kind))
	})
	out := make([][]types.Datum, 0, len(rows))
	for _, r := range rows {
		var name, rfn types.Datum
		if r.name != "" {
			name = r.name
		}
		if r.st.Rel != 0 {
			rfn = int64(r.st.Rel)
		}
		out = append(out, []types.Datum{name, rfn, r.rmgr, r.kind,
			r.st.Records, r.st.FPI, apd.New(r.st.Bytes, 0), r.st.PagesDirtied})
	}
	return out
}

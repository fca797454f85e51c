package executor

// SQL views and functions of the write-ahead log, registered with the sql
// package's registry:
//
//	pg_stat_wal                       wal_records bigint, wal_fpi bigint, wal_bytes numeric
//	                                  (PostgreSQL's names and types), plus wal_write, wal_sync
//	                                  bigint and stats_reset (NULL)
//	pg_current_wal_lsn()              text printed as PostgreSQL prints pg_lsn (X/X);
//	                                  minipg has no pg_lsn type
//	pg_stat_get_blocks_dirtied(text)  bigint: buffers of the table dirtied since start
//	                                  (per-relation pages dirtied; see also minipg_stat_io)
//	minipg_check(text)                boolean: heap.CheckPages on the table; an
//	                                  inconsistency is a DataCorrupted (XX001) error

import (
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
		Result: types.T{OID: types.Text, Typmod: -1},
		Fn: func(env any, _ []types.Datum) (types.Datum, error) {
			return wal.FormatLSN(env.(*Engine).CurrentWALLSN()), nil
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

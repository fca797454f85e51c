package executor

// pg_walinspect 1.0 (PostgreSQL 15's contrib module), built in and visible
// while the extension is installed (extension.go):
//
//	pg_get_wal_record_info(in_lsn pg_lsn)                   one record
//	pg_get_wal_records_info(start_lsn pg_lsn, end_lsn pg_lsn)
//	pg_get_wal_records_info_till_end_of_wal(start_lsn pg_lsn)
//	    -> start_lsn pg_lsn, end_lsn pg_lsn, prev_lsn pg_lsn, xid xid,
//	       resource_manager text, record_type text, record_length integer,
//	       main_data_length integer, fpi_length integer, description text,
//	       block_ref text
//	pg_get_wal_stats(start_lsn pg_lsn, end_lsn pg_lsn, per_record boolean DEFAULT false)
//	pg_get_wal_stats_till_end_of_wal(start_lsn pg_lsn, per_record boolean DEFAULT false)
//	    -> "resource_manager/record_type" text, count bigint,
//	       count_percentage double precision, record_size bigint,
//	       record_size_percentage double precision, fpi_size bigint,
//	       fpi_size_percentage double precision, combined_size bigint,
//	       combined_size_percentage double precision
//
// The records are those that start in [start, end), read from the segment
// files up to the flushed end of the log (wal.Reader). block_ref has
// PostgreSQL 15's detailed form ("blkref #0: rel 1663/5/16384 fork main
// blk 0 (FPW); hole: offset: 184, length: 3112"), with tablespace 1663
// and database 5 (minipg has one of each) and the table's relfilenode.
// description is empty: minipg has no rm_desc functions yet.
// TODO(walinspect): descriptions as heapdesc.c writes them.

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/buffer"
	"minipg/storage/page"
	"minipg/storage/wal"
	"minipg/types"
)

// Tablespace and database OIDs block_ref shows: pg_default and the
// postgres database's as PostgreSQL assigns them, as the records hold them.
const (
	defaultTablespaceOID = wal.DefaultTablespaceOID
	postgresDatabaseOID  = wal.DatabaseOID
)

// walRange is ValidateInputLSNs and InitXLogReaderState: it checks the
// range against the flushed end of the log and finds the first record.
func (e *Engine) walRange(start uint64, end uint64, tillEnd bool) (first, stop uint64, err error) {
	l := e.walLog()
	cur := l.FlushedLSN()
	if start > cur {
		return 0, 0, pgerr.New(pgerr.InvalidParameterValue, "cannot accept future start LSN").
			WithDetail("Last known WAL LSN on the database system is at %s.", wal.FormatLSN(cur))
	}
	if tillEnd {
		end = cur
	}
	if end > cur {
		return 0, 0, pgerr.New(pgerr.InvalidParameterValue, "cannot accept future end LSN").
			WithDetail("Last known WAL LSN on the database system is at %s.", wal.FormatLSN(cur))
	}
	if start >= end {
		return 0, 0, pgerr.New(pgerr.InvalidParameterValue, "WAL start LSN must be less than end LSN")
	}
	return e.firstRecord(start, end)
}

// firstRecord finds the first record at or after start.
func (e *Engine) firstRecord(start, end uint64) (uint64, uint64, error) {
	if start < page.BlockSize {
		return 0, 0, pgerr.New(pgerr.InvalidParameterValue, "could not read WAL at LSN %s", wal.FormatLSN(start))
	}
	first, ok, err := e.walLog().FindRecord(start)
	if err != nil {
		return 0, 0, err
	}
	if !ok {
		return 0, 0, pgerr.New(pgerr.InternalError, "could not find a valid record after %s", wal.FormatLSN(start))
	}
	return first, end, nil
}

// eachWALRecord calls fn for every record that starts in [first, stop).
func (e *Engine) eachWALRecord(first, stop uint64, fn func(*wal.DecodedRecord)) error {
	r := e.walLog().NewReader(first)
	defer r.Close()
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if rec.LSN >= stop {
			return nil
		}
		fn(rec)
	}
}

// blockRefText is XLogRecGetBlockRefInfo's detailed, not pretty form, and
// the bytes of full-page images the record holds.
func blockRefText(rec *wal.DecodedRecord) (string, int64) {
	var sb strings.Builder
	var fpi int64
	for i, b := range rec.Blocks {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fork := "main"
		if b.Fork == buffer.FSMFork {
			fork = "fsm"
		} else if b.Fork == buffer.VMFork {
			fork = "vm"
		}
		fmt.Fprintf(&sb, "blkref #%d: rel %d/%d/%d fork %s blk %d", i, defaultTablespaceOID, postgresDatabaseOID, b.Rel, fork, b.Block)
		if b.HasImage {
			fpi += int64(b.StoredLen)
			if b.Compressed {
				method := b.Method
				if method == "" {
					method = "unknown"
				}
				fmt.Fprintf(&sb, " (FPW); hole: offset: %d, length: %d, compression saved: %d, method: %s",
					b.HoleOff, b.HoleLen, page.BlockSize-b.HoleLen-b.StoredLen, method)
			} else {
				fmt.Fprintf(&sb, " (FPW); hole: offset: %d, length: %d", b.HoleOff, b.HoleLen)
			}
		}
	}
	return sb.String(), fpi
}

// walRecordRow is one row of pg_get_wal_records_info.
func walRecordRow(rec *wal.DecodedRecord) []types.Datum {
	rmgr, kind := wal.RecordTypeName(rec.Rmgr, rec.Info)
	ref, fpi := blockRefText(rec)
	return []types.Datum{types.LSN(rec.LSN), types.LSN(rec.EndLSN), types.LSN(rec.Prev), int64(rec.Xid),
		rmgr, kind, int64(rec.TotalLen), int64(len(rec.MainData)), fpi, wal.RecordDesc(rec), ref}
}

// walStatsRows is pg_get_wal_stats: per resource manager (or per record
// type with perRecord), in the order of PostgreSQL's resource manager
// table, the counts and sizes with their share of the total.
func (e *Engine) walStatsRows(first, stop uint64, perRecord bool) ([][]types.Datum, error) {
	type acc struct{ n, rec, fpi int64 }
	stats := map[string]*acc{}
	var total acc
	err := e.eachWALRecord(first, stop, func(rec *wal.DecodedRecord) {
		rmgr, kind := wal.RecordTypeName(rec.Rmgr, rec.Info)
		_, fpi := blockRefText(rec)
		key := rmgr
		if perRecord {
			key = rmgr + "/" + kind
		}
		a := stats[key]
		if a == nil {
			a = &acc{}
			stats[key] = a
		}
		a.n++
		a.rec += int64(rec.TotalLen) - fpi
		a.fpi += fpi
		total.n++
		total.rec += int64(rec.TotalLen) - fpi
		total.fpi += fpi
	})
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(stats))
	for k := range stats {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return compareRmgrKeys(a, b) })
	pct := func(x, of int64) float64 {
		if of == 0 {
			return 0
		}
		return 100 * float64(x) / float64(of)
	}
	var rows [][]types.Datum
	for _, k := range keys {
		a := stats[k]
		rows = append(rows, []types.Datum{k, a.n, pct(a.n, total.n), a.rec, pct(a.rec, total.rec),
			a.fpi, pct(a.fpi, total.fpi), a.rec + a.fpi, pct(a.rec+a.fpi, total.rec+total.fpi)})
	}
	return rows, nil
}

// rmgrOrder is PostgreSQL's resource manager list (rmgrlist.h), the order
// pg_get_wal_stats reports in.
var rmgrOrder = []string{"XLOG", "Transaction", "Storage", "CLOG", "Database", "Tablespace", "MultiXact",
	"RelMap", "Standby", "Heap2", "Heap", "Btree", "Hash", "Gin", "Gist", "Sequence", "SPGist", "BRIN",
	"CommitTs", "ReplicationOrigin", "Generic", "LogicalMessage"}

func compareRmgrKeys(a, b string) int {
	ra, _, _ := strings.Cut(a, "/")
	rb, _, _ := strings.Cut(b, "/")
	ia, ib := slices.Index(rmgrOrder, ra), slices.Index(rmgrOrder, rb)
	if ia != ib {
		if ia < 0 {
			return 1
		}
		if ib < 0 {
			return -1
		}
		return ia - ib
	}
	return strings.Compare(a, b)
}

func lsnArg(d types.Datum) uint64 { return uint64(d.(types.LSN)) }

func init() {
	const ext = "pg_walinspect"
	recCols := []sql.TableFuncCol{{Name: "start_lsn", T: types.TPgLSN}, {Name: "end_lsn", T: types.TPgLSN},
		{Name: "prev_lsn", T: types.TPgLSN}, {Name: "xid", T: types.TXid}, {Name: "resource_manager", T: types.TText},
		{Name: "record_type", T: types.TText}, {Name: "record_length", T: types.TInt4},
		{Name: "main_data_length", T: types.TInt4}, {Name: "fpi_length", T: types.TInt4},
		{Name: "description", T: types.TText}, {Name: "block_ref", T: types.TText}}
	statCols := []sql.TableFuncCol{{Name: "resource_manager/record_type", T: types.TText}, {Name: "count", T: types.TInt8},
		{Name: "count_percentage", T: types.TFloat8}, {Name: "record_size", T: types.TInt8},
		{Name: "record_size_percentage", T: types.TFloat8}, {Name: "fpi_size", T: types.TInt8},
		{Name: "fpi_size_percentage", T: types.TFloat8}, {Name: "combined_size", T: types.TInt8},
		{Name: "combined_size_percentage", T: types.TFloat8}}
	eng := func(env any) *Engine { return env.(*evalCtx).s.e }
	records := func(env any, start, end uint64, tillEnd bool) ([][]types.Datum, error) {
		e := eng(env)
		first, stop, err := e.walRange(start, end, tillEnd)
		if err != nil {
			return nil, err
		}
		var rows [][]types.Datum
		err = e.eachWALRecord(first, stop, func(rec *wal.DecodedRecord) { rows = append(rows, walRecordRow(rec)) })
		return rows, err
	}
	sql.RegisterTableFunction(sql.TableFunction{Name: "pg_get_wal_record_info", Args: oids(types.PgLSN), Strict: true,
		Extension: ext, Cols: recCols,
		Fn: func(env any, args []types.Datum) ([][]types.Datum, error) {
			e := eng(env)
			lsn := lsnArg(args[0])
			cur := e.walLog().FlushedLSN()
			if lsn >= cur {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot accept future input LSN").
					WithDetail("Last known WAL LSN on the database system is at %s.", wal.FormatLSN(cur))
			}
			first, _, err := e.firstRecord(lsn, cur)
			if err != nil {
				return nil, err
			}
			var rows [][]types.Datum
			err = e.eachWALRecord(first, cur, func(rec *wal.DecodedRecord) {
				if rows == nil {
					rows = append(rows, walRecordRow(rec))
				}
			})
			return rows, err
		}})
	sql.RegisterTableFunction(sql.TableFunction{Name: "pg_get_wal_records_info", Args: oids(types.PgLSN, types.PgLSN),
		Strict: true, Extension: ext, Cols: recCols,
		Fn: func(env any, args []types.Datum) ([][]types.Datum, error) {
			return records(env, lsnArg(args[0]), lsnArg(args[1]), false)
		}})
	sql.RegisterTableFunction(sql.TableFunction{Name: "pg_get_wal_records_info_till_end_of_wal", Args: oids(types.PgLSN),
		Strict: true, Extension: ext, Cols: recCols,
		Fn: func(env any, args []types.Datum) ([][]types.Datum, error) {
			return records(env, lsnArg(args[0]), 0, true)
		}})
	stats := func(env any, start, end uint64, tillEnd, perRecord bool) ([][]types.Datum, error) {
		e := eng(env)
		first, stop, err := e.walRange(start, end, tillEnd)
		if err != nil {
			return nil, err
		}
		return e.walStatsRows(first, stop, perRecord)
	}
	sql.RegisterTableFunction(sql.TableFunction{Name: "pg_get_wal_stats", Args: oids(types.PgLSN, types.PgLSN, types.Bool),
		Defaults: []types.Datum{false}, Strict: true, Extension: ext, Cols: statCols,
		Fn: func(env any, args []types.Datum) ([][]types.Datum, error) {
			return stats(env, lsnArg(args[0]), lsnArg(args[1]), false, args[2].(bool))
		}})
	sql.RegisterTableFunction(sql.TableFunction{Name: "pg_get_wal_stats_till_end_of_wal", Args: oids(types.PgLSN, types.Bool),
		Defaults: []types.Datum{false}, Strict: true, Extension: ext, Cols: statCols,
		Fn: func(env any, args []types.Datum) ([][]types.Datum, error) {
			return stats(env, lsnArg(args[0]), 0, true, args[1].(bool))
		}})
}

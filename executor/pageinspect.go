package executor

// pageinspect 1.11 (PostgreSQL 15's contrib module), built in and visible
// while the extension is installed (extension.go):
//
//	get_raw_page(relname text, blkno bigint) bytea
//	get_raw_page(relname text, fork text, blkno bigint) bytea   fork main or fsm
//	page_header(page bytea) -> lsn pg_lsn, checksum smallint, flags smallint,
//	    lower integer, upper integer, special integer, pagesize integer,
//	    version smallint, prune_xid xid
//	heap_page_items(page bytea) -> SETOF lp smallint, lp_off smallint,
//	    lp_flags smallint, lp_len smallint, t_xmin xid, t_xmax xid,
//	    t_field3 integer, t_ctid tid, t_infomask2 integer, t_infomask integer,
//	    t_hoff smallint, t_bits text, t_oid oid, t_data bytea
//	fsm_page_contents(page bytea) text
//
// The decoding is storage/pageinspect's. heap_page_item_attrs,
// tuple_data_split and heap_tuple_infomask_flags are in
// pageinspect_tuple.go. get_raw_page also reads the pages of an index
// kept on disk (index_storage = disk; storage/nbtree's layout), and
// bt_page_items decodes them (pageinspect_btree.go). Not built: the other
// functions that decode index pages (bt_page_stats, bt_metap and the like)
// and page_checksum (minipg does not checksum pages).

import (
	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/buffer"
	"minipg/storage/page"
	"minipg/storage/pageinspect"
	"minipg/types"
)

const maxBlockNumber = 0xFFFFFFFE // MaxBlockNumber

// relationForInspection resolves a relation named as regclass input names
// it and returns its open table; minipg's sequences and indexes have no
// pages, which is 42809 as PostgreSQL gives for relations without storage.
func (e *Engine) relationForInspection(arg, what string) (*relation, error) {
	name, ok := sql.SeqName(arg)
	if !ok {
		if name == "" {
			return nil, pgerr.New(pgerr.InvalidName, "invalid name syntax")
		}
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", arg)
	}
	if t, ok := e.cat.Table(name); ok {
		return e.rel(t.OID)
	}
	kind := ""
	if _, ok := e.cat.Sequence(name); ok {
		kind = "sequences"
	} else if _, _, ok := e.cat.IndexByName(name); ok {
		kind = "indexes"
	}
	if kind == "" {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", name)
	}
	return nil, pgerr.New(pgerr.WrongObjectType, "%s \"%s\"", what, name).
		WithDetail("This operation is not supported for %s in minipg, which keeps them outside the heap.", kind)
}

// rawPageRel resolves get_raw_page's relation: a table, or an index kept
// on disk (index_storage = disk: its main fork is nbtree's pages, which
// pageinspect reads as PostgreSQL's do, and its FSM fork, once VACUUM has
// recorded a free page, the map of its reusable pages).
func (e *Engine) rawPageRel(relname string, fork buffer.Fork) (buffer.RelFileNode, string, error) {
	if name, ok := sql.SeqName(relname); ok {
		if _, idx, ok := e.cat.IndexByName(name); ok && idx.OnDisk() && (fork == buffer.MainFork || fork == buffer.FSMFork) {
			return buffer.RelFileNode(idx.RelFileNode), name, nil
		}
	}
	r, err := e.relationForInspection(relname, "cannot get raw page from relation")
	if err != nil {
		return 0, "", err
	}
	return buffer.RelFileNode(r.def.RelFileNode), r.def.Name, nil
}

// rawPage is get_raw_page: a copy of block blk of fork of the named table.
func (e *Engine) rawPage(relname, forkName string, blk int64) ([]byte, error) {
	var fork buffer.Fork
	switch forkName {
	case "main":
		fork = buffer.MainFork
	case "fsm":
		fork = buffer.FSMFork
	case "vm":
		fork = buffer.VMFork
	case "init":
		fork = 255
	default:
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid fork name").
			WithHint("Valid fork names are \"main\", \"fsm\", \"vm\", and \"init\".")
	}
	rfn, name, err := e.rawPageRel(relname, fork)
	if err != nil {
		return nil, err
	}
	if fork == 255 || (fork != buffer.MainFork && !e.pool.Exists(rfn, fork)) {
		return nil, pgerr.New(pgerr.UndefinedFile, "could not open file \"base/%d_%s\": No such file or directory", rfn, forkName)
	}
	n, err := e.pool.NBlocks(rfn, fork)
	if err != nil {
		return nil, err
	}
	if blk >= int64(n) {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "block number %d is out of range for relation \"%s\"", blk, name)
	}
	buf, err := e.pool.ReadBuffer(rfn, fork, uint32(blk))
	if err != nil {
		return nil, err
	}
	buf.RLock()
	out := append([]byte{}, buf.Page()...)
	buf.RUnlock()
	buf.Release()
	return out, nil
}

func checkBlockNumber(blk int64) error {
	if blk < 0 || blk > maxBlockNumber {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid block number")
	}
	return nil
}

func init() {
	const ext = "pageinspect"
	sql.RegisterBuiltin(sql.Builtin{Name: "get_raw_page", Args: oids(types.Text, types.Int8), Result: types.Bytea,
		Volatility: sql.Volatile, Strict: true, Extension: ext,
		Fn: func(env any, args []types.Datum, _ *sql.Func) (types.Datum, error) {
			if err := checkBlockNumber(args[1].(int64)); err != nil {
				return nil, err
			}
			return session(env).e.rawPage(args[0].(string), "main", args[1].(int64))
		}})
	sql.RegisterBuiltin(sql.Builtin{Name: "get_raw_page", Args: oids(types.Text, types.Text, types.Int8), Result: types.Bytea,
		Volatility: sql.Volatile, Strict: true, Extension: ext,
		Fn: func(env any, args []types.Datum, _ *sql.Func) (types.Datum, error) {
			if err := checkBlockNumber(args[2].(int64)); err != nil {
				return nil, err
			}
			return session(env).e.rawPage(args[0].(string), args[1].(string), args[2].(int64))
		}})
	sql.RegisterBuiltin(sql.Builtin{Name: "fsm_page_contents", Args: oids(types.Bytea), Result: types.Text,
		Volatility: sql.Volatile, Strict: true, Extension: ext,
		Fn: func(_ any, args []types.Datum, _ *sql.Func) (types.Datum, error) {
			return pageinspect.FSMPageContents(args[0].([]byte))
		}})
	col := func(name string, t types.T) sql.TableFuncCol { return sql.TableFuncCol{Name: name, T: t} }
	sql.RegisterTableFunction(sql.TableFunction{Name: "page_header", Args: oids(types.Bytea), Strict: true, Extension: ext,
		Cols: []sql.TableFuncCol{col("lsn", types.TPgLSN), col("checksum", types.TInt2), col("flags", types.TInt2),
			col("lower", types.TInt4), col("upper", types.TInt4), col("special", types.TInt4),
			col("pagesize", types.TInt4), col("version", types.TInt2), col("prune_xid", types.TXid)},
		Fn: func(_ any, args []types.Datum) ([][]types.Datum, error) {
			h, err := pageinspect.PageHeader(args[0].([]byte))
			if err != nil {
				return nil, err
			}
			return [][]types.Datum{{types.LSN(h.LSN), int64(h.Checksum), int64(h.Flags), int64(h.Lower), int64(h.Upper),
				int64(h.Special), int64(h.PageSize), int64(h.Version), int64(h.PruneXid)}}, nil
		}})
	sql.RegisterTableFunction(sql.TableFunction{Name: "heap_page_items", Args: oids(types.Bytea), Strict: true, Extension: ext,
		Cols: []sql.TableFuncCol{col("lp", types.TInt2), col("lp_off", types.TInt2), col("lp_flags", types.TInt2),
			col("lp_len", types.TInt2), col("t_xmin", types.TXid), col("t_xmax", types.TXid), col("t_field3", types.TInt4),
			col("t_ctid", types.TTID), col("t_infomask2", types.TInt4), col("t_infomask", types.TInt4),
			col("t_hoff", types.TInt2), col("t_bits", types.TText), col("t_oid", types.TOid), col("t_data", types.TBytea)},
		Fn: func(_ any, args []types.Datum) ([][]types.Datum, error) {
			return heapPageItemRows(args[0].([]byte))
		}})
}

// heapPageItemRows is heap_page_items' rows for a page.
func heapPageItemRows(raw []byte) ([][]types.Datum, error) {
	items, err := pageinspect.HeapPageItems(raw)
	if err != nil {
		return nil, err
	}
	rows := make([][]types.Datum, 0, len(items))
	for _, it := range items {
		row := make([]types.Datum, 14)
		row[0], row[1], row[2], row[3] = int64(it.LP), int64(it.LPOff), int64(it.LPFlags), int64(it.LPLen)
		if it.Tuple {
			row[4], row[5], row[6] = int64(it.Xmin), int64(it.Xmax), int64(it.Field3)
			row[7] = page.TID{Block: it.CtidBlock, Offset: it.CtidOffset}
			row[8], row[9], row[10] = int64(it.Infomask2), int64(it.Infomask), int64(it.Hoff)
			if it.HasBits {
				row[11] = it.Bits
			}
			if it.HasOid {
				row[12] = int64(it.Oid)
			}
			if it.Data != nil {
				row[13] = it.Data
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

package executor

// pageinspect's bt_page_items for indexes kept on disk (index_storage =
// disk; storage/nbtree's pages):
//
//	bt_page_items(relname text, blkno bigint) -> SETOF itemoffset smallint,
//	    ctid tid, itemlen smallint, nulls bool, vars bool, data text,
//	    dead bool, htid tid, tids tid[]
//	bt_page_items(page bytea) -> the same, from get_raw_page's copy
//
// minipg's items are not PostgreSQL's IndexTuples: a leaf entry is the
// key's order-preserving encoding followed by the heap TID, a pivot a
// downlink and a separator (storage/nbtree's package comment). So
// itemoffset, dead and htid mean what PostgreSQL 15's mean (dead is NULL
// for pivots, true for an entry marked LP_DEAD), ctid is the heap TID of a
// leaf entry and (downlink, 0) for a pivot (a high key's downlink is
// 4294967295), itemlen the item's length, data the key's encoding in
// PostgreSQL's hex format; nulls and vars are NULL (the encoding does not
// say without the column types), tids NULL (no posting lists).

import (
	"errors"
	"fmt"
	"strings"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/nbtree"
	"minipg/storage/page"
	"minipg/types"
)

// btPageItemsRel is bt_page_items(relname, blkno): the index must be kept
// on disk.
func (e *Engine) btPageItemsRel(relname string, blk int64) ([][]types.Datum, error) {
	if name, ok := sql.SeqName(relname); ok {
		if _, idx, ok := e.cat.IndexByName(name); ok && !idx.OnDisk() {
			return nil, pgerr.New(pgerr.WrongObjectType, "index \"%s\" is kept in memory", name).
				WithDetail("bt_page_items reads the pages of indexes kept on disk (index_storage = disk).")
		} else if !ok {
			if _, ok := e.cat.Table(name); ok {
				return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a btree index", name)
			}
		}
	}
	if blk == 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "block 0 is a meta page")
	}
	raw, err := e.rawPage(relname, "main", blk)
	if err != nil {
		return nil, err
	}
	return btPageItemRows(raw)
}

// btPageItemRows is bt_page_items' rows for an index page.
func btPageItemRows(raw []byte) ([][]types.Datum, error) {
	items, err := nbtree.PageItems(raw)
	if err != nil {
		if errors.Is(err, nbtree.ErrMetaPage) {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "block is a meta page")
		}
		return nil, err
	}
	rows := make([][]types.Datum, 0, len(items))
	for _, it := range items {
		row := make([]types.Datum, 9)
		row[0], row[2], row[5] = int64(it.Offset), int64(it.Len), hexBytes(it.Key)
		if it.Pivot {
			row[1] = page.TID{Block: it.Down}
		} else {
			row[1], row[6], row[7] = it.TID, it.Dead, it.TID
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// hexBytes formats b as pageinspect's data column does: two hex digits a
// byte, separated by spaces.
func hexBytes(b []byte) string {
	var sb strings.Builder
	for i, c := range b {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%02x", c)
	}
	return sb.String()
}

func init() {
	const ext = "pageinspect"
	col := func(name string, t types.T) sql.TableFuncCol { return sql.TableFuncCol{Name: name, T: t} }
	cols := []sql.TableFuncCol{col("itemoffset", types.TInt2), col("ctid", types.TTID), col("itemlen", types.TInt2),
		col("nulls", types.TBool), col("vars", types.TBool), col("data", types.TText), col("dead", types.TBool),
		col("htid", types.TTID), col("tids", types.ArrayOf(types.TTID))}
	sql.RegisterTableFunction(sql.TableFunction{Name: "bt_page_items", Args: oids(types.Text, types.Int8), Strict: true, Extension: ext,
		Cols: cols,
		Fn: func(env any, args []types.Datum) ([][]types.Datum, error) {
			if err := checkBlockNumber(args[1].(int64)); err != nil {
				return nil, err
			}
			return session(env).e.btPageItemsRel(args[0].(string), args[1].(int64))
		}})
	sql.RegisterTableFunction(sql.TableFunction{Name: "bt_page_items", Args: oids(types.Bytea), Strict: true, Extension: ext,
		Cols: cols,
		Fn: func(_ any, args []types.Datum) ([][]types.Datum, error) {
			return btPageItemRows(args[0].([]byte))
		}})
}

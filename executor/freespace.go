package executor

// pg_freespacemap 1.2 (PostgreSQL 15's contrib module), built in and
// visible while the extension is installed (extension.go):
//
//	pg_freespace(regclass, bigint) smallint     the free space the FSM records
//	                                            for the block (category * 32),
//	                                            0 when the FSM knows nothing of
//	                                            it or the table has no FSM fork
//	pg_freespace(rel regclass) -> SETOF blkno bigint, avail smallint
//	                                            every block of the main fork
//
// Both show what PostgreSQL's do: the free space the map records for the
// block, which is what a search of the map finds, never the heap page's
// own free space (neither reads the heap). What the map records is the
// table's free-space policy's decision (storage/fsm/README.md):
//
//   - classic records what PostgreSQL records, so after the same inserts,
//     deletes and VACUUMs the output is PostgreSQL's (regress
//     freespace_classic).
//   - locality records 0 for a page it closed (the sticky rule: a page a
//     session left at or past fsm_reopen_percent, or that VACUUM found so),
//     where PostgreSQL records the few bytes the page has left: the map
//     does not advertise them, on purpose, and pg_freespace says so. A
//     page the loading session is still filling, or one of its run, is not
//     in the map yet and shows 0 too. minipg_page_state(regclass) is the
//     policy's own view of the same blocks: closed, loading, reserved,
//     reopened or open, with the map's figure beside it; pageinspect's
//     page_header gives the page's real free space (upper - lower, less
//     the 4 bytes of a new row's line pointer).
//   - locality keeps no FSM fork for tables of up to fsm_small_table_blocks
//     blocks, and append keeps none at all; such a table shows 0 for every
//     block, as PostgreSQL shows a table whose map was never written.
//
// An index kept on disk (index_storage = disk) has a map of its own, in
// which VACUUM records the deleted pages no transaction can reach any more
// and from which splits take their new pages (storage/nbtree): such a page
// shows 8160, every other page 0, as in PostgreSQL 15; an index VACUUM has
// never found a free page in has no map and shows 0 everywhere. An index
// kept in memory has no pages: pg_freespace refuses it.
//
// minipg passes regclass as the relation's name.

import (
	"minipg/sql"
	"minipg/storage/buffer"
	"minipg/storage/fsm"
	"minipg/types"
)

// freeSpaceRel is what pg_freespace reads: a relation's map and the size
// of its main fork.
type freeSpaceRel struct {
	m       *fsm.Map
	nblocks func() (uint32, error)
}

// freeSpaceRelation resolves pg_freespace's relation: a table, or an index
// kept on disk.
func (e *Engine) freeSpaceRelation(relname string) (freeSpaceRel, error) {
	if name, ok := sql.SeqName(relname); ok {
		if d, err := e.diskStoreByName(name); err != nil || d != nil {
			if err != nil {
				return freeSpaceRel{}, err
			}
			return freeSpaceRel{m: d.ix.FSM(), nblocks: func() (uint32, error) {
				return e.pool.NBlocks(d.rel, buffer.MainFork)
			}}, nil
		}
	}
	r, err := e.relationForInspection(relname, "cannot get free space of relation")
	if err != nil {
		return freeSpaceRel{}, err
	}
	return freeSpaceRel{m: r.heap.FSM(), nblocks: r.heap.NBlocks}, nil
}

// recordedFreeSpace is pg_freespace(rel, blkno).
func (e *Engine) recordedFreeSpace(r freeSpaceRel, blk uint32) int64 {
	if !e.pool.Exists(r.m.Rel(), buffer.FSMFork) {
		return 0
	}
	return int64(r.m.GetRecordedFreeSpace(blk))
}

func init() {
	const ext = "pg_freespacemap"
	sql.RegisterBuiltin(sql.Builtin{Name: "pg_freespace", Args: oids(types.Text, types.Int8), Result: types.Int2,
		Volatility: sql.Volatile, Strict: true, Extension: ext,
		Fn: func(env any, args []types.Datum, _ *sql.Func) (types.Datum, error) {
			e := session(env).e
			r, err := e.freeSpaceRelation(args[0].(string))
			if err != nil {
				return nil, err
			}
			blk := args[1].(int64)
			if err := checkBlockNumber(blk); err != nil {
				return nil, err
			}
			return e.recordedFreeSpace(r, uint32(blk)), nil
		}})
	sql.RegisterTableFunction(sql.TableFunction{Name: "pg_freespace", Args: oids(types.Text), Extension: ext,
		Cols: []sql.TableFuncCol{{Name: "blkno", T: types.TInt8}, {Name: "avail", T: types.TInt2}},
		Fn: func(env any, args []types.Datum) ([][]types.Datum, error) {
			if args[0] == nil {
				return nil, nil // generate_series over a NULL size: no rows
			}
			e := env.(*evalCtx).s.e
			r, err := e.freeSpaceRelation(args[0].(string))
			if err != nil {
				return nil, err
			}
			n, err := r.nblocks()
			if err != nil {
				return nil, err
			}
			rows := make([][]types.Datum, 0, n)
			for blk := uint32(0); blk < n; blk++ {
				rows = append(rows, []types.Datum{int64(blk), e.recordedFreeSpace(r, blk)})
			}
			return rows, nil
		}})
}

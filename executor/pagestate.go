package executor

// minipg's own view of the free-space policy, always available (no
// extension):
//
//	minipg_page_state(rel regclass) -> SETOF blkno bigint, state text,
//	    fsm_avail integer, owner integer
//
// One row per block of the table's main fork: the state the table's
// fsm_policy gives the page (fsm.PageState; storage/fsm/pagestate.go):
// open, closed, reopened, loading, reserved, small (locality); open
// (classic); append, extended (append). fsm_avail is what the FSM records
// for the block (category * 32, as pg_freespace shows it), NULL when the
// policy keeps no map for the table (append, locality's small tables);
// owner is the backend pid (pg_backend_pid()) of the loading session
// filling the block or holding it in its run, else NULL. minipg passes
// regclass as the table's name.

import (
	"minipg/sql"
	"minipg/storage/fsm"
	"minipg/types"
)

// pageStateRows are minipg_page_state's rows for r.
func (e *Engine) pageStateRows(r *relation) ([][]types.Datum, error) {
	n, err := r.heap.NBlocks()
	if err != nil {
		return nil, err
	}
	states := r.heap.Policy().PageStates(r.heap.FSM(), n)
	rows := make([][]types.Datum, len(states))
	for blk, st := range states {
		row := []types.Datum{int64(blk), st.State, nil, nil}
		if st.Avail != fsm.NoMap {
			row[2] = int64(st.Avail)
		}
		if st.Owner != 0 {
			row[3] = int64(st.Owner)
		}
		rows[blk] = row
	}
	return rows, nil
}

func init() {
	sql.RegisterTableFunction(sql.TableFunction{Name: "minipg_page_state", Args: oids(types.Text), Strict: true,
		Cols: []sql.TableFuncCol{
			{Name: "blkno", T: types.TInt8}, {Name: "state", T: types.TText},
			{Name: "fsm_avail", T: types.TInt4}, {Name: "owner", T: types.TInt4},
		},
		Fn: func(env any, args []types.Datum) ([][]types.Datum, error) {
			e := env.(*evalCtx).s.e
			r, err := e.relationForInspection(args[0].(string), "cannot get page states of relation")
			if err != nil {
				return nil, err
			}
			return e.pageStateRows(r)
		}})
}

package executor

// pgstattuple 1.5, built in as the other contrib modules are
// (extension.go): pgstattuple(regclass | text), the tuple-level
// statistics of a table (storage/heap/tuplestats.go counts them as
// pgstat_heap does), and pg_relpages(regclass | text), its size in
// blocks. Percentages are rounded to two decimals, as pgstattuple prints
// them into its result.

import (
	"strconv"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/page"
	"minipg/types"
)

// pgstattupleCols are pgstattuple's OUT parameters.
var pgstattupleCols = []sql.TableFuncCol{
	{Name: "table_len", T: types.TInt8}, {Name: "tuple_count", T: types.TInt8}, {Name: "tuple_len", T: types.TInt8},
	{Name: "tuple_percent", T: types.TFloat8}, {Name: "dead_tuple_count", T: types.TInt8},
	{Name: "dead_tuple_len", T: types.TInt8}, {Name: "dead_tuple_percent", T: types.TFloat8},
	{Name: "free_space", T: types.TInt8}, {Name: "free_percent", T: types.TFloat8},
}

func init() {
	const ext = "pgstattuple"
	for _, arg := range []types.OID{types.RegClass, types.Text} {
		sql.RegisterTableFunction(sql.TableFunction{Name: "pgstattuple", Args: oids(arg), Extension: ext,
			Cols: pgstattupleCols,
			Fn: func(env any, args []types.Datum) ([][]types.Datum, error) {
				if args[0] == nil {
					// A strict function returning one record: a NULL
					// record, which FROM reads as a row of NULLs.
					return [][]types.Datum{make([]types.Datum, len(pgstattupleCols))}, nil
				}
				s := env.(*evalCtx).s
				r, err := s.e.statRelation(args[0])
				if err != nil {
					return nil, err
				}
				st, err := r.heap.TupleStats(s.ownXids(), s.e.txns, &s.bufUsage)
				if err != nil {
					return nil, err
				}
				size := int64(st.Blocks) * page.BlockSize
				percent := func(n int64) float64 {
					if size == 0 {
						return 0
					}
					v, _ := strconv.ParseFloat(strconv.FormatFloat(100*float64(n)/float64(size), 'f', 2, 64), 64)
					return v
				}
				return [][]types.Datum{{size, st.Live, st.LiveLen, percent(st.LiveLen), st.Dead, st.DeadLen,
					percent(st.DeadLen), st.Free, percent(st.Free)}}, nil
			}})
		sql.RegisterBuiltin(sql.Builtin{Name: "pg_relpages", Args: oids(arg), Result: types.Int8, Volatility: sql.Volatile,
			Strict: true, Extension: ext,
			Fn: func(env any, args []types.Datum, _ *sql.Func) (types.Datum, error) {
				r, err := session(env).e.statRelation(args[0])
				if err != nil {
					return nil, err
				}
				n, err := r.heap.NBlocks()
				return int64(n), err
			}})
	}
}

// statRelation resolves pgstattuple's argument, a regclass or a name, to a
// table; other relations are refused.
func (e *Engine) statRelation(arg types.Datum) (*relation, error) {
	const what = "cannot get tuple-level statistics for relation"
	if name, ok := arg.(string); ok {
		return e.relationForInspection(name, what)
	}
	oid, _ := types.OIDValue(arg)
	if r, err := e.rel(oid); err == nil {
		return r, nil
	}
	if reg, ok := arg.(types.RegName); ok {
		return e.relationForInspection(reg.Name, what)
	}
	return nil, pgerr.New(pgerr.UndefinedTable, "relation with OID %d does not exist", oid)
}

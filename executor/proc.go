package executor

import (
	"strings"
	"sync"

	"minipg/catalog"
	"minipg/sql"
	"minipg/types"
)

// pg_proc: the functions and aggregates minipg has (sql.Procs), all in
// pg_catalog, as psql's \df and \dfS read them, with the functions those
// queries call: pg_get_function_result, pg_get_function_arguments,
// pg_get_function_identity_arguments and pg_function_is_visible; then the
// functions written in SQL (function.go), in public, which \df lists. An extension's functions are listed
// once it is created. OIDs are numbered from procOIDBase in the order
// sql.Procs gives, which is fixed once the server has started.

const (
	procOIDBase  = 1 << 20
	langInternal = 12 // pg_language: internal
	langSQL      = 14 // pg_language: sql
)

var procTable struct {
	once  sync.Once
	procs []sql.Proc
}

// procs returns the registered signatures, read once (the registries are
// complete when the first query runs).
func procs() []sql.Proc {
	procTable.once.Do(func() { procTable.procs = sql.Procs() })
	return procTable.procs
}

// procByOID returns the signature with a pg_proc OID.
func procByOID(oid uint32) (sql.Proc, bool) {
	ps := procs()
	if oid < procOIDBase || int(oid-procOIDBase) >= len(ps) {
		return sql.Proc{}, false
	}
	return ps[oid-procOIDBase], true
}

// procTypeName is format_type of an argument or result type, pseudo-types
// included.
func procTypeName(oid types.OID) string {
	switch oid {
	case sql.AnyOID:
		return `"any"`
	case sql.AnyElementOID:
		return "anyelement"
	case sql.AnyArrayOID:
		return "anyarray"
	case 2249:
		return "record"
	case types.Bpchar:
		return "character" // format_type_be: no typmod, so not "bpchar"
	}
	return formatType(uint32(oid), -1)
}

// procArguments is pg_get_function_arguments: the types, VARIADIC before
// a repeating last one.
func procArguments(p sql.Proc) string {
	names := make([]string, len(p.Args))
	for i, a := range p.Args {
		names[i] = procTypeName(a)
	}
	if p.Variadic && len(names) > 0 {
		last := len(names) - 1
		if p.Args[last] == sql.AnyOID {
			names[last] = `VARIADIC "any"`
		} else {
			names[last] = "VARIADIC " + names[last] + "[]"
		}
	}
	return strings.Join(names, ", ")
}

// procResult is pg_get_function_result.
func procResult(p sql.Proc) string {
	if p.RetSet {
		return "SETOF " + procTypeName(p.Result)
	}
	return procTypeName(p.Result)
}

func (e *Engine) pgProcRows() [][]types.Datum {
	var out [][]types.Datum
	for i, p := range procs() {
		if p.Extension != "" && !e.cat.HasExtension(p.Extension) {
			continue
		}
		kind, rows := "f", float64(0)
		if p.Aggregate {
			kind = "a"
		}
		if p.RetSet {
			rows = 1000
		}
		var variadic int64
		if p.Variadic && len(p.Args) > 0 {
			variadic = int64(p.Args[len(p.Args)-1])
		}
		args := &types.Array{Dims: []int{len(p.Args)}, Lbounds: []int{1}}
		for _, a := range p.Args {
			args.Elems = append(args.Elems, int64(a))
		}
		if len(p.Args) == 0 {
			args = &types.Array{}
		}
		out = append(out, []types.Datum{int64(procOIDBase + i), p.Name, int64(oidPgCatalog), int64(oidSuperuser),
			int64(langInternal), float64(1), rows, variadic, kind, false, false, p.Strict, p.RetSet,
			string(p.Volatility), "s", int64(len(p.Args)), int64(0), int64(p.Result), args, p.Name, nil})
	}
	return append(out, e.userProcRows()...)
}

func init() {
	// fn answers for a built-in function, user for a SQL function.
	reg := func(name string, res types.T, fn func(p sql.Proc) types.Datum, user func(f *catalog.Function) types.Datum) {
		sql.RegisterFunction(sql.Function{Name: name, Args: []types.OID{types.Oid}, Result: res,
			Fn: func(env any, a []types.Datum) (types.Datum, error) {
				v, _ := types.OIDValue(a[0])
				if p, ok := procByOID(v); ok {
					return fn(p), nil
				}
				if e, ok := env.(*Engine); ok && user != nil {
					if f, ok := e.cat.FunctionByOID(v); ok {
						return user(f), nil
					}
				}
				return nil, nil
			}})
	}
	reg("pg_get_function_result", types.TText, func(p sql.Proc) types.Datum { return procResult(p) },
		func(f *catalog.Function) types.Datum { return userProcResult(f) })
	reg("pg_get_function_arguments", types.TText, func(p sql.Proc) types.Datum { return procArguments(p) },
		func(f *catalog.Function) types.Datum { return userProcArguments(f) })
	reg("pg_get_function_identity_arguments", types.TText, func(p sql.Proc) types.Datum { return procArguments(p) },
		func(f *catalog.Function) types.Datum { return userIdentityArguments(f) })
	reg("pg_function_is_visible", types.TBool, func(sql.Proc) types.Datum { return true },
		func(*catalog.Function) types.Datum { return true })
	// Only SQL-standard function bodies have one; minipg's have none.
	reg("pg_get_function_sqlbody", types.TText, func(sql.Proc) types.Datum { return nil },
		func(f *catalog.Function) types.Datum {
			if !f.Return {
				return nil
			}
			return "RETURN " + strings.TrimPrefix(f.Body, "SELECT ")
		})
}

package executor

import (
	"time"

	"minipg/sql"
	"minipg/types"
)

// The built-in functions are registered with package sql, one family per
// file, each overload once with PostgreSQL's signature, volatility and
// strictness (pg_proc.dat): func_math.go (section 9.3 of PostgreSQL's
// documentation), func_string.go (9.4), func_datetime.go (9.9). sql
// chooses the overload; callBuiltin runs it.

// callBuiltin evaluates a call of a registered built-in function: a strict
// one gives NULL on a NULL argument without running.
func (c *evalCtx) callBuiltin(f *sql.Func, row []types.Datum) (types.Datum, error) {
	args := make([]types.Datum, len(f.Args))
	for i, a := range f.Args {
		v, err := c.eval(a, row)
		if err != nil {
			return nil, err
		}
		if v == nil && f.Builtin.Strict {
			return nil, nil
		}
		args[i] = v
	}
	return f.Builtin.Fn(c, args, f)
}

// session is the session a built-in function runs in (env is the
// *evalCtx callBuiltin passes).
func session(env any) *Session { return env.(*evalCtx).s }

// convOf is the session's output settings for a builtin's env (TimeZone,
// IntervalStyle, bytea_output, extra_float_digits), with which functions
// that turn values into text (concat, format, quote_literal, ...) write
// them as PostgreSQL's output functions do.
func convOf(env any) types.Conv {
	if c, ok := env.(*evalCtx); ok {
		return c.conv()
	}
	return types.Conv{Loc: time.UTC}
}

// builtin registers one overload.
func builtin(name string, args []types.OID, result types.OID, vol sql.Volatility, fn sql.BuiltinFn) {
	sql.RegisterBuiltin(sql.Builtin{Name: name, Args: args, Result: result, Volatility: vol, Strict: true, Fn: fn})
}

// oids is a parameter list.
func oids(ts ...types.OID) []types.OID { return ts }

func init() {
	// pg_typeof names its argument's type (PostgreSQL returns regtype,
	// which prints as this name).
	sql.RegisterBuiltin(sql.Builtin{Name: "pg_typeof", Args: oids(sql.AnyOID), Result: types.Text, Volatility: sql.Stable,
		KeepUnknown: true,
		Fn: func(_ any, _ []types.Datum, f *sql.Func) (types.Datum, error) {
			t := f.Args[0].Type()
			if t.OID == types.Bpchar {
				return "character", nil
			}
			return types.T{OID: t.OID, Typmod: -1}.Name(), nil
		}})
}

package sql

import (
	"cmp"
	"slices"

	"minipg/types"
)

// Proc is one callable signature, as pg_proc lists it: the functions
// registered with RegisterBuiltin, RegisterFunction and
// RegisterTableFunction, and the aggregates.
type Proc struct {
	Name       string
	Args       []types.OID
	Variadic   bool // the last argument repeats
	Result     types.OID
	RetSet     bool // a table function (returns a set of rows)
	Aggregate  bool
	Strict     bool
	Volatility Volatility
	Extension  string // the extension that provides it ("": always there)
}

// recordOID is the pseudo-type record, a table function's result.
const recordOID types.OID = 2249

// Procs returns every registered signature, by name and then argument
// types.
func Procs() []Proc {
	var out []Proc
	builtins.RLock()
	for _, fs := range builtins.byName {
		for _, f := range fs {
			out = append(out, Proc{Name: f.Name, Args: f.Args, Variadic: f.Variadic, Result: f.Result,
				Strict: f.Strict, Volatility: f.Volatility, Extension: f.Extension})
		}
	}
	builtins.RUnlock()
	registry.RLock()
	for _, f := range registry.funcs {
		// A call may leave out the arguments after MinArgs: one signature
		// per count, as PostgreSQL declares such functions.
		first := len(f.Args)
		if f.MinArgs > 0 {
			first = f.MinArgs
		}
		for n := first; n <= len(f.Args); n++ {
			out = append(out, Proc{Name: f.Name, Args: f.Args[:n:n], Result: f.Result.OID, Strict: !f.NonStrict, Volatility: Volatile})
		}
	}
	registry.RUnlock()
	tableFuncs.RLock()
	for _, fs := range tableFuncs.byName {
		for _, f := range fs {
			out = append(out, Proc{Name: f.Name, Args: f.Args, Result: recordOID, RetSet: true, Strict: f.Strict,
				Volatility: Volatile, Extension: f.Extension})
		}
	}
	tableFuncs.RUnlock()
	out = append(out, boundByName...)
	for name := range aggNames {
		n := 1
		if a, ok := aggArity[name]; ok {
			n = a
		}
		args := make([]types.OID, n)
		for i := range args {
			args[i] = AnyOID
		}
		res := AnyOID
		switch name {
		case "count":
			res = types.Int8
			out = append(out, Proc{Name: name, Result: res, Aggregate: true, Volatility: Immutable})
		case "bool_and", "bool_or", "every":
			args[0], res = types.Bool, types.Bool
		case "string_agg":
			args[0], args[1], res = types.Text, types.Text, types.Text
		case "array_agg":
			args[0], res = AnyElementOID, AnyArrayOID
		case "json_agg":
			args[0], res = AnyElementOID, types.JSON
		case "jsonb_agg":
			args[0], res = AnyElementOID, types.JSONB
		case "json_object_agg":
			res = types.JSON
		case "jsonb_object_agg":
			res = types.JSONB
		case "min", "max":
			args[0], res = AnyElementOID, AnyElementOID
		}
		out = append(out, Proc{Name: name, Args: args, Result: res, Aggregate: true, Volatility: Immutable})
	}
	slices.SortFunc(out, func(a, b Proc) int {
		if c := cmp.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return slices.Compare(a.Args, b.Args)
	})
	return out
}

// boundByName are the functions the binder resolves by name (call.bind in
// bind_func.go) rather than through a registry, with PostgreSQL's
// signatures.
var boundByName = func() []Proc {
	f := func(name string, res types.OID, retset bool, vol Volatility, args ...types.OID) Proc {
		return Proc{Name: name, Args: args, Result: res, RetSet: retset, Strict: true, Volatility: vol}
	}
	i4, i8, num, text := types.Int4, types.Int8, types.Numeric, types.Text
	ts, tstz, iv, reg := types.Timestamp, types.TimestampTZ, types.Interval, types.RegClass
	return []Proc{
		f("generate_series", i4, true, Immutable, i4, i4), f("generate_series", i4, true, Immutable, i4, i4, i4),
		f("generate_series", i8, true, Immutable, i8, i8), f("generate_series", i8, true, Immutable, i8, i8, i8),
		f("generate_series", num, true, Immutable, num, num), f("generate_series", num, true, Immutable, num, num, num),
		f("generate_series", ts, true, Immutable, ts, ts, iv), f("generate_series", tstz, true, Stable, tstz, tstz, iv),
		f("unnest", AnyElementOID, true, Immutable, AnyArrayOID),
		f("regexp_matches", types.ArrayOID(text), true, Immutable, text, text),
		f("regexp_matches", types.ArrayOID(text), true, Immutable, text, text, text),
		f("regexp_split_to_table", text, true, Immutable, text, text),
		f("regexp_split_to_table", text, true, Immutable, text, text, text),
		f("string_to_table", text, true, Immutable, text, text), f("string_to_table", text, true, Immutable, text, text, text),
		f("json_array_elements", types.JSON, true, Immutable, types.JSON),
		f("jsonb_array_elements", types.JSONB, true, Immutable, types.JSONB),
		f("json_array_elements_text", text, true, Immutable, types.JSON),
		f("jsonb_array_elements_text", text, true, Immutable, types.JSONB),
		f("json_object_keys", text, true, Immutable, types.JSON), f("jsonb_object_keys", text, true, Immutable, types.JSONB),
		f("version", text, false, Stable), f("current_database", types.Name, false, Stable),
		f("current_user", types.Name, false, Stable), f("session_user", types.Name, false, Stable),
		f("current_schema", types.Name, false, Stable), f("pg_backend_pid", i4, false, Stable),
		f("nextval", i8, false, Volatile, reg), f("currval", i8, false, Volatile, reg), f("lastval", i8, false, Volatile),
		f("setval", i8, false, Volatile, reg, i8), f("setval", i8, false, Volatile, reg, i8, types.Bool),
	}
}()

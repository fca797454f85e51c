package executor

import (
	"strings"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// Array functions (section 9.19 of PostgreSQL's documentation) and the
// set-returning unnest.

func init() {
	arr, elem := sql.AnyArrayOID, sql.AnyElementOID
	builtin("array_length", oids(arr, types.Int4), types.Int4, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		x, d := a[0].(*types.Array), a[1].(int64)
		if d < 1 || d > int64(len(x.Dims)) {
			return nil, nil
		}
		return int64(x.Dims[d-1]), nil
	})
	bound := func(upper bool) sql.BuiltinFn {
		return func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			x, d := a[0].(*types.Array), a[1].(int64)
			if d < 1 || d > int64(len(x.Dims)) {
				return nil, nil
			}
			if upper {
				return int64(x.Lbounds[d-1] + x.Dims[d-1] - 1), nil
			}
			return int64(x.Lbounds[d-1]), nil
		}
	}
	builtin("array_lower", oids(arr, types.Int4), types.Int4, sql.Immutable, bound(false))
	builtin("array_upper", oids(arr, types.Int4), types.Int4, sql.Immutable, bound(true))
	builtin("array_ndims", oids(arr), types.Int4, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		x := a[0].(*types.Array)
		if len(x.Dims) == 0 {
			return nil, nil
		}
		return int64(len(x.Dims)), nil
	})
	builtin("array_dims", oids(arr), types.Text, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		x := a[0].(*types.Array)
		if len(x.Dims) == 0 {
			return nil, nil
		}
		return types.FormatArrayDims(x), nil
	})
	builtin("cardinality", oids(arr), types.Int4, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return int64(len(a[0].(*types.Array).Elems)), nil
	})
	builtin("array_to_string", oids(arr, types.Text), types.Text, sql.Stable, arrayToString)
	sql.RegisterBuiltin(sql.Builtin{Name: "array_to_string", Args: oids(arr, types.Text, types.Text), Result: types.Text,
		Volatility: sql.Stable, Fn: arrayToString})
	sql.RegisterBuiltin(sql.Builtin{Name: "string_to_array", Args: oids(types.Text, types.Text), Result: types.ArrayOID(types.Text),
		Volatility: sql.Immutable, Fn: stringToArray})
	sql.RegisterBuiltin(sql.Builtin{Name: "string_to_array", Args: oids(types.Text, types.Text, types.Text), Result: types.ArrayOID(types.Text),
		Volatility: sql.Immutable, Fn: stringToArray})
	sql.RegisterBuiltin(sql.Builtin{Name: "array_position", Args: oids(arr, elem), Result: types.Int4,
		Volatility: sql.Immutable, Fn: arrayPosition})
	sql.RegisterBuiltin(sql.Builtin{Name: "array_position", Args: oids(arr, elem, types.Int4), Result: types.Int4,
		Volatility: sql.Immutable, Fn: arrayPosition})
	sql.RegisterBuiltin(sql.Builtin{Name: "array_append", Args: oids(arr, elem), Result: arr,
		Volatility: sql.Immutable, Fn: func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			return arrayAdd(a[0], a[1], false)
		}})
	sql.RegisterBuiltin(sql.Builtin{Name: "array_prepend", Args: oids(elem, arr), Result: arr,
		Volatility: sql.Immutable, Fn: func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			return arrayAdd(a[1], a[0], true)
		}})
}

// arrayToString is array_to_string: NULL elements are skipped, or written
// as the third argument when it is given and not NULL.
func arrayToString(env any, a []types.Datum, f *sql.Func) (types.Datum, error) {
	if a[0] == nil || a[1] == nil {
		return nil, nil
	}
	x, delim := a[0].(*types.Array), a[1].(string)
	var null *string
	if len(a) > 2 && a[2] != nil {
		s := a[2].(string)
		null = &s
	}
	et := types.ElemType(f.Args[0].Type())
	var b strings.Builder
	first := true
	for _, e := range x.Elems {
		if e == nil && null == nil {
			continue
		}
		if !first {
			b.WriteString(delim)
		}
		first = false
		if e == nil {
			b.WriteString(*null)
		} else {
			b.WriteString(asTextConv(et, e, convOf(env)))
		}
	}
	return b.String(), nil
}

// stringToArray is string_to_array: a NULL delimiter splits into
// characters, an empty one gives the whole string; fields equal to the
// third argument become NULL.
func stringToArray(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
	if a[0] == nil {
		return nil, nil
	}
	s := a[0].(string)
	if s == "" {
		return &types.Array{}, nil
	}
	var fields []string
	switch {
	case a[1] == nil:
		for _, r := range s {
			fields = append(fields, string(r))
		}
	case a[1].(string) == "":
		fields = []string{s}
	default:
		fields = strings.Split(s, a[1].(string))
	}
	elems := make([]types.Datum, len(fields))
	for i, f := range fields {
		if len(a) > 2 && a[2] != nil && f == a[2].(string) {
			continue
		}
		elems[i] = f
	}
	return types.NewArray(elems), nil
}

// arrayPosition is array_position: the subscript of the first element
// not distinct from the value (from the optional start on), or NULL.
func arrayPosition(_ any, a []types.Datum, f *sql.Func) (types.Datum, error) {
	if a[0] == nil {
		return nil, nil
	}
	x := a[0].(*types.Array)
	if len(x.Dims) > 1 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "searching for elements in multidimensional arrays is not supported")
	}
	if len(x.Dims) == 0 {
		return nil, nil
	}
	lb := x.Lbounds[0]
	start := 0
	if len(a) > 2 {
		if a[2] == nil {
			return nil, pgerr.New(pgerr.NullValueNotAllowed, "initial position must not be null")
		}
		start = int(a[2].(int64)) - lb
		start = max(start, 0)
	}
	et := types.ElemType(f.Args[0].Type())
	for i := start; i < len(x.Elems); i++ {
		e := x.Elems[i]
		if (e == nil && a[1] == nil) || (e != nil && a[1] != nil && types.Compare(et, e, a[1]) == 0) {
			return int64(i + lb), nil
		}
	}
	return nil, nil
}

// arrayAdd is array_append / array_prepend of one-dimensional arrays (a
// NULL array is an empty one).
func arrayAdd(arr, v types.Datum, front bool) (types.Datum, error) {
	var x *types.Array
	if arr != nil {
		x = arr.(*types.Array)
	} else {
		x = &types.Array{}
	}
	if len(x.Dims) > 1 {
		return nil, pgerr.New(pgerr.DataException, "argument must be empty or one-dimensional array")
	}
	elems := make([]types.Datum, 0, len(x.Elems)+1)
	if front {
		elems = append(append(elems, v), x.Elems...)
	} else {
		elems = append(append(elems, x.Elems...), v)
	}
	out := types.NewArray(elems)
	if len(x.Dims) == 1 {
		out.Lbounds[0] = x.Lbounds[0]
	}
	return out, nil
}

// startOtherSeq starts the set-returning functions other than
// generate_series; ok is false for generate_series.
func startOtherSeq(f *sql.SRFCall, args []types.Datum) (seq, bool, error) {
	if f.Name == "unnest" {
		return &arraySeq{elems: args[0].(*types.Array).Elems}, true, nil
	}
	if s, ok, err := startRegexpSeq(f, args); ok {
		return s, true, err
	}
	if s, ok, err := startJSONSeq(f, args); ok {
		return s, true, err
	}
	return nil, false, nil
}

// arraySeq hands out the elements of an array, in storage order.
type arraySeq struct {
	elems []types.Datum
	i     int
}

func (s *arraySeq) next() (types.Datum, bool, error) {
	if s.i >= len(s.elems) {
		return nil, false, nil
	}
	s.i++
	return s.elems[s.i-1], true, nil
}

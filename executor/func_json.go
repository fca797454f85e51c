package executor

import (
	"math"
	"strconv"
	"strings"
	"time"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// JSON functions and operators (section 9.16 of PostgreSQL's
// documentation): the json and jsonb processing functions, their
// operators, the constructors (to_json, json_build_object, json_object,
// row_to_json, ...) and jsonb's editing functions (jsonb_set,
// jsonb_insert, ||, -, #-). The set-returning ones are in
// func_json_srf.go, the aggregates in agg.go. jsonpath is not
// implemented.

var (
	tJSON, tJSONB = types.JSON, types.JSONB
	tTextArr      = types.ArrayOID(types.Text)
)

func init() {
	for _, fam := range []struct {
		t      types.OID
		prefix string
	}{{tJSON, "json"}, {tJSONB, "jsonb"}} {
		t, p := fam.t, fam.prefix
		tt := types.T{OID: t, Typmod: -1}
		field := func(asText bool) sql.BuiltinFn {
			return func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
				v, err := jsonInput(tt, a[0])
				if err != nil {
					return nil, err
				}
				r := v.Get(a[1].(string))
				if r == nil {
					return nil, nil
				}
				if asText {
					return jsonText(tt, r), nil
				}
				return jsonOut(tt, r), nil
			}
		}
		elem := func(asText bool) sql.BuiltinFn {
			return func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
				v, err := jsonInput(tt, a[0])
				if err != nil {
					return nil, err
				}
				r := arrayElem(v, a[1].(int64))
				if tt.OID == tJSONB && v.IsScalar() && (a[1].(int64) == 0 || a[1].(int64) == -1) {
					// jsonb keeps a scalar as a one-element array.
					r = v
				}
				if r == nil {
					return nil, nil
				}
				if asText {
					return jsonText(tt, r), nil
				}
				return jsonOut(tt, r), nil
			}
		}
		path := func(asText bool) sql.BuiltinFn {
			return func(_ any, a []types.Datum, f *sql.Func) (types.Datum, error) {
				v, err := jsonInput(tt, a[0])
				if err != nil {
					return nil, err
				}
				var keys []types.Datum
				if f.VariadicArray || len(a) == 2 && isTextArray(f, 1) {
					keys = a[1].(*types.Array).Elems
				} else {
					keys = a[1:]
				}
				r := extractPath(v, keys)
				if r == nil {
					return nil, nil
				}
				if asText {
					return jsonText(tt, r), nil
				}
				return jsonOut(tt, r), nil
			}
		}
		reg := func(name string, args []types.OID, res types.OID, fn sql.BuiltinFn) *sql.Builtin {
			b := sql.Builtin{Name: name, Args: args, Result: res, Volatility: sql.Immutable, Strict: true, Fn: fn}
			sql.RegisterBuiltin(b)
			return &b
		}
		op := func(o string, b *sql.Builtin) { sql.RegisterOperator(o, *b) }
		op("->", reg(p+"_object_field", oids(t, types.Text), t, field(false)))
		op("->>", reg(p+"_object_field_text", oids(t, types.Text), types.Text, field(true)))
		op("->", reg(p+"_array_element", oids(t, types.Int4), t, elem(false)))
		op("->>", reg(p+"_array_element_text", oids(t, types.Int4), types.Text, elem(true)))
		sql.RegisterBuiltin(sql.Builtin{Name: p + "_extract_path", Args: oids(t, types.Text), Variadic: true, Result: t,
			Volatility: sql.Immutable, Strict: true, Fn: path(false)})
		sql.RegisterBuiltin(sql.Builtin{Name: p + "_extract_path_text", Args: oids(t, types.Text), Variadic: true, Result: types.Text,
			Volatility: sql.Immutable, Strict: true, Fn: path(true)})
		sql.RegisterOperator("#>", sql.Builtin{Name: p + "_extract_path", Args: oids(t, tTextArr), Result: t,
			Volatility: sql.Immutable, Strict: true, Fn: path(false)})
		sql.RegisterOperator("#>>", sql.Builtin{Name: p + "_extract_path_text", Args: oids(t, tTextArr), Result: types.Text,
			Volatility: sql.Immutable, Strict: true, Fn: path(true)})
		reg(p+"_typeof", oids(t), types.Text, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			v, err := jsonInput(tt, a[0])
			if err != nil {
				return nil, err
			}
			return v.KindName(), nil
		})
		reg(p+"_array_length", oids(t), types.Int4, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			v, err := jsonInput(tt, a[0])
			if err != nil {
				return nil, err
			}
			switch {
			case v.IsScalar():
				return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot get array length of a scalar")
			case v.Kind == types.JsonObject:
				return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot get array length of a non-array")
			}
			return int64(len(v.Elems)), nil
		})
		reg(p+"_strip_nulls", oids(t), t, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			v, err := jsonInput(tt, a[0])
			if err != nil {
				return nil, err
			}
			if t == tJSONB {
				return stripNulls(v), nil
			}
			return string(appendCompactJSON(nil, v, true)), nil
		})
		toJSON := func(env any, a []types.Datum, f *sql.Func) (types.Datum, error) {
			at := f.Args[0].Type()
			if t == tJSON {
				return string(appendJSONDatum(nil, at, a[0], convOf(env), false)), nil
			}
			return jsonbDatum(at, a[0], convOf(env))
		}
		reg("to_"+p, oids(sql.AnyElementOID), t, toJSON)
		sql.RegisterBuiltin(sql.Builtin{Name: p + "_build_object", Args: oids(sql.AnyOID), Variadic: true, Result: t,
			Volatility: sql.Stable, Fn: buildObject(t)})
		sql.RegisterBuiltin(sql.Builtin{Name: p + "_build_object", Result: t, Volatility: sql.Stable, Fn: buildObject(t)})
		sql.RegisterBuiltin(sql.Builtin{Name: p + "_build_array", Args: oids(sql.AnyOID), Variadic: true, Result: t,
			Volatility: sql.Stable, Fn: buildArray(t)})
		sql.RegisterBuiltin(sql.Builtin{Name: p + "_build_array", Result: t, Volatility: sql.Stable, Fn: buildArray(t)})
		reg(p+"_object", oids(tTextArr), t, jsonObject(t))
		reg(p+"_object", oids(tTextArr, tTextArr), t, jsonObject(t))
	}
	builtin("array_to_json", oids(sql.AnyArrayOID), tJSON, sql.Stable, arrayToJSON)
	builtin("array_to_json", oids(sql.AnyArrayOID, types.Bool), tJSON, sql.Stable, arrayToJSON)
	builtin("jsonb_pretty", oids(tJSONB), types.Text, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return string(types.AppendJsonbPretty(nil, a[0].(*types.JsonValue), 0)), nil
	})
	builtin("jsonb_set", oids(tJSONB, tTextArr, tJSONB), tJSONB, sql.Immutable, jsonbSet)
	builtin("jsonb_set", oids(tJSONB, tTextArr, tJSONB, types.Bool), tJSONB, sql.Immutable, jsonbSet)
	for _, args := range [][]types.OID{oids(tJSONB, tTextArr, tJSONB), oids(tJSONB, tTextArr, tJSONB, types.Bool),
		oids(tJSONB, tTextArr, tJSONB, types.Bool, types.Text)} {
		sql.RegisterBuiltin(sql.Builtin{Name: "jsonb_set_lax", Args: args, Result: tJSONB, Volatility: sql.Immutable, Fn: jsonbSetLax})
	}
	builtin("jsonb_insert", oids(tJSONB, tTextArr, tJSONB), tJSONB, sql.Immutable, jsonbInsert)
	builtin("jsonb_insert", oids(tJSONB, tTextArr, tJSONB, types.Bool), tJSONB, sql.Immutable, jsonbInsert)

	jb := func(name, o string, args []types.OID, res types.OID, fn sql.BuiltinFn) {
		b := sql.Builtin{Name: name, Args: args, Result: res, Volatility: sql.Immutable, Strict: true, Fn: fn}
		sql.RegisterBuiltin(b)
		sql.RegisterOperator(o, b)
	}
	jb("jsonb_concat", "||", oids(tJSONB, tJSONB), tJSONB, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return jsonbConcat(a[0].(*types.JsonValue), a[1].(*types.JsonValue)), nil
	})
	jb("jsonb_delete", "-", oids(tJSONB, types.Text), tJSONB, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return jsonbDeleteKeys(a[0].(*types.JsonValue), []types.Datum{a[1]})
	})
	jb("jsonb_delete", "-", oids(tJSONB, tTextArr), tJSONB, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return jsonbDeleteKeys(a[0].(*types.JsonValue), a[1].(*types.Array).Elems)
	})
	jb("jsonb_delete", "-", oids(tJSONB, types.Int4), tJSONB, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return jsonbDeleteIndex(a[0].(*types.JsonValue), a[1].(int64))
	})
	jb("jsonb_delete_path", "#-", oids(tJSONB, tTextArr), tJSONB, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		v := a[0].(*types.JsonValue)
		if v.IsScalar() {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot delete path in scalar")
		}
		return setPath(v, a[1].(*types.Array).Elems, nil, pathDelete)
	})
	jb("jsonb_contains", "@>", oids(tJSONB, tJSONB), types.Bool, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return jsonbContains(a[0].(*types.JsonValue), a[1].(*types.JsonValue)), nil
	})
	jb("jsonb_contained", "<@", oids(tJSONB, tJSONB), types.Bool, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return jsonbContains(a[1].(*types.JsonValue), a[0].(*types.JsonValue)), nil
	})
	jb("jsonb_exists", "?", oids(tJSONB, types.Text), types.Bool, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return jsonbExists(a[0].(*types.JsonValue), a[1].(string)), nil
	})
	exists := func(all bool) sql.BuiltinFn {
		return func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			v := a[0].(*types.JsonValue)
			for _, k := range a[1].(*types.Array).Elems {
				if k == nil {
					continue
				}
				if jsonbExists(v, k.(string)) != all {
					return !all, nil
				}
			}
			return all, nil
		}
	}
	jb("jsonb_exists_any", "?|", oids(tJSONB, tTextArr), types.Bool, exists(false))
	jb("jsonb_exists_all", "?&", oids(tJSONB, tTextArr), types.Bool, exists(true))

	sql.RegisterRecordFunction("row_to_json", sql.Builtin{Name: "row_to_json", Args: oids(sql.RecordOID), Result: tJSON,
		Volatility: sql.Stable, Fn: rowToJSON})
	sql.RegisterRecordFunction("to_jsonb", sql.Builtin{Name: "to_jsonb", Args: oids(sql.RecordOID), Result: tJSONB,
		Volatility: sql.Stable, Fn: rowToJsonb})
}

func isTextArray(f *sql.Func, i int) bool { return f.Args[i].Type().OID == tTextArr }

// arrayElem is -> with an integer: the i-th element (from the end when
// negative), nil when out of range or v is no array.
func arrayElem(v *types.JsonValue, i int64) *types.JsonValue {
	if v.Kind != types.JsonArray {
		return nil
	}
	if i < 0 {
		i += int64(len(v.Elems))
	}
	if i < 0 || i >= int64(len(v.Elems)) {
		return nil
	}
	return v.Elems[i]
}

// extractPath is #> (json_extract_path): object keys and array indexes
// (negative from the end) in turn; nil when a step finds nothing or a
// path element is NULL.
func extractPath(v *types.JsonValue, path []types.Datum) *types.JsonValue {
	for _, k := range path {
		if k == nil {
			return nil
		}
		s := k.(string)
		switch v.Kind {
		case types.JsonObject:
			v = v.Get(s)
		case types.JsonArray:
			i, err := strconv.ParseInt(strings.TrimLeft(s, " \t\n\r\f\v"), 10, 32)
			if err != nil {
				return nil
			}
			v = arrayElem(v, i)
		default:
			return nil
		}
		if v == nil {
			return nil
		}
	}
	return v
}

func stripNulls(v *types.JsonValue) *types.JsonValue {
	switch v.Kind {
	case types.JsonObject:
		out := &types.JsonValue{Kind: types.JsonObject, Pairs: []types.JsonPair{}}
		for _, p := range v.Pairs {
			if p.Value.Kind != types.JsonNull {
				out.Pairs = append(out.Pairs, types.JsonPair{Key: p.Key, Value: stripNulls(p.Value)})
			}
		}
		return out
	case types.JsonArray:
		out := &types.JsonValue{Kind: types.JsonArray, Elems: make([]*types.JsonValue, len(v.Elems))}
		for i, e := range v.Elems {
			out.Elems[i] = stripNulls(e)
		}
		return out
	}
	return v
}

func buildObject(t types.OID) sql.BuiltinFn {
	return func(env any, a []types.Datum, f *sql.Func) (types.Datum, error) {
		args, ts, ok := variadicArgs(a, f)
		if !ok {
			return nil, nil // VARIADIC NULL
		}
		if len(args)%2 != 0 {
			name := "json_build_object"
			if t == tJSONB {
				name = "jsonb_build_object"
			}
			return nil, pgerr.New(pgerr.InvalidParameterValue, "argument list must have even number of elements").
				WithHint("The arguments of %s() must consist of alternating keys and values.", name)
		}
		cv := convOf(env)
		if t == tJSONB {
			var pairs []types.JsonPair
			for i := 0; i < len(args); i += 2 {
				if args[i] == nil {
					return nil, pgerr.New(pgerr.InvalidParameterValue, "argument %d: key must not be null", i+1)
				}
				k, err := jsonKeyText(ts[i], args[i], cv, i+1)
				if err != nil {
					return nil, err
				}
				v, err := jsonbDatum(ts[i+1], args[i+1], cv)
				if err != nil {
					return nil, err
				}
				pairs = append(pairs, types.JsonPair{Key: k, Value: v})
			}
			if pairs == nil {
				pairs = []types.JsonPair{}
			}
			return types.NewJsonObject(pairs), nil
		}
		buf := []byte{'{'}
		for i := 0; i < len(args); i += 2 {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			k, err := jsonKeyText(ts[i], args[i], cv, i+1)
			if err != nil {
				return nil, err
			}
			buf = types.AppendJSONString(buf, k)
			buf = append(buf, " : "...)
			buf = appendJSONDatum(buf, ts[i+1], args[i+1], cv, false)
		}
		return string(append(buf, '}')), nil
	}
}

func buildArray(t types.OID) sql.BuiltinFn {
	return func(env any, a []types.Datum, f *sql.Func) (types.Datum, error) {
		args, ts, ok := variadicArgs(a, f)
		if !ok {
			return nil, nil // VARIADIC NULL
		}
		cv := convOf(env)
		if t == tJSONB {
			out := &types.JsonValue{Kind: types.JsonArray, Elems: []*types.JsonValue{}}
			for i, x := range args {
				v, err := jsonbDatum(ts[i], x, cv)
				if err != nil {
					return nil, err
				}
				out.Elems = append(out.Elems, v)
			}
			return out, nil
		}
		buf := []byte{'['}
		for i, x := range args {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = appendJSONDatum(buf, ts[i], x, cv, false)
		}
		return string(append(buf, ']')), nil
	}
}

func errArraySubscript(msg string) error { return pgerr.New(pgerr.Code("2202E"), "%s", msg) }

// jsonObject is json_object(text[]) (keys and values alternating, or
// pairs in a two-column array) and json_object(keys, values).
func jsonObject(t types.OID) sql.BuiltinFn {
	return func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		var keys, vals []types.Datum
		if len(a) == 2 {
			k, v := a[0].(*types.Array), a[1].(*types.Array)
			if len(k.Dims) > 1 || len(v.Dims) > 1 {
				return nil, errArraySubscript("wrong number of array subscripts")
			}
			if len(k.Elems) != len(v.Elems) {
				return nil, errArraySubscript("mismatched array dimensions")
			}
			keys, vals = k.Elems, v.Elems
		} else {
			arr := a[0].(*types.Array)
			switch len(arr.Dims) {
			case 0:
			case 1:
				if len(arr.Elems)%2 != 0 {
					return nil, errArraySubscript("array must have even number of elements")
				}
			case 2:
				if arr.Dims[1] != 2 {
					return nil, errArraySubscript("array must have two columns")
				}
			default:
				return nil, errArraySubscript("wrong number of array subscripts")
			}
			for i := 0; i+1 < len(arr.Elems); i += 2 {
				keys, vals = append(keys, arr.Elems[i]), append(vals, arr.Elems[i+1])
			}
		}
		for _, k := range keys {
			if k == nil {
				return nil, pgerr.New(pgerr.NullValueNotAllowed, "null value not allowed for object key")
			}
		}
		if t == tJSONB {
			pairs := []types.JsonPair{}
			for i, k := range keys {
				v := &types.JsonValue{Kind: types.JsonNull}
				if vals[i] != nil {
					v = &types.JsonValue{Kind: types.JsonString, Str: vals[i].(string)}
				}
				pairs = append(pairs, types.JsonPair{Key: k.(string), Value: v})
			}
			return types.NewJsonObject(pairs), nil
		}
		buf := []byte{'{'}
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = types.AppendJSONString(buf, k.(string))
			buf = append(buf, " : "...)
			if vals[i] == nil {
				buf = append(buf, "null"...)
			} else {
				buf = types.AppendJSONString(buf, vals[i].(string))
			}
		}
		return string(append(buf, '}')), nil
	}
}

func arrayToJSON(env any, a []types.Datum, f *sql.Func) (types.Datum, error) {
	pretty := len(a) == 2 && a[1].(bool)
	return string(appendJSONArray(nil, types.ElemType(f.Args[0].Type()), a[0].(*types.Array), convOf(env), pretty)), nil
}

// rowToJSON is row_to_json: a[0] holds the field names, the fields
// follow (and row_to_json's pretty flag, when given).
func rowToJSON(env any, a []types.Datum, f *sql.Func) (types.Datum, error) {
	names := a[0].(*types.Array).Elems
	pretty := false
	if len(a) > len(names)+1 {
		pretty, _ = a[len(a)-1].(bool)
	}
	cv := convOf(env)
	buf := []byte{'{'}
	for i, n := range names {
		if i > 0 {
			buf = append(buf, ',')
			if pretty {
				buf = append(buf, "\n "...)
			}
		}
		buf = types.AppendJSONString(buf, n.(string))
		buf = append(buf, ':')
		buf = appendJSONDatum(buf, f.Args[i+1].Type(), a[i+1], cv, false)
	}
	return string(append(buf, '}')), nil
}

func rowToJsonb(env any, a []types.Datum, f *sql.Func) (types.Datum, error) {
	names := a[0].(*types.Array).Elems
	cv := convOf(env)
	pairs := []types.JsonPair{}
	for i, n := range names {
		v, err := jsonbDatum(f.Args[i+1].Type(), a[i+1], cv)
		if err != nil {
			return nil, err
		}
		pairs = append(pairs, types.JsonPair{Key: n.(string), Value: v})
	}
	return types.NewJsonObject(pairs), nil
}

// jsonbConcat is ||: two objects merge (the right one's keys win), else
// both sides as arrays (a scalar one element, an object one element)
// concatenate.
func jsonbConcat(a, b *types.JsonValue) *types.JsonValue {
	if a.Kind == types.JsonObject && b.Kind == types.JsonObject {
		pairs := append(append([]types.JsonPair{}, a.Pairs...), b.Pairs...)
		return types.NewJsonObject(pairs)
	}
	elems := func(v *types.JsonValue) []*types.JsonValue {
		if v.Kind == types.JsonArray {
			return v.Elems
		}
		return []*types.JsonValue{v}
	}
	out := append(append([]*types.JsonValue{}, elems(a)...), elems(b)...)
	return &types.JsonValue{Kind: types.JsonArray, Elems: out}
}

func jsonbDeleteKeys(v *types.JsonValue, keys []types.Datum) (types.Datum, error) {
	if v.IsScalar() {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot delete from scalar")
	}
	del := map[string]bool{}
	for _, k := range keys {
		if k != nil {
			del[k.(string)] = true
		}
	}
	if v.Kind == types.JsonObject {
		out := &types.JsonValue{Kind: types.JsonObject, Pairs: []types.JsonPair{}}
		for _, p := range v.Pairs {
			if !del[p.Key] {
				out.Pairs = append(out.Pairs, p)
			}
		}
		return out, nil
	}
	out := &types.JsonValue{Kind: types.JsonArray, Elems: []*types.JsonValue{}}
	for _, e := range v.Elems {
		if e.Kind == types.JsonString && del[e.Str] {
			continue
		}
		out.Elems = append(out.Elems, e)
	}
	return out, nil
}

func jsonbDeleteIndex(v *types.JsonValue, i int64) (types.Datum, error) {
	switch {
	case v.IsScalar():
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot delete from scalar")
	case v.Kind == types.JsonObject:
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot delete from object using integer index")
	}
	n := int64(len(v.Elems))
	if i < 0 {
		if -i > n {
			return v, nil
		}
		i += n
	}
	if i >= n {
		return v, nil
	}
	out := &types.JsonValue{Kind: types.JsonArray, Elems: []*types.JsonValue{}}
	out.Elems = append(append(out.Elems, v.Elems[:i]...), v.Elems[i+1:]...)
	return out, nil
}

// jsonbExists is ?: a key of an object, or a string element of an array
// (or the string a scalar is).
func jsonbExists(v *types.JsonValue, key string) bool {
	switch v.Kind {
	case types.JsonObject:
		return v.Get(key) != nil
	case types.JsonArray:
		for _, e := range v.Elems {
			if e.Kind == types.JsonString && e.Str == key {
				return true
			}
		}
		return false
	}
	return v.Kind == types.JsonString && v.Str == key
}

// jsonbContains is @> (JsonbDeepContains): every pair of an object on
// the right is in the left one, with a value that contains it; every
// element of an array on the right is among the left's elements (a
// container element contained in one of the left's of its kind). A
// top-level scalar is a one-element array that only a scalar contains
// as a whole.
func jsonbContains(a, b *types.JsonValue) bool {
	if a.IsScalar() && b.IsScalar() {
		return types.CompareJsonb(a, b) == 0
	}
	if a.IsScalar() && !b.IsScalar() {
		return false
	}
	if b.IsScalar() {
		if a.Kind != types.JsonArray {
			return false
		}
		return deepContains(a, &types.JsonValue{Kind: types.JsonArray, Elems: []*types.JsonValue{b}})
	}
	return deepContains(a, b)
}

func deepContains(a, b *types.JsonValue) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case types.JsonObject:
		if len(b.Pairs) > len(a.Pairs) {
			return false
		}
		for _, p := range b.Pairs {
			lv := a.Get(p.Key)
			if lv == nil || lv.IsScalar() != p.Value.IsScalar() {
				return false
			}
			if lv.IsScalar() {
				if lv.Kind != p.Value.Kind || types.CompareJsonb(lv, p.Value) != 0 {
					return false
				}
			} else if !deepContains(lv, p.Value) {
				return false
			}
		}
		return true
	case types.JsonArray:
		for _, e := range b.Elems {
			found := false
			for _, x := range a.Elems {
				if e.IsScalar() {
					found = x.Kind == e.Kind && types.CompareJsonb(x, e) == 0
				} else {
					found = x.Kind == e.Kind && deepContains(x, e)
				}
				if found {
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	return types.CompareJsonb(a, b) == 0
}

// The operations of setPath (jsonfuncs.c).
type pathOp uint8

const (
	pathReplace pathOp = iota
	pathCreate
	pathInsertBefore
	pathInsertAfter
	pathDelete
)

func (o pathOp) createOrInsert() bool {
	return o == pathCreate || o == pathInsertBefore || o == pathInsertAfter
}

func jsonbSet(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
	v := a[0].(*types.JsonValue)
	op := pathCreate
	if len(a) == 4 && !a[3].(bool) {
		op = pathReplace
	}
	if v.IsScalar() {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot set path in scalar")
	}
	return setPath(v, a[1].(*types.Array).Elems, a[2].(*types.JsonValue), op)
}

// jsonbSetLax is jsonb_set_lax: jsonb_set, and for a NULL replacement
// what null_value_treatment says.
func jsonbSetLax(env any, a []types.Datum, f *sql.Func) (types.Datum, error) {
	if a[0] == nil || a[1] == nil {
		return nil, nil
	}
	treatment := types.Datum("use_json_null")
	if len(a) == 5 {
		treatment = a[4]
	}
	bad := pgerr.New(pgerr.InvalidParameterValue, `null_value_treatment must be "delete_key", "return_target", "use_json_null", or "raise_exception"`)
	if treatment == nil {
		return nil, bad
	}
	set := func(nv *types.JsonValue) (types.Datum, error) {
		args := []types.Datum{a[0], a[1], nv}
		if len(a) >= 4 {
			if a[3] == nil {
				return nil, nil
			}
			args = append(args, a[3])
		}
		return jsonbSet(env, args, f)
	}
	if a[2] != nil {
		return set(a[2].(*types.JsonValue))
	}
	switch treatment.(string) {
	case "raise_exception":
		return nil, pgerr.New(pgerr.NullValueNotAllowed, "JSON value must not be null").
			WithDetail(`Exception was raised because null_value_treatment is "raise_exception".`).
			WithHint("To avoid, either change the null_value_treatment argument or ensure that an SQL NULL is not passed.")
	case "use_json_null":
		return set(&types.JsonValue{Kind: types.JsonNull})
	case "delete_key":
		v := a[0].(*types.JsonValue)
		if v.IsScalar() {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot delete path in scalar")
		}
		return setPath(v, a[1].(*types.Array).Elems, nil, pathDelete)
	case "return_target":
		return a[0], nil
	}
	return nil, bad
}

func jsonbInsert(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
	v := a[0].(*types.JsonValue)
	op := pathInsertBefore
	if len(a) == 4 && a[3].(bool) {
		op = pathInsertAfter
	}
	if v.IsScalar() {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot set path in scalar")
	}
	return setPath(v, a[1].(*types.Array).Elems, a[2].(*types.JsonValue), op)
}

// setPath is jsonb_set, jsonb_insert and #- over a container: the value
// at path replaced, inserted, created or deleted as op says.
func setPath(v *types.JsonValue, path []types.Datum, nv *types.JsonValue, op pathOp) (types.Datum, error) {
	if len(path) == 0 || (v.Kind == types.JsonObject && len(v.Pairs) == 0 && op == pathDelete) ||
		(v.Kind == types.JsonArray && len(v.Elems) == 0 && op == pathDelete) {
		return v, nil
	}
	return setPathLevel(v, path, 0, nv, op)
}

func setPathLevel(v *types.JsonValue, path []types.Datum, level int, nv *types.JsonValue, op pathOp) (*types.JsonValue, error) {
	if path[level] == nil {
		return nil, pgerr.New(pgerr.NullValueNotAllowed, "path element at position %d is null", level+1)
	}
	switch v.Kind {
	case types.JsonObject:
		return setPathObject(v, path, level, nv, op)
	case types.JsonArray:
		return setPathArray(v, path, level, nv, op)
	}
	return v, nil
}

func setPathObject(v *types.JsonValue, path []types.Datum, level int, nv *types.JsonValue, op pathOp) (*types.JsonValue, error) {
	last := level == len(path)-1
	key := path[level].(string)
	pairs := make([]types.JsonPair, 0, len(v.Pairs)+1)
	found := false
	for _, p := range v.Pairs {
		if p.Key != key {
			pairs = append(pairs, p)
			continue
		}
		found = true
		if last {
			if op == pathInsertBefore || op == pathInsertAfter {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot replace existing key").
					WithHint("Try using the function jsonb_set to replace key value.")
			}
			if op != pathDelete {
				pairs = append(pairs, types.JsonPair{Key: key, Value: nv})
			}
			continue
		}
		x, err := setPathLevel(p.Value, path, level+1, nv, op)
		if err != nil {
			return nil, err
		}
		pairs = append(pairs, types.JsonPair{Key: key, Value: x})
	}
	if !found && last && op.createOrInsert() {
		pairs = append(pairs, types.JsonPair{Key: key, Value: nv})
		return types.NewJsonObject(pairs), nil
	}
	return &types.JsonValue{Kind: types.JsonObject, Pairs: pairs}, nil
}

func setPathArray(v *types.JsonValue, path []types.Datum, level int, nv *types.JsonValue, op pathOp) (*types.JsonValue, error) {
	n := len(v.Elems)
	s := path[level].(string)
	i, err := strconv.ParseInt(strings.TrimLeft(s, " \t\n\r\f\v"), 10, 32)
	if err != nil {
		return nil, pgerr.New(pgerr.InvalidTextRepresentation, "path element at position %d is not an integer: \"%s\"", level+1, s)
	}
	idx := int(i)
	if idx < 0 {
		if -idx > n {
			idx = math.MinInt32
		} else {
			idx += n
		}
	}
	if idx > 0 && idx > n {
		idx = n
	}
	last := level == len(path)-1
	out := make([]*types.JsonValue, 0, n+1)
	done := false
	if (idx == math.MinInt32 || n == 0) && last && op.createOrInsert() {
		out = append(out, nv)
		done = true
	}
	for i, e := range v.Elems {
		if i != idx {
			out = append(out, e)
			continue
		}
		done = true
		if !last {
			x, err := setPathLevel(e, path, level+1, nv, op)
			if err != nil {
				return nil, err
			}
			out = append(out, x)
			continue
		}
		if op == pathInsertBefore || op == pathCreate {
			out = append(out, nv)
		}
		if op == pathInsertAfter || op == pathInsertBefore {
			out = append(out, e)
		}
		if op == pathInsertAfter || op == pathReplace {
			out = append(out, nv)
		}
	}
	if op.createOrInsert() && !done && last {
		out = append(out, nv)
	}
	return &types.JsonValue{Kind: types.JsonArray, Elems: out}, nil
}

// jsonAggResult is the result of json_agg, jsonb_agg, json_object_agg and
// jsonb_object_agg over the group's inputs (values, or keys and values
// alternating), written as PostgreSQL's transition functions write them:
// json_agg separates arrays and rows by a line break, json_object_agg
// writes { "k" : v, ... }.
func jsonAggResult(a *sql.Agg, elems []types.Datum, conv *types.Conv) (types.Datum, error) {
	cv := types.Conv{Loc: time.UTC}
	if conv != nil {
		cv = *conv
	}
	at := a.Arg.Type()
	switch a.Name {
	case "json_agg":
		structured := types.IsArray(at.OID) || sql.IsRowJSON(a.Arg)
		buf := []byte{'['}
		for i, v := range elems {
			if i > 0 {
				buf = append(buf, ", "...)
				if structured && v != nil {
					buf = append(buf, "\n "...)
				}
			}
			buf = appendJSONDatum(buf, at, v, cv, false)
		}
		return string(append(buf, ']')), nil
	case "jsonb_agg":
		out := &types.JsonValue{Kind: types.JsonArray, Elems: make([]*types.JsonValue, 0, len(elems))}
		for _, v := range elems {
			x, err := jsonbDatum(at, v, cv)
			if err != nil {
				return nil, err
			}
			out.Elems = append(out.Elems, x)
		}
		return out, nil
	}
	vt := a.Extra[0].Type()
	if a.Name == "jsonb_object_agg" {
		pairs := make([]types.JsonPair, 0, len(elems)/2)
		for i := 0; i < len(elems); i += 2 {
			v, err := jsonbDatum(vt, elems[i+1], cv)
			if err != nil {
				return nil, err
			}
			pairs = append(pairs, types.JsonPair{Key: jsonAggKey(at, elems[i], cv), Value: v})
		}
		return types.NewJsonObject(pairs), nil
	}
	buf := []byte("{ ")
	for i := 0; i < len(elems); i += 2 {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = types.AppendJSONString(buf, jsonAggKey(at, elems[i], cv))
		buf = append(buf, " : "...)
		buf = appendJSONDatum(buf, vt, elems[i+1], cv, false)
	}
	return string(append(buf, " }"...)), nil
}

// jsonAggKey is an object aggregate's key as text.
func jsonAggKey(t types.T, d types.Datum, cv types.Conv) string { return jsonKeyString(t, d, cv) }

package executor

import (
	"strings"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/types"
)

// Values of any type as JSON: PostgreSQL's datum_to_json (json.c) and
// datum_to_jsonb (jsonb.c). Booleans and numbers are JSON's own (a number
// whose text is no JSON number, NaN or Infinity, becomes a string), dates
// and timestamps are strings in ISO 8601 with a T (XSD form), arrays are
// JSON arrays dimension by dimension, json and jsonb values are inserted
// as they are, and every other value is its text as a JSON string.

// isJSONNumber reports whether s is a number as JSON's grammar has it.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() bool {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > j
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(s)
}

func isNumericType(oid types.OID) bool {
	switch oid {
	case types.Int2, types.Int4, types.Int8, types.Float4, types.Float8, types.Numeric, types.Oid:
		return true
	}
	return false
}

// jsonDateText is a date, timestamp or timestamptz in the XSD form
// json uses: the ISO text with a T between date and time, and a time zone
// offset as +HH:MM.
func jsonDateText(t types.T, d types.Datum, cv types.Conv) string {
	s := string(types.AppendTextConv(nil, t, d, cv))
	if t.OID == types.Date || strings.Contains(s, "infinity") {
		return s
	}
	s = strings.Replace(s, " ", "T", 1)
	if t.OID == types.TimestampTZ {
		// The offset follows the seconds: +HH, +HH:MM or +HH:MM:SS.
		k := strings.LastIndexAny(s, "+-")
		if k > 10 && len(s)-k == 3 {
			s += ":00"
		}
	}
	return s
}

// appendJSONDatum is datum_to_json: d of type t appended as json text.
// A key (keyScalar) is always a JSON string.
func appendJSONDatum(buf []byte, t types.T, d types.Datum, cv types.Conv, keyScalar bool) []byte {
	if d == nil {
		return append(buf, "null"...)
	}
	switch {
	case t.OID == types.Bool && !keyScalar:
		if d.(bool) {
			return append(buf, "true"...)
		}
		return append(buf, "false"...)
	case isNumericType(t.OID):
		s := string(types.AppendTextConv(nil, t, d, cv))
		if !keyScalar && isJSONNumber(s) {
			return append(buf, s...)
		}
		return types.AppendJSONString(buf, s)
	case t.OID == types.Date || t.OID == types.Timestamp || t.OID == types.TimestampTZ:
		return types.AppendJSONString(buf, jsonDateText(t, d, cv))
	case t.OID == types.JSON && !keyScalar:
		return append(buf, d.(string)...)
	case t.OID == types.JSONB && !keyScalar:
		return types.AppendJsonb(buf, d.(*types.JsonValue))
	case types.IsArray(t.OID) && !keyScalar:
		return appendJSONArray(buf, types.ElemType(t), d.(*types.Array), cv, false)
	}
	return types.AppendJSONString(buf, string(types.AppendTextConv(nil, t, d, cv)))
}

// appendJSONArray is array_to_json: nested JSON arrays by dimension;
// pretty puts a line break between the elements of the first dimension.
func appendJSONArray(buf []byte, et types.T, a *types.Array, cv types.Conv, pretty bool) []byte {
	if len(a.Dims) == 0 {
		return append(buf, "[]"...)
	}
	i := 0
	var dim func(buf []byte, k int, pretty bool) []byte
	dim = func(buf []byte, k int, pretty bool) []byte {
		sep := ","
		if pretty {
			sep = ",\n "
		}
		buf = append(buf, '[')
		for n := 0; n < a.Dims[k]; n++ {
			if n > 0 {
				buf = append(buf, sep...)
			}
			if k == len(a.Dims)-1 {
				buf = appendJSONDatum(buf, et, a.Elems[i], cv, false)
				i++
			} else {
				buf = dim(buf, k+1, false)
			}
		}
		return append(buf, ']')
	}
	return dim(buf, 0, pretty)
}

// jsonbDatum is datum_to_jsonb: d of type t as a jsonb value.
func jsonbDatum(t types.T, d types.Datum, cv types.Conv) (*types.JsonValue, error) {
	if d == nil {
		return &types.JsonValue{Kind: types.JsonNull}, nil
	}
	switch {
	case t.OID == types.Bool:
		return &types.JsonValue{Kind: types.JsonBool, Bool: d.(bool)}, nil
	case isNumericType(t.OID):
		if n, ok := d.(*apd.Decimal); ok && n.Form == apd.Finite {
			return &types.JsonValue{Kind: types.JsonNumber, Num: n}, nil
		}
		s := string(types.AppendTextConv(nil, t, d, cv))
		if isJSONNumber(s) {
			v, err := types.ParseJSONB(s)
			if err != nil {
				return nil, err
			}
			return v, nil
		}
		return &types.JsonValue{Kind: types.JsonString, Str: s}, nil
	case t.OID == types.Date || t.OID == types.Timestamp || t.OID == types.TimestampTZ:
		return &types.JsonValue{Kind: types.JsonString, Str: jsonDateText(t, d, cv)}, nil
	case t.OID == types.JSON:
		return types.ParseJSONB(d.(string))
	case t.OID == types.JSONB:
		return d.(*types.JsonValue), nil
	case types.IsArray(t.OID):
		return jsonbArray(types.ElemType(t), d.(*types.Array), cv)
	}
	return &types.JsonValue{Kind: types.JsonString, Str: string(types.AppendTextConv(nil, t, d, cv))}, nil
}

func jsonbArray(et types.T, a *types.Array, cv types.Conv) (*types.JsonValue, error) {
	if len(a.Dims) == 0 {
		return &types.JsonValue{Kind: types.JsonArray, Elems: []*types.JsonValue{}}, nil
	}
	i := 0
	var dim func(k int) (*types.JsonValue, error)
	dim = func(k int) (*types.JsonValue, error) {
		out := &types.JsonValue{Kind: types.JsonArray, Elems: make([]*types.JsonValue, 0, a.Dims[k])}
		for n := 0; n < a.Dims[k]; n++ {
			var e *types.JsonValue
			var err error
			if k == len(a.Dims)-1 {
				e, err = jsonbDatum(et, a.Elems[i], cv)
				i++
			} else {
				e, err = dim(k + 1)
			}
			if err != nil {
				return nil, err
			}
			out.Elems = append(out.Elems, e)
		}
		return out, nil
	}
	return dim(0)
}

// jsonKeyText is an object key's text from a value of type t: NULL and
// arrays, rows and JSON values are refused as PostgreSQL refuses them.
func jsonKeyText(t types.T, d types.Datum, cv types.Conv, argNo int) (string, error) {
	if d == nil {
		return "", pgerr.New(pgerr.InvalidParameterValue, "argument %d cannot be null", argNo).WithHint("Object keys should be text.")
	}
	if types.IsArray(t.OID) || t.OID == types.JSON || t.OID == types.JSONB {
		return "", pgerr.New(pgerr.InvalidParameterValue, "key value must be scalar, not array, composite, or json")
	}
	return jsonKeyString(t, d, cv), nil
}

// jsonKeyString is a non-NULL key's text: booleans are true and false,
// dates and timestamps in their JSON form, the rest their text.
func jsonKeyString(t types.T, d types.Datum, cv types.Conv) string {
	switch t.OID {
	case types.Date, types.Timestamp, types.TimestampTZ:
		return jsonDateText(t, d, cv)
	case types.Bool:
		if d.(bool) {
			return "true"
		}
		return "false"
	}
	return string(types.AppendTextConv(nil, t, d, cv))
}

// jsonInput is a json or jsonb argument as a tree: a json value is parsed
// (keeping its text), a jsonb value is already one.
func jsonInput(t types.T, d types.Datum) (*types.JsonValue, error) {
	if t.OID == types.JSONB {
		return d.(*types.JsonValue), nil
	}
	return types.ParseJSONTree(d.(string))
}

// jsonOut is a node of a json or jsonb tree as a value of that type.
func jsonOut(t types.T, v *types.JsonValue) types.Datum {
	if t.OID == types.JSONB {
		return v
	}
	return v.Raw
}

// jsonText is the text ->> and the _text functions give for v: a
// string's value, NULL for null, else the value's JSON text.
func jsonText(t types.T, v *types.JsonValue) types.Datum {
	switch {
	case v == nil || v.Kind == types.JsonNull:
		return nil
	case v.Kind == types.JsonString:
		return v.Str
	case t.OID == types.JSONB:
		return types.JsonbString(v)
	}
	return v.Raw
}

// appendCompactJSON writes a json tree without white space, strings
// re-escaped (the output of json_strip_nulls).
func appendCompactJSON(buf []byte, v *types.JsonValue, stripNulls bool) []byte {
	switch v.Kind {
	case types.JsonObject:
		buf = append(buf, '{')
		n := 0
		for _, p := range v.Pairs {
			if stripNulls && p.Value.Kind == types.JsonNull {
				continue
			}
			if n > 0 {
				buf = append(buf, ',')
			}
			n++
			buf = types.AppendJSONString(buf, p.Key)
			buf = append(buf, ':')
			buf = appendCompactJSON(buf, p.Value, stripNulls)
		}
		return append(buf, '}')
	case types.JsonArray:
		buf = append(buf, '[')
		for i, e := range v.Elems {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendCompactJSON(buf, e, stripNulls)
		}
		return append(buf, ']')
	case types.JsonString:
		return types.AppendJSONString(buf, v.Str)
	}
	return append(buf, v.Raw...)
}

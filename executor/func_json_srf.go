package executor

import (
	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// The set-returning JSON functions: json[b]_each[_text] (key and value
// columns, called in FROM), json[b]_array_elements[_text] and
// json[b]_object_keys (one column, in FROM and in select lists).

func init() {
	for _, fam := range []struct {
		t      types.OID
		prefix string
	}{{tJSON, "json"}, {tJSONB, "jsonb"}} {
		tt, p := types.T{OID: fam.t, Typmod: -1}, fam.prefix
		for _, asText := range []bool{false, true} {
			name, vt := p+"_each", tt
			if asText {
				name, vt = p+"_each_text", types.TText
			}
			sql.RegisterTableFunction(sql.TableFunction{Name: name, Args: oids(fam.t), Strict: true,
				Cols: []sql.TableFuncCol{{Name: "key", T: types.TText}, {Name: "value", T: vt}},
				Fn: func(_ any, a []types.Datum) ([][]types.Datum, error) {
					v, err := jsonInput(tt, a[0])
					if err != nil {
						return nil, err
					}
					if v.Kind != types.JsonObject {
						return nil, eachError(tt, name, v)
					}
					rows := make([][]types.Datum, len(v.Pairs))
					for i, pr := range v.Pairs {
						val := jsonOut(tt, pr.Value)
						if asText {
							val = jsonText(tt, pr.Value)
						}
						rows[i] = []types.Datum{pr.Key, val}
					}
					return rows, nil
				}})
		}
	}
}

// eachError is json[b]_each's error for a value that is no object.
func eachError(t types.T, name string, v *types.JsonValue) error {
	if t.OID == types.JSONB {
		return pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a non-object", name)
	}
	if v.Kind == types.JsonArray {
		return pgerr.New(pgerr.InvalidParameterValue, "cannot deconstruct an array as an object")
	}
	return pgerr.New(pgerr.InvalidParameterValue, "cannot deconstruct a scalar")
}

// startJSONSeq starts the one-column JSON set-returning functions; ok is
// false for other functions.
func startJSONSeq(f *sql.SRFCall, args []types.Datum) (seq, bool, error) {
	var tt types.T
	switch f.Name {
	case "json_array_elements", "json_array_elements_text", "json_object_keys":
		tt = types.TJSON
	case "jsonb_array_elements", "jsonb_array_elements_text", "jsonb_object_keys":
		tt = types.TJSONB
	default:
		return nil, false, nil
	}
	v, err := jsonInput(tt, args[0])
	if err != nil {
		return nil, true, err
	}
	var out []types.Datum
	switch f.Name {
	case "json_object_keys", "jsonb_object_keys":
		if v.Kind != types.JsonObject {
			what := "a scalar"
			if v.Kind == types.JsonArray {
				what = "an array"
			}
			return nil, true, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on %s", f.Name, what)
		}
		for _, p := range v.Pairs {
			out = append(out, p.Key)
		}
	default:
		if v.Kind != types.JsonArray {
			return nil, true, elementsError(tt, f.Name, v)
		}
		asText := f.T.OID == types.Text
		for _, e := range v.Elems {
			if asText {
				out = append(out, jsonText(tt, e))
			} else {
				out = append(out, jsonOut(tt, e))
			}
		}
	}
	return &arraySeq{elems: out}, true, nil
}

// elementsError is json[b]_array_elements' error for a value that is no
// array.
func elementsError(t types.T, name string, v *types.JsonValue) error {
	if t.OID == types.JSONB {
		if v.Kind == types.JsonObject {
			return pgerr.New(pgerr.InvalidParameterValue, "cannot extract elements from an object")
		}
		return pgerr.New(pgerr.InvalidParameterValue, "cannot extract elements from a scalar")
	}
	if v.Kind == types.JsonObject {
		return pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a non-array", name)
	}
	return pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a scalar", name)
}

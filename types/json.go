package types

import (
	"encoding/binary"
	"sort"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
)

// json and jsonb, as PostgreSQL 15 has them.
//
//	json     string: the input text, kept verbatim once json_in's parser
//	         accepted it
//	jsonb    *JsonValue: the decomposed value; objects hold their keys
//	         deduplicated (the last one wins) and sorted as jsonb's binary
//	         form keeps them (shorter keys first, then bytewise), numbers
//	         are numeric
//
//	text     json: as written; jsonb: jsonb_out's normalization,
//	         {"a": 1, "b": [1, 2]}
//	binary   json: the text; jsonb: a version byte 1, then the text
//	on disk  json: a varlena holding the text; jsonb: a varlena holding
//	         PostgreSQL's JsonbContainer (json_disk.go)
//
// jsonb orders as compareJsonbContainers does: between values of
// different types null < string < number < boolean < array < object;
// arrays and objects first by their number of elements or pairs, then
// element by element (objects pair by pair in their stored key order,
// keys compared as text); a top-level scalar counts as a one-element
// array that sorts before a real array of one element, so that the empty
// array sorts below every scalar. json has no ordering or equality.

// The OIDs of json and jsonb and of their array types.
const (
	JSON       OID = 114
	JSONB      OID = 3802
	JSONArray  OID = 199
	JSONBArray OID = 3807
)

// Ready-made json types.
var (
	TJSON  = T{JSON, -1}
	TJSONB = T{JSONB, -1}
)

func init() {
	typeAliases["json"] = JSON
	typeAliases["jsonb"] = JSONB
	delete(unsupportedTypes, "json")
	delete(unsupportedTypes, "jsonb")
	arrayOIDs[JSON] = JSONArray
	arrayOIDs[JSONB] = JSONBArray
}

// isJSONType reports whether oid is json or jsonb.
func isJSONType(oid OID) bool { return oid == JSON || oid == JSONB }

// JsonKind is a JSON value's type, in jsonb's order of types (jbvType).
type JsonKind uint8

// The kinds of JSON values.
const (
	JsonNull JsonKind = iota
	JsonString
	JsonNumber
	JsonBool
	JsonArray
	JsonObject
)

// JsonValue is one JSON value (a jsonb Datum, or a node of a parsed json
// value). A value is never modified once built.
type JsonValue struct {
	Kind  JsonKind
	Str   string       // JsonString: the de-escaped text; json's numbers: as written
	Num   *apd.Decimal // JsonNumber of jsonb
	Bool  bool
	Elems []*JsonValue // JsonArray
	Pairs []JsonPair   // JsonObject
	// Raw is the value's source text, for a tree of ParseJSONTree.
	Raw string
}

// JsonPair is one key and value of an object.
type JsonPair struct {
	Key   string
	Value *JsonValue
}

// IsScalar reports whether v is neither an array nor an object.
func (v *JsonValue) IsScalar() bool { return v.Kind != JsonArray && v.Kind != JsonObject }

// KindName is the value's type as json_typeof and jsonb_typeof name it.
func (v *JsonValue) KindName() string {
	return [...]string{"null", "string", "number", "boolean", "array", "object"}[v.Kind]
}

// Get returns the value of key in object v (nil: none or not an object).
func (v *JsonValue) Get(key string) *JsonValue {
	if v.Kind != JsonObject {
		return nil
	}
	if v.Raw != "" { // json: the last of duplicate keys
		for i := len(v.Pairs) - 1; i >= 0; i-- {
			if v.Pairs[i].Key == key {
				return v.Pairs[i].Value
			}
		}
		return nil
	}
	i := sort.Search(len(v.Pairs), func(i int) bool { return jsonKeyCmp(v.Pairs[i].Key, key) >= 0 })
	if i < len(v.Pairs) && v.Pairs[i].Key == key {
		return v.Pairs[i].Value
	}
	return nil
}

// jsonKeyCmp is lengthCompareJsonbString: shorter keys first, then bytes.
func jsonKeyCmp(a, b string) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

// uniqueifyPairs is uniqueifyJsonbObject: pairs sorted by key, and of
// duplicate keys only the last one written kept.
func uniqueifyPairs(ps []JsonPair) []JsonPair {
	sort.SliceStable(ps, func(i, j int) bool { return jsonKeyCmp(ps[i].Key, ps[j].Key) < 0 })
	out := ps[:0]
	for _, p := range ps {
		if len(out) > 0 && out[len(out)-1].Key == p.Key {
			out[len(out)-1] = p
			continue
		}
		out = append(out, p)
	}
	return out
}

// NewJsonObject returns an object of pairs (in any order; of duplicate
// keys the last one is kept), as jsonb builds one.
func NewJsonObject(pairs []JsonPair) *JsonValue {
	return &JsonValue{Kind: JsonObject, Pairs: uniqueifyPairs(pairs)}
}

// AppendJSONString appends s as a JSON string literal (escape_json).
func AppendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\b':
			buf = append(buf, '\\', 'b')
		case '\f':
			buf = append(buf, '\\', 'f')
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		case '"':
			buf = append(buf, '\\', '"')
		case '\\':
			buf = append(buf, '\\', '\\')
		default:
			if c < ' ' {
				buf = append(buf, `\u00`...)
				buf = append(buf, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
			} else {
				buf = append(buf, c)
			}
		}
	}
	return append(buf, '"')
}

// appendJsonScalar appends a scalar in JSON form.
func appendJsonScalar(buf []byte, v *JsonValue) []byte {
	switch v.Kind {
	case JsonString:
		return AppendJSONString(buf, v.Str)
	case JsonNumber:
		if v.Num == nil {
			return append(buf, v.Str...)
		}
		return appendNumeric(buf, v.Num)
	case JsonBool:
		if v.Bool {
			return append(buf, "true"...)
		}
		return append(buf, "false"...)
	}
	return append(buf, "null"...)
}

// AppendJsonb appends v as jsonb_out prints it.
func AppendJsonb(buf []byte, v *JsonValue) []byte {
	switch v.Kind {
	case JsonArray:
		buf = append(buf, '[')
		for i, e := range v.Elems {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = AppendJsonb(buf, e)
		}
		return append(buf, ']')
	case JsonObject:
		buf = append(buf, '{')
		for i, p := range v.Pairs {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = AppendJSONString(buf, p.Key)
			buf = append(buf, ": "...)
			buf = AppendJsonb(buf, p.Value)
		}
		return append(buf, '}')
	}
	return appendJsonScalar(buf, v)
}

// JsonbString is jsonb_out of v.
func JsonbString(v *JsonValue) string { return string(AppendJsonb(nil, v)) }

// AppendJsonbPretty appends v as jsonb_pretty prints it: one element or
// pair a line, indented by four spaces a level.
func AppendJsonbPretty(buf []byte, v *JsonValue, level int) []byte {
	indent := func(b []byte, n int) []byte {
		b = append(b, '\n')
		for i := 0; i < n; i++ {
			b = append(b, "    "...)
		}
		return b
	}
	switch v.Kind {
	case JsonArray:
		buf = append(buf, '[')
		for i, e := range v.Elems {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = indent(buf, level+1)
			buf = AppendJsonbPretty(buf, e, level+1)
		}
		buf = indent(buf, level)
		return append(buf, ']')
	case JsonObject:
		buf = append(buf, '{')
		for i, p := range v.Pairs {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = indent(buf, level+1)
			buf = AppendJSONString(buf, p.Key)
			buf = append(buf, ": "...)
			buf = AppendJsonbPretty(buf, p.Value, level+1)
		}
		buf = indent(buf, level)
		return append(buf, '}')
	}
	return appendJsonScalar(buf, v)
}

// CompareJsonb orders two jsonb values as compareJsonbContainers does.
func CompareJsonb(a, b *JsonValue) int {
	// At the top level a scalar is a one-element "raw scalar" array.
	if a.Kind != JsonObject && b.Kind != JsonObject && (a.IsScalar() || b.IsScalar()) {
		na, nb := topElems(a), topElems(b)
		if na != nb {
			return cmpInt(na, nb)
		}
		if a.IsScalar() != b.IsScalar() {
			if a.IsScalar() {
				return -1
			}
			return 1
		}
		if a.IsScalar() {
			return compareJsonValues(a, b)
		}
	}
	return compareJsonValues(a, b)
}

func topElems(v *JsonValue) int {
	if v.IsScalar() {
		return 1
	}
	return len(v.Elems)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func compareJsonValues(a, b *JsonValue) int {
	if a.Kind != b.Kind {
		return cmpInt(int(a.Kind), int(b.Kind))
	}
	switch a.Kind {
	case JsonString:
		return strings.Compare(a.Str, b.Str)
	case JsonNumber:
		return numCmp(numCanon(a.Num), numCanon(b.Num))
	case JsonBool:
		return cmpInt(boolInt(a.Bool), boolInt(b.Bool))
	case JsonArray:
		if c := cmpInt(len(a.Elems), len(b.Elems)); c != 0 {
			return c
		}
		for i := range a.Elems {
			if c := compareJsonValues(a.Elems[i], b.Elems[i]); c != 0 {
				return c
			}
		}
	case JsonObject:
		if c := cmpInt(len(a.Pairs), len(b.Pairs)); c != 0 {
			return c
		}
		for i := range a.Pairs {
			if c := strings.Compare(a.Pairs[i].Key, b.Pairs[i].Key); c != 0 {
				return c
			}
			if c := compareJsonValues(a.Pairs[i].Value, b.Pairs[i].Value); c != 0 {
				return c
			}
		}
	}
	return 0
}

// appendJsonbKey appends an order-preserving encoding of v: a top-level
// object is 0x03 and its body; anything else 0x02, the element count
// (a scalar counts one), 0x00 for a scalar or 0x01 for an array, and the
// elements. A value inside is a tag of its kind (0x01 null .. 0x06
// object) and its body: a string's bytes with 0x00 escaped and 0x00 0x01
// after, a number as a numeric key, a boolean one byte, an array or
// object its count as 4 bytes and its elements or keys and values.
func appendJsonbKey(buf []byte, v *JsonValue) []byte {
	if v.Kind == JsonObject {
		return appendJsonBody(append(buf, 0x03), v)
	}
	if v.IsScalar() {
		buf = binary.BigEndian.AppendUint32(append(buf, 0x02), 1)
		return appendJsonValueKey(append(buf, 0x00), v)
	}
	buf = binary.BigEndian.AppendUint32(append(buf, 0x02), uint32(len(v.Elems)))
	buf = append(buf, 0x01)
	for _, e := range v.Elems {
		buf = appendJsonValueKey(buf, e)
	}
	return buf
}

func appendJsonValueKey(buf []byte, v *JsonValue) []byte {
	buf = append(buf, byte(v.Kind)+1)
	return appendJsonBody(buf, v)
}

func appendKeyString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			buf = append(buf, 0, 0xFF)
		} else {
			buf = append(buf, s[i])
		}
	}
	return append(buf, 0, 1)
}

func appendJsonBody(buf []byte, v *JsonValue) []byte {
	switch v.Kind {
	case JsonString:
		return appendKeyString(buf, v.Str)
	case JsonNumber:
		return appendNumericKey(buf, numCanon(v.Num))
	case JsonBool:
		return append(buf, byte(boolInt(v.Bool)))
	case JsonArray:
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(v.Elems)))
		for _, e := range v.Elems {
			buf = appendJsonValueKey(buf, e)
		}
	case JsonObject:
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(v.Pairs)))
		for _, p := range v.Pairs {
			buf = appendKeyString(buf, p.Key)
			buf = appendJsonValueKey(buf, p.Value)
		}
	}
	return buf
}

func asJsonb(t T, d Datum) (*JsonValue, error) {
	if v, ok := d.(*JsonValue); ok && v != nil {
		return v, nil
	}
	return nil, badDatum(t, d)
}

// parseJSONType is json_in and jsonb_in.
func parseJSONType(t T, s string) (Datum, error) {
	if err := checkEncoding(s); err != nil {
		return nil, err
	}
	if t.OID == JSON {
		if err := ValidateJSON(s); err != nil {
			return nil, err
		}
		return s, nil
	}
	v, err := ParseJSONB(s)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// appendJSONTypeBinary is json_send and jsonb_send.
func appendJSONTypeBinary(buf []byte, t T, d Datum) ([]byte, error) {
	return appendJSONTypeAs(buf, t, d, func(buf []byte, v *JsonValue) ([]byte, error) {
		return AppendJsonb(append(buf, 1), v), nil
	})
}

// appendJSONTypeAs appends json's text as it is, or jsonb's value as
// jsonbForm writes it.
func appendJSONTypeAs(buf []byte, t T, d Datum, jsonbForm func(buf []byte, v *JsonValue) ([]byte, error)) ([]byte, error) {
	if t.OID == JSON {
		s, err := asString(t, d)
		if err != nil {
			return nil, err
		}
		return append(buf, s...), nil
	}
	v, err := asJsonb(t, d)
	if err != nil {
		return nil, err
	}
	return jsonbForm(buf, v)
}

// decodeJSONTypeBinary is json_recv and jsonb_recv.
func decodeJSONTypeBinary(t T, b []byte) (Datum, error) {
	if t.OID == JSONB {
		if len(b) == 0 || b[0] != 1 {
			v := 0
			if len(b) > 0 {
				v = int(b[0])
			}
			return nil, pgerr.New(pgerr.InternalError, "unsupported jsonb version number %d", v)
		}
		b = b[1:]
	}
	return parseJSONType(t, string(b))
}

// appendJSONTypeDisk writes json's text, or jsonb's JsonbContainer.
func appendJSONTypeDisk(buf []byte, t T, d Datum) ([]byte, error) {
	return appendJSONTypeAs(buf, t, d, appendJsonbDisk)
}

func decodeJSONTypeDisk(t T, b []byte) (Datum, error) {
	if t.OID == JSON {
		return string(b), nil
	}
	v, ok := decodeJsonbDisk(b)
	if !ok {
		return nil, errCorrupt(t, len(b))
	}
	return v, nil
}

// compareJSONType orders jsonb values; json values, which PostgreSQL
// cannot compare, compare as their text so that sorting stays
// deterministic.
func compareJSONType(a, b Datum) (int, bool) {
	x, ok1 := a.(*JsonValue)
	y, ok2 := b.(*JsonValue)
	if ok1 && ok2 && x != nil && y != nil {
		return CompareJsonb(x, y), true
	}
	return 0, false
}

// jsonbScalarCastError is the error of a cast of a jsonb value that is
// not the scalar the target type wants.
func jsonbScalarCastError(v *JsonValue, target string) error {
	// JsonbTypeName's names, which call a number numeric.
	what := "jsonb " + v.KindName()
	if v.Kind == JsonNumber {
		what = "jsonb numeric"
	}
	return pgerr.New(pgerr.InvalidParameterValue, "cannot cast %s to type %s", what, target)
}

// CastJsonb is the cast of jsonb to bool, numeric, the integers and the
// floats (jsonb_bool, jsonb_numeric, ...): the value must be a scalar of
// the matching JSON type.
func CastJsonb(v *JsonValue, to T) (Datum, error) {
	switch to.OID {
	case Bool:
		if v.Kind != JsonBool {
			return nil, jsonbScalarCastError(v, "boolean")
		}
		return v.Bool, nil
	case Numeric, Int2, Int4, Int8, Float4, Float8:
		if v.Kind != JsonNumber {
			return nil, jsonbScalarCastError(v, T{to.OID, -1}.Name())
		}
		if to.OID == Numeric {
			return numApplyTypmod(v.Num, to.Typmod)
		}
		return CoerceConv(v.Num, TNumeric, T{to.OID, -1}, true, Conv{})
	}
	return nil, pgerr.New(pgerr.CannotCoerce, "cannot cast type jsonb to %s", to.Name())
}

// coerceJSON is the casts from json and jsonb: between the two (through
// the text, as PostgreSQL's I/O casts), and from jsonb to the scalar
// types. ok is false for the other casts.
func coerceJSON(d Datum, from, to T) (Datum, bool, error) {
	switch {
	case from.OID == JSON && to.OID == JSONB:
		s, err := asString(from, d)
		if err != nil {
			return nil, true, err
		}
		v, err := ParseJSONB(s)
		return v, true, err
	case from.OID == JSONB && to.OID == JSON:
		v, err := asJsonb(from, d)
		if err != nil {
			return nil, true, err
		}
		return JsonbString(v), true, nil
	case from.OID == JSONB && !isString(to.OID) && to.OID != JSONB:
		v, err := asJsonb(from, d)
		if err != nil {
			return nil, true, err
		}
		r, err := CastJsonb(v, to)
		return r, true, err
	}
	return nil, false, nil
}

// jsonCastContext is pg_cast for json and jsonb.
func jsonCastContext(from, to OID) (CastContext, bool) {
	switch {
	case from == JSON && to == JSONB, from == JSONB && to == JSON:
		return CastAssignment, true
	case from == JSONB:
		switch to {
		case Bool, Numeric, Int2, Int4, Int8, Float4, Float8:
			return CastExplicit, true
		}
	}
	return CastNone, false
}

package types

import (
	"encoding/binary"
	"math"

	"minipg/pgerr"
)

// PointValue is a Datum of PostgreSQL's point: two float8 coordinates.
//
//	text     (x,y); input also accepts x,y, with white space around each part
//	binary   float8 x | float8 y, big-endian IEEE bits
//	on disk  float8 x | float8 y, little-endian, 16 bytes, typalign d
//
// A point can be subscripted as a fixed-length array of two float8 with
// lower bound 0: p[0] is x, p[1] is y, any other subscript is NULL.
type PointValue struct{ X, Y float64 }

// Point's pg_type oid.
const Point OID = 600

// TPoint is the point type.
var TPoint = T{Point, -1}

func init() {
	typeAliases["point"] = Point
	delete(unsupportedTypes, "point")
}

func errPointSyntax(in string) error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type point: \"%s\"", in)
}

// parsePoint is point_in (pair_decode).
func parsePoint(in string) (Datum, error) {
	s := in
	i := 0
	skip := func() {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
	}
	num := func() (float64, error) {
		skip()
		j := floatPrefix(s, i)
		if j == i {
			return 0, errPointSyntax(in)
		}
		v, err := parseFloat(s[i:j], 64)
		if err != nil {
			if pe, ok := err.(*pgerr.Error); ok && pe.Code == pgerr.NumericValueOutOfRange {
				return 0, pgerr.New(pgerr.NumericValueOutOfRange, "\"%s\" is out of range for type double precision", s[i:j])
			}
			return 0, errPointSyntax(in)
		}
		i = j
		return v.(float64), nil
	}
	skip()
	paren := i < len(s) && s[i] == '('
	if paren {
		i++
	}
	x, err := num()
	if err != nil {
		return nil, err
	}
	skip()
	if i >= len(s) || s[i] != ',' {
		return nil, errPointSyntax(in)
	}
	i++
	y, err := num()
	if err != nil {
		return nil, err
	}
	if paren {
		skip()
		if i >= len(s) || s[i] != ')' {
			return nil, errPointSyntax(in)
		}
		i++
	}
	skip()
	if i != len(s) {
		return nil, errPointSyntax(in)
	}
	return PointValue{x, y}, nil
}

// floatPrefix returns the end of the longest prefix of s[i:] that strtod
// reads as a number (sign, digits, point, exponent, or inf/infinity/nan).
func floatPrefix(s string, i int) int {
	j := i
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	lower := func(k, n int) string {
		if k+n > len(s) {
			return ""
		}
		b := []byte(s[k : k+n])
		for x := range b {
			if b[x] >= 'A' && b[x] <= 'Z' {
				b[x] += 'a' - 'A'
			}
		}
		return string(b)
	}
	switch {
	case lower(j, 8) == "infinity":
		return j + 8
	case lower(j, 3) == "inf", lower(j, 3) == "nan":
		return j + 3
	}
	start := j
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
	}
	if j == start || (j == start+1 && s[start] == '.') {
		return i
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && s[k] >= '0' && s[k] <= '9' {
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			j = k
		}
	}
	return j
}

func appendPoint(buf []byte, p PointValue) []byte {
	buf = append(buf, '(')
	buf = appendFloat(buf, p.X, 64)
	buf = append(buf, ',')
	buf = appendFloat(buf, p.Y, 64)
	return append(buf, ')')
}

func asPoint(t T, d Datum) (PointValue, error) {
	if v, ok := d.(PointValue); ok {
		return v, nil
	}
	return PointValue{}, badDatum(t, d)
}

func appendPointBytes(buf []byte, order binary.AppendByteOrder, p PointValue) []byte {
	buf = order.AppendUint64(buf, float8Bits(p.X))
	return order.AppendUint64(buf, float8Bits(p.Y))
}

func decodePointBytes(order binary.ByteOrder, b []byte) (Datum, bool) {
	if len(b) != 16 {
		return nil, false
	}
	return PointValue{math.Float64frombits(order.Uint64(b)), math.Float64frombits(order.Uint64(b[8:]))}, true
}

// PointSubscript is p[i]: x for 0, y for 1, ok false (NULL) otherwise.
func PointSubscript(p PointValue, i int64) (float64, bool) {
	switch i {
	case 0:
		return p.X, true
	case 1:
		return p.Y, true
	}
	return 0, false
}

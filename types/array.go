package types

import (
	"encoding/binary"
	"strconv"
	"strings"

	"minipg/pgerr"
)

// Array is a Datum of an array type: PostgreSQL's ArrayType with its
// dimensions, lower bounds and elements in row-major order (nil is a NULL
// element). An empty array has no dimensions. An array type shares its
// typmod with its element type (varchar(10)[] has varchar(10)'s).
//
//	text     {1,2,NULL}, {{1,2},{3,4}}, [0:1]={a,b}: array_in/array_out, an
//	         element quoted when empty, NULL, or holding white space or one of "{},\
//	binary   int32 ndim | int32 has-nulls flag | uint32 element type oid |
//	         ndim x (int32 length | int32 lower bound) |
//	         per element: int32 length (-1 NULL) | the element's send bytes
//	on disk  see appendArrayDisk
type Array struct {
	Dims    []int
	Lbounds []int
	Elems   []Datum
}

// MaxDim is MAXDIM, the most dimensions an array may have.
const MaxDim = 6

// arrayOIDs maps an element type to its array type (pg_type.typarray).
var arrayOIDs = map[OID]OID{
	Bool: 1000, Int2: 1005, Int4: 1007, Text: 1009, TID: 1010, Bpchar: 1014, Varchar: 1015,
	Int8: 1016, Point: 1017, Bytea: 1001, Oid: 1028, Float4: 1021, Float8: 1022, Timestamp: 1115, Date: 1182, Numeric: 1231,
	TimestampTZ: 1185, Interval: 1187, Xid: 1011, Cid: 1012,
}

// The array types' OIDs lie in [firstArrayOID, firstArrayOID+len(elemOIDs));
// elemOIDs maps them to their element types (0: not an array type). A table
// rather than a map: IsArray is asked about every value decoded or encoded
// (see extType).
const firstArrayOID = 1000

var elemOIDs = func() (t [1300]OID) {
	for e, a := range arrayOIDs {
		t[a-firstArrayOID] = e
	}
	return t
}()

// addArrayType registers array type a of elements of type e.
func addArrayType(e, a OID) {
	arrayOIDs[e] = a
	elemOIDs[a-firstArrayOID] = e // out of range: a new array type needs a bigger table
}

// ArrayOID is the array type whose elements have type elem (0: none).
func ArrayOID(elem OID) OID { return arrayOIDs[elem] }

// IsArray reports whether oid is a supported array type.
func IsArray(oid OID) bool { return ElemOID(oid) != 0 }

// ElemOID is the element type of array type oid (0: not an array).
func ElemOID(oid OID) OID {
	if oid < firstArrayOID || oid-firstArrayOID >= OID(len(elemOIDs)) {
		switch oid {
		case JSONArray:
			return JSON
		case JSONBArray:
			return JSONB
		}
		return 0
	}
	return elemOIDs[oid-firstArrayOID]
}

// ElemType is the element type of array type t, with t's typmod.
func ElemType(t T) T { return T{ElemOID(t.OID), t.Typmod} }

// ArrayOf is the array type of elements of type t (OID 0 when there is none).
func ArrayOf(t T) T { return T{ArrayOID(t.OID), t.Typmod} }

// NewArray returns a one-dimensional array with lower bound 1 (empty when
// elems is).
func NewArray(elems []Datum) *Array {
	if len(elems) == 0 {
		return &Array{}
	}
	return &Array{Dims: []int{len(elems)}, Lbounds: []int{1}, Elems: elems}
}

func asArray(t T, d Datum) (*Array, error) {
	if v, ok := d.(*Array); ok && v != nil {
		return v, nil
	}
	return nil, badDatum(t, d)
}

func errArrayLiteral(in, detail string) error {
	e := pgerr.New(pgerr.InvalidTextRepresentation, "malformed array literal: \"%s\"", in)
	if detail != "" {
		e = e.WithDetail("%s", detail)
	}
	return e
}

// parseArray is array_in for array type t.
func parseArray(t T, in string, cv Conv) (Datum, error) {
	elem := ElemType(t)
	s := in
	i := 0
	skip := func() {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
	}
	skip()
	var given [][2]int // explicit [lo:hi] dimensions
	for i < len(s) && s[i] == '[' {
		i++
		skip()
		num := func() (int, bool) {
			j := i
			if j < len(s) && (s[j] == '-' || s[j] == '+') {
				j++
			}
			k := j
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			if k == j {
				return 0, false
			}
			v, err := strconv.Atoi(s[i:k])
			if err != nil {
				return 0, false
			}
			i = k
			return v, true
		}
		lo, hi := 1, 0
		v, ok := num()
		if !ok {
			return nil, errArrayLiteral(in, "\"[\" must introduce explicitly-specified array dimensions.")
		}
		skip()
		if i < len(s) && s[i] == ':' {
			i++
			skip()
			lo = v
			if v, ok = num(); !ok {
				return nil, errArrayLiteral(in, "Missing array dimension value.")
			}
			skip()
		}
		hi = v
		if i >= len(s) || s[i] != ']' {
			return nil, errArrayLiteral(in, "Missing \"]\" after array dimensions.")
		}
		i++
		if hi < lo {
			return nil, pgerr.New(pgerr.ArraySubscriptError, "upper bound cannot be less than lower bound")
		}
		if len(given) == MaxDim {
			return nil, pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", len(given)+1, MaxDim)
		}
		given = append(given, [2]int{lo, hi})
		skip()
	}
	if len(given) > 0 {
		if i >= len(s) || s[i] != '=' {
			return nil, errArrayLiteral(in, "Missing \"=\" after array dimensions.")
		}
		i++
		skip()
	}
	if i >= len(s) || s[i] != '{' {
		return nil, errArrayLiteral(in, "Array value must start with \"{\" or dimension information.")
	}
	p := arrayParser{s: s, in: in, i: i}
	if err := p.level(0); err != nil {
		return nil, err
	}
	for p.i < len(s) && isSpace(s[p.i]) {
		p.i++
	}
	if p.i != len(s) {
		return nil, errArrayLiteral(in, "Junk after closing right brace.")
	}
	a := &Array{}
	if len(p.elems) > 0 {
		a.Dims = p.dims
		for range p.dims {
			a.Lbounds = append(a.Lbounds, 1)
		}
	}
	if len(given) > 0 {
		if len(given) != len(a.Dims) {
			return nil, errArrayLiteral(in, "Specified array dimensions do not match array contents.")
		}
		for k, g := range given {
			if g[1]-g[0]+1 != a.Dims[k] {
				return nil, errArrayLiteral(in, "Specified array dimensions do not match array contents.")
			}
			a.Lbounds[k] = g[0]
		}
	}
	a.Elems = make([]Datum, len(p.elems))
	for k, e := range p.elems {
		if e.null {
			continue
		}
		v, err := ParseTextConv(elem, e.text, cv)
		if err != nil {
			return nil, err
		}
		a.Elems[k] = v
	}
	return a, nil
}

type arrayElem struct {
	text string
	null bool
}

// arrayParser reads the braces of an array literal, collecting the
// elements' text and the length of each dimension.
type arrayParser struct {
	s, in string
	i     int
	dims  []int
	depth int // number of dimensions once the first element fixed it (0: not yet)
	elems []arrayElem
}

func (p *arrayParser) errChar() error {
	if p.i >= len(p.s) {
		return errArrayLiteral(p.in, "Unexpected end of input.")
	}
	return errArrayLiteral(p.in, "Unexpected \""+string(p.s[p.i])+"\" character.")
}

// level reads one brace-enclosed level at nesting depth d (p.s[p.i] is '{').
func (p *arrayParser) level(d int) error {
	if d >= MaxDim {
		return pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", d+1, MaxDim)
	}
	p.i++
	n := 0
	sub := -1 // 1: this level holds sub-arrays, 0: elements
	p.skip()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		if d > 0 {
			return errArrayLiteral(p.in, "Multidimensional arrays must have sub-arrays with matching dimensions.")
		}
		return nil
	}
	for {
		p.skip()
		if p.i >= len(p.s) {
			return p.errChar()
		}
		switch c := p.s[p.i]; {
		case c == '{':
			if sub == 0 {
				return p.errChar()
			}
			sub = 1
			if err := p.level(d + 1); err != nil {
				return err
			}
		case c == '}' || c == ',':
			return p.errChar()
		default:
			if sub == 1 {
				return errArrayLiteral(p.in, "Unexpected array element.")
			}
			sub = 0
			if p.depth == 0 {
				p.depth = d + 1
			} else if p.depth != d+1 {
				return errArrayLiteral(p.in, "Multidimensional arrays must have sub-arrays with matching dimensions.")
			}
			if err := p.element(); err != nil {
				return err
			}
		}
		n++
		p.skip()
		if p.i >= len(p.s) {
			return p.errChar()
		}
		if p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.s[p.i] == '}' {
			p.i++
			break
		}
		return p.errChar()
	}
	if sub == 1 && p.depth != 0 && p.depth <= d+1 {
		return errArrayLiteral(p.in, "Multidimensional arrays must have sub-arrays with matching dimensions.")
	}
	for len(p.dims) <= d {
		p.dims = append(p.dims, -1)
	}
	if p.dims[d] == -1 {
		p.dims[d] = n
	} else if p.dims[d] != n {
		return errArrayLiteral(p.in, "Multidimensional arrays must have sub-arrays with matching dimensions.")
	}
	return nil
}

func (p *arrayParser) skip() {
	for p.i < len(p.s) && isSpace(p.s[p.i]) {
		p.i++
	}
}

// element reads one element up to the unquoted , or } after it: quotes
// group, a backslash takes the next character literally, white space
// after the last literal character is dropped, and an unquoted NULL is a
// null.
func (p *arrayParser) element() error {
	var b strings.Builder
	literal := false // a quote or escape was seen
	keep := 0        // length of b up to its last quoted or escaped character
	inQuotes := false
	// An element is quoted whole or not at all: a quote after unquoted
	// characters, or anything but white space after the closing quote,
	// is PostgreSQL's "Unexpected array element."
	bare, closed := false, false
	for {
		if p.i >= len(p.s) {
			return errArrayLiteral(p.in, "Unexpected end of input.")
		}
		c := p.s[p.i]
		if !inQuotes && c != ',' && c != '}' && !isSpace(c) {
			if closed || c == '"' && bare {
				return errArrayLiteral(p.in, "Unexpected array element.")
			}
			bare = c != '"'
		}
		switch {
		case c == '\\':
			p.i++
			if p.i >= len(p.s) {
				return errArrayLiteral(p.in, "Unexpected end of input.")
			}
			b.WriteByte(p.s[p.i])
			literal = true
			keep = b.Len()
		case c == '"':
			closed = inQuotes
			inQuotes = !inQuotes
			literal = true
			keep = b.Len()
		case inQuotes:
			b.WriteByte(c)
			keep = b.Len()
		case c == ',' || c == '}':
			text := b.String()
			end := len(text)
			for end > keep && isSpace(text[end-1]) {
				end--
			}
			text = text[:end]
			p.elems = append(p.elems, arrayElem{text: text, null: !literal && strings.EqualFold(text, "NULL")})
			return nil
		case c == '{':
			return p.errChar()
		default:
			if !isSpace(c) {
				keep = b.Len() + 1
			}
			b.WriteByte(c)
		}
		p.i++
	}
}

// appendArrayText is array_out.
func appendArrayText(buf []byte, elem T, a *Array, cv Conv) []byte {
	if len(a.Dims) == 0 {
		return append(buf, "{}"...)
	}
	for _, lb := range a.Lbounds {
		if lb != 1 {
			buf = append(appendArrayDims(buf, a), '=')
			break
		}
	}
	k := 0
	var level func(d int)
	level = func(d int) {
		buf = append(buf, '{')
		for j := 0; j < a.Dims[d]; j++ {
			if j > 0 {
				buf = append(buf, ',')
			}
			if d+1 < len(a.Dims) {
				level(d + 1)
				continue
			}
			buf = appendArrayElemText(buf, elem, a.Elems[k], cv)
			k++
		}
		buf = append(buf, '}')
	}
	level(0)
	return buf
}

func appendArrayElemText(buf []byte, elem T, d Datum, cv Conv) []byte {
	if d == nil {
		return append(buf, "NULL"...)
	}
	start := len(buf)
	buf = AppendTextConv(buf, elem, d, cv)
	v := buf[start:]
	quote := len(v) == 0 || strings.EqualFold(string(v), "NULL")
	for _, c := range v {
		if c == '"' || c == '\\' || c == '{' || c == '}' || c == ',' || isSpace(c) {
			quote = true
			break
		}
	}
	if !quote {
		return buf
	}
	s := string(v)
	buf = append(buf[:start], '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			buf = append(buf, '\\')
		}
		buf = append(buf, s[i])
	}
	return append(buf, '"')
}

// appendArrayBinary is array_send.
func appendArrayBinary(buf []byte, elem T, a *Array) ([]byte, error) {
	be := binary.BigEndian
	buf = be.AppendUint32(buf, uint32(len(a.Dims)))
	hasNull := uint32(0)
	for _, e := range a.Elems {
		if e == nil {
			hasNull = 1
		}
	}
	buf = be.AppendUint32(buf, hasNull)
	buf = be.AppendUint32(buf, uint32(elem.OID))
	for k, n := range a.Dims {
		buf = be.AppendUint32(buf, uint32(n))
		buf = be.AppendUint32(buf, uint32(int32(a.Lbounds[k])))
	}
	for _, e := range a.Elems {
		if e == nil {
			buf = be.AppendUint32(buf, 0xFFFFFFFF)
			continue
		}
		at := len(buf)
		buf = append(buf, 0, 0, 0, 0)
		var err error
		if buf, err = AppendBinary(buf, elem, e); err != nil {
			return nil, err
		}
		be.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	return buf, nil
}

// decodeArrayBinary is array_recv for array type t.
func decodeArrayBinary(t T, b []byte) (Datum, error) {
	elem := ElemType(t)
	be := binary.BigEndian
	insufficient := func() error {
		return pgerr.New(pgerr.InvalidBinaryRepresentation, "insufficient data left in message")
	}
	if len(b) < 12 {
		return nil, insufficient()
	}
	ndim := int32(be.Uint32(b))
	flags := int32(be.Uint32(b[4:]))
	et := OID(be.Uint32(b[8:]))
	b = b[12:]
	if ndim < 0 {
		return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid number of dimensions: %d", ndim)
	}
	if ndim > MaxDim {
		return nil, pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", ndim, MaxDim)
	}
	if flags != 0 && flags != 1 {
		return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid array flags")
	}
	if et != elem.OID {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "binary data has array element type %d (%s) instead of expected %d (%s)",
			et, T{et, -1}.Name(), elem.OID, T{elem.OID, -1}.Name())
	}
	a := &Array{}
	total := 1
	for k := 0; k < int(ndim); k++ {
		if len(b) < 8 {
			return nil, insufficient()
		}
		n, lb := int32(be.Uint32(b)), int32(be.Uint32(b[4:]))
		b = b[8:]
		if n < 0 {
			return nil, pgerr.New(pgerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (%d)", 134217727)
		}
		if int64(lb)+int64(n)-1 > 0x7fffffff {
			return nil, pgerr.New(pgerr.ProgramLimitExceeded, "array upper bound is too large: %d", lb)
		}
		a.Dims = append(a.Dims, int(n))
		a.Lbounds = append(a.Lbounds, int(lb))
		total *= int(n)
		if total > len(b)/4+1 {
			return nil, insufficient()
		}
	}
	if ndim == 0 || total == 0 {
		if len(b) != 0 {
			return nil, errBinaryFormat()
		}
		return &Array{}, nil
	}
	a.Elems = make([]Datum, total)
	for k := range a.Elems {
		if len(b) < 4 {
			return nil, insufficient()
		}
		n := int32(be.Uint32(b))
		b = b[4:]
		if n == -1 {
			continue
		}
		if n < -1 || int(n) > len(b) {
			return nil, insufficient()
		}
		v, err := DecodeBinary(elem, b[:n])
		if err != nil {
			if pe, ok := err.(*pgerr.Error); ok && pe.Code == pgerr.InvalidBinaryRepresentation && pe.Message == "incorrect binary data format" {
				return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "improper binary format in array element %d", k+1)
			}
			return nil, err
		}
		a.Elems[k] = v
		b = b[n:]
	}
	if len(b) != 0 {
		return nil, errBinaryFormat()
	}
	return a, nil
}

// compareArrays is btarraycmp: element by element (a NULL element sorts
// after any value), then the number of elements, of dimensions, the
// dimensions and the lower bounds.
func compareArrays(elem T, x, y *Array) int {
	n := min(len(x.Elems), len(y.Elems))
	for k := 0; k < n; k++ {
		a, b := x.Elems[k], y.Elems[k]
		switch {
		case a == nil && b == nil:
			continue
		case a == nil:
			return 1
		case b == nil:
			return -1
		}
		if c := Compare(elem, a, b); c != 0 {
			return c
		}
	}
	cmpInt := func(a, b int) int {
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	if c := cmpInt(len(x.Elems), len(y.Elems)); c != 0 {
		return c
	}
	if c := cmpInt(len(x.Dims), len(y.Dims)); c != 0 {
		return c
	}
	for k := range x.Dims {
		if c := cmpInt(x.Dims[k], y.Dims[k]); c != 0 {
			return c
		}
		if c := cmpInt(x.Lbounds[k], y.Lbounds[k]); c != 0 {
			return c
		}
	}
	return 0
}

// appendArrayKey encodes an array for AppendKey: a value marker, each
// element's key, 0x00 (so that a prefix sorts first), then the dimensions
// and lower bounds.
func appendArrayKey(buf []byte, elem T, a *Array, f KeyFormat) []byte {
	buf = append(buf, keyValue)
	for _, e := range a.Elems {
		buf = appendKey(buf, elem, e, f)
	}
	buf = append(buf, 0, byte(len(a.Dims)))
	for k, n := range a.Dims {
		buf = binary.BigEndian.AppendUint32(buf, uint32(n))
		buf = binary.BigEndian.AppendUint32(buf, uint32(a.Lbounds[k])^(1<<31))
	}
	return buf
}

// coerceArray converts each element of array d from type from to type to.
func coerceArray(d Datum, from, to T, explicit bool, cv Conv) (Datum, error) {
	a, err := asArray(from, d)
	if err != nil {
		return nil, err
	}
	fe, te := ElemType(from), ElemType(to)
	out := &Array{Dims: a.Dims, Lbounds: a.Lbounds, Elems: make([]Datum, len(a.Elems))}
	for k, e := range a.Elems {
		if out.Elems[k], err = CoerceConv(e, fe, te, explicit, cv); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// On disk an array is PostgreSQL's ArrayType, without the varlena header
// the heap adds (offsets and alignment still count the 4-byte header, as
// PostgreSQL lays the array out in memory before the heap shortens it),
// little-endian:
//
//	+--------+------------+----------+------------+--------------+------------------+---------+----------+
//	| ndim   | dataoffset | elemtype | dims       | lower bounds | null bitmap      | padding | elements |
//	| int32  | int32      | uint32   | ndim int32 | ndim int32   | only with NULLs  | to 8    |          |
//	+--------+------------+----------+------------+--------------+------------------+---------+----------+
//
// dataoffset is 0 without NULL elements, else the offset of the elements
// from the start of the varlena; bit k of the bitmap (LSB first) is set
// when element k is not NULL. Each non-NULL element is aligned to its
// type's typalign and stored as in a heap tuple; varlena elements carry a
// 4-byte header (length including itself, little-endian, shifted left 2).
func appendArrayDisk(buf []byte, elem T, a *Array) ([]byte, error) {
	le := binary.LittleEndian
	start := len(buf) - 4 // offsets count the varlena header the heap adds
	hasNull := false
	for _, e := range a.Elems {
		if e == nil {
			hasNull = true
		}
	}
	buf = le.AppendUint32(buf, uint32(len(a.Dims)))
	off := 16 + 8*len(a.Dims)
	if hasNull {
		off += (len(a.Elems) + 7) / 8
	}
	off = (off + 7) &^ 7
	if hasNull {
		buf = le.AppendUint32(buf, uint32(off))
	} else {
		buf = le.AppendUint32(buf, 0)
	}
	buf = le.AppendUint32(buf, uint32(elem.OID))
	for _, n := range a.Dims {
		buf = le.AppendUint32(buf, uint32(n))
	}
	for _, lb := range a.Lbounds {
		buf = le.AppendUint32(buf, uint32(int32(lb)))
	}
	if hasNull {
		bm := make([]byte, (len(a.Elems)+7)/8)
		for k, e := range a.Elems {
			if e != nil {
				bm[k/8] |= 1 << (k % 8)
			}
		}
		buf = append(buf, bm...)
	}
	for len(buf)-start < off {
		buf = append(buf, 0)
	}
	align := alignOf(elem.OID)
	for _, e := range a.Elems {
		if e == nil {
			continue
		}
		for (len(buf)-start)%align != 0 {
			buf = append(buf, 0)
		}
		if TypLen(elem.OID) > 0 {
			var err error
			if buf, err = AppendDisk(buf, elem, e); err != nil {
				return nil, err
			}
			continue
		}
		at := len(buf)
		buf = append(buf, 0, 0, 0, 0)
		var err error
		if buf, err = AppendDisk(buf, elem, e); err != nil {
			return nil, err
		}
		le.PutUint32(buf[at:], uint32(len(buf)-at)<<2)
	}
	return buf, nil
}

func alignOf(oid OID) int {
	switch TypAlign(oid) {
	case 'c':
		return 1
	case 's':
		return 2
	case 'd':
		return 8
	}
	return 4
}

// decodeArrayDisk is appendArrayDisk's inverse.
func decodeArrayDisk(t T, b []byte) (Datum, error) {
	elem := ElemType(t)
	le := binary.LittleEndian
	bad := func() error { return errCorrupt(t, len(b)) }
	if len(b) < 12 {
		return nil, bad()
	}
	ndim := int(int32(le.Uint32(b)))
	dataoff := int(int32(le.Uint32(b[4:])))
	if ndim < 0 || ndim > MaxDim || OID(le.Uint32(b[8:])) != elem.OID || len(b) < 12+8*ndim {
		return nil, bad()
	}
	a := &Array{}
	total := 1
	for k := 0; k < ndim; k++ {
		n := int(int32(le.Uint32(b[12+4*k:])))
		if n < 0 || n > len(b) {
			return nil, bad()
		}
		a.Dims = append(a.Dims, n)
		a.Lbounds = append(a.Lbounds, int(int32(le.Uint32(b[12+4*ndim+4*k:]))))
		total *= n
		if total > len(b)*8 {
			return nil, bad()
		}
	}
	if ndim == 0 || total == 0 {
		return &Array{}, nil
	}
	pos := 12 + 8*ndim // offsets below count the 4-byte header: +4
	var bm []byte
	if dataoff != 0 {
		n := (total + 7) / 8
		if len(b) < pos+n || dataoff-4 > len(b) || dataoff-4 < pos+n {
			return nil, bad()
		}
		bm = b[pos : pos+n]
		pos = dataoff - 4
	} else {
		pos = ((pos + 4 + 7) &^ 7) - 4
	}
	align := alignOf(elem.OID)
	typlen := int(TypLen(elem.OID))
	a.Elems = make([]Datum, total)
	for k := range a.Elems {
		if bm != nil && bm[k/8]&(1<<(k%8)) == 0 {
			continue
		}
		for (pos+4)%align != 0 {
			pos++
		}
		n := typlen
		body := pos
		if typlen < 0 {
			if pos+4 > len(b) {
				return nil, bad()
			}
			n = int(le.Uint32(b[pos:])>>2) - 4
			body = pos + 4
		}
		if n < 0 || body+n > len(b) {
			return nil, bad()
		}
		v, err := DecodeDisk(elem, b[body:body+n])
		if err != nil {
			return nil, err
		}
		a.Elems[k] = v
		pos = body + n
	}
	return a, nil
}

package types

import (
	"encoding/binary"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
)

// jsonb on disk: PostgreSQL 15's JsonbContainer (jsonb.h, convertToJsonb
// in jsonb_util.c), little-endian, without the varlena header the heap
// adds. A container is
//
//	+------------------+-------------------------+--------------------+
//	| header uint32    | JEntry uint32 x n       | children's data    |
//	| count | flags    | (objects: keys, then    | (each numeric and  |
//	|                  |  values: 2n entries)    |  container padded  |
//	+------------------+-------------------------+  to 4 bytes)       |
//	                                             +--------------------+
//
//	header    count in the low 28 bits; 0x10000000 scalar (a top-level
//	          scalar is a one-element array so flagged), 0x20000000
//	          object, 0x40000000 array
//	JEntry    bits 0-27 the child's length, or for every 32nd child
//	          (0x80000000 set) the end offset of its data; bits 28-30
//	          its type: 0 string, 1 numeric, 2 false, 3 true, 4 null,
//	          5 container
//	string    the bytes; numeric: padding to 4, then the numeric datum
//	          with a 4-byte varlena header; container: padding to 4,
//	          then the container
//
// Padding is counted from the start of the value, whose varlena header is
// 4 bytes when PostgreSQL builds it, so alignment within the value is the
// same whatever header the heap gives it.

const (
	jbCountMask    = 0x0FFFFFFF
	jbFScalar      = 0x10000000
	jbFObject      = 0x20000000
	jbFArray       = 0x40000000
	jeOffLenMask   = 0x0FFFFFFF
	jeTypeMask     = 0x70000000
	jeHasOff       = 0x80000000
	jeIsString     = 0x00000000
	jeIsNumeric    = 0x10000000
	jeIsBoolFalse  = 0x20000000
	jeIsBoolTrue   = 0x30000000
	jeIsNull       = 0x40000000
	jeIsContainer  = 0x50000000
	jbOffsetStride = 32
)

// jsonbEncoder builds a value's bytes; base is where the value starts
// in buf (alignment is counted from there).
type jsonbEncoder struct {
	buf  []byte
	base int
}

func (e *jsonbEncoder) pad() int {
	n := 0
	for (len(e.buf)-e.base)%4 != 0 {
		e.buf = append(e.buf, 0)
		n++
	}
	return n
}

// value appends v's data and returns its JEntry (length and type);
// scalar flags an array as a top-level scalar's.
func (e *jsonbEncoder) value(v *JsonValue, scalar bool) (uint32, error) {
	switch v.Kind {
	case JsonNull:
		return jeIsNull, nil
	case JsonBool:
		if v.Bool {
			return jeIsBoolTrue, nil
		}
		return jeIsBoolFalse, nil
	case JsonString:
		e.buf = append(e.buf, v.Str...)
		return uint32(len(v.Str)), nil
	case JsonNumber:
		if err := numCheckFormat(v.Num); err != nil {
			return 0, err
		}
		p := e.pad()
		num := appendNumericDisk(nil, v.Num)
		e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(len(num)+4)<<2)
		e.buf = append(e.buf, num...)
		return jeIsNumeric | uint32(p+4+len(num)), nil
	}
	start := len(e.buf)
	e.pad()
	var children []*JsonValue
	header := uint32(0)
	switch v.Kind {
	case JsonArray:
		header = uint32(len(v.Elems)) | jbFArray
		children = v.Elems
	case JsonObject:
		header = uint32(len(v.Pairs)) | jbFObject
		children = make([]*JsonValue, 0, 2*len(v.Pairs))
		for i := range v.Pairs {
			children = append(children, &JsonValue{Kind: JsonString, Str: v.Pairs[i].Key})
		}
		for i := range v.Pairs {
			children = append(children, v.Pairs[i].Value)
		}
	}
	if scalar {
		header |= jbFScalar
	}
	e.buf = binary.LittleEndian.AppendUint32(e.buf, header)
	entries := len(e.buf)
	e.buf = append(e.buf, make([]byte, 4*len(children))...)
	total := 0
	for i, c := range children {
		meta, err := e.value(c, false)
		if err != nil {
			return 0, err
		}
		total += int(meta & jeOffLenMask)
		if total > jeOffLenMask {
			return 0, pgerr.New(pgerr.ProgramLimitExceeded, "total size of jsonb array elements exceeds the maximum of %d bytes", jeOffLenMask)
		}
		if i%jbOffsetStride == 0 {
			meta = meta&jeTypeMask | uint32(total) | jeHasOff
		}
		binary.LittleEndian.PutUint32(e.buf[entries+4*i:], meta)
	}
	return jeIsContainer | uint32(len(e.buf)-start), nil
}

// appendJsonbDisk appends v in JsonbContainer form.
func appendJsonbDisk(buf []byte, v *JsonValue) ([]byte, error) {
	e := &jsonbEncoder{buf: buf, base: len(buf)}
	var err error
	if v.IsScalar() {
		_, err = e.value(&JsonValue{Kind: JsonArray, Elems: []*JsonValue{v}}, true)
	} else {
		_, err = e.value(v, false)
	}
	if err != nil {
		return nil, err
	}
	return e.buf, nil
}

// decodeJsonbDisk reads a JsonbContainer; ok is false for malformed bytes.
func decodeJsonbDisk(b []byte) (*JsonValue, bool) {
	v, scalar, ok := decodeJsonbContainer(b, 0)
	if !ok {
		return nil, false
	}
	if scalar {
		if v.Kind != JsonArray || len(v.Elems) != 1 {
			return nil, false
		}
		return v.Elems[0], true
	}
	return v, true
}

func decodeJsonbContainer(b []byte, depth int) (v *JsonValue, scalar, ok bool) {
	if len(b) < 4 || depth > maxJSONDepth {
		return nil, false, false
	}
	h := binary.LittleEndian.Uint32(b)
	n := int(h & jbCountMask)
	nent := n
	if h&jbFObject != 0 {
		nent = 2 * n
	} else if h&jbFArray == 0 {
		return nil, false, false
	}
	data := 4 + 4*nent
	if nent > len(b) || data > len(b) {
		return nil, false, false
	}
	children := make([]*JsonValue, nent)
	if h&jbFScalar != 0 && (h&jbFArray == 0 || n != 1) {
		return nil, false, false
	}
	off := 0
	for i := 0; i < nent; i++ {
		je := binary.LittleEndian.Uint32(b[4+4*i:])
		l := int(je & jeOffLenMask)
		if je&jeHasOff != 0 {
			l -= off
		}
		if l < 0 || data+off+l > len(b) {
			return nil, false, false
		}
		d := b[data+off : data+off+l]
		aligned := d
		if k := (4 - off%4) % 4; k <= len(d) {
			aligned = d[k:]
		}
		var c *JsonValue
		switch je & jeTypeMask {
		case jeIsString:
			c = &JsonValue{Kind: JsonString, Str: string(d)}
		case jeIsNull:
			c = &JsonValue{Kind: JsonNull}
		case jeIsBoolFalse, jeIsBoolTrue:
			c = &JsonValue{Kind: JsonBool, Bool: je&jeTypeMask == jeIsBoolTrue}
		case jeIsNumeric:
			num, ok := decodeVarlenaNumeric(aligned)
			if !ok {
				return nil, false, false
			}
			c = &JsonValue{Kind: JsonNumber, Num: num}
		case jeIsContainer:
			x, _, ok := decodeJsonbContainer(aligned, depth+1)
			if !ok {
				return nil, false, false
			}
			c = x
		default:
			return nil, false, false
		}
		children[i] = c
		off += l
	}
	if h&jbFObject != 0 {
		v = &JsonValue{Kind: JsonObject, Pairs: make([]JsonPair, n)}
		for i := 0; i < n; i++ {
			if children[i].Kind != JsonString {
				return nil, false, false
			}
			v.Pairs[i] = JsonPair{Key: children[i].Str, Value: children[n+i]}
		}
		return v, false, true
	}
	return &JsonValue{Kind: JsonArray, Elems: children}, h&jbFScalar != 0, true
}

// decodeVarlenaNumeric reads a numeric datum with its varlena header (4
// bytes, or 1 when PostgreSQL copied a packed one).
func decodeVarlenaNumeric(b []byte) (*apd.Decimal, bool) {
	if len(b) == 0 {
		return nil, false
	}
	n, h := int(b[0]>>1), 1
	if b[0]&1 == 0 {
		if len(b) < 4 {
			return nil, false
		}
		n, h = int(binary.LittleEndian.Uint32(b)>>2), 4
	}
	if n < h || n > len(b) {
		return nil, false
	}
	return decodeNumericDisk(b[h:n])
}

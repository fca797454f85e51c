package types

import "encoding/binary"

// The types beyond the scalar core (point.go, array.go) hook into the
// shared dispatch functions (TypLen, ParseText, AppendBinary, Compare, ...)
// through the functions of this file, each called first by its dispatcher.

// extType reports whether oid is point or an array type.
func extType(oid OID) bool {
	return oid == Point || IsArray(oid) || sysType(oid) || isTimeType(oid) || isJSONType(oid)
}

func extTypLen(oid OID) (int16, bool) {
	switch {
	case oid == Name:
		return NameDataLen, true
	case oid == Char:
		return 1, true
	case sysType(oid):
		return 4, true
	case oid == Point:
		return 16, true
	case oid == Time:
		return 8, true
	case oid == TimeTZ:
		return 12, true
	case IsArray(oid), isJSONType(oid):
		return -1, true
	}
	return 0, false
}

func extTypAlign(oid OID) (byte, bool) {
	switch {
	case oid == Name || oid == Char:
		return 'c', true
	case sysType(oid):
		return 'i', true
	case oid == Point || isTimeType(oid):
		return 'd', true
	case isJSONType(oid):
		return 'i', true
	case IsArray(oid):
		if TypAlign(ElemOID(oid)) == 'd' {
			return 'd', true
		}
		return 'i', true
	}
	return 0, false
}

func extCategory(oid OID) (byte, bool) {
	switch {
	case oid == Name:
		return 'S', true
	case oid == Char:
		return 'Z', true
	case sysType(oid):
		return 'N', true
	case oid == Point:
		return 'G', true
	case isTimeType(oid):
		return 'D', true
	case isJSONType(oid):
		return 'U', true
	case IsArray(oid):
		return 'A', true
	}
	return 0, false
}

func extTypName(oid OID) (string, bool) {
	switch {
	case sysType(oid):
		return sysTypName(oid), true
	case oid == Point:
		return "point", true
	case oid == Time:
		return "time", true
	case oid == TimeTZ:
		return "timetz", true
	case oid == JSON:
		return "json", true
	case oid == JSONB:
		return "jsonb", true
	case IsArray(oid):
		return "_" + TypName(ElemOID(oid)), true
	}
	return "", false
}

// extName is format_type of an array: its element type's name (with the
// typmod, which an array type shares with its elements) and [].
func extName(t T) (string, bool) {
	if t.OID == Char {
		return `"char"`, true
	}
	if IsArray(t.OID) {
		return ElemType(t).Name() + "[]", true
	}
	if isTimeType(t.OID) {
		return timeName(t), true
	}
	return "", false
}

func appendExtText(buf []byte, t T, d Datum, cv Conv) ([]byte, bool) {
	if t.OID == Char {
		if s, ok := d.(string); ok {
			return appendCharOut(buf, s), true
		}
	}
	if out, ok := appendSysText(buf, d); ok {
		return out, true
	}
	switch v := d.(type) {
	case PointValue:
		return appendPoint(buf, v), true
	case TimeValue:
		return appendTimeOfDay(buf, int64(v)), true
	case TimeTZValue:
		return appendTimeTZ(buf, v), true
	case *JsonValue:
		return AppendJsonb(buf, v), true
	case *Array:
		return appendArrayText(buf, ElemType(t), v, cv), true
	}
	return nil, false
}

func parseExtText(t T, s string, cv Conv) (Datum, error) {
	if sysType(t.OID) {
		return parseSysText(t, s)
	}
	if t.OID == Point {
		return parsePoint(s)
	}
	switch t.OID {
	case Time:
		return parseTime(t, s, cv)
	case TimeTZ:
		return parseTimeTZ(t, s, cv)
	}
	if isJSONType(t.OID) {
		return parseJSONType(t, s)
	}
	return parseArray(t, s, cv)
}

func appendExtBinary(buf []byte, t T, d Datum) ([]byte, error) {
	if isJSONType(t.OID) {
		return appendJSONTypeBinary(buf, t, d)
	}
	if sysType(t.OID) {
		return appendSysBytes(buf, binary.BigEndian, false, t, d)
	}
	if isTimeType(t.OID) {
		return appendTimeBytes(buf, binary.BigEndian, t, d)
	}
	if t.OID == Point {
		p, err := asPoint(t, d)
		if err != nil {
			return nil, err
		}
		return appendPointBytes(buf, binary.BigEndian, p), nil
	}
	a, err := asArray(t, d)
	if err != nil {
		return nil, err
	}
	return appendArrayBinary(buf, ElemType(t), a)
}

func decodeExtBinary(t T, b []byte) (Datum, error) {
	if isJSONType(t.OID) {
		return decodeJSONTypeBinary(t, b)
	}
	if sysType(t.OID) {
		v, ok := decodeSysBytes(binary.BigEndian, false, t, b)
		if !ok {
			return nil, errBinaryFormat()
		}
		return v, nil
	}
	if isTimeType(t.OID) {
		v, ok := decodeTimeBytes(binary.BigEndian, t, b)
		if !ok {
			return nil, errBinaryFormat()
		}
		return v, nil
	}
	if t.OID == Point {
		v, ok := decodePointBytes(binary.BigEndian, b)
		if !ok {
			return nil, errBinaryFormat()
		}
		return v, nil
	}
	return decodeArrayBinary(t, b)
}

func appendExtDisk(buf []byte, t T, d Datum) ([]byte, error) {
	if isJSONType(t.OID) {
		return appendJSONTypeDisk(buf, t, d)
	}
	if sysType(t.OID) {
		return appendSysBytes(buf, binary.LittleEndian, true, t, d)
	}
	if isTimeType(t.OID) {
		return appendTimeBytes(buf, binary.LittleEndian, t, d)
	}
	if t.OID == Point {
		p, err := asPoint(t, d)
		if err != nil {
			return nil, err
		}
		return appendPointBytes(buf, binary.LittleEndian, p), nil
	}
	a, err := asArray(t, d)
	if err != nil {
		return nil, err
	}
	return appendArrayDisk(buf, ElemType(t), a)
}

func decodeExtDisk(t T, b []byte) (Datum, error) {
	if isJSONType(t.OID) {
		return decodeJSONTypeDisk(t, b)
	}
	if sysType(t.OID) {
		v, ok := decodeSysBytes(binary.LittleEndian, true, t, b)
		if !ok {
			return nil, errCorrupt(t, len(b))
		}
		return v, nil
	}
	if isTimeType(t.OID) {
		v, ok := decodeTimeBytes(binary.LittleEndian, t, b)
		if !ok {
			return nil, errCorrupt(t, len(b))
		}
		return v, nil
	}
	if t.OID == Point {
		v, ok := decodePointBytes(binary.LittleEndian, b)
		if !ok {
			return nil, errCorrupt(t, len(b))
		}
		return v, nil
	}
	return decodeArrayDisk(t, b)
}

// compareExt orders points (by x, then y: PostgreSQL has no btree order
// for point; this one only keeps sorting and grouping deterministic) and
// arrays (btarraycmp).
func compareExt(t T, a, b Datum) (int, bool) {
	if c, ok := compareSys(a, b); ok {
		return c, true
	}
	if c, ok := compareTime(a, b); ok {
		return c, true
	}
	if c, ok := compareJSONType(a, b); ok {
		return c, true
	}
	switch x := a.(type) {
	case PointValue:
		if y, ok := b.(PointValue); ok {
			if c := cmpFloat(x.X, y.X); c != 0 {
				return c, true
			}
			return cmpFloat(x.Y, y.Y), true
		}
	case *Array:
		if y, ok := b.(*Array); ok {
			return compareArrays(ElemType(t), x, y), true
		}
	}
	return 0, false
}

func appendExtKey(buf []byte, t T, d Datum, f KeyFormat) ([]byte, bool) {
	if out, ok := appendSysKey(buf, d, f); ok {
		return out, true
	}
	if out, ok := appendTimeKey(buf, d); ok {
		return out, true
	}
	switch v := d.(type) {
	case *JsonValue:
		return appendJsonbKey(buf, v), true
	case PointValue:
		buf = appendKey(buf, TFloat8, v.X, f)
		return appendKey(buf, TFloat8, v.Y, f), true
	case *Array:
		return appendArrayKey(buf, ElemType(t), v, f), true
	}
	return nil, false
}

// extCastContext is pg_cast for point and arrays: an array converts to
// another array as its elements convert; both convert to and from the
// string types through I/O (explicitly from, by assignment to).
func extCastContext(from, to OID) (CastContext, bool) {
	if !extType(from) && !extType(to) {
		return CastNone, false
	}
	if c, ok := sysCastContext(from, to); ok {
		return c, true
	}
	if c, ok := timeCastContext(from, to); ok {
		return c, true
	}
	if c, ok := jsonCastContext(from, to); ok {
		return c, true
	}
	switch {
	case IsArray(from) && IsArray(to):
		return CastContextOf(ElemOID(from), ElemOID(to)), true
	case isStrCat(to) && extType(from):
		return CastAssignment, true
	case isStrCat(from) && extType(to):
		return CastExplicit, true
	}
	return CastNone, true
}

package types

import (
	"cmp"
	"encoding/binary"
	"strconv"
	"strings"

	"minipg/pgerr"
)

// The types of PostgreSQL's system catalogs: name, "char", oid and the OID
// alias types regclass, regtype, regnamespace and regrole (oid itself is
// declared with the other system types in sys.go).
//
//	name          string; on disk NAMEDATALEN (64) bytes NUL-padded, align c
//	"char"        string of at most one byte; on disk 1 byte
//	oid           int64 in 0..2^32-1; 4 bytes, align i
//	reg*          RegName: the OID and the name it prints as (the catalog
//	              lookup is the executor's: this package has no catalog)
//
// name and "char" are string types here (they cast to and from text
// implicitly); oid converts implicitly from the integer types and to and
// from the reg* types.
const (
	Char         OID = 18
	Name         OID = 19
	RegProc      OID = 24
	RegClass     OID = 2205
	RegType      OID = 2206
	RegNamespace OID = 4089
	RegRole      OID = 4096
)

// Ready-made system catalog types.
var (
	TName         = T{Name, -1}
	TChar         = T{Char, -1}
	TRegClass     = T{RegClass, -1}
	TRegType      = T{RegType, -1}
	TRegNamespace = T{RegNamespace, -1}
	TRegRole      = T{RegRole, -1}
)

// RegName is a value of a reg* type: an OID with the name it prints as.
type RegName struct {
	OID  uint32
	Name string
}

// NameDataLen is NAMEDATALEN, the on-disk size of a name.
const NameDataLen = 64

func init() {
	for e, a := range map[OID]OID{Char: 1002, Name: 1003, Oid: 1028, RegClass: 2210, RegType: 2211} {
		addArrayType(e, a)
	}
}

// IsReg reports whether oid is an OID alias type (regclass, ...).
func IsReg(oid OID) bool {
	switch oid {
	case RegClass, RegType, RegNamespace, RegRole, RegProc:
		return true
	}
	return false
}

func sysType(oid OID) bool { return oid == Name || oid == Char || oid == Oid || IsReg(oid) }

func sysTypName(oid OID) string {
	switch oid {
	case Char:
		return "char"
	case Name:
		return "name"
	case Oid:
		return "oid"
	case RegProc:
		return "regproc"
	case RegClass:
		return "regclass"
	case RegType:
		return "regtype"
	case RegNamespace:
		return "regnamespace"
	case RegRole:
		return "regrole"
	}
	return ""
}

// OIDValue returns the OID held by an oid or reg* datum.
func OIDValue(d Datum) (uint32, bool) {
	switch v := d.(type) {
	case int64:
		return uint32(v), v >= 0 && v <= 1<<32-1
	case RegName:
		return v.OID, true
	}
	return 0, false
}

// ParseOID is oidin: a decimal number; negative values down to -2^31 wrap
// as PostgreSQL's strtoul does.
func ParseOID(s string) (int64, error) {
	t := strings.TrimSpace(s)
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || t == "" {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type oid", s)
		}
		return 0, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type oid: \"%s\"", s)
	}
	if v < -(1<<31) || v > 1<<32-1 {
		return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type oid", s)
	}
	if v < 0 {
		v += 1 << 32
	}
	return v, nil
}

func parseSysText(t T, s string) (Datum, error) {
	switch t.OID {
	case Name:
		if err := checkEncoding(s); err != nil {
			return nil, err
		}
		return s[:charClipBytes(s, NameDataLen-1)], nil
	case Char:
		return charIn(s), nil
	case Oid:
		return ParseOID(s)
	}
	// reg* input needs the catalog; only a number is understood here.
	v, err := ParseOID(s)
	if err != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "input of type %s needs the catalog", TypName(t.OID))
	}
	return RegName{OID: uint32(v), Name: strconv.FormatInt(v, 10)}, nil
}

// charClipBytes is the longest prefix of s of at most n bytes that ends on a
// character boundary.
func charClipBytes(s string, n int) int {
	if len(s) <= n {
		return len(s)
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return n
}

func appendSysText(buf []byte, d Datum) ([]byte, bool) {
	if v, ok := d.(RegName); ok {
		return append(buf, v.Name...), true
	}
	return nil, false
}

func sysOIDBytes(t T, d Datum) (uint32, error) {
	v, ok := OIDValue(d)
	if !ok {
		return 0, badDatum(t, d)
	}
	return v, nil
}

func appendSysBytes(buf []byte, order binary.AppendByteOrder, disk bool, t T, d Datum) ([]byte, error) {
	switch t.OID {
	case Name, Char:
		s, err := asString(t, d)
		if err != nil {
			return nil, err
		}
		if disk && t.OID == Name {
			var pad [NameDataLen]byte
			copy(pad[:NameDataLen-1], s)
			return append(buf, pad[:]...), nil
		}
		if disk && s == "" {
			return append(buf, 0), nil
		}
		return append(buf, s...), nil
	}
	v, err := sysOIDBytes(t, d)
	if err != nil {
		return nil, err
	}
	return order.AppendUint32(buf, v), nil
}

func decodeSysBytes(order binary.ByteOrder, disk bool, t T, b []byte) (Datum, bool) {
	switch t.OID {
	case Name, Char:
		s := string(b)
		if disk {
			if i := strings.IndexByte(s, 0); i >= 0 {
				s = s[:i]
			}
		}
		return s, true
	}
	if len(b) != 4 {
		return nil, false
	}
	v := order.Uint32(b)
	if IsReg(t.OID) {
		return RegName{OID: v, Name: strconv.FormatUint(uint64(v), 10)}, true
	}
	return int64(v), true
}

func compareSys(a, b Datum) (int, bool) {
	x, ok := a.(RegName)
	if !ok {
		return 0, false
	}
	if y, ok := b.(RegName); ok {
		return cmp.Compare(x.OID, y.OID), true
	}
	return 0, false
}

func appendSysKey(buf []byte, d Datum, f KeyFormat) ([]byte, bool) {
	if v, ok := d.(RegName); ok {
		return appendIntKey(buf, int64(v.OID), f), true
	}
	return nil, false
}

// sysCastContext is pg_cast for the catalog types: integers to oid and the
// reg* types implicitly, oid and reg* to int4 and int8 by assignment, oid
// and each reg* type both ways implicitly (no cast between two reg*
// types); name with text, varchar and bpchar as pg_cast pairs them and with
// every other type through I/O (to name by assignment, from name
// explicitly, name being a string type); "char" as charCastContext.
func sysCastContext(from, to OID) (CastContext, bool) {
	fo, to2 := from == Oid || IsReg(from), to == Oid || IsReg(to)
	switch {
	case fo && to2:
		if from == Oid || to == Oid {
			return CastImplicit, true
		}
		return CastNone, true
	case isInt(from) && to2:
		return CastImplicit, true
	case fo && (to == Int4 || to == Int8):
		return CastAssignment, true
	case from == Char || to == Char:
		return charCastContext(from, to), true
	case from == Name && isStrCat(to):
		if to == Text {
			return CastImplicit, true
		}
		return CastAssignment, true
	case to == Name && isStrCat(from):
		return CastImplicit, true
	case to == RegClass && (from == Text || from == Varchar):
		// pg_cast's text -> regclass and varchar -> regclass are implicit
		// (pg_relation_size('t'::text) resolves), unlike the other reg
		// types' I/O casts.
		return CastImplicit, true
	case isStrCat(to) && Known(from) && from != Void:
		return CastAssignment, true
	case isStrCat(from) && Known(to) && to != Void && to != Unknown:
		return CastExplicit, true
	}
	return CastNone, false
}

// coerceSys converts between the catalog types and others (reg* targets
// from a number get their number as name: the executor names them).
func coerceSys(d Datum, from, to T) (Datum, bool, error) {
	if !sysType(from.OID) && !sysType(to.OID) {
		return nil, false, nil
	}
	switch {
	case IsReg(from.OID) && isString(to.OID):
		return d.(RegName).Name, true, nil
	case (from.OID == Oid || IsReg(from.OID)) && to.OID == Oid:
		v, ok := OIDValue(d)
		if !ok {
			return nil, true, badDatum(from, d)
		}
		return int64(v), true, nil
	case (from.OID == Oid || IsReg(from.OID) || isInt(from.OID)) && IsReg(to.OID):
		v, err := asIntOrReg(from, d)
		if err != nil {
			return nil, true, err
		}
		if from.OID == Int8 && (v < 0 || v > 1<<32-1) {
			return nil, true, errOIDRange()
		}
		return RegName{OID: uint32(v), Name: strconv.FormatInt(int64(uint32(v)), 10)}, true, nil
	case isInt(from.OID) && to.OID == Oid:
		v, err := asInt(from, d)
		if err != nil {
			return nil, true, err
		}
		// int8 to oid is checked (oid(int8)); int2 and int4 are
		// binary-coercible, so -1 is 4294967295.
		if from.OID == Int8 && (v < 0 || v > 1<<32-1) {
			return nil, true, errOIDRange()
		}
		return int64(uint32(v)), true, nil
	case (from.OID == Oid || IsReg(from.OID)) && isInt(to.OID):
		v, err := asIntOrReg(from, d)
		if err != nil {
			return nil, true, err
		}
		if to.OID == Int4 {
			return int64(int32(uint32(v))), true, nil
		}
		return v, true, nil
	}
	return nil, false, nil
}

func errOIDRange() error { return pgerr.New(pgerr.NumericValueOutOfRange, "OID out of range") }

func asIntOrReg(t T, d Datum) (int64, error) {
	if r, ok := d.(RegName); ok {
		return int64(r.OID), nil
	}
	return asInt(t, d)
}

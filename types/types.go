package types

import (
	"minipg/pgerr"
)

// OID is a pg_type oid.
type OID uint32

// pg_type oids of the supported types.
const (
	Invalid     OID = 0
	Bool        OID = 16
	Int8        OID = 20
	Int2        OID = 21
	Int4        OID = 23
	Text        OID = 25
	TID         OID = 27
	Float4      OID = 700
	Float8      OID = 701
	Unknown     OID = 705
	Bpchar      OID = 1042
	Varchar     OID = 1043
	Date        OID = 1082
	Timestamp   OID = 1114
	TimestampTZ OID = 1184
	Interval    OID = 1186
	Numeric     OID = 1700
	Void        OID = 2278
)

// VarHdrSz is VARHDRSZ, the offset of typmods of length-limited types.
const VarHdrSz = 4

// T is a type with its modifier. Typmod -1 means none; varchar(n) and char(n)
// have n+4; numeric(p,s) has ((p<<16)|s)+4, as in PostgreSQL.
type T struct {
	OID    OID
	Typmod int32
}

// Datum is one value; see the package comment for the representation.
type Datum = any

// Ready-made types without modifiers.
var (
	TBool        = T{Bool, -1}
	TInt2        = T{Int2, -1}
	TInt4        = T{Int4, -1}
	TInt8        = T{Int8, -1}
	TFloat4      = T{Float4, -1}
	TFloat8      = T{Float8, -1}
	TNumeric     = T{Numeric, -1}
	TText        = T{Text, -1}
	TVarchar     = T{Varchar, -1}
	TBpchar      = T{Bpchar, -1}
	TTimestamp   = T{Timestamp, -1}
	TTimestampTZ = T{TimestampTZ, -1}
	TInterval    = T{Interval, -1}
	TDate        = T{Date, -1}
	TTID         = T{TID, -1}
	TUnknown     = T{Unknown, -1}
	TVoid        = T{Void, -1}
)

// NumericT returns numeric(p,s). It does not validate p and s; see TypeByName.
func NumericT(p, s int) T { return T{Numeric, int32((p<<16)|(s&0xffff)) + VarHdrSz} }

// VarcharT returns character varying(n).
func VarcharT(n int) T { return T{Varchar, int32(n) + VarHdrSz} }

// BpcharT returns character(n).
func BpcharT(n int) T { return T{Bpchar, int32(n) + VarHdrSz} }

// TimestampTZT returns timestamp(p) with time zone (0 <= p <= 6).
func TimestampTZT(p int) T { return T{TimestampTZ, int32(p)} }

// TimestampT returns timestamp(p) (0 <= p <= 6).
func TimestampT(p int) T { return T{Timestamp, int32(p)} }

// NumericPrecScale returns numeric(p,s)'s precision and scale; ok is false
// when t has no typmod.
func (t T) NumericPrecScale() (p, s int, ok bool) {
	if t.OID != Numeric || t.Typmod < VarHdrSz {
		return 0, 0, false
	}
	m := t.Typmod - VarHdrSz
	return int(m>>16) & 0xffff, int(int16(m & 0xffff)), true
}

// CharLen returns n of varchar(n) / char(n); ok is false when t has no typmod.
func (t T) CharLen() (n int, ok bool) {
	if (t.OID != Varchar && t.OID != Bpchar) || t.Typmod < VarHdrSz {
		return 0, false
	}
	return int(t.Typmod - VarHdrSz), true
}

// Known reports whether minipg supports oid.
func Known(oid OID) bool {
	if extType(oid) {
		return true
	}
	switch oid {
	case Bool, Int8, Int2, Int4, Text, TID, Float4, Float8, Unknown, Bpchar, Varchar, Date, Timestamp, Numeric, Void, Bytea, Oid, Xid, Cid, PgLSN, TimestampTZ, Interval:
		return true
	}
	return false
}

// TypLen is pg_type.typlen: >0 fixed length, -1 varlena, -2 C string.
func TypLen(oid OID) int16 {
	if n, ok := extTypLen(oid); ok {
		return n
	}
	switch oid {
	case Bool:
		return 1
	case Int2:
		return 2
	case Int4, Float4, Date, Oid, Xid, Cid:
		return 4
	case Int8, Float8, Timestamp, PgLSN, TimestampTZ:
		return 8
	case Interval:
		return 16
	case TID:
		return 6
	case Unknown:
		return -2
	case Void:
		return 4
	}
	return -1
}

// TypAlign is pg_type.typalign: 'c', 's', 'i' or 'd'.
func TypAlign(oid OID) byte {
	if a, ok := extTypAlign(oid); ok {
		return a
	}
	switch oid {
	case Bool, Unknown:
		return 'c'
	case Int2, TID:
		return 's'
	case Int8, Float8, Timestamp, PgLSN, TimestampTZ, Interval:
		return 'd'
	}
	return 'i'
}

// TypByVal is pg_type.typbyval.
func TypByVal(oid OID) bool {
	switch oid {
	case Bool, Int2, Int4, Int8, Float4, Float8, Timestamp, Date, Void, Oid, Xid, Cid, PgLSN, TimestampTZ, Char:
		return true
	case Time:
		return true
	}
	return IsReg(oid)
}

// Len is the type's typlen (for a heap attribute descriptor).
func (t T) Len() int16 { return TypLen(t.OID) }

// Align is the type's typalign.
func (t T) Align() byte { return TypAlign(t.OID) }

// Category is pg_type.typcategory: 'B' bool, 'N' numeric, 'S' string,
// 'D' datetime, 'U' user/other, 'X' unknown, 'P' pseudo.
func (t T) Category() byte { return Category(t.OID) }

// Category is pg_type.typcategory of oid.
func Category(oid OID) byte {
	if c, ok := extCategory(oid); ok {
		return c
	}
	switch oid {
	case Bool:
		return 'B'
	case Int2, Int4, Int8, Float4, Float8, Numeric, Oid:
		return 'N'
	case Text, Varchar, Bpchar:
		return 'S'
	case Date, Timestamp, TimestampTZ:
		return 'D'
	case Interval:
		return 'T'
	case Unknown:
		return 'X'
	case Void:
		return 'P'
	}
	return 'U'
}

// IsPreferred is pg_type.typispreferred.
func IsPreferred(oid OID) bool {
	switch oid {
	case Bool, Float8, Text, TimestampTZ, Interval, Oid:
		return true
	}
	return false
}

// errUnsupported is returned for an OID this package does not know.
func errUnsupported(t T) error {
	return pgerr.New(pgerr.FeatureNotSupported, "type with OID %d is not supported", t.OID)
}

package types

import "github.com/cockroachdb/apd/v3"

var _ = apd.New




// EncodeBinary is the type's send function.
func EncodeBinary(t T, d Datum) ([]byte, error) { return AppendBinary(nil, t, d) }

// AppendBinary appends EncodeBinary(t, d) to buf.
func AppendBinary(buf []byte, t T, d Datum) ([]byte, error) { panic("unimplemented") }

// DecodeBinary is the type's receive function (applies t's typmod).
func DecodeBinary(t T, b []byte) (Datum, error) { panic("unimplemented") }

// EncodeDisk returns the bytes of d as they sit in a PostgreSQL heap tuple:
// fixed-length types little-endian, exactly Len() bytes; varlena types their
// content without the varlena header (the heap adds it).
func EncodeDisk(t T, d Datum) ([]byte, error) { return AppendDisk(nil, t, d) }

// AppendDisk appends EncodeDisk(t, d) to buf.
func AppendDisk(buf []byte, t T, d Datum) ([]byte, error) { panic("unimplemented") }

// DecodeDisk is EncodeDisk's inverse. Malformed bytes give a DataCorrupted error.
func DecodeDisk(t T, b []byte) (Datum, error) { panic("unimplemented") }

// Compare orders two non-NULL values of type t: -1, 0, +1 as PostgreSQL's
// btree comparison (NaN sorts above all floats/numerics; bpchar ignores
// trailing blanks; text in C collation).
func Compare(t T, a, b Datum) int { panic("unimplemented") }

// Equal reports Compare(t, a, b) == 0.
func Equal(t T, a, b Datum) bool { return Compare(t, a, b) == 0 }

// Hash hashes d so that Equal values hash alike.
func Hash(t T, d Datum) uint64 { panic("unimplemented") }

// AppendKey appends an order-preserving encoding of d (nil allowed: sorts
// after every value, as NULLS LAST): bytes.Compare of two keys of the same
// type equals Compare of the values. Keys can be concatenated for
// multi-column indexes.
func AppendKey(buf []byte, t T, d Datum) []byte { panic("unimplemented") }

// Coerce converts d from type from to type to, as an assignment cast
// (explicit false) or an explicit CAST (explicit true), enforcing to's
// typmod. Errors: 42846 when no cast exists, 22001/22003/22P02 on data.
func Coerce(d Datum, from, to T, explicit bool) (Datum, error) { panic("unimplemented") }

// CastContext is pg_cast.castcontext.
type CastContext byte

// Cast contexts; CastNone means no cast exists.
const (
	CastNone       CastContext = 0
	CastExplicit   CastContext = 'e'
	CastAssignment CastContext = 'a'
	CastImplicit   CastContext = 'i'
)

// CastContextOf returns the least-restrictive context in which from can be
// cast to to (CastImplicit for the same type).
func CastContextOf(from, to OID) CastContext { panic("unimplemented") }

// Arith applies a binary arithmetic operator (+ - * / %) to two non-NULL
// values of type t (int2/int4/int8/float4/float8/numeric) with PostgreSQL's
// result and errors (22003 "integer out of range", 22012 "division by zero").
func Arith(op byte, t T, a, b Datum) (Datum, error) { panic("unimplemented") }

// Negate is unary minus.
func Negate(t T, a Datum) (Datum, error) { panic("unimplemented") }

package types

import (
	"encoding/binary"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/storage/page"
)

// Binary wire format (typsend/typreceive), all big-endian:
//
//	bool       1 byte, 0 or 1
//	int2/4/8   2/4/8 bytes two's complement
//	float4/8   IEEE 754 bits
//	numeric    int16 ndigits | int16 weight | uint16 sign | int16 dscale | ndigits x int16 (base 10000)
//	           sign 0x0000 +, 0x4000 -, 0xC000 NaN, 0xD000 +Infinity, 0xF000 -Infinity
//	text, varchar, bpchar, unknown   the UTF-8 bytes
//	timestamp  int64 microseconds since 2000-01-01 00:00:00
//	date       int32 days since 2000-01-01
//	tid        uint32 block | uint16 offset

// Numeric sign words shared by the wire and disk formats.
const (
	numericPos  = 0x0000
	numericNeg  = 0x4000
	numericNaN  = 0xC000
	numericPInf = 0xD000
	numericNInf = 0xF000
)

// EncodeBinary is the type's send function. d must not be nil.
func EncodeBinary(t T, d Datum) ([]byte, error) { return AppendBinary(nil, t, d) }

// AppendBinary appends EncodeBinary(t, d) to buf.
func AppendBinary(buf []byte, t T, d Datum) ([]byte, error) {
	if extType(t.OID) {
		return appendExtBinary(buf, t, d)
	}
	if out, ok, err := appendScalar(buf, binary.BigEndian, t, d); ok {
		return out, err
	}
	switch t.OID {
	case Numeric:
		v, err := asNumeric(t, d)
		if err != nil {
			return nil, err
		}
		return appendNumericBinary(buf, v), nil
	case TID:
		v, err := asTID(t, d)
		if err != nil {
			return nil, err
		}
		buf = binary.BigEndian.AppendUint32(buf, v.Block)
		return binary.BigEndian.AppendUint16(buf, v.Offset), nil
	case Void:
		return buf, nil
	case Bytea, Oid, Xid, Cid, PgLSN:
		return appendSysBinary(buf, binary.BigEndian, t, d)
	}
	return nil, errUnsupported(t)
}

func appendNumericBinary(buf []byte, v *apd.Decimal) []byte {
	switch v.Form {
	case apd.NaN, apd.NaNSignaling:
		return append(buf, 0, 0, 0, 0, 0xC0, 0, 0, 0)
	case apd.Infinite:
		if v.Negative {
			return append(buf, 0, 0, 0, 0, 0xF0, 0, 0, 0x20)
		}
		// PostgreSQL reads the dscale of a special value through the short
		// header's dscale bits, which give 32 for the infinities.
		return append(buf, 0, 0, 0, 0, 0xD0, 0, 0, 0x20)
	}
	neg, weight, dscale, digits := numToPG(v)
	buf = binary.BigEndian.AppendUint16(buf, uint16(len(digits)))
	buf = binary.BigEndian.AppendUint16(buf, uint16(int16(weight)))
	sign := uint16(numericPos)
	if neg {
		sign = numericNeg
	}
	buf = binary.BigEndian.AppendUint16(buf, sign)
	buf = binary.BigEndian.AppendUint16(buf, uint16(dscale))
	for _, g := range digits {
		buf = binary.BigEndian.AppendUint16(buf, uint16(g))
	}
	return buf
}

func errBinaryFormat() error {
	return pgerr.New(pgerr.InvalidBinaryRepresentation, "incorrect binary data format")
}

// DecodeBinary is the type's receive function; it applies t's typmod.
// Malformed input gives 22P03 (22008 for out-of-range dates and times).
func DecodeBinary(t T, b []byte) (Datum, error) {
	if extType(t.OID) {
		return decodeExtBinary(t, b)
	}
	fixed := func(n int) error {
		if len(b) != n {
			return errBinaryFormat()
		}
		return nil
	}
	switch t.OID {
	case Bool, Int2, Int4, Int8, Float4, Float8:
		if err := fixed(int(t.Len())); err != nil {
			return nil, err
		}
		return decodeFixed(binary.BigEndian, t.OID, b), nil
	case Numeric:
		v, err := decodeNumericBinary(b)
		if err != nil {
			return nil, err
		}
		return numApplyTypmod(v, t.Typmod)
	case Text, Varchar, Bpchar, Unknown:
		s := string(b)
		if !utf8.ValidString(s) || containsNUL(b) {
			if err := checkEncoding(s); err != nil {
				return nil, err
			}
		}
		if t.OID == Varchar || t.OID == Bpchar {
			return charApplyTypmod(s, t, false)
		}
		return s, nil
	case Interval:
		if err := fixed(16); err != nil {
			return nil, err
		}
		return decodeInterval16(binary.BigEndian, b), nil
	case Timestamp, TimestampTZ:
		if err := fixed(8); err != nil {
			return nil, err
		}
		us := int64(binary.BigEndian.Uint64(b))
		if timestampFinite(us) && !timestampValid(us) {
			return nil, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range")
		}
		return timestampApplyTypmod(MicrosToTimestamp(us), t.Typmod), nil
	case Date:
		if err := fixed(4); err != nil {
			return nil, err
		}
		d := int32(binary.BigEndian.Uint32(b))
		if dateFinite(d) && !dateValid(d) {
			return nil, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range")
		}
		return DaysToDate(d), nil
	case TID:
		if err := fixed(6); err != nil {
			return nil, err
		}
		return page.TID{Block: binary.BigEndian.Uint32(b), Offset: binary.BigEndian.Uint16(b[4:])}, nil
	case Void:
		return nil, nil
	case Bytea, Oid, Xid, Cid, PgLSN:
		return decodeSys(t, binary.BigEndian, b)
	}
	return nil, errUnsupported(t)
}

func containsNUL(b []byte) bool {
	for _, c := range b {
		if c == 0 {
			return true
		}
	}
	return false
}

// decodeNumericBinary is numeric_recv without the typmod.
func decodeNumericBinary(b []byte) (*apd.Decimal, error) {
	if len(b) < 8 {
		return nil, errBinaryFormat()
	}
	n := int(binary.BigEndian.Uint16(b))
	weight := int(int16(binary.BigEndian.Uint16(b[2:])))
	sign := binary.BigEndian.Uint16(b[4:])
	dscale := int(binary.BigEndian.Uint16(b[6:]))
	if len(b) != 8+2*n {
		return nil, errBinaryFormat()
	}
	switch sign {
	case numericPos, numericNeg:
	case numericNaN:
		return NumericNaN(), nil
	case numericPInf:
		return &apd.Decimal{Form: apd.Infinite}, nil
	case numericNInf:
		return &apd.Decimal{Form: apd.Infinite, Negative: true}, nil
	default:
		return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid sign in external \"numeric\" value")
	}
	if dscale&numericDscaleMax != dscale {
		return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid scale in external \"numeric\" value")
	}
	digits := make([]int16, n)
	for i := range digits {
		g := int16(binary.BigEndian.Uint16(b[8+2*i:]))
		if g < 0 || g >= 10000 {
			return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid digit in external \"numeric\" value")
		}
		digits[i] = g
	}
	// Leading zero digits do not count towards the weight check.
	for len(digits) > 0 && digits[0] == 0 {
		digits = digits[1:]
		weight--
	}
	if len(digits) > 0 && weight > numericWeightMax {
		return nil, errNumericOverflowFormat()
	}
	v := numFromPG(sign == numericNeg, weight, dscale, digits)
	if err := numCheckFormat(v); err != nil {
		return nil, err
	}
	return v, nil
}

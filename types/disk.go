package types

import (
	"encoding/binary"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/storage/page"
)

// On-disk bytes of one attribute inside a heap tuple, as PostgreSQL 15 on
// x86-64 writes them (little-endian). Fixed-length types are exactly Len()
// bytes; varlena types are given without their varlena header, which the
// heap adds (1-byte short header when it fits, else 4 bytes).
//
//	bool       1 byte                          typalign c
//	int2       2 bytes                         s
//	int4       4 bytes                         i
//	int8       8 bytes                         d
//	float4     4 bytes IEEE                    i
//	float8     8 bytes IEEE                    d
//	timestamp  int64 µs since 2000-01-01       d
//	timestamptz  the same (the instant, UTC)   d
//	interval   16 bytes                        d
//	           +----------------+--------+--------+
//	           | time int64 µs  | day    | month  |
//	           |                | int32  | int32  |
//	           +----------------+--------+--------+
//	date       int32 days since 2000-01-01     i
//	tid        ItemPointerData, 6 bytes        s
//	           +---------+---------+-----------+
//	           | bi_hi   | bi_lo   | ip_posid  |   block = bi_hi<<16 | bi_lo
//	           | uint16  | uint16  | uint16    |
//	           +---------+---------+-----------+
//	text, varchar, bpchar: the UTF-8 bytes (bpchar blank-padded)
//	numeric    NumericData without vl_len_:
//	  short (NUMERIC_SHORT, when dscale <= 63 and -64 <= weight <= 63):
//	           +--------------------------------------------+------------------+
//	           | n_header uint16                            | digits int16 ... |
//	           | 1 0 | sign | dscale (6 bits) | wsign | weight (6 bits)        |
//	           | bit15..14 13   12..7           6       5..0                  |
//	           +--------------------------------------------+------------------+
//	  long:    | n_sign_dscale uint16 (sign 0x0000/0x4000 | dscale 14 bits)
//	           | n_weight int16 | digits int16 ...
//	  special: n_header only: 0xC000 NaN, 0xD000 +Infinity, 0xF000 -Infinity
//	  digits are base 10000, leading and trailing zero digits stripped; zero
//	  has no digits, weight 0 and sign +.

const (
	numericShort            = 0x8000
	numericShortSignMask    = 0x2000
	numericShortDscaleMask  = 0x1F80
	numericShortDscaleShift = 7
	numericShortDscaleMax   = numericShortDscaleMask >> numericShortDscaleShift
	numericShortWeightSign  = 0x0040
	numericShortWeightMask  = 0x003F
	numericShortWeightMax   = numericShortWeightMask
	numericShortWeightMin   = -(numericShortWeightMask + 1)
)

// EncodeDisk returns the bytes of d as they sit in a PostgreSQL heap tuple:
// fixed-length types little-endian, exactly Len() bytes; varlena types their
// content without the varlena header (the heap adds it). d must not be nil.
func EncodeDisk(t T, d Datum) ([]byte, error) { return AppendDisk(nil, t, d) }

// AppendDisk appends EncodeDisk(t, d) to buf.
func AppendDisk(buf []byte, t T, d Datum) ([]byte, error) {
	if extType(t.OID) {
		return appendExtDisk(buf, t, d)
	}
	if out, ok, err := appendScalar(buf, binary.LittleEndian, t, d); ok {
		return out, err
	}
	switch t.OID {
	case Numeric:
		v, err := asNumeric(t, d)
		if err != nil {
			return nil, err
		}
		if err := numCheckFormat(v); err != nil {
			return nil, err
		}
		return appendNumericDisk(buf, v), nil
	case TID:
		v, err := asTID(t, d)
		if err != nil {
			return nil, err
		}
		buf = binary.LittleEndian.AppendUint16(buf, uint16(v.Block>>16))
		buf = binary.LittleEndian.AppendUint16(buf, uint16(v.Block))
		return binary.LittleEndian.AppendUint16(buf, v.Offset), nil
	case Bytea, Oid, Xid, Cid, PgLSN:
		return appendSysBinary(buf, binary.LittleEndian, t, d)
	}
	return nil, errUnsupported(t)
}

// appendNumericDisk is make_result's layout.
func appendNumericDisk(buf []byte, v *apd.Decimal) []byte {
	switch v.Form {
	case apd.NaN, apd.NaNSignaling:
		return binary.LittleEndian.AppendUint16(buf, numericNaN)
	case apd.Infinite:
		if v.Negative {
			return binary.LittleEndian.AppendUint16(buf, numericNInf)
		}
		return binary.LittleEndian.AppendUint16(buf, numericPInf)
	}
	neg, weight, dscale, digits := numToPG(v)
	if dscale <= numericShortDscaleMax && weight <= numericShortWeightMax && weight >= numericShortWeightMin {
		h := uint16(numericShort)
		if neg {
			h |= numericShortSignMask
		}
		h |= uint16(dscale) << numericShortDscaleShift
		if weight < 0 {
			h |= numericShortWeightSign
		}
		h |= uint16(weight) & numericShortWeightMask
		buf = binary.LittleEndian.AppendUint16(buf, h)
	} else {
		sd := uint16(dscale) & numericDscaleMax
		if neg {
			sd |= numericNeg
		}
		buf = binary.LittleEndian.AppendUint16(buf, sd)
		buf = binary.LittleEndian.AppendUint16(buf, uint16(int16(weight)))
	}
	for _, g := range digits {
		buf = binary.LittleEndian.AppendUint16(buf, uint16(g))
	}
	return buf
}

func errCorrupt(t T, n int) error {
	return pgerr.New(pgerr.DataCorrupted, "types: invalid on-disk value of type %s (%d bytes)", t.Name(), n)
}

// DecodeDisk is EncodeDisk's inverse. Malformed bytes give a DataCorrupted
// error, never a panic. Strings are copied out of b.
func DecodeDisk(t T, b []byte) (Datum, error) {
	if extType(t.OID) {
		return decodeExtDisk(t, b)
	}
	if l := t.Len(); l > 0 && len(b) != int(l) {
		return nil, errCorrupt(t, len(b))
	}
	switch t.OID {
	case Bool, Int2, Int4, Int8, Float4, Float8:
		return decodeFixed(binary.LittleEndian, t.OID, b), nil
	case Numeric:
		v, ok := decodeNumericDisk(b)
		if !ok {
			return nil, errCorrupt(t, len(b))
		}
		return v, nil
	case Text, Varchar, Bpchar, Unknown:
		return string(b), nil
	case Timestamp, TimestampTZ:
		return MicrosToTimestamp(int64(binary.LittleEndian.Uint64(b))), nil
	case Interval:
		return decodeInterval16(binary.LittleEndian, b), nil
	case Date:
		return DaysToDate(int32(binary.LittleEndian.Uint32(b))), nil
	case TID:
		hi, lo := binary.LittleEndian.Uint16(b), binary.LittleEndian.Uint16(b[2:])
		return page.TID{Block: uint32(hi)<<16 | uint32(lo), Offset: binary.LittleEndian.Uint16(b[4:])}, nil
	case Bytea, Oid, Xid, Cid, PgLSN:
		return decodeSys(t, binary.LittleEndian, b)
	}
	return nil, errUnsupported(t)
}

func decodeNumericDisk(b []byte) (*apd.Decimal, bool) {
	if len(b) < 2 || len(b)%2 != 0 {
		return nil, false
	}
	h := binary.LittleEndian.Uint16(b)
	var neg bool
	var weight, dscale int
	var rest []byte
	switch h & 0xC000 {
	case 0xC000:
		if len(b) != 2 {
			return nil, false
		}
		switch h & 0xF000 {
		case numericNaN:
			return NumericNaN(), true
		case numericPInf:
			return &apd.Decimal{Form: apd.Infinite}, true
		case numericNInf:
			return &apd.Decimal{Form: apd.Infinite, Negative: true}, true
		}
		return nil, false
	case numericShort:
		neg = h&numericShortSignMask != 0
		dscale = int(h&numericShortDscaleMask) >> numericShortDscaleShift
		weight = int(h & numericShortWeightMask)
		if h&numericShortWeightSign != 0 {
			weight |= ^numericShortWeightMask
		}
		rest = b[2:]
	default:
		if len(b) < 4 {
			return nil, false
		}
		neg = h&numericNeg != 0
		dscale = int(h & numericDscaleMax)
		weight = int(int16(binary.LittleEndian.Uint16(b[2:])))
		rest = b[4:]
	}
	digits := make([]int16, len(rest)/2)
	for i := range digits {
		g := int16(binary.LittleEndian.Uint16(rest[2*i:]))
		if g < 0 || g >= 10000 {
			return nil, false
		}
		digits[i] = g
	}
	return numFromPG(neg, weight, dscale, digits), true
}

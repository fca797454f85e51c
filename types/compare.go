package types

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"math"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"minipg/storage/page"
)

// Compare orders two non-NULL values of type t as PostgreSQL's btree
// comparison functions do: -1, 0 or +1. Floats: NaN equals NaN and sorts
// above everything, -0 equals 0. Numeric: -Infinity < finite < Infinity <
// NaN. bpchar ignores trailing blanks; text compares bytes (the reference
// server's collation is C.UTF-8, i.e. code point order). Values of the
// wrong Go type compare by their Go types (never panics).
func Compare(t T, a, b Datum) int {
	if c, ok := compareExt(t, a, b); ok {
		return c
	}
	switch x := a.(type) {
	case int64:
		if y, ok := b.(int64); ok {
			return cmp.Compare(x, y)
		}
	case float64:
		if y, ok := b.(float64); ok {
			return cmpFloat(x, y)
		}
	case bool:
		if y, ok := b.(bool); ok {
			return cmp.Compare(boolInt(x), boolInt(y))
		}
	case string:
		if y, ok := b.(string); ok {
			if t.OID == Bpchar {
				x, y = bpcharTrim(x), bpcharTrim(y)
			}
			return strings.Compare(x, y)
		}
	case *apd.Decimal:
		if y, ok := b.(*apd.Decimal); ok && x != nil && y != nil {
			return numCmp(numCanon(x), numCanon(y))
		}
	case time.Time:
		if y, ok := b.(time.Time); ok {
			if t.OID == Date {
				return cmp.Compare(DateDays(x), DateDays(y))
			}
			return cmp.Compare(TimestampMicros(x), TimestampMicros(y))
		}
	case []byte:
		if y, ok := b.([]byte); ok {
			return bytes.Compare(x, y)
		}
	case LSN:
		if y, ok := b.(LSN); ok {
			return cmp.Compare(x, y)
		}
	case IntervalValue:
		if y, ok := b.(IntervalValue); ok {
			return CompareInterval(x, y)
		}
	case page.TID:
		if y, ok := b.(page.TID); ok {
			if c := cmp.Compare(x.Block, y.Block); c != 0 {
				return c
			}
			return cmp.Compare(x.Offset, y.Offset)
		}
	}
	// Mixed or unexpected representations: fall back on the key encoding.
	return bytes.Compare(AppendKey(nil, t, a), AppendKey(nil, t, b))
}

// Equal reports whether Compare(t, a, b) == 0.
func Equal(t T, a, b Datum) bool { return Compare(t, a, b) == 0 }

func cmpFloat(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

var hashSeed = maphash.MakeSeed()

// Hash hashes d (nil allowed) so that Equal values hash alike. The seed is
// per process: do not persist hashes.
func Hash(t T, d Datum) uint64 {
	var buf [32]byte
	return maphash.Bytes(hashSeed, AppendKey(buf[:0], t, d))
}

// Key encoding. Every value starts with a marker byte, so NULL (keyNull)
// sorts after all values (ASC NULLS LAST, btree's default) and keys of
// several columns can be concatenated:
//
//	bool          0x01 | 0x00/0x01
//	int2/4/8      0x01 | 8 bytes big-endian, sign bit flipped
//	float4/8      0x01 | 8 bytes: IEEE bits, negatives complemented, positives sign-flipped; NaN 0xFF..
//	timestamp     0x01 | 8 bytes µs, sign bit flipped
//	date          0x01 | 8 bytes days, sign bit flipped
//	interval      0x01 | 8 bytes days (a month is 30), sign bit flipped | 8 bytes µs of the last day
//	tid           0x01 | block uint32 BE | offset uint16 BE
//	text, ...     0x01 | bytes with 0x00 escaped as 0x00 0xFF | 0x00 0x01
//	numeric       -Inf 0x01 | negative 0x02 | zero 0x03 | positive 0x04 | +Inf 0x05 | NaN 0x06
//	              finite non-zero: exponent of the leading digit as uint32 BE with sign bit
//	              flipped, then the significant digits d as byte d+1, then 0x00; for negatives
//	              exponent and digits are complemented and the terminator is 0xFF.
const (
	keyValue = 0x01
	keyNull  = 0xFF
)

// FixedKeyLen returns the length of AppendKey's encoding of every non-NULL
// value of type t when it is the same for all of them (a tag byte and 8
// bytes for the integer, float and date/time types, 2 bytes for bool), 0
// when it varies (text, numeric, arrays, ...).
func FixedKeyLen(t T) int {
	switch t.OID {
	case Int2, Int4, Int8, Float4, Float8, Date, Timestamp, TimestampTZ:
		return 9
	case Bool:
		return 2
	}
	return 0
}

// AppendKey appends an order-preserving, self-delimiting encoding of d (nil
// allowed; it sorts after every value): bytes.Compare of two keys of the
// same type agrees with Compare, and equal values (1.0 and 1.00, 'a' and
// 'a ' as bpchar, 0 and -0) have equal keys.
func AppendKey(buf []byte, t T, d Datum) []byte {
	if d != nil {
		if out, ok := appendExtKey(buf, t, d); ok {
			return out
		}
	}
	if d == nil {
		return append(buf, keyNull)
	}
	switch t.OID {
	case Numeric:
		v, err := asNumeric(t, d)
		if err != nil {
			break
		}
		return appendNumericKey(buf, v)
	case Float4, Float8:
		v, err := asFloat(t, d)
		if err != nil {
			break
		}
		buf = append(buf, keyValue)
		if math.IsNaN(v) {
			return append(buf, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)
		}
		if v == 0 {
			v = 0
		}
		bits := math.Float64bits(v)
		if bits>>63 != 0 {
			bits = ^bits
		} else {
			bits |= 1 << 63
		}
		return binary.BigEndian.AppendUint64(buf, bits)
	}
	switch v := d.(type) {
	case bool:
		return append(buf, keyValue, byte(boolInt(v)))
	case int64:
		return binary.BigEndian.AppendUint64(append(buf, keyValue), uint64(v)^(1<<63))
	case int:
		return binary.BigEndian.AppendUint64(append(buf, keyValue), uint64(int64(v))^(1<<63))
	case string:
		if t.OID == Bpchar {
			v = bpcharTrim(v)
		}
		buf = append(buf, keyValue)
		for i := 0; i < len(v); i++ {
			if v[i] == 0 {
				buf = append(buf, 0, 0xFF)
			} else {
				buf = append(buf, v[i])
			}
		}
		return append(buf, 0, 1)
	case time.Time:
		var x int64
		if t.OID == Date {
			x = int64(DateDays(v))
		} else {
			x = TimestampMicros(v)
		}
		return binary.BigEndian.AppendUint64(append(buf, keyValue), uint64(x)^(1<<63))
	case LSN:
		return binary.BigEndian.AppendUint64(append(buf, keyValue), uint64(v))
	case []byte:
		buf = append(buf, keyValue)
		for _, c := range v {
			if c == 0 {
				buf = append(buf, 0, 0xFF)
			} else {
				buf = append(buf, c)
			}
		}
		return append(buf, 0, 1)
	case IntervalValue:
		days, us := intervalCmpParts(v)
		buf = binary.BigEndian.AppendUint64(append(buf, keyValue), uint64(days)^(1<<63))
		return binary.BigEndian.AppendUint64(buf, uint64(us))
	case page.TID:
		buf = binary.BigEndian.AppendUint32(append(buf, keyValue), v.Block)
		return binary.BigEndian.AppendUint16(buf, v.Offset)
	}
	// An unexpected representation: encode its text form so that the
	// result is at least deterministic.
	buf = append(buf, keyValue)
	return append(AppendText(buf, t, d), 0, 1)
}

func appendNumericKey(buf []byte, v *apd.Decimal) []byte {
	switch v.Form {
	case apd.NaN, apd.NaNSignaling:
		return append(buf, 0x06)
	case apd.Infinite:
		if v.Negative {
			return append(buf, 0x01)
		}
		return append(buf, 0x05)
	}
	if v.Coeff.Sign() == 0 {
		return append(buf, 0x03)
	}
	v = numStripZeros(v)
	var digits []byte
	if v.Coeff.IsUint64() {
		digits = appendUintDigits(nil, v.Coeff.Uint64())
	} else {
		digits = v.Coeff.Append(nil, 10)
	}
	// value = 0.d1d2d3... * 10^(exp)
	exp := uint32(int32(len(digits))+v.Exponent) ^ (1 << 31)
	if v.Negative {
		buf = append(buf, 0x02)
		buf = binary.BigEndian.AppendUint32(buf, ^exp)
		for _, c := range digits {
			buf = append(buf, ^(c - '0' + 1))
		}
		return append(buf, 0xFF)
	}
	buf = append(buf, 0x04)
	buf = binary.BigEndian.AppendUint32(buf, exp)
	for _, c := range digits {
		buf = append(buf, c-'0'+1)
	}
	return append(buf, 0x00)
}

func appendUintDigits(buf []byte, u uint64) []byte {
	var tmp [20]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	return append(buf, tmp[i:]...)
}

package types

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"math"
	"math/bits"
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
//	int2/4/8      one byte 0x88+v for 0 <= v <= 109; else a marker saying how
//	              many bytes follow (v > 109: 0xF5+n; v < 0: 0x88-n, n of ^v)
//	              and the n low bytes of v big-endian (appendIntKey); the
//	              same for every integer type, so keys of int2, int4 and int8
//	              values compare as the values do
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

// KeyFormat is a version of the key encoding, kept with each index stored
// on disk (catalog.Index.KeyFormat): an index keeps the format it was built
// with.
type KeyFormat uint8

const (
	// KeyFormatWideInts encodes an integer as the tag byte and 8 bytes
	// (disk indexes made before KeyFormatCompactInts).
	KeyFormatWideInts KeyFormat = 0
	// KeyFormatCompactInts encodes an integer in 1 to 9 bytes
	// (appendIntKey).
	KeyFormatCompactInts KeyFormat = 1
	// CurrentKeyFormat is the format of new indexes and of AppendKey.
	CurrentKeyFormat = KeyFormatCompactInts
)

// The compact integer encoding: 0..intKeySmallMax in one byte from
// intKeyZero; larger values after a marker intKeyZero+intKeySmallMax+n,
// negative ones after intKeyZero-n, n being the number of bytes that
// follow (1..8). Every marker lies between 0x80 and 0xFD: below keyNull.
const (
	intKeyZero     = 0x88
	intKeySmallMax = 109
	intKeyPosBase  = intKeyZero + intKeySmallMax // 0xF5; a marker above it is 0xF5+n
)

// appendIntKey appends v's key in format f.
func appendIntKey(buf []byte, v int64, f KeyFormat) []byte {
	if f == KeyFormatWideInts {
		return binary.BigEndian.AppendUint64(append(buf, keyValue), uint64(v)^(1<<63))
	}
	var n int
	switch {
	case v >= 0 && v <= intKeySmallMax:
		return append(buf, intKeyZero+byte(v))
	case v > 0:
		n = max(1, (bits.Len64(uint64(v))+7)/8)
		buf = append(buf, intKeyPosBase+byte(n))
	default:
		// Two's complement: the n low bytes of v, where ^v = -v-1 needs n
		// bytes, order the negative values of that length.
		n = max(1, (bits.Len64(^uint64(v))+7)/8)
		buf = append(buf, intKeyZero-byte(n))
	}
	for i := n - 1; i >= 0; i-- {
		buf = append(buf, byte(uint64(v)>>(8*i)))
	}
	return buf
}

// intKeyLen is the length of a compact integer key starting with marker m,
// 0 if m is not one.
func intKeyLen(m byte) int {
	switch {
	case m >= intKeyZero && m <= intKeyPosBase:
		return 1
	case m > intKeyPosBase && m <= intKeyPosBase+8:
		return 1 + int(m-intKeyPosBase)
	case m < intKeyZero && m >= intKeyZero-8:
		return 1 + int(intKeyZero-m)
	}
	return 0
}

// KeyValueLen returns the length of the first value encoded in key, a key
// of format f whose first column has type t, when it can be told from its
// first byte (the integer, float, date/time and bool types, and NULL), 0
// otherwise.
func KeyValueLen(t T, key []byte, f KeyFormat) int {
	if len(key) == 0 {
		return 0
	}
	n := 0
	switch {
	case key[0] == keyNull:
		n = 1
	case t.OID == Int2 || t.OID == Int4 || t.OID == Int8:
		if f == KeyFormatWideInts {
			n = 9
		} else {
			n = intKeyLen(key[0])
		}
	case t.OID == Float4 || t.OID == Float8 || t.OID == Date || t.OID == Timestamp || t.OID == TimestampTZ:
		n = 9
	case t.OID == Bool:
		n = 2
	}
	if n > len(key) {
		return 0
	}
	return n
}

// AppendKey appends an order-preserving, self-delimiting encoding of d (nil
// allowed; it sorts after every value): bytes.Compare of two keys of the
// same type agrees with Compare, and equal values (1.0 and 1.00, 'a' and
// 'a ' as bpchar, 0 and -0) have equal keys. It uses CurrentKeyFormat.
func AppendKey(buf []byte, t T, d Datum) []byte {
	return appendKey(buf, t, d, CurrentKeyFormat)
}

// AppendKeyFormat is AppendKey in format f, for an index that keeps an
// older format.
func AppendKeyFormat(buf []byte, t T, d Datum, f KeyFormat) []byte {
	return appendKey(buf, t, d, f)
}

func appendKey(buf []byte, t T, d Datum, f KeyFormat) []byte {
	if d != nil {
		if out, ok := appendExtKey(buf, t, d, f); ok {
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
		return appendIntKey(buf, v, f)
	case int:
		return appendIntKey(buf, int64(v), f)
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

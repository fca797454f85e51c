package types

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/storage/page"
)

// Accessors that accept the Datum forms callers may reasonably build and
// report a wrong Go type as an internal error (a bug in the caller).

func badDatum(t T, d Datum) error {
	return pgerr.New(pgerr.InternalError, "types: datum of Go type %T is not valid for type %s", d, t.Name())
}

func asInt(t T, d Datum) (int64, error) {
	switch v := d.(type) {
	case int64:
		return v, nil
	case int:
		return int64(v), nil
	case int32:
		return int64(v), nil
	case int16:
		return int64(v), nil
	}
	return 0, badDatum(t, d)
}

func asFloat(t T, d Datum) (float64, error) {
	switch v := d.(type) {
	case float64:
		return v, nil
	case float32:
		return float64(v), nil
	}
	return 0, badDatum(t, d)
}

func asBool(t T, d Datum) (bool, error) {
	if v, ok := d.(bool); ok {
		return v, nil
	}
	return false, badDatum(t, d)
}

func asString(t T, d Datum) (string, error) {
	switch v := d.(type) {
	case string:
		return v, nil
	case []byte:
		return string(v), nil
	}
	return "", badDatum(t, d)
}

func asNumeric(t T, d Datum) (*apd.Decimal, error) {
	switch v := d.(type) {
	case *apd.Decimal:
		if v == nil {
			return nil, badDatum(t, d)
		}
		return numCanon(v), nil
	case apd.Decimal:
		return numCanon(&v), nil
	}
	return nil, badDatum(t, d)
}

func asTime(t T, d Datum) (time.Time, error) {
	if v, ok := d.(time.Time); ok {
		return v, nil
	}
	return time.Time{}, badDatum(t, d)
}

func asTID(t T, d Datum) (page.TID, error) {
	if v, ok := d.(page.TID); ok {
		return v, nil
	}
	return page.TID{}, badDatum(t, d)
}

// intRange checks that v fits oid's width, with PostgreSQL's message.
func intRange(oid OID, v int64) error {
	switch oid {
	case Int2:
		if v < math.MinInt16 || v > math.MaxInt16 {
			return pgerr.New(pgerr.NumericValueOutOfRange, "smallint out of range")
		}
	case Int4:
		if v < math.MinInt32 || v > math.MaxInt32 {
			return pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
		}
	}
	return nil
}

// appendScalar appends d in the layout shared by the send/receive and the
// on-disk formats, which differ only in byte order for these types: bool,
// int2/4/8, float4/8, the string types, timestamp, timestamptz, date and
// interval (time int64, day int32, month int32, in that order in both). ok is false
// for any other type (numeric, tid, ...), which each format encodes itself.
func appendScalar(buf []byte, order binary.AppendByteOrder, t T, d Datum) (out []byte, ok bool, err error) {
	switch t.OID {
	case Bool:
		v, err := asBool(t, d)
		if err != nil {
			return nil, true, err
		}
		if v {
			return append(buf, 1), true, nil
		}
		return append(buf, 0), true, nil
	case Int2, Int4, Int8:
		v, err := asInt(t, d)
		if err == nil {
			err = intRange(t.OID, v)
		}
		if err != nil {
			return nil, true, err
		}
		switch t.OID {
		case Int2:
			return order.AppendUint16(buf, uint16(v)), true, nil
		case Int4:
			return order.AppendUint32(buf, uint32(v)), true, nil
		}
		return order.AppendUint64(buf, uint64(v)), true, nil
	case Float4, Float8:
		v, err := asFloat(t, d)
		if err != nil {
			return nil, true, err
		}
		if t.OID == Float4 {
			return order.AppendUint32(buf, math.Float32bits(float32(v))), true, nil
		}
		return order.AppendUint64(buf, float8Bits(v)), true, nil
	case Text, Varchar, Bpchar, Unknown:
		v, err := asString(t, d)
		if err != nil {
			return nil, true, err
		}
		return append(buf, v...), true, nil
	case Interval:
		v, err := asInterval(t, d)
		if err != nil {
			return nil, true, err
		}
		buf = order.AppendUint64(buf, uint64(v.Micros))
		buf = order.AppendUint32(buf, uint32(v.Days))
		return order.AppendUint32(buf, uint32(v.Months)), true, nil
	case Timestamp, TimestampTZ:
		v, err := asTime(t, d)
		if err != nil {
			return nil, true, err
		}
		return order.AppendUint64(buf, uint64(TimestampMicros(v))), true, nil
	case Date:
		v, err := asTime(t, d)
		if err != nil {
			return nil, true, err
		}
		return order.AppendUint32(buf, uint32(DateDays(v))), true, nil
	}
	return buf, false, nil
}

// decodeFixed is appendScalar's inverse for bool, int2/4/8 and float4/8;
// the caller has checked that len(b) is t.Len().
func decodeFixed(order binary.ByteOrder, oid OID, b []byte) Datum {
	switch oid {
	case Bool:
		return b[0] != 0
	case Int2:
		return int64(int16(order.Uint16(b)))
	case Int4:
		return int64(int32(order.Uint32(b)))
	case Int8:
		return int64(order.Uint64(b))
	case Float4:
		return float64(math.Float32frombits(order.Uint32(b)))
	}
	return math.Float64frombits(order.Uint64(b))
}

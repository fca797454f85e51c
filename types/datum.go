package types

import (
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

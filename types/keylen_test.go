package types

import (
	"math"
	"testing"
	"time"
)

// TestFixedKeyLen: every value of a type FixedKeyLen calls fixed encodes
// to that many bytes, and the variable-width types are not called fixed.
func TestFixedKeyLen(t *testing.T) {
	ts := []Datum{time.Date(2026, 12, 4, 1, 2, 3, 4000, time.UTC), TimestampInfinity, TimestampNegInfinity}
	cases := []struct {
		t      T
		values []Datum
	}{
		{TInt2, []Datum{int64(0), int64(-32768), int64(32767)}},
		{TInt4, []Datum{int64(7), int64(math.MinInt32), int64(math.MaxInt32)}},
		{TInt8, []Datum{int64(math.MinInt64), int64(math.MaxInt64), int(3)}},
		{TFloat8, []Datum{float64(0), math.Inf(-1), math.NaN(), float64(-1.5e300)}},
		{T{Float4, -1}, []Datum{float64(2.5), math.Inf(1)}},
		{T{Timestamp, -1}, ts},
		{T{TimestampTZ, -1}, ts},
		{T{Date, -1}, []Datum{DaysToDate(0), DateInfinity, DateNegInfinity}},
		{T{Bool, -1}, []Datum{true, false}},
	}
	for _, c := range cases {
		n := FixedKeyLen(c.t)
		if n == 0 {
			t.Errorf("type %d: not fixed", c.t.OID)
			continue
		}
		for _, v := range c.values {
			if got := len(AppendKey(nil, c.t, v)); got != n {
				t.Errorf("type %d value %v: %d bytes, FixedKeyLen says %d", c.t.OID, v, got, n)
			}
		}
	}
	for _, oid := range []OID{Text, Varchar, Bpchar, Numeric, Interval} {
		if n := FixedKeyLen(T{oid, -1}); n != 0 {
			t.Errorf("type %d: FixedKeyLen %d, want 0 (variable width)", oid, n)
		}
	}
}

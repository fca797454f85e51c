package types

import (
	"bytes"
	"encoding/hex"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestKeyValueLen: KeyValueLen tells the length of the first value of a
// key from its first byte for the integer (both formats), float,
// date/time and bool types and NULL, and refuses the variable-width
// types.
func TestKeyValueLen(t *testing.T) {
	ts := []Datum{time.Date(2026, 12, 4, 1, 2, 3, 4000, time.UTC), TimestampInfinity, TimestampNegInfinity}
	ints := []Datum{int64(0), int64(109), int64(110), int64(-1), int64(255), int64(256), int64(-32768),
		int64(32767), int64(math.MinInt32), int64(math.MaxInt32), int64(math.MinInt64), int64(math.MaxInt64), int(3)}
	cases := []struct {
		t      T
		values []Datum
	}{
		{TInt2, ints[:8]},
		{TInt4, ints[:10]},
		{TInt8, ints},
		{TFloat8, []Datum{float64(0), math.Inf(-1), math.NaN(), float64(-1.5e300)}},
		{T{Float4, -1}, []Datum{float64(2.5), math.Inf(1)}},
		{T{Timestamp, -1}, ts},
		{T{TimestampTZ, -1}, ts},
		{T{Date, -1}, []Datum{DaysToDate(0), DateInfinity, DateNegInfinity}},
		{T{Bool, -1}, []Datum{true, false}},
	}
	for _, c := range cases {
		for _, f := range []KeyFormat{KeyFormatWideInts, KeyFormatCompactInts} {
			for _, v := range append(c.values, nil) {
				k := AppendKeyFormat(nil, c.t, v, f)
				// Followed by another column: the length is the first one's.
				two := AppendKeyFormat(bytes.Clone(k), TText, "x", f)
				if got := KeyValueLen(c.t, two, f); got != len(k) {
					t.Errorf("type %d format %d value %v (%x): KeyValueLen %d, want %d", c.t.OID, f, v, k, got, len(k))
				}
			}
		}
	}
	for _, oid := range []OID{Text, Varchar, Bpchar, Numeric, Interval} {
		if n := KeyValueLen(T{oid, -1}, AppendKey(nil, T{oid, -1}, "1"), CurrentKeyFormat); n != 0 {
			t.Errorf("type %d: KeyValueLen %d, want 0 (variable width)", oid, n)
		}
	}
	if n := KeyValueLen(TInt4, []byte{0xF7, 1}, CurrentKeyFormat); n != 0 {
		t.Errorf("a truncated key: KeyValueLen %d, want 0", n)
	}
}

// TestCompactIntKeys: the compact encoding of integers orders as the
// values do (random values and every boundary of its lengths), is the
// same for int2, int4 and int8, is as short as it says (one byte for
// 0..109, a marker and the bytes the value needs otherwise), and sorts
// before NULL; the wide format is unchanged.
func TestCompactIntKeys(t *testing.T) {
	vals := []int64{math.MinInt64, math.MinInt64 + 1, math.MaxInt64, math.MaxInt64 - 1, 0, 1, -1, 108, 109, 110}
	for n := 1; n < 8; n++ {
		b := int64(1) << (8 * n)
		vals = append(vals, b-1, b, b+1, -b-1, -b, -b+1)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		v := int64(rng.Uint64()) >> rng.IntN(64)
		vals = append(vals, v)
	}
	slices.Sort(vals)
	vals = slices.Compact(vals)
	want := func(v int64) int {
		switch {
		case v >= 0 && v <= 109:
			return 1
		case v > 0:
			return 1 + max(1, (64-bits.LeadingZeros64(uint64(v))+7)/8)
		}
		return 1 + max(1, (64-bits.LeadingZeros64(^uint64(v))+7)/8)
	}
	var prev []byte
	for i, v := range vals {
		k := AppendKey(nil, TInt8, v)
		if len(k) != want(v) {
			t.Errorf("%d: %d bytes (%x), want %d", v, len(k), k, want(v))
		}
		if i > 0 && bytes.Compare(prev, k) >= 0 {
			t.Fatalf("%d (%x) does not sort after %d (%x)", v, k, vals[i-1], prev)
		}
		if k[0] >= keyNull || k[0] < 0x80 {
			t.Fatalf("%d: marker %#x outside 0x80..0xFD", v, k[0])
		}
		if v >= math.MinInt32 && v <= math.MaxInt32 {
			if k4 := AppendKey(nil, TInt4, v); !bytes.Equal(k, k4) {
				t.Fatalf("%d: int4 key %x, int8 key %x", v, k4, k)
			}
		}
		prev = k
	}
	if null := AppendKey(nil, TInt8, nil); bytes.Compare(prev, null) >= 0 {
		t.Fatalf("NULL %x does not sort after the largest value %x", null, prev)
	}
	for _, c := range []struct {
		v    int64
		want string
	}{{0, "88"}, {109, "f5"}, {110, "f66e"}, {-1, "87ff"}, {-256, "8700"}, {-257, "86feff"}, {3000, "f70bb8"}} {
		if got := hex.EncodeToString(AppendKey(nil, TInt4, c.v)); got != c.want {
			t.Errorf("%d: %s, want %s", c.v, got, c.want)
		}
	}
	if got := hex.EncodeToString(AppendKeyFormat(nil, TInt4, int64(-2), KeyFormatWideInts)); got != "017ffffffffffffffe" {
		t.Errorf("wide -2: %s, want 017ffffffffffffffe", got)
	}
	// Inside an array, an element keeps the array's order against a
	// longer array with the same prefix.
	a1 := &Array{Elems: []Datum{int64(5)}, Dims: []int{1}, Lbounds: []int{1}}
	a2 := &Array{Elems: []Datum{int64(5), int64(-3)}, Dims: []int{2}, Lbounds: []int{1}}
	at := ArrayOf(TInt4)
	if bytes.Compare(AppendKey(nil, at, a1), AppendKey(nil, at, a2)) >= 0 {
		t.Fatalf("{5} does not sort before {5,-3}")
	}
}

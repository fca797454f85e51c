package types

import (
	"encoding/hex"
	"math"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
)

// TestDecodeBinaryErrors: messages from PostgreSQL 15's numeric_recv,
// timestamp_recv, date_recv and the UTF8 verifier (pg_verify_mbstr).
func TestDecodeBinaryErrors(t *testing.T) {
	for _, c := range []struct {
		typ  T
		hex  string
		code pgerr.Code
		msg  string
	}{
		{TInt4, "000001", pgerr.InvalidBinaryRepresentation, "incorrect binary data format"},
		{TInt8, "0000000000000000ff", pgerr.InvalidBinaryRepresentation, "incorrect binary data format"},
		{TBool, "", pgerr.InvalidBinaryRepresentation, "incorrect binary data format"},
		{TNumeric, "000100000000", pgerr.InvalidBinaryRepresentation, "incorrect binary data format"},
		{TNumeric, "0000000012340000", pgerr.InvalidBinaryRepresentation, "invalid sign in external \"numeric\" value"},
		{TNumeric, "00010000000000002710", pgerr.InvalidBinaryRepresentation, "invalid digit in external \"numeric\" value"},
		{TNumeric, "0000000000004000", pgerr.InvalidBinaryRepresentation, "invalid scale in external \"numeric\" value"},
		{NumericT(3, 1), "0001000100000000" + "0001", pgerr.NumericValueOutOfRange, "numeric field overflow"},
		{TTimestamp, "7fffffffffff0000", pgerr.DatetimeFieldOverflow, "timestamp out of range"},
		{TDate, "7ffffff0", pgerr.DatetimeFieldOverflow, "date out of range"},
		{TText, "61ff62", pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": 0xff"},
		{TText, "610062", pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": 0x00"},
		{VarcharT(3), "61626364", pgerr.StringDataRightTruncation, "value too long for type character varying(3)"},
		{TTID, "0000000100", pgerr.InvalidBinaryRepresentation, "incorrect binary data format"},
	} {
		b, err := hex.DecodeString(c.hex)
		if err != nil {
			t.Fatal(err)
		}
		_, err = DecodeBinary(c.typ, b)
		if err == nil || pgerr.CodeOf(err) != c.code || err.Error() != c.msg {
			t.Errorf("%s %s: got %v (%s), want %s %q", c.typ, c.hex, err, pgerr.CodeOf(err), c.code, c.msg)
		}
	}
	// numeric_recv truncates digits hidden by dscale: 1.5 sent with dscale 0 is 1.
	d, err := DecodeBinary(TNumeric, mustHex(t, "0002000000000000"+"0001"+"1388"))
	if err != nil || FormatText(TNumeric, d) != "1" {
		t.Errorf("truncation: %v %v", d, err)
	}
	// char(3) receive pads like input.
	d, err = DecodeBinary(BpcharT(3), []byte("a"))
	if err != nil || d != "a  " {
		t.Errorf("bpchar recv: %q %v", d, err)
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeDiskCorruption(t *testing.T) {
	for _, c := range []struct {
		typ T
		hex string
	}{
		{TInt4, "010203"}, {TInt8, "01"}, {TBool, ""}, {TTID, "0102030405"}, {TNumeric, ""}, {TNumeric, "00"},
		{TNumeric, "008010"}, {TNumeric, "0080ffff"}, {TNumeric, "0000"}, {TNumeric, "00e0"}, {TNumeric, "00c00000"},
	} {
		if _, err := DecodeDisk(c.typ, mustHex(t, c.hex)); !pgerr.IsCorruption(err) {
			t.Errorf("%s %s: got %v, want a corruption error", c.typ, c.hex, err)
		}
	}
}

// Numerics built outside the package are canonicalized.
func TestForeignDecimals(t *testing.T) {
	negZero := &apd.Decimal{Negative: true, Exponent: -2}
	for _, c := range []struct {
		d    *apd.Decimal
		want string
	}{
		{apd.New(15, -1), "1.5"}, {apd.New(5, 2), "500"}, {negZero, "0.00"}, {apd.New(-7, -3), "-0.007"},
		{&apd.Decimal{Form: apd.NaNSignaling}, "NaN"}, {apd.New(123, 0), "123"},
	} {
		if got := FormatText(TNumeric, c.d); got != c.want {
			t.Errorf("%v: got %q want %q", c.d, got, c.want)
		}
		b, err := EncodeDisk(TNumeric, c.d)
		if err != nil {
			t.Fatal(err)
		}
		back, _ := DecodeDisk(TNumeric, b)
		if FormatText(TNumeric, back) != c.want {
			t.Errorf("%v: disk round trip gives %q", c.d, FormatText(TNumeric, back))
		}
	}
}

// TestCastContexts compares CastContextOf with pg_cast on PostgreSQL 15.20:
//
//	SELECT castsource::regtype, casttarget::regtype, castcontext FROM pg_cast
//	WHERE castsource IN (16,20,21,23,25,27,700,701,1042,1043,1082,1114,1700)
//	  AND casttarget IN (same)
//
// plus the automatic I/O casts (to a string type: assignment; from a string
// type: explicit). Same type: implicit.
func TestCastContexts(t *testing.T) {
	pgCast := map[[2]OID]CastContext{
		{Bool, Int4}: 'e', {Bool, Text}: 'a', {Bool, Bpchar}: 'a', {Bool, Varchar}: 'a',
		{Int8, Int2}: 'a', {Int8, Int4}: 'a', {Int8, Float4}: 'i', {Int8, Float8}: 'i', {Int8, Numeric}: 'i',
		{Int2, Int8}: 'i', {Int2, Int4}: 'i', {Int2, Float4}: 'i', {Int2, Float8}: 'i', {Int2, Numeric}: 'i',
		{Int4, Bool}: 'e', {Int4, Int8}: 'i', {Int4, Int2}: 'a', {Int4, Float4}: 'i', {Int4, Float8}: 'i', {Int4, Numeric}: 'i',
		{Text, Bpchar}: 'i', {Text, Varchar}: 'i',
		{Float4, Int8}: 'a', {Float4, Int2}: 'a', {Float4, Int4}: 'a', {Float4, Float8}: 'i', {Float4, Numeric}: 'a',
		{Float8, Int8}: 'a', {Float8, Int2}: 'a', {Float8, Int4}: 'a', {Float8, Float4}: 'a', {Float8, Numeric}: 'a',
		{Bpchar, Text}: 'i', {Bpchar, Varchar}: 'i', {Varchar, Text}: 'i', {Varchar, Bpchar}: 'i',
		{Date, Timestamp}: 'i', {Timestamp, Date}: 'a',
		{Numeric, Int8}: 'a', {Numeric, Int2}: 'a', {Numeric, Int4}: 'a', {Numeric, Float4}: 'i', {Numeric, Float8}: 'i',
	}
	all := []OID{Bool, Int8, Int2, Int4, Text, TID, Float4, Float8, Bpchar, Varchar, Date, Timestamp, Numeric}
	for _, a := range all {
		for _, b := range all {
			want, ok := pgCast[[2]OID{a, b}]
			switch {
			case a == b:
				want = CastImplicit
			case ok:
			case isString(b):
				want = CastAssignment
			case isString(a):
				want = CastExplicit
			default:
				want = CastNone
			}
			if got := CastContextOf(a, b); got != want {
				t.Errorf("%s -> %s: got %q want %q", TypName(a), TypName(b), got, want)
			}
		}
	}
}

// TestCommonType: results of pg_typeof(CASE WHEN true THEN <x> ELSE <y> END)
// on PostgreSQL 15.20 (the ELSE type is considered first).
func TestCommonType(t *testing.T) {
	for _, c := range []struct {
		in   []T
		want T
		ok   bool
	}{
		{[]T{TVarchar, BpcharT(3)}, TVarchar, true},
		{[]T{TNumeric, TInt4}, TNumeric, true},
		{[]T{TInt8, TInt4}, TInt8, true},
		{[]T{TNumeric, TFloat4}, TFloat4, true},
		{[]T{TTimestamp, TDate}, TTimestamp, true},
		{[]T{TUnknown, TInt4}, TInt4, true},
		{[]T{TUnknown, TUnknown}, TText, true},
		{[]T{VarcharT(5), VarcharT(5)}, VarcharT(5), true},
		{[]T{VarcharT(5), VarcharT(6)}, TVarchar, true},
		{[]T{TInt4, TText}, T{}, false},
		{[]T{TBool, TInt4}, T{}, false},
	} {
		got, ok := CommonType(c.in)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("%v: got %v %v want %v %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestMiscBehaviour(t *testing.T) {
	if _, err := Negate(TInt4, int64(math.MinInt32)); pgerr.CodeOf(err) != pgerr.NumericValueOutOfRange {
		t.Errorf("-(-2147483648)::int4: %v", err)
	}
	if v, _ := Negate(TNumeric, NumericFromInt64(0)); FormatText(TNumeric, v) != "0" {
		t.Errorf("-0::numeric")
	}
	if v, _ := Negate(TNumeric, apd.New(15, -1)); FormatText(TNumeric, v) != "-1.5" {
		t.Errorf("-1.5::numeric")
	}
	if v, err := Coerce(nil, TInt4, TText, false); v != nil || err != nil {
		t.Errorf("NULL cast: %v %v", v, err)
	}
	if v, err := Coerce("12", TUnknown, TInt4, false); v != int64(12) || err != nil {
		t.Errorf("unknown -> int4: %v %v", v, err)
	}
	if _, err := Coerce("12", TText, TInt4, false); pgerr.CodeOf(err) != pgerr.CannotCoerce {
		t.Errorf("text -> int4 in assignment must not be allowed: %v", err)
	}
	// Wrong Go types are errors, not panics.
	if _, err := Arith('+', TInt4, "x", int64(1)); err == nil {
		t.Errorf("Arith with a string accepted")
	}
	if _, err := EncodeDisk(TNumeric, 1.5); err == nil {
		t.Errorf("EncodeDisk numeric from float64 accepted")
	}
	if _, err := EncodeBinary(TInt2, int64(40000)); pgerr.CodeOf(err) != pgerr.NumericValueOutOfRange {
		t.Errorf("int2 send of 40000: %v", err)
	}
	if r, ok := ArithResultType('+', Int4, Float4); !ok || r != Float8 {
		t.Errorf("int4 + real is double precision (pg_typeof(1::int4 + 1::float4)): %v", r)
	}
	if r, ok := ArithResultType('*', Int2, Int8); !ok || r != Int8 {
		t.Errorf("int2 * int8 is bigint: %v", r)
	}
	if _, ok := ArithResultType('%', Float8, Int4); ok {
		t.Errorf("double precision %% integer does not exist")
	}
	// Infinity timestamps survive date conversion both ways.
	if v, _ := Coerce(TimestampInfinity, TTimestamp, TDate, false); FormatText(TDate, v) != "infinity" {
		t.Errorf("timestamp infinity -> date")
	}
}

// TestNumericRound: SELECT round(2.5), round(-2.5), round(1234.5678, 2),
// round(1234.5678, -2), trunc(1234.5678, 2), trunc(-1234.5678,-2),
// round(0.5::numeric, 0), round(99.95, 1), trunc(1.999), round(1.5, 3)
// on PostgreSQL 15.20 gives 3|-3|1234.57|1200|1234.56|-1200|1|100.0|1|1.500.
func TestNumericRound(t *testing.T) {
	num := func(s string) *apd.Decimal {
		d, err := ParseText(TNumeric, s)
		if err != nil {
			t.Fatal(err)
		}
		return d.(*apd.Decimal)
	}
	got := []string{
		FormatText(TNumeric, NumericRound(num("2.5"), 0)), FormatText(TNumeric, NumericRound(num("-2.5"), 0)),
		FormatText(TNumeric, NumericRound(num("1234.5678"), 2)), FormatText(TNumeric, NumericRound(num("1234.5678"), -2)),
		FormatText(TNumeric, NumericTrunc(num("1234.5678"), 2)), FormatText(TNumeric, NumericTrunc(num("-1234.5678"), -2)),
		FormatText(TNumeric, NumericRound(num("0.5"), 0)), FormatText(TNumeric, NumericRound(num("99.95"), 1)),
		FormatText(TNumeric, NumericTrunc(num("1.999"), 0)), FormatText(TNumeric, NumericRound(num("1.5"), 3)),
	}
	want := []string{"3", "-3", "1234.57", "1200", "1234.56", "-1200", "1", "100.0", "1", "1.500"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("case %d: got %s want %s", i, got[i], want[i])
		}
	}
	if _, err := TypeByName("uuid", nil); pgerr.CodeOf(err) != pgerr.FeatureNotSupported {
		t.Errorf("uuid: %v", err)
	}
}

package types

import (
	"testing"
)

// fuzzTypes are the types the fuzzers exercise (by index).
var fuzzTypes = []T{
	TBool, TInt2, TInt4, TInt8, TFloat4, TFloat8, TNumeric, NumericT(5, 2), NumericT(3, -2), TText,
	VarcharT(3), BpcharT(3), TBpchar, TTimestamp, {Timestamp, 2}, TDate, TTID, TUnknown,
}

func fuzzType(i uint8) T { return fuzzTypes[int(i)%len(fuzzTypes)] }

// roundTrip checks that d survives text, binary and disk encodings.
func roundTrip(t *testing.T, typ T, d Datum) {
	t.Helper()
	s := FormatText(typ, d)
	back, err := ParseText(typ, s)
	if err != nil {
		t.Fatalf("%s: output %q does not read back: %v", typ, s, err)
	}
	if Compare(typ, d, back) != 0 {
		t.Fatalf("%s: %q reads back as %q", typ, s, FormatText(typ, back))
	}
	b, err := EncodeBinary(typ, d)
	if err != nil {
		t.Fatalf("%s: EncodeBinary(%q): %v", typ, s, err)
	}
	if back, err = DecodeBinary(typ, b); err != nil || Compare(typ, d, back) != 0 {
		t.Fatalf("%s: binary round trip of %q: %v", typ, s, err)
	}
	if typ.OID == Unknown {
		return
	}
	b, err = EncodeDisk(typ, d)
	if err != nil {
		t.Fatalf("%s: EncodeDisk(%q): %v", typ, s, err)
	}
	if back, err = DecodeDisk(typ, b); err != nil || Compare(typ, d, back) != 0 || FormatText(typ, back) != s {
		t.Fatalf("%s: disk round trip of %q: %v", typ, s, err)
	}
}

func FuzzParseText(f *testing.F) {
	for _, s := range []string{"1", "-32768", " 12 ", "1.5e-7", "NaN", "-Infinity", "0.001", "1e1000", "t", "of",
		"2024-03-05 12:34:56.789012", "0044-03-15 BC", "infinity", "(1,2)", "abc  ", "日本語", "1e-16383", "0x1p-3", "+.5e5"} {
		for i := range fuzzTypes {
			f.Add(s, uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, s string, ti uint8) {
		typ := fuzzType(ti)
		d, err := ParseText(typ, s)
		if err != nil {
			return
		}
		roundTrip(t, typ, d)
	})
}

func FuzzDecodeBinary(f *testing.F) {
	for _, b := range [][]byte{{1}, {0, 1}, {0, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 0, 1},
		{0, 2, 0, 0, 0, 0, 0, 1, 0, 1, 0x13, 0x88}, {0, 0, 0, 0, 0xc0, 0, 0, 0}, {0, 0, 0, 0, 0xd0, 0, 0, 0x20},
		[]byte("hello"), {0, 0, 0, 1, 0, 2}, {0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}} {
		for i := range fuzzTypes {
			f.Add(b, uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, ti uint8) {
		typ := fuzzType(ti)
		d, err := DecodeBinary(typ, b)
		if err != nil || d == nil {
			return
		}
		roundTrip(t, typ, d)
	})
}

func FuzzDecodeDisk(f *testing.F) {
	for _, b := range [][]byte{{1}, {0xfe, 0xff}, {0x78, 0x56, 0x34, 0x12}, {0, 0x80}, {0x80, 0x80, 0x01, 0x00, 0x88, 0x13},
		{0x64, 0x00, 0xe7, 0xff, 0x01, 0x00}, {0, 0xc0}, {0, 0xd0}, {0x34, 0x12, 0x78, 0x56, 0x34, 0x12}} {
		for i := range fuzzTypes {
			f.Add(b, uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, ti uint8) {
		typ := fuzzType(ti)
		d, err := DecodeDisk(typ, b)
		if err != nil || d == nil {
			return
		}
		// Whatever decodes must encode and compare without panicking.
		_ = FormatText(typ, d)
		_ = AppendKey(nil, typ, d)
		_ = Compare(typ, d, d)
		if _, err := EncodeDisk(typ, d); err != nil {
			t.Fatalf("%s: EncodeDisk of a decoded value: %v", typ, err)
		}
	})
}

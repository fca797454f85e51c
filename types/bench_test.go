package types

import "testing"

func benchValues(b *testing.B, typ T, s string) Datum {
	d, err := ParseText(typ, s)
	if err != nil {
		b.Fatal(err)
	}
	return d
}

func BenchmarkNumericParseText(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_, _ = ParseText(NumericT(12, 2), "12345.678")
	}
}

func BenchmarkNumericFormatText(b *testing.B) {
	d := benchValues(b, NumericT(12, 2), "12345.678")
	var buf []byte
	for i := 0; i < b.N; i++ {
		buf = AppendText(buf[:0], TNumeric, d)
	}
}

func BenchmarkNumericEncodeDisk(b *testing.B) {
	d := benchValues(b, NumericT(12, 2), "12345.678")
	var buf []byte
	for i := 0; i < b.N; i++ {
		buf, _ = AppendDisk(buf[:0], TNumeric, d)
	}
}

func BenchmarkNumericDecodeDisk(b *testing.B) {
	d := benchValues(b, NumericT(12, 2), "12345.678")
	enc, _ := EncodeDisk(TNumeric, d)
	for i := 0; i < b.N; i++ {
		_, _ = DecodeDisk(TNumeric, enc)
	}
}

func BenchmarkNumericAdd(b *testing.B) {
	x := benchValues(b, TNumeric, "12345.67")
	y := benchValues(b, TNumeric, "0.5")
	for i := 0; i < b.N; i++ {
		_, _ = Arith('+', TNumeric, x, y)
	}
}

func BenchmarkFloat8FormatText(b *testing.B) {
	var buf []byte
	for i := 0; i < b.N; i++ {
		buf = AppendText(buf[:0], TFloat8, 0.1+float64(i))
	}
}

func BenchmarkTimestampParseText(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_, _ = ParseText(TTimestamp, "2024-03-05 12:34:56.789012")
	}
}

func BenchmarkInt4Key(b *testing.B) {
	var buf []byte
	for i := 0; i < b.N; i++ {
		buf = AppendKey(buf[:0], TInt4, int64(i))
	}
}

package types

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"minipg/pgerr"
)

// checkBinaryToDisk asserts that AppendDiskFromBinary gives exactly what
// DecodeBinary followed by AppendDisk gives: the same bytes after the
// prefix, or an error with the same SQLSTATE and message.
func checkBinaryToDisk(t *testing.T, typ T, in []byte) {
	t.Helper()
	prefix := []byte{0xAA, 0xBB}
	got, gotErr := AppendDiskFromBinary(append([]byte(nil), prefix...), typ, in)
	var want []byte
	d, wantErr := DecodeBinary(typ, in)
	if wantErr == nil {
		want, wantErr = AppendDisk(append([]byte(nil), prefix...), typ, d)
	}
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("%v %x: error %v, want %v", typ, in, gotErr, wantErr)
	}
	if wantErr != nil {
		if pgerr.CodeOf(gotErr) != pgerr.CodeOf(wantErr) || gotErr.Error() != wantErr.Error() {
			t.Fatalf("%v %x: error %v, want %v", typ, in, gotErr, wantErr)
		}
		return
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%v %x: %x, want %x", typ, in, got, want)
	}
}

func TestAppendDiskFromBinary(t *testing.T) {
	be64 := func(u uint64) []byte { return binary.BigEndian.AppendUint64(nil, u) }
	be32 := func(u uint32) []byte { return binary.BigEndian.AppendUint32(nil, u) }
	typs := []T{TBool, TInt2, TInt4, TInt8, TFloat4, TFloat8, TText, TVarchar, VarcharT(3), BpcharT(3),
		TNumeric, NumericT(5, 2), TTimestamp, TDate}
	special := [][]byte{
		nil, {}, {0}, {1}, {2}, {0xff},
		be32(0x80000000), be32(0x7fffffff), be32(math.Float32bits(float32(math.NaN()))), be32(0x7fc00001),
		be64(0x8000000000000000), be64(math.Float64bits(math.Inf(-1))), be64(0x7ff0000000000001), be64(0xfff8000000000000),
		[]byte("abc"), []byte("abcd"), []byte("a\x00b"), []byte("a\xffb"), []byte("héllo"), []byte("\xe2\x82"),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, typ := range typs {
		for _, in := range special {
			checkBinaryToDisk(t, typ, in)
		}
		for range 2000 {
			in := make([]byte, rng.IntN(10))
			for i := range in {
				in[i] = byte(rng.IntN(256))
			}
			checkBinaryToDisk(t, typ, in)
		}
	}
}

func FuzzAppendDiskFromBinary(f *testing.F) {
	f.Add(uint8(2), []byte{0, 0, 0, 1})
	f.Add(uint8(6), []byte("text"))
	f.Fuzz(func(t *testing.T, k uint8, in []byte) {
		typs := []T{TBool, TInt2, TInt4, TInt8, TFloat4, TFloat8, TText, VarcharT(3), TNumeric, TDate}
		checkBinaryToDisk(t, typs[int(k)%len(typs)], in)
	})
}

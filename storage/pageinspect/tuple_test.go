package pageinspect

import (
	"reflect"
	"testing"
)

func TestInfomaskFlags(t *testing.T) {
	for _, c := range []struct {
		im, im2       uint16
		raw, combined []string
	}{
		{0, 0, []string{}, []string{}},
		{0x0050, 0, []string{"HEAP_XMAX_KEYSHR_LOCK", "HEAP_XMAX_EXCL_LOCK"}, []string{"HEAP_XMAX_SHR_LOCK"}},
		{0x0300, 0xC003, []string{"HEAP_XMIN_COMMITTED", "HEAP_XMIN_INVALID", "HEAP_HOT_UPDATED", "HEAP_ONLY_TUPLE"}, []string{"HEAP_XMIN_FROZEN"}},
	} {
		raw, combined := InfomaskFlags(c.im, c.im2)
		if !reflect.DeepEqual(raw, c.raw) || !reflect.DeepEqual(combined, c.combined) {
			t.Errorf("InfomaskFlags(%#x, %#x) = %v, %v; want %v, %v", c.im, c.im2, raw, combined, c.raw, c.combined)
		}
	}
}

func TestTupleDataSplit(t *testing.T) {
	attrs := []Attr{{Len: 4, Align: 'i'}, {Len: -1, Align: 'i'}, {Len: 8, Align: 'd'}}
	// int4 1, short varlena 'ab', padding to 8, int8 10.
	data := []byte{1, 0, 0, 0, 0x07, 'a', 'b', 0, 10, 0, 0, 0, 0, 0, 0, 0}
	got, err := TupleDataSplit(data, 0, 3, nil, attrs, false)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]byte{{1, 0, 0, 0}, {0x07, 'a', 'b'}, {10, 0, 0, 0, 0, 0, 0, 0}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if got, _ := TupleDataSplit(data, 0, 3, nil, attrs, true); string(got[1]) != "ab" {
		t.Fatalf("detoasted %q, want ab", got[1])
	}
	// The second attribute NULL in the bitmap: 101.
	got, err = TupleDataSplit([]byte{1, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0}, 1, 3, []byte{0x05}, attrs, false)
	if err != nil || got[1] != nil || got[2][0] != 10 {
		t.Fatalf("with a NULL: %v, %v", got, err)
	}
	for _, bad := range [][]byte{{1, 0, 0}, {1, 0, 0, 0, 0x07, 'a', 'b', 0, 10, 0, 0, 0, 0, 0, 0, 0, 9}} {
		if _, err := TupleDataSplit(bad, 0, 3, nil, attrs, false); err == nil {
			t.Errorf("TupleDataSplit(%v) succeeded", bad)
		}
	}
	if _, err := TupleDataSplit(data, 0, 4, nil, attrs, false); err == nil {
		t.Error("more attributes in the header than the relation has: no error")
	}
	if _, err := TextToBits("1010000x", 3); err == nil {
		t.Error("TextToBits accepted x")
	}
	if _, err := TextToBits("101", 3); err == nil {
		t.Error("TextToBits accepted a short string")
	}
}

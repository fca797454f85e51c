package pageinspect

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"minipg/pgerr"
	"minipg/storage/page"
)

// heapPage builds a page with one 28-byte tuple at 8160 (t_hoff 24, null
// bitmap 0b101 for 3 attributes) and one unused line pointer.
func heapPage() []byte {
	p := make([]byte, page.BlockSize)
	page.Init(page.Page(p), 0)
	binary.LittleEndian.PutUint16(p[12:], page.HeaderSize+2*page.ItemIDSize) // pd_lower
	binary.LittleEndian.PutUint16(p[14:], 8160)                              // pd_upper
	page.SetItemID(page.Page(p), 1, 8160, page.LPNormal, 28)
	t := p[8160:]
	binary.LittleEndian.PutUint32(t[offXmin:], 740)
	binary.LittleEndian.PutUint16(t[offCtid+2:], 0)
	binary.LittleEndian.PutUint16(t[offCtid+4:], 1)
	binary.LittleEndian.PutUint16(t[offInfomask2:], 3)
	binary.LittleEndian.PutUint16(t[offInfomask:], heapHasNull|0x0800)
	t[offHoff] = 24
	t[offBits] = 0b101
	copy(t[24:28], []byte{7, 0, 0, 0})
	return p
}

func TestHeapPageItems(t *testing.T) {
	items, err := HeapPageItems(heapPage())
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 {
		t.Fatalf("got %d items, want 2", len(items))
	}
	a := items[0]
	if !a.Tuple || a.LPOff != 8160 || a.LPLen != 28 || a.Xmin != 740 || a.CtidOffset != 1 || a.Infomask2 != 3 ||
		a.Hoff != 24 || !a.HasBits || a.Bits != "10100000" || a.HasOid || string(a.Data) != "\x07\x00\x00\x00" {
		t.Fatalf("item 1 = %+v", a)
	}
	if b := items[1]; b.Tuple || b.LP != 2 || b.LPFlags != page.LPUnused {
		t.Fatalf("item 2 = %+v", b)
	}
}

func TestHeapPageItemsDamaged(t *testing.T) {
	p := heapPage()
	page.SetItemID(page.Page(p), 1, 8161, page.LPNormal, 28) // not MAXALIGNed: no tuple
	items, err := HeapPageItems(p)
	if err != nil || items[0].Tuple {
		t.Fatalf("misaligned item decoded: %+v %v", items[0], err)
	}
	p = heapPage()
	binary.LittleEndian.PutUint16(p[12:], 0xFFFF) // pd_lower past the page
	if _, err := HeapPageItems(p); err != nil {
		t.Fatal(err)
	}
	if _, err := HeapPageItems(p[:10]); err == nil || !strings.Contains(err.Error(), "input page too small (10 bytes)") {
		t.Fatalf("short page: %v", err)
	}
}

func TestPageHeader(t *testing.T) {
	p := heapPage()
	page.SetLSN(page.Page(p), 0x1_0000_0010)
	binary.LittleEndian.PutUint16(p[8:], 0x8001) // checksum shows as a negative smallint
	h, err := PageHeader(p)
	if err != nil {
		t.Fatal(err)
	}
	want := Header{LSN: 0x1_0000_0010, Checksum: -32767, Lower: 32, Upper: 8160, Special: 8192, PageSize: 8192, Version: 4}
	if h != want {
		t.Fatalf("got %+v, want %+v", h, want)
	}
	_, err = PageHeader(p[:100])
	var pe *pgerr.Error
	if !errors.As(err, &pe) || pe.Code != pgerr.InvalidParameterValue || pe.Detail != "Expected 8192 bytes, got 100." {
		t.Fatalf("short page: %v", err)
	}
}

func TestFSMPageContents(t *testing.T) {
	p := make([]byte, page.BlockSize)
	p[fsmNodesOff+0] = 200
	p[fsmNodesOff+4095] = 200
	p[fsmNodesOff+4096] = 3
	binary.LittleEndian.PutUint32(p[fsmContents:], 2)
	got, err := FSMPageContents(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := "0: 200\n4095: 200\n4096: 3\nfp_next_slot: 2\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

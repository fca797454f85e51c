// Package pageinspect decodes raw 8 KiB pages as PostgreSQL 15's contrib
// module pageinspect does (rawpage.c, heapfuncs.c, fsmfuncs.c): the page
// header, the line pointers and tuple headers of a heap page, and the
// nodes of a free space map page. minipg's heap and FSM pages have
// PostgreSQL's layout (see storage/page, storage/heap and storage/fsm), so
// the same bytes decode to what PostgreSQL prints.
//
// The decoders take any bytes (a page copied out of the buffer pool, or a
// value a user typed) and never read outside them: a damaged page gives
// the fields PostgreSQL would give, or NULLs where PostgreSQL declines to
// read, never a panic. Errors carry PostgreSQL's SQLSTATE and message.
//
// The package holds no state and imports only storage/page.
package pageinspect

import (
	"encoding/binary"
	"strconv"
	"strings"

	"minipg/pgerr"
	"minipg/storage/page"
)

// Header is page_header's row. Checksum and Flags are smallint in SQL, so
// values above 32767 show as negative numbers, as PostgreSQL shows them.
type Header struct {
	LSN      uint64
	Checksum int16
	Flags    int16
	Lower    int32
	Upper    int32
	Special  int32
	PageSize int32
	Version  int16
	PruneXid uint32
}

// checkPageSize is get_page_from_raw's check: exactly BLCKSZ bytes.
func checkPageSize(raw []byte) error {
	if len(raw) != page.BlockSize {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid page size").
			WithDetail("Expected %d bytes, got %d.", page.BlockSize, len(raw))
	}
	return nil
}

// PageHeader decodes the page header of raw (page_header).
func PageHeader(raw []byte) (Header, error) {
	if err := checkPageSize(raw); err != nil {
		return Header{}, err
	}
	p := page.Page(raw)
	sv := page.SizeVersion(p)
	return Header{
		LSN:      page.LSN(p),
		Checksum: int16(page.Checksum(p)),
		Flags:    int16(page.Flags(p)),
		Lower:    int32(page.Lower(p)),
		Upper:    int32(page.Upper(p)),
		Special:  int32(page.Special(p)),
		PageSize: int32(sv & 0xFF00),
		Version:  int16(sv & 0x00FF),
		PruneXid: page.PruneXid(p),
	}, nil
}

// Heap tuple header layout (HeapTupleHeaderData), little-endian.
const (
	offXmin      = 0
	offXmax      = 4
	offField3    = 8
	offCtid      = 12
	offInfomask2 = 18
	offInfomask  = 20
	offHoff      = 22
	offBits      = 23 // SizeofHeapTupleHeader

	minHeapTupleSize = 24 // MinHeapTupleSize: MAXALIGN(SizeofHeapTupleHeader)
	heapHasNull      = 0x0001
	heapHasOidOld    = 0x0008
	heapNattsMask    = 0x07FF
)

// HeapItem is one row of heap_page_items. Tuple is false when the line
// pointer has no (valid) tuple, and then every field from Xmin on is NULL;
// Bits and Oid are NULL (HasBits, HasOid false) when the tuple has no null
// bitmap, no old-style OID, or a t_hoff that cannot be trusted.
type HeapItem struct {
	LP      int16
	LPOff   int16
	LPFlags int16
	LPLen   int16

	Tuple      bool
	Xmin, Xmax uint32
	Field3     int32
	CtidBlock  uint32
	CtidOffset uint16
	Infomask2  int32
	Infomask   int32
	Hoff       int16
	HasBits    bool
	Bits       string
	HasOid     bool
	Oid        uint32
	Data       []byte // nil when lp_len < t_hoff
}

// HeapPageItems decodes the line pointers of raw as heap_page_items does:
// one item per line pointer up to pd_lower, with the tuple header decoded
// when the line pointer has storage that lies inside raw, is at least a
// tuple header long and is MAXALIGNed.
func HeapPageItems(raw []byte) ([]HeapItem, error) {
	if len(raw) < page.HeaderSize {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "input page too small (%d bytes)", len(raw))
	}
	p := page.Page(raw)
	lower := page.Lower(p)
	maxoff := 0
	if lower > page.HeaderSize {
		maxoff = (lower - page.HeaderSize) / page.ItemIDSize
	}
	var out []HeapItem
	for i := 1; i <= maxoff; i++ {
		if page.HeaderSize+i*page.ItemIDSize > len(raw) {
			break // PostgreSQL would read past the value here; minipg stops
		}
		lpOff, flags, lpLen := page.ItemID(p, uint16(i))
		it := HeapItem{LP: int16(i), LPOff: int16(lpOff), LPFlags: int16(flags), LPLen: int16(lpLen)}
		if lpLen > 0 && lpLen >= minHeapTupleSize && lpOff == page.MaxAlignLen(lpOff) && lpOff+lpLen <= len(raw) {
			t := raw[lpOff : lpOff+lpLen]
			it.Tuple = true
			it.Xmin = binary.LittleEndian.Uint32(t[offXmin:])
			it.Xmax = binary.LittleEndian.Uint32(t[offXmax:])
			it.Field3 = int32(binary.LittleEndian.Uint32(t[offField3:]))
			it.CtidBlock = uint32(binary.LittleEndian.Uint16(t[offCtid:]))<<16 | uint32(binary.LittleEndian.Uint16(t[offCtid+2:]))
			it.CtidOffset = binary.LittleEndian.Uint16(t[offCtid+4:])
			im2 := binary.LittleEndian.Uint16(t[offInfomask2:])
			im := binary.LittleEndian.Uint16(t[offInfomask:])
			it.Infomask2, it.Infomask = int32(im2), int32(im)
			hoff := int(t[offHoff])
			it.Hoff = int16(hoff)
			if hoff <= lpLen {
				it.Data = append([]byte{}, t[hoff:]...)
			}
			if hoff >= offBits && hoff <= lpLen && hoff == page.MaxAlignLen(hoff) {
				if im&heapHasNull != 0 {
					natts := int(im2 & heapNattsMask)
					nbits := (natts + 7) / 8 * 8
					it.HasBits, it.Bits = true, bitsToText(t[offBits:hoff], nbits)
				}
				if im&heapHasOidOld != 0 && hoff >= 4 {
					it.HasOid, it.Oid = true, binary.LittleEndian.Uint32(t[hoff-4:])
				}
			}
		}
		out = append(out, it)
	}
	return out, nil
}

// bitsToText is bits_to_text: one '1' or '0' per bit, lowest bit of each
// byte first. Bits beyond bits read as 0.
func bitsToText(bits []byte, n int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if i/8 < len(bits) && bits[i/8]&(1<<(i%8)) != 0 {
			sb.WriteByte('1')
		} else {
			sb.WriteByte('0')
		}
	}
	return sb.String()
}

// FSM page layout: after the MAXALIGNed page header, fp_next_slot (a C
// int) and the nodes, one byte each.
const (
	fsmContents     = (page.HeaderSize + page.MaxAlign - 1) &^ (page.MaxAlign - 1)
	fsmNodesOff     = fsmContents + 4
	fsmNodesPerPage = page.BlockSize - fsmNodesOff
)

// FSMPageContents is fsm_page_contents: "node: value" for every non-zero
// node of the page's tree, one per line, then "fp_next_slot: n".
func FSMPageContents(raw []byte) (string, error) {
	if err := checkPageSize(raw); err != nil {
		return "", err
	}
	var sb strings.Builder
	for i, v := range raw[fsmNodesOff : fsmNodesOff+fsmNodesPerPage] {
		if v != 0 {
			sb.WriteString(strconv.Itoa(i))
			sb.WriteString(": ")
			sb.WriteString(strconv.Itoa(int(v)))
			sb.WriteByte('\n')
		}
	}
	sb.WriteString("fp_next_slot: ")
	sb.WriteString(strconv.Itoa(int(int32(binary.LittleEndian.Uint32(raw[fsmContents:])))))
	sb.WriteByte('\n')
	return sb.String(), nil
}

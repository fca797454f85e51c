package buffer

import (
	"encoding/binary"

	"minipg/storage/page"
)

// Page header offsets (bufpage.h) used by the pool itself.
const (
	offLower    = 12
	offUpper    = 14
	offSpecial  = 16
	offPageSize = 18
	offFlags    = 10
	pdValidFlag = 0x0007 // PD_VALID_FLAG_BITS
	pageVersion = 4      // PG_PAGE_LAYOUT_VERSION
)

// pageLSN returns pd_lsn (xlogid, xrecoff as two little-endian uint32).
func pageLSN(p []byte) uint64 {
	return uint64(binary.LittleEndian.Uint32(p[0:4]))<<32 | uint64(binary.LittleEndian.Uint32(p[4:8]))
}

// verifyPage is PageIsVerifiedExtended without checksums: an all-zero page is
// valid (a new page), otherwise the header must be sane. It reports whether
// the page is acceptable.
//
// TODO(page): switch to page.Verify once storage/page provides it.
func verifyPage(p []byte) bool {
	lower := int(binary.LittleEndian.Uint16(p[offLower:]))
	upper := int(binary.LittleEndian.Uint16(p[offUpper:]))
	special := int(binary.LittleEndian.Uint16(p[offSpecial:]))
	flags := binary.LittleEndian.Uint16(p[offFlags:])
	sizeVersion := binary.LittleEndian.Uint16(p[offPageSize:])
	if upper != 0 {
		return flags&^pdValidFlag == 0 &&
			lower >= page.HeaderSize && lower <= upper && upper <= special &&
			special <= page.BlockSize && special%page.MaxAlign == 0 &&
			sizeVersion == page.BlockSize|pageVersion
	}
	// pd_upper == 0: PageIsNew; acceptable only if every byte is zero.
	for _, b := range p {
		if b != 0 {
			return false
		}
	}
	return true
}

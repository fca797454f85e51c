package page

// A line pointer (ItemIdData) is one little-endian uint32 at
// HeaderSize + (off-1)*ItemIDSize:
//
//	bit 31            17 16  15 14             0
//	+------------------+------+----------------+
//	| lp_len (15 bits) |flags | lp_off (15 bits)|
//	+------------------+------+----------------+
//
// LPNormal items have storage (lp_len > 0) at lp_off. An LPRedirect item
// keeps the offset number it points to in lp_off and has lp_len 0. LPDead
// items may or may not have storage; LPUnused items have none.

const (
	lpOffMask = 0x7FFF
	lpLenMask = 0x7FFF
)

// itemPos returns the byte position of line pointer off, or -1 if off is 0
// or the line pointer would lie outside the page.
func itemPos(p Page, off uint16) int {
	if off == 0 {
		return -1
	}
	pos := HeaderSize + (int(off)-1)*ItemIDSize
	if pos+ItemIDSize > len(p) {
		return -1
	}
	return pos
}

// ItemID returns line pointer off's fields. An off outside the page reads as
// an unused line pointer (0, LPUnused, 0). It does not check off against
// MaxOffset: callers iterate 1..MaxOffset(p).
func ItemID(p Page, off uint16) (lpOff, flags, lpLen int) {
	pos := itemPos(p, off)
	if pos < 0 {
		return 0, LPUnused, 0
	}
	w := u32(p, pos)
	return int(w & lpOffMask), int(w>>15) & 3, int(w>>17) & lpLenMask
}

// SetItemID sets line pointer off's fields (ItemIdSetNormal, ItemIdSetDead,
// ItemIdSetRedirect, ItemIdSetUnused are all SetItemID with the right
// arguments). It does not move pd_lower; off must be within the page.
func SetItemID(p Page, off uint16, lpOff, flags, lpLen int) {
	pos := itemPos(p, off)
	if pos < 0 {
		panic("page: SetItemID: offset outside page")
	}
	put32(p, pos, uint32(lpOff&lpOffMask)|uint32(flags&3)<<15|uint32(lpLen&lpLenMask)<<17)
}

// Item is PageGetItem: the lp_len bytes at lp_off of line pointer off, as a
// slice into the page. It returns nil if off has no storage or its storage
// does not lie inside [pd_upper, pd_special), so a caller never reads
// outside a page however damaged it is.
func Item(p Page, off uint16) []byte {
	if off == 0 || off > MaxOffset(p) {
		return nil
	}
	lpOff, _, lpLen := ItemID(p, off)
	if lpLen == 0 || lpOff < HeaderSize || lpOff < Upper(p) || lpOff+lpLen > Special(p) || Special(p) > len(p) {
		return nil
	}
	return p[lpOff : lpOff+lpLen : lpOff+lpLen]
}

// itemIsUsed is ItemIdIsUsed; itemHasStorage is ItemIdHasStorage.
func itemIsUsed(flags int) bool     { return flags != LPUnused }
func itemHasStorage(lpLen int) bool { return lpLen != 0 }

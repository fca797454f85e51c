package page

import "encoding/binary"

// Header accessors. They read and write the fields in place and assume
// len(p) >= HeaderSize; a Page always has BlockSize bytes.

func u16(p Page, off int) uint16      { return binary.LittleEndian.Uint16(p[off:]) }
func put16(p Page, off int, v uint16) { binary.LittleEndian.PutUint16(p[off:], v) }
func u32(p Page, off int) uint32      { return binary.LittleEndian.Uint32(p[off:]) }
func put32(p Page, off int, v uint32) { binary.LittleEndian.PutUint32(p[off:], v) }

// Init is PageInit: it zeroes the page and sets pd_lower, pd_upper,
// pd_special (BlockSize - MAXALIGN(specialSize)) and pd_pagesize_version.
func Init(p Page, specialSize int) {
	specialSize = MaxAlignLen(specialSize)
	if len(p) != BlockSize || specialSize < 0 || specialSize >= BlockSize-HeaderSize {
		panic("page: Init: bad page or special size")
	}
	clear(p)
	put16(p, offLower, HeaderSize)
	put16(p, offUpper, uint16(BlockSize-specialSize))
	put16(p, offSpecial, uint16(BlockSize-specialSize))
	put16(p, offSizeVersion, BlockSize|LayoutVersion)
}

// IsNew is PageIsNew: pd_upper == 0, i.e. the page was never initialized
// (an all-zero page left by relation extension).
func IsNew(p Page) bool { return u16(p, offUpper) == 0 }

// LSN returns pd_lsn: the xlogid (high half) is stored first, then xrecoff.
func LSN(p Page) uint64 {
	return uint64(u32(p, offLSN))<<32 | uint64(u32(p, offLSN+4))
}

// SetLSN sets pd_lsn.
func SetLSN(p Page, lsn uint64) {
	put32(p, offLSN, uint32(lsn>>32))
	put32(p, offLSN+4, uint32(lsn))
}

// Checksum returns pd_checksum (minipg does not compute data checksums; it is 0).
func Checksum(p Page) uint16 { return u16(p, offChecksum) }

// Lower returns pd_lower, the end of the line pointer array.
func Lower(p Page) int { return int(u16(p, offLower)) }

// Upper returns pd_upper, the start of tuple space.
func Upper(p Page) int { return int(u16(p, offUpper)) }

// Special returns pd_special, the start of the special space (BlockSize on heap pages).
func Special(p Page) int { return int(u16(p, offSpecial)) }

// SizeVersion returns pd_pagesize_version (BlockSize|LayoutVersion on a valid page).
func SizeVersion(p Page) uint16 { return u16(p, offSizeVersion) }

// PruneXid returns pd_prune_xid, the oldest xid that may be prunable (a hint).
func PruneXid(p Page) uint32 { return u32(p, offPruneXid) }

// SetPruneXid sets pd_prune_xid.
func SetPruneXid(p Page, xid uint32) { put32(p, offPruneXid, xid) }

// Flags returns pd_flags.
func Flags(p Page) uint16 { return u16(p, offFlags) }

// SetFlags sets pd_flags.
func SetFlags(p Page, f uint16) { put16(p, offFlags, f) }

func setLower(p Page, v int) { put16(p, offLower, uint16(v)) }
func setUpper(p Page, v int) { put16(p, offUpper, uint16(v)) }

// MaxOffset is PageGetMaxOffsetNumber: the number of line pointers.
func MaxOffset(p Page) uint16 {
	lower := Lower(p)
	if lower <= HeaderSize {
		return 0
	}
	return uint16((lower - HeaderSize) / ItemIDSize)
}

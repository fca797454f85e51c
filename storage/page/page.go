package page

// BlockSize is BLCKSZ.
const BlockSize = 8192

// InvalidBlock is InvalidBlockNumber.
const InvalidBlock uint32 = 0xFFFFFFFF

// HeaderSize is SizeOfPageHeaderData.
const HeaderSize = 24

// ItemIDSize is sizeof(ItemIdData).
const ItemIDSize = 4

// MaxAlign is MAXIMUM_ALIGNOF on x86-64.
const MaxAlign = 8

// Line pointer states (lp_flags).
const (
	LPUnused   = 0
	LPNormal   = 1
	LPRedirect = 2
	LPDead     = 3
)

// TID is an ItemPointer: a block number and a 1-based line pointer offset.
type TID struct {
	Block  uint32
	Offset uint16
}

// Page is one BlockSize-byte page image.
type Page []byte

// MaxAlignLen rounds n up to MaxAlign.
func MaxAlignLen(n int) int { return (n + MaxAlign - 1) &^ (MaxAlign - 1) }

// Page header flag bits (pd_flags).
const (
	PDHasFreeLines  = 0x0001 // PD_HAS_FREE_LINES: are there any unused line pointers? (a hint)
	PDPageFull      = 0x0002 // PD_PAGE_FULL: not enough free space for a new tuple? (a hint)
	PDAllVisible    = 0x0004 // PD_ALL_VISIBLE: all tuples on the page are visible to everyone
	PDValidFlagBits = 0x0007 // PD_VALID_FLAG_BITS: any other bit set means a corrupt header
)

// LayoutVersion is PG_PAGE_LAYOUT_VERSION (4 since PostgreSQL 8.3).
const LayoutVersion = 4

// MaxHeapTuplesPerPage is MaxHeapTuplesPerPage for BLCKSZ 8192:
// (BLCKSZ - SizeOfPageHeaderData) / (MAXALIGN(SizeofHeapTupleHeader) + sizeof(ItemIdData)).
const MaxHeapTuplesPerPage = (BlockSize - HeaderSize) / (24 + ItemIDSize)

// FirstOffset is FirstOffsetNumber; InvalidOffset is InvalidOffsetNumber.
const (
	InvalidOffset uint16 = 0
	FirstOffset   uint16 = 1
)

// Byte offsets of the header fields.
const (
	offLSN         = 0
	offChecksum    = 8
	offFlags       = 10
	offLower       = 12
	offUpper       = 14
	offSpecial     = 16
	offSizeVersion = 18
	offPruneXid    = 20
)

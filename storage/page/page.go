// Package page is PostgreSQL 15's slotted page (bufpage.h), byte for byte.
//
//	+----------------+---------------------------------+
//	| PageHeaderData | linp1 linp2 linp3 ...           |
//	+-----------+----+---------------------------------+
//	| ... linpN |                                      |
//	+-----------+--------------------------------------+
//	|           ^ pd_lower                             |
//	|                                                  |
//	|             v pd_upper                           |
//	+-------------+------------------------------------+
//	|             | tupleN ...                         |
//	+-------------+------------------+-----------------+
//	|       ... tuple3 tuple2 tuple1 | "special space" |
//	+--------------------------------+-----------------+
//	                                 ^ pd_special
//
// The 24-byte header, little-endian (x86-64 PostgreSQL's native order):
//
//	0       8            10         12         14         16           18                   20           24
//	+-------+------------+----------+----------+----------+------------+--------------------+------------+
//	| pd_lsn| pd_checksum| pd_flags | pd_lower | pd_upper | pd_special | pd_pagesize_version| pd_prune_xid|
//	| (u64: | u16        | u16      | u16      | u16      | u16        | u16 (8192|4)       | u32         |
//	| xlogid<<32|xrecoff as two u32, high word first)                                                      |
//	+-------+------------+----------+----------+----------+------------+--------------------+------------+
//
// A line pointer (ItemIdData) is a 32-bit word: lp_off:15, lp_flags:2, lp_len:15
// (lp_off in the low bits, as gcc lays out the bit-field on x86-64).
//
// What is where:
//
//	header.go  PageInit and the header fields (pd_lsn, pd_lower, ...)
//	itemid.go  line pointers (ItemIdData) and PageGetItem
//	bufpage.go PageAddItemExtended and the free-space functions
//	repair.go  PageRepairFragmentation, PageTruncateLinePointerArray
//	verify.go  PageIsVerifiedExtended-style header checks
//	tid.go     ItemPointer text I/O (tidin/tidout)
//
// All functions are pure functions on a page image; locking is the
// caller's (storage/buffer content locks). Functions that follow pointers
// read from the page never index outside it, whatever its bytes: a damaged
// page yields a DataCorrupted error or an empty result, never a panic.
// pd_flags bits and pd_prune_xid are hints, as in PostgreSQL.
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

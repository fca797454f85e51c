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

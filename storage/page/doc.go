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
//	page.go    constants, TID, MAXALIGN
//	header.go  PageInit and the header fields (pd_lsn, pd_lower, ...)
//	itemid.go  line pointers (ItemIdData) and PageGetItem
//	bufpage.go PageAddItemExtended, PageIndexTupleDelete and the free-space functions
//	repair.go  PageRepairFragmentation, PageTruncateLinePointerArray
//	verify.go  PageIsVerifiedExtended-style header checks
//	tid.go     ItemPointer text I/O (tidin/tidout)
//
// Invariants of a page in use (Verify checks the header ones; heap.Check
// the line pointers): HeaderSize <= pd_lower <= pd_upper <= pd_special <=
// BlockSize, pd_special MAXALIGNed, pd_pagesize_version = BlockSize|4; every
// line pointer with storage points inside [pd_upper, pd_special); tuple
// storage is MAXALIGNed; a heap page has at most MaxHeapTuplesPerPage line
// pointers. pd_flags bits and pd_prune_xid are hints, as in PostgreSQL; the
// page LSN is set by the WAL code.
//
// Locking: none here. These are pure functions on a page image; the caller
// holds the buffer's content lock (shared to read, exclusive to change, a
// cleanup lock for RepairFragmentation). Functions that follow pointers
// read from the page never index outside it, whatever its bytes: a damaged
// page yields a DataCorrupted error or an empty result, never a panic.
// Init, SetItemID panic on arguments no caller can get wrong without a bug.
package page

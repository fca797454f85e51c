// Package fsm is minipg's free space map: PostgreSQL's FSM
// (src/backend/storage/freespace) over the buffer pool, and the placement
// policies that use it to decide where a new tuple goes. README.md is the
// design document; this comment is the on-disk format and the rules.
//
// # What it owns
//
// The _fsm fork of every heap relation and disk index
// (base/<relfilenode>_fsm; an index's records whole free pages only:
// indexfsm.go), the free-space categories in it, the policies ("classic",
// "locality" and "append") and relation extension (extend.go), which they
// all share.
//
// # On-disk format of one FSM page
//
// Byte for byte as PostgreSQL 15 writes it (x86-64, BLCKSZ 8192):
//
//	0                        24            28                        4123                          8192
//	+------------------------+-------------+---------------------------+-----------------------------+
//	| PageHeaderData         | fp_next_slot| fp_nodes[0 .. 4094]       | fp_nodes[4095 .. 8163]      |
//	| (page.Init(p, 0):      | int32 LE    | inner nodes, breadth first| leaves = slots 0 .. 4068    |
//	|  pd_lower 24,          | search hint | node x has children       | one category byte each      |
//	|  pd_upper = pd_special |             | 2x+1, 2x+2; each is the   | (bottom level: heap block   |
//	|  = 8192, no items)     |             | max of its children       |  logpage*4069 + slot)       |
//	+------------------------+-------------+---------------------------+-----------------------------+
//
// A category is one byte: free bytes / 32, except 255 which means "at least
// MaxRequestSize (8160) bytes" (category.go). NodesPerPage = 8192 - 24 - 4 =
// 8164 nodes, of which NonLeafNodesPerPage = 4095 are inner nodes (as if the
// tree had 4096 leaves) and LeafNodesPerPage = SlotsPerPage = 4069 are
// leaves. A page that is all zeroes (extended but never written) reads as
// an empty page and is PageInit'ed by the first writer.
//
// The fork is a three-level tree of such pages, stored depth first (see
// address.go): block 0 is the root, block 1 the first level-1 page, blocks
// 2 .. 4070 the bottom pages under it, block 4071 the second level-1 page,
// and so on.
//
// # Invariants
//
//   - Within a page every inner node is the maximum of its children (a torn
//     page that breaks this is rebuilt by the first search that notices).
//   - Across pages an upper-level slot may be stale in either direction: a
//     search that finds a page below with less than promised corrects the
//     slot and restarts; an increase at the bottom reaches the upper levels
//     only through Vacuum (FreeSpaceMapVacuumRange). Check verifies upper >=
//     lower after a Vacuum.
//   - A leaf may overstate the page's real free space (the heap filled it
//     without telling the map); the heap reports the real figure when a page
//     proves too full, and VACUUM rewrites it.
//   - Nothing here is WAL-logged: the whole map is a hint.
//
// # Locking
//
// Lock order, outermost first: buffer.ExtensionLock(rel) -> Map.extendMu ->
// one FSM buffer content lock. A search holds one share lock at a time, an
// update one exclusive lock at a time; Vacuum keeps pins (no locks) on the
// pages above the one it works on. Map functions take no heap buffer lock
// and no extension lock (extending the FSM fork takes only extendMu), so
// they are safe under a heap buffer lock, although, like PostgreSQL, the
// heap should release its page before reporting its free space, to keep
// I/O out of buffer locks. Policy methods must be called with no heap
// buffer lock held: Extend takes the relation's extension lock, which is
// never taken under a content lock. The next-slot hints live in memory
// (atomics) so that searches never write a page under a share lock; they
// reach the page at its next exclusive write.
package fsm

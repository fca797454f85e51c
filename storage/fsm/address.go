package fsm

// Addressing (freespace.c). The FSM is a tree of FSM pages: the bottom level
// (level 0) has one leaf per heap block, each upper level one leaf per page
// of the level below, and the root level is a single page. Because
// SlotsPerPage^3 > 2^32, three levels cover every possible heap block
// (PostgreSQL uses four when BLCKSZ is small enough to need them).
//
// A page is named by its logical address (level, logical page number within
// the level). Pages are laid out in the fork depth first, each upper page
// before the pages it covers:
//
//	block 0: root (level 2, page 0)
//	block 1:   level 1, page 0
//	block 2:     level 0, page 0     heap blocks 0 .. 4068
//	block 3:     level 0, page 1     heap blocks 4069 .. 8137
//	...
//	block 4070:  level 0, page 4068  heap blocks .. 16,556,760
//	block 4071: level 1, page 1
//	block 4072:  level 0, page 4069
//	...
//
// so the fork grows only at its end as the heap grows.

const (
	// treeDepth is FSM_TREE_DEPTH.
	treeDepth = 3
	// rootLevel is FSM_ROOT_LEVEL; bottomLevel is FSM_BOTTOM_LEVEL.
	rootLevel   = treeDepth - 1
	bottomLevel = 0
)

// Compile-time check that three levels cover 2^32 heap blocks
// (FSM_TREE_DEPTH is 3 when SlotsPerFSMPage >= 1626).
var _ [SlotsPerPage - 1626]struct{}

// address is FSMAddress: a logical FSM page.
type address struct {
	level     int
	logpageno uint32
}

var rootAddress = address{level: rootLevel, logpageno: 0}

// physical is fsm_logical_to_physical: the block number of a logical page
// in the FSM fork.
func (a address) physical() uint32 {
	// The index of the first bottom-level page under this page.
	leafno := uint64(a.logpageno)
	for l := 0; l < a.level; l++ {
		leafno *= SlotsPerPage
	}
	// Count the pages that come before it on every level, plus the upper
	// pages above it.
	pages := uint64(0)
	for l := 0; l < treeDepth; l++ {
		pages += leafno + 1
		leafno /= SlotsPerPage
	}
	// If the page is not a bottom page, we counted the bottom-level page
	// under it and the pages of the levels in between that come after it;
	// subtract them.
	pages -= uint64(a.level)
	return uint32(pages - 1)
}

// location is fsm_get_location: the bottom-level page and slot of a heap
// block.
func location(heapBlk uint32) (address, int) {
	return address{level: bottomLevel, logpageno: heapBlk / SlotsPerPage}, int(heapBlk % SlotsPerPage)
}

// heapBlock is fsm_get_heap_blk: the heap block of a bottom-level slot.
func (a address) heapBlock(slot int) uint32 {
	return a.logpageno*SlotsPerPage + uint32(slot)
}

// parent is fsm_get_parent: the upper page and the slot in it that covers a.
func (a address) parent() (address, int) {
	return address{level: a.level + 1, logpageno: a.logpageno / SlotsPerPage}, int(a.logpageno % SlotsPerPage)
}

// child is fsm_get_child: the page below a's slot.
func (a address) child(slot int) address {
	return address{level: a.level - 1, logpageno: a.logpageno*SlotsPerPage + uint32(slot)}
}

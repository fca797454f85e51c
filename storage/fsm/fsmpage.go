package fsm

import (
	"encoding/binary"

	"minipg/storage/page"
)

// One FSM page (fsmpage.c). After the standard page header (pd_lower =
// pd_upper = pd_special = BLCKSZ... see doc.go for the byte layout) comes
// FSMPageData: a 4-byte fp_next_slot and NodesPerPage one-byte nodes that
// form a complete binary tree stored breadth first, root at node 0. The
// children of node x are 2x+1 and 2x+2. The first NonLeafNodesPerPage nodes
// are inner nodes, each the maximum of its children; the rest are the leaves
// ("slots"), one per heap block (bottom level) or per lower FSM page (upper
// levels). The tree is not full: the rightmost leaves of the last level are
// missing, so a node may have one child or none.
const (
	// contentsOff is PageGetContents: MAXALIGN(SizeOfPageHeaderData).
	contentsOff = (page.HeaderSize + page.MaxAlign - 1) &^ (page.MaxAlign - 1)
	// nextSlotOff is fp_next_slot (a C int).
	nextSlotOff = contentsOff
	// nodesOff is fp_nodes: offsetof(FSMPageData, fp_nodes) = 4.
	nodesOff = contentsOff + 4

	// NodesPerPage is BLCKSZ - MAXALIGN(SizeOfPageHeaderData) -
	// offsetof(FSMPageData, fp_nodes) = 8164.
	NodesPerPage = page.BlockSize - contentsOff - 4
	// NonLeafNodesPerPage is BLCKSZ / 2 - 1 = 4095: the inner nodes of the
	// tree, as if it were full at BLCKSZ/2 leaves.
	NonLeafNodesPerPage = page.BlockSize/2 - 1
	// LeafNodesPerPage is NodesPerPage - NonLeafNodesPerPage = 4069.
	LeafNodesPerPage = NodesPerPage - NonLeafNodesPerPage
	// SlotsPerPage is SlotsPerFSMPage: heap blocks (or lower FSM pages)
	// covered by one FSM page.
	SlotsPerPage = LeafNodesPerPage
)

func leftChild(x int) int { return 2*x + 1 }
func parentOf(x int) int  { return (x - 1) / 2 }

// rightNeighbor moves one node right on x's level, wrapping to the leftmost
// node of the same level (fsmpage.c's rightneighbor). The leftmost nodes of
// each level are numbered 2^level - 1.
func rightNeighbor(x int) int {
	x++
	if (x+1)&x == 0 {
		x = parentOf(x)
	}
	return x
}

// nodes returns the page's fp_nodes array.
func nodes(p page.Page) []byte { return p[nodesOff : nodesOff+NodesPerPage] }

// pageNextSlot reads fp_next_slot. The caller holds at least a share lock.
func pageNextSlot(p page.Page) int32 {
	return int32(binary.LittleEndian.Uint32(p[nextSlotOff:]))
}

// setPageNextSlot writes fp_next_slot. The caller holds the exclusive lock.
func setPageNextSlot(p page.Page, v int32) {
	binary.LittleEndian.PutUint32(p[nextSlotOff:], uint32(v))
}

// setAvail is fsm_set_avail: set a leaf and propagate the change up the
// page's tree. It reports whether the page changed. The caller holds the
// exclusive content lock.
func setAvail(p page.Page, slot int, value uint8) bool {
	n := nodes(p)
	nodeno := NonLeafNodesPerPage + slot
	if n[nodeno] == value && value <= n[0] {
		return false
	}
	n[nodeno] = value
	for nodeno > 0 {
		nodeno = parentOf(nodeno)
		l := leftChild(nodeno)
		nv := n[l]
		if r := l + 1; r < NodesPerPage && n[r] > nv {
			nv = n[r]
		}
		if n[nodeno] == nv {
			break
		}
		n[nodeno] = nv
	}
	// If the new value is still above the root, the tree was corrupt (a
	// torn page): rebuild it.
	if value > n[0] {
		rebuildPage(p)
	}
	return true
}

// getAvail is fsm_get_avail. The caller holds at least a share lock.
func getAvail(p page.Page, slot int) uint8 { return nodes(p)[NonLeafNodesPerPage+slot] }

// maxAvail is fsm_get_max_avail: the root. The caller holds at least a share
// lock.
func maxAvail(p page.Page) uint8 { return nodes(p)[0] }

// searchTree is the read-only part of fsm_search_avail: find a leaf with
// value >= minvalue, starting at leaf target and moving right (with
// wraparound), in O(log n) steps. It returns the slot, or -1 if the root is
// below minvalue. torn is true if an inner node promised more than its
// children hold; the caller must then rebuild the page under an exclusive
// lock and search again.
//
// The search widens a "triangle" from the start leaf: at each step it moves
// one node right (wrapping within the level) and climbs to the parent, so
// each step doubles the covered range and never looks left of the start
// until it wraps. Then it descends, preferring the left child.
func searchTree(n []byte, minvalue uint8, target int) (slot int, torn bool) {
	if n[0] < minvalue {
		return -1, false
	}
	if target < 0 || target >= LeafNodesPerPage {
		target = 0
	}
	nodeno := NonLeafNodesPerPage + target
	for nodeno > 0 {
		if n[nodeno] >= minvalue {
			break
		}
		nodeno = parentOf(rightNeighbor(nodeno))
	}
	for nodeno < NonLeafNodesPerPage {
		c := leftChild(nodeno)
		if c < NodesPerPage && n[c] >= minvalue {
			nodeno = c
			continue
		}
		c++
		if c < NodesPerPage && n[c] >= minvalue {
			nodeno = c
			continue
		}
		return -1, true
	}
	return nodeno - NonLeafNodesPerPage, false
}

// truncateAvail is fsm_truncate_avail: zero every slot >= nslots and fix the
// inner nodes. The caller holds the exclusive lock.
func truncateAvail(p page.Page, nslots int) bool {
	n := nodes(p)
	changed := false
	for i := NonLeafNodesPerPage + nslots; i < NodesPerPage; i++ {
		if n[i] != 0 {
			changed = true
			n[i] = 0
		}
	}
	if changed {
		rebuildPage(p)
	}
	return changed
}

// rebuildPage is fsm_rebuild_page: recompute every inner node from the
// leaves up. The caller holds the exclusive lock.
func rebuildPage(p page.Page) bool {
	n := nodes(p)
	changed := false
	for nodeno := NonLeafNodesPerPage - 1; nodeno >= 0; nodeno-- {
		l := leftChild(nodeno)
		var nv uint8
		if l < NodesPerPage {
			nv = n[l]
		}
		if r := l + 1; r < NodesPerPage && n[r] > nv {
			nv = n[r]
		}
		if n[nodeno] != nv {
			n[nodeno] = nv
			changed = true
		}
	}
	return changed
}

// checkPage verifies one page's tree: every inner node is >= each of its
// children, and the root equals the largest leaf. It returns the first
// offending node, or -1.
func checkPage(p page.Page) (bad int, why string) {
	n := nodes(p)
	for nodeno := 0; nodeno < NonLeafNodesPerPage; nodeno++ {
		l := leftChild(nodeno)
		if l < NodesPerPage && n[l] > n[nodeno] {
			return nodeno, "node below its left child"
		}
		if r := l + 1; r < NodesPerPage && n[r] > n[nodeno] {
			return nodeno, "node below its right child"
		}
	}
	var mx uint8
	for _, v := range n[NonLeafNodesPerPage:] {
		if v > mx {
			mx = v
		}
	}
	if n[0] != mx {
		return 0, "root differs from the largest leaf"
	}
	return -1, ""
}

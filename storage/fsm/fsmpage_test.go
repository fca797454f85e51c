package fsm

import (
	"math/rand"
	"testing"

	"minipg/storage/page"
)

func newFSMPage() page.Page {
	p := make(page.Page, page.BlockSize)
	page.Init(p, 0)
	return p
}

// firstFrom is the reference answer of a page search: the first slot at or
// after target, wrapping around, whose value is >= minvalue.
func firstFrom(leaves []uint8, target int, minvalue uint8) int {
	if target < 0 || target >= len(leaves) {
		target = 0
	}
	for i := 0; i < len(leaves); i++ {
		s := (target + i) % len(leaves)
		if leaves[s] >= minvalue {
			return s
		}
	}
	return -1
}

func TestRightNeighbor(t *testing.T) {
	for _, c := range []struct{ x, want int }{
		{1, 2}, {2, 1}, // level 1 wraps
		{3, 4}, {5, 6}, {6, 3}, // level 2 wraps
		{NonLeafNodesPerPage, NonLeafNodesPerPage + 1},
	} {
		if got := rightNeighbor(c.x); got != c.want {
			t.Errorf("rightNeighbor(%d) = %d, want %d", c.x, got, c.want)
		}
	}
}

func TestSetAvailPropagates(t *testing.T) {
	p := newFSMPage()
	if !setAvail(p, 100, 7) {
		t.Fatal("setAvail reported no change")
	}
	if setAvail(p, 100, 7) {
		t.Fatal("setting the same value reported a change")
	}
	if maxAvail(p) != 7 || getAvail(p, 100) != 7 {
		t.Fatalf("root %d, slot %d", maxAvail(p), getAvail(p, 100))
	}
	setAvail(p, LeafNodesPerPage-1, 200) // the last leaf, whose parent has one child
	setAvail(p, 100, 3)
	if maxAvail(p) != 200 {
		t.Fatalf("root = %d, want 200", maxAvail(p))
	}
	setAvail(p, LeafNodesPerPage-1, 0)
	if maxAvail(p) != 3 {
		t.Fatalf("root = %d, want 3", maxAvail(p))
	}
	if bad, why := checkPage(p); bad >= 0 {
		t.Fatalf("node %d: %s", bad, why)
	}
}

// The tree search returns exactly the first suitable slot to the right of
// the hint, wrapping around (fsmpage.c's search triangle).
func TestSearchTreeMatchesLinearScan(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, density := range []int{1, 10, 100, 1000, 4069} {
		for trial := 0; trial < 30; trial++ {
			p := newFSMPage()
			leaves := make([]uint8, LeafNodesPerPage)
			for i := 0; i < density; i++ {
				s := rng.Intn(LeafNodesPerPage)
				leaves[s] = uint8(rng.Intn(256))
				setAvail(p, s, leaves[s])
			}
			for q := 0; q < 50; q++ {
				target := rng.Intn(LeafNodesPerPage+10) - 5 // some out of range: treated as 0
				minv := uint8(1 + rng.Intn(255))
				got, torn := searchTree(nodes(p), minv, target)
				if torn {
					t.Fatal("consistent page reported torn")
				}
				if want := firstFrom(leaves, target, minv); got != want {
					t.Fatalf("density %d: search(min %d, target %d) = %d, want %d", density, minv, target, got, want)
				}
			}
		}
	}
}

func TestTornPageIsDetectedAndRebuilt(t *testing.T) {
	p := newFSMPage()
	setAvail(p, 10, 5)
	// A torn write left an inner node promising more than the leaves hold.
	nodes(p)[0] = 200
	nodes(p)[1] = 200
	if _, torn := searchTree(nodes(p), 100, 0); !torn {
		t.Fatal("torn page not detected")
	}
	if !rebuildPage(p) {
		t.Fatal("rebuild changed nothing")
	}
	if slot, torn := searchTree(nodes(p), 100, 0); torn || slot != -1 {
		t.Fatalf("after rebuild: slot %d torn %v", slot, torn)
	}
	if slot, _ := searchTree(nodes(p), 5, 0); slot != 10 {
		t.Fatalf("after rebuild: slot %d, want 10", slot)
	}
	// setAvail also rebuilds when it notices the root is below a leaf.
	nodes(p)[0] = 0
	setAvail(p, 11, 4)
	if bad, why := checkPage(p); bad >= 0 || maxAvail(p) != 5 {
		t.Fatalf("node %d: %s (root %d)", bad, why, maxAvail(p))
	}
}

func TestTruncateAvail(t *testing.T) {
	p := newFSMPage()
	for s := 0; s < LeafNodesPerPage; s += 7 {
		setAvail(p, s, uint8(s%250+1))
	}
	if !truncateAvail(p, 1000) {
		t.Fatal("truncate changed nothing")
	}
	for s := 0; s < LeafNodesPerPage; s++ {
		want := uint8(0)
		if s < 1000 && s%7 == 0 {
			want = uint8(s%250 + 1)
		}
		if got := getAvail(p, s); got != want {
			t.Fatalf("slot %d = %d, want %d", s, got, want)
		}
	}
	if bad, why := checkPage(p); bad >= 0 {
		t.Fatalf("node %d: %s", bad, why)
	}
	if truncateAvail(p, 1000) {
		t.Fatal("second truncate reported a change")
	}
}

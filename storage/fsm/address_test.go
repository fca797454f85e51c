package fsm

import "testing"

func TestLogicalToPhysical(t *testing.T) {
	for _, c := range []struct {
		a    address
		want uint32
	}{
		{address{2, 0}, 0},
		{address{1, 0}, 1},
		{address{0, 0}, 2},
		{address{0, 1}, 3},
		{address{0, 4068}, 4070},
		{address{1, 1}, 4071},
		{address{0, 4069}, 4072},
		{address{0, 2 * 4069}, 2*4070 + 2},
		{address{1, 2}, 2*4070 + 1},
	} {
		if got := c.a.physical(); got != c.want {
			t.Errorf("physical(%+v) = %d, want %d", c.a, got, c.want)
		}
	}
}

// Walking the tree depth first, upper page before the pages it covers,
// visits physical blocks 0, 1, 2, ... with no gap.
func TestPhysicalOrderIsDepthFirst(t *testing.T) {
	next := uint32(0)
	visit := func(a address) {
		if got := a.physical(); got != next {
			t.Fatalf("physical(%+v) = %d, want %d", a, got, next)
		}
		next++
	}
	visit(rootAddress)
	for s1 := 0; s1 < 3; s1++ {
		l1 := rootAddress.child(s1)
		visit(l1)
		for s0 := 0; s0 < SlotsPerPage; s0++ {
			visit(l1.child(s0))
		}
	}
}

func TestLocationRoundTrip(t *testing.T) {
	for _, blk := range []uint32{0, 1, 4068, 4069, 4070, 10000, 16556760, 16556761, 0xFFFFFFFE} {
		a, slot := location(blk)
		if a.level != bottomLevel || a.heapBlock(slot) != blk {
			t.Errorf("location(%d) = %+v/%d, maps back to %d", blk, a, slot, a.heapBlock(slot))
		}
		// Climbing to the root and back down returns to the same page.
		up := a
		var slots []int
		for up.level < rootLevel {
			var s int
			up, s = up.parent()
			slots = append(slots, s)
		}
		if up != rootAddress {
			t.Errorf("block %d: top is %+v", blk, up)
		}
		for i := len(slots) - 1; i >= 0; i-- {
			up = up.child(slots[i])
		}
		if up != a {
			t.Errorf("block %d: down from root reaches %+v, want %+v", blk, up, a)
		}
	}
}

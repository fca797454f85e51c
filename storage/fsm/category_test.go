package fsm

import "testing"

// The page-layout figures are PostgreSQL's for BLCKSZ 8192. Measured on
// PostgreSQL 15.20: a table of 4069 blocks, vacuumed, has a 3-block FSM fork
// (pg_relation_size(t, 'fsm') / 8192) and one of 4070 blocks a 4-block fork,
// so one bottom FSM page covers 4069 heap blocks (SlotsPerFSMPage);
// TestFSMForkSize checks the same figures here.
func TestLayoutConstants(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"NodesPerPage", NodesPerPage, 8164},
		{"NonLeafNodesPerPage", NonLeafNodesPerPage, 4095},
		{"LeafNodesPerPage", LeafNodesPerPage, 4069},
		{"SlotsPerPage", SlotsPerPage, 4069},
		{"MaxRequestSize", MaxRequestSize, 8160},
		{"CategoryStep", CategoryStep, 32},
		{"EmptyPageFree", EmptyPageFree, 8168},
		{"fp_nodes offset", nodesOff, 28},
		{"treeDepth", treeDepth, 3},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}

func TestAvailToCategory(t *testing.T) {
	for _, c := range []struct {
		avail int
		want  uint8
	}{
		{-1, 0}, {0, 0}, {31, 0}, {32, 1}, {63, 1}, {64, 2},
		{8095, 252}, {8096, 253}, {8127, 253}, {8128, 254}, {8159, 254},
		{8160, 255}, // MaxRequestSize: the special top category
		{8164, 255}, // an initialized empty heap page
		{8168, 255}, // what extension records
		{8191, 255},
	} {
		if got := AvailToCategory(c.avail); got != c.want {
			t.Errorf("AvailToCategory(%d) = %d, want %d", c.avail, got, c.want)
		}
	}
}

func TestCategoryToAvail(t *testing.T) {
	for _, c := range []struct {
		cat  uint8
		want int
	}{{0, 0}, {1, 32}, {2, 64}, {253, 8096}, {254, 8128}, {255, 8160}} {
		if got := CategoryToAvail(c.cat); got != c.want {
			t.Errorf("CategoryToAvail(%d) = %d, want %d", c.cat, got, c.want)
		}
	}
}

func TestNeededToCategory(t *testing.T) {
	for _, c := range []struct {
		needed int
		want   uint8
		ok     bool
	}{
		{-5, 1, true}, {0, 1, true}, {1, 1, true}, {32, 1, true}, {33, 2, true},
		{64, 2, true}, {65, 3, true}, {8128, 254, true}, {8129, 255, true},
		{8159, 255, true}, {8160, 255, true},
		{8161, 0, false}, {8192, 0, false},
	} {
		got, ok := NeededToCategory(c.needed)
		if got != c.want || ok != c.ok {
			t.Errorf("NeededToCategory(%d) = %d, %v; want %d, %v", c.needed, got, ok, c.want, c.ok)
		}
	}
}

// A page whose recorded category satisfies a request always has the space:
// recording rounds down, requesting rounds up.
func TestCategoriesAreConservative(t *testing.T) {
	for needed := 0; needed <= MaxRequestSize; needed++ {
		nc, _ := NeededToCategory(needed)
		// The largest avail that must not satisfy the request.
		if avail := needed - 1; avail >= 0 && AvailToCategory(avail) >= nc {
			t.Fatalf("avail %d (cat %d) satisfies a request for %d (cat %d)", avail, AvailToCategory(avail), needed, nc)
		}
		// And an empty page satisfies every valid request.
		if AvailToCategory(EmptyPageFree) < nc {
			t.Fatalf("an empty page does not satisfy a request for %d", needed)
		}
	}
}

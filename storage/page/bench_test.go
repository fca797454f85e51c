package page

import "testing"

// BenchmarkRepairFragmentation prunes one dead version from the middle of
// a full page of 306-byte tuples (a TPC-C stock page after a HOT update),
// the page a prune behind or before an update repairs.
func BenchmarkRepairFragmentation(b *testing.B) {
	full := make(Page, BlockSize)
	Init(full, 0)
	for AddItem(full, make([]byte, 306), InvalidOffset, false, true) != InvalidOffset {
	}
	mid := MaxOffset(full) / 2
	p := make(Page, BlockSize)
	for b.Loop() {
		copy(p, full)
		SetItemID(p, mid, 0, LPDead, 0)
		RepairFragmentation(p)
	}
}

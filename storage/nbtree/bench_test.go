package nbtree

import (
	"fmt"
	"testing"

	"minipg/storage/page"
)

// BenchmarkApplyDelete removes 1, 2 and 8 entries from a full leaf of 16-byte
// entries (a new_order key and its TID): the reclaim behind a prune deletes
// one or two entries a leaf, VACUUM many.
func BenchmarkApplyDelete(b *testing.B) {
	leaf := make(page.Page, page.BlockSize)
	initPage(leaf, 0, flagLeaf, 0, 0)
	for i := 0; ; i++ {
		e := mkEntry(uint64(i), "", page.TID{Block: uint32(i), Offset: 1})
		if page.AddItem(leaf, e, page.InvalidOffset, false, false) == page.InvalidOffset {
			break
		}
	}
	n := page.MaxOffset(leaf)
	for _, k := range []int{1, 2, 8} {
		offs := make([]uint16, k)
		for i := range offs {
			offs[i] = uint16(1 + int(n)*(2*i+1)/(2*k))
		}
		b.Run(fmt.Sprintf("items=%d", k), func(b *testing.B) {
			p := make(page.Page, page.BlockSize)
			for b.Loop() {
				copy(p, leaf)
				applyDelete(p, offs)
			}
		})
	}
}

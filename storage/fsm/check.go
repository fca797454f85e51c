package fsm

import (
	"fmt"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// Check verifies the free space map of a relation of nheap blocks, in the
// manner of bbolt's tx.Check. It reports the first problem as an ErrCorrupt
// error (XX001):
//
//   - on every FSM page, every inner node is >= each of its children and the
//     root equals the largest leaf;
//   - every upper-level slot is >= the maximum of the page below it, so no
//     recorded free space is unreachable by a search;
//   - no free space is recorded for a heap block >= nheap;
//   - if actualFree is not nil, each heap block's category is <= the category
//     of actualFree(blk), the page's real free space (heap.HeapFreeSpace; for
//     a page that IsNew, report EmptyPageFree, what extension records).
//
// The upper levels legitimately lag behind increases recorded at the bottom
// until a Vacuum covers them (PostgreSQL's FSM does the same), and leaves
// legitimately overstate free space until VACUUM or an insert corrects them:
// run Check after a Vacuum over the whole map (heap VACUUM does one), with
// no concurrent activity on the relation.
func Check(m *Map, actualFree func(blk uint32) (int, error), nheap uint32) error {
	c := checker{m: m, actualFree: actualFree, nheap: nheap}
	n, err := m.pool.NBlocks(m.rel, buffer.FSMFork)
	if err != nil {
		return err
	}
	c.nblocks = n
	_, err = c.page(rootAddress)
	return err
}

type checker struct {
	m          *Map
	actualFree func(uint32) (int, error)
	nheap      uint32
	nblocks    uint32
}

// page checks the FSM page at a and everything below it, and returns its
// root value.
func (c *checker) page(a address) (uint8, error) {
	blk := a.physical()
	if blk >= c.nblocks {
		return 0, nil
	}
	buf, err := c.m.pool.ReadBuffer(c.m.rel, buffer.FSMFork, blk)
	if err != nil {
		return 0, err
	}
	buf.RLock()
	var p page.Page = make([]byte, page.BlockSize)
	copy(p, buf.Page())
	buf.RUnlock()
	buf.Release()

	where := fmt.Sprintf("FSM block %d (level %d, page %d)", blk, a.level, a.logpageno)
	if bad, why := checkPage(p); bad >= 0 {
		return 0, corruptf("%s: node %d: %s", where, bad, why)
	}
	for slot := 0; slot < SlotsPerPage; slot++ {
		v := getAvail(p, slot)
		if a.level > bottomLevel {
			child := a.child(slot)
			if child.physical() >= c.nblocks {
				// Children are laid out in fork order: none after this.
				break
			}
			cm, err := c.page(child)
			if err != nil {
				return 0, err
			}
			if v < cm {
				return 0, corruptf("%s: slot %d is %d but the page below has %d", where, slot, v, cm)
			}
			continue
		}
		if v == 0 {
			continue
		}
		hb := a.heapBlock(slot)
		if hb >= c.nheap {
			return 0, corruptf("%s: free space recorded for heap block %d beyond the relation's %d blocks", where, hb, c.nheap)
		}
		if c.actualFree != nil {
			free, err := c.actualFree(hb)
			if err != nil {
				return 0, err
			}
			if ac := AvailToCategory(free); v > ac {
				return 0, corruptf("heap block %d: FSM category %d (%d bytes) exceeds the page's %d bytes free", hb, v, CategoryToAvail(v), free)
			}
		}
	}
	return maxAvail(p), nil
}

// assertPage panics if the locked FSM page in buf is internally inconsistent
// (invariants builds only).
func assertPage(buf *buffer.Buffer) {
	if bad, why := checkPage(buf.Page()); bad >= 0 {
		panic(fmt.Sprintf("fsm: block %d node %d: %s", buf.Block(), bad, why))
	}
}

// assertPath panics unless every node from slot's leaf up to the root of the
// locked FSM page in buf is the maximum of its children (invariants builds
// only; O(log n), unlike assertPage).
func assertPath(buf *buffer.Buffer, slot int) {
	n := nodes(buf.Page())
	for x := NonLeafNodesPerPage + slot; x > 0; {
		x = parentOf(x)
		l := leftChild(x)
		want := n[l]
		if r := l + 1; r < NodesPerPage && n[r] > want {
			want = n[r]
		}
		if n[x] != want {
			panic(fmt.Sprintf("fsm: block %d node %d is %d, its children's maximum is %d", buf.Block(), x, n[x], want))
		}
	}
}

package heap

import (
	"strings"
	"testing"

	"minipg/reloptions"
	"minipg/storage/buffer"
	"minipg/storage/fsm"
	"minipg/storage/page"
)

// With fsm_keep_runs on, locality starts each transaction's rows on a page
// where as many rows as its recent transactions inserted fit: one session
// inserting orders of 8 rows each puts (after the first few, which teach
// the average) no order on two pages, where without it about one in
// six straddles a page boundary. The pages it leaves keep what they
// have left (for updates of their own rows), and the table grows by at
// most one order's room per page.
func TestKeepRunsTogether(t *testing.T) {
	if testPolicyName != "locality" {
		t.Skip("fsm_keep_runs is a locality parameter")
	}
	const orders, lines = 300, 8
	payload := strings.Repeat("l", 150)
	// place inserts the orders and returns how many straddle a page
	// boundary and each page's free space at the end.
	place := func(keep string) (straddling int, free []int) {
		pol, err := fsm.NewPolicy(reloptions.Layers(map[string]string{"fsm_policy": "locality", "fsm_keep_runs": keep}))
		if err != nil {
			t.Fatal(err)
		}
		e := newEnv(t, 256, Options{Policy: pol})
		var st InsertState
		for o := range orders {
			xid := e.o.Begin()
			first := uint32(0)
			for l := range lines {
				tid, err := e.rel.Insert(mkRow(t, int32(o*lines+l), payload), xid, 0, &st)
				if err != nil {
					t.Fatal(err)
				}
				if l == 0 {
					first = tid.Block
				} else if tid.Block != first && o >= 4 {
					straddling++
					break
				}
			}
			e.o.Commit(xid)
		}
		n, err := e.rel.NBlocks()
		if err != nil {
			t.Fatal(err)
		}
		mustCheck(t, e.rel)
		for blk := range n {
			b, err := e.pool.ReadBuffer(testRel, buffer.MainFork, blk)
			if err != nil {
				t.Fatal(err)
			}
			b.RLock()
			free = append(free, page.HeapFreeSpace(b.Page()))
			b.RUnlock()
			b.Release()
		}
		return straddling, free
	}
	offStraddle, _ := place("off")
	onStraddle, onFree := place("on")
	if offStraddle < orders/20 {
		t.Fatalf("without fsm_keep_runs only %d of %d orders straddle a page boundary: the test shows nothing", offStraddle, orders)
	}
	if onStraddle != 0 {
		t.Fatalf("with fsm_keep_runs %d orders straddle a page boundary (%d without)", onStraddle, offStraddle)
	}
	// A page left behind keeps less than one order's room.
	order := lines * (page.MaxAlignLen(len(mkRow(t, 0, payload))) + page.ItemIDSize)
	for blk, free := range onFree[:len(onFree)-1] {
		if free >= order {
			t.Fatalf("block %d of %d left with %d bytes free, room for an order of %d", blk, len(onFree), free, order)
		}
	}
}

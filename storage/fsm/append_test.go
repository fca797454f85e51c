package fsm

import (
	"testing"
)

// vacuumThrough records every page's real free space the way heap VACUUM
// does: through the policy when it decides what VACUUM advertises.
func (h *simHeap) vacuumThrough() {
	h.t.Helper()
	n := h.nblocks()
	vr, own := h.pol.(VacuumRecorder)
	if own {
		vr.BeginVacuum(h.m)
	}
	for b := uint32(0); b < n; b++ {
		f, _ := h.actualFree(b)
		var err error
		if own {
			err = vr.RecordVacuumed(h.m, b, f, 0)
		} else {
			err = h.m.RecordPageWithFreeSpace(b, f)
		}
		if err != nil {
			h.t.Fatal(err)
		}
	}
	mustVacuumAll(h.t, h.m)
}

// Ten pages are filled, the first eight emptied and vacuumed. A new
// session then inserts a page's worth of rows: append puts them on the
// last page and on new pages only, and never creates a map; classic puts
// them on the emptied pages.
func TestAppendNeverReusesFreeSpace(t *testing.T) {
	for _, c := range []struct {
		policy string
		reuse  bool
	}{{"append", false}, {"classic", true}} {
		t.Run(c.policy, func(t *testing.T) {
			m := newTestMap(t, 32)
			pol, err := PolicyByName(c.policy)
			if err != nil {
				t.Fatal(err)
			}
			h := newSimHeap(t, m, pol)
			target := InvalidBlock
			for h.nblocks() < 10 || target != h.nblocks()-1 || h.page(target).free > 1000 {
				target = h.insert(Request{Need: 400, Target: target, OldBlock: InvalidBlock})
			}
			last := h.nblocks() - 1
			for b := uint32(0); b < 8; b++ {
				h.page(b).free = emptyHeapFree // deleted and pruned
			}
			h.vacuumThrough()
			reused := 0
			for i := 0; i < 20; i++ {
				blk := h.insert(Request{Need: 400, Target: InvalidBlock, OldBlock: InvalidBlock})
				if blk < last {
					reused++
				}
			}
			if c.reuse != (reused > 0) {
				t.Fatalf("%d of 20 rows went on emptied pages", reused)
			}
			if f := fsmBlocks(t, m); (f == 0) == c.reuse {
				t.Fatalf("FSM fork of %d blocks", f)
			}
		})
	}
}

// An update whose new version does not fit on its page goes to the
// session's target, else the last block, else a new page: never to a
// page with room next to the old one.
func TestAppendUpdateGoesToTheEnd(t *testing.T) {
	m := newTestMap(t, 32)
	pol := NewAppend()
	h := newSimHeap(t, m, pol)
	target := InvalidBlock
	for h.nblocks() < 5 {
		target = h.insert(Request{Need: 400, Target: target, OldBlock: InvalidBlock})
	}
	h.page(1).free = 4000
	last := h.nblocks() - 1
	blk := h.insert(Request{Need: 400, Target: InvalidBlock, OldBlock: 2})
	if blk != last {
		t.Fatalf("moved version on block %d, want the last block %d", blk, last)
	}
	h.page(last).free = 100
	if blk := h.insert(Request{Need: 400, Target: InvalidBlock, OldBlock: 2}); blk != last+1 {
		t.Fatalf("moved version on block %d, want a new block %d", blk, last+1)
	}
	if st := pol.Stats(); st.Extensions == 0 || st.LastBlockTries == 0 {
		t.Fatalf("counters %+v", st)
	}
}

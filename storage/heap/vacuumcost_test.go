package heap

import (
	"errors"
	"strings"
	"testing"
	"time"

	"minipg/storage/page"
)

// The cost-based delay charges page hits, misses and dirtied pages and
// sleeps delay x balance / limit (at most 4 x delay) whenever the balance
// reaches the limit; progress counts the pages; an interrupt stops the
// vacuum between pages, and a later vacuum finishes the work.
func TestVacuumCostDelay(t *testing.T) {
	e := newEnv(t, 64, Options{})
	payload := strings.Repeat("v", 100)
	tids := e.insertCommitted(t, 0, 300, payload) // 6 pages
	var victims []page.TID
	for _, tid := range tids {
		if tid.Offset%2 == 0 {
			victims = append(victims, tid)
		}
	}
	e.deleteCommitted(t, victims)
	if err := e.pool.FlushAll(); err != nil { // the deletes' pages are clean again
		t.Fatal(err)
	}

	var sleeps []time.Duration
	cost := &VacuumCost{PageHit: 1, PageMiss: 10, PageDirty: 20,
		Params: func() (int, time.Duration) { return 21, 10 * time.Millisecond },
		Sleep:  func(d time.Duration) error { sleeps = append(sleeps, d); return nil }}
	var prog VacuumProgress
	vs, err := e.rel.VacuumWith(e.o.OldestXmin(), e.o, nil, VacuumOptions{Cost: cost, Progress: &prog})
	if err != nil {
		t.Fatal(err)
	}
	if vs.TuplesRemoved != len(victims) {
		t.Fatalf("removed %d, want %d", vs.TuplesRemoved, len(victims))
	}
	// No indexes: one pass, each page pruned (dirtied: 21) and its dead
	// items freed at once (already dirty: 1), 6 times.
	if cost.Hits != 12 || cost.Misses != 0 || cost.Dirtied != 6 {
		t.Fatalf("hits %d misses %d dirtied %d, want 12 0 6", cost.Hits, cost.Misses, cost.Dirtied)
	}
	// The prune of a page brings the balance to 21 (the first page) or 22
	// (1 left from the previous page's second visit): a sleep of
	// 10ms x balance/21 before freeing its items, 6 times.
	if len(sleeps) != 6 {
		t.Fatalf("%d sleeps (%v), want 6", len(sleeps), sleeps)
	}
	for i, d := range sleeps {
		want := 10 * time.Millisecond
		if i > 0 {
			want = want * 22 / 21
		}
		if d != want {
			t.Fatalf("sleep %d: %v, want %v", i, d, want)
		}
	}
	if prog.HeapBlksTotal.Load() != 6 || prog.HeapBlksScanned.Load() != 6 || prog.HeapBlksVacuumed.Load() != 6 ||
		VacuumPhase(prog.Phase.Load()) != PhaseFinalCleanup {
		t.Fatalf("progress total %d scanned %d vacuumed %d phase %s", prog.HeapBlksTotal.Load(),
			prog.HeapBlksScanned.Load(), prog.HeapBlksVacuumed.Load(), VacuumPhase(prog.Phase.Load()))
	}

	// A large balance sleeps at most 4 x delay.
	c := &VacuumCost{PageMiss: 1000, Params: func() (int, time.Duration) { return 10, time.Millisecond }}
	c.charge(false, false)
	var slept time.Duration
	c.Sleep = func(d time.Duration) error { slept = d; return nil }
	if err := c.delay(); err != nil || slept != 4*time.Millisecond {
		t.Fatalf("slept %v (%v), want 4ms", slept, err)
	}
}

func TestVacuumInterrupt(t *testing.T) {
	e := newEnv(t, 64, Options{})
	tids := e.insertCommitted(t, 0, 300, strings.Repeat("v", 100))
	e.deleteCommitted(t, tids)
	stop := errors.New("stop")
	pages := 0
	first, err := e.rel.VacuumWith(e.o.OldestXmin(), e.o, nil, VacuumOptions{Interrupt: func() error {
		if pages == 3 {
			return stop
		}
		pages++
		return nil
	}})
	if !errors.Is(err, stop) {
		t.Fatalf("err %v, want the interrupt's", err)
	}
	mustCheck(t, e.rel)
	vs, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil)
	if err != nil {
		t.Fatal(err)
	}
	// No indexes: the interrupted vacuum pruned the first three pages and
	// freed their items at once; the second one prunes and frees the rest.
	if first.DeadItemsReclaimed == 0 || first.DeadItemsReclaimed+vs.DeadItemsReclaimed != len(tids) {
		t.Fatalf("vacuums reclaimed %d + %d items, want %d in all", first.DeadItemsReclaimed, vs.DeadItemsReclaimed, len(tids))
	}
	st, err := e.rel.Analyze(e.o.OldestXmin(), e.o, VacuumOptions{})
	if err != nil || st.LiveTuples != 0 || st.DeadTuples != 0 || st.Pages != 6 {
		t.Fatalf("analyze after vacuum: %+v %v", st, err)
	}
}

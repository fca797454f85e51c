package heap

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"minipg/storage/fsm"
	"minipg/storage/page"
)

// waitPasses waits until pr has made two passes over its notes after the
// call while a note waits for its transaction (the second pass begins after
// every note made before the call was taken), or fails.
func waitPasses(t *testing.T, pr *Pruner) {
	t.Helper()
	from := pr.passes.Load()
	deadline := time.Now().Add(10 * time.Second)
	for pr.passes.Load() < from+2 {
		if time.Now().After(deadline) {
			t.Fatalf("the pruner made %d passes in 10 s", pr.passes.Load()-from)
		}
		time.Sleep(time.Millisecond)
	}
}

// waitIdle waits until pr has made a pass since it had made from passes and
// has no notes left, or fails.
func waitIdle(t *testing.T, pr *Pruner, from uint64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		pr.mu.Lock()
		pending := len(pr.pending)
		pr.mu.Unlock()
		if pr.passes.Load() > from && pending == 0 && pr.waiting.Load() == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pruner is not idle after 10 s: %d passes, %d notes pending, %d waiting",
				pr.passes.Load()-from, pending, pr.waiting.Load())
		}
		time.Sleep(time.Millisecond)
	}
}

// TestPruneBehind: a page whose row a committed UPDATE changed is pruned
// once the old version is dead to everyone, and the prune logs no image
// since the update logged the page after the redo point; a page a
// checkpoint passed in between is left for VACUUM; a deleted row's page is
// pruned too; a retired relation's pages are not touched. The dead tuples
// reported to the statistics (OnPrune) leave out the line pointers made
// LP_DEAD, which VACUUM still has to clear.
func TestPruneBehind(t *testing.T) {
	e := openWALEnv(t, t.TempDir(), true)
	pr := newPruner(e.o, 0)
	defer pr.Close()
	var reported atomic.Int64
	rel := Open(e.pool, testRel, testDesc, Options{Policy: fsm.NewClassic(), WAL: e.log, Pruner: pr,
		OnPrune: func(n int) { reported.Add(int64(n)) }})
	rel.SetIndexAttrs(IndexAttrs{Indexed: []int{0}, Key: []int{0}})
	env := &testEnv{pool: e.pool, rel: rel, o: e.o}
	tids := env.insertCommitted(t, 0, 20, strings.Repeat("x", 50))
	if tids[0].Block != tids[19].Block {
		t.Fatalf("rows on blocks %d..%d, want one page", tids[0].Block, tids[19].Block)
	}
	e.checkpoint(t)

	fpi := func() int64 { return e.log.Stats().FPI }
	before, from := fpi(), pr.passes.Load()
	ntid, hot := env.update(t, tids[0], 0, "updated")
	if !hot {
		t.Fatal("the update was not HOT")
	}
	if fpi() != before+1 {
		t.Fatalf("the first change after the checkpoint logged %d images, want 1", fpi()-before)
	}
	waitIdle(t, pr, from)
	st := rel.Stats()
	if st.PagesPrunedBehind != 1 || st.PruneBehindImage != 0 {
		t.Fatalf("after the update: %+v, want one page pruned behind", st)
	}
	if got := env.lpFlags(t, tids[0]); got != page.LPRedirect {
		t.Errorf("the updated row's root line pointer has flags %d, want LP_REDIRECT", got)
	}
	if got := env.lpFlags(t, ntid); got != page.LPNormal {
		t.Errorf("the new version's line pointer has flags %d, want LP_NORMAL", got)
	}
	if fpi() != before+1 {
		t.Errorf("the prune logged %d more images, want none", fpi()-before-1)
	}
	if n := reported.Load(); n != 1 {
		t.Errorf("the prune reported %d dead tuples gone, want 1 (the old version)", n)
	}

	// A transaction running from before the update holds the horizon; a
	// checkpoint passes; once the transaction ends, pruning would log the
	// page again, so the pruner leaves it.
	holder := e.o.Begin()
	ntid2, _ := env.update(t, tids[1], 1, "held")
	waitPasses(t, pr)
	if st := rel.Stats(); st.PagesPrunedBehind != 1 {
		t.Fatalf("a version a running transaction may see was pruned: %+v", st)
	}
	e.checkpoint(t)
	before, from = fpi(), pr.passes.Load()
	e.o.Commit(holder)
	waitIdle(t, pr, from)
	if st := rel.Stats(); st.PagesPrunedBehind != 1 || st.PruneBehindImage != 1 {
		t.Fatalf("after a checkpoint: %+v, want the page left (1 image avoided)", st)
	}
	if got := env.lpFlags(t, tids[1]); got != page.LPNormal {
		t.Errorf("a page past the redo point was pruned: flags %d", got)
	}
	if fpi() != before {
		t.Errorf("%d images logged with nothing to prune", fpi()-before)
	}

	// Deletes: the rows' storage goes, their line pointers stay LP_DEAD.
	from = pr.passes.Load()
	x := e.o.Begin()
	for _, tid := range []page.TID{ntid2, tids[3]} {
		if res, _, err := rel.Delete(env.snap(x, 0), tid, x, 0); err != nil || res != TMOk {
			t.Fatalf("delete: %v %v", res, err)
		}
	}
	e.o.Commit(x)
	waitIdle(t, pr, from)
	if st := rel.Stats(); st.PagesPrunedBehind != 2 {
		t.Fatalf("after the delete: %+v, want a second page pruned behind", st)
	}
	// tids[1] is a HOT root whose chain (it, ntid2) is now dead: LP_DEAD.
	if got := env.lpFlags(t, tids[1]); got != page.LPDead {
		t.Errorf("the deleted chain's root has flags %d, want LP_DEAD", got)
	}
	if got := env.lpFlags(t, tids[3]); got != page.LPDead {
		t.Errorf("the deleted row has flags %d, want LP_DEAD", got)
	}
	// Of the three versions removed, only ntid2 left no LP_DEAD behind.
	if n := reported.Load(); n != 2 {
		t.Errorf("after the deletes' prune %d dead tuples reported gone, want 2", n)
	}

	// A retired relation (its files about to be dropped) is left alone.
	rel.Retire()
	from = pr.passes.Load()
	env.update(t, tids[2], 2, "retired")
	waitIdle(t, pr, from)
	if st := rel.Stats(); st.PagesPrunedBehind != 2 {
		t.Fatalf("a retired relation was pruned: %+v", st)
	}
	if got := env.lpFlags(t, tids[2]); got != page.LPNormal {
		t.Errorf("a retired relation's page was pruned: flags %d", got)
	}
	mustCheckPages(t, rel)
}

// TestPruneBehindQueueBound: notes beyond the bound are dropped and
// counted, and a note for a page already noted (the last one or any
// other) joins its note, which waits for the latest change.
func TestPruneBehindQueueBound(t *testing.T) {
	e := newEnv(t, 16, Options{})
	pr := &Pruner{o: e.o, kick: make(chan struct{}, 1), pending: map[pageKey]*pruneNote{}} // no goroutine: the notes stay
	for i := range pruneBehindMaxNotes {
		pr.note(e.rel, uint32(i), 10, false)
	}
	pr.note(e.rel, pruneBehindMaxNotes-1, 11, false) // the last page again
	pr.note(e.rel, 0, 13, true)                      // the first page again
	if got := len(pr.pending); got != pruneBehindMaxNotes || len(pr.queue) != pruneBehindMaxNotes {
		t.Fatalf("%d notes (%d queued), want %d", got, len(pr.queue), pruneBehindMaxNotes)
	}
	pr.note(e.rel, pruneBehindMaxNotes-1, 9, false) // an older transaction's change: the note waits for 11
	if x := pr.pending[pageKey{e.rel, pruneBehindMaxNotes - 1}].xid; x != 11 {
		t.Errorf("the repeated page's note has xid %d, want 11", x)
	}
	if x := pr.pending[pageKey{e.rel, 0}].xid; x != 13 || len(pr.soon) != 1 || pr.soon[0].blk != 0 {
		t.Errorf("the first page's note has xid %d (want 13), %d notes to prune soon (want it alone)", x, len(pr.soon))
	}
	pr.note(e.rel, pruneBehindMaxNotes, 12, false)
	if got := len(pr.pending); got != pruneBehindMaxNotes {
		t.Fatalf("%d notes after one more, want %d", got, pruneBehindMaxNotes)
	}
	if d := e.rel.Stats().PruneBehindDropped; d != 1 {
		t.Errorf("%d notes counted dropped, want 1", d)
	}
}

// TestReclaimBehind: with Options.Reclaim the LP_DEAD line pointers a
// prune behind leaves become LP_UNUSED right after it, with no image (the
// page is still in this checkpoint's WAL): the hook is given each dead
// version's TID and tuple (a deleted plain row's own; for a redirect whose
// chain died, the chain's first member, whose indexed columns the entries
// carry), only the TIDs it returns as gone are freed, and they count as
// dead tuples gone. A hook that refuses (a VACUUM runs) leaves them LP_DEAD.
// After a crash the WAL gives the same page.
func TestReclaimBehind(t *testing.T) {
	dir := t.TempDir()
	e := openWALEnv(t, dir, true)
	pr := newPruner(e.o, 0)
	defer pr.Close()
	var reported atomic.Int64
	var (
		mu      sync.Mutex
		given   []DeadVersion
		refuse  bool
		keepOut page.TID // never returned as gone
	)
	var rel *Relation
	var env *testEnv
	var watch bool               // note the pages pruned behind at Begin
	var prunedAtBegin int64 = -1 // what Begin saw
	var order []string           // Begin, Delete, release
	reclaim := &Reclaimer{
		Begin: func() (func(), bool) {
			mu.Lock()
			defer mu.Unlock()
			if refuse {
				return nil, false
			}
			if watch {
				prunedAtBegin = rel.Stats().PagesPrunedBehind
			}
			order = append(order, "begin")
			return func() {
				mu.Lock()
				order = append(order, "release")
				mu.Unlock()
			}, true
		},
		Delete: func(dead []DeadVersion) []page.TID {
			mu.Lock()
			defer mu.Unlock()
			order = append(order, "delete")
			given = append(given, dead...)
			var gone []page.TID
			for _, d := range dead {
				if d.TID != keepOut {
					gone = append(gone, d.TID)
				}
			}
			return gone
		},
	}
	rel = Open(e.pool, testRel, testDesc, Options{Policy: fsm.NewClassic(), WAL: e.log, Pruner: pr,
		OnPrune: func(n int) { reported.Add(int64(n)) }, Reclaim: reclaim})
	rel.SetIndexAttrs(IndexAttrs{Indexed: []int{0}, Key: []int{0}})
	env = &testEnv{pool: e.pool, rel: rel, o: e.o}
	tids := env.insertCommitted(t, 0, 20, strings.Repeat("x", 50))
	e.checkpoint(t)
	fpi := func() int64 { return e.log.Stats().FPI }

	// tids[1] is updated (HOT; the pruner makes its root a redirect), then
	// the new version, tids[2] and tids[4] are deleted in one transaction:
	// the redirect and the two plain rows become LP_DEAD, then unused,
	// except tids[4], whose entries the hook keeps.
	from := pr.passes.Load()
	ntid, hot := env.update(t, tids[1], 1, "second version")
	if !hot {
		t.Fatal("the update was not HOT")
	}
	waitIdle(t, pr, from)
	if got := env.lpFlags(t, tids[1]); got != page.LPRedirect {
		t.Fatalf("the updated row's root has flags %d, want LP_REDIRECT", got)
	}
	before := fpi()
	mu.Lock()
	keepOut, watch, order = tids[4], true, nil
	mu.Unlock()
	prunedBefore := rel.Stats().PagesPrunedBehind
	from = pr.passes.Load()
	env.deleteCommitted(t, []page.TID{ntid, tids[2], tids[4]})
	waitIdle(t, pr, from)
	mu.Lock()
	// VACUUM is kept off from before the prune to after the reclaim.
	if strings.Join(order, ",") != "begin,delete,release" {
		t.Errorf("the reclaimer was called %v, want Begin before the prune, Delete, then release", order)
	}
	if prunedAtBegin != prunedBefore {
		t.Errorf("Begin saw %d pages pruned behind, want %d: it came after the prune", prunedAtBegin, prunedBefore)
	}
	watch = false
	got := map[page.TID]string{}
	for _, d := range given {
		_, payload := rowOf(t, d.Tuple)
		got[d.TID] = payload
	}
	mu.Unlock()
	want := map[page.TID]string{tids[1]: "second version", tids[2]: strings.Repeat("x", 50), tids[4]: strings.Repeat("x", 50)}
	if len(got) != len(want) {
		t.Fatalf("the hook was given %v, want %v", got, want)
	}
	for tid, p := range want {
		if got[tid] != p {
			t.Errorf("dead version %s given with payload %q, want %q", tid, got[tid], p)
		}
	}
	for _, tid := range []page.TID{tids[1], tids[2]} {
		if f := env.lpFlags(t, tid); f != page.LPUnused && f != -1 {
			t.Errorf("%s has flags %d after the reclaim, want LP_UNUSED", tid, f)
		}
	}
	if f := env.lpFlags(t, tids[4]); f != page.LPDead {
		t.Errorf("the row whose entries stayed has flags %d, want LP_DEAD", f)
	}
	if fpi() != before {
		t.Errorf("the prune and the reclaim logged %d images, want none", fpi()-before)
	}
	st := rel.Stats()
	if st.ReclaimedBehind != 2 || st.ReclaimRefused != 0 {
		t.Errorf("stats %+v, want 2 line pointers reclaimed", st)
	}
	// The delete's prune left three LP_DEAD line pointers (reporting none
	// gone, as PostgreSQL's ndeleted - nnewlpdead); the reclaim freed two.
	if n := reported.Load(); n != 1+2 {
		t.Errorf("%d dead tuples reported gone, want 3 (the update's old version, two reclaimed)", n)
	}

	// Refused: the line pointer stays LP_DEAD for VACUUM.
	mu.Lock()
	refuse = true
	mu.Unlock()
	from = pr.passes.Load()
	env.deleteCommitted(t, []page.TID{tids[5]})
	waitIdle(t, pr, from)
	if f := env.lpFlags(t, tids[5]); f != page.LPDead {
		t.Errorf("a refused reclaim left flags %d, want LP_DEAD", f)
	}
	if st := rel.Stats(); st.ReclaimRefused != 1 || st.ReclaimedBehind != 2 {
		t.Errorf("stats %+v, want one refusal", st)
	}
	mustCheckPages(t, rel)

	pages := e.pages(t)
	pr.Close()
	r := e.crashAndRecover(t, true, nil)
	comparePages(t, pages, r.pages(t))
}

// TestPruneBehindGathers: the changes a page with room receives while its
// note gathers are pruned, and their line pointers reclaimed, by one prune;
// a page short of space, which a reader would prune first, is pruned
// without waiting; Flush (what a checkpoint calls before it moves the redo
// point) prunes the gathering notes at once, with no image.
func TestPruneBehindGathers(t *testing.T) {
	e := openWALEnv(t, t.TempDir(), true)
	pr := newPruner(e.o, time.Hour)
	defer pr.Close()
	var calls atomic.Int64
	reclaim := &Reclaimer{
		Begin: func() (func(), bool) { return func() {}, true },
		Delete: func(dead []DeadVersion) []page.TID {
			calls.Add(1)
			gone := make([]page.TID, len(dead))
			for i, d := range dead {
				gone[i] = d.TID
			}
			return gone
		},
	}
	rel := Open(e.pool, testRel, testDesc, Options{Policy: fsm.NewClassic(), WAL: e.log, Pruner: pr, Reclaim: reclaim})
	rel.SetIndexAttrs(IndexAttrs{Indexed: []int{0}, Key: []int{0}})
	env := &testEnv{pool: e.pool, rel: rel, o: e.o}
	// Block 0 filled (short of space), block 1 with room.
	var full, roomy []page.TID
	for _, tid := range env.insertCommitted(t, 0, 120, strings.Repeat("x", 50)) {
		if tid.Block == 0 {
			full = append(full, tid)
		} else {
			roomy = append(roomy, tid)
		}
	}
	if len(roomy) < 3 || roomy[len(roomy)-1].Block != 1 {
		t.Fatalf("%d rows on block 0, %d after it, want two blocks", len(full), len(roomy))
	}
	e.checkpoint(t)
	env.withPage(t, 0, func(p page.Page) {
		if !rel.pruneSpaceLow(p) {
			t.Fatalf("block 0 has %d bytes free: not short of space", page.HeapFreeSpace(p))
		}
	})

	// Three transactions delete a row each on block 1, as a queue's
	// consumers do; one deletes a row on block 0.
	for _, tid := range roomy[:3] {
		env.deleteCommitted(t, []page.TID{tid})
	}
	env.deleteCommitted(t, []page.TID{full[0]})
	deadline := time.Now().Add(10 * time.Second)
	for env.lpFlags(t, full[0]) != page.LPUnused {
		if time.Now().After(deadline) {
			t.Fatalf("block 0, short of space, not pruned and reclaimed after 10 s: %+v", rel.Stats())
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(10 * pruneBehindTick)
	if st := rel.Stats(); st.PagesPrunedBehind != 1 || calls.Load() != 1 {
		t.Fatalf("block 1 pruned before its note gathered: %+v, %d reclaims", st, calls.Load())
	}
	before := e.log.Stats().FPI
	pr.Flush()
	st := rel.Stats()
	if st.PagesPrunedBehind != 2 || st.ReclaimedBehind != 4 || calls.Load() != 2 {
		t.Errorf("after Flush: %+v, %d reclaims; want block 1's 3 rows in one prune and one reclaim", st, calls.Load())
	}
	for _, tid := range roomy[:3] {
		if f := env.lpFlags(t, tid); f != page.LPUnused && f != -1 {
			t.Errorf("%s has flags %d after the flush, want LP_UNUSED", tid, f)
		}
	}
	if got := e.log.Stats().FPI - before; got != 0 {
		t.Errorf("the flushed prune logged %d images, want none", got)
	}
	pr.mu.Lock()
	left := len(pr.pending) + len(pr.queue) + len(pr.soon)
	pr.mu.Unlock()
	if left != 0 {
		t.Errorf("%d notes left after Flush", left)
	}
	mustCheckPages(t, rel)
	pr.Close()
	pr.Flush() // returns at once once the pruner is closed
}

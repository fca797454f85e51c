package nbtree

import (
	"testing"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// restart shuts e down cleanly (a checkpoint writes every page, the log
// and the pool are closed) and opens the index again on the same files
// with a new pool: nothing kept in memory survives.
func (e *env) restart(t testing.TB) *env {
	t.Helper()
	e.checkpoint(t)
	if err := e.log.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.pool.Close(); err != nil {
		t.Fatal(err)
	}
	return openEnv(t, e.dir, e.nbuf, e.opts)
}

// deleteAndRecord fills keys [0, 3000), bulk-deletes [100, 2800) and runs
// a second pass once the horizon has passed the deletions, so that the
// deleted pages are recorded free in the map. It returns the page counts
// after the deletion and how many pages the map records free.
func deleteAndRecord(t *testing.T, e *env, h *testHorizon, m model) (pageCounts, int) {
	t.Helper()
	fillSequential(t, e.ix, m, 0, 3000)
	deleteRange(t, e.ix, m, 100, 2800)
	h.advance()
	deleteRange(t, e.ix, m, 0, 0)
	after := countPages(t, e.ix)
	free := e.ix.FreePages()
	if after.deleted < 100 || free != after.deleted {
		t.Fatalf("after deleting 90%% of the entries: %+v, %d pages recorded free", after, free)
	}
	for blk := uint32(1); blk < uint32(after.blocks); blk++ {
		if got := e.ix.FSM().GetRecordedFreeSpace(blk); got != 0 && got != 8160 {
			t.Fatalf("block %d recorded with %d bytes free: want 8160 (free) or 0", blk, got)
		}
	}
	return after, free
}

// refill inserts keys [from, to) with a new payload, checking every 25
// inserts that the file has not grown past blocks while the map still
// records free pages, and returns the page counts at the end.
func refill(t *testing.T, ix *Index, m model, from, to uint64, blocks int) pageCounts {
	t.Helper()
	for k := from; k < to; k++ {
		en := mkEntry(k, "other-payload", page.TID{Block: uint32(k), Offset: 2})
		if err := ix.Insert(en); err != nil {
			t.Fatal(err)
		}
		m[string(en)] = struct{}{}
		if k%25 == 0 {
			if free := ix.FreePages(); free > 0 {
				if n, _ := ix.pool.NBlocks(ix.rel, buffer.MainFork); int(n) != blocks {
					t.Fatalf("the file grew from %d to %d blocks with %d pages recorded free", blocks, n, free)
				}
			}
		}
	}
	return countPages(t, ix)
}

// TestFreePagesSurviveRestart: the deleted pages a VACUUM recorded free are
// taken by splits after a clean restart, with no VACUUM in between: the
// file does not grow until they are used up.
func TestFreePagesSurviveRestart(t *testing.T) {
	h := newHorizon()
	e := newEnv(t, 48, Options{pageBytes: 600, Horizon: h})
	m := model{}
	after, free := deleteAndRecord(t, e, h, m)
	r := e.restart(t)
	if got := r.ix.FreePages(); got != free {
		t.Fatalf("%d pages recorded free after the restart, %d before", got, free)
	}
	refilled := refill(t, r.ix, m, 100, 2800, after.blocks)
	t.Logf("after deletion %+v, refilled %+v", after, refilled)
	if refilled.deleted != 0 || r.ix.FreePages() != 0 {
		t.Fatalf("refilled: %+v, %d pages recorded free; after deletion %+v", refilled, r.ix.FreePages(), after)
	}
	mustCheck(t, r.ix)
	compareContents(t, r.ix, m)
}

// TestFreePagesAfterCrash: the map is not WAL-logged; after a crash it is
// what the pool last wrote of it, here the checkpoint after VACUUM. Splits
// after the checkpoint took some of the pages (their use, logged, is
// redone; the map's record of it, not written, is lost), so the recovered
// map names live pages as free: splits skip them (their entries are then
// recorded used) and take every page that is still deleted, without a
// VACUUM in between. The pool is large enough that no page is written
// between the checkpoint and the crash.
func TestFreePagesAfterCrash(t *testing.T) {
	h := newHorizon()
	e := newEnv(t, 1024, Options{pageBytes: 600, Horizon: h})
	m := model{}
	after, free := deleteAndRecord(t, e, h, m)
	e.checkpoint(t)
	mid := refill(t, e.ix, m, 100, 400, after.blocks)
	taken := after.deleted - mid.deleted
	if taken == 0 || mid.blocks != after.blocks {
		t.Fatalf("before the crash: %+v, after deletion %+v", mid, after)
	}
	r := e.crash(t)
	if got := r.ix.FreePages(); got != free {
		t.Fatalf("%d pages recorded free after the crash, %d at the checkpoint", got, free)
	}
	if c := countPages(t, r.ix); c.deleted != mid.deleted {
		t.Fatalf("recovered: %+v, before the crash %+v", c, mid)
	}
	mustCheck(t, r.ix)
	compareContents(t, r.ix, m)
	refilled := refill(t, r.ix, m, 400, 2800, after.blocks)
	t.Logf("after deletion %+v, %d taken before the crash, refilled %+v", after, taken, refilled)
	if refilled.deleted != 0 || r.ix.FreePages() != 0 {
		t.Fatalf("refilled: %+v, %d pages recorded free; after deletion %+v", refilled, r.ix.FreePages(), after)
	}
	mustCheck(t, r.ix)
	compareContents(t, r.ix, m)
	r2 := r.crash(t)
	mustCheck(t, r2.ix)
	compareContents(t, r2.ix, m)
}

// TestStaleFreePageIsSkipped: a live page recorded free in the map is
// taken from it by the next split, found live under its lock and left
// alone; its entry is recorded used, and the split extends the index.
func TestStaleFreePageIsSkipped(t *testing.T) {
	h := newHorizon()
	e := newEnv(t, 48, Options{pageBytes: 600, Horizon: h})
	m := model{}
	fillSequential(t, e.ix, m, 0, 500)
	before := countPages(t, e.ix)
	stale := uint32(2) // a live page, not the one the next inserts split
	if err := e.ix.FSM().RecordFreeIndexPage(stale); err != nil {
		t.Fatal(err)
	}
	if err := e.ix.FSM().IndexFreeSpaceMapVacuum(); err != nil {
		t.Fatal(err)
	}
	fillSequential(t, e.ix, m, 500, 600)
	if got := e.ix.FSM().GetRecordedFreeSpace(stale); got != 0 {
		t.Fatalf("the stale entry of block %d is still recorded with %d bytes after splits", stale, got)
	}
	c := countPages(t, e.ix)
	if c.blocks <= before.blocks || c.deleted != 0 {
		t.Fatalf("before %+v, after %+v", before, c)
	}
	mustCheck(t, e.ix)
	compareContents(t, e.ix, m)
}

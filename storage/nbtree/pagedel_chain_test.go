package nbtree

import (
	"bytes"
	"errors"
	"slices"
	"syscall"
	"testing"

	"minipg/internal/fault"
	"minipg/storage/page"
	"minipg/storage/wal"
)

// chainOpts give trees of four levels with a few thousand entries.
func chainOpts(h Horizon) Options { return Options{pageBytes: 400, Horizon: h} }

// chainRecords reads e's whole WAL and counts the page deletions that took
// internal pages with them: MARK_PAGE_HALFDEAD records with chain pages
// (marks), the internal pages they marked (marked), and UNLINK_PAGE
// records of internal pages (unlinks).
func chainRecords(t *testing.T, e *env) (marks, marked, unlinks int) {
	t.Helper()
	if err := e.log.FlushAll(); err != nil {
		t.Fatal(err)
	}
	rd := e.log.NewReader(uint64(e.log.SegmentSize()))
	defer rd.Close()
	for {
		rec, err := rd.Next()
		if err != nil {
			break
		}
		if rec.Rmgr != wal.RmgrBtree {
			continue
		}
		switch {
		case rec.Info == xlMarkHalfDead && len(rec.Blocks) > 2:
			marks++
			marked += len(rec.Blocks) - 2
		case rec.Info == xlUnlinkPage && len(rec.MainData) == xlUnlinkInternalSize:
			unlinks++
		}
	}
	return marks, marked, unlinks
}

// subtreePages returns the blocks of the internal pages whose whole key
// space lies in [lo, hi) (the keys of mkKey), walking each internal level
// along the right links: the pages a deletion of every entry in the range
// should delete.
func subtreePages(t *testing.T, ix *Index, lo, hi uint64) []uint32 {
	t.Helper()
	m, err := ix.readMeta()
	if err != nil {
		t.Fatal(err)
	}
	loKey, hiKey := mkKey(lo, ""), mkKey(hi, "")
	var out []uint32
	blk := m.root
	for level := m.level; level > 0; level-- {
		var low []byte // the lower bound of the page at blk (nil: minus infinity)
		first := pNone
		for cur := blk; cur != pNone; {
			b, err := ix.getBuf(cur, false)
			if err != nil {
				t.Fatal(err)
			}
			p := b.Page()
			if first == pNone {
				first = downlink(page.Item(p, firstData(p)))
			}
			hk := bytes.Clone(highKey(p))
			if low != nil && bytes.Compare(low, loKey) >= 0 && hk != nil && bytes.Compare(hk, hiKey) <= 0 {
				out = append(out, cur)
			}
			low, cur = hk, btNext(p)
			relBuf(b, false)
		}
		blk = first
	}
	return out
}

// TestChainDeletion: emptying a key range that covers whole subtrees of a
// four-level tree makes VACUUM delete their internal pages with their
// last leaves (each subtree's top goes off its parent in one record, then
// one level per record down to the leaf); the tree passes the checker,
// scans both ways return the remaining entries, and, once the horizon has
// passed, inserts into the emptied range reuse every deleted page,
// internal ones included, before the file grows; redo reproduces it all.
func TestChainDeletion(t *testing.T) {
	h := newHorizon()
	e := newEnv(t, 64, chainOpts(h))
	m := model{}
	fillSequential(t, e.ix, m, 0, 6000)
	if st := mustCheck(t, e.ix); st.Levels < 4 {
		t.Fatalf("tree of %d levels, want 4", st.Levels)
	}
	subtree := subtreePages(t, e.ix, 1000, 5000)
	before := countPages(t, e.ix)
	if len(subtree) < 20 {
		t.Fatalf("%d internal pages inside the range", len(subtree))
	}
	reader := h.begin()
	deleteRange(t, e.ix, m, 1000, 5000)
	after := countPages(t, e.ix)
	st := mustCheck(t, e.ix)
	t.Logf("before %+v, after %+v, check %+v, %d internal pages inside the range", before, after, st, len(subtree))
	if st.HalfDead != 0 || st.HalfDeadInternal != 0 || after.halfDead != 0 {
		t.Fatalf("half-dead pages left: check %+v, pages %+v", st, after)
	}
	// The internal pages inside the range are gone (in one pass: the
	// leaves of a subtree are deleted left to right, the last one with
	// the chain above it), but for the rightmost child of a parent that
	// keeps other children (at most one per level, at the range's lower
	// end: its parent's other children are below the range), which keeps
	// its last downlink.
	kept := 0
	for _, blk := range subtree {
		b, err := e.ix.getBuf(blk, false)
		if err != nil {
			t.Fatal(err)
		}
		p := b.Page()
		deleted, downlinks := isDeleted(p), int(page.MaxOffset(p))-int(firstData(p))+1
		relBuf(b, false)
		if !deleted {
			kept++
			if downlinks != 1 {
				t.Fatalf("internal block %d inside the emptied range kept with %d downlinks", blk, downlinks)
			}
		}
	}
	if kept > st.Levels-1 || after.deletedInternal < len(subtree)-kept || after.liveInternal+after.deletedInternal != before.liveInternal {
		t.Fatalf("internal pages: before %+v, after %+v", before, after)
	}
	compareContents(t, e.ix, m)
	rev := m.sorted()
	slices.Reverse(rev)
	if got := collect(t, e.ix.NewIterator(Bound{}, Bound{}, true)); !slices.Equal(got, rev) {
		t.Fatalf("reverse scan after chain deletion: %d entries, want %d", len(got), len(rev))
	}
	for _, r := range []struct{ lo, hi uint64 }{{990, 1010}, {4990, 5010}, {1500, 4500}} {
		lo, hi := Bound{Key: mkKey(r.lo, "")}, Bound{Key: mkKey(r.hi, "")}
		for _, reverse := range []bool{false, true} {
			want := modelRange(m.sorted(), lo, hi, reverse)
			if got := collect(t, e.ix.NewIterator(lo, hi, reverse)); !slices.Equal(got, want) {
				t.Fatalf("scan [%d, %d) reverse %v: %d entries, want %d", r.lo, r.hi, reverse, len(got), len(want))
			}
		}
	}
	marks, marked, unlinks := chainRecords(t, e)
	if marks == 0 || unlinks != marked || unlinks != after.deletedInternal {
		t.Fatalf("%d chain marks of %d internal pages, %d internal unlinks, %d deleted internal pages", marks, marked, unlinks, after.deletedInternal)
	}

	// Reusable once the reader is gone: the next pass puts every deleted
	// page on the free list, and refilling the range takes them all
	// before the file grows.
	h.advance()
	h.end(reader)
	deleteRange(t, e.ix, m, 0, 0)
	if n := e.ix.FreePages(); n != after.deleted {
		t.Fatalf("%d pages free for reuse, %d deleted (%d internal)", n, after.deleted, after.deletedInternal)
	}
	for k := uint64(1000); k < 5000; k++ {
		en := mkEntry(k, "refill", page.TID{Block: uint32(k), Offset: 2})
		if err := e.ix.Insert(en); err != nil {
			t.Fatal(err)
		}
		m[string(en)] = struct{}{}
		if e.ix.FreePages() > 0 && k%100 == 0 {
			if c := countPages(t, e.ix); c.blocks != after.blocks {
				t.Fatalf("the file grew from %d to %d blocks with %d free pages left", after.blocks, c.blocks, e.ix.FreePages())
			}
		}
	}
	refilled := countPages(t, e.ix)
	t.Logf("refilled %+v", refilled)
	if refilled.deleted != 0 {
		t.Fatalf("refilled: %+v, after deletion %+v", refilled, after)
	}
	mustCheck(t, e.ix)
	compareContents(t, e.ix, m)

	want := e.pages(t)
	r := e.crash(t)
	got := r.pages(t)
	if len(got) != len(want) {
		t.Fatalf("recovered index has %d blocks, want %d", len(got), len(want))
	}
	for blk := range want {
		if !bytes.Equal(want[blk], got[blk]) {
			t.Fatalf("block %d differs after recovery", blk)
		}
	}
	mustCheck(t, r.ix)
	compareContents(t, r.ix, m)
}

// TestChainDeletionRedo: with no checkpoint since the index was made,
// recovery replays every record (none carries a page image): the chain
// marks and the internal unlinks redo into the same pages byte for byte,
// also when the crash comes between the steps of a deletion.
func TestChainDeletionRedo(t *testing.T) {
	for _, stop := range []string{"none", "after-mark", "after-unlink"} {
		t.Run(stop, func(t *testing.T) {
			h := newHorizon()
			e := newEnv(t, 64, chainOpts(h))
			m := model{}
			fillSequential(t, e.ix, m, 0, 6000)
			stopChainDeletion(t, stop)
			tids := map[page.TID]struct{}{}
			for k := uint64(1000); k < 5000; k++ {
				tids[page.TID{Block: uint32(k), Offset: 1}] = struct{}{}
				delete(m, string(mkEntry(k, "payload-payload", page.TID{Block: uint32(k), Offset: 1})))
			}
			_, err := e.ix.DeleteTIDs(tids, nil)
			testHookAfterHalfDead, testHookAfterUnlink = nil, nil
			fault.Clear()
			if (err != nil) != (stop != "none") {
				t.Fatalf("DeleteTIDs: %v", err)
			}
			marks, marked, unlinks := chainRecords(t, e)
			if marks == 0 || (stop == "after-mark") != (unlinks == 0) {
				t.Fatalf("%d chain marks (%d pages), %d internal unlinks", marks, marked, unlinks)
			}
			if n := recordKinds(t, e)["Btree image"]; n != 0 {
				t.Fatalf("%d btree records carry page images", n)
			}
			want := e.pages(t)
			c := countPages(t, e.ix)
			r := e.crash(t)
			got := r.pages(t)
			if len(got) != len(want) {
				t.Fatalf("recovered index has %d blocks, want %d", len(got), len(want))
			}
			for blk := range want {
				if !bytes.Equal(want[blk], got[blk]) {
					t.Fatalf("block %d differs after recovery", blk)
				}
			}
			st := mustCheck(t, r.ix)
			t.Logf("%d chain marks (%d pages), %d internal unlinks; pages %+v; check %+v", marks, marked, unlinks, c, st)
			if st.HalfDeadInternal != c.halfDeadInternal || st.HalfDead != c.halfDead-c.halfDeadInternal {
				t.Fatalf("the checker saw %+v, the pages are %+v", st, c)
			}
		})
	}
}

// stopChainDeletion makes the next deletion that takes internal pages stop
// after its first step (after-mark: as a crash would), or fail at its
// second unlink step (after-unlink: the btree-unlink fault, armed once the
// top of the chain is unlinked).
func stopChainDeletion(t *testing.T, stop string) {
	t.Cleanup(func() {
		testHookAfterHalfDead, testHookAfterUnlink = nil, nil
		fault.Clear()
	})
	switch stop {
	case "after-mark":
		testHookAfterHalfDead = func(chain int) bool { return chain > 0 }
	case "after-unlink":
		testHookAfterHalfDead = func(chain int) bool { return false }
		testHookAfterUnlink = func(uint32) { fault.Set(fault.BtreeUnlink, syscall.EIO) }
	}
}

// TestChainDeletionFinishedByVacuum: a crash between the steps of a
// deletion that takes internal pages (after the mark, or after the top of
// a two-page chain is unlinked: the btree-unlink fault fails the next
// step) leaves the half-dead leaf naming the rest of its chain; the index
// passes the checker, serves scans and inserts, and the next VACUUM
// unlinks the rest, one level per step.
func TestChainDeletionFinishedByVacuum(t *testing.T) {
	for _, stop := range []string{"after-mark", "after-unlink"} {
		t.Run(stop, func(t *testing.T) {
			h := newHorizon()
			e := newEnv(t, 64, chainOpts(h))
			m := model{}
			fillSequential(t, e.ix, m, 0, 6000)
			// Only chains of two internal pages stop, so that the
			// fault leaves one of them half-dead.
			stopChainDeletion(t, stop)
			var chainLen int
			hook := testHookAfterHalfDead
			testHookAfterHalfDead = func(chain int) bool {
				if chain < 2 {
					return false
				}
				chainLen = chain
				return hook(chain)
			}
			if stop == "after-unlink" {
				testHookAfterUnlink = func(uint32) {
					if chainLen >= 2 {
						fault.Set(fault.BtreeUnlink, syscall.EIO)
					}
				}
			}
			tids := map[page.TID]struct{}{}
			for k := uint64(1000); k < 5000; k++ {
				tids[page.TID{Block: uint32(k), Offset: 1}] = struct{}{}
				delete(m, string(mkEntry(k, "payload-payload", page.TID{Block: uint32(k), Offset: 1})))
			}
			_, err := e.ix.DeleteTIDs(tids, nil)
			testHookAfterHalfDead, testHookAfterUnlink = nil, nil
			fault.Clear()
			switch {
			case chainLen < 2:
				t.Fatalf("no deletion took two internal pages (err %v)", err)
			case stop == "after-mark" && err != errTestStop:
				t.Fatalf("DeleteTIDs: %v", err)
			case stop == "after-unlink" && !errors.Is(err, syscall.EIO):
				t.Fatalf("DeleteTIDs: %v", err)
			}
			r := e.crash(t)
			st := mustCheck(t, r.ix)
			c := countPages(t, r.ix)
			t.Logf("after the crash: check %+v, pages %+v", st, c)
			wantInternal := chainLen
			if stop == "after-unlink" {
				wantInternal = chainLen - 1
			}
			if st.HalfDead != 1 || st.HalfDeadInternal != wantInternal || c.halfDeadInternal != wantInternal {
				t.Fatalf("after the crash: check %+v, pages %+v; want one half-dead leaf under %d half-dead internal pages", st, c, wantInternal)
			}
			// Scans go on both ways: the half-dead pages are skipped.
			fwd := collect(t, r.ix.NewIterator(Bound{}, Bound{}, false))
			rev := collect(t, r.ix.NewIterator(Bound{}, Bound{}, true))
			slices.Reverse(rev)
			if !slices.Equal(fwd, rev) || len(fwd) != st.Entries || len(fwd) < len(m) {
				t.Fatalf("scans with a half-dead chain: %d entries forwards, %d backwards, %d in the leaves", len(fwd), len(rev), st.Entries)
			}
			// The entries the stopped pass did not reach are still there:
			// the next VACUUM removes them and finishes the deletion.
			if _, err := r.ix.DeleteTIDs(tids, nil); err != nil {
				t.Fatal(err)
			}
			st = mustCheck(t, r.ix)
			c = countPages(t, r.ix)
			t.Logf("after the next VACUUM: check %+v, pages %+v", st, c)
			if st.HalfDead != 0 || st.HalfDeadInternal != 0 || c.halfDead != 0 || c.deletedInternal < 20 {
				t.Fatalf("after the next VACUUM: check %+v, pages %+v", st, c)
			}
			compareContents(t, r.ix, m)
			fillSequential(t, r.ix, m, 2000, 2500)
			mustCheck(t, r.ix)
			compareContents(t, r.ix, m)
			r2 := r.crash(t)
			mustCheck(t, r2.ix)
			compareContents(t, r2.ix, m)
		})
	}
}

package nbtree

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"minipg/internal/fault"
	"minipg/pgerr"
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

	// Reusable once the reader is gone: the next pass records every
	// deleted page free in the map, and refilling the range takes them all
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

	r := crashSamePages(t, e)
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
			if stop != "none" {
				stopChainDeletion(t, stop, 1)
			}
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
			c := countPages(t, e.ix)
			r := crashSamePages(t, e)
			st := mustCheck(t, r.ix)
			t.Logf("%d chain marks (%d pages), %d internal unlinks; pages %+v; check %+v", marks, marked, unlinks, c, st)
			if st.HalfDeadInternal != c.halfDeadInternal || st.HalfDead != c.halfDead-c.halfDeadInternal {
				t.Fatalf("the checker saw %+v, the pages are %+v", st, c)
			}
		})
	}
}

// stopChainDeletion makes the first deletion that takes at least
// minChain internal pages stop after its first step (after-mark: as a
// crash would), or fail at its second unlink step (after-unlink: the
// btree-unlink fault, armed once the top of the chain is unlinked; a
// deletion of a single page is not stopped). It returns where the length
// of that deletion's chain will be, 0 until it happens.
func stopChainDeletion(t *testing.T, stop string, minChain int) *int {
	t.Cleanup(func() {
		testHookAfterHalfDead, testHookAfterUnlink = nil, nil
		fault.Clear()
	})
	chainLen := new(int)
	testHookAfterHalfDead = func(chain int) bool {
		if chain < minChain || *chainLen > 0 {
			return false
		}
		*chainLen = chain
		return stop == "after-mark"
	}
	if stop == "after-unlink" {
		testHookAfterUnlink = func(uint32) {
			if *chainLen > 0 {
				fault.Set(fault.BtreeUnlink, syscall.EIO)
			}
		}
	}
	return chainLen
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
			// Only a chain of two internal pages stops, so that the
			// fault leaves one of them half-dead.
			chain := stopChainDeletion(t, stop, 2)
			tids := map[page.TID]struct{}{}
			for k := uint64(1000); k < 5000; k++ {
				tids[page.TID{Block: uint32(k), Offset: 1}] = struct{}{}
				delete(m, string(mkEntry(k, "payload-payload", page.TID{Block: uint32(k), Offset: 1})))
			}
			_, err := e.ix.DeleteTIDs(tids, nil)
			testHookAfterHalfDead, testHookAfterUnlink = nil, nil
			fault.Clear()
			chainLen := *chain
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
			refillAndCrash(t, r, m, 2000, 2500)
		})
	}
}

// TestChainDeletionConcurrent: while VACUUM passes empty and refill wide
// key ranges (deleting whole subtrees, internal pages included, and
// reusing them), writers insert entries all over the key space, some
// through InsertUnique and most deleted again at once (their descents and
// stacks go through the pages being deleted), and readers scan both ways
// from random starting points. Anchor entries outside the emptied ranges
// must each be seen exactly once, in order; nothing deadlocks; at the end
// the index holds exactly the entries expected and passes the checker,
// before and after a crash.
func TestChainDeletionConcurrent(t *testing.T) {
	h := newHorizon()
	e := newEnv(t, 64, chainOpts(h))
	ix := e.ix
	const keys, zoneLo, zoneHi = 6000, 1000, 5000
	anchor := func(k uint64) bool { return k%50 == 0 && (k < zoneLo || k >= zoneHi) }
	ver := make([]uint16, keys) // the TID offset of key k's entry
	entry := func(k uint64) []byte {
		return mkEntry(k, "payload", page.TID{Block: uint32(k), Offset: ver[k]})
	}
	for k := uint64(0); k < keys; k++ {
		ver[k] = 1
		if err := ix.Insert(entry(k)); err != nil {
			t.Fatal(err)
		}
	}
	var done atomic.Bool
	errc := make(chan error, 16)
	var wg sync.WaitGroup
	for r := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(r), 11))
			for !done.Load() {
				id := h.begin()
				reverse := rng.IntN(2) == 0
				from := rng.Uint64N(keys)
				at := Bound{Key: binary.BigEndian.AppendUint64(nil, from), Inclusive: true} // key from's entries and beyond
				lo, hi := at, Bound{}
				if reverse {
					lo, hi = Bound{}, at
				}
				it := ix.NewIterator(lo, hi, reverse)
				var last []byte
				var seen []uint64
				for {
					if _, ok := it.Next(); !ok {
						break
					}
					en := it.Entry()
					if k := uint64(entryTID(en).Block); k < keys && anchor(k) {
						if last != nil && (bytes.Compare(en, last) <= 0) != reverse {
							errc <- fmt.Errorf("scan (reverse %v) out of order: %x after %x", reverse, en, last)
							h.end(id)
							return
						}
						last = bytes.Clone(en)
						seen = append(seen, k)
					}
				}
				h.end(id)
				if err := it.Err(); err != nil {
					errc <- err
					return
				}
				if reverse {
					slices.Reverse(seen)
				}
				var want []uint64
				for k := uint64(0); k < keys; k++ {
					if anchor(k) && (k >= from) != reverse || anchor(k) && k == from {
						want = append(want, k)
					}
				}
				if !slices.Equal(seen, want) {
					errc <- fmt.Errorf("scan from %d (reverse %v) saw anchors %v, want %v", from, reverse, seen, want)
					return
				}
			}
		}()
	}
	// Writers, until VACUUM is done: TIDs from block 100000 on, never
	// VACUUM's; the entries they keep are outside the zone.
	const writers = 2
	kept := make([][][]byte, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 12))
			for i := 0; !done.Load(); i++ {
				k := rng.Uint64N(keys)
				keep := i%10 == 0 && (k < zoneLo || k >= zoneHi)
				en := mkEntry(k, "writer", page.TID{Block: 100000 + uint32(w), Offset: uint16(1 + i%60000)})
				id := h.begin()
				var err error
				if i%3 == 0 {
					_, err = ix.InsertUnique(en, func([]page.TID) (bool, error) { return true, nil })
				} else {
					err = ix.Insert(en)
				}
				if err == nil && !keep {
					var ok bool
					if ok, err = ix.Delete(en); err == nil && !ok {
						err = fmt.Errorf("writer %d: own entry %x not found", w, en)
					}
				} else if err == nil {
					kept[w] = append(kept[w], en)
				}
				h.end(id)
				h.advance()
				if err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	// VACUUM: empty a wide range of the zone, make the deleted pages
	// reusable, refill the range (splits take them).
	rng := rand.New(rand.NewPCG(13, 13))
	for round := uint16(2); round < 8; round++ {
		lo := zoneLo + rng.Uint64N(1000)
		hi := min(lo+2000+rng.Uint64N(1500), zoneHi)
		tids := map[page.TID]struct{}{}
		for k := lo; k < hi; k++ {
			tids[page.TID{Block: uint32(k), Offset: ver[k]}] = struct{}{}
		}
		if _, err := ix.DeleteTIDs(tids, nil); err != nil {
			t.Fatal(err)
		}
		h.advance()
		if _, err := ix.DeleteTIDs(nil, nil); err != nil {
			t.Fatal(err)
		}
		for k := lo; k < hi; k++ {
			ver[k] = round
			if err := ix.Insert(entry(k)); err != nil {
				t.Fatal(err)
			}
		}
	}
	done.Store(true)
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	m := model{}
	for k := uint64(0); k < keys; k++ {
		m[string(entry(k))] = struct{}{}
	}
	for _, ens := range kept {
		for _, en := range ens {
			m[string(en)] = struct{}{}
		}
	}
	st := mustCheck(t, ix)
	compareContents(t, ix, m)
	marks, marked, unlinks := chainRecords(t, e)
	t.Logf("check %+v, %d chain marks (%d internal pages), %d internal unlinks", st, marks, marked, unlinks)
	if marks == 0 || unlinks == 0 {
		t.Fatalf("no internal page deleted: %d chain marks, %d internal unlinks", marks, unlinks)
	}
	r := e.crash(t)
	mustCheck(t, r.ix)
	compareContents(t, r.ix, m)
}

// TestStaleStackPastHalfDeadChain: a writer whose descent went through an
// internal page before the page was marked with the leaf below it (its
// stack names it) must not put a downlink there: the page's key space is
// its right sibling's now, and the page is flagged half-dead so that the
// search for a parent by key moves right past it. The entries go into the
// half-dead leaf's right sibling, which splits with separators in the
// chain's old key space, each finding its parent through the stale stack.
func TestStaleStackPastHalfDeadChain(t *testing.T) {
	h := newHorizon()
	e := newEnv(t, 64, chainOpts(h))
	ix := e.ix
	fillSequential(t, ix, model{}, 0, 6000)
	testHookAfterHalfDead = func(chain int) bool { return chain > 0 }
	tids := map[page.TID]struct{}{}
	for k := uint64(1000); k < 5000; k++ {
		tids[page.TID{Block: uint32(k), Offset: 1}] = struct{}{}
	}
	_, err := ix.DeleteTIDs(tids, nil)
	testHookAfterHalfDead = nil
	if err != errTestStop {
		t.Fatalf("DeleteTIDs: %v", err)
	}
	m := model{}
	for _, en := range collect(t, ix.NewIterator(Bound{}, Bound{}, false)) {
		m[en] = struct{}{}
	}
	// The half-dead leaf whose chain has one internal page (its parent),
	// and the leaf's key space.
	n, err := ix.pool.NBlocks(ix.rel, 0)
	if err != nil {
		t.Fatal(err)
	}
	parent, leaf := pNone, pNone
	for blk := uint32(1); blk < n && parent == pNone; blk++ {
		b, err := ix.getBuf(blk, false)
		if err != nil {
			t.Fatal(err)
		}
		if p := b.Page(); isHalfDead(p) && isLeaf(p) && topParent(p, blk) != blk {
			parent, leaf = topParent(p, blk), blk
		}
		relBuf(b, false)
	}
	if parent == pNone {
		t.Fatal("no half-dead parent")
	}
	b, err := ix.getBuf(leaf, false)
	if err != nil {
		t.Fatal(err)
	}
	hk, left := bytes.Clone(highKey(b.Page())), btPrev(b.Page())
	relBuf(b, false)
	b, err = ix.getBuf(left, false)
	if err != nil {
		t.Fatal(err)
	}
	low := bytes.Clone(highKey(b.Page()))
	relBuf(b, false)
	var keys []uint64
	for k := uint64(1000); k < 5000; k++ {
		if key := mkKey(k, "stale"); bytes.Compare(key, low) >= 0 && bytes.Compare(key, hk) < 0 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		t.Fatalf("no key between %x and %x", low, hk)
	}
	stale := []stackItem{{blk: parent, level: 1}}
	before := countPages(t, ix)
	for i := range 300 {
		en := mkEntry(keys[i%len(keys)], fmt.Sprintf("stale%03d", i), page.TID{Block: 90000, Offset: uint16(i + 1)})
		lb, _, err := ix.descend(searchKey{key: en}, true)
		if err != nil {
			t.Fatal(err)
		}
		if err := ix.insertLeaf(lb, stale, en); err != nil {
			t.Fatal(err)
		}
		m[string(en)] = struct{}{}
	}
	b, err = ix.getBuf(parent, false)
	if err != nil {
		t.Fatal(err)
	}
	downlinks := int(page.MaxOffset(b.Page()) - firstData(b.Page()) + 1)
	relBuf(b, false)
	if downlinks != 1 {
		t.Fatalf("the half-dead parent %d took downlinks through the stale stack: it has %d", parent, downlinks)
	}
	st := mustCheck(t, ix)
	t.Logf("before %+v, after %+v", before, st)
	if st.Leaves < before.liveLeaves+20 || st.HalfDead != 1 || st.HalfDeadInternal != 1 {
		t.Fatalf("before %+v, after %+v", before, st)
	}
	compareContents(t, ix, m)
	// The next VACUUM finishes the deletion.
	if _, err := ix.DeleteTIDs(nil, nil); err != nil {
		t.Fatal(err)
	}
	if st := mustCheck(t, ix); st.HalfDead != 0 || st.HalfDeadInternal != 0 {
		t.Fatalf("after VACUUM: %+v", st)
	}
	compareContents(t, ix, m)
}

// TestCheckHalfDeadChain: the checker accepts the state a crash after the
// mark of a chain deletion leaves, and reports a half-dead leaf whose
// top-parent link does not name the top of its chain, or a chain page that
// lost its half-dead flag (a page without downlink), naming the block.
func TestCheckHalfDeadChain(t *testing.T) {
	for _, tc := range []struct {
		name  string
		leaf  bool // damage the leaf, else the chain's top
		hurt  func(p page.Page)
		error string
	}{
		{"top-parent link lost", true, func(p page.Page) { setTopParent(p, page.InvalidBlock) }, "top of its chain"},
		{"top-parent link elsewhere", true, func(p page.Page) { setTopParent(p, 1) }, "top of its chain"},
		{"chain page not half-dead", false, func(p page.Page) { setFlags(p, btFlags(p)&^flagHalfDead) }, "no downlink"},
		{"chain page with two downlinks", false, func(p page.Page) {
			page.AddItem(p, makePivot(1, []byte{0xff}), page.InvalidOffset, false, false)
		}, "half-dead page on level"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHorizon()
			e := newEnv(t, 64, chainOpts(h))
			fillSequential(t, e.ix, model{}, 0, 6000)
			testHookAfterHalfDead = func(chain int) bool { return chain > 0 }
			tids := map[page.TID]struct{}{}
			for k := uint64(1000); k < 5000; k++ {
				tids[page.TID{Block: uint32(k), Offset: 1}] = struct{}{}
			}
			_, err := e.ix.DeleteTIDs(tids, nil)
			testHookAfterHalfDead = nil
			if err != errTestStop {
				t.Fatalf("DeleteTIDs: %v", err)
			}
			if st := mustCheck(t, e.ix); st.HalfDead != 1 || st.HalfDeadInternal == 0 {
				t.Fatalf("check %+v: want a half-dead leaf under a chain", st)
			}
			leaf := findPage(t, e, func(p page.Page) bool { return isLeaf(p) && isHalfDead(p) })
			blk := leaf
			if !tc.leaf {
				for _, p := range e.pages(t)[leaf : leaf+1] {
					blk = topParent(p, leaf)
				}
			}
			corruptBlock(t, e, blk, tc.hurt)
			_, err = e.ix.Check()
			if pgerr.CodeOf(err) != pgerr.IndexCorrupted || !strings.Contains(err.Error(), tc.error) {
				t.Fatalf("Check after damage to block %d: %v, want XX002 and %q", blk, err, tc.error)
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("block %d", blk)) {
				t.Fatalf("Check: %v; want block %d named", err, blk)
			}
		})
	}
}

// TestLeftmostHalfDeadChain: a crash after the mark of a deletion at the
// left end of the tree leaves the leftmost pages of their levels
// half-dead (the first downlink of the subtree parent points right of
// them); the checker starts those levels from them, scans both ways skip
// them, and the next VACUUM unlinks them.
func TestLeftmostHalfDeadChain(t *testing.T) {
	h := newHorizon()
	e := newEnv(t, 64, chainOpts(h))
	m := model{}
	fillSequential(t, e.ix, m, 0, 6000)
	testHookAfterHalfDead = func(chain int) bool { return chain > 0 }
	tids := map[page.TID]struct{}{}
	for k := uint64(0); k < 2000; k++ {
		tids[page.TID{Block: uint32(k), Offset: 1}] = struct{}{}
		delete(m, string(mkEntry(k, "payload-payload", page.TID{Block: uint32(k), Offset: 1})))
	}
	_, err := e.ix.DeleteTIDs(tids, nil)
	testHookAfterHalfDead = nil
	if err != errTestStop {
		t.Fatalf("DeleteTIDs: %v", err)
	}
	r := e.crash(t)
	leaf := findPage(t, r, func(p page.Page) bool { return isLeaf(p) && isHalfDead(p) })
	b, err := r.ix.getBuf(leaf, false)
	if err != nil {
		t.Fatal(err)
	}
	leftmost := btPrev(b.Page()) == pNone
	relBuf(b, false)
	if !leftmost {
		t.Fatalf("half-dead leaf %d is not the leftmost", leaf)
	}
	st := mustCheck(t, r.ix)
	if st.HalfDead != 1 || st.HalfDeadInternal == 0 {
		t.Fatalf("check %+v: want the half-dead chain seen", st)
	}
	fwd := collect(t, r.ix.NewIterator(Bound{}, Bound{}, false))
	rev := collect(t, r.ix.NewIterator(Bound{}, Bound{}, true))
	slices.Reverse(rev)
	if !slices.Equal(fwd, rev) || len(fwd) != st.Entries {
		t.Fatalf("scans: %d entries forwards, %d backwards, %d in the leaves", len(fwd), len(rev), st.Entries)
	}
	if _, err := r.ix.DeleteTIDs(tids, nil); err != nil {
		t.Fatal(err)
	}
	if st := mustCheck(t, r.ix); st.HalfDead != 0 || st.HalfDeadInternal != 0 {
		t.Fatalf("after the next VACUUM: %+v", st)
	}
	compareContents(t, r.ix, m)
}

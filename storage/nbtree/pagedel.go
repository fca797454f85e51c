package nbtree

// Page deletion (nbtpage.c's _bt_pagedel) and the reuse of deleted pages.
//
// VACUUM deletes a leaf it finds empty, with the chain of parents that
// have no other child, in WAL-logged steps, as PostgreSQL does:
//
//  1. MARK_PAGE_HALFDEAD: with the leaf locked, its parent is found (by
//     key) and locked; while the page below is its parent's only downlink
//     (and the parent not rightmost on its level, not the root, without
//     an incomplete split), the parent joins the chain and the next
//     parent up is locked, up to the subtree parent, the first with more
//     downlinks. There the downlink of the chain's top (or of the leaf)
//     is pointed at the top's right sibling and that sibling's own
//     downlink removed, so the subtree's key space moves right at every
//     level; the leaf and the chain's pages are flagged half-dead, which
//     makes every reader and writer move right past them, and the leaf's
//     high key keeps the block of the chain's top in its downlink field
//     (PostgreSQL's top-parent link; InvalidBlock when the leaf goes
//     alone). A page that is the last downlink of a parent with other
//     children is not deleted (the parent would lose the key space on
//     its right end), nor the rightmost page of a level or the root.
//     Unlike PostgreSQL, which leaves the chain's internal pages
//     unflagged, minipg flags them: it finds a parent by key, not by its
//     downlink to the child, and a writer whose descent went through a
//     chain page before the mark must move right past it rather than add
//     a downlink to it.
//  2. UNLINK_PAGE, once per page, from the top of the chain down to the
//     leaf: with the half-dead leaf locked (for an internal page), then
//     the page's left sibling, the page and its right sibling, in that
//     order, the siblings' links skip the page and it is flagged deleted,
//     keeping its right link (a reader that arrives on it moves right)
//     and, in the field btpo_level holds on live pages, the next
//     transaction id at that moment (safexid, btpo.xact of PostgreSQL
//     13's deleted pages); the leaf's top-parent link moves down to the
//     page's only child in the same record.
//
// A crash between any two steps leaves a half-dead leaf, which the next
// VACUUM finds in its scan (it reads leaves only) and whose chain it
// unlinks from the top its link names; a fault at the btree-unlink point
// fails a step the same way. A deleted page, of any level, is reused once every
// transaction that was running when it was deleted has ended (its safexid
// precedes the oldest xmin): until then a reader may still hold its block
// number, taken from a parent or a sibling before the deletion. VACUUM
// records such pages as free in the index's free space map (its FSM fork,
// storage/fsm's indexfsm.go, as PostgreSQL's btvacuumpage does with
// RecordFreeIndexPage): a page it finds deleted and old enough, under the
// page's lock; a page it deleted itself, at the end of the pass if the
// horizon has passed it by then (_bt_pendingfsm_finalize); then it brings
// the map's upper levels up to date. A split asks the map for a page
// before extending the relation (_bt_allocbuf): the page is recorded as
// used as it is handed out, locked without waiting and checked to be still
// deleted and old enough, else left for the next one (reusePage).
//
// The map is a hint, as a heap's is: not WAL-logged, written by the buffer
// pool like any page (checkpoints, evictions) and so kept across a clean
// restart and, as of its last write, a crash. After a crash it may name
// pages splits have reused since (their reuse was logged and is redone;
// the map's record of it may not have been written) and miss pages VACUUM
// recorded; the check under the lock skips the first, the next VACUUM
// records the second again. A page is only ever reused under the safexid
// rule, whatever the map says. A page a split finds locked by someone else
// (a reader passing it, VACUUM's scan) is left out of the map until the
// next VACUUM, as in PostgreSQL. The map lives and dies with the relation:
// DROP, and TRUNCATE (which gives the index a new relation), remove every
// fork of the old one (buffer.Pool.DropRel, and its WAL record's redo).
//
// A VACUUM scanning the index meanwhile reads it in physical
// order, so a split that moves entries from a page it has still to read
// into a reused page it has read already would hide them from it: as in
// PostgreSQL, each scan has a cycle id, a split during the scan stamps it
// on both halves (btpo_cycleid), and the scan, reaching a stamped page
// whose right link points back to a block it has passed, follows the right
// links there (btvacuumpage's backtracking).

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"

	"minipg/internal/fault"
	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/fsm"
	"minipg/storage/page"
)

// Horizon tells page deletion which transactions may still be reading the
// index: a page deleted when NextXid was x may be reused once OldestXmin
// is past x. Nil in Options means no page is ever deleted.
type Horizon interface {
	NextXid() uint32
	OldestXmin() uint32
}

// xidPrecedes is TransactionIdPrecedes for normal xids (modulo 2^32).
func xidPrecedes(a, b uint32) bool { return int32(a-b) < 0 }

// relState is what every Index open on one relation shares: its free space
// map and the bulk deletes running.
type relState struct {
	// fsm is the index's free space map (its FSM fork): the deleted pages
	// ready for reuse, recorded by VACUUM, taken by splits. One Map per
	// relation, so that its cached fork size and search hints are shared.
	fsm *fsm.Map
	mu  sync.Mutex // protects the fields below
	// cycle is the running DeleteTIDs pass's cycle id (0: none; one pass
	// at a time: VACUUM takes the table's self-exclusive lock), last the
	// one handed out last.
	cycle, last uint16
	// What the last complete pass found: deleted pages waiting for the
	// horizon, and whether any pass has completed since the relation
	// was first opened (VacuumCleanup).
	waiting int
	scanned bool
	// passes counts DeleteTIDs passes begun and ended (odd while one
	// runs), and DeleteFreeing calls (two each): a scan that marks
	// entries LP_DEAD on a page changed since it read it needs none to
	// have run meanwhile (killitems.go).
	passes atomic.Uint64
	// root caches the metapage's root and level (root<<32 | level; 0:
	// none), as PostgreSQL caches it in rd_amcache, so that a descent
	// does not read the metapage. A descent checks the cached root page
	// it lands on (isRootAt) and reads the metapage again when it is not
	// the root any more.
	root      atomic.Uint64
	metaReads atomic.Int64 // readMeta calls (tests)
}

// cachedMeta returns the cached root and level; ok is false when none is
// cached.
func (st *relState) cachedMeta() (m meta, ok bool) {
	v := st.root.Load()
	if v == 0 {
		return meta{}, false
	}
	return meta{root: uint32(v >> 32), level: uint32(v)}, true
}

// rememberMeta caches m, read from the metapage and checked against its
// root page.
func (st *relState) rememberMeta(m meta) { st.root.Store(uint64(m.root)<<32 | uint64(m.level)) }

// forgetMeta drops the cached root.
func (st *relState) forgetMeta() { st.root.Store(0) }

type relKey struct {
	pool *buffer.Pool
	rel  buffer.RelFileNode
}

// relStates holds one relState per relation of a pool. A relation's entry
// outlives it; a block its map names is checked before it is reused.
var relStates sync.Map

func sharedState(pool *buffer.Pool, rel buffer.RelFileNode) *relState {
	k := relKey{pool, rel}
	if v, ok := relStates.Load(k); ok {
		return v.(*relState)
	}
	v, _ := relStates.LoadOrStore(k, &relState{fsm: fsm.OpenMap(pool, rel)})
	return v.(*relState)
}

// FSM returns the index's free space map (pg_freespace).
func (ix *Index) FSM() *fsm.Map { return ix.st.fsm }

// FreePages returns how many pages the free space map records as free
// (tests, statistics). It reads the map for every block of the index.
func (ix *Index) FreePages() int {
	n, err := ix.pool.NBlocks(ix.rel, buffer.MainFork)
	if err != nil {
		return 0
	}
	free := 0
	for blk := metaBlock + 1; blk < n; blk++ {
		if ix.st.fsm.GetRecordedFreeSpace(blk) > 0 {
			free++
		}
	}
	return free
}

// deletedPage formats p as a deleted page (leaf flag kept) with the given
// links and safexid; the unlink and its redo both write it so.
func deletedPage(p page.Page, leaf bool, prev, next, safexid uint32) {
	flags := flagDeleted
	if leaf {
		flags |= flagLeaf
	}
	initPage(p, safexid, flags, prev, next)
}

func isDeleted(p page.Page) bool  { return btFlags(p)&flagDeleted != 0 }
func isHalfDead(p page.Page) bool { return btFlags(p)&flagHalfDead != 0 }

// safeXid is a deleted page's safexid.
func safeXid(p page.Page) uint32 { return btLevel(p) }

// recyclable reports whether p is a deleted page no transaction can still
// reach: its safexid precedes oldestXmin.
func recyclable(p page.Page, oldestXmin uint32) bool {
	return hasSpecial(p) && isDeleted(p) && xidPrecedes(safeXid(p), oldestXmin)
}

// removeDownlink is the parent's change of MARK_PAGE_HALFDEAD: the downlink
// at off takes the block of the one after it, which is removed.
func removeDownlink(p page.Page, off uint16) {
	right := downlink(page.Item(p, off+1))
	binary.LittleEndian.PutUint32(page.Item(p, off), right)
	applyDelete(p, []uint16{off + 1})
}

// emptyLeaf reports whether p is a live leaf without entries that is not
// the rightmost of its level and whose split is complete: a candidate for
// deletion.
func emptyLeaf(p page.Page) bool {
	return isLeaf(p) && !isIgnored(p) && !isRightmost(p) && btFlags(p)&(flagRoot|flagIncompleteSplit) == 0 &&
		page.MaxOffset(p) < firstData(p)
}

// topParent returns the top of the chain of pages that the deletion of
// the half-dead leaf p (block self) has still to unlink: the block that its
// high key's downlink field holds (BTreeTupleGetTopParent), or self when
// that field is InvalidBlock (only the leaf is left).
func topParent(p page.Page, self uint32) uint32 {
	t := page.Item(p, page.FirstOffset)
	if len(t) < pivotHeader || downlink(t) == page.InvalidBlock {
		return self
	}
	return downlink(t)
}

// setTopParent stores blk (InvalidBlock: the leaf itself) in the high key
// of the half-dead leaf p (BTreeTupleSetTopParent).
func setTopParent(p page.Page, blk uint32) {
	binary.LittleEndian.PutUint32(page.Item(p, page.FirstOffset), blk)
}

// deleteLeaf deletes leaf blk, and the chain of single-child parents
// above it, if the leaf is still empty and may go (every step),
// returning the blocks it deleted. VACUUM calls it with no lock held.
func (ix *Index) deleteLeaf(blk uint32) ([]uint32, error) {
	if ix.horizon == nil {
		return nil, nil
	}
	b, err := ix.getBuf(blk, true)
	if err != nil {
		return nil, err
	}
	p := b.Page()
	if !emptyLeaf(p) {
		relBuf(b, true)
		return nil, nil
	}
	hk := bytes.Clone(highKey(p))
	sp, off, chain, err := ix.lockSubtreeParent(b, hk)
	if err != nil || sp == nil {
		relBuf(b, true)
		return nil, err
	}
	// The downlink to the chain's top (or to the leaf) takes the right
	// sibling's block, whose own downlink goes: the key space moves right.
	removeDownlink(sp.Page(), off)
	top := page.InvalidBlock
	for _, c := range chain {
		setFlags(c.Page(), btFlags(c.Page())|flagHalfDead)
		top = c.Block()
	}
	setFlags(p, btFlags(p)|flagHalfDead)
	setTopParent(p, top)
	main := binary.LittleEndian.AppendUint16(nil, off)
	main = binary.LittleEndian.AppendUint32(main, top)
	bufs := []regBuf{{buf: b}, {buf: sp}}
	for _, c := range chain {
		bufs = append(bufs, regBuf{buf: c})
	}
	ix.xlog(xlMarkHalfDead, main, bufs...)
	releaseAll(sp)
	releaseAll(chain...)
	relBuf(b, true)
	if testHookAfterHalfDead != nil && testHookAfterHalfDead(len(chain)) {
		return nil, errTestStop
	}
	return ix.unlinkHalfDead(blk)
}

// lockSubtreeParent finds and locks, with the empty leaf (high key hk)
// exclusively locked, the pages the first step of its deletion changes
// (_bt_lock_subtree_parent): going up, each parent in turn, exclusively
// locked, while the page below is its only child (the chain, bottom-up,
// each page not rightmost, not the root, without an incomplete split and
// with the same high key as the leaf), up to the first parent with more
// downlinks, sp, whose downlink at off is the chain's top (or the leaf)
// and the one after it, with hk as separator, the top's right sibling. It
// returns a nil sp when the leaf is not to be deleted now (a rightmost
// child with siblings, a missing downlink, a right sibling under another
// parent), with every page it locked released; the leaf stays locked.
func (ix *Index) lockSubtreeParent(leaf *buffer.Buffer, hk []byte) (sp *buffer.Buffer, off uint16, chain []*buffer.Buffer, err error) {
	child := leaf
	for {
		cp := child.Page()
		pb, err := ix.findParent(btLevel(cp)+1, hk, true, nil)
		if err != nil {
			releaseAll(chain...)
			return nil, 0, nil, err
		}
		pp := pb.Page()
		off := childSearch(pp, hk, true)
		ok := off >= firstData(pp) && downlink(page.Item(pp, off)) == child.Block()
		if ok && off < page.MaxOffset(pp) {
			next := page.Item(pp, off+1)
			if downlink(next) == btNext(cp) && bytes.Equal(pivotKey(next), hk) {
				return pb, off, chain, nil
			}
			ok = false
		}
		// child is pb's last downlink: pb goes with it if it is the only one.
		ok = ok && off == firstData(pp) && !isRightmost(pp) && btFlags(pp)&(flagRoot|flagIncompleteSplit) == 0 &&
			bytes.Equal(highKey(pp), hk)
		if !ok {
			relBuf(pb, true)
			releaseAll(chain...)
			return nil, 0, nil, nil
		}
		chain = append(chain, pb)
		child = pb
	}
}

// testHookAfterHalfDead, set by tests, stops a deletion between its first
// two steps when it returns true (a crash after MARK_PAGE_HALFDEAD); it is
// given the number of internal pages marked with the leaf.
var testHookAfterHalfDead func(chain int) bool

// testHookAfterUnlink, set by tests, is called after each unlink step of a
// deletion that has more to do (an internal page was unlinked), with the
// block unlinked; tests arm the btree-unlink fault there.
var testHookAfterUnlink func(blk uint32)

// unlinkHalfDead finishes the deletion of the half-dead leaf blk: the
// chain above it top-down, one page per step, then the leaf
// (_bt_unlink_halfdead_page, called until the leaf is gone). It returns
// the blocks it deleted, also with an error (a step that fails leaves the
// rest to the next VACUUM), and none if blk is not half-dead.
func (ix *Index) unlinkHalfDead(blk uint32) ([]uint32, error) {
	var deleted []uint32
	for {
		target, err := ix.unlinkStep(blk)
		if err != nil || target == pNone {
			return deleted, err
		}
		deleted = append(deleted, target)
		if target == blk {
			return deleted, nil
		}
		if testHookAfterUnlink != nil {
			testHookAfterUnlink(target)
		}
	}
}

// unlinkStep unlinks the top of the half-dead leaf's chain (the leaf
// itself last) and returns its block, or pNone if leaf is not half-dead.
// For an internal page it locks the leaf first, then the page's level left
// to right (the leaf's top-parent link moves down to the page's child in
// the same record), as PostgreSQL does: nothing waits for the half-dead
// leaf while holding a page of a higher level.
func (ix *Index) unlinkStep(leaf uint32) (uint32, error) {
	if err := fault.Check(fault.BtreeUnlink, "read", fmt.Sprintf("base/%d", ix.rel)); err != nil {
		return pNone, pgerr.Wrapf(err, pgerr.IOError, "could not read block %d of index %d", leaf, ix.rel)
	}
	lb, err := ix.getBuf(leaf, true)
	if err != nil {
		return pNone, err
	}
	lp := lb.Page()
	if !isHalfDead(lp) || !isLeaf(lp) || isRightmost(lp) {
		relBuf(lb, true)
		return pNone, nil
	}
	top := topParent(lp, leaf)
	if top == leaf {
		relBuf(lb, true)
		ok, err := ix.unlinkPage(leaf, nil)
		if !ok {
			return pNone, err
		}
		return leaf, nil
	}
	ok, err := ix.unlinkPage(top, lb)
	relBuf(lb, true)
	if err != nil {
		return pNone, err
	}
	if !ok {
		return pNone, errCorrupt(uint32(ix.rel), leaf, "half-dead leaf names block %d as the top of its chain, not a half-dead internal page", top)
	}
	return top, nil
}

// unlinkPage is one unlink step: it takes the left sibling of the
// half-dead page target, the target and its right sibling, in that order,
// links the siblings to each other and marks the target deleted. leaf is
// nil when the target is the half-dead leaf itself; otherwise it is that
// leaf, exclusively locked by the caller (and left locked), whose
// top-parent link takes the target's only downlink. It reports whether it
// unlinked the target (false: target is not a half-dead page of the kind
// expected).
func (ix *Index) unlinkPage(target uint32, leaf *buffer.Buffer) (bool, error) {
	for {
		tb, err := ix.getBuf(target, false)
		if err != nil {
			return false, err
		}
		tp := tb.Page()
		left, ok := btPrev(tp), isHalfDead(tp) && !isRightmost(tp) && isLeaf(tp) == (leaf == nil)
		relBuf(tb, false)
		if !ok {
			return false, nil
		}
		var lb *buffer.Buffer
		if left != pNone {
			// The left sibling may have split since: move right to the
			// page whose right link is target.
			if lb, err = ix.getBuf(left, true); err != nil {
				return false, err
			}
			for btNext(lb.Page()) != target {
				if isRightmost(lb.Page()) {
					relBuf(lb, true)
					return false, errCorrupt(uint32(ix.rel), left, "right links from the left sibling of block %d do not lead to it", target)
				}
				next := btNext(lb.Page())
				relBuf(lb, true)
				if lb, err = ix.getBuf(next, true); err != nil {
					return false, err
				}
			}
			left = lb.Block()
		}
		if tb, err = ix.getBuf(target, true); err != nil {
			releaseAll(lb)
			return false, err
		}
		tp = tb.Page()
		if btPrev(tp) != left {
			releaseAll(tb, lb) // the left sibling changed meanwhile: again
			continue
		}
		if !isHalfDead(tp) || isRightmost(tp) {
			releaseAll(tb, lb)
			return false, nil
		}
		child := pNone
		if leaf != nil {
			if page.MaxOffset(tp) == firstData(tp) {
				child = downlink(page.Item(tp, firstData(tp)))
			}
			// One downlink, to the leaf from level 1, to the next chain
			// page from above.
			if child == pNone || (child == leaf.Block()) != (btLevel(tp) == 1) {
				releaseAll(tb, lb)
				return false, errCorrupt(uint32(ix.rel), target, "half-dead internal page on level %d with %d items (the first to block %d), above half-dead leaf %d",
					btLevel(tp), int(page.MaxOffset(tp))-int(firstData(tp))+1, child, leaf.Block())
			}
		}
		right := btNext(tp)
		rb, err := ix.getBuf(right, true)
		if err != nil {
			releaseAll(tb, lb)
			return false, err
		}
		if lb != nil {
			setNext(lb.Page(), right)
		}
		setPrev(rb.Page(), left)
		level := btLevel(tp)
		safexid := ix.horizon.NextXid()
		deletedPage(tp, leaf == nil, left, right, safexid)
		main := binary.LittleEndian.AppendUint32(nil, left)
		main = binary.LittleEndian.AppendUint32(main, right)
		main = binary.LittleEndian.AppendUint32(main, safexid)
		bufs := []regBuf{{buf: tb, willInit: true}, {buf: rb}}
		if lb != nil {
			bufs = append([]regBuf{{buf: lb}}, bufs...)
		}
		if leaf != nil {
			newTop := child
			if child == leaf.Block() {
				newTop = page.InvalidBlock
			}
			setTopParent(leaf.Page(), newTop)
			main = binary.LittleEndian.AppendUint32(main, level)
			main = binary.LittleEndian.AppendUint32(main, newTop)
			bufs = append(bufs, regBuf{buf: leaf})
		}
		ix.xlog(xlUnlinkPage, main, bufs...)
		releaseAll(rb, tb, lb) // the leaf stays locked for the caller
		return true, nil
	}
}

// reusePage returns a deleted page that the free space map records as
// free, exclusively locked, for a split to rebuild, or nil when there is
// none to take (_bt_allocbuf's use of GetFreeIndexPage). Taking a page from
// the map records it as used; it is then locked and checked: only a page
// still deleted and old enough is returned. An entry can be stale (after a
// crash, the map is what the buffer pool last wrote of it; a VACUUM pass
// that read a page while it was deleted may record it after a split reused
// it), and the page may then be one the caller itself holds locked, the
// very page it is splitting: so the lock is conditional, as in PostgreSQL,
// and a page someone holds is left (it is not deleted, or its entry is
// recorded again by the next VACUUM).
func (ix *Index) reusePage() (*buffer.Buffer, error) {
	if ix.horizon == nil {
		return nil, nil
	}
	for {
		blk := ix.st.fsm.GetFreeIndexPage()
		if blk == fsm.InvalidBlock {
			return nil, nil
		}
		n, err := ix.pool.NBlocks(ix.rel, buffer.MainFork)
		if err != nil {
			return nil, err
		}
		if blk >= n || blk == metaBlock {
			continue
		}
		b, err := ix.pool.ReadBuffer(ix.rel, buffer.MainFork, blk)
		if err != nil {
			return nil, err
		}
		if !b.TryLock() {
			b.Release()
			continue
		}
		if recyclable(b.Page(), ix.horizon.OldestXmin()) {
			return b, nil
		}
		relBuf(b, true)
	}
}

// vacuumCycle is the cycle id of the DeleteTIDs pass running, 0 if none.
func (ix *Index) vacuumCycle() uint16 {
	ix.st.mu.Lock()
	defer ix.st.mu.Unlock()
	return ix.st.cycle
}

// beginBulk and endBulk bracket a DeleteTIDs pass: beginBulk hands out
// its cycle id; endBulk brings the free space map's upper levels up to date
// when the pass recorded free pages in it (IndexFreeSpaceMapVacuum), so
// that splits find them, and, for a pass that read the whole index,
// records how many deleted pages still wait.
func (ix *Index) beginBulk() uint16 {
	ix.st.mu.Lock()
	defer ix.st.mu.Unlock()
	ix.st.last++
	if ix.st.last == 0 {
		ix.st.last = 1
	}
	ix.st.cycle = ix.st.last
	ix.st.passes.Add(1)
	return ix.st.cycle
}

func (ix *Index) endBulk(recorded, waiting int, complete bool) {
	if recorded > 0 {
		// A failure leaves the pages recorded but not yet found by
		// searches from the root (the map keeps the error); the next
		// pass tries again.
		_ = ix.st.fsm.IndexFreeSpaceMapVacuum()
	}
	ix.st.mu.Lock()
	ix.st.cycle = 0
	ix.st.passes.Add(1)
	if complete {
		ix.st.waiting, ix.st.scanned = waiting, true
	}
	ix.st.mu.Unlock()
}

package nbtree

// Insertion (nbtinsert.c): find the leaf, add the entry, split pages on the
// way up, grow a new root.

import (
	"bytes"
	"encoding/binary"

	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/page"
)

// checkEntry refuses entries that cannot hold a TID or cannot fit.
func (ix *Index) checkEntry(entry []byte) error {
	if len(entry) <= tidLen {
		return ErrBadEntry
	}
	if len(entry) > MaxEntrySize {
		return errEntryTooBig(uint32(ix.rel), len(entry))
	}
	return nil
}

// Insert adds entry (an encoded key followed by its heap TID, see
// AppendTID). Inserting an entry that is already present is a no-op.
func (ix *Index) Insert(entry []byte) error {
	if err := ix.checkEntry(entry); err != nil {
		return err
	}
	b, stack, err := ix.descend(searchKey{key: entry}, true)
	if err != nil {
		return err
	}
	return ix.insertLeaf(b, stack, entry)
}

// insertLeaf adds entry to the exclusively locked leaf b (the page whose
// key space holds it) and releases b.
func (ix *Index) insertLeaf(b *buffer.Buffer, stack []stackItem, entry []byte) error {
	p := b.Page()
	off := leafSearch(p, entry, false)
	if off <= page.MaxOffset(p) && bytes.Equal(page.Item(p, off), entry) {
		if !itemDead(p, off) {
			relBuf(b, true)
			return nil
		}
		// The same entry, marked dead: scans would skip it, so it goes
		// (with the page's other LP_DEAD items) and comes back as a
		// normal item. (Its TID cannot name a new row while it is in
		// the index, but the caller may add a row's entry again.)
		ix.deleteDead(b)
		off = leafSearch(p, entry, false)
	}
	return ix.insertOnPage(b, stack, entry, off, nil)
}

// UniqueCheck decides whether an entry may go into a unique index, given
// the heap TIDs of the other entries with the same key (never empty). It
// runs under the exclusive lock of the first leaf page the key can be on,
// so concurrent inserters of the key wait for its decision; it may read
// the heap (taking heap buffer locks) but must not use this index. It
// returns false to leave the entry out (a live duplicate: the caller
// raises 23505), or an error, which InsertUnique returns after releasing
// the page (the caller waits for an inserting transaction, then calls
// InsertUnique again).
type UniqueCheck func(conflicts []page.TID) (insert bool, err error)

// InsertUnique adds entry unless check, called with the TIDs of the entries
// with the same key (entry without its TID), says not to; check is not
// called when there are none (_bt_check_unique under the leaf lock, then
// _bt_findinsertloc). It reports whether entry is in the index on return.
func (ix *Index) InsertUnique(entry []byte, check UniqueCheck) (bool, error) {
	if err := ix.checkEntry(entry); err != nil {
		return false, err
	}
	key := entry[:len(entry)-tidLen]
	first, stack, err := ix.descend(searchKey{key: key}, true)
	if err != nil {
		return false, err
	}
	conflicts, present, err := ix.sameKey(first, key, entry)
	if err != nil || present {
		relBuf(first, true)
		return present, err
	}
	if len(conflicts) > 0 {
		ok, err := check(conflicts)
		if err != nil || !ok {
			relBuf(first, true)
			return false, err
		}
	}
	// Find the page for the whole entry (the key's TIDs may span pages),
	// keeping the first page locked so that no other inserter of the key
	// can pass its check meanwhile.
	cur := first
	for beyondHighKey(cur.Page(), entry, false) || isIgnored(cur.Page()) {
		next, err := ix.getBuf(btNext(cur.Page()), true)
		if err != nil {
			if cur != first {
				relBuf(cur, true)
			}
			relBuf(first, true)
			return false, err
		}
		if cur != first {
			relBuf(cur, true)
		}
		cur = next
	}
	err = ix.insertLeaf(cur, stack, entry)
	if cur != first {
		relBuf(first, true)
	}
	return err == nil, err
}

// sameKey returns the TIDs of the entries starting with key, other than
// entry and those marked LP_DEAD, reading from the exclusively locked leaf
// b rightwards (each right sibling share-locked in turn while b stays
// locked), and whether entry itself is present (and not marked dead).
func (ix *Index) sameKey(b *buffer.Buffer, key, entry []byte) ([]page.TID, bool, error) {
	var out []page.TID
	present := false
	cur := b
	defer func() {
		if cur != b {
			relBuf(cur, false)
		}
	}()
	for {
		p := cur.Page()
		if !isIgnored(p) {
			n := page.MaxOffset(p)
			for off := leafSearch(p, key, false); off <= n; off++ {
				e := page.Item(p, off)
				if !bytes.HasPrefix(e, key) {
					return out, present, nil
				}
				if itemDead(p, off) {
					// Dead to every transaction: no conflict
					// (_bt_check_unique skips killed items).
					continue
				}
				if bytes.Equal(e, entry) {
					present = true
				} else if len(e) == len(entry) {
					out = append(out, entryTID(e))
				}
			}
		}
		// The key's entries may go on past this page only if the high key
		// does not lie beyond every entry that starts with key.
		hk := highKey(p)
		if isRightmost(p) || (!isIgnored(p) && !bytes.HasPrefix(hk, key) && bytes.Compare(hk, key) > 0) {
			return out, present, nil
		}
		next, err := ix.getBuf(btNext(p), false)
		if err != nil {
			return nil, false, err
		}
		if cur != b {
			relBuf(cur, false)
		}
		cur = next
	}
}

// insertOnPage adds item at offset off of the exclusively locked page b,
// splitting it if it is full (_bt_insertonpg); a full leaf first loses its
// LP_DEAD items (_bt_delete_or_dedup_one_page), and splits only if the
// item still does not fit. child, when not nil, is the
// exclusively locked page whose split this insertion into its parent
// finishes: its INCOMPLETE_SPLIT flag is cleared in the same record. b and
// child are released on return, also on error.
func (ix *Index) insertOnPage(b *buffer.Buffer, stack []stackItem, item []byte, off uint16, child *buffer.Buffer) error {
	p := b.Page()
	if !ix.fits(p, len(item)) && child == nil && isLeaf(p) && ix.deleteDead(b) {
		off = leafSearch(p, item, false)
	}
	if !ix.fits(p, len(item)) {
		return ix.split(b, stack, item, off, child)
	}
	if page.AddItem(p, item, off, false, false) != off {
		blk := b.Block()
		releaseAll(b, child)
		return errCorrupt(uint32(ix.rel), blk, "could not add an item at offset %d", off)
	}
	main := binary.LittleEndian.AppendUint16(nil, off)
	if child == nil {
		ix.xlog(xlInsertLeaf, main, regBuf{buf: b, data: item})
	} else {
		cp := child.Page()
		setFlags(cp, btFlags(cp)&^flagIncompleteSplit)
		ix.xlog(xlInsertUpper, main, regBuf{buf: b, data: item}, regBuf{buf: child})
	}
	releaseAll(b, child)
	return nil
}

// releaseAll unlocks and unpins the exclusively locked buffers that are not nil.
func releaseAll(bufs ...*buffer.Buffer) {
	for _, b := range bufs {
		if b != nil {
			relBuf(b, true)
		}
	}
}

// split splits the exclusively locked page b to add item at off (_bt_split):
// a new right page gets the upper part, b keeps the lower part and a new
// high key, the old right sibling's left link moves to the new page; one
// record logs it all. Then the downlink for the new page goes into the
// parent (or a new root) while b stays locked.
func (ix *Index) split(b *buffer.Buffer, stack []stackItem, item []byte, off uint16, child *buffer.Buffer) error {
	p := b.Page()
	pl, ok := ix.planSplit(p, item, off)
	if !ok {
		releaseAll(b, child)
		return pgerr.New(pgerr.ProgramLimitExceeded, "index %d: entries too large to split block %d", ix.rel, b.Block())
	}
	rb, err := ix.newPage()
	if err != nil {
		releaseAll(b, child)
		return err
	}
	var sib *buffer.Buffer
	if next := btNext(p); next != pNone {
		if sib, err = ix.getBuf(next, true); err != nil {
			releaseAll(rb, b, child)
			return err
		}
	}
	wasRoot := btFlags(p)&flagRoot != 0
	level := btLevel(p)
	rflags := btFlags(p) & (flagLeaf | flagIncompleteSplit)
	if !buildPage(rb.Page(), pl.rightItems, level, rflags, b.Block(), btNext(p)) {
		panic("nbtree: split: right half does not fit")
	}
	if sib != nil {
		setPrev(sib.Page(), rb.Block())
	}
	buildLeft(p, item, pl.newItemOff, pl.firstRightOff, pl.onLeft, pl.leftHK, rb.Block())
	// A VACUUM scanning the index meanwhile follows the right link of a
	// page that carries its cycle id (the right half may be a reused page
	// it has read already).
	cycle := ix.vacuumCycle()
	setCycle(p, cycle)
	setCycle(rb.Page(), cycle)
	if child != nil {
		cp := child.Page()
		setFlags(cp, btFlags(cp)&^flagIncompleteSplit)
	}

	info := xlSplitR
	var ldata []byte
	if pl.onLeft {
		info = xlSplitL
		ldata = appendItems(ldata, [][]byte{item})
	}
	ldata = append(ldata, pl.leftHK...)
	var has uint8
	bufs := []regBuf{{buf: b, data: ldata}, {buf: rb, data: appendItems(nil, pl.rightItems), willInit: true}}
	if sib != nil {
		has |= splitHasSibling
		bufs = append(bufs, regBuf{buf: sib})
	}
	if child != nil {
		has |= splitHasChild
		bufs = append(bufs, regBuf{buf: child})
	}
	main := binary.LittleEndian.AppendUint32(nil, level)
	main = binary.LittleEndian.AppendUint16(main, pl.firstRightOff)
	main = binary.LittleEndian.AppendUint16(main, pl.newItemOff)
	main = binary.LittleEndian.AppendUint16(main, rflags)
	main = append(main, has)
	main = binary.LittleEndian.AppendUint16(main, cycle)
	ix.xlog(info, main, bufs...)
	rblk := rb.Block()
	releaseAll(rb, sib, child)
	if testHookBeforeParent != nil && testHookBeforeParent() {
		relBuf(b, true)
		return errTestStop
	}
	return ix.insertParent(b, rblk, pivotKey(pl.leftHK), wasRoot, stack)
}

// testHookBeforeParent, set by tests, stops a split before the insertion
// into the parent when it returns true (a crash between the two records).
var testHookBeforeParent func() bool

var errTestStop = pgerr.New(pgerr.InternalError, "nbtree: stopped by a test")

// insertParent adds the downlink to rblk, the new right half of the
// exclusively locked page left, to the parent level (_bt_insert_parent),
// or grows a new root if left was the root. left is released on return.
// The parent is found by key, starting from the page the descent went
// through at that level (or from the root when the tree grew since):
// separators are unique, so the key alone says where the downlink goes.
func (ix *Index) insertParent(left *buffer.Buffer, rblk uint32, sep []byte, wasRoot bool, stack []stackItem) error {
	level := btLevel(left.Page())
	if wasRoot {
		return ix.newRoot(left, rblk, sep)
	}
	sep = bytes.Clone(sep)
	pb, err := ix.findParent(level+1, sep, false, stack)
	if err != nil {
		relBuf(left, true)
		return err
	}
	pp := pb.Page()
	off := childSearch(pp, sep, false) + 1
	return ix.insertOnPage(pb, stack, makePivot(rblk, sep), off, left)
}

// findParent returns the page at level whose key space holds sep (with
// strict, the keys just below sep: page deletion looks for the parent of a
// page whose high key is sep), exclusively locked, with no incomplete split
// left on it. The caller holds the lock of a page one level down (lock
// order: child before parent). A stack entry is only a hint: if the page it
// names has been deleted and reused at another level since (possible only
// when the caller's transaction does not hold the horizon back), the
// parent is looked for from the root.
func (ix *Index) findParent(level uint32, sep []byte, strict bool, stack []stackItem) (*buffer.Buffer, error) {
	for {
		start := page.InvalidBlock
		for _, s := range stack {
			if s.level == level {
				start = s.blk
			}
		}
		var b *buffer.Buffer
		var err error
		if start != page.InvalidBlock {
			b, err = ix.getBuf(start, true)
		} else {
			b, err = ix.descendToLevel(level, sep, strict)
		}
		if err != nil {
			return nil, err
		}
		if start != page.InvalidBlock && (isDeleted(b.Page()) || btLevel(b.Page()) != level) {
			relBuf(b, true)
			stack = nil
			continue
		}
		if b, err = ix.moveRight(b, searchKey{key: sep, strict: strict}, true); err != nil {
			return nil, err
		}
		if btLevel(b.Page()) != level {
			blk := b.Block()
			relBuf(b, true)
			return nil, errCorrupt(uint32(ix.rel), blk, "parent page has level %d, want %d", btLevel(b.Page()), level)
		}
		if btFlags(b.Page())&flagIncompleteSplit == 0 {
			return b, nil
		}
		// Finish the parent's own interrupted split first, then look again.
		if err := ix.finishSplit(b, stack); err != nil {
			return nil, err
		}
	}
}

// descendToLevel walks from the root to the page at level whose key space
// holds key (strict: the keys just below key) and returns it exclusively
// locked (the re-descent for a parent above the levels the original
// descent saw).
func (ix *Index) descendToLevel(level uint32, key []byte, strict bool) (*buffer.Buffer, error) {
	m, err := ix.readMeta()
	if err != nil {
		return nil, err
	}
	if m.level < level {
		return nil, errCorrupt(uint32(ix.rel), m.root, "no level %d above a split page (root level %d)", level, m.level)
	}
	blk := m.root
	for {
		b, err := ix.getBuf(blk, false)
		if err != nil {
			return nil, err
		}
		if b, err = ix.moveRight(b, searchKey{key: key, strict: strict}, false); err != nil {
			return nil, err
		}
		p := b.Page()
		if btLevel(p) == level {
			blk = b.Block()
			relBuf(b, false)
			return ix.getBuf(blk, true) // the caller moves right again under the exclusive lock
		}
		next := downlink(page.Item(p, childSearch(p, key, strict)))
		relBuf(b, false)
		blk = next
	}
}

// finishSplit adds the missing downlink of the right sibling of the
// exclusively locked page b, which carries INCOMPLETE_SPLIT (a crash or an
// error came between a split and the insertion into the parent), and
// releases b (_bt_finish_split).
func (ix *Index) finishSplit(b *buffer.Buffer, stack []stackItem) error {
	p := b.Page()
	m, err := ix.readMeta()
	if err != nil {
		relBuf(b, true)
		return err
	}
	return ix.insertParent(b, btNext(p), highKey(p), m.root == b.Block(), stack)
}

// newRoot makes a root one level above left and its new right sibling rblk
// (_bt_newroot): two downlinks, the left one minus infinity; the metapage
// points at it. left is released on return.
func (ix *Index) newRoot(left *buffer.Buffer, rblk uint32, sep []byte) error {
	root, err := ix.newPage()
	if err != nil {
		relBuf(left, true)
		return err
	}
	mb, err := ix.getBuf(metaBlock, true)
	if err != nil {
		releaseAll(root, left)
		return err
	}
	lp := left.Page()
	level := btLevel(lp) + 1
	items := [][]byte{makePivot(left.Block(), nil), makePivot(rblk, sep)}
	if !buildPage(root.Page(), items, level, flagRoot, pNone, pNone) {
		panic("nbtree: new root does not fit")
	}
	m := meta{root: root.Block(), level: level}
	initMetaPage(mb.Page(), m)
	setFlags(lp, btFlags(lp)&^(flagIncompleteSplit|flagRoot))
	main := binary.LittleEndian.AppendUint32(nil, m.root)
	main = binary.LittleEndian.AppendUint32(main, m.level)
	ix.xlog(xlNewRoot, main, regBuf{buf: root, data: appendItems(nil, items), willInit: true},
		regBuf{buf: left}, regBuf{buf: mb, willInit: true})
	releaseAll(root, mb, left)
	return nil
}

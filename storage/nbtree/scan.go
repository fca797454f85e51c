package nbtree

// Range scans (nbtsearch.c): an Iterator reads one leaf page at a time
// under its share lock, copies the entries in range out, and follows the
// sibling links with no lock held in between.

import (
	"bytes"
	"slices"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// Bound is one end of a range scan over encoded keys. A nil Key means
// unbounded. Key may encode a prefix of the index's columns; it is then
// compared with the same prefix of each entry, so {Key: enc(5), Inclusive:
// true} as a lower bound on an (a, b) index starts at the first entry with
// a = 5, as package index's bounds do.
type Bound struct {
	Key       []byte
	Inclusive bool
}

// Iterator walks the entries in a range in ascending or descending order.
// It holds no lock and no pin between calls to Next: each call that needs a
// new page locks it, copies its entries in range and releases it. Entries
// inserted or deleted while it runs may or may not be seen; none is seen
// twice (items never move left across a page boundary: Lehman & Yao). An
// entry inserted after a forward scan started may even come out of order:
// when VACUUM deletes empty pages behind the scan, their key space moves
// right, to pages the scan has still to read (pagedel.go); such an entry's
// row version is newer than the scan's snapshot, so the caller never
// returns it (PostgreSQL's scans rely on the same). Entries that were in
// the index when the scan started come in order, but for those marked
// LP_DEAD, which are skipped. A caller that stops before the end calls
// Close, so that the entries DeleteLast remembered on the current page are
// marked (killitems.go). An Iterator is not safe for concurrent use.
type Iterator struct {
	ix      *Index
	lo, hi  []byte // the range is [lo, hi); nil lo: from the start, nil hi: to the end
	reverse bool

	buf     [][]byte // entries of the last page read, in the scan's order
	offs    []uint16 // their offsets on that page
	pos     int
	cur     []byte
	started bool
	done    bool
	next    uint32 // forward: right link of the page read last; reverse: that page
	err     error

	// The page read last, as it was (for applyKills): its block, its LSN
	// and the index's count of VACUUM passes before it was read; and the
	// entries on it DeleteLast remembered (killitems.go).
	blk    uint32
	lsn    uint64
	passes uint64
	kills  []killed
}

// prefixSuccessor returns the least string greater than every string that
// starts with p; ok=false when there is none (p is all 0xFF bytes).
func prefixSuccessor(p []byte) ([]byte, bool) {
	b := bytes.Clone(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != 0xFF {
			b[i]++
			return b[:i+1], true
		}
	}
	return nil, false
}

// NewIterator returns an iterator over the entries between lo and hi,
// descending if reverse.
func (ix *Index) NewIterator(lo, hi Bound, reverse bool) *Iterator {
	it := &Iterator{ix: ix, reverse: reverse}
	switch {
	case lo.Key == nil:
	case lo.Inclusive:
		it.lo = bytes.Clone(lo.Key)
	default:
		succ, ok := prefixSuccessor(lo.Key)
		if !ok {
			it.done = true
		}
		it.lo = succ
	}
	switch {
	case hi.Key == nil:
	case hi.Inclusive:
		if succ, ok := prefixSuccessor(hi.Key); ok {
			it.hi = succ
		}
	default:
		it.hi = bytes.Clone(hi.Key)
	}
	if it.lo != nil && it.hi != nil && bytes.Compare(it.lo, it.hi) >= 0 {
		it.done = true
	}
	return it
}

// Next advances to the next entry and returns its heap TID; ok is false at
// the end of the range or on an error (see Err). Entries marked LP_DEAD
// are skipped (killitems.go).
func (it *Iterator) Next() (tid page.TID, ok bool) {
	for it.pos == len(it.buf) {
		if it.done {
			it.applyKills()
			it.cur = nil
			return page.TID{}, false
		}
		if err := it.fill(); err != nil {
			it.err, it.done, it.buf, it.pos = err, true, nil, 0
		}
	}
	it.cur = it.buf[it.pos]
	it.buf[it.pos] = nil
	it.pos++
	return entryTID(it.cur), true
}

// Entry returns the entry Next returned last (the key's encoding followed
// by the TID). It stays valid after the next call.
func (it *Iterator) Entry() []byte { return it.cur }

// Err returns the error that ended the scan, if any.
func (it *Iterator) Err() error { return it.err }

// inRange reports whether e is in [lo, hi).
func (it *Iterator) inRange(e []byte) bool {
	return (it.lo == nil || bytes.Compare(e, it.lo) >= 0) && (it.hi == nil || bytes.Compare(e, it.hi) < 0)
}

// fill reads the next page of the scan into buf, leaving out LP_DEAD
// items (btgettuple's ignore_killed_tuples), after marking the entries
// remembered on the page read before.
func (it *Iterator) fill() error {
	it.applyKills()
	it.buf, it.offs, it.pos = it.buf[:0], it.offs[:0], 0
	it.passes = it.ix.st.passes.Load()
	var b *buffer.Buffer
	var err error
	switch {
	case !it.started && !it.reverse:
		b, _, err = it.ix.descend(searchKey{key: it.lo}, false)
	case !it.started:
		b, _, err = it.ix.descend(searchKey{key: it.hi, strict: true, toEnd: it.hi == nil}, false)
	case !it.reverse:
		b, err = it.ix.getBuf(it.next, false)
	default:
		b, err = it.ix.walkLeft(it.next)
		if err == nil && b == nil {
			it.done = true
			return nil
		}
	}
	if err != nil {
		return err
	}
	it.started = true
	defer relBuf(b, false)
	p := b.Page()
	it.blk, it.lsn = b.Block(), page.LSN(p)
	if isIgnored(p) {
		it.next = btNext(p)
		if it.reverse {
			it.next = b.Block()
		}
		if !it.reverse && isRightmost(p) {
			it.done = true
		}
		return nil
	}
	first, n := firstData(p), page.MaxOffset(p)
	if !it.reverse {
		// The entries in [lo, hi): from lo's place to hi's, which ends
		// the scan if it is on this page.
		from, to := leafSearch(p, it.lo, false), n
		if it.hi != nil {
			if end := leafSearch(p, it.hi, false); end <= n {
				to, it.done = end-1, true
			}
		}
		it.addRange(p, from, to, false)
		it.next = btNext(p)
		if isRightmost(p) {
			it.done = true
		}
		return nil
	}
	last := n
	if it.hi != nil {
		last = leafSearch(p, it.hi, false) - 1
	}
	from := first
	if it.lo != nil {
		// Entries before lo's place are below the range: reaching one
		// ends the scan.
		if s := leafSearch(p, it.lo, false); s > first {
			from = s
			if last >= first {
				it.done = true
			}
		}
	}
	it.addRange(p, from, last, true)
	it.next = b.Block()
	if btPrev(p) == pNone {
		it.done = true
	}
	return nil
}

// addRange copies the entries at offsets from..to of the page being read
// (in descending order when rev) into buf, leaving out those marked
// LP_DEAD. They share one new allocation (a page's worth of entries used
// to cost one allocation each): buf's slices stay valid after later fills,
// as Entry promises, since no fill writes into an earlier one's memory.
func (it *Iterator) addRange(p page.Page, from, to uint16, rev bool) {
	n := page.MaxOffset(p)
	to = min(to, n)
	if from < 1 || from > to {
		return
	}
	size, count := 0, 0
	for off := from; off <= to; off++ {
		if !itemDead(p, off) {
			size += len(page.Item(p, off))
			count++
		}
	}
	if count == 0 {
		return
	}
	it.buf, it.offs = slices.Grow(it.buf, count), slices.Grow(it.offs, count)
	arena := make([]byte, 0, size)
	add := func(off uint16) {
		if itemDead(p, off) {
			return
		}
		start := len(arena)
		arena = append(arena, page.Item(p, off)...)
		it.buf = append(it.buf, arena[start:len(arena):len(arena)])
		it.offs = append(it.offs, off)
	}
	if rev {
		for off := to; off >= from; off-- {
			add(off)
		}
		return
	}
	for off := from; off <= to; off++ {
		add(off)
	}
}

// walkLeft returns the page left of blk, share-locked, or nil if blk is the
// leftmost (_bt_walk_left): it reads blk's current left link, then, since
// that page may have split since, moves right from it to the page whose
// right link is blk. One lock at a time: moving left while holding a lock
// could deadlock with a writer moving right. If blk was deleted meanwhile
// (no page links to it any more), the walk starts again from the first
// live page right of it, which took over its key space and has been read
// already.
func (ix *Index) walkLeft(blk uint32) (*buffer.Buffer, error) {
	for {
		b, err := ix.getBuf(blk, false)
		if err != nil {
			return nil, err
		}
		p := b.Page()
		if isDeleted(p) {
			blk = btNext(p)
			relBuf(b, false)
			continue
		}
		left := btPrev(p)
		left0 := left
		relBuf(b, false)
		if left == pNone {
			return nil, nil
		}
	walk:
		for {
			lb, err := ix.getBuf(left, false)
			if err != nil {
				return nil, err
			}
			p := lb.Page()
			switch {
			case btNext(p) == blk && !isDeleted(p):
				return lb, nil
			case btNext(p) == blk || isRightmost(p):
				// The left sibling was deleted since blk's left link was
				// read (blk's link has moved on), or blk was: look again.
				relBuf(lb, false)
				break walk
			}
			left = btNext(p)
			relBuf(lb, false)
		}
		b, err = ix.getBuf(blk, false)
		if err != nil {
			return nil, err
		}
		p = b.Page()
		stale := isDeleted(p) || btPrev(p) != left0
		relBuf(b, false)
		if !stale {
			return nil, errCorrupt(uint32(ix.rel), blk, "right links from its left sibling do not lead to block %d", blk)
		}
	}
}

// Lookup returns the heap TIDs of the entries whose key starts with prefix
// (a whole key's encoding, or a prefix of the index's columns), in entry
// order. The TIDs may point at dead or invisible tuples: the caller checks
// them in the heap.
func (ix *Index) Lookup(prefix []byte) ([]page.TID, error) {
	it := ix.NewIterator(Bound{Key: prefix, Inclusive: true}, Bound{Key: prefix, Inclusive: true}, false)
	var out []page.TID
	for {
		tid, ok := it.Next()
		if !ok {
			return out, it.Err()
		}
		out = append(out, tid)
	}
}

// Len returns the number of entries (for tests: it walks the leaf level).
func (ix *Index) Len() (int, error) {
	it := ix.NewIterator(Bound{}, Bound{}, false)
	n := 0
	for {
		if _, ok := it.Next(); !ok {
			return n, it.Err()
		}
		n++
	}
}

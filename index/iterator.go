package index

import "minipg/storage/page"

// Iterator walks a range of an Index in ascending or descending order. It
// copies up to batchSize entries at a time under the index's read lock and
// hands them out with the lock released, then resumes strictly after the last
// entry it returned; so the caller may insert into or delete from the index
// between calls to Next (an UPDATE that scans an index and inserts the new
// versions into it). Such changes may or may not be seen by the iterator; an
// entry is never returned twice. An Iterator is not safe for concurrent use.
type Iterator struct {
	ix      *Index
	lo, hi  Bound
	reverse bool

	buf     []entry
	pos     int
	last    entry // last entry handed out; resume point
	started bool  // last is set
	done    bool  // no more entries after buf

	// Encoded indexes: the bounds' encodings, and entries instead of
	// buf and last.
	loK, hiK string
	ebuf     []string
	elast    string
}

var (
	minTID = page.TID{}
	maxTID = page.TID{Block: 0xFFFFFFFF, Offset: 0xFFFF}
)

// NewIterator returns an iterator over lo..hi (see Bound), descending if
// reverse. No lock is held between calls.
func (ix *Index) NewIterator(lo, hi Bound, reverse bool) *Iterator {
	it := &Iterator{ix: ix, lo: lo, hi: hi, reverse: reverse}
	if ix.enc != nil {
		if lo.Key != nil {
			it.loK = ix.encode(lo.Key)
		}
		if hi.Key != nil {
			if lo.Key != nil && len(lo.Key) == len(hi.Key) && len(lo.Key) > 0 && &lo.Key[0] == &hi.Key[0] {
				it.hiK = it.loK // one key bounds an equality range on both sides
			} else {
				it.hiK = ix.encode(hi.Key)
			}
		}
	}
	return it
}

// Next returns the next entry, or ok=false at the end of the range. The key
// is nil for an encoded index (see Index).
func (it *Iterator) Next() (key Key, tid page.TID, ok bool) {
	if it.ix.enc != nil {
		if it.pos == len(it.ebuf) {
			if it.done {
				return nil, page.TID{}, false
			}
			it.fillEnc()
			if len(it.ebuf) == 0 {
				return nil, page.TID{}, false
			}
		}
		e := it.ebuf[it.pos]
		it.ebuf[it.pos] = ""
		it.pos++
		it.elast, it.started = e, true
		return nil, entryTID(e), true
	}
	if it.pos == len(it.buf) {
		if it.done {
			return nil, page.TID{}, false
		}
		it.fill()
		if len(it.buf) == 0 {
			return nil, page.TID{}, false
		}
	}
	e := it.buf[it.pos]
	it.buf[it.pos] = entry{}
	it.pos++
	it.last, it.started = e, true
	return e.key, e.tid, true
}

// DeleteLast removes the entry Next returned last from the index and
// reports whether it was there (an index scan that found its heap tuple dead
// to every transaction: PostgreSQL's kill_prior_tuple, which marks the entry
// LP_DEAD). The iterator goes on after it as before.
func (it *Iterator) DeleteLast() bool {
	if !it.started {
		return false
	}
	ix := it.ix
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.enc != nil {
		_, ok := ix.etree.Delete(it.elast)
		return ok
	}
	_, ok := ix.tree.Delete(it.last)
	return ok
}

// aboveLo reports whether e is on the right side of the lower bound.
func (it *Iterator) aboveLo(e entry) bool {
	if it.lo.Key == nil {
		return true
	}
	c := it.ix.comparePrefix(e.key, it.lo.Key)
	return c > 0 || (c == 0 && it.lo.Inclusive)
}

// belowHi reports whether e is on the right side of the upper bound.
func (it *Iterator) belowHi(e entry) bool {
	if it.hi.Key == nil {
		return true
	}
	c := it.ix.comparePrefix(e.key, it.hi.Key)
	return c < 0 || (c == 0 && it.hi.Inclusive)
}

// fill copies the next batch of entries into buf under the read lock.
func (it *Iterator) fill() {
	it.buf, it.pos = it.buf[:0], 0
	ix := it.ix
	full := false
	// As in fillEnc: only the first entry visited can be the resume
	// point, and the bound the walk starts from is checked until one entry
	// is inside it.
	resume, inside := it.started, false
	visit := func(e entry) bool {
		if resume {
			resume = false
			if !ix.less(it.last, e) && !ix.less(e, it.last) {
				return true // the resume point itself
			}
		}
		if it.reverse {
			if !inside {
				if !it.belowHi(e) {
					return true
				}
				inside = true
			}
			if !it.aboveLo(e) {
				it.done = true
				return false
			}
		} else {
			if !inside {
				if !it.aboveLo(e) {
					return true
				}
				inside = true
			}
			if !it.belowHi(e) {
				it.done = true
				return false
			}
		}
		if len(it.buf) == batchSize {
			full = true
			return false
		}
		it.buf = append(it.buf, e)
		return true
	}
	ix.mu.RLock()
	switch {
	case it.started && it.reverse:
		ix.tree.DescendLessOrEqual(it.last, visit)
	case it.started:
		ix.tree.AscendGreaterOrEqual(it.last, visit)
	case it.reverse && it.hi.Key == nil:
		ix.tree.Descend(visit)
	case it.reverse:
		ix.tree.DescendLessOrEqual(entry{key: it.hi.Key, tid: maxTID}, visit)
	case it.lo.Key == nil:
		ix.tree.Ascend(visit)
	default:
		ix.tree.AscendGreaterOrEqual(entry{key: it.lo.Key, tid: minTID}, visit)
	}
	ix.mu.RUnlock()
	if !full {
		it.done = true
	}
}

// fillEnc is fill for an encoded index.
func (it *Iterator) fillEnc() {
	it.ebuf, it.pos = it.ebuf[:0], 0
	ix := it.ix
	full := false
	aboveLo := func(e string) bool {
		if it.lo.Key == nil {
			return true
		}
		c := cmpPrefix(e, it.loK)
		return c > 0 || (c == 0 && it.lo.Inclusive)
	}
	belowHi := func(e string) bool {
		if it.hi.Key == nil {
			return true
		}
		c := cmpPrefix(e, it.hiK)
		return c < 0 || (c == 0 && it.hi.Inclusive)
	}
	// Entries are unique and come in order: only the first one visited
	// can be the resume point, and once one entry is inside the bound the
	// walk started from, so are the rest.
	resume, inside := it.started, false
	visit := func(e string) bool {
		if resume {
			resume = false
			if e == it.elast {
				return true // the resume point itself
			}
		}
		if it.reverse {
			if !inside {
				if !belowHi(e) {
					return true
				}
				inside = true
			}
			if !aboveLo(e) {
				it.done = true
				return false
			}
		} else {
			if !inside {
				if !aboveLo(e) {
					return true
				}
				inside = true
			}
			if !belowHi(e) {
				it.done = true
				return false
			}
		}
		if len(it.ebuf) == batchSize {
			full = true
			return false
		}
		it.ebuf = append(it.ebuf, e)
		return true
	}
	ix.mu.RLock()
	switch {
	case it.started && it.reverse:
		ix.etree.DescendLessOrEqual(it.elast, visit)
	case it.started:
		ix.etree.AscendGreaterOrEqual(it.elast, visit)
	case it.reverse && it.hi.Key == nil:
		ix.etree.Descend(visit)
	case it.reverse:
		// Start at the least string above every entry that starts with
		// hiK (visit skips the entries past the bound).
		if succ, ok := prefixSuccessor(it.hiK); ok {
			ix.etree.DescendLessOrEqual(succ, visit)
		} else {
			ix.etree.Descend(visit)
		}
	case it.lo.Key == nil:
		ix.etree.Ascend(visit)
	default:
		ix.etree.AscendGreaterOrEqual(it.loK, visit)
	}
	ix.mu.RUnlock()
	if !full {
		it.done = true
	}
}

// prefixSuccessor returns the least string greater than every string that
// starts with p; ok=false when there is none (p is all 0xFF bytes).
func prefixSuccessor(p string) (string, bool) {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != 0xFF {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}

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

	buf  []entry
	pos  int
	last *entry // last entry handed out; resume point
	done bool   // no more entries after buf
}

// NewIterator returns an iterator over lo..hi (see Bound), descending if
// reverse.
func (ix *Index) NewIterator(lo, hi Bound, reverse bool) *Iterator {
	panic("unimplemented")
}

// Next returns the next entry, or ok=false at the end of the range.
func (it *Iterator) Next() (key Key, tid page.TID, ok bool) {
	panic("unimplemented")
}

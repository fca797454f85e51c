package index

import (
	"sync"

	"github.com/google/btree"

	"minipg/storage/page"
)

// Key is one index key: a value per indexed column, in index column order.
// Elements are types.Datum values (types.Datum is an alias of any; nil is
// NULL). The index keeps the slice it is given, so a caller must not modify
// a key after passing it to Insert.
type Key = []any

// CompareFunc orders two keys of the same length. It is called with equal
// length slices only: when a bound or a lookup key has fewer columns than the
// index (a prefix), the stored key is cut to the same length first. It must be
// a total order consistent with equality (Compare(a, b) == 0 means "equal
// key"), and it must be safe for concurrent use.
type CompareFunc func(a, b Key) int

// batchSize is how many entries an Iterator copies out per visit of the
// tree. Iterators release the index lock between batches, so a caller may
// modify the index while it iterates (see Iterator).
const batchSize = 128

// entry is one (key, tid) pair. Entries are ordered by key, then tid, so that
// equal keys (non-unique indexes, or dead and live versions of one row in a
// unique index) are distinct entries.
type entry struct {
	key Key
	tid page.TID
}

// Index is an in-memory ordered index from key to heap TID.
//
// Locking: mu protects tree. Lookups and iterator batches take it shared,
// Insert/Delete/Clear exclusively; no callback of the caller runs while it is
// held, so index methods may be called from inside a Scan callback.
type Index struct {
	cmp    CompareFunc
	unique bool

	mu   sync.RWMutex // protects tree
	tree *btree.BTreeG[entry]
}

// Bound is one end of a range scan. A nil Key means unbounded. Key may be a
// prefix of the index's columns; then it is compared with the same prefix of
// each stored key, so {Key: [5], Inclusive: true} as a lower bound on an
// (a, b) index starts at the first entry with a = 5.
type Bound struct {
	Key       Key
	Inclusive bool
}

// Unbounded is the open end of a range.
var Unbounded = Bound{}

// Incl returns an inclusive bound at key.
func Incl(key Key) Bound { return Bound{Key: key, Inclusive: true} }

// Excl returns an exclusive bound at key.
func Excl(key Key) Bound { return Bound{Key: key} }

// New returns an empty index ordered by cmp. unique is recorded for the
// executor (Unique): the index itself accepts duplicate keys, because a
// unique index must hold the dead versions of a key next to the live one; the
// executor checks uniqueness against the heap (see the package comment).
func New(cmp CompareFunc, unique bool) *Index {
	ix := &Index{cmp: cmp, unique: unique}
	ix.tree = btree.NewG[entry](32, ix.less)
	return ix
}

// Unique reports whether the index was created as unique.
func (ix *Index) Unique() bool { return ix.unique }

// less orders entries by key, then TID. Keys are compared on their common
// prefix, so that a search pivot with a prefix key sorts next to the entries
// that start with it (all stored keys have the index's full length).
func (ix *Index) less(a, b entry) bool {
	if c := ix.comparePrefix(a.key, b.key); c != 0 {
		return c < 0
	}
	return tidLess(a.tid, b.tid)
}

// comparePrefix compares a and b on their first min(len(a), len(b)) columns.
func (ix *Index) comparePrefix(a, b Key) int {
	n := min(len(a), len(b))
	return ix.cmp(a[:n], b[:n])
}

func tidLess(a, b page.TID) bool {
	if a.Block != b.Block {
		return a.Block < b.Block
	}
	return a.Offset < b.Offset
}

// Insert adds (key, tid). Inserting an entry that is already present is a
// no-op. The index keeps key (see Key).
func (ix *Index) Insert(key Key, tid page.TID) {
	ix.mu.Lock()
	ix.tree.ReplaceOrInsert(entry{key: key, tid: tid})
	ix.mu.Unlock()
}

// Delete removes (key, tid) and reports whether it was present.
func (ix *Index) Delete(key Key, tid page.TID) bool {
	ix.mu.Lock()
	_, ok := ix.tree.Delete(entry{key: key, tid: tid})
	ix.mu.Unlock()
	return ok
}

// Clear removes every entry (before a rebuild from the heap).
func (ix *Index) Clear() {
	ix.mu.Lock()
	ix.tree.Clear(false)
	ix.mu.Unlock()
}

// Len returns the number of entries.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.tree.Len()
}

// Lookup returns the TIDs of all entries whose key equals key (or, when key
// is shorter than the index's keys, whose key starts with key), in TID order
// for a full key. The TIDs may point at dead or invisible heap tuples: the
// caller checks visibility in the heap.
func (ix *Index) Lookup(key Key) []page.TID {
	var out []page.TID
	ix.mu.RLock()
	ix.tree.AscendGreaterOrEqual(entry{key: key, tid: minTID}, func(e entry) bool {
		if ix.comparePrefix(e.key, key) != 0 {
			return false
		}
		out = append(out, e.tid)
		return true
	})
	ix.mu.RUnlock()
	return out
}

// Scan calls fn for each entry with lo <= key <= hi (bounds as given) in
// ascending order until fn returns false. fn runs without the index lock
// held; entries inserted or deleted during the scan may or may not be seen,
// and no entry is seen twice.
func (ix *Index) Scan(lo, hi Bound, fn func(key Key, tid page.TID) bool) {
	it := ix.NewIterator(lo, hi, false)
	for {
		k, tid, ok := it.Next()
		if !ok || !fn(k, tid) {
			return
		}
	}
}

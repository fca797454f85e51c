package index

import (
	"slices"
	"strings"
	"sync"
	"unsafe"

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

// Encoder appends the encoding of a key (or of a prefix of the index's
// columns) to dst. The encoding must be order-preserving and self-delimiting
// per column, NULLs last, as types.AppendKey is: comparing the encodings of
// two keys byte-wise on their common length orders them as the keys.
type Encoder func(dst []byte, k Key) []byte

// An entry of an encoded index is one string: the key's encoding, then the
// TID as 4 bytes of block and 2 of offset, big-endian (16 bytes in the tree,
// plus the string's bytes). Since key encodings are self-delimiting, the
// byte order of two entries is their order by key, then TID; a key (or key
// prefix) encoding alone sorts before every entry that starts with it.
const tidLen = 6

// appendTID appends tid's 6 bytes to an encoded key.
func appendTID(b []byte, tid page.TID) []byte {
	return append(b, byte(tid.Block>>24), byte(tid.Block>>16), byte(tid.Block>>8), byte(tid.Block),
		byte(tid.Offset>>8), byte(tid.Offset))
}

// entryTID returns the TID at the end of entry e.
func entryTID(e string) page.TID {
	t := e[len(e)-tidLen:]
	return page.TID{
		Block:  uint32(t[0])<<24 | uint32(t[1])<<16 | uint32(t[2])<<8 | uint32(t[3]),
		Offset: uint16(t[4])<<8 | uint16(t[5]),
	}
}

// Index is an in-memory ordered index from key to heap TID.
//
// An index made by NewEncoded stores each key as its encoding (see Encoder),
// which takes a fraction of the memory of a slice of datums and compares
// faster; its iterators and Scan hand out nil keys. An index made by New
// keeps the keys it is given and orders them with its CompareFunc.
//
// Locking: mu protects tree and etree. Lookups and iterator batches take it
// shared, Insert/Delete/Clear exclusively; no callback of the caller runs
// while it is held, so index methods may be called from inside a Scan
// callback.
type Index struct {
	cmp    CompareFunc // New
	enc    Encoder     // NewEncoded
	unique bool

	mu    sync.RWMutex          // protects tree and etree
	tree  *btree.BTreeG[entry]  // New
	etree *btree.BTreeG[string] // NewEncoded: entries as described at tidLen
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

// NewEncoded returns an empty index that stores keys encoded by enc (see
// Encoder and Index).
func NewEncoded(enc Encoder, unique bool) *Index {
	ix := &Index{enc: enc, unique: unique}
	ix.etree = btree.NewG[string](32, func(a, b string) bool { return a < b })
	return ix
}

// cmpPrefix compares a and b on their first min(len(a), len(b)) bytes.
func cmpPrefix(a, b string) int {
	n := min(len(a), len(b))
	return strings.Compare(a[:n], b[:n])
}

// encode returns k's encoding.
func (ix *Index) encode(k Key) string {
	var buf [64]byte
	return string(ix.enc(buf[:0], k))
}

// encodeEntry returns the entry for (k, tid).
func (ix *Index) encodeEntry(k Key, tid page.TID) string {
	var buf [64]byte
	return string(appendTID(ix.enc(buf[:0], k), tid))
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
	if ix.enc != nil {
		e := ix.encodeEntry(key, tid)
		ix.mu.Lock()
		ix.etree.ReplaceOrInsert(e)
		ix.mu.Unlock()
		return
	}
	ix.mu.Lock()
	ix.tree.ReplaceOrInsert(entry{key: key, tid: tid})
	ix.mu.Unlock()
}

// Delete removes (key, tid) and reports whether it was present.
func (ix *Index) Delete(key Key, tid page.TID) bool {
	if ix.enc != nil {
		e := ix.encodeEntry(key, tid)
		ix.mu.Lock()
		_, ok := ix.etree.Delete(e)
		ix.mu.Unlock()
		return ok
	}
	ix.mu.Lock()
	_, ok := ix.tree.Delete(entry{key: key, tid: tid})
	ix.mu.Unlock()
	return ok
}

// DeleteTIDs removes every entry whose TID is in tids (VACUUM's removed
// versions) and returns how many it removed.
func (ix *Index) DeleteTIDs(tids map[page.TID]struct{}) int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.enc != nil {
		var gone []string
		ix.etree.Ascend(func(e string) bool {
			if _, ok := tids[entryTID(e)]; ok {
				gone = append(gone, e)
			}
			return true
		})
		for _, e := range gone {
			ix.etree.Delete(e)
		}
		return len(gone)
	}
	var gone []entry
	ix.tree.Ascend(func(e entry) bool {
		if _, ok := tids[e.tid]; ok {
			gone = append(gone, e)
		}
		return true
	})
	for _, e := range gone {
		ix.tree.Delete(e)
	}
	return len(gone)
}

// Clear removes every entry (before a rebuild from the heap).
func (ix *Index) Clear() {
	ix.mu.Lock()
	if ix.enc != nil {
		ix.etree.Clear(false)
	} else {
		ix.tree.Clear(false)
	}
	ix.mu.Unlock()
}

// Len returns the number of entries.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.enc != nil {
		return ix.etree.Len()
	}
	return ix.tree.Len()
}

// Lookup returns the TIDs of all entries whose key equals key (or, when key
// is shorter than the index's keys, whose key starts with key), in TID order
// for a full key. The TIDs may point at dead or invisible heap tuples: the
// caller checks visibility in the heap.
func (ix *Index) Lookup(key Key) []page.TID {
	var out []page.TID
	if ix.enc != nil {
		k := ix.encode(key)
		ix.mu.RLock()
		ix.etree.AscendGreaterOrEqual(k, func(e string) bool {
			if cmpPrefix(e, k) != 0 {
				return false
			}
			out = append(out, entryTID(e))
			return true
		})
		ix.mu.RUnlock()
		return out
	}
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

// builderChunk is the size of the blocks a Builder packs encoded keys into.
const builderChunk = 64 << 10

// Builder adds many entries at once (CREATE INDEX, the rebuild at
// start-up). For an encoded index it packs the encoded keys into shared
// blocks (one allocation per builderChunk bytes of keys instead of one per
// key), sorts the entries and inserts them in key order; for other indexes
// Add simply inserts. Entries become visible at Finish. A Builder is not
// safe for concurrent use.
type Builder struct {
	ix      *Index
	es      []string
	chunk   []byte // current block; entries point into it and are never rewritten
	scratch []byte
}

// NewBuilder returns a Builder adding to ix.
func (ix *Index) NewBuilder() *Builder { return &Builder{ix: ix} }

// Add queues (key, tid) (inserts it at once for an index made by New) and
// returns the key's encoding, which stays valid and unchanged (equal keys
// have equal encodings); "" for an index made by New.
func (b *Builder) Add(key Key, tid page.TID) string {
	if b.ix.enc == nil {
		b.ix.Insert(key, tid)
		return ""
	}
	b.scratch = appendTID(b.ix.enc(b.scratch[:0], key), tid)
	n := len(b.scratch)
	if cap(b.chunk)-len(b.chunk) < n {
		b.chunk = make([]byte, 0, max(builderChunk, n))
	}
	start := len(b.chunk)
	b.chunk = append(b.chunk, b.scratch...)
	// The bytes at chunk[start:start+n] are never written again.
	e := unsafe.String(&b.chunk[start], n)
	b.es = append(b.es, e)
	return e[:n-tidLen]
}

// Finish inserts the queued entries.
func (b *Builder) Finish() {
	if len(b.es) == 0 {
		return
	}
	slices.Sort(b.es)
	b.ix.mu.Lock()
	for _, e := range b.es {
		b.ix.etree.ReplaceOrInsert(e)
	}
	b.ix.mu.Unlock()
	b.es, b.chunk, b.scratch = nil, nil, nil
}

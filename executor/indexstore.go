package executor

// Where an index's entries live. The executor talks to every index through
// indexStore; two implementations exist:
//
//   - memStore (indexstore_mem.go): an ordered in-memory tree (package
//     index), not WAL-logged, rebuilt from the heap at every start;
//   - diskStore (indexstore_disk.go): a B-tree in a relation file of its
//     own (storage/nbtree), read and written through the buffer pool,
//     WAL-logged, opened as it is at start-up.
//
// The server setting index_storage (disk, the default, or memory; -c at
// start) chooses the storage of the indexes created from then on; an index
// keeps the storage it was created with (the catalog records a disk
// index's relfilenode: catalog.Index.RelFileNode), whatever the setting
// says at a later start. disk is the default because neither start-up time
// nor memory grows with the data (nothing is rebuilt, the pages go through
// the buffer pool) and the indexes are WAL-logged; memory remains, for
// comparison.

import (
	"errors"
	"fmt"

	"minipg/catalog"
	"minipg/index"
	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/nbtree"
	"minipg/storage/page"
	"minipg/types"
)

// newKeyFormat is the key format of new disk indexes (tests make indexes
// in an older one).
var newKeyFormat = types.CurrentKeyFormat

func init() {
	RegisterSetting("index_storage", "disk", roPostmaster, false)
}

// indexStore is one index's entries: keys (one datum per indexed column)
// with the heap TIDs of the tuple versions (HOT chain roots) they belong
// to, ordered by key, then TID. An entry points at a version, not a row:
// readers check visibility in the heap. Every method is safe for
// concurrent use.
type indexStore interface {
	// Insert adds an entry (a no-op if it is present).
	Insert(key index.Key, tid page.TID) error
	// InsertUnique adds an entry unless check, given the TIDs of the other
	// entries with the same key (never empty; check is not called when
	// there are none), says not to. Concurrent InsertUnique calls for one
	// key are serialized from before check to after the insertion, so two
	// inserters of a key cannot both pass their checks. check must not use
	// this index; it may read the heap. An error from check is returned as
	// it is (errWaitXid: the caller waits and calls again). inserted says
	// whether the entry is in the index on return.
	InsertUnique(key index.Key, tid page.TID, check func(conflicts []page.TID) (bool, error)) (inserted bool, err error)
	// Delete removes one entry if present.
	Delete(key index.Key, tid page.TID) error
	// DeleteFreeing removes the entries (keys[i], tids[i]) if present, whose
	// TIDs the heap frees next, outside VACUUM (the reclaim behind a
	// prune): a disk index's scans that remember entries to mark dead must
	// not mark one that comes back for a live row, and the entries on one
	// leaf go in one record (nbtree.Index.DeleteFreeing).
	DeleteFreeing(keys []index.Key, tids []page.TID) error
	// DeleteTIDs removes every entry pointing at one of tids (VACUUM) and
	// returns how many it removed. point, when not nil, is VACUUM's delay
	// point, called after each index page a disk index reads (an error
	// stops the pass and is returned).
	DeleteTIDs(tids map[page.TID]struct{}, point nbtree.VacuumPoint, s *buffer.Strategy) (int, error)
	// VacuumCleanup ends a VACUUM of the table that called no DeleteTIDs
	// (btvacuumcleanup): a disk index makes the pages it deleted earlier
	// reusable, reading itself again only when enough wait for that.
	VacuumCleanup(point nbtree.VacuumPoint, s *buffer.Strategy) error
	// NewIterator walks the entries between lo and hi (index.Bound: a key
	// or a prefix of one), descending if reverse; the caller may change
	// the index between calls to Next.
	NewIterator(lo, hi index.Bound, reverse bool) indexIterator
	// NewBuilder returns a Builder that fills the empty index with the
	// entries of a build, given in any order; a disk index sorts them in
	// mem bytes (maintenance_work_mem), spilling sorted runs to disk past
	// it (indexbuild_sort.go).
	NewBuilder(mem int64) indexBuilder
}

// indexIterator is a range scan of an indexStore.
type indexIterator interface {
	// Next returns the TID of the next entry; ok is false at the end of
	// the range or on an error (Err).
	Next() (tid page.TID, ok bool)
	// Err is the error that ended the scan, if any.
	Err() error
}

// entryDeleter is an indexIterator that can remove the entry it returned
// last, when the heap finds that entry's chain dead to every transaction
// (PostgreSQL marks it LP_DEAD: kill_prior_tuple), so that later scans skip
// it without a heap visit instead of meeting it until VACUUM. DeleteLast
// runs under the heap page's share lock: it must not wait for an index
// lock. The in-memory index removes the entry at once; the disk B-tree
// (nbtree.Iterator) remembers it and marks it LP_DEAD when the scan leaves
// its leaf page, ends, or is closed (scanCloser).
type entryDeleter interface {
	DeleteLast()
}

// scanCloser is an indexIterator with work left when a scan stops before
// its end (a LIMIT, an error, a cursor closed): the disk B-tree marks the
// entries DeleteLast remembered on its current page. indexScan.Close
// calls it, holding no buffer lock.
type scanCloser interface {
	Close()
}

// indexBuilder fills a new index (CREATE INDEX, a new key constraint).
type indexBuilder interface {
	// Add adds an entry and returns the key's encoding (equal for equal
	// keys: the caller's duplicate check uses it).
	Add(key index.Key, tid page.TID) string
	// Finish makes the entries visible to the index's readers.
	Finish() error
	// Close releases what the build holds (its temporary files): after
	// Finish, or instead of it when the build fails.
	Close()
}

// errWaitXid is what a unique check returns when the key's fate depends on
// a transaction still in progress: the inserter waits for it and tries
// again. token, when not 0, is the speculative insertion token of the row
// that transaction has not decided on yet: the wait is for that decision
// only (execCtx.waitForXid).
type errWaitXid struct{ xid, token uint32 }

func (e errWaitXid) Error() string { return fmt.Sprintf("wait for transaction %d", e.xid) }

// waitXidOf returns what err says to wait for; ok is false for any other
// error.
func waitXidOf(err error) (w errWaitXid, ok bool) {
	ok = errors.As(err, &w)
	return w, ok
}

// indexStorageDisk reports whether new indexes are stored on disk
// (index_storage = disk).
func (e *Engine) indexStorageDisk() bool { return e.settings["index_storage"] == "disk" }

// checkIndexStorage validates index_storage.
func checkIndexStorage(v string) (string, error) {
	switch v {
	case "memory", "disk":
		return v, nil
	}
	return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"index_storage\": \"%s\"", v).
		WithHint("Available values: memory, disk.")
}

// newRelIndex makes the index structure of idef, an index of r: a disk
// index (idef.RelFileNode set) opens its relation file, which must hold a
// built index (or be about to be built: NewBuilder); a memory index starts
// empty.
func (e *Engine) newRelIndex(r *relation, idef catalog.Index) *relIndex {
	ri := &relIndex{def: idef}
	for _, a := range idef.Columns {
		c := int(a) - 1
		ri.cols = append(ri.cols, c)
		ri.types = append(ri.types, r.types[c])
	}
	if idef.OnDisk() {
		ri.ix = e.openDiskStore(r, ri)
	} else {
		ri.ix = newMemStore(ri)
	}
	return ri
}

// prepareIndex readies idx, about to be built, for the
// storage index_storage asks for: on disk, it reserves the relfilenode of
// the index's file (catalog.AllocOID) and sets idx.RelFileNode, and the
// current key format. The file itself is made by the build (or
// createEmptyIndex).
func (e *Engine) prepareIndex(idx *catalog.Index) error {
	if !e.indexStorageDisk() {
		idx.RelFileNode, idx.KeyFormat = 0, 0
		return nil
	}
	rfn, err := e.cat.AllocOID()
	if err != nil {
		return err
	}
	keepOnDisk(idx, rfn)
	return nil
}

// keepOnDisk marks idx as stored in file rfn (or catalog.AssignRelFileNode)
// with the key format of new indexes.
func keepOnDisk(idx *catalog.Index, rfn uint32) {
	idx.RelFileNode, idx.KeyFormat = rfn, uint8(newKeyFormat)
}

// dropIndexFiles removes the files of the disk indexes among idxs (after
// the catalog no longer has them, or when their build failed): the drop is
// logged and flushed first, then the files are unlinked. Memory indexes
// need nothing.
func (e *Engine) dropIndexFiles(idxs ...catalog.Index) error {
	var first error
	for _, idx := range idxs {
		if !idx.OnDisk() {
			continue
		}
		err := e.walLogDrop(idx.RelFileNode)
		if err == nil {
			err = e.pool.DropRel(buffer.RelFileNode(idx.RelFileNode))
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// indexDefs returns the definitions of ris.
func indexDefs(ris []*relIndex) []catalog.Index {
	out := make([]catalog.Index, len(ris))
	for i, ri := range ris {
		out[i] = ri.def
	}
	return out
}

// Package index holds minipg's in-memory indexes: ordered trees from a key
// (one datum per indexed column) to the TID of a heap tuple. PRIMARY KEY and
// CREATE INDEX build one per index when the server runs with
// index_storage = memory (the default, disk, keeps them as B-trees of
// storage/nbtree: executor/indexstore.go); they are not WAL-logged and are
// rebuilt from the heap at start-up, after recovery.
//
// # What an entry means
//
// Like a PostgreSQL btree, the index points at tuple versions, not rows: an
// UPDATE that changes a row adds an entry for the new version and leaves the
// old one, so a key may have several entries, some of them pointing at dead or
// not-yet-visible tuples. Entries are ordered by key, then by TID, so they are
// distinct even when keys are equal. Readers check visibility in the heap with
// their snapshot. Entries for tuples removed by VACUUM are deleted by the
// executor (Delete) before the line pointers are reused. An index scan that
// finds an entry's tuples dead to every transaction removes the entry at
// once (Iterator.DeleteLast, under the heap page's share lock so that VACUUM
// cannot meanwhile free the line pointer), where PostgreSQL marks it
// LP_DEAD (kill_prior_tuple): a queue table such as TPC-C's new_order, read
// from its oldest row, would otherwise visit every row delivered since the
// last VACUUM at every read.
//
// # Uniqueness
//
// The index does not enforce uniqueness: that needs the heap. Before
// inserting into a unique index the executor does what PostgreSQL's
// _bt_check_unique does: Lookup(key), and for each TID fetch the tuple; a
// live committed tuple is a 23505 unique_violation, a tuple whose inserter
// (or deleter) is still in progress means wait for that transaction and look
// again, dead tuples are skipped. A key with a NULL column never conflicts
// (NULLS DISTINCT, PostgreSQL's default), so the check is skipped for it.
// Concurrent inserters of one key must
// serialize the check-and-insert (for example by inserting first and checking
// for other entries after, as PostgreSQL does under the page lock).
//
// # Ordering of keys
//
// The executor's indexes are made by NewEncoded: each key is stored as its
// order-preserving encoding (types.AppendKey per column, NULLs last as
// PostgreSQL's default btree ordering, ASC NULLS LAST) followed by the TID,
// so an entry is one string, compared byte-wise; a Builder packs the keys of an index
// build into shared blocks and inserts them sorted. New takes a CompareFunc
// instead and keeps the keys as given; KeyCompare builds one from per-column
// comparisons (types.Compare for each column's type) with NULLs last.
//
// # Locking
//
// One sync.RWMutex per index. Lookup and each iterator batch hold it shared;
// Insert, Delete and Clear exclusively. No caller code runs under it, and it
// is never held while any other lock is taken, so it cannot take part in a
// deadlock.
package index

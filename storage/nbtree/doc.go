// Package nbtree is minipg's on-disk B-tree index, after PostgreSQL's
// nbtree (src/backend/access/nbtree/README): Lehman & Yao's tree with high
// keys and right links, so that readers never block on a page split, kept
// in 8 KiB pages of the index's own relation file, read and written through
// the shared buffer pool (storage/buffer; its pages are evicted like heap
// pages) and WAL-logged as the Btree resource manager (storage/wal), with
// full-page images on the first change after a checkpoint and redo at
// recovery. Nothing is rebuilt at start-up.
//
// # What an entry is
//
// An entry is one byte string: the index key's order-preserving encoding
// (types.AppendKey per column, as package index's encoded indexes store
// it) followed by the heap TID in 6 bytes, block then offset, big-endian
// (AppendTID). Key encodings are self-delimiting, so the byte order of two
// entries is their order by key, then TID, and every entry is distinct:
// the tree's keys are unique at every level, which makes PostgreSQL 12's
// "heap TID as the last key column" come for free. A key (or a prefix of
// the index's columns) encoded alone sorts before every entry that starts
// with it; Lookup and the iterators' bounds work on such prefixes.
//
// # On-disk structure
//
// Block 0 is the metapage (BTMetaPageData: magic, version, root block,
// root level; see page.go); every other block is a tree page:
//
//	+----------------+---------------------------------------------+
//	| PageHeaderData | linp1 (high key) linp2 linp3 ... linpN      |
//	+----------------+---------------------------------------------+
//	|       ^ pd_lower                                             |
//	|                     v pd_upper                               |
//	+---------------------+----------------------------------------+
//	|                     | itemN ... item3 item2 item1 (high key) |
//	+---------------------+-----------------+----------------------+
//	|            ... items                  | BTPageOpaqueData (16)|
//	+---------------------------------------+----------------------+
//	                                        ^ pd_special = 8176
//
//	BTPageOpaqueData: btpo_prev u32 | btpo_next u32 | btpo_level u32 | btpo_flags u16 | btpo_cycleid u16
//	btpo_flags: LEAF 0x01, ROOT 0x02, DELETED 0x04, META 0x08, HALF_DEAD 0x10, HAS_GARBAGE 0x40, INCOMPLETE_SPLIT 0x80
//
// Level 0 is the leaves; the root is the only page of the top level. On a
// page that is not rightmost on its level (btpo_next != 0) line pointer 1
// is the high key: every item on the page is below it and every item on
// the right sibling at or above it. Leaf items are entries as they are.
// Items of internal pages and high keys are pivot tuples:
//
//	0          4
//	+----------+-------------------------------------------+
//	| downlink | separator (a prefix of some entry, possibly |
//	| u32 LE   | cut inside the TID: suffix truncation)      |
//	+----------+-------------------------------------------+
//
// The first item of an internal page has an empty separator and stands
// for minus infinity; item i's child holds the keys from its separator up
// to (not including) item i+1's (or the page's high key). A leaf split
// pushes up the shortest prefix of the right half's first entry that is
// above the left half's last one. A leaf entry's line pointer may be
// LP_DEAD (lp_flags 3, storage kept): a hint that its heap tuples are dead
// to every transaction (killitems.go). A high key's downlink is InvalidBlock,
// except on a half-dead leaf, where it names the top of the chain of
// pages its deletion has still to unlink (pagedel.go).
//
// # Operations
//
//   - Insert descends from the root (share-locking one page at a time,
//     moving right past a high key that is not above the entry), takes the
//     leaf exclusively, and adds the entry. A full page splits: a new page
//     (a reusable deleted one the free space map offers, or one from the
//     end of the relation) takes the upper part (half of the bytes,
//     or all but fillfactor when an ascending insert fills the rightmost
//     page, or what follows the new entry when it continues a run of
//     localized ascending inserts: same first column as the entry before,
//     adjacent heap TID, Options.LeadingColumnLen), the old right
//     sibling's left link moves to it, and one record
//     logs the three pages; the left page is marked INCOMPLETE_SPLIT until
//     the downlink reaches the parent, which may split in turn, up to a new
//     root (the metapage is updated in the NEWROOT record).
//   - InsertUnique does the unique check under the exclusive lock of the
//     first leaf the key can be on (_bt_check_unique): it collects the
//     TIDs of the other entries with the same key, across right siblings,
//     and asks the caller's UniqueCheck; concurrent inserters of the key
//     queue on that lock.
//   - Delete removes one entry (DELETE record); DeleteTIDs is VACUUM's bulk
//     delete: every leaf in physical order, removing the entries whose TIDs
//     it is given (VACUUM record), with a delay point per page for the
//     cost-based delay; a split during the pass stamps its pages with the
//     pass's cycle id (btpo_cycleid), and the pass follows a stamped page's
//     right link back to a reused page it has passed (btvacuumpage). With a Horizon (the executor's transaction
//     manager) the same pass deletes the leaves it leaves empty, each with
//     the chain of parents left without another child (MARK_PAGE_HALFDEAD,
//     then one UNLINK_PAGE per page, top-down; pagedel.go), and records
//     the deleted pages of every level that no transaction can reach any
//     more in the index's free space map (its FSM fork, storage/fsm), where
//     splits take their new pages from; VacuumCleanup repeats the
//     pass without deleting entries when deleted pages wait for the
//     horizon (btvacuumcleanup).
//   - NewIterator scans a range forwards or backwards, one leaf at a time,
//     skipping LP_DEAD items; Lookup is a scan of one key prefix; Len
//     counts entries (tests). The caller may report the entry it was
//     given last dead to every transaction (Iterator.DeleteLast,
//     kill_prior_tuple): when the scan leaves that leaf, ends or is
//     closed, it marks such entries LP_DEAD if the page's LSN is still
//     the one it read (_bt_killitems), or if no VACUUM pass ran since,
//     as a hint (not logged). A full leaf
//     deletes its LP_DEAD items (a DELETE record) before it splits, and
//     splits only if the new entry still does not fit; Delete and
//     VACUUM's pass remove them too; a unique check skips them
//     (killitems.go).
//   - A Builder builds a new index bottom-up from sorted entries (nbtsort):
//     leaves filled to fillfactor (90 by default), internal pages to 70,
//     each page written once through the buffer pool and logged as an XLOG
//     FPI record, the metapage last.
//   - Check verifies the whole structure (amcheck's bt_index_check plus
//     the parent/child checks) and names the block of the first problem.
//
// # Locking
//
// Buffer content locks only; no lock of the index's own. Pin before lock,
// as everywhere. Rules, as in PostgreSQL:
//   - Readers hold one page lock at a time (share): descending, they unlock
//     a page before locking the child; moving right they unlock before they
//     lock the sibling. A scan copies a leaf's entries in range and unlocks
//     it, remembering the right link it saw (forwards) or the page itself
//     (backwards: it then re-reads the page's current left link and moves
//     right from there to the page whose right link is the one it left).
//     Items never move left across a page boundary, so no entry is returned
//     twice; entries inserted after a page was read may be missed. A scan
//     that marks entries LP_DEAD locks their leaf again, exclusively,
//     holding no other lock (the caller's heap page locks are released by
//     then).
//   - Writers lock pages left to right within a level and bottom-up across
//     levels, never the other way: a split holds the page that splits, then
//     locks the new page (a new block, or a reused deleted page nobody
//     else locks but VACUUM's scan) and the old right sibling; it keeps the left page
//     locked while it locks the parent (which may split: the left child,
//     the parent, its new sibling and its old right sibling are then held
//     at once) and releases it once the downlink is in. InsertUnique holds
//     the first leaf of the key while it moves right to the page the entry
//     goes on. A new root locks the metapage after the old root. So an
//     index holds up to four buffer locks at once (but for the first step
//     of a page deletion: one per level, below), more than the heap's
//     two, but never together with a heap buffer lock, except that a
//     UniqueCheck may read heap pages under the leaf's lock (one index
//     lock, then heap locks; no heap code ever waits for an index lock).
//   - Page deletion follows the same order: the first step locks the
//     empty leaf, then its parent (found by key, as a split's is), and,
//     while the page below is its parent's only child, the next parent up,
//     holding them all until the first parent with more children has lost
//     the downlink (one lock per level of the tree at most); each unlink
//     step locks the half-dead leaf (if the page to unlink is above it),
//     then the page's left sibling, the page and its right sibling, left
//     to right: four pages at most. Nothing waits for the half-dead leaf
//     while holding a page of a higher level.
//   - Relation extension for a split calls buffer.Pool.Extend without the
//     extension lock (Extend is safe without it; nothing else extends the
//     index).
//   - The free space map's pages (the FSM fork) are locked one at a time
//     by storage/fsm, under whatever index page locks the caller holds: a
//     split asks the map for a page while it holds the page it splits,
//     VACUUM records a deleted page while it holds that page. The map
//     never takes an index page lock, so it comes last in the order. A
//     page taken from the map is locked conditionally (Buffer.TryLock):
//     the map may name the very page the split holds (pagedel.go).
//
// # Recovery
//
// Each split is one record for its level, then one for the insertion into
// the parent (or NEWROOT), as in PostgreSQL; a crash between them leaves a
// page without downlink, which readers reach through the right link of its
// left sibling (marked INCOMPLETE_SPLIT). The next insertion that lands
// on the flagged leaf, or that needs the flagged page as a parent, inserts
// the missing downlink first (_bt_finish_split). Parents are found by key,
// not by matching downlinks: separators are unique, so the key alone says
// where a downlink goes, even next to a downlink that is missing. Redo
// (redo.go) replays records through wal.ReadBufferForRedo and the same page
// functions the changes used, so a recovered page equals the original byte
// for byte (tested), but for hints: LP_DEAD marks and BTP_HAS_GARBAGE are
// not logged, and a crash may lose them (every record that removes items
// removes the LP_DEAD ones, so none survives into a page redo rebuilds). A page deletion is two records or more (the mark,
// then an unlink per page of the chain and one for the leaf): a crash
// between any two leaves an empty half-dead leaf, whose high key names
// the top of the part of the chain still linked, and those pages
// half-dead too; every reader and writer moves right past them and the
// next VACUUM unlinks them. The free space map is not logged and not
// replayed: after a crash it is what the buffer pool last wrote of it, a
// hint that splits check page by page (pagedel.go).
//
// # How the executor uses it
//
// With the server setting index_storage = disk, the default
// (executor/indexstore.go and indexstore_disk.go), each new index gets a relfilenode of its own from
// the catalog (reserved before its file is built, so that a catalog entry
// never names a file that a crash could leave unbuilt; CREATE TABLE makes
// its indexes' empty files under the catalog's DDL lock). CREATE INDEX and
// new key constraints feed a Builder with the heap's entries sorted (in
// maintenance_work_mem, past which sorted runs go to temporary files under
// base/pgsql_tmp and are merged: executor/indexbuild_sort.go), and the
// WAL is flushed before the catalog entry is committed. At start-up the
// index is opened with Open, not rebuilt. Inserts are Insert(AppendTID(
// enc(key), tid)); a unique index's are InsertUnique with a UniqueCheck
// that runs heap.FetchHotMatch and SatisfiesDirty on each conflicting TID
// (false on a live duplicate: 23505; an error carrying the xid to wait for
// on an in-progress one, after which the executor calls InsertUnique
// again); an entry found pointing at a dead HOT chain is removed by Delete
// after the leaf is released. VACUUM calls DeleteTIDs before the heap's
// line pointers are reused (with its cost-based delay point), then
// VacuumCleanup; the transaction manager is the Horizon; index scans use NewIterator with the bounds'
// encodings. DROP INDEX, DROP TABLE and the constraint drops of ALTER
// TABLE drop the relation (wal.LogDrop, buffer.Pool.DropRel); TRUNCATE
// gives each index a new, empty relation first; either removes every fork
// of the old relation, the free space map's with the rest.
// pg_relation_size, pg_indexes_size (the FSM fork included) and
// minipg_stat_wal_rel count the index like any relation; pg_freespace
// shows its free space map (8160 for a page recorded free, 0 for the
// others, as in PostgreSQL 15); amcheck's bt_index_check runs Check.
//
// # Open questions
//
//   - Page deletion starts from empty leaves only: an internal page goes
//     when its last child does (the chain of single-child parents above an
//     empty leaf), and a leaf that is the rightmost child of a parent with
//     other children is kept, as in PostgreSQL; such a parent keeps that
//     one downlink until its other children go and a later VACUUM comes
//     by (a pass that reaches the rightmost child first, in physical
//     order, leaves it). So after mass deletions the lower end of an
//     emptied range can keep one single-child page per level, and
//     internal pages are never merged: a level keeps pages with few
//     downlinks when their children are not all gone.
//   - The free space map of an index is not WAL-logged (nor is
//     PostgreSQL's): after a crash it is what the buffer pool last wrote
//     of it. A reused page it still names is skipped by the check under
//     the lock (and its entry cleared), but a deleted page recorded after
//     its last write is not offered until the next VACUUM that passes
//     over the index records it again. A corrupt FSM page makes the map
//     answer nothing for its range, as for a heap (storage/fsm's README):
//     splits then extend the index.
//   - How many deleted pages wait for the horizon (VacuumCleanup's
//     threshold) is counted in memory, where PostgreSQL keeps it in the
//     metapage (btm_last_cleanup_num_delpages): the first VACUUM after a
//     restart that removes no index entry still reads the whole index.
//   - A new page (all zeroes) that a crash left in the index (a split
//     extended the file, its record never reached the log) is never
//     reused: PostgreSQL records such pages free, but minipg extends an
//     index without the extension lock, and locks the new page only after
//     Extend returns, so VACUUM cannot tell a leaked page from one a
//     split is about to lock.
//   - No fast root, no deduplication (posting lists), no bottom-up
//     deletion (PostgreSQL 14's pass that, before a split caused by
//     versions of unchanged keys, checks the heap for entries no scan has
//     marked yet): a leaf only loses the LP_DEAD items scans marked.
//   - A scan holds no pin, so VACUUM and a new row could put a
//     byte-equal entry for a live tuple where it read a dead one: it
//     marks at the offsets it read if the leaf's LSN has not moved, else
//     looks the entries up on the leaf only if no VACUUM pass over the
//     index ran since its read; otherwise (and for entries a split moved
//     to another leaf) the marks are dropped, and the next scan sets them.
//     PostgreSQL, holding the pin when it can, searches by heap TID. An
//     index without WAL (tests) marks nothing. Setting LP_DEAD takes the
//     leaf's exclusive lock (PostgreSQL's share lock plus the buffer
//     header's would be a data race in Go), as the heap's hint bits do.
//   - The unique check skips LP_DEAD items but does not set any: an entry
//     it finds pointing at a dead HOT chain is removed by Delete after
//     the leaf is released (PostgreSQL's _bt_check_unique marks it).
//   - A scan reads the metapage on every descent (PostgreSQL caches it in
//     the relcache).
package nbtree

// Package buffer is minipg's shared buffer pool: PostgreSQL's bufmgr.c,
// freelist.c (clock sweep) and the parts of smgr/md.c the heap and FSM need.
//
// # What it owns
//
//   - A fixed array of NBuffers frames of page.BlockSize bytes (an anonymous
//     mmap outside the Go heap, unmapped when the Pool is unreachable, so
//     page slices must not be kept after Release), each with a
//     descriptor (Buffer): tag, pin count, usage count, dirty and valid bits,
//     a content lock (sync.RWMutex).
//   - The buffer mapping table Tag -> frame, split in partitions each with
//     its own mutex (BufMappingLock partitions).
//   - The relation files: <Dir>/<relfilenode> (main fork) and
//     <Dir>/<relfilenode>_fsm (FSM fork), one open *os.File per fork, read
//     and written with pread/pwrite (ReadAt/WriteAt, safe for concurrent use),
//     plus the in-memory size of each fork in blocks (so that extenders
//     serialized by the extension lock see each other's blocks at once).
//   - One ExtensionLock per relation, with a waiter count
//     (RelationExtensionLockWaiterCount).
//   - Per-relation counters: blocks read, written, dirtied (clean -> dirty
//     transitions), extended, and Extend calls.
//
// Per-backend counters (Usage, PostgreSQL's BufferUsage) are the caller's:
// ReadBufferUsage and MarkDirtyUsage add a backend's hits, reads, pages
// dirtied and dirty victims written to the Usage it passes (usage.go).
//
// On disk a fork is a plain array of pages: block n at byte n*BlockSize. The
// pool does not interpret pages beyond the header check (page.Verify) done on every read
// (pd_flags, pd_lower <= pd_upper <= pd_special <= BlockSize, MAXALIGNed
// pd_special, pd_pagesize_version = 8192|4; an all-zero page is a valid new
// page) and pd_lsn, read for the WAL rule.
//
// # Invariants
//
//   - A frame with pins > 0 is never given another tag (never evicted).
//   - A dirty frame is written (after Options.FlushWAL(pd_lsn): the WAL rule)
//     before its frame is reused; "clean" means written to the OS.
//   - Each tag is in at most one frame: a miss inserts the tag into the
//     mapping (frame not yet valid, I/O in progress) before it reads the
//     block; others that find it pin the frame and wait for the read to end.
//   - A read that fails (I/O error, corrupt page) removes its mapping entry
//     and frees the frame: no frame is left behind for a bad block.
//   - Every tagged frame is in the mapping and vice versa (Pool.Check).
//
// # Eviction
//
// Clock sweep as in PostgreSQL: the hand passes frames, lowering usage
// counts of unpinned ones; the first unpinned frame with usage 0 is the
// victim. ReadBuffer raises the usage count (up to 5) on every pin. If the
// hand passes every frame without finding one unpinned (a few passes, with
// a yield between them, since most pins are brief), ReadBuffer fails with
// "no unpinned buffers available" (53000).
//
// # Locking
//
//   - Pin before lock: take Lock/RLock only on a pinned buffer; Release only
//     after Unlock/RUnlock. Change a page only under Lock, then MarkDirty.
//   - Order, outermost first: content lock -> ioMu (one writer of a page at a
//     time) -> mapping partition locks (ascending) -> buffer header lock.
//     Relation file and rels locks are leaves, except that Extend takes
//     mapping partition and header locks under its fork's file lock (to
//     install the new pages before publishing the size); nothing takes a
//     file lock under a partition or header lock.
//   - A mapping partition lock is never held while waiting on a content lock
//     or on I/O; the header lock is held only for a few field updates.
//   - Callers (heap) hold at most two content locks at once, taken in block
//     order, and never take an ExtensionLock while holding a content lock.
//   - DropRel/TruncateRel drop buffers without writing them and expect the
//     caller to keep others away from the relation (PostgreSQL's
//     AccessExclusiveLock); they wait a while for transient pins (flushes)
//     and fail with 55000 if a buffer stays pinned.
//
// # Open questions
//
//   - Extend writes zero pages to the file and also installs them in the
//     pool as zeroed, valid, clean frames (at most 1/16 of the pool),
//     before the new size is published, so the first ReadBuffer of a new
//     block is a hit; PostgreSQL 16 hands them back pinned instead.
//   - Ring buffers (Strategy, strategy.go) serve VACUUM and ANALYZE (and
//     the index passes of VACUUM) and sequential scans of tables larger
//     than a quarter of the pool (BAS_BULKREAD, which gives up a dirty
//     frame whose WAL is not durable); COPY (BAS_BULKWRITE) does not use
//     one yet. A bulk read's miss reads up to 16 consecutive blocks (128
//     kB, at most half the ring) with one pread, stopping at the first
//     block already in the pool and at the end of the file (loadRun);
//     PostgreSQL 15 reads one block per call (17's streaming reads
//     combine them the same way). Each block so read is counted as a read
//     when it is first asked for, as it would have been.
//   - Sync fsyncs every open file; a checkpointer would rather keep a list
//     of files written since the last one (PostgreSQL's pending-ops table).
package buffer

// Package txn owns transaction ids, the commit log, snapshots, waits for
// other transactions and the relation lock table.
//
// # Transaction ids
//
// Xids are 32-bit and assigned in increasing order starting at 3
// (FirstNormalTransactionId); 1 (bootstrap) and 2 (frozen) are always
// committed and 0 is invalid. A transaction gets an xid lazily, on its first
// write or row lock (Txn.Xid); read-only transactions never get one, as in
// PostgreSQL. minipg does not freeze tuples, so instead of wrapping around it
// refuses new xids (54000) near the end of the space.
//
// # Commit log
//
// Two bits per xid in growable in-memory pages, with PostgreSQL's pg_xact
// values: 00 not recorded, 01 committed, 10 aborted. Status answers
// heap.Oracle:
//
//   - committed or aborted as recorded;
//   - in progress exactly while the transaction is in the running set;
//   - otherwise aborted: an xid that is neither recorded nor running was
//     running when the server stopped or crashed.
//
// Ending a transaction records its status and removes it from the running set
// under one lock, so no snapshot or Status call can see it finished in one
// and running in the other (PostgreSQL's order: clog, then ProcArray).
//
// # Durability
//
// Save writes the log and the next xid to <dir>/pg_xact atomically (at a
// checkpoint and at clean shutdown); Open loads it. Commits after the last
// Save are made durable by the WAL: Commit calls the commit hook ("write the
// commit record and flush", group-committed by the WAL) before it updates the
// log, and replay calls RecoverCommitted/RecoverAborted/AdvanceNextXid
// before the first Begin. Save waits for commits between their record and
// their log update, so a checkpoint that fixes its redo point first and then
// calls Save cannot miss a commit whose record lies before the redo point.
// Independently of the WAL, <dir>/pg_xact_limit reserves xids in batches of
// 8192 before they are handed out, so an xid is never reused after a crash.
//
// # Write-ahead log
//
// XactLog (xactlog.go) is the transaction manager's side of storage/wal, as
// PostgreSQL's xact.c and the startup process's redo loop are: it writes the
// commit and abort records through the Manager's hooks, keeps the next xid in
// every checkpoint record, and at start-up drives recovery: it registers the
// redo functions of every resource manager, replays the log into the buffer
// pool and rebuilds the commit log from what replay saw.
//
//	           executor
//	          /        \
//	         v          v
//	txn.Manager <-hooks-- txn.XactLog
//	     |                |   |   |
//	     v                |   |   v
//	storage/heap <--------+   |  storage/buffer   heap.RedoFuncs; pool FlushAll, Sync
//	     |                    v      ^
//	     +-------------> storage/wal-+            RmgrXact records, Recover, Checkpoint
//
// The Manager implements heap.Oracle and heap.Horizon for the heap; XactLog
// takes the heap's redo functions and the pool it replays into. Arrows are
// imports; storage never imports txn, and txn never imports the executor.
//
// An RmgrXact record (xl_xact_commit / xl_xact_abort without relations to
// drop or invalidations) carries its xid in the record header and this
// main data, little-endian:
//
//	0                    8         12           16
//	+--------------------+---------+------------+------------------+
//	| xact_time          | xinfo   | nsubxacts  | subxacts         |
//	| i64, µs since      | u32     | u32        | u32 each         |
//	| 2000-01-01 UTC     | 0x02    |            |                  |
//	+--------------------+---------+------------+------------------+
//	                     only with info | 0x80 (XLOG_XACT_HAS_INFO):
//	                     the transaction had subtransactions
//
// info is 0x00 XLOG_XACT_COMMIT or 0x20 XLOG_XACT_ABORT; xinfo 0x02 is
// XACT_XINFO_HAS_SUBXACTS. xact_time is a TimestampTz, as PostgreSQL's; the
// description (pg_walinspect) is that time as timestamptz_to_str prints it
// in UTC, then "; subxacts:" and their xids.
//
// A checkpoint record's Extra is the next xid (u32, little-endian).
//
// A commit waits for its record's flush unless SetAsyncCommit marked the xid
// (synchronous_commit = off); then every data page write flushes the WAL past
// the newest asynchronous commit record, since a page may carry hint bits
// saying that transaction committed. Recovery: a commit record marks its xid
// committed, an abort record aborted, every other xid seen in a heap record
// is aborted (it was running at the crash), and the next xid moves past all
// of them and past the one the last checkpoint kept.
//
// # Snapshots and command ids
//
// READ COMMITTED: one snapshot per statement (Txn.Snapshot): xmax = next
// xid, xip = running xids other than our own, xmin = oldest running xid.
// Command ids follow CommandCounterIncrement: writes take UseCommandID, and
// NextCommand after each statement advances the id only if the statement
// wrote, so a statement sees the rows of the statements before it and not its
// own. A transaction advertises the xmin of its oldest snapshot (until
// ResetXmin or its end) so that OldestXmin, the VACUUM horizon, never lets
// VACUUM remove a tuple a running statement may still need.
//
// # Subtransactions
//
// Txn.BeginSub opens a subtransaction (a savepoint), which gets its own xid
// on its first write, after its top level and every enclosing one got
// theirs (AssignTransactionId's order). Its xid is running for everyone
// else until its top level ends, and its own transaction counts it as its
// own (Txn.Own, which every snapshot of the transaction reads:
// TransactionIdIsCurrentTransactionId). ReleaseSub passes it to the
// enclosing level. RollbackSub writes an abort record for it and those
// released into it, records them aborted and takes them out of the own set,
// at once: their rows are dead and their row locks free while the top level
// goes on. Commit records the top level and every subtransaction left
// committed under one lock, after one commit record that lists them; Abort
// likewise. Recovery marks the listed subtransactions as the record says.
// Manager.mu.parent maps a running subtransaction to its top level, so
// that the deadlock check, which links top levels, sees through a wait for
// a subtransaction.
//
// # Waiting
//
// Each running xid has a channel closed when it ends. Manager.Wait waits on
// it (ctx cancellation returns ctx.Err()); Txn.WaitFor also records the
// wait-for edge and fails with 40P01 when waiting would close a cycle.
// A transaction making a speculative insertion (INSERT ... ON CONFLICT)
// holds a speculative insertion lock under a token for the time it takes
// to decide it (speculative.go); Txn.WaitForSpeculative waits for that lock
// alone, and counts in the deadlock check as a wait for its transaction.
//
// # Locking
//
// Manager.mu (RWMutex) guards the log, the next xid, the running and open
// transaction sets, the commit-in-progress set and the wait-for graph. It is
// held for short in-memory work only, plus one small fsynced file write every
// 8192 xids; the commit/abort hooks, Save's file write and every wait happen
// without it. Status and Snapshot take it shared. saveMu serializes Save and
// is taken before mu. The relation lock table has its own mutex, never held
// with mu. A Txn is used by one goroutine at a time.
//
// # Relation locks
//
// LockRelation is a shared/exclusive lock per relation OID with writer
// preference, held shared by DML and exclusively by DDL for a statement, and
// cancellable through ctx. TryLockRelationYielding is the shared lock of an
// autovacuum worker: never waited for, and its holder is asked to give way
// (a callback) as soon as an exclusive request has to wait.
package txn

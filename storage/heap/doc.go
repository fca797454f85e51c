// Package heap is the heap access method: PostgreSQL 15's heap pages and
// tuples (byte for byte) and the operations on them.
//
// It owns the tuple format (tuple.go), the insert path that asks an
// fsm.Policy where a tuple goes (hio.go, RelationGetBufferForTuple),
// visibility (visibility.go, HeapTupleSatisfiesMVCC / Update / Dirty / Vacuum),
// fetch and sequential scan (fetch.go), update, delete and FOR UPDATE row
// locks with PostgreSQL's TM_Result protocol (modify.go), HOT chains and
// index fetches through them (hot.go), opportunistic page pruning (prune.go), VACUUM (vacuum.go) and the consistency checker
// (check.go). README.md describes the design, the locking rules and what is
// a hint.
//
// Invariants:
//   - pd_lower <= pd_upper <= pd_special = BLCKSZ; line pointers point
//     inside [pd_upper, pd_special), MAXALIGNed, without overlap.
//   - A TID never changes while its version exists; it becomes reusable
//     only after Vacuum reported it to the caller's dropIndexEntries.
//   - t_ctid of a version is itself, or the next version after UPDATE.
//   - A HEAP_HOT_UPDATED version's t_ctid is on its page and names a
//     HEAP_ONLY_TUPLE version; an LP_REDIRECT names a heap-only tuple on its
//     page; index entries point at chain roots, never at heap-only tuples.
//   - Pages are modified only under the exclusive content lock, and every
//     modification ends in logChange, which WAL-logs it and sets pd_lsn.
//
// Locking: pin before lock; at most two content locks, in block order; no
// content lock while a Policy runs (it may take the extension lock).
// Readers copy tuples out, so pages are never read without a lock.
//
// Concurrency contract with the executor: Update/Delete/Lock never wait.
// TMBeingModified means "wait for FailureData.Xmax and call again";
// TMUpdated means "the row has a newer committed version at
// FailureData.Ctid" (READ COMMITTED: FetchAny it, check its t_xmin equals
// FailureData.Xmax, recheck the qualification, retry there).
package heap

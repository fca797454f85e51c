package executor

import (
	"context"
	"time"

	"minipg/storage/heap"
)

// How VACUUM waits for the exclusive lock it needs to truncate
// (VACUUM_TRUNCATE_LOCK_WAIT_INTERVAL and VACUUM_TRUNCATE_LOCK_TIMEOUT;
// a variable for tests).
const truncateLockInterval = 50 * time.Millisecond

var truncateLockTimeout = 5 * time.Second

// truncateEmptyTail is VACUUM's last step on a table (lazy_truncate_heap):
// when enough empty pages end it (heap.ShouldTruncate), take the table
// exclusively, never queueing behind or ahead of anyone (a waiting
// exclusive request would stall every statement on the table), retrying
// for up to 5 seconds as PostgreSQL does and otherwise leaving the pages,
// then cut them off. Holding the lock, no statement can use the table, and
// heap.TruncateEmptyTail checks the pages again.
func (e *Engine) truncateEmptyTail(ctx context.Context, oid uint32) error {
	r, err := e.rel(oid)
	if err != nil {
		return nil // dropped meanwhile
	}
	keep, nblocks, err := r.heap.NonEmptyBlocks()
	if err != nil || !heap.ShouldTruncate(keep, nblocks) {
		return err
	}
	deadline := time.Now().Add(truncateLockTimeout)
	for {
		release, ok := e.txns.TryLockRelationExclusive(oid)
		if ok {
			defer release()
			break
		}
		if time.Now().After(deadline) {
			e.log.Debug("VACUUM did not truncate: the table stayed in use", "oid", oid)
			return nil
		}
		select {
		case <-ctx.Done():
			return mapCtxErr(ctx, ctx.Err())
		case <-time.After(truncateLockInterval):
		}
	}
	if r, err = e.rel(oid); err != nil {
		return nil
	}
	_, err = r.heap.TruncateEmptyTail()
	return err
}

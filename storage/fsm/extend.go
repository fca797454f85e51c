package fsm

import (
	"minipg/storage/buffer"
	"minipg/storage/page"
)

// maxExtendBy is PostgreSQL 16's MAX_BUFFERS_TO_EXTEND_BY.
const maxExtendBy = 64

// extend is the relation extension shared by the policies (PostgreSQL 16's
// RelationAddBlocks, plus the FSM recheck of 9.6-15's
// RelationGetBufferForTuple):
//
//  1. Take the relation's extension lock. If it was busy, another session
//     has probably just extended and published pages: search the FSM again
//     and, if it has a page, release the lock and return that page.
//  2. Extend by NumPages, times (1 + the number of sessions now waiting for
//     the lock), at most 64 pages, in one write of zero pages.
//  3. Record every page but the first as empty (BLCKSZ - page header) in the
//     FSM and bring the upper levels up to date, so that the waiters find
//     them, then release the lock.
//  4. Return the first page, which is not in the FSM: it is the caller's.
//
// PostgreSQL 16 updates the FSM after releasing the lock and does not
// recheck; doing both under the lock is what lets waiters use the pages
// instead of extending again.
func extend(m *Map, r Request, c *counters) (uint32, error) {
	need := r.TargetFreeSpace()
	l := m.pool.ExtensionLock(m.rel)
	if !l.TryLock() {
		l.Lock()
		if blk := m.GetPageWithFreeSpace(need); blk != InvalidBlock {
			l.Unlock()
			c.extendRechecks.Add(1)
			c.fsmAnswers.Add(1)
			return blk, nil
		}
	}
	defer l.Unlock()

	by := extendBy(r, l.Waiters())
	first, err := m.pool.Extend(m.rel, buffer.MainFork, by)
	if err != nil {
		return InvalidBlock, err
	}
	c.noteExtension(by)
	if by > 1 {
		last := first + uint32(by) - 1
		// The FSM is a hint: if it cannot take the pages they are still
		// ours (the first is returned) or found by a later VACUUM.
		if err := m.recordRange(first+1, last, EmptyPageFree); err == nil {
			_ = m.Vacuum(first+1, last+1)
		}
	}
	return first, nil
}

// extendBy is RelationAddBlocks' extend_by_pages without a BulkInsertState:
// the pages the caller needs, times one plus the sessions waiting for the
// extension lock, at most MAX_BUFFERS_TO_EXTEND_BY.
func extendBy(r Request, waiters int) int {
	n := r.numPages()
	return min(n+n*waiters, maxExtendBy)
}

// emptyPageFree documents that EmptyPageFree is BLCKSZ - SizeOfPageHeaderData.
var _ [EmptyPageFree - (page.BlockSize - page.HeaderSize)]struct{}

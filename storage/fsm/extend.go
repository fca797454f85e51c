package fsm

import (
	"minipg/storage/buffer"
	"minipg/storage/page"
)

// maxExtendBy is PostgreSQL 16's MAX_BUFFERS_TO_EXTEND_BY.
const maxExtendBy = 64

// extension is what a policy adds to the shared extension routine.
type extension struct {
	// recheck, called under the extension lock by a session that had to
	// wait for it, returns a block to use instead of extending (one that
	// the session that held the lock has just added), or InvalidBlock.
	// nblocks is the relation's size when the session began to wait.
	recheck func(nblocks uint32) uint32
	// size is how many pages to add, given the sessions now waiting for
	// the lock and the relation's size.
	size func(waiters int, nblocks uint32) int
	// placed is called under the lock with the new pages first ..
	// first+by-1 and returns the caller's: the first, unless the policy
	// gives that one to another session (locality lends it to a loader
	// filling the block before). The policy makes the others findable
	// (publishes them in the map, or keeps them) before the lock is
	// released.
	placed func(first uint32, by int) uint32
}

// extendRelation is the relation extension every policy uses (PostgreSQL
// 16's RelationAddBlocks, plus the recheck of 9.6-15's
// RelationGetBufferForTuple):
//
//  1. Take the relation's extension lock. If it was busy, another session
//     has probably just extended and made pages findable: recheck and, if
//     that gives a block, release the lock and return it.
//  2. Extend by size(waiters) pages in one write of zero pages.
//  3. placed: the policy makes every page but the first findable (classic
//     records them as empty in the FSM, upper levels included), so that
//     the waiters find them, then the lock is released.
//  4. Return the caller's page: the first, as placed says.
//
// PostgreSQL 16 updates the FSM after releasing the lock and does not
// recheck; doing both under the lock is what lets waiters use the pages
// instead of extending again.
func extendRelation(m *Map, r Request, c *counters, x extension) (uint32, error) {
	l := m.pool.ExtensionLock(m.rel)
	if !l.TryLock() {
		before, _ := m.pool.NBlocks(m.rel, buffer.MainFork)
		l.Lock()
		if blk := x.recheck(before); blk != InvalidBlock {
			l.Unlock()
			c.extendRechecks.Add(1)
			return blk, nil
		}
	}
	defer l.Unlock()

	nblocks, err := m.pool.NBlocks(m.rel, buffer.MainFork)
	if err != nil {
		return InvalidBlock, err
	}
	by := max(1, x.size(l.Waiters(), nblocks))
	first, err := m.pool.Extend(m.rel, buffer.MainFork, by)
	if err != nil {
		return InvalidBlock, err
	}
	c.noteExtension(by)
	return x.placed(first, by), nil
}

// extend is classic's extension: the recheck searches the FSM, the size
// is PostgreSQL 16's, and the pages beyond the caller's are recorded as
// empty in the FSM.
func extend(m *Map, r Request, c *counters) (uint32, error) {
	return extendRelation(m, r, c, extension{
		recheck: func(uint32) uint32 {
			blk := m.GetPageWithFreeSpace(r.TargetFreeSpace())
			if blk != InvalidBlock {
				c.fsmAnswers.Add(1)
			}
			return blk
		},
		size: func(waiters int, _ uint32) int { return extendBy(r, waiters) },
		placed: func(first uint32, by int) uint32 {
			publishEmpty(m, first+1, first+uint32(by))
			return first
		},
	})
}

// publishEmpty records pages lo .. hi-1 as empty in the FSM and brings the
// upper levels up to date. The FSM is a hint: if it cannot take the pages
// they are found by a later VACUUM.
func publishEmpty(m *Map, lo, hi uint32) {
	if lo >= hi {
		return
	}
	if err := m.recordRange(lo, hi-1, EmptyPageFree); err == nil {
		_ = m.Vacuum(lo, hi)
	}
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

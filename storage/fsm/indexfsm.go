package fsm

// The map of an index (PostgreSQL's indexfsm.c). An index has no free space
// to speak of on its pages: its map records whole pages only, a page being
// either free (a deleted page no transaction can reach any more, recorded
// as all free: category 255, which pg_freespace shows as 8160) or in use
// (category 0). The index's VACUUM records the free pages and brings the
// upper levels up to date; a page split takes a free page from the map
// before extending the index. The same rules as for a heap hold: nothing is
// WAL-logged, and a page the map hands out may no longer be free (a stale
// entry, after a crash or a race with VACUUM): the index locks it and
// checks it before using it.

import "minipg/storage/page"

// freeIndexPageSpace is what a free index page is recorded with
// (BLCKSZ - 1: category 255), usedIndexPageSpace what a used one is.
const (
	freeIndexPageSpace = page.BlockSize - 1
	usedIndexPageSpace = 0
)

// GetFreeIndexPage returns a page of the index that the map records as
// free, and records it as used first, so that no other caller is given it
// (GetFreeIndexPage); InvalidBlock when the map knows none, or when the
// page could not be recorded as used (the error is kept in Err): the caller
// then extends the index. The page may not be free any more: lock it
// (without waiting, since it may be a page the caller holds itself) and
// check it before use; one that is not free is simply left, its entry
// being gone already.
func (m *Map) GetFreeIndexPage() uint32 {
	blk := m.GetPageWithFreeSpace(page.BlockSize / 2)
	if blk == InvalidBlock {
		return InvalidBlock
	}
	if err := m.RecordUsedIndexPage(blk); err != nil {
		return InvalidBlock
	}
	return blk
}

// RecordFreeIndexPage records index page blk as free (RecordFreeIndexPage).
// Only its bottom-level FSM page changes: call IndexFreeSpaceMapVacuum
// after recording pages that searches must find.
func (m *Map) RecordFreeIndexPage(blk uint32) error {
	return m.RecordPageWithFreeSpace(blk, freeIndexPageSpace)
}

// RecordUsedIndexPage records index page blk as used (RecordUsedIndexPage).
func (m *Map) RecordUsedIndexPage(blk uint32) error {
	return m.RecordPageWithFreeSpace(blk, usedIndexPageSpace)
}

// IndexFreeSpaceMapVacuum brings the whole map's upper levels up to date
// (IndexFreeSpaceMapVacuum), so that a search finds every free page
// recorded.
func (m *Map) IndexFreeSpaceMapVacuum() error { return m.VacuumAll() }

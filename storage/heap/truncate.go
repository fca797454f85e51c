package heap

// Truncation of empty pages at the end of a relation after VACUUM, after
// PostgreSQL 15's lazy_truncate_heap, count_nondeletable_pages and
// RelationTruncate.

import (
	"minipg/storage/buffer"
	"minipg/storage/page"
)

// PostgreSQL's thresholds for attempting a truncation
// (should_attempt_truncation): at least 1000 empty pages at the end, or at
// least 1/16 of the relation.
const (
	relTruncateMinimum  = 1000
	relTruncateFraction = 16
)

// ShouldTruncate reports whether a relation of nblocks blocks whose last
// non-empty block is keep-1 has enough empty pages at its end to be worth
// truncating (should_attempt_truncation).
func ShouldTruncate(keep, nblocks uint32) bool {
	free := nblocks - keep
	return keep < nblocks && (free >= relTruncateMinimum || free >= nblocks/relTruncateFraction)
}

// NonEmptyBlocks returns how many blocks the relation must keep, the
// blocks up to its last page holding any used line pointer
// (count_nondeletable_pages), and its current size. Pages are checked from
// the end, under a share lock each; the answer can be stale as soon as it
// is returned unless the caller keeps writers away.
func (r *Relation) NonEmptyBlocks() (keep, nblocks uint32, err error) {
	nblocks, err = r.NBlocks()
	if err != nil {
		return 0, 0, err
	}
	for blk := nblocks; blk > 0; blk-- {
		empty, err := r.pageIsEmpty(blk - 1)
		if err != nil {
			return 0, 0, err
		}
		if !empty {
			return blk, nblocks, nil
		}
	}
	return 0, nblocks, nil
}

// pageIsEmpty reports whether block blk is new or has no used line pointer
// (LP_NORMAL, LP_REDIRECT or LP_DEAD): nothing on it can be referenced.
func (r *Relation) pageIsEmpty(blk uint32) (bool, error) {
	buf, err := r.pool.ReadBuffer(r.rel, buffer.MainFork, blk)
	if err != nil {
		return false, err
	}
	defer buf.Release()
	buf.RLock()
	defer buf.RUnlock()
	p := buf.Page()
	if page.IsNew(p) {
		return true, nil
	}
	for off := uint16(1); off <= page.MaxOffset(p); off++ {
		if _, flags, _ := page.ItemID(p, off); flags != page.LPUnused {
			return false, nil
		}
	}
	return true, nil
}

// TruncateEmptyTail cuts off the empty pages at the end of the relation
// and returns how many blocks it removed. The caller must hold the
// relation exclusively (PostgreSQL's AccessExclusiveLock): no insert,
// update, scan or fetch of it may run, so the emptiness checked here
// cannot change before the cut and no TID on the removed pages can be
// referenced (VACUUM removed the index entries of every row version that
// was there). The cut is logged and the log flushed before the file
// shrinks, so that replay never resurrects the pages; the free space map
// forgets them first, as RelationTruncate does.
func (r *Relation) TruncateEmptyTail() (removed uint32, err error) {
	keep, nblocks, err := r.NonEmptyBlocks()
	if err != nil || keep >= nblocks {
		return 0, err
	}
	if err := r.fsm.Truncate(keep); err != nil {
		return 0, err
	}
	if r.wal != nil {
		lsn, err := r.wal.LogTruncate(r.rel, buffer.MainFork, keep)
		if err == nil {
			err = r.wal.Flush(lsn)
		}
		if err != nil {
			return 0, err
		}
	}
	if err := r.pool.TruncateRel(r.rel, buffer.MainFork, keep); err != nil {
		return 0, err
	}
	// The cut pages were empty, and VACUUM marks no empty page
	// all-visible, so their bits are clear already; clearing them is cheap
	// insurance that a page the table grows back into starts clear.
	if err := vmTruncate(r.pool, r.rel, keep); err != nil {
		return 0, err
	}
	return nblocks - keep, nil
}

package heap

import (
	"sync/atomic"

	"minipg/storage/page"
)

// Where new row versions land, for judging a free-space policy over a long
// run: the pages that existed when the run began (the mark) are where
// PostgreSQL's free space map sends inserts after VACUUM has reported
// their freed space, scattering related rows; a page already changed since
// the last checkpoint's redo point costs no full-page image to change
// again, a page not changed since does.

// PlacementStats counts the placements of new row versions (inserts,
// multi-insert batches' pages, and update versions that left their page)
// since the last MarkRunStart (or Open).
type PlacementStats struct {
	Placements int64 // pages chosen for a new version or a batch of them
	// Updates counts the placements of update versions that left their
	// page (the rest are inserts), UpdatesPreRun those on pre-run pages.
	Updates, UpdatesPreRun int64
	// FreshPages: the page was new (extended and never used).
	FreshPages int64
	// PreRunPages: the page existed at the mark (block < MarkBlocks).
	PreRunPages int64
	// LoggedPages: the page had been changed since the current redo point
	// (its pd_lsn is past it), so this change needs no full-page image.
	// Counted only when the relation has a WAL.
	LoggedPages int64
	// MarkBlocks is the relation's size at the mark (0: never marked).
	MarkBlocks uint32
}

type placementCounters struct {
	placements, fresh, preRun, logged atomic.Int64
	updates, updatesPreRun            atomic.Int64
	// mark is the relation's size at MarkRunStart, + 1 (0: never marked).
	mark atomic.Uint32
}

// notePlacement counts a placement on blk, whose page p is exclusively
// locked; wasNew says the page was new before the insert path initialized
// it, update that the placement is of an update's new version.
func (r *Relation) notePlacement(blk uint32, p page.Page, wasNew, update bool) {
	c := &r.place
	c.placements.Add(1)
	if update {
		c.updates.Add(1)
	}
	if wasNew {
		c.fresh.Add(1)
	}
	if m := c.mark.Load(); m > 0 && blk < m-1 {
		c.preRun.Add(1)
		if update {
			c.updatesPreRun.Add(1)
		}
	}
	if r.wal != nil && !wasNew && !r.wal.NeedsFPI(page.LSN(p)) {
		c.logged.Add(1)
	}
}

// MarkRunStart zeroes the placement counters and remembers the relation's
// present size: pages below it count as pre-run pages from now on.
func (r *Relation) MarkRunStart() error {
	n, err := r.NBlocks()
	if err != nil {
		return err
	}
	c := &r.place
	c.placements.Store(0)
	c.fresh.Store(0)
	c.preRun.Store(0)
	c.logged.Store(0)
	c.updates.Store(0)
	c.updatesPreRun.Store(0)
	c.mark.Store(n + 1)
	return nil
}

// PlacementStats returns the placement counters.
func (r *Relation) PlacementStats() PlacementStats {
	c := &r.place
	s := PlacementStats{Placements: c.placements.Load(), FreshPages: c.fresh.Load(),
		PreRunPages: c.preRun.Load(), LoggedPages: c.logged.Load(),
		Updates: c.updates.Load(), UpdatesPreRun: c.updatesPreRun.Load()}
	if m := c.mark.Load(); m > 0 {
		s.MarkBlocks = m - 1
	}
	return s
}

package heap

// Fetch by TID and sequential scans (heap_fetch, heapgetpage).

import (
	"fmt"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// Fetch returns a copy of the tuple at tid if it is visible to snap. ok is
// false when tid names no tuple (past the end of the relation, an unused or
// dead line pointer) or an invisible one. Like PostgreSQL's index fetch it
// may prune the page first (see Horizon).
func (r *Relation) Fetch(snap *Snapshot, tid page.TID) (tup []byte, ok bool, err error) {
	if snap == nil || snap.Oracle == nil {
		return nil, false, ErrNoOracle
	}
	return r.fetch(snap, tid)
}

// FetchAny returns a copy of the tuple at tid without any visibility check,
// for following update chains (the caller compares the tuple's t_xmin with
// the t_xmax of the version it came from, since a line pointer can be
// reused once VACUUM has removed the version it held).
func (r *Relation) FetchAny(tid page.TID) (tup []byte, ok bool, err error) {
	return r.fetch(nil, tid)
}

func (r *Relation) fetch(snap *Snapshot, tid page.TID) ([]byte, bool, error) {
	u := snap.usage()
	buf, err := r.readBlockIfExists(tid.Block, u)
	if err != nil || buf == nil {
		return nil, false, err
	}
	defer buf.Release()
	buf.RLock()
	if snap != nil {
		r.maybePrune(buf, snap.Oracle, u)
	}
	p := buf.Page()
	t, err := normalItem(p, tid.Block, tid.Offset)
	if err != nil || t == nil {
		buf.RUnlock()
		return nil, false, err
	}
	visible, hints := true, uint16(0)
	if snap != nil {
		visible, hints = satisfiesMVCC(t, snap)
	}
	var out []byte
	if visible {
		out = append([]byte(nil), t...)
	}
	var q hintQueue
	q.add(tid.Offset, t, hints)
	buf.RUnlock()
	if len(q) > 0 {
		r.applyQueuedHints(buf, q, u)
	}
	return out, visible, nil
}

// readBlockIfExists pins blk, or returns nil if it is past the end. The
// access is counted in u (nil: not counted).
func (r *Relation) readBlockIfExists(blk uint32, u *buffer.Usage) (*buffer.Buffer, error) {
	n, err := r.NBlocks()
	if err != nil {
		return nil, err
	}
	if blk >= n {
		return nil, nil
	}
	return r.pool.ReadBufferUsage(r.rel, buffer.MainFork, blk, u)
}

// normalItem returns the tuple at off on the locked page p, nil if off is
// out of range or its line pointer is not LP_NORMAL, and a corruption error
// if the line pointer points outside the tuple area.
func normalItem(p page.Page, blk uint32, off uint16) ([]byte, error) {
	if off == 0 || off > page.MaxOffset(p) {
		return nil, nil
	}
	lpOff, flags, lpLen := page.ItemID(p, off)
	if flags != page.LPNormal {
		return nil, nil
	}
	if lpLen < TupleHeaderSize || lpOff < page.Upper(p) || lpOff+lpLen > page.Special(p) {
		return nil, errCorruptTID(page.TID{Block: blk, Offset: off},
			"line pointer (off %d, len %d) outside the tuple area [%d,%d)", lpOff, lpLen, page.Upper(p), page.Special(p))
	}
	return page.Item(p, off), nil
}

// applyQueuedHints sets hint bits found under a share lock (see hintQueue).
// The caller holds a pin but no lock. A page it dirties is counted in u.
func (r *Relation) applyQueuedHints(buf *buffer.Buffer, q hintQueue, u *buffer.Usage) {
	buf.Lock()
	p := buf.Page()
	changed := false
	for _, h := range q {
		t, err := normalItem(p, buf.Block(), h.off)
		if err != nil || t == nil || Xmin(t) != h.xmin {
			continue
		}
		hints := h.hints
		if Xmax(t) != h.xmax {
			hints &^= HeapXmaxCommitted | HeapXmaxInvalid
		}
		if applyHints(t, hints) {
			changed = true
		}
	}
	if changed {
		buf.MarkDirtyUsage(u) // MarkBufferDirtyHint: not WAL-logged
		r.stats.hintDirty.Add(1)
	}
	buf.Unlock()
}

// Scan is a sequential scan over the blocks that existed when it started.
// It works a page at a time: it share-locks the page, copies the visible
// tuples, and releases the page, so no lock or pin is held while the caller
// works on the rows. A Scan is used by one goroutine.
type Scan struct {
	r       *Relation
	snap    *Snapshot
	nblocks uint32
	started bool
	next    uint32 // next block to read
	tids    []page.TID
	roots   []uint16 // hotRoots of the current page when it has heap-only tuples, else nil
	tups    [][]byte
	pos     int
	err     error
	closed  bool
	// noData: Next returns nil tuples (SkipTupleData).
	noData bool
	// trackRoots: readPage finds the HOT chains' roots (TrackRootTIDs).
	trackRoots bool
	// strategy is the ring a scan of a table larger than a quarter of
	// shared buffers reads through (BAS_BULKREAD, as initscan sets it).
	strategy *buffer.Strategy
}

// NewScan starts a sequential scan with snap (which must carry an Oracle).
func (r *Relation) NewScan(snap *Snapshot) *Scan {
	return &Scan{r: r, snap: snap}
}

// SkipTupleData makes Next return a nil tuple with each visible TID, for a
// caller that reads no column (count(*)): the scan then copies nothing out
// of the page. Call it before the first Next.
func (s *Scan) SkipTupleData() { s.noData = true }

// TrackRootTIDs makes RootTID valid after each Next, for index builds and
// checks: the scan then finds the HOT chains' roots on every page that has
// a heap-only tuple. Call it before the first Next.
func (s *Scan) TrackRootTIDs() { s.trackRoots = true }

// Next returns the next visible tuple: its TID and a copy the caller owns
// (nil after SkipTupleData).
// ok is false at the end of the scan or on error.
func (s *Scan) Next() (tid page.TID, tup []byte, ok bool, err error) {
	if s.closed || s.err != nil {
		return page.TID{}, nil, false, s.err
	}
	if !s.started {
		s.started = true
		if s.snap == nil || s.snap.Oracle == nil {
			s.err = ErrNoOracle
			return page.TID{}, nil, false, s.err
		}
		if s.nblocks, s.err = s.r.NBlocks(); s.err != nil {
			return page.TID{}, nil, false, s.err
		}
		if int(s.nblocks) > s.r.pool.NBuffers()/4 {
			s.strategy = s.r.pool.NewBulkReadStrategy(buffer.RingBlocks)
		}
	}
	for s.pos >= len(s.tids) {
		if s.next >= s.nblocks {
			return page.TID{}, nil, false, nil
		}
		blk := s.next
		s.next++
		if s.err = s.readPage(blk); s.err != nil {
			return page.TID{}, nil, false, s.err
		}
	}
	i := s.pos
	s.pos++
	if s.noData {
		return s.tids[i], nil, true, nil
	}
	return s.tids[i], s.tups[i], true, nil
}

// RootTID is the TID an index entry for the tuple last returned by Next
// must hold: the root line pointer of its HOT chain (heap_get_root_tuples),
// which is the tuple's own TID unless it is heap-only. Index builds use it,
// after TrackRootTIDs.
func (s *Scan) RootTID() page.TID {
	if !s.trackRoots {
		panic("heap: RootTID on a scan without TrackRootTIDs")
	}
	if s.pos == 0 || s.pos > len(s.tids) {
		return page.TID{}
	}
	tid := s.tids[s.pos-1]
	if int(tid.Offset) < len(s.roots) && s.roots[tid.Offset] != 0 {
		tid.Offset = s.roots[tid.Offset]
	}
	return tid
}

// Close ends the scan.
func (s *Scan) Close() {
	s.closed = true
	s.tids, s.tups = nil, nil
}

// readPage is heapgetpage: prune if worthwhile, then collect the visible
// tuples of blk under a share lock.
func (s *Scan) readPage(blk uint32) error {
	s.tids, s.tups, s.pos, s.roots = s.tids[:0], s.tups[:0], 0, nil
	u := s.snap.usage()
	buf, err := s.r.pool.ReadBufferUsageStrategy(s.r.rel, buffer.MainFork, blk, s.strategy, u)
	if err != nil {
		return err
	}
	defer buf.Release()
	buf.RLock()
	s.r.maybePrune(buf, s.snap.Oracle, u)
	p := buf.Page()
	if page.IsNew(p) {
		buf.RUnlock()
		return nil
	}
	maxoff := page.MaxOffset(p)
	// A page VACUUM marked all-visible holds only tuples every snapshot
	// sees (their inserters committed before the oldest xmin of any
	// snapshot then held, and any change since would have cleared the flag
	// under the exclusive lock this share lock excludes): as heapgetpage
	// does, take them all without testing each.
	allVisible := page.Flags(p)&page.PDAllVisible != 0
	// One allocation per page holds all copied tuples; the slices handed
	// out stay valid after the scan moves on.
	var arena []byte
	if !s.noData {
		arena = make([]byte, 0, max(0, page.Special(p)-page.Upper(p)))
	}
	var q hintQueue
	for off := uint16(1); off <= maxoff; off++ {
		t, err := normalItem(p, blk, off)
		if err != nil {
			buf.RUnlock()
			return err
		}
		if t == nil {
			continue
		}
		if allVisible {
			if invariants {
				if visible, _ := satisfiesMVCC(t, s.snap); !visible {
					panic(fmt.Sprintf("heap: tuple (%d,%d) of an all-visible page is not visible to a scan's snapshot", blk, off))
				}
			}
		} else {
			visible, hints := satisfiesMVCC(t, s.snap)
			q.add(off, t, hints)
			if !visible {
				continue
			}
		}
		s.tids = append(s.tids, page.TID{Block: blk, Offset: off})
		if s.trackRoots && s.roots == nil && IsHeapOnly(t) {
			s.roots = hotRoots(p)
		}
		if s.noData {
			continue
		}
		start := len(arena)
		arena = append(arena, t...)
		s.tups = append(s.tups, arena[start:len(arena):len(arena)])
	}
	buf.RUnlock()
	if len(q) > 0 {
		s.r.applyQueuedHints(buf, q, u)
	}
	return nil
}

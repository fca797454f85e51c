package fsm

import (
	"errors"
	"sync"
	"sync/atomic"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// InvalidBlock is InvalidBlockNumber: "no page".
const InvalidBlock = page.InvalidBlock

// unknownBlocks marks the cached FSM fork size as unknown.
const unknownBlocks = page.InvalidBlock

// maxSearchRestarts is fsm_search's emergency valve against looping forever
// on badly out-of-date upper levels.
const maxSearchRestarts = 10000

// Map is one relation's free space map: its _fsm fork, read and written
// through the buffer pool. All methods are safe for concurrent use.
//
// Everything a Map returns is a hint. A block returned by a search may have
// too little space by the time the caller locks it (or may even be past the
// end of the relation if the relation was truncated without Truncate); the
// caller must check the page's real free space under its buffer lock, and
// report it with RecordAndGetPageWithFreeSpace when it is too small, so that
// the same answer is not given again.
//
// Open one Map per relation and share it between sessions (heap.Open does).
// Two Maps over the same relation stay correct, because all durable state is
// on the pages and the fork is extended to a size (buffer.Pool.ExtendTo),
// not by a count; each has its own next-slot hints.
//
// Errors: the search and record functions never fail, because a free space
// map that cannot be read is only a map that knows nothing. An error from the
// buffer pool (I/O, a corrupt FSM page, no unpinned buffers) makes a search
// return InvalidBlock (so the caller extends the relation) and a record do
// nothing; Err returns the last such error and Stats counts them. Functions
// used by VACUUM (RecordPageWithFreeSpace, Vacuum, Truncate) also return the
// error.
//
// Locking: searches take share content locks on FSM pages, one page at a
// time, and updates take the exclusive lock of one page at a time (a vacuum
// also keeps pins, not locks, on the pages above the one it is at).
// Extending the FSM fork takes only extendMu, never the relation's
// extension lock, so a Map may be used while the extension lock is held
// (extension records its new pages) and, though it is better avoided, under
// a heap buffer lock.
type Map struct {
	pool *buffer.Pool
	rel  buffer.RelFileNode

	// extendMu orders this Map's extensions of the FSM fork (fsm_extend)
	// and its truncations, so that an extension never stores in nblocks a
	// size a truncation has already cut (the pool's ExtendTo is what makes
	// racing extensions add a page once). It is
	// taken with no FSM content lock held, possibly while the caller holds
	// the relation's extension lock (extension records new heap pages), so
	// it always comes after buffer.ExtensionLock in the lock order.
	extendMu sync.Mutex
	// nblocks caches the FSM fork's size in blocks (smgr_cached_nblocks),
	// or unknownBlocks. It may lag behind the real size; readBuf refreshes
	// it before concluding that a page does not exist.
	nblocks atomic.Uint32
	// hints holds fp_next_slot for each FSM page (physical block ->
	// *atomic.Int32). PostgreSQL updates fp_next_slot on the page under a
	// share lock and accepts a garbled value now and then; here the live
	// value is kept in memory so that searches under a share lock never
	// write page bytes, and it is copied to the page whenever the page is
	// exclusively locked for another reason.
	hints sync.Map

	errs struct {
		sync.Mutex // protects last
		last       error
	}
	nerrs atomic.Int64
}

// OpenMap returns the free space map of relation rel. It does not touch the
// disk: the fork is created by the first record.
func OpenMap(pool *buffer.Pool, rel buffer.RelFileNode) *Map {
	m := &Map{pool: pool, rel: rel}
	m.nblocks.Store(unknownBlocks)
	return m
}

// Pool returns the buffer pool the map reads through.
func (m *Map) Pool() *buffer.Pool { return m.pool }

// Rel returns the relation whose free space the map records.
func (m *Map) Rel() buffer.RelFileNode { return m.rel }

// Err returns the last error a search or record swallowed, or nil.
func (m *Map) Err() error {
	m.errs.Lock()
	defer m.errs.Unlock()
	return m.errs.last
}

// Errors returns how many errors searches and records have swallowed.
func (m *Map) Errors() int64 { return m.nerrs.Load() }

func (m *Map) noteErr(err error) {
	m.nerrs.Add(1)
	m.errs.Lock()
	m.errs.last = err
	m.errs.Unlock()
}

// GetPageWithFreeSpace returns a heap block that the map believes has at
// least spaceNeeded bytes free, or InvalidBlock if it knows none (then
// extend the relation). The answer may be stale: lock the page, check, and
// if it has too little space call RecordAndGetPageWithFreeSpace with the
// real figure. A request above MaxRequestSize returns InvalidBlock.
//
// The search starts at each FSM page's next-slot hint, so concurrent
// callers are spread over different pages, and a bottom-level hit moves
// the hint one past the block returned.
func (m *Map) GetPageWithFreeSpace(spaceNeeded int) uint32 {
	cat, ok := NeededToCategory(spaceNeeded)
	if !ok {
		return InvalidBlock
	}
	return m.search(cat)
}

// RecordAndGetPageWithFreeSpace records that oldPage has oldSpaceAvail
// bytes free (the caller found it too full) and returns another block with
// at least spaceNeeded bytes, or InvalidBlock. It first searches the FSM page
// that holds oldPage, under the same exclusive lock, so that a nearby block
// is preferred, then the whole map. Same caveats as GetPageWithFreeSpace.
func (m *Map) RecordAndGetPageWithFreeSpace(oldPage uint32, oldSpaceAvail, spaceNeeded int) uint32 {
	oldCat := AvailToCategory(oldSpaceAvail)
	searchCat, ok := NeededToCategory(spaceNeeded)
	a, slot := location(oldPage)
	if !ok {
		searchCat = 0 // record only
	}
	s, err := m.setAndSearch(a, slot, oldCat, searchCat)
	if err != nil {
		m.noteErr(err)
	}
	if !ok {
		return InvalidBlock
	}
	if s >= 0 {
		return a.heapBlock(s)
	}
	return m.search(searchCat)
}

// RecordPageWithFreeSpace records that heap block blk has spaceAvail bytes
// free, creating or extending the FSM fork as needed. Only the bottom-level
// FSM page changes: the upper levels learn of an increase at the next Vacuum
// over the block (or never need to, for a decrease: a search that follows a
// stale upper entry repairs it). Use Vacuum after recording many pages that a
// search must find at once, as relation extension does.
func (m *Map) RecordPageWithFreeSpace(blk uint32, spaceAvail int) error {
	a, slot := location(blk)
	_, err := m.setAndSearch(a, slot, AvailToCategory(spaceAvail), 0)
	if err != nil {
		m.noteErr(err)
	}
	return err
}

// recordRange records avail for heap blocks first..last (inclusive),
// locking each bottom FSM page once. Upper levels are not updated.
func (m *Map) recordRange(first, last uint32, avail int) error {
	cat := AvailToCategory(avail)
	for blk := uint64(first); blk <= uint64(last); {
		a, slot := location(uint32(blk))
		buf, err := m.readBuf(a, true)
		if err != nil {
			m.noteErr(err)
			return err
		}
		buf.Lock()
		p := buf.Page()
		if page.IsNew(p) {
			page.Init(p, 0)
		}
		dirty := false
		for ; slot < SlotsPerPage && blk <= uint64(last); slot, blk = slot+1, blk+1 {
			if setAvail(p, slot, cat) {
				dirty = true
			}
		}
		if dirty {
			m.syncHintLocked(buf)
			buf.MarkDirty()
		}
		if invariants {
			assertPage(buf)
		}
		buf.Unlock()
		buf.Release()
	}
	return nil
}

// GetRecordedFreeSpace returns the free space recorded for heap block blk,
// as the lower bound of its category (what pg_freespace shows); 0 if the map
// knows nothing of it.
func (m *Map) GetRecordedFreeSpace(blk uint32) int {
	a, slot := location(blk)
	buf, err := m.readBuf(a, false)
	if err != nil {
		m.noteErr(err)
		return 0
	}
	if buf == nil {
		return 0
	}
	buf.RLock()
	cat := getAvail(buf.Page(), slot)
	buf.RUnlock()
	buf.Release()
	return CategoryToAvail(cat)
}

// Vacuum is FreeSpaceMapVacuumRange: bring the upper levels up to date for
// heap blocks start..end-1, so that every free page recorded there can be
// found by a search, and reset the next-slot hints of the pages visited to
// the start (which favours low blocks and so a later truncation). end may be
// InvalidBlock for "to the end".
func (m *Map) Vacuum(start, end uint32) error {
	if end <= start {
		return nil
	}
	_, _, err := m.vacuumPage(rootAddress, start, end)
	if err != nil {
		m.noteErr(err)
	}
	return err
}

// UpdateRange is Vacuum (the contract's other name for it).
func (m *Map) UpdateRange(start, end uint32) error { return m.Vacuum(start, end) }

// VacuumAll is FreeSpaceMapVacuum: Vacuum over the whole map.
func (m *Map) VacuumAll() error { return m.Vacuum(0, InvalidBlock) }

// Truncate forgets the free space of heap blocks nheapblocks and beyond, for
// a relation about to be truncated to nheapblocks blocks
// (FreeSpaceMapPrepareTruncateRel, the FSM fork's truncation, and the
// FreeSpaceMapVacuumRange that RelationTruncate does after it). It zeroes
// the tail of the last remaining bottom page, truncates the FSM fork after
// it, and fixes the upper levels. Call it before truncating the main fork,
// holding the relation exclusively (no concurrent insert may search the map).
func (m *Map) Truncate(nheapblocks uint32) error {
	a, slot := location(nheapblocks)
	var keep uint32
	if slot > 0 {
		buf, err := m.readBuf(a, false)
		if err != nil {
			return err
		}
		if buf == nil {
			return nil // the map is already smaller
		}
		buf.Lock()
		p := buf.Page()
		if !page.IsNew(p) && truncateAvail(p, slot) {
			m.syncHintLocked(buf)
			buf.MarkDirty()
		}
		buf.Unlock()
		buf.Release()
		keep = a.physical() + 1
	} else {
		keep = a.physical()
	}
	m.extendMu.Lock()
	n, err := m.pool.NBlocks(m.rel, buffer.FSMFork)
	if err == nil && n > keep {
		err = m.pool.TruncateRel(m.rel, buffer.FSMFork, keep)
	}
	m.nblocks.Store(unknownBlocks)
	m.hints.Range(func(k, _ any) bool {
		if k.(uint32) >= keep {
			m.hints.Delete(k)
		}
		return true
	})
	m.extendMu.Unlock()
	if err != nil {
		return err
	}
	// The truncated blocks were likely marked free in the upper levels and
	// would be preferred by searches: fix them now.
	return m.Vacuum(nheapblocks, InvalidBlock)
}

// readBuf is fsm_readbuf: pin the FSM page at logical address a. If the page
// does not exist it returns (nil, nil), or with extend extends the fork to
// hold it first. The page may be all zeroes (IsNew): readers treat it as an
// empty page, writers PageInit it under their exclusive lock.
func (m *Map) readBuf(a address, extend bool) (*buffer.Buffer, error) {
	blk := a.physical()
	for attempt := 0; ; attempt++ {
		if n := m.nblocks.Load(); n == unknownBlocks || blk >= n {
			n, err := m.pool.NBlocks(m.rel, buffer.FSMFork)
			if err != nil {
				return nil, err
			}
			m.nblocks.Store(n)
			if blk >= n {
				if !extend {
					return nil, nil
				}
				if err := m.extendFork(blk + 1); err != nil {
					return nil, err
				}
			}
		}
		buf, err := m.pool.ReadBuffer(m.rel, buffer.FSMFork, blk)
		if err == nil {
			return buf, nil
		}
		if attempt == 0 && (errors.Is(err, buffer.ErrBlockOutOfRange) || errors.Is(err, buffer.ErrNoFile)) {
			// The fork shrank or vanished behind the cached size
			// (a truncation or drop through another Map): look again.
			m.nblocks.Store(unknownBlocks)
			continue
		}
		return nil, err
	}
}

// extendFork is fsm_extend: make the FSM fork at least nblocks long, with
// zero pages (each is PageInit'ed when first written).
func (m *Map) extendFork(nblocks uint32) error {
	m.extendMu.Lock()
	defer m.extendMu.Unlock()
	n, err := m.pool.ExtendTo(m.rel, buffer.FSMFork, nblocks)
	if err != nil {
		return err
	}
	m.nblocks.Store(n)
	return nil
}

// hint returns the next-slot hint of the FSM page in buf, loading it from
// the page the first time. The caller holds at least a share lock.
func (m *Map) hint(buf *buffer.Buffer) *atomic.Int32 {
	blk := buf.Block()
	if h, ok := m.hints.Load(blk); ok {
		return h.(*atomic.Int32)
	}
	h := new(atomic.Int32)
	h.Store(pageNextSlot(buf.Page()))
	v, _ := m.hints.LoadOrStore(blk, h)
	return v.(*atomic.Int32)
}

// resetHint points the next-slot hint of FSM block blk at slot 0.
func (m *Map) resetHint(blk uint32) {
	h := new(atomic.Int32)
	if v, loaded := m.hints.LoadOrStore(blk, h); loaded {
		v.(*atomic.Int32).Store(0)
	}
}

// syncHintLocked copies the in-memory next-slot hint to the page. The caller
// holds the exclusive lock and is about to mark the buffer dirty.
func (m *Map) syncHintLocked(buf *buffer.Buffer) {
	if h, ok := m.hints.Load(buf.Block()); ok {
		setPageNextSlot(buf.Page(), h.(*atomic.Int32).Load())
	}
}

// searchAvail is fsm_search_avail on a pinned and locked FSM page: the slot
// of a leaf >= minvalue, or -1. *exclusive says which lock the caller holds;
// if the page turns out to be torn (an inner node promises more than its
// children have) the share lock is traded for the exclusive one, the page
// rebuilt, and the search restarted. The next-slot hint is set to the slot
// found (advance false) or the one after it (advance true).
func (m *Map) searchAvail(buf *buffer.Buffer, minvalue uint8, advance bool, exclusive *bool) int {
	p := buf.Page()
	h := m.hint(buf)
	for {
		slot, torn := searchTree(nodes(p), minvalue, int(h.Load()))
		if torn {
			if !*exclusive {
				buf.RUnlock()
				buf.Lock()
				*exclusive = true
			}
			if rebuildPage(p) {
				m.syncHintLocked(buf)
				buf.MarkDirty()
			}
			continue
		}
		if slot >= 0 {
			next := int32(slot)
			if advance {
				next++
			}
			h.Store(next)
		}
		return slot
	}
}

// setAndSearch is fsm_set_and_search: under one exclusive lock of the FSM
// page at a, set slot to newValue and, if minValue != 0, search the page for
// a slot >= minValue. It returns that slot or -1.
func (m *Map) setAndSearch(a address, slot int, newValue, minValue uint8) (int, error) {
	buf, err := m.readBuf(a, true)
	if err != nil {
		return -1, err
	}
	buf.Lock()
	p := buf.Page()
	if page.IsNew(p) {
		page.Init(p, 0)
	}
	newSlot := -1
	changed := setAvail(p, slot, newValue)
	if minValue != 0 {
		exclusive := true
		newSlot = m.searchAvail(buf, minValue, a.level == bottomLevel, &exclusive)
	}
	if changed {
		m.syncHintLocked(buf)
		buf.MarkDirty()
	}
	if invariants {
		assertPath(buf, slot)
	}
	buf.Unlock()
	buf.Release()
	return newSlot, nil
}

// search is fsm_search: descend from the root to a bottom-level slot with a
// category >= minCat. When a lower page turns out to have less than its
// parent promised, the parent entry is corrected and the search restarts
// from the root.
func (m *Map) search(minCat uint8) uint32 {
	a := rootAddress
	for restarts := 0; ; {
		buf, err := m.readBuf(a, false)
		if err != nil {
			m.noteErr(err)
			return InvalidBlock
		}
		slot := -1
		var pageMax uint8
		if buf != nil {
			buf.RLock()
			exclusive := false
			slot = m.searchAvail(buf, minCat, a.level == bottomLevel, &exclusive)
			if slot < 0 {
				pageMax = maxAvail(buf.Page())
			}
			if exclusive {
				buf.Unlock()
			} else {
				buf.RUnlock()
			}
			buf.Release()
		}
		switch {
		case slot >= 0 && a.level == bottomLevel:
			return a.heapBlock(slot)
		case slot >= 0:
			a = a.child(slot)
		case a.level == rootLevel:
			// Nothing in the whole map.
			return InvalidBlock
		default:
			// The upper level promised more than this page has. Fix
			// the parent's entry and start over. If another session
			// changed this page meanwhile we may store a stale value;
			// the next search or vacuum corrects it.
			parent, pslot := a.parent()
			if _, err := m.setAndSearch(parent, pslot, pageMax, 0); err != nil {
				m.noteErr(err)
				return InvalidBlock
			}
			restarts++
			if restarts > maxSearchRestarts {
				return InvalidBlock
			}
			a = rootAddress
		}
	}
}

// vacuumPage is fsm_vacuum_page: recursively bring the entries of page a
// (and below) covering heap blocks start..end-1 up to date, and return the
// page's maximum. eof is true if the page does not exist.
func (m *Map) vacuumPage(a address, start, end uint32) (maxv uint8, eof bool, err error) {
	buf, err := m.readBuf(a, false)
	if err != nil || buf == nil {
		return 0, buf == nil, err
	}
	defer buf.Release()
	p := buf.Page()
	if a.level > bottomLevel {
		// The slots of this page that cover start .. end-1.
		fs, startSlot := location(start)
		fe, endSlot := location(end - 1)
		for fs.level < a.level {
			fs, startSlot = fs.parent()
			fe, endSlot = fe.parent()
		}
		switch {
		case fs.logpageno > a.logpageno:
			startSlot = SlotsPerPage
		case fs.logpageno < a.logpageno:
			startSlot = 0
		}
		switch {
		case fe.logpageno > a.logpageno:
			endSlot = SlotsPerPage - 1
		case fe.logpageno < a.logpageno:
			endSlot = -1
		}
		childEOF := false
		for slot := startSlot; slot <= endSlot; slot++ {
			var childMax uint8
			if !childEOF {
				childMax, childEOF, err = m.vacuumPage(a.child(slot), start, end)
				if err != nil {
					return 0, false, err
				}
			}
			buf.RLock()
			cur := getAvail(p, slot)
			buf.RUnlock()
			if cur != childMax {
				buf.Lock()
				if page.IsNew(p) {
					page.Init(p, 0)
				}
				setAvail(p, slot, childMax)
				m.syncHintLocked(buf)
				buf.MarkDirty()
				buf.Unlock()
			}
		}
	}
	buf.RLock()
	maxv = maxAvail(p)
	buf.RUnlock()
	// Point the next-slot hint back at the start: this favours low-numbered
	// pages, which helps a later truncation. Only the in-memory hint is
	// reset; the page copy follows at its next exclusive write.
	m.resetHint(buf.Block())
	return maxv, false, nil
}

package buffer

import "minipg/storage/page"

// RingBlocks is the size of the ring PostgreSQL 15 gives VACUUM, ANALYZE
// and bulk reads (BAS_VACUUM, BAS_BULKREAD): 256 kB of pages.
const RingBlocks = 256 * 1024 / page.BlockSize

// Strategy is a buffer access strategy (BufferAccessStrategy, freelist.c):
// a small ring of frames that one bulk operation, such as VACUUM or
// ANALYZE reading a whole table, reuses for the pages it reads in, so that
// the scan does not push the pages everyone else uses out of the pool.
//
//   - A page read in through the strategy takes the ring's next frame when
//     that frame is unpinned and its usage count is at most 1 (no one else
//     has used it since the ring read it in); otherwise a frame from the
//     clock sweep, which then replaces that slot of the ring
//     (GetBufferFromRing, AddBufferToRing). A dirty ring frame is written
//     out first, by the scan itself, after the WAL up to its LSN (the scan
//     pays for its own writes instead of leaving dirty pages to others).
//   - A page found in the pool is pinned without raising its usage count
//     beyond 1 (PinBuffer with a strategy): a scan that passes every page
//     once does not make them look hot.
//
// A Strategy is used by one goroutine at a time (one vacuum, one scan).
// The nil *Strategy is the default access: the clock sweep, usage counts
// raised on every pin.
type Strategy struct {
	ring []int32 // frame ids, -1 while a slot is empty
	cur  int     // the slot used last
	// bulkRead is set for a sequential scan's ring (BAS_BULKREAD): a
	// dirty ring frame whose WAL is not yet durable is given up.
	bulkRead bool
	// reused counts pages read into a frame taken from the ring (tests and
	// statistics: how much the ring saved the rest of the pool).
	reused int64
	// readAhead is how many consecutive blocks a miss reads at once (with
	// one pread, loadRun); 0 or 1 reads the one block.
	readAhead int
	runFrames []*Buffer
	runDones  []chan struct{}
	runBuf    []byte
}

// maxReadAhead is the most blocks a bulk read reads with one pread
// (128 kB), at most half its ring, so that a run never takes back the
// frames of the run before it while the scan is still reaching them.
const maxReadAhead = 16

// NewStrategy returns a ring of the given number of frames, at most an
// eighth of the pool as PostgreSQL caps it (GetAccessStrategy), and at
// least one.
func (p *Pool) NewStrategy(blocks int) *Strategy {
	if maxRing := len(p.frames) / 8; blocks > maxRing {
		blocks = maxRing
	}
	if blocks < 1 {
		blocks = 1
	}
	s := &Strategy{ring: make([]int32, blocks), cur: -1}
	for i := range s.ring {
		s.ring[i] = -1
	}
	return s
}

// NewBulkReadStrategy returns a ring for a sequential scan of a large
// table (BAS_BULKREAD): as NewStrategy, except that a ring frame the scan
// left dirty (pruning, hint bits) and whose WAL is not durable yet leaves
// the ring instead of being written (StrategyRejectBuffer): a reader does
// not wait for a WAL flush; the frame is written by whoever evicts it
// later, as any other.
func (p *Pool) NewBulkReadStrategy(blocks int) *Strategy {
	s := p.NewStrategy(blocks)
	s.bulkRead = true
	s.readAhead = min(maxReadAhead, len(s.ring)/2)
	return s
}

// takeReadAheadLocked reports whether the frame was read ahead and not yet
// asked for, and clears the mark: its first reader counts it as a block
// read, not a hit. hdr is held.
func (b *Buffer) takeReadAheadLocked() bool {
	ahead := b.hdr.readAhead
	b.hdr.readAhead = false
	return ahead
}

// Reused returns how many pages were read into a frame the ring already
// held (rather than one taken from the clock sweep).
func (s *Strategy) Reused() int64 {
	if s == nil {
		return 0
	}
	return s.reused
}

// Size returns the number of frames in the ring.
func (s *Strategy) Size() int {
	if s == nil {
		return 0
	}
	return len(s.ring)
}

// fromRing advances to the ring's next slot and returns its frame pinned,
// if the frame is unpinned and used by no one since (usage count <= 1);
// nil when the slot is empty or its frame is busy, in which case the
// caller takes a frame from the clock sweep and calls toRing with it.
func (s *Strategy) fromRing(p *Pool) *Buffer {
	s.cur++
	if s.cur >= len(s.ring) {
		s.cur = 0
	}
	id := s.ring[s.cur]
	if id < 0 {
		return nil
	}
	b := &p.frames[id]
	b.hdr.Lock()
	defer b.hdr.Unlock()
	if b.hdr.pins != 0 || b.hdr.usage > 1 {
		return nil
	}
	if s.bulkRead && b.hdr.dirty && b.hdr.valid {
		// Unpinned: no one holds its content lock, so pd_lsn is stable.
		if fl := p.opts.WALFlushed; fl == nil || page.LSN(b.data) > fl() {
			s.ring[s.cur] = -1
			return nil
		}
	}
	b.hdr.pins = 1
	s.reused++
	return b
}

// toRing puts frame id into the current slot (AddBufferToRing).
func (s *Strategy) toRing(id int32) { s.ring[s.cur] = id }

// ReadBufferUsageStrategy is ReadBufferUsage with an access strategy
// (nil: the default access, as ReadBufferUsage).
func (p *Pool) ReadBufferUsageStrategy(rel RelFileNode, fork Fork, blk uint32, s *Strategy, u *Usage) (*Buffer, error) {
	b, hit, wrote, err := p.readBuffer(rel, fork, blk, false, s)
	u.count(hit, wrote, err)
	return b, err
}

// ReadBufferStrategy is ReadBufferHit with an access strategy (nil: the
// default access, as ReadBufferHit).
func (p *Pool) ReadBufferStrategy(rel RelFileNode, fork Fork, blk uint32, s *Strategy) (b *Buffer, hit bool, err error) {
	b, hit, _, err = p.readBuffer(rel, fork, blk, false, s)
	return b, hit, err
}

// pinStrategyLocked adds a pin as a strategy's access does: the usage
// count goes from 0 to 1 and no higher. hdr is held.
func (b *Buffer) pinStrategyLocked() {
	b.hdr.pins++
	if b.hdr.usage == 0 {
		b.hdr.usage = 1
	}
}

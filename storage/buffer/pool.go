package buffer

import (
	"fmt"
	"minipg/pgerr"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"minipg/storage/page"
)

// RelFileNode names a relation's files: <Dir>/<n> (main fork),
// <Dir>/<n>_fsm (free space map fork) and <Dir>/<n>_vm (visibility map).
type RelFileNode uint32

// Fork is a relation fork number (ForkNumber).
type Fork uint8

// Forks.
const (
	MainFork Fork = 0
	FSMFork  Fork = 1
	VMFork   Fork = 2 // VISIBILITYMAP_FORKNUM
)

// Tag identifies one block of one fork (BufferTag).
type Tag struct {
	Rel   RelFileNode
	Fork  Fork
	Block uint32
}

// Options configure a Pool.
type Options struct {
	Dir      string // <datadir>/base
	NBuffers int    // frames (shared_buffers / 8192); at least 16 are used
	// FlushWAL implements the WAL rule: it is called with a page's pd_lsn
	// before that page is written, and must return only once the WAL is
	// durable up to that LSN (it may return at once when it already is).
	// nil means no WAL.
	FlushWAL func(lsn uint64) error
	// WALFlushed returns the position up to which the WAL is durable. A
	// bulk-read ring (NewBulkReadStrategy) gives up a dirty frame whose
	// pd_lsn is past it rather than wait for a WAL flush to reuse it
	// (StrategyRejectBuffer). nil: it gives up every dirty frame.
	WALFlushed func() uint64
}

// Constants as in PostgreSQL's buf_internals.h / lwlock.h.
const (
	maxUsageCount   = 5  // BM_MAX_USAGE_COUNT
	numPartitions   = 64 // NUM_BUFFER_PARTITIONS is 128; 64 is plenty here
	minBuffers      = 16
	invalidateWait  = 10 * time.Second // how long DropRel/TruncateRel wait for pins to go
	allPinnedRounds = 8                // clock-sweep passes finding every frame pinned before giving up
)

// Pool is the shared buffer pool. All methods are safe for concurrent use.
//
// Lock order (outermost first): Buffer.content -> Buffer.ioMu ->
// mapping partition locks (in ascending partition order) -> Buffer.hdr.
// rels.RWMutex and forkFile.mu are leaves with respect to all of these.
// No partition lock is held while waiting for I/O or for a content lock.
type Pool struct {
	opts   Options
	frames []Buffer
	arena  []byte        // NBuffers * BlockSize, frame i at i*BlockSize (newArena)
	hand   atomic.Uint64 // clock-sweep hand (nextVictimBuffer)

	// free lists frames holding no page (at start, all of them; then
	// those whose page was dropped), taken before the clock sweep runs,
	// as PostgreSQL's buffer freelist: a table dropped and created again
	// reuses the frames the old one had, which stay in memory, instead of
	// the sweep walking on to frames never touched yet.
	free struct {
		sync.Mutex
		ids []int32 // a stack: the most recently freed frame is reused first
		n   atomic.Int32
	}
	closed  atomic.Bool
	mapping [numPartitions]partition
	counts  struct{ alloc, backendWrites atomic.Int64 } // Counters

	rels struct {
		sync.RWMutex // protects m
		m            map[RelFileNode]*relState
	}
}

// partition is one slice of the buffer mapping table (BufMappingLock
// partition + its share of the shared hash table).
type partition struct {
	sync.Mutex // protects m
	m          map[Tag]int32
	_          [40]byte // keep partitions on separate cache lines
}

func partitionOf(t Tag) int {
	h := uint64(t.Rel)*0x9E3779B97F4A7C15 ^ uint64(t.Fork)<<56 ^ uint64(t.Block)*0xC2B2AE3D27D4EB4F
	h ^= h >> 29
	return int(h % numPartitions)
}

// NewPool returns a pool of opts.NBuffers frames over files in opts.Dir,
// creating the directory if needed.
func NewPool(opts Options) (*Pool, error) {
	if opts.NBuffers < minBuffers {
		opts.NBuffers = minBuffers
	}
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		return nil, pgerr.FromSentinel(ErrIO, err, "could not create directory %q", opts.Dir)
	}
	p := &Pool{opts: opts}
	p.frames = make([]Buffer, opts.NBuffers)
	p.arena = newArena(p, opts.NBuffers*page.BlockSize)
	for i := range p.frames {
		b := &p.frames[i]
		b.id = int32(i)
		b.pool = p
		b.data = p.arena[i*page.BlockSize : (i+1)*page.BlockSize : (i+1)*page.BlockSize]
	}
	for i := range p.mapping {
		p.mapping[i].m = make(map[Tag]int32)
	}
	p.free.ids = make([]int32, 0, opts.NBuffers)
	for i := len(p.frames) - 1; i >= 0; i-- { // frame 0 is taken first
		p.free.ids = append(p.free.ids, int32(i))
	}
	p.free.n.Store(int32(len(p.free.ids)))
	p.rels.m = make(map[RelFileNode]*relState)
	return p, nil
}

// NBuffers returns the number of frames.
func (p *Pool) NBuffers() int { return len(p.frames) }

// ReadBuffer returns the buffer for (rel, fork, blk), pinned. The block must
// exist (blk < NBlocks), else an error. A block read from disk whose header
// fails verification (and that is not all zeroes) gives a DataCorrupted
// error and leaves no buffer behind; an all-zero page is a valid new page.
// If every frame is pinned it fails with ErrNoUnpinnedBuffers (53000).
//
// The caller must Release the buffer, and take its content lock (Lock or
// RLock) before looking at or changing Page.
func (p *Pool) ReadBuffer(rel RelFileNode, fork Fork, blk uint32) (*Buffer, error) {
	b, _, _, err := p.readBuffer(rel, fork, blk, false, nil)
	return b, err
}

// ResidentBuffer returns the buffer for (rel, fork, blk), pinned, when it
// is in the pool and valid, and nil otherwise: it never reads from disk nor
// waits for a read in progress. The caller must Release it.
func (p *Pool) ResidentBuffer(rel RelFileNode, fork Fork, blk uint32) *Buffer {
	if p.closed.Load() || fork >= numForks {
		return nil
	}
	tag := Tag{Rel: rel, Fork: fork, Block: blk}
	part := &p.mapping[partitionOf(tag)]
	part.Lock()
	defer part.Unlock()
	id, ok := part.m[tag]
	if !ok {
		return nil
	}
	b := &p.frames[id]
	b.hdr.Lock()
	defer b.hdr.Unlock()
	if !b.hdr.valid {
		return nil
	}
	b.pinLocked()
	return b
}

// ReadBufferHit is ReadBuffer that also reports whether the block was
// already in the pool (VACUUM's cost accounting tells a hit from a miss).
func (p *Pool) ReadBufferHit(rel RelFileNode, fork Fork, blk uint32) (b *Buffer, hit bool, err error) {
	return p.ReadBufferStrategy(rel, fork, blk, nil)
}

// ReadBufferZeroed is ReadBuffer without the read (PostgreSQL's
// RBM_ZERO_AND_LOCK, minus the lock): if the block is not in the pool its
// frame is filled with zeroes instead of being read from disk, so a torn or
// corrupt page on disk does not matter. If it is in the pool, its current
// contents are returned. The block must exist (blk < NBlocks).
//
// The caller must take Lock and overwrite the whole page (restoring a
// full-page image during redo, or initializing a freshly extended page),
// then MarkDirty. No BlocksRead is counted for a zeroed frame.
func (p *Pool) ReadBufferZeroed(rel RelFileNode, fork Fork, blk uint32) (*Buffer, error) {
	b, _, _, err := p.readBuffer(rel, fork, blk, true, nil)
	return b, err
}

// readBuffer pins the block, read through the access strategy s (nil: the
// default access): hit is set when it was in the pool, wrote when the frame
// taken for it held a dirty page that was written out.
func (p *Pool) readBuffer(rel RelFileNode, fork Fork, blk uint32, zero bool, s *Strategy) (b *Buffer, hit, wrote bool, err error) {
	if p.closed.Load() {
		return nil, false, false, ErrClosed
	}
	if fork >= numForks {
		return nil, false, false, pgerr.FromSentinel(ErrNoFile, nil, "invalid fork %d", fork)
	}
	tag := Tag{Rel: rel, Fork: fork, Block: blk}
	part := &p.mapping[partitionOf(tag)]
	for {
		part.Lock()
		if id, ok := part.m[tag]; ok {
			b := &p.frames[id]
			b.hdr.Lock()
			if s != nil {
				b.pinStrategyLocked()
			} else {
				b.pinLocked()
			}
			valid, done := b.hdr.valid, b.hdr.ioDone
			ahead := valid && b.takeReadAheadLocked()
			b.hdr.Unlock()
			part.Unlock()
			if valid {
				return b, !ahead, wrote, nil
			}
			// Another goroutine is reading the block in: wait for it.
			<-done
			b.hdr.Lock()
			valid = b.hdr.valid
			ahead = valid && b.takeReadAheadLocked()
			b.hdr.Unlock()
			if valid {
				return b, !ahead, wrote, nil
			}
			// Its read failed and it dropped the mapping; try ourselves.
			b.Release()
			continue
		}
		part.Unlock()
		var w bool
		if s != nil && s.readAhead > 1 && !zero {
			b, w, err = p.loadRun(tag, s)
		} else {
			b, w, err = p.loadBuffer(tag, zero, s)
		}
		wrote = wrote || w
		if err == errRetry {
			continue
		}
		return b, false, wrote, err
	}
}

// loadBuffer finds a victim frame, gives it tag and reads the block into it
// (or zeroes it, if zero is set). With a strategy the frame is the ring's
// next one when it is free, else the clock sweep's, which joins the ring.
// It returns errRetry if the tag appeared in the mapping meanwhile or the
// victim got pinned or dirtied again.
func (p *Pool) loadBuffer(tag Tag, zero bool, s *Strategy) (_ *Buffer, wrote bool, err error) {
	victim, done, wrote, err := p.claimFrame(tag, s)
	if err != nil {
		return nil, wrote, err
	}
	// Read the block. Others who find the tag pin the frame and wait on done.
	if zero {
		err = p.checkBlockExists(victim.hdr.rs, tag)
		clear(victim.data)
	} else {
		err = p.readBlock(victim.hdr.rs, tag, victim.data)
		if err == nil {
			err = p.verifyPage(tag, victim.data)
		}
	}
	if err != nil {
		p.dropClaim(victim, tag, done)
		return nil, wrote, err
	}
	p.validate(victim, done, false)
	return victim, wrote, nil
}

// claimFrame takes a victim frame (the ring's next one when free, else the
// clock sweep's), writes it out if dirty and maps tag to it with a read in
// progress: it returns the frame pinned, not valid, and the channel to
// close when the read ends (validate or dropClaim). errRetry: the tag
// appeared in the mapping meanwhile, or the victim got pinned or dirtied
// again.
func (p *Pool) claimFrame(tag Tag, s *Strategy) (victim *Buffer, done chan struct{}, wrote bool, err error) {
	rs := p.relState(tag.Rel)
	if s != nil {
		victim = s.fromRing(p)
	}
	if victim == nil {
		if victim, err = p.clockSweep(); err != nil {
			return nil, nil, false, err
		}
		if s != nil {
			s.toRing(victim.id)
		}
	}
	// Write the victim out if it is dirty (we hold a pin, so no one else can
	// take the frame, and flushBuffer holds its content lock shared).
	wrote, err = victim.flush()
	if err != nil {
		victim.Release()
		return nil, nil, false, err
	}
	p.counts.alloc.Add(1)
	if wrote {
		p.counts.backendWrites.Add(1)
	}

	oldTag, hadTag, oldPart, newPart := p.lockRetag(victim, tag)
	if _, ok := p.mapping[newPart].m[tag]; ok {
		// Someone else loaded it first: drop our victim and look again.
		victim.hdr.Lock()
		victim.hdr.pins--
		victim.hdr.Unlock()
		p.unlockPartitions(oldPart, newPart)
		return nil, nil, wrote, errRetry
	}
	victim.hdr.Lock()
	if victim.hdr.pins != 1 || victim.hdr.dirty {
		// Pinned by a lookup of its old tag, or dirtied since we flushed.
		victim.hdr.pins--
		victim.hdr.Unlock()
		p.unlockPartitions(oldPart, newPart)
		return nil, nil, wrote, errRetry
	}
	if hadTag {
		delete(p.mapping[oldPart].m, oldTag)
	}
	victim.hdr.tag, victim.hdr.hasTag, victim.hdr.valid, victim.hdr.readAhead = tag, true, false, false
	victim.hdr.rs = rs
	victim.hdr.usage = 1
	done = make(chan struct{})
	victim.hdr.ioDone = done
	victim.hdr.Unlock()
	p.mapping[newPart].m[tag] = victim.id
	p.unlockPartitions(oldPart, newPart)
	return victim, done, wrote, nil
}

// dropClaim undoes claimFrame after a failed read: no frame is left
// behind (the mapping is dropped, the frame freed and unpinned), and those
// waiting on done look the tag up again.
func (p *Pool) dropClaim(victim *Buffer, tag Tag, done chan struct{}) {
	part := &p.mapping[partitionOf(tag)]
	part.Lock()
	victim.hdr.Lock()
	delete(part.m, tag)
	victim.hdr.hasTag, victim.hdr.valid, victim.hdr.usage = false, false, 0
	victim.hdr.rs = nil
	clear(victim.data)
	victim.hdr.pins--
	close(done)
	victim.hdr.Unlock()
	part.Unlock()
}

// validate ends a claimed frame's read: its data is the block. readAhead
// marks a block read before it was asked for (loadRun).
func (p *Pool) validate(b *Buffer, done chan struct{}, readAhead bool) {
	b.hdr.Lock()
	b.hdr.valid, b.hdr.readAhead = true, readAhead
	close(done)
	b.hdr.Unlock()
}

// loadRun is loadBuffer for a strategy that reads ahead (a bulk read): it
// claims frames for tag's block and for as many of the blocks after it, up
// to the strategy's read-ahead and the end of the file, as are in no frame
// yet, reads them with one pread, and returns tag's frame pinned. The
// other blocks stay in the ring unpinned, marked readAhead, so that the
// first reader counts each as a block read (as it would have been without
// read-ahead) and the scan that reaches it finds it in the pool. A block
// after the first that fails its check is dropped, to be read (and its
// error reported) when asked for.
func (p *Pool) loadRun(tag Tag, s *Strategy) (_ *Buffer, wrote bool, err error) {
	first, done, wrote, err := p.claimFrame(tag, s)
	if err != nil {
		return nil, wrote, err
	}
	rs := first.hdr.rs
	ff, f, err := p.forkForBlock(rs, tag)
	if err != nil {
		p.dropClaim(first, tag, done)
		return nil, wrote, err
	}
	frames, dones := append(s.runFrames[:0], first), append(s.runDones[:0], done)
	limit := min(uint32(s.readAhead), ff.nblocks.Load()-tag.Block)
	for i := uint32(1); i < limit; i++ {
		t := tag
		t.Block += i
		part := &p.mapping[partitionOf(t)]
		part.Lock()
		_, present := part.m[t]
		part.Unlock()
		if present {
			break
		}
		b, d, w, err := p.claimFrame(t, s)
		wrote = wrote || w
		if err != nil {
			break // errRetry or no frame: the run ends here
		}
		frames, dones = append(frames, b), append(dones, d)
	}
	s.runFrames, s.runDones = frames[:0], dones[:0]
	n := len(frames)
	if cap(s.runBuf) < n*page.BlockSize {
		s.runBuf = make([]byte, s.readAhead*page.BlockSize)
	}
	buf := s.runBuf[:n*page.BlockSize]
	whole, rerr := p.readBlocks(rs, ff, f, tag, buf)
	for i, b := range frames {
		t := tag
		t.Block += uint32(i)
		err := rerr // the first block not read whole; those after it are dropped unreported
		if i < whole {
			copy(b.data, buf[i*page.BlockSize:(i+1)*page.BlockSize])
			err = p.verifyPage(t, b.data)
		}
		if err != nil {
			p.dropClaim(b, t, dones[i])
			if i == 0 {
				// The block asked for failed: give the rest up unread
				// (their frames hold nothing of theirs yet).
				for j := 1; j < n; j++ {
					t := tag
					t.Block += uint32(j)
					p.dropClaim(frames[j], t, dones[j])
				}
				return nil, wrote, err
			}
			continue
		}
		p.validate(b, dones[i], i > 0)
		if i > 0 {
			b.Release()
		}
	}
	return first, wrote, nil
}

func (p *Pool) relPath(t Tag) string {
	return fmt.Sprintf("base/%d%s", t.Rel, forkSuffix(t.Fork))
}

// lockPartitions locks partitions a and b (either may be -1) in ascending
// order, each once.
func (p *Pool) lockPartitions(a, b int) {
	if a > b {
		a, b = b, a
	}
	if a >= 0 {
		p.mapping[a].Lock()
	}
	if b >= 0 && b != a {
		p.mapping[b].Lock()
	}
}

func (p *Pool) unlockPartitions(a, b int) {
	if a > b {
		a, b = b, a
	}
	if a >= 0 {
		p.mapping[a].Unlock()
	}
	if b >= 0 && b != a {
		p.mapping[b].Unlock()
	}
}

// lockRetag locks the mapping partitions that moving victim (pinned by the
// caller) to tag needs: its old tag's, if it has one, and tag's. The
// victim's tag cannot change while the caller holds its pin (retagging
// needs pins == 1), so oldTag stays valid. Unlock with
// p.unlockPartitions(oldPart, newPart).
func (p *Pool) lockRetag(victim *Buffer, tag Tag) (oldTag Tag, hadTag bool, oldPart, newPart int) {
	newPart = partitionOf(tag)
	victim.hdr.Lock()
	oldTag, hadTag = victim.hdr.tag, victim.hdr.hasTag
	victim.hdr.Unlock()
	oldPart = -1
	if hadTag {
		oldPart = partitionOf(oldTag)
	}
	p.lockPartitions(oldPart, newPart)
	return oldTag, hadTag, oldPart, newPart
}

// clockSweep returns an unpinned frame with usage count 0, pinned by the
// caller (StrategyGetBuffer). Each pass over a frame in use lowers its usage
// count. Having passed every frame without finding one unpinned, it yields
// and sweeps again a few times (pins are mostly short-lived: other sessions
// between ReadBuffer and Release, or sweeping themselves), then gives up
// with ErrNoUnpinnedBuffers as PostgreSQL does.
func (p *Pool) clockSweep() (*Buffer, error) {
	if b := p.takeFree(); b != nil {
		return b, nil
	}
	n := uint64(len(p.frames))
	tries, rounds := n, 0
	for {
		b := &p.frames[(p.hand.Add(1)-1)%n]
		b.hdr.Lock()
		if b.hdr.pins == 0 {
			if b.hdr.usage == 0 {
				b.hdr.pins = 1
				b.hdr.Unlock()
				return b, nil
			}
			b.hdr.usage--
			tries = n
		} else {
			tries--
		}
		b.hdr.Unlock()
		if tries == 0 {
			if rounds++; rounds > allPinnedRounds {
				return nil, pgerr.FromSentinel(ErrNoUnpinnedBuffers, nil, "no unpinned buffers available")
			}
			runtime.Gosched()
			tries = n
		}
	}
}

// takeFree pops frames off the free list until one is unpinned with usage
// count 0 and returns it pinned; nil when the list runs out. A listed frame
// may have been taken by the sweep since, hence the check.
func (p *Pool) takeFree() *Buffer {
	for p.free.n.Load() > 0 {
		p.free.Lock()
		if len(p.free.ids) == 0 {
			p.free.Unlock()
			return nil
		}
		id := p.free.ids[len(p.free.ids)-1]
		p.free.ids = p.free.ids[:len(p.free.ids)-1]
		p.free.n.Store(int32(len(p.free.ids)))
		p.free.Unlock()
		b := &p.frames[id]
		b.hdr.Lock()
		if b.hdr.pins == 0 && b.hdr.usage == 0 {
			b.hdr.pins = 1
			b.hdr.Unlock()
			return b
		}
		b.hdr.Unlock()
	}
	return nil
}

// putFree lists a frame whose page was dropped (StrategyFreeBuffer).
func (p *Pool) putFree(id int32) {
	p.free.Lock()
	if len(p.free.ids) >= len(p.frames) {
		// The list can hold a frame twice (freed again after the sweep
		// took it while listed); it never needs to be longer than this.
		p.free.Unlock()
		return
	}
	p.free.ids = append(p.free.ids, id)
	p.free.n.Store(int32(len(p.free.ids)))
	p.free.Unlock()
}

// FlushAll writes every dirty buffer (a checkpoint's BufferSync; call Sync
// afterwards for durability).
func (p *Pool) FlushAll() error {
	return p.flushMatching(func(Tag) bool { return true })
}

// FlushRel writes every dirty buffer of rel.
func (p *Pool) FlushRel(rel RelFileNode) error {
	return p.flushMatching(func(t Tag) bool { return t.Rel == rel })
}

func (p *Pool) flushMatching(match func(Tag) bool) error {
	for i := range p.frames {
		b := &p.frames[i]
		b.hdr.Lock()
		if !b.hdr.valid || !b.hdr.dirty || !match(b.hdr.tag) {
			b.hdr.Unlock()
			continue
		}
		b.pinLocked()
		b.hdr.Unlock()
		_, err := b.flush()
		b.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// FlushAllPaced writes every buffer dirty when it is called, as a
// checkpoint's BufferSync does: it first notes which buffers are dirty (the
// checkpoint's share; pages dirtied later are the next checkpoint's), then
// writes them one by one, calling delay(processed, total) after each so
// that the caller can spread the writes over time (CheckpointWriteDelay).
// A noted buffer that was written meanwhile (evicted) is skipped. It
// returns how many buffers it wrote. delay may be nil.
func (p *Pool) FlushAllPaced(delay func(processed, total int)) (int, error) {
	var ids []int32
	for i := range p.frames {
		b := &p.frames[i]
		b.hdr.Lock()
		if b.hdr.valid && b.hdr.dirty {
			ids = append(ids, int32(i))
		}
		b.hdr.Unlock()
	}
	written := 0
	for n, id := range ids {
		b := &p.frames[id]
		b.hdr.Lock()
		if !b.hdr.valid || !b.hdr.dirty {
			b.hdr.Unlock()
		} else {
			b.pinLocked()
			b.hdr.Unlock()
			wrote, err := b.flush()
			b.Release()
			if err != nil {
				return written, err
			}
			if wrote {
				written++
			}
		}
		if delay != nil {
			delay(n+1, len(ids))
		}
	}
	return written, nil
}

// Counters are pool-wide buffer counts since NewPool (pg_stat_bgwriter's
// buffers_backend and buffers_alloc).
type Counters struct {
	// Alloc: buffers taken for a page not in the pool (a read, an
	// extension or a zeroed page), free-list or clock sweep.
	Alloc int64
	// BackendWrites: dirty victims written by the backend that needed the
	// frame (minipg has no background writer, so every eviction write).
	BackendWrites int64
}

// Counters returns the pool-wide counters.
func (p *Pool) Counters() Counters {
	return Counters{Alloc: p.counts.alloc.Load(), BackendWrites: p.counts.backendWrites.Load()}
}

// invalidate drops (without writing) every buffer whose tag matches
// (DropRelFileNodeBuffers). A matching buffer that is pinned is waited for
// up to invalidateWait.
func (p *Pool) invalidate(match func(Tag) bool) error {
	deadline := time.Now().Add(invalidateWait)
	for i := range p.frames {
		b := &p.frames[i]
		for {
			b.hdr.Lock()
			tag, ok := b.hdr.tag, b.hdr.hasTag && match(b.hdr.tag)
			b.hdr.Unlock()
			if !ok {
				break
			}
			part := &p.mapping[partitionOf(tag)]
			part.Lock()
			b.hdr.Lock()
			if !b.hdr.hasTag || b.hdr.tag != tag {
				b.hdr.Unlock()
				part.Unlock()
				continue // retagged meanwhile; look again
			}
			if b.hdr.pins == 0 {
				delete(part.m, tag)
				b.hdr.hasTag, b.hdr.valid, b.hdr.dirty, b.hdr.usage = false, false, false, 0
				b.hdr.rs = nil
				b.hdr.Unlock()
				part.Unlock()
				p.putFree(b.id)
				break
			}
			b.hdr.Unlock()
			part.Unlock()
			if time.Now().After(deadline) {
				return pgerr.FromSentinel(ErrBufferPinned, nil, "cannot drop buffer of block %d of relation %s: it is pinned",
					tag.Block, p.relPath(tag))
			}
			time.Sleep(time.Millisecond)
		}
	}
	return nil
}

// Close writes all dirty buffers, fsyncs and closes the files. The pool
// must not be used afterwards.
func (p *Pool) Close() error {
	if p.closed.Swap(true) {
		return nil
	}
	err := p.FlushAll()
	if err == nil {
		err = p.Sync()
	}
	p.rels.Lock()
	defer p.rels.Unlock()
	for _, rs := range p.rels.m {
		for i := range rs.forks {
			ff := &rs.forks[i]
			ff.mu.Lock()
			if f := ff.f.Swap(nil); f != nil {
				if cerr := f.Close(); cerr != nil && err == nil {
					err = pgerr.FromSentinel(ErrIO, cerr, "could not close file %q", ff.path)
				}
			}
			ff.mu.Unlock()
		}
	}
	return err
}

// Check verifies the pool's internal invariants: every mapping entry points
// at a valid-or-loading frame with that tag, every tagged frame is in the
// mapping, pin and usage counts are in range. With pinsAllowed false it also
// requires that no buffer is pinned (call it when the pool is quiescent).
func (p *Pool) Check(pinsAllowed bool) error {
	for i := range p.mapping {
		p.mapping[i].Lock()
	}
	defer func() {
		for i := range p.mapping {
			p.mapping[i].Unlock()
		}
	}()
	seen := 0
	for pi := range p.mapping {
		for tag, id := range p.mapping[pi].m {
			if partitionOf(tag) != pi {
				return fmt.Errorf("buffer: tag %v in partition %d, want %d", tag, pi, partitionOf(tag))
			}
			b := &p.frames[id]
			b.hdr.Lock()
			ok := b.hdr.hasTag && b.hdr.tag == tag
			b.hdr.Unlock()
			if !ok {
				return fmt.Errorf("buffer: mapping %v -> frame %d, frame has tag %v", tag, id, b.hdr.tag)
			}
			seen++
		}
	}
	tagged := 0
	for i := range p.frames {
		b := &p.frames[i]
		b.hdr.Lock()
		hasTag, pins, usage, dirty, valid := b.hdr.hasTag, b.hdr.pins, b.hdr.usage, b.hdr.dirty, b.hdr.valid
		b.hdr.Unlock()
		if hasTag {
			tagged++
		}
		switch {
		case pins < 0 || (!pinsAllowed && pins != 0):
			return fmt.Errorf("buffer: frame %d pin count %d", i, pins)
		case usage > maxUsageCount:
			return fmt.Errorf("buffer: frame %d usage count %d", i, usage)
		case dirty && !valid:
			return fmt.Errorf("buffer: frame %d dirty but not valid", i)
		}
	}
	if tagged != seen {
		return fmt.Errorf("buffer: %d tagged frames, %d mapping entries", tagged, seen)
	}
	return nil
}

// PinnedBuffers counts the frames pinned right now (for tests: after every
// statement of an idle engine has ended, it must be 0).
func (p *Pool) PinnedBuffers() int {
	n := 0
	for i := range p.frames {
		b := &p.frames[i]
		b.hdr.Lock()
		if b.hdr.pins > 0 {
			n++
		}
		b.hdr.Unlock()
	}
	return n
}

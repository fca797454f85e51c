package buffer

import (
	"errors"
	"io/fs"
	"minipg/pgerr"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"

	"minipg/internal/fault"
	"minipg/storage/page"
)

// relState is the pool's per-relation state: open fork files, counters and
// the extension lock. It lives in Pool.rels until DropRel or Close.
type relState struct {
	rel   RelFileNode
	forks [numForks]forkFile
	ext   ExtensionLock
	stats struct {
		read, written, dirtied, extended, extensions atomic.Int64
	}
}

const numForks = 3

// forkFile is one fork's file (smgr's SMgrRelation + md.c segment, one file
// per fork, no 1 GiB segmentation).
type forkFile struct {
	mu      sync.Mutex              // serializes open, extend, truncate and close
	f       atomic.Pointer[os.File] // nil until opened; pread/pwrite need no lock
	nblocks atomic.Uint32           // size in blocks; valid once f != nil
	// absent remembers that the file did not exist when last opened
	// without create: every file of the pool is created through it, so
	// until a create the answer stands, and asking for a fork a relation
	// does not have (a small table's _fsm, on every insert) costs no
	// open(2).
	absent atomic.Bool
	path   string
}

func forkSuffix(fork Fork) string {
	switch fork {
	case FSMFork:
		return "_fsm"
	case VMFork:
		return "_vm"
	}
	return ""
}

func (p *Pool) path(rel RelFileNode, fork Fork) string {
	return filepath.Join(p.opts.Dir, strconv.FormatUint(uint64(rel), 10)+forkSuffix(fork))
}

// relState returns rel's state, creating it.
func (p *Pool) relState(rel RelFileNode) *relState {
	p.rels.RLock()
	rs := p.rels.m[rel]
	p.rels.RUnlock()
	if rs != nil {
		return rs
	}
	p.rels.Lock()
	defer p.rels.Unlock()
	if rs = p.rels.m[rel]; rs == nil {
		rs = &relState{rel: rel}
		for f := range rs.forks {
			rs.forks[f].path = p.path(rel, Fork(f))
		}
		p.rels.m[rel] = rs
	}
	return rs
}

// openFork returns the fork's open file, opening it (and creating it when
// create is set). It returns (nil, nil) when the file does not exist and
// create is false.
func (p *Pool) openFork(rs *relState, fork Fork, create bool) (*forkFile, *os.File, error) {
	ff := &rs.forks[fork]
	if f := ff.f.Load(); f != nil {
		return ff, f, nil
	}
	if !create && ff.absent.Load() {
		return ff, nil, nil
	}
	ff.mu.Lock()
	defer ff.mu.Unlock()
	f, err := p.openForkLocked(ff, create)
	return ff, f, err
}

// openForkLocked is openFork with ff.mu held.
func (p *Pool) openForkLocked(ff *forkFile, create bool) (*os.File, error) {
	if f := ff.f.Load(); f != nil {
		return f, nil
	}
	flags := os.O_RDWR
	if create {
		flags |= os.O_CREATE
	}
	f, err := os.OpenFile(ff.path, flags, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !create {
			ff.absent.Store(true)
			return nil, nil
		}
		return nil, pgerr.FromSentinel(ErrIO, err, "could not open file %q", ff.path)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, pgerr.FromSentinel(ErrIO, err, "could not stat file %q", ff.path)
	}
	ff.nblocks.Store(uint32(st.Size() / page.BlockSize))
	ff.f.Store(f)
	ff.absent.Store(false)
	return f, nil
}

// CreateRel creates the (empty) main fork file of rel. An existing file is
// left as it is, so that redo of a create is idempotent.
func (p *Pool) CreateRel(rel RelFileNode) error { return p.CreateFork(rel, MainFork) }

// CreateFork creates the (empty) file of one fork of rel; an existing file
// is left as it is.
func (p *Pool) CreateFork(rel RelFileNode, fork Fork) error {
	if p.closed.Load() {
		return ErrClosed
	}
	if fork >= numForks {
		return pgerr.FromSentinel(ErrNoFile, nil, "invalid fork %d", fork)
	}
	_, _, err := p.openFork(p.relState(rel), fork, true)
	return err
}

// Exists reports whether the fork's file exists.
func (p *Pool) Exists(rel RelFileNode, fork Fork) bool {
	if fork >= numForks {
		return false
	}
	p.rels.RLock()
	rs := p.rels.m[rel]
	p.rels.RUnlock()
	if rs != nil && rs.forks[fork].f.Load() != nil {
		return true
	}
	_, err := os.Stat(p.path(rel, fork))
	return err == nil
}

// NBlocks returns the number of blocks in the fork, 0 if its file is absent.
// Blocks added by Extend are counted as soon as Extend returns.
func (p *Pool) NBlocks(rel RelFileNode, fork Fork) (uint32, error) {
	if fork >= numForks {
		return 0, pgerr.FromSentinel(ErrNoFile, nil, "invalid fork %d", fork)
	}
	ff, f, err := p.openFork(p.relState(rel), fork, false)
	if err != nil || f == nil {
		return 0, err
	}
	return ff.nblocks.Load(), nil
}

// zeroBlocks is a shared source of zero pages for Extend.
var zeroBlocks = make([]byte, 64*page.BlockSize)

// zeroExtend appends n zero pages to f at off: fallocate for many pages
// where the file system has it, else one write of zeroes.
func zeroExtend(f *os.File, off int64, n int) error {
	if n >= fallocateMinBlocks {
		if ok, err := fallocate(f, off, int64(n)*page.BlockSize); ok || err != nil {
			return err
		}
	}
	buf := zeroBlocks
	if n*page.BlockSize > len(buf) {
		buf = make([]byte, n*page.BlockSize)
	}
	_, err := f.WriteAt(buf[:n*page.BlockSize], off)
	return err
}

// Extend appends n zero-filled pages to the fork at its end with one write
// or fallocate (creating the file if needed) and returns the first new block number. The
// new size is visible to NBlocks as soon as Extend returns. The caller holds
// the relation's extension lock, so that concurrent extenders (and the FSM)
// see a consistent size; Extend itself is also safe without it.
//
// As PostgreSQL 16's ExtendBufferedRelBy, the new pages also enter the pool
// (at most 1/maxExtendPinFraction of it): each gets a zeroed, valid, clean, unpinned frame,
// installed in the mapping before the new size is published, that is before
// anyone else can learn the block numbers. The first ReadBuffer of a new
// block is then a hit, not a read. A block that finds no frame (every frame
// pinned) is read from the file, all zeroes, as before.
func (p *Pool) Extend(rel RelFileNode, fork Fork, n int) (uint32, error) {
	if n <= 0 {
		return 0, pgerr.FromSentinel(ErrIO, nil, "invalid extend of fork %d by %d blocks", fork, n)
	}
	first, _, err := p.extend(rel, fork, n, 0)
	return first, err
}

// ExtendTo makes the fork at least nblocks long, adding zero pages as
// Extend does (none if it is that long already), and returns its size.
// The size is checked and extended under the fork's lock, so callers that
// race to make the same block exist add it once (PostgreSQL's fsm_extend
// and vm_extend, for the forks that have no extension lock of their own,
// and redo's XLogReadBufferExtended).
func (p *Pool) ExtendTo(rel RelFileNode, fork Fork, nblocks uint32) (uint32, error) {
	n, err := p.NBlocks(rel, fork)
	if err != nil || n >= nblocks {
		return n, err
	}
	_, size, err := p.extend(rel, fork, int(nblocks-n), nblocks)
	return size, err
}

// extend adds n pages to the fork or, if to is not 0, as many as make it to
// blocks long (n is then only the guess for the frames to take). It
// returns the first new block and the new size.
func (p *Pool) extend(rel RelFileNode, fork Fork, n int, to uint32) (uint32, uint32, error) {
	if p.closed.Load() {
		return 0, 0, ErrClosed
	}
	if fork >= numForks {
		return 0, 0, pgerr.FromSentinel(ErrIO, nil, "invalid extend of fork %d", fork)
	}
	rs := p.relState(rel)
	ff := &rs.forks[fork]
	// Take (pinned, clean) frames for the new pages before ff.mu: writing a
	// dirty victim out may wait for the WAL.
	victims := p.extendVictims(min(n, len(p.frames)/maxExtendPinFraction))
	ff.mu.Lock()
	defer ff.mu.Unlock()
	f, err := p.openForkLocked(ff, true)
	if err != nil {
		p.releaseVictims(victims)
		return 0, 0, err
	}
	first := ff.nblocks.Load()
	if to != 0 {
		if first >= to {
			p.releaseVictims(victims)
			return first, first, nil
		}
		n = int(to - first)
		if len(victims) > n {
			p.releaseVictims(victims[n:])
			victims = victims[:n]
		}
	}
	if uint64(first)+uint64(n) >= uint64(page.InvalidBlock) {
		p.releaseVictims(victims)
		return 0, 0, pgerr.FromSentinel(ErrIO, nil, "cannot extend file %q beyond %d blocks", ff.path, page.InvalidBlock)
	}
	err = fault.Check(fault.DataExtend, "write", ff.path)
	if err == nil {
		err = zeroExtend(f, int64(first)*page.BlockSize, n)
	}
	if err != nil {
		p.releaseVictims(victims)
		return 0, 0, pgerr.FromSentinel(ErrIO, err, "could not extend file %q", ff.path)
	}
	for i, v := range victims {
		p.installZeroed(v, rs, Tag{Rel: rel, Fork: fork, Block: first + uint32(i)})
	}
	size := first + uint32(n)
	ff.nblocks.Store(size)
	rs.stats.extended.Add(int64(n))
	rs.stats.extensions.Add(1)
	return first, size, nil
}

// maxExtendPinFraction bounds the frames one Extend pins at once to a
// fraction of the pool (PostgreSQL 16 limits a backend's pins likewise), so
// that concurrent extenders cannot pin every frame.
const maxExtendPinFraction = 16

// extendVictims returns up to n frames for Extend, each pinned once by the
// caller and written out if it was dirty. It stops early when the clock
// sweep finds no unpinned frame or a write fails: the pages without a frame
// are simply not loaded.
func (p *Pool) extendVictims(n int) []*Buffer {
	var victims []*Buffer
	for range n {
		v, err := p.clockSweep()
		if err != nil {
			break
		}
		wrote, err := v.flush()
		if err != nil {
			v.Release()
			break
		}
		p.counts.alloc.Add(1)
		if wrote {
			p.counts.backendWrites.Add(1)
		}
		victims = append(victims, v)
	}
	return victims
}

func (p *Pool) releaseVictims(victims []*Buffer) {
	for _, v := range victims {
		v.Release()
	}
}

// installZeroed gives victim (pinned once by the caller, clean) the new
// block tag as a zeroed, valid, clean frame and drops the caller's pin. The
// block is beyond the fork's published size, so no one can have it in the
// pool but a read of a nonexistent block about to fail; then, or if the
// victim got pinned or dirtied again, the victim is just released and the
// block is read from disk on first use.
func (p *Pool) installZeroed(victim *Buffer, rs *relState, tag Tag) {
	oldTag, hadTag, oldPart, newPart := p.lockRetag(victim, tag)
	defer p.unlockPartitions(oldPart, newPart)
	victim.hdr.Lock()
	defer victim.hdr.Unlock()
	if _, ok := p.mapping[newPart].m[tag]; ok || victim.hdr.pins != 1 || victim.hdr.dirty {
		victim.hdr.pins--
		return
	}
	if hadTag {
		delete(p.mapping[oldPart].m, oldTag)
	}
	// Only our pin, and the old tag is gone from the mapping: no one else
	// can reach the frame's bytes.
	clear(victim.data)
	victim.hdr.tag, victim.hdr.hasTag, victim.hdr.valid = tag, true, true
	victim.hdr.rs = rs
	victim.hdr.usage = 1
	victim.hdr.pins--
	p.mapping[newPart].m[tag] = victim.id
}

// checkBlockExists returns the fork's open file if tag.Block is below its
// end, else an error.
func (p *Pool) checkBlockExists(rs *relState, tag Tag) error {
	_, _, err := p.forkForBlock(rs, tag)
	return err
}

func (p *Pool) forkForBlock(rs *relState, tag Tag) (*forkFile, *os.File, error) {
	ff, f, err := p.openFork(rs, tag.Fork, false)
	if err != nil {
		return nil, nil, err
	}
	if f == nil {
		return nil, nil, pgerr.FromSentinel(ErrNoFile, nil, "could not open file %q: no such file", p.path(tag.Rel, tag.Fork))
	}
	if n := ff.nblocks.Load(); tag.Block >= n {
		return nil, nil, pgerr.FromSentinel(ErrBlockOutOfRange, nil,
			"could not read block %d in file %q: block beyond end of file (%d blocks)", tag.Block, ff.path, n)
	}
	return ff, f, nil
}

// readBlock preads one block into buf.
func (p *Pool) readBlock(rs *relState, tag Tag, buf []byte) error {
	ff, f, err := p.forkForBlock(rs, tag)
	if err != nil {
		return err
	}
	_, err = p.readBlocks(rs, ff, f, tag, buf)
	return err
}

// readBlocks preads the len(buf)/BlockSize blocks from tag's on (in fork
// file ff, open as f) into buf with one call: it returns how many it read
// whole and, when that is fewer, the error of the first one it could not.
func (p *Pool) readBlocks(rs *relState, ff *forkFile, f *os.File, tag Tag, buf []byte) (int, error) {
	n, err := f.ReadAt(buf, int64(tag.Block)*page.BlockSize)
	whole := n / page.BlockSize
	rs.stats.read.Add(int64(whole))
	if whole < len(buf)/page.BlockSize {
		return whole, pgerr.FromSentinel(ErrIO, err, "could not read block %d in file %q: read only %d of %d bytes",
			tag.Block+uint32(whole), ff.path, n-whole*page.BlockSize, page.BlockSize)
	}
	return whole, nil
}

// writeBlock pwrites one block.
func (p *Pool) writeBlock(rs *relState, tag Tag, buf []byte) error {
	ff, f, err := p.openFork(rs, tag.Fork, true)
	if err != nil {
		return err
	}
	err = fault.Check(fault.DataWrite, "write", ff.path)
	if err == nil {
		_, err = f.WriteAt(buf, int64(tag.Block)*page.BlockSize)
	}
	if err != nil {
		return pgerr.FromSentinel(ErrIO, err, "could not write block %d in file %q", tag.Block, ff.path)
	}
	rs.stats.written.Add(1)
	return nil
}

// TruncateRel drops the fork's buffers for blocks >= nblocks (without
// writing them) and truncates its file to nblocks blocks. The caller must
// make sure no one else uses those blocks (PostgreSQL holds
// AccessExclusiveLock); a buffer that stays pinned makes it fail.
func (p *Pool) TruncateRel(rel RelFileNode, fork Fork, nblocks uint32) error {
	if fork >= numForks {
		return pgerr.FromSentinel(ErrNoFile, nil, "invalid fork %d", fork)
	}
	if err := p.invalidate(func(t Tag) bool { return t.Rel == rel && t.Fork == fork && t.Block >= nblocks }); err != nil {
		return err
	}
	rs := p.relState(rel)
	ff := &rs.forks[fork]
	ff.mu.Lock()
	defer ff.mu.Unlock()
	f, err := p.openForkLocked(ff, false)
	if err != nil || f == nil {
		return err
	}
	if nblocks >= ff.nblocks.Load() {
		return nil
	}
	if err := f.Truncate(int64(nblocks) * page.BlockSize); err != nil {
		return pgerr.FromSentinel(ErrIO, err, "could not truncate file %q to %d blocks", ff.path, nblocks)
	}
	ff.nblocks.Store(nblocks)
	// Made durable now: the dropped buffers' newer contents never reached
	// the file, so a truncation undone by a crash after the next checkpoint
	// (which replay would no longer redo) would bring back stale pages.
	if err := f.Sync(); err != nil {
		return pgerr.FromSentinel(ErrIO, err, "could not fsync file %q", ff.path)
	}
	return nil
}

// DropRel drops all buffers of rel (without writing them), closes and
// unlinks all its fork files and forgets its counters. Missing files are not
// an error. The caller must make sure no one else uses the relation.
func (p *Pool) DropRel(rel RelFileNode) error {
	if err := p.invalidate(func(t Tag) bool { return t.Rel == rel }); err != nil {
		return err
	}
	p.rels.Lock()
	rs := p.rels.m[rel]
	delete(p.rels.m, rel)
	p.rels.Unlock()
	var first error
	for fork := Fork(0); fork < numForks; fork++ {
		if rs != nil {
			ff := &rs.forks[fork]
			ff.mu.Lock()
			if f := ff.f.Swap(nil); f != nil {
				f.Close()
			}
			ff.mu.Unlock()
		}
		if err := os.Remove(p.path(rel, fork)); err != nil && !errors.Is(err, fs.ErrNotExist) && first == nil {
			first = pgerr.FromSentinel(ErrIO, err, "could not remove file %q", p.path(rel, fork))
		}
	}
	return first
}

// Sync fsyncs every open fork file and the directory.
func (p *Pool) Sync() error {
	p.rels.RLock()
	all := make([]*relState, 0, len(p.rels.m))
	for _, rs := range p.rels.m {
		all = append(all, rs)
	}
	p.rels.RUnlock()
	for _, rs := range all {
		for i := range rs.forks {
			ff := &rs.forks[i]
			ff.mu.Lock()
			var err error
			if f := ff.f.Load(); f != nil {
				err = f.Sync()
			}
			ff.mu.Unlock()
			if err != nil {
				return pgerr.FromSentinel(ErrIO, err, "could not fsync file %q", ff.path)
			}
		}
	}
	d, err := os.Open(p.opts.Dir)
	if err != nil {
		return pgerr.FromSentinel(ErrIO, err, "could not open directory %q", p.opts.Dir)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return pgerr.FromSentinel(ErrIO, err, "could not fsync directory %q", p.opts.Dir)
	}
	return nil
}

// ExtensionLock returns rel's extension lock (one per relation).
func (p *Pool) ExtensionLock(rel RelFileNode) *ExtensionLock { return &p.relState(rel).ext }

// RelStats are per-relation I/O counters since the relation was first used
// by this pool.
type RelStats struct {
	BlocksRead     int64 // blocks read from disk (misses)
	BlocksWritten  int64 // blocks written (eviction, flush)
	BlocksDirtied  int64 // clean -> dirty transitions (MarkDirty)
	BlocksExtended int64 // blocks added by Extend
	Extensions     int64 // Extend calls
}

// Stats returns rel's counters (zero for an unknown relation).
func (p *Pool) Stats(rel RelFileNode) RelStats {
	p.rels.RLock()
	rs := p.rels.m[rel]
	p.rels.RUnlock()
	if rs == nil {
		return RelStats{}
	}
	return RelStats{
		BlocksRead:     rs.stats.read.Load(),
		BlocksWritten:  rs.stats.written.Load(),
		BlocksDirtied:  rs.stats.dirtied.Load(),
		BlocksExtended: rs.stats.extended.Load(),
		Extensions:     rs.stats.extensions.Load(),
	}
}

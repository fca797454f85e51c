package buffer

import (
	"sync"

	"minipg/storage/page"
)

// Buffer is one frame of the pool (a buffer descriptor plus its page). A
// *Buffer returned by ReadBuffer is pinned; it stays bound to its block until
// Release. After Release the caller must not use it.
//
// Lock order: content -> ioMu -> (mapping partitions) -> hdr.
type Buffer struct {
	pool *Pool
	id   int32
	data []byte // BlockSize bytes in Pool.arena

	content sync.RWMutex // the content lock: protects data and dirtiedUnderLock
	ioMu    sync.Mutex   // held while the page is being written (one writer at a time)

	// dirtiedUnderLock: the holder of the exclusive content lock turned the
	// page from clean to dirty (MarkDirty since Lock).
	dirtiedUnderLock bool

	// hdr is the buffer header (BufferDesc state and its spinlock).
	hdr struct {
		sync.Mutex               // protects the fields below
		tag        Tag           // the block held, when hasTag
		hasTag     bool          // tag is set and the frame is in the mapping table
		valid      bool          // data holds the block (false while reading it in)
		dirty      bool          // data differs from disk
		pins       int32         // refcount
		usage      uint8         // clock-sweep usage count, <= maxUsageCount
		ioDone     chan struct{} // closed when the read-in that set valid=false ends
		readAhead  bool          // read by a bulk read before anyone asked for it (loadRun)
		rs         *relState     // the relation's state (counters, files)
	}
}

// pinLocked adds a pin and bumps the usage count; hdr is held.
func (b *Buffer) pinLocked() {
	b.hdr.pins++
	if b.hdr.usage < maxUsageCount {
		b.hdr.usage++
	}
}

// Page returns the frame's BlockSize bytes. Read it only under RLock or
// Lock, change it only under Lock (and then call MarkDirty).
func (b *Buffer) Page() page.Page { return page.Page(b.data) }

// Tag returns the buffer's block identity. It needs no lock: a frame is
// retagged only when its pin count is zero, so it is stable while pinned.
func (b *Buffer) Tag() Tag { return b.hdr.tag }

// Block returns the block number. Valid while pinned.
func (b *Buffer) Block() uint32 { return b.hdr.tag.Block }

// Lock takes the content lock exclusively. The buffer must be pinned.
func (b *Buffer) Lock() {
	b.content.Lock()
	b.dirtiedUnderLock = false
}

// TryLock takes the content lock exclusively if nobody holds it, and
// reports whether it did (PostgreSQL's ConditionalLockBuffer). The buffer
// must be pinned.
func (b *Buffer) TryLock() bool {
	if !b.content.TryLock() {
		return false
	}
	b.dirtiedUnderLock = false
	return true
}

// DirtiedUnderLock reports whether the caller, holding the exclusive
// content lock, turned the page from clean to dirty since it took the lock
// (for the WAL's per-relation count of pages dirtied).
func (b *Buffer) DirtiedUnderLock() bool { return b.dirtiedUnderLock }

// Unlock releases the exclusive content lock.
func (b *Buffer) Unlock() { b.content.Unlock() }

// RLock takes the content lock shared. The buffer must be pinned.
func (b *Buffer) RLock() { b.content.RLock() }

// RUnlock releases the shared content lock.
func (b *Buffer) RUnlock() { b.content.RUnlock() }

// MarkDirty marks the page changed. The caller holds the exclusive content
// lock. The relation's BlocksDirtied counts clean -> dirty transitions.
func (b *Buffer) MarkDirty() { b.markDirty() }

// markDirty is MarkDirty, reporting whether the page was clean.
func (b *Buffer) markDirty() (dirtied bool) {
	b.hdr.Lock()
	if !b.hdr.valid || b.hdr.pins <= 0 {
		b.hdr.Unlock()
		panic("buffer: MarkDirty of a buffer that is not pinned and valid")
	}
	if !b.hdr.dirty {
		b.hdr.dirty = true
		b.hdr.rs.stats.dirtied.Add(1)
		b.dirtiedUnderLock = true
		dirtied = true
	}
	b.hdr.Unlock()
	return dirtied
}

// IsDirty reports whether the page differs from disk. The caller holds a
// pin; without the content lock the answer may be stale.
func (b *Buffer) IsDirty() bool {
	b.hdr.Lock()
	defer b.hdr.Unlock()
	return b.hdr.dirty
}

// Release unpins the buffer. The caller must not hold its content lock.
func (b *Buffer) Release() {
	b.hdr.Lock()
	b.hdr.pins--
	if b.hdr.pins < 0 {
		b.hdr.Unlock()
		panic("buffer: Release of a buffer that is not pinned")
	}
	b.hdr.Unlock()
}

// flush writes the page if it is dirty (FlushBuffer). The caller holds a
// pin and not the content lock. The content lock is held shared during the
// write so the page cannot change under it; ioMu makes a second flusher wait
// for the first to finish, so that "clean" always means "on disk" (in the OS).
// The WAL rule: Options.FlushWAL(pd_lsn) is called before the write.
func (b *Buffer) flush() (wrote bool, err error) {
	b.hdr.Lock()
	dirty := b.hdr.dirty
	b.hdr.Unlock()
	if !dirty {
		return false, nil
	}
	b.content.RLock()
	defer b.content.RUnlock()
	b.ioMu.Lock()
	defer b.ioMu.Unlock()
	b.hdr.Lock()
	if !b.hdr.dirty || !b.hdr.valid {
		b.hdr.Unlock()
		return false, nil
	}
	b.hdr.dirty = false
	tag, rs := b.hdr.tag, b.hdr.rs
	b.hdr.Unlock()

	if fw := b.pool.opts.FlushWAL; fw != nil {
		if lsn := page.LSN(b.data); lsn != 0 {
			err = fw(lsn)
		}
	}
	if err == nil {
		err = b.pool.writeBlock(rs, tag, b.data)
	}
	if err != nil {
		b.hdr.Lock()
		b.hdr.dirty = true
		b.hdr.Unlock()
		return false, err
	}
	return true, nil
}

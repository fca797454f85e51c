package buffer

import (
	"sync"

	"minipg/storage/page"
)

// RelFileNode names a relation's files: <Dir>/<n> (main fork) and <Dir>/<n>_fsm.
type RelFileNode uint32

// Fork is a relation fork number.
type Fork uint8

// Forks.
const (
	MainFork Fork = 0
	FSMFork  Fork = 1
)

// Tag identifies one block of one fork (BufferTag).
type Tag struct {
	Rel   RelFileNode
	Fork  Fork
	Block uint32
}

// Options configure a Pool.
type Options struct {
	Dir      string                 // <datadir>/base
	NBuffers int                    // frames (shared_buffers / 8192)
	FlushWAL func(lsn uint64) error // WAL rule: called before writing a page; nil = none
}

// RelStats are per-relation I/O counters.
type RelStats struct{ BlocksRead, BlocksWritten, BlocksDirtied, BlocksExtended, Extensions int64 }

// Pool is the shared buffer pool.
type Pool struct{ opts Options }

// Buffer is a pinned frame.
type Buffer struct {
	content sync.RWMutex
	tag     Tag
	data    []byte
}

// ExtensionLock is a relation's extension lock.
type ExtensionLock struct{}

func NewPool(opts Options) (*Pool, error)                              { panic("unimplemented") }
func (p *Pool) CreateRel(rel RelFileNode) error                        { panic("unimplemented") }
func (p *Pool) DropRel(rel RelFileNode) error                          { panic("unimplemented") }
func (p *Pool) TruncateRel(rel RelFileNode, fork Fork, n uint32) error { panic("unimplemented") }
func (p *Pool) Exists(rel RelFileNode, fork Fork) bool                 { panic("unimplemented") }
func (p *Pool) NBlocks(rel RelFileNode, fork Fork) (uint32, error)     { panic("unimplemented") }
func (p *Pool) ReadBuffer(rel RelFileNode, fork Fork, blk uint32) (*Buffer, error) {
	panic("unimplemented")
}
func (p *Pool) Extend(rel RelFileNode, fork Fork, n int) (uint32, error) { panic("unimplemented") }
func (p *Pool) ExtensionLock(rel RelFileNode) *ExtensionLock             { panic("unimplemented") }
func (p *Pool) FlushAll() error                                          { panic("unimplemented") }
func (p *Pool) FlushRel(rel RelFileNode) error                           { panic("unimplemented") }
func (p *Pool) Sync() error                                              { panic("unimplemented") }
func (p *Pool) Stats(rel RelFileNode) RelStats                           { panic("unimplemented") }
func (p *Pool) Close() error                                             { panic("unimplemented") }

func (l *ExtensionLock) Lock()        { panic("unimplemented") }
func (l *ExtensionLock) Unlock()      { panic("unimplemented") }
func (l *ExtensionLock) Waiters() int { panic("unimplemented") }

func (b *Buffer) Page() page.Page { return page.Page(b.data) }
func (b *Buffer) Tag() Tag        { return b.tag }
func (b *Buffer) Block() uint32   { return b.tag.Block }
func (b *Buffer) Lock()           { b.content.Lock() }
func (b *Buffer) Unlock()         { b.content.Unlock() }
func (b *Buffer) RLock()          { b.content.RLock() }
func (b *Buffer) RUnlock()        { b.content.RUnlock() }
func (b *Buffer) MarkDirty()      { panic("unimplemented") }
func (b *Buffer) Release()        { panic("unimplemented") }

package fsm

import (
	"sync"

	"minipg/reloptions"
	"minipg/storage/buffer"
)

// appendOnly is the "append" policy, the baseline of the experiment that
// disables the free space map: a tuple goes on the session's target block,
// else on the relation's last block, else on a new page at the end. It
// never reads or writes the map (the relation gets no FSM fork, VACUUM
// records nothing), so space freed by deletes, updates and VACUUM is never
// reused by an insert: only the same-page updates of the heap (HOT and
// otherwise) use it. It is kept to measure the other policies against, and
// to show how a table bloats without a map.
//
// Extension is the shared routine (extend.go): PostgreSQL 16's sizing,
// NumPages x (1 + waiters) at most 64 pages. The pages beyond the caller's
// cannot be published in a map, so the policy keeps them in a small
// in-memory range and hands them out, in block order, before falling back
// to the last block: a session that waited for the extension lock takes
// one instead of extending again. Like the map, the range is a hint: it is
// lost at restart, and a page in it that another session filled through
// the last-block rule is simply found too full.
type appendOnly struct {
	c counters

	mu struct {
		sync.Mutex
		// next .. end-1 are pages extended and not yet handed out.
		next, end uint32
	}
}

func init() {
	RegisterPolicy(PolicyDef{Name: "append", New: func(reloptions.Source) Policy { return NewAppend() }})
}

// NewAppend returns the append policy. It has no parameters of its own.
func NewAppend() Policy { return &appendOnly{} }

func (*appendOnly) Name() string { return "append" }

func (p *appendOnly) Stats() PolicyStats { return p.c.snapshot() }

func (p *appendOnly) Choose(m *Map, r Request) uint32 {
	if r.Target != InvalidBlock {
		p.c.targetTries.Add(1)
		return r.Target
	}
	return p.next(m, InvalidBlock)
}

func (p *appendOnly) Retry(m *Map, r Request, tried uint32, avail int) uint32 {
	p.c.retries.Add(1)
	if tried == r.Target {
		p.c.targetMisses.Add(1)
	}
	return p.next(m, tried)
}

// next is a page extended and not handed out yet, else the last block
// unless it is the one just tried, else InvalidBlock (extend).
func (p *appendOnly) next(m *Map, tried uint32) uint32 {
	if blk := p.takeExtended(); blk != InvalidBlock {
		return blk
	}
	n, err := m.pool.NBlocks(m.rel, buffer.MainFork)
	if err != nil || n == 0 || n-1 == tried {
		return InvalidBlock
	}
	p.c.lastBlockTries.Add(1)
	return n - 1
}

// takeExtended hands out the next extended page, or InvalidBlock.
func (p *appendOnly) takeExtended() uint32 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mu.next >= p.mu.end {
		return InvalidBlock
	}
	blk := p.mu.next
	p.mu.next++
	p.c.lastBlockTries.Add(1) // a page at the end, as the last block is
	return blk
}

func (p *appendOnly) Extend(m *Map, r Request) (uint32, error) {
	return extendRelation(m, r, &p.c, extension{
		recheck: func(before uint32) uint32 {
			if blk := p.takeExtended(); blk != InvalidBlock {
				return blk
			}
			// The session that held the lock added one page and is
			// filling it: try it, as the last block.
			if n, err := m.pool.NBlocks(m.rel, buffer.MainFork); err == nil && n > before {
				p.c.lastBlockTries.Add(1)
				return n - 1
			}
			return InvalidBlock
		},
		size: func(waiters int, _ uint32) int { return extendBy(r, waiters) },
		placed: func(first uint32, by int) uint32 {
			if by > 1 {
				p.mu.Lock()
				p.mu.next, p.mu.end = first+1, first+uint32(by)
				p.mu.Unlock()
			}
			return first
		},
	})
}

// RecordVacuumed records nothing: the policy has no map.
func (p *appendOnly) RecordVacuumed(*Map, uint32, int, int) error { return nil }

// BeginVacuum does nothing.
func (p *appendOnly) BeginVacuum(*Map) {}

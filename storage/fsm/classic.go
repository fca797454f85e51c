package fsm

import (
	"minipg/reloptions"
	"minipg/storage/buffer"
)

// classic is PostgreSQL's placement (hio.c RelationGetBufferForTuple): the
// session's target block first; when it is too full, record its real free
// space and take whatever page the FSM offers (from the next-slot hint
// onward); when the FSM knows nothing at all, try the relation's last page;
// then extend. Where the space comes from does not matter to it, only that
// the fillfactor is respected.
type classic struct {
	c counters
}

func init() {
	RegisterPolicy(PolicyDef{Name: "classic", New: func(reloptions.Source) Policy { return NewClassic() }})
}

// NewClassic returns the classic policy. It has no parameters of its own.
func NewClassic() Policy { return &classic{} }

func (*classic) Name() string { return "classic" }

func (p *classic) Stats() PolicyStats { return p.c.snapshot() }

// Choose tries the session's target block, unless the relation was
// invalidated since it was remembered (PostgreSQL's rd_targblock is lost with
// the relcache entry that VACUUM or DDL invalidates, in every backend); then
// it asks the map, whose next-slot hints VACUUM pointed back at the start.
func (p *classic) Choose(m *Map, r Request) uint32 {
	if r.Target != InvalidBlock && !r.Invalidated {
		p.c.targetTries.Add(1)
		return r.Target
	}
	if blk := m.GetPageWithFreeSpace(r.TargetFreeSpace()); blk != InvalidBlock {
		p.c.fsmAnswers.Add(1)
		return blk
	}
	// The FSM knows nothing suitable: try the last page before extending,
	// which avoids one tuple per page in a relation whose FSM is empty
	// (a new table, or one never vacuumed).
	if n, err := m.pool.NBlocks(m.rel, buffer.MainFork); err == nil && n > 0 {
		p.c.lastBlockTries.Add(1)
		return n - 1
	}
	return InvalidBlock
}

func (p *classic) Retry(m *Map, r Request, tried uint32, avail int) uint32 {
	p.c.retries.Add(1)
	if tried == r.Target {
		p.c.targetMisses.Add(1)
	}
	blk := m.RecordAndGetPageWithFreeSpace(tried, avail, r.TargetFreeSpace())
	if blk != InvalidBlock {
		p.c.fsmAnswers.Add(1)
	}
	return blk
}

func (p *classic) Extend(m *Map, r Request) (uint32, error) {
	return extend(m, r, &p.c)
}

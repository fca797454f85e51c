package fsm

import "minipg/storage/buffer"

// Small tables have no map: up to fsm_small_table_blocks blocks, as long
// as the table has no FSM fork, nothing is recorded, and a placement tries
// the old version's block (an update: the next one), the target or the
// last block, then every other block in turn, wrapping, then extends.

// maxSmallTableBlocks bounds fsm_small_table_blocks: the blocks of a
// small table are tried one by one.
const maxSmallTableBlocks = 64

// smallTable returns the relation's size and whether it is a small table
// without an FSM fork: up to fsm_small_table_blocks blocks, the map is not
// created (docs/DESIGN.md point 4, as PostgreSQL 12's development tree once
// did). Reading the fork would cost more than trying the few blocks. The
// answer is kept for Fit (smallNow).
func (p *locality) smallTable(m *Map) (uint32, bool) {
	n, err := m.pool.NBlocks(m.rel, buffer.MainFork)
	small := false
	if err == nil && n <= uint32(p.small.Load()) {
		f, err := m.pool.NBlocks(m.rel, buffer.FSMFork)
		small = err == nil && f == 0
	}
	if p.smallNow.Load() != small {
		p.smallNow.Store(small)
	}
	return n, small
}

// smallStart is where a placement in a small table starts: the old
// version's block, the target, or the last block.
func smallStart(r Request, n uint32) uint32 {
	switch {
	case r.OldBlock != InvalidBlock && r.OldBlock < n:
		return r.OldBlock
	case r.Target != InvalidBlock && r.Target < n:
		return r.Target
	}
	return n - 1
}

// smallChoose is Choose in a small table of n blocks.
func (p *locality) smallChoose(r Request, n uint32) uint32 {
	if n == 0 {
		return InvalidBlock
	}
	start := smallStart(r, n)
	if start == r.Target {
		p.c.targetTries.Add(1)
	} else {
		p.c.lastBlockTries.Add(1)
	}
	if start == r.OldBlock {
		// The old version's page is known to be too full.
		return p.smallNext(r, n, start)
	}
	return start
}

// smallNext is the block to try after tried in a small table: the next
// one, wrapping, until the round is back where it started (then extend).
func (p *locality) smallNext(r Request, n, tried uint32) uint32 {
	if n == 0 {
		return InvalidBlock
	}
	next := (tried + 1) % n
	if next == smallStart(r, n) {
		return InvalidBlock
	}
	p.c.lastBlockTries.Add(1)
	return next
}

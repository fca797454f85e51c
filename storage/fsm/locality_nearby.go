package fsm

// The locality policy's searches: nearby (the open page with room nearest
// to a block, within fsm_nearby_window, read from the bottom-level leaves
// by Map.searchNear) and far (anywhere, from the root), each counted.

// nearby is the nearest open page with room within the window around ref.
func (p *locality) nearby(m *Map, r Request, ref uint32) uint32 {
	cat, ok := NeededToCategory(r.TargetFreeSpace())
	if !ok {
		return InvalidBlock
	}
	blk := m.searchNear(ref, int(p.window.Load()), cat)
	if blk != InvalidBlock {
		p.l.nearbyAnswers.Add(1)
		p.c.fsmAnswers.Add(1)
		p.remember(blk, kindNearby)
	}
	return blk
}

// far is any page with room, from the root of the FSM.
func (p *locality) far(m *Map, r Request) uint32 {
	blk := m.GetPageWithFreeSpace(r.TargetFreeSpace())
	if blk != InvalidBlock {
		p.l.farAnswers.Add(1)
		p.c.fsmAnswers.Add(1)
		p.remember(blk, kindFar)
	}
	return blk
}

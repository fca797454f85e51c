package fsm

// Sticky closing: a page left at or past the reopen threshold is recorded
// as full, and VACUUM reopens it only once it has emptied below the
// threshold.

// closed reports whether a page with avail bytes free (HeapFreeSpace) is at
// or past the reopen threshold: its used space is at least reopenPct of the
// space an insert may fill on an empty page.
func (p *locality) closed(avail, saveFree int) bool {
	capacity := EmptyPageFree - saveFree
	if capacity <= 0 {
		return true
	}
	used := EmptyPageFree - avail
	return used*100 >= capacity*int(p.reopenPct.Load())
}

// record writes what the FSM should advertise for blk: 0 for a closed page.
func (p *locality) record(m *Map, blk uint32, rec int, closed bool) {
	if closed {
		p.l.closedPages.Add(1)
		p.notePage(blk, pageClosed)
	} else {
		p.notePage(blk, pageOpen)
	}
	_ = m.RecordPageWithFreeSpace(blk, rec)
}

// BeginVacuum notes where the reservations stand as a VACUUM begins.
func (p *locality) BeginVacuum(m *Map) {
	p.mu.Lock()
	p.mu.vacuumSeq = p.mu.seq
	p.mu.Unlock()
}

// RecordVacuumed is what VACUUM advertises: nothing for a page a session is
// filling or has reserved, 0 for a page at or past the reopen threshold
// (closed), else its real free space. A page the FSM showed as having no
// room that is now open counts as reopened. An entry whose run has not
// moved since the VACUUM began is taken to belong to a session that went
// away (the end of a load): its page is recorded like any other and its
// reserved pages are published as empty, so that they are not lost until
// the next restart.
func (p *locality) RecordVacuumed(m *Map, blk uint32, avail, saveFree int) error {
	if _, small := p.smallTable(m); small {
		return nil // inserts try every block of a small table
	}
	busy, loaded := p.vacuumRun(m, blk)
	if busy {
		return nil
	}
	if avail >= EmptyPageFree {
		// A new page (extended, never used, or given back above).
		p.notePage(blk, pageOpen)
		return m.RecordPageWithFreeSpace(blk, avail)
	}
	if p.closed(avail, saveFree) {
		p.notePage(blk, pageClosed)
		return m.RecordPageWithFreeSpace(blk, 0)
	}
	if avail > 0 && m.GetRecordedFreeSpace(blk) == 0 && AvailToCategory(avail) > 0 {
		p.l.reopenedPages.Add(1)
		if !loaded {
			// (The page of a session that went away was never closed: it
			// is open, though the counter counts it.)
			p.notePage(blk, pageReopened)
		}
	} else {
		p.notePage(blk, pageOpen)
	}
	return m.RecordPageWithFreeSpace(blk, avail)
}

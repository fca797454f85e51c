package buffer

// Usage counts one backend's accesses to shared buffers, as PostgreSQL's
// BufferUsage (pgBufferUsage) counts shared_blks_hit, _read, _dirtied and
// _written, for EXPLAIN (ANALYZE, BUFFERS): the executor keeps one per
// session, hands it to the storage calls its statements make (heap.Snapshot,
// heap.InsertState) and reads the difference across each plan node's work.
//
//   - Hit: a ReadBufferUsage that found the block in the pool.
//   - Read: one that read the block from its file.
//   - Dirtied: MarkDirtyUsage turning a clean page dirty (a change or a
//     hint bit, as MarkBufferDirty and MarkBufferDirtyHint count).
//   - Written: a dirty victim the read wrote out to take its frame, and a
//     block the backend added to the relation (PostgreSQL 15 counts an
//     extension as a block written, not as a hit or a read).
//
// A Usage is not synchronized: it must be used by one goroutine at a time
// (the session's). A nil *Usage counts nothing.
type Usage struct {
	Hit, Read, Dirtied, Written int64
}

// Sub returns u - v, the accesses made since v was taken from u.
func (u Usage) Sub(v Usage) Usage {
	return Usage{Hit: u.Hit - v.Hit, Read: u.Read - v.Read, Dirtied: u.Dirtied - v.Dirtied, Written: u.Written - v.Written}
}

// Add adds v to u.
func (u *Usage) Add(v Usage) {
	u.Hit += v.Hit
	u.Read += v.Read
	u.Dirtied += v.Dirtied
	u.Written += v.Written
}

// IsZero reports whether nothing was counted.
func (u Usage) IsZero() bool { return u == Usage{} }

// ReadBufferUsage is ReadBuffer that counts the access in u (nil: not
// counted): a hit, or a read plus a write when the frame it took held a
// dirty page.
func (p *Pool) ReadBufferUsage(rel RelFileNode, fork Fork, blk uint32, u *Usage) (*Buffer, error) {
	return p.ReadBufferUsageStrategy(rel, fork, blk, nil, u)
}

// count adds one ReadBuffer to u (nil: nothing): a hit, or a read plus a
// write when the frame it took held a dirty page.
func (u *Usage) count(hit, wrote bool, err error) {
	if u == nil {
		return
	}
	if err == nil {
		if hit {
			u.Hit++
		} else {
			u.Read++
		}
	}
	if wrote {
		u.Written++
	}
}

// MarkDirtyUsage is MarkDirty that counts a clean -> dirty transition in u
// (nil: not counted).
func (b *Buffer) MarkDirtyUsage(u *Usage) {
	if b.markDirty() && u != nil {
		u.Dirtied++
	}
}

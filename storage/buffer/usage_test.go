package buffer

import "testing"

// TestUsage: ReadBufferUsage counts a block found in the pool as a hit and
// one read from its file as a read, plus a write when the frame it took
// held a dirty page; MarkDirtyUsage counts only a clean page turned dirty;
// a nil *Usage counts nothing and ReadBuffer counts in no Usage.
func TestUsage(t *testing.T) {
	p := newTestPool(t, minBuffers, nil)
	const rel = RelFileNode(16400)
	if err := p.CreateRel(rel); err != nil {
		t.Fatal(err)
	}
	const nblocks = 2 * minBuffers
	extendOnDisk(t, p, rel, MainFork, nblocks)

	var u Usage
	read := func(blk uint32, dirty bool) {
		t.Helper()
		b, err := p.ReadBufferUsage(rel, MainFork, blk, &u)
		if err != nil {
			t.Fatal(err)
		}
		if dirty {
			b.Lock()
			initTestPage(b.Page(), blk, 1)
			b.MarkDirtyUsage(&u)
			b.MarkDirtyUsage(&u) // already dirty: not counted again
			b.Unlock()
		}
		b.Release()
	}
	// The first pass reads every block from disk and dirties each: the
	// pool holds half of them, so the second half evicts dirty pages of
	// the first.
	for blk := uint32(0); blk < nblocks; blk++ {
		read(blk, true)
	}
	if u.Read != nblocks || u.Hit != 0 || u.Dirtied != nblocks {
		t.Fatalf("first pass: %+v, want %d reads and dirtied, no hit", u, nblocks)
	}
	if u.Written < nblocks-minBuffers {
		t.Fatalf("first pass wrote %d dirty victims, want at least %d", u.Written, nblocks-minBuffers)
	}
	// The last block is in the pool now: a hit, nothing else.
	before := u
	read(nblocks-1, false)
	if d := u.Sub(before); d != (Usage{Hit: 1}) {
		t.Fatalf("re-read of a resident block counted %+v, want one hit", d)
	}
	// Not counted: a nil Usage, and the plain ReadBuffer.
	before = u
	b, err := p.ReadBufferUsage(rel, MainFork, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.Lock()
	b.MarkDirtyUsage(nil)
	b.Unlock()
	b.Release()
	b = mustRead(t, p, rel, 1)
	b.Release()
	if u != before {
		t.Fatalf("uncounted accesses changed the usage: %+v -> %+v", before, u)
	}
	if !(Usage{}).IsZero() || u.IsZero() {
		t.Fatal("IsZero")
	}
}

package buffer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"minipg/storage/page"
)

// residentBlocks counts the blocks of rel held in the pool.
func residentBlocks(p *Pool, rel RelFileNode) int {
	n := 0
	for i := range p.frames {
		b := &p.frames[i]
		b.hdr.Lock()
		if b.hdr.hasTag && b.hdr.tag.Rel == rel {
			n++
		}
		b.hdr.Unlock()
	}
	return n
}

// scanWith reads blocks [0, n) of rel once each through s, changing every
// one of them when dirty is set, as a VACUUM that prunes every page does.
func scanWith(t *testing.T, p *Pool, rel RelFileNode, n uint32, s *Strategy, dirty bool) {
	t.Helper()
	for blk := range n {
		b, _, err := p.ReadBufferStrategy(rel, MainFork, blk, s)
		if err != nil {
			t.Fatal(err)
		}
		if dirty {
			b.Lock()
			initTestPage(b.Page(), blk, 7)
			b.MarkDirty()
			b.Unlock()
		}
		b.Release()
	}
}

// TestStrategyRingKeepsHotPages: a scan of a table four times the pool's
// size through a ring leaves the pages others use in the pool and holds no
// more of the scanned table than the ring; the same scan without one
// evicts them all. Pages the scan changed reach the file before their frame
// is reused.
func TestStrategyRingKeepsHotPages(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ring  bool
		dirty bool
	}{{"default", false, false}, {"ring", true, false}, {"ring dirtying", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			const nbuf, hot, bulk = 128, 40, 512
			p := newTestPool(t, nbuf, nil)
			const hotRel, bulkRel = 1, 2
			extendOnDisk(t, p, hotRel, MainFork, hot)
			extendOnDisk(t, p, bulkRel, MainFork, bulk)
			for range 3 { // the foreground's pages: usage count 3
				for blk := range uint32(hot) {
					mustRead(t, p, hotRel, blk).Release()
				}
			}
			var s *Strategy
			if tc.ring {
				s = p.NewStrategy(RingBlocks)
				if s.Size() != nbuf/8 {
					t.Fatalf("ring of %d frames in a pool of %d, want %d", s.Size(), nbuf, nbuf/8)
				}
			}
			scanWith(t, p, bulkRel, bulk, s, tc.dirty)
			hotLeft, bulkLeft := residentBlocks(p, hotRel), residentBlocks(p, bulkRel)
			if !tc.ring {
				if hotLeft != 0 {
					t.Fatalf("without a ring %d hot pages survived a scan of %d blocks", hotLeft, bulk)
				}
				return
			}
			if hotLeft != hot {
				t.Fatalf("%d of %d hot pages survived a scan through a ring", hotLeft, hot)
			}
			// The free list holds nbuf-hot frames at first: the ring
			// takes its first frames there, and keeps to them.
			if bulkLeft != s.Size() {
				t.Fatalf("%d scanned pages in the pool, want the ring's %d", bulkLeft, s.Size())
			}
			if want := int64(bulk - s.Size()); s.Reused() != want {
				t.Fatalf("%d reads reused a ring frame, want %d", s.Reused(), want)
			}
			if tc.dirty {
				if err := p.FlushAll(); err != nil {
					t.Fatal(err)
				}
				// Evicted or not, every page the scan changed is the
				// changed one.
				for blk := range uint32(bulk) {
					if c := readCounter(t, p, bulkRel, blk); c != 7 {
						t.Fatalf("block %d counter %d after the scan", blk, c)
					}
				}
			}
		})
	}
}

// TestStrategyHitKeepsUsage: a page found in the pool keeps its usage
// count when a strategy pins it (a page at 0 goes to 1), and a ring frame
// someone else pinned or used since is not taken: the clock sweep gives a
// frame instead, which joins the ring.
func TestStrategyHitKeepsUsage(t *testing.T) {
	p := newTestPool(t, 64, nil)
	const rel = 1
	mustExtend(t, p, rel, MainFork, 8)
	usage := func(blk uint32) uint8 {
		t.Helper()
		b := p.ResidentBuffer(rel, MainFork, blk)
		if b == nil {
			t.Fatalf("block %d not resident", blk)
		}
		b.hdr.Lock()
		u := b.hdr.usage
		b.hdr.Unlock()
		// ResidentBuffer's own pin raised it by one.
		b.hdr.Lock()
		b.hdr.usage--
		b.hdr.Unlock()
		b.Release()
		return u - 1
	}
	mustRead(t, p, rel, 0).Release()
	mustRead(t, p, rel, 0).Release()
	before := usage(0)
	s := p.NewStrategy(2)
	for range 5 {
		b, hit, err := p.ReadBufferStrategy(rel, MainFork, 0, s)
		if err != nil || !hit {
			t.Fatalf("hit %v err %v", hit, err)
		}
		b.Release()
	}
	if after := usage(0); after != before {
		t.Fatalf("usage count %d after strategy pins, was %d", after, before)
	}

	// Two pages into a ring of two, then the first one pinned by another
	// backend: the third read must not take its frame.
	other := p.NewStrategy(2)
	extendOnDisk(t, p, rel, MainFork, 3)
	for blk := uint32(8); blk < 10; blk++ {
		b, _, err := p.ReadBufferStrategy(rel, MainFork, blk, other)
		if err != nil {
			t.Fatal(err)
		}
		b.Release()
	}
	// Pinned through a strategy of its own: usage count still 1.
	held, _, err := p.ReadBufferStrategy(rel, MainFork, 8, p.NewStrategy(1))
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := p.ReadBufferStrategy(rel, MainFork, 10, other)
	if err != nil {
		t.Fatal(err)
	}
	if b == held || other.Reused() != 0 {
		t.Fatalf("the ring reused a pinned frame (reused %d)", other.Reused())
	}
	if held.Block() != 8 {
		t.Fatalf("pinned frame now holds block %d", held.Block())
	}
	b.Release()
	held.Release()
	if err := p.Check(false); err != nil {
		t.Fatal(err)
	}
}

// A bulk-read ring gives up a frame the scan left dirty while its WAL is
// not durable (the frame stays in the pool, unwritten, and the slot takes
// a frame from the clock sweep), and writes and reuses one whose WAL is.
func TestBulkReadRingRejectsUnflushed(t *testing.T) {
	p := newTestPool(t, 64, nil)
	var flushed uint64 = 50
	p.opts.WALFlushed = func() uint64 { return flushed }
	const rel = 1
	extendOnDisk(t, p, rel, MainFork, 8)
	s := p.NewBulkReadStrategy(4)
	s.readAhead = 0 // one block per miss: each read takes the next slot
	read := func(blk uint32, lsn uint64) {
		t.Helper()
		b, _, err := p.ReadBufferStrategy(rel, MainFork, blk, s)
		if err != nil {
			t.Fatal(err)
		}
		if lsn != 0 {
			b.Lock()
			initTestPage(b.Page(), blk, 1)
			setTestLSN(b.Page(), lsn)
			b.MarkDirty()
			b.Unlock()
		}
		b.Release()
	}
	for blk := range uint32(4) {
		read(blk, 100)
	}
	read(4, 0) // slot 0: block 0, dirty at LSN 100 > 50
	if s.Reused() != 0 || p.Stats(rel).BlocksWritten != 0 {
		t.Fatalf("reused %d, written %d: a frame waiting for the WAL was taken", s.Reused(), p.Stats(rel).BlocksWritten)
	}
	if b := p.ResidentBuffer(rel, MainFork, 0); b == nil || !b.IsDirty() {
		t.Fatal("block 0 left the pool or was written")
	} else {
		b.Release()
	}
	flushed = 200
	for blk := uint32(5); blk < 8; blk++ { // slots 1-3: blocks 1-3, LSN 100 <= 200
		read(blk, 0)
	}
	if s.Reused() != 3 || p.Stats(rel).BlocksWritten != 3 {
		t.Fatalf("reused %d, written %d, want 3 and 3", s.Reused(), p.Stats(rel).BlocksWritten)
	}
	for blk := uint32(1); blk < 4; blk++ {
		if c := readCounter(t, p, rel, blk); c != 1 {
			t.Fatalf("block %d counter %d", blk, c)
		}
	}
}

// inMapping reports whether block blk of rel has a frame, without pinning
// it (a pin would change its usage count).
func inMapping(p *Pool, rel RelFileNode, blk uint32) bool {
	tag := Tag{Rel: rel, Fork: MainFork, Block: blk}
	part := &p.mapping[partitionOf(tag)]
	part.Lock()
	defer part.Unlock()
	_, ok := part.m[tag]
	return ok
}

// TestBulkReadAhead: a bulk read's miss reads the next blocks with it, up
// to the read-ahead, the first block already in the pool and the end of
// the file; every block comes back with its own contents; each is counted
// once, as a read, as without read-ahead; a corrupt block inside a run
// fails only when it is asked for, and the blocks after it are unharmed;
// a corrupt first block fails its run, whose other blocks are read anew.
func TestBulkReadAhead(t *testing.T) {
	p := newTestPool(t, 256, nil)
	// Block 16 is the first of the second run, 50 inside the run from 41.
	const rel, n, corruptFirst, corrupt, resident = 5, 100, 16, 50, 40
	mustExtend(t, p, rel, MainFork, n)
	for blk := range uint32(n) {
		writeTestBlock(t, p, rel, blk, uint64(blk)*3, 0)
	}
	if err := p.FlushAll(); err != nil {
		t.Fatal(err)
	}
	if err := p.invalidate(func(tg Tag) bool { return tg.Rel == rel }); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(p.opts.Dir, "5"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	garbage := make([]byte, page.BlockSize)
	for i := range garbage {
		garbage[i] = 0xA5
	}
	for _, blk := range []int64{corruptFirst, corrupt} {
		if _, err := f.WriteAt(garbage, blk*page.BlockSize); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	mustRead(t, p, rel, resident).Release()

	s := p.NewBulkReadStrategy(RingBlocks)
	if s.readAhead != maxReadAhead {
		t.Fatalf("read-ahead %d with a ring of %d, want %d", s.readAhead, s.Size(), maxReadAhead)
	}
	var u Usage
	for blk := range uint32(n) {
		b, err := p.ReadBufferUsageStrategy(rel, MainFork, blk, s, &u)
		if blk == corrupt || blk == corruptFirst {
			if !errors.Is(err, ErrCorruptPage) {
				t.Fatalf("block %d: %v, want a corrupt page", blk, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("block %d: %v", blk, err)
		}
		b.RLock()
		got, c := testPayload(b.Page())
		b.RUnlock()
		b.Release()
		if got != blk || c != uint64(blk)*3 {
			t.Fatalf("block %d holds block %d's page (counter %d)", blk, got, c)
		}
		switch blk {
		case 0:
			for ahead := uint32(1); ahead < n; ahead++ {
				if in, want := inMapping(p, rel, ahead), ahead < maxReadAhead || ahead == resident; in != want {
					t.Fatalf("after reading block 0, block %d in the pool: %v", ahead, in)
				}
			}
		case 33: // the run stops before the block already in the pool
			if !inMapping(p, rel, resident-1) || inMapping(p, rel, resident+1) {
				t.Fatal("the run from block 33 did not stop at the resident block")
			}
		case 89: // and at the end of the file
			if !inMapping(p, rel, n-1) {
				t.Fatal("the run from block 89 did not reach the last block")
			}
		}
	}
	if u.Read != n-3 || u.Hit != 1 {
		t.Fatalf("usage read %d hit %d, want %d and 1", u.Read, u.Hit, n-3)
	}
	if err := p.Check(false); err != nil {
		t.Fatal(err)
	}
}

// TestBulkReadAheadConcurrent: scans reading ahead through rings of their
// own, and readers of single blocks, all at once over a table larger than
// the pool: every block read holds its own page, and the pool stays
// consistent.
func TestBulkReadAheadConcurrent(t *testing.T) {
	p := newTestPool(t, 64, nil)
	const rel, n = 9, 300
	mustExtend(t, p, rel, MainFork, n)
	for blk := range uint32(n) {
		writeTestBlock(t, p, rel, blk, uint64(blk)+1, 0)
	}
	if err := p.FlushAll(); err != nil {
		t.Fatal(err)
	}
	// read reads blk through s (nil: a single block) and checks its page.
	read := func(blk uint32, s *Strategy) error {
		b, _, err := p.ReadBufferStrategy(rel, MainFork, blk, s)
		if err != nil {
			return err
		}
		b.RLock()
		got, c := testPayload(b.Page())
		b.RUnlock()
		b.Release()
		if got != blk || c != uint64(blk)+1 {
			return fmt.Errorf("block %d holds block %d's page (counter %d)", blk, got, c)
		}
		return nil
	}
	errs := make(chan error, 6)
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for pass := range 3 {
				var s *Strategy
				step, from := uint32(7), uint32(g) // single blocks, scattered
				if g < 4 {                         // a scan, from a different block each pass
					s, step, from = p.NewBulkReadStrategy(RingBlocks), 1, uint32(g*37+pass*11)
				}
				for i := range uint32(n) {
					if err := read((i*step+from)%n, s); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := p.Check(false); err != nil {
		t.Fatal(err)
	}
}

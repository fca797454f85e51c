package buffer

import (
	"os"
	"runtime"
	"sync"
	"testing"

	"minipg/storage/page"
)

// Extend puts the new pages in the pool (up to 1/16 of it): the first
// ReadBuffer of each is a hit on an all-zero page, not a read.
func TestExtendInstallsFrames(t *testing.T) {
	p := newTestPool(t, 256, nil)
	const rel = 41
	writeTestBlock(t, p, rel, mustExtend(t, p, rel, MainFork, 1), 7, 0)
	first := mustExtend(t, p, rel, MainFork, 10)
	if first != 1 {
		t.Fatalf("first %d", first)
	}
	if err := p.Check(false); err != nil {
		t.Fatal(err)
	}
	for blk := first; blk < first+10; blk++ {
		b := mustRead(t, p, rel, blk)
		b.RLock()
		if !page.IsNew(b.Page()) || page.Upper(b.Page()) != 0 {
			t.Fatalf("block %d not a new page", blk)
		}
		for _, c := range b.Page() {
			if c != 0 {
				t.Fatalf("block %d: frame not zeroed", blk)
			}
		}
		b.RUnlock()
		b.Release()
	}
	if st := p.Stats(rel); st.BlocksRead != 0 || st.BlocksWritten != 0 {
		t.Fatalf("stats %+v: extended blocks were read or written", st)
	}
	if got := readCounter(t, p, rel, 0); got != 7 {
		t.Fatalf("block 0 counter %d", got)
	}
	// More than 1/16 of the pool: the rest is read from the file.
	first = mustExtend(t, p, rel, MainFork, 40)
	for blk := first; blk < first+40; blk++ {
		mustRead(t, p, rel, blk).Release()
	}
	if st := p.Stats(rel); st.BlocksRead != 40-16 {
		t.Fatalf("BlocksRead %d, want %d", st.BlocksRead, 40-16)
	}
	if err := p.Check(false); err != nil {
		t.Fatal(err)
	}
}

// A frame reused for an extended page is written out first if dirty, and
// a page installed by Extend that is then changed survives eviction.
func TestExtendInstallEvictsDirty(t *testing.T) {
	p := newTestPool(t, 16, nil)
	const rel = 42
	mustExtend(t, p, rel, MainFork, 4)
	for blk := uint32(0); blk < 4; blk++ {
		writeTestBlock(t, p, rel, blk, uint64(100+blk), 0)
	}
	for range 20 { // 80 blocks through a 16-frame pool, 4 at a time
		first := mustExtend(t, p, rel, MainFork, 4)
		for blk := first; blk < first+4; blk++ {
			writeTestBlock(t, p, rel, blk, uint64(100+blk), 0)
		}
	}
	n, _ := p.NBlocks(rel, MainFork)
	for blk := uint32(0); blk < n; blk++ {
		if got := readCounter(t, p, rel, blk); got != uint64(100+blk) {
			t.Fatalf("block %d counter %d", blk, got)
		}
	}
	if st := p.Stats(rel); st.BlocksWritten == 0 {
		t.Fatalf("stats %+v: no dirty frame written before reuse", st)
	}
	if err := p.Check(false); err != nil {
		t.Fatal(err)
	}
}

// Concurrent extenders (under the extension lock) each initialize their new
// pages; each finds its pages new (no one else had them) and every page
// ends up with its own contents.
func TestExtendInstallConcurrent(t *testing.T) {
	p := newTestPool(t, 64, nil)
	const rel, ng, per = 43, 6, 30
	lock := p.ExtensionLock(rel)
	var wg sync.WaitGroup
	for g := 0; g < ng; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				n := 1 + (g+i)%3
				lock.Lock()
				first, err := p.Extend(rel, MainFork, n)
				lock.Unlock()
				if err != nil {
					t.Error(err)
					return
				}
				for blk := first; blk < first+uint32(n); blk++ {
					b, err := p.ReadBuffer(rel, MainFork, blk)
					if err != nil {
						t.Error(err)
						return
					}
					b.Lock()
					if !page.IsNew(b.Page()) {
						t.Errorf("block %d already initialized", blk)
					}
					initTestPage(b.Page(), blk, uint64(g))
					b.MarkDirty()
					b.Unlock()
					b.Release()
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if err := p.Check(false); err != nil {
		t.Fatal(err)
	}
	if err := p.FlushAll(); err != nil {
		t.Fatal(err)
	}
	n, _ := p.NBlocks(rel, MainFork)
	for blk := uint32(0); blk < n; blk++ {
		b := mustRead(t, p, rel, blk)
		b.RLock()
		if got, _ := testPayload(b.Page()); got != blk {
			t.Errorf("block %d holds block %d", blk, got)
		}
		b.RUnlock()
		b.Release()
	}
}

// The frames' memory is not on the Go heap (except in race builds): a big
// pool adds next to nothing to HeapAlloc, and it works like any other.
func TestArenaOutsideGoHeap(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p := newTestPool(t, 8192, nil) // 64 MiB
	runtime.ReadMemStats(&after)
	if !raceEnabled && after.HeapAlloc > before.HeapAlloc+32<<20 {
		t.Fatalf("pool of 64 MiB grew the Go heap by %d bytes", after.HeapAlloc-before.HeapAlloc)
	}
	const rel = 51
	mustExtend(t, p, rel, MainFork, 100)
	for blk := uint32(0); blk < 100; blk++ {
		writeTestBlock(t, p, rel, blk, uint64(blk)*3, 0)
	}
	for blk := uint32(0); blk < 100; blk++ {
		if got := readCounter(t, p, rel, blk); got != uint64(blk)*3 {
			t.Fatalf("block %d counter %d", blk, got)
		}
	}
}

// Extenders of different relations at once, on a small pool, do not pin
// every frame between them: readers keep getting buffers.
func TestExtendManyRelationsSmallPool(t *testing.T) {
	p := newTestPool(t, 32, nil)
	const ng, per = 8, 20
	var wg sync.WaitGroup
	for g := 0; g < ng; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rel := RelFileNode(60 + g)
			for i := 0; i < per; i++ {
				first, err := p.Extend(rel, MainFork, 64)
				if err != nil {
					t.Error(err)
					return
				}
				b, err := p.ReadBuffer(rel, MainFork, first+uint32(i))
				if err != nil {
					t.Error(err)
					return
				}
				b.Lock()
				initTestPage(b.Page(), first+uint32(i), uint64(g))
				b.MarkDirty()
				b.Unlock()
				b.Release()
			}
		}()
	}
	wg.Wait()
	if err := p.Check(false); err != nil {
		t.Fatal(err)
	}
}

// TestExtendLargeIsZeroOnDisk: an extension big enough to use fallocate
// leaves the file at the new size with all-zero pages, and pages written
// before it keep their contents.
func TestExtendLargeIsZeroOnDisk(t *testing.T) {
	p := newTestPool(t, 64, nil)
	rel := RelFileNode(77)
	mustExtend(t, p, rel, MainFork, 1)
	writeTestBlock(t, p, rel, 0, 7, 0)
	if err := p.FlushRel(rel); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{fallocateMinBlocks - 1, fallocateMinBlocks, 40} {
		first := extendOnDisk(t, p, rel, MainFork, n)
		st, err := os.Stat(p.path(rel, MainFork))
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(first+uint32(n)) * page.BlockSize; st.Size() != want {
			t.Fatalf("extend by %d: file is %d bytes, want %d", n, st.Size(), want)
		}
		for blk := first; blk < first+uint32(n); blk++ {
			b := mustRead(t, p, rel, blk)
			b.RLock()
			if !page.IsNew(b.Page()) || b.Page()[page.BlockSize-1] != 0 {
				t.Fatalf("block %d after extend by %d is not a zero page", blk, n)
			}
			b.RUnlock()
			b.Release()
		}
	}
	b := mustRead(t, p, rel, 0)
	defer b.Release()
	b.RLock()
	defer b.RUnlock()
	if blk, counter := testPayload(b.Page()); blk != 0 || counter != 7 {
		t.Fatalf("block 0 holds (%d, %d), want (0, 7)", blk, counter)
	}
}

// TestDroppedFramesReused: the frames of a dropped relation go back on the
// free list and are the next ones used, before frames never touched.
func TestDroppedFramesReused(t *testing.T) {
	p := newTestPool(t, 64, nil)
	a, b := RelFileNode(81), RelFileNode(82)
	mustExtend(t, p, a, MainFork, 10)
	used := map[int32]bool{}
	for blk := uint32(0); blk < 10; blk++ {
		buf := mustRead(t, p, a, blk)
		used[buf.id] = true
		buf.Release()
	}
	if err := p.DropRel(a); err != nil {
		t.Fatal(err)
	}
	mustExtend(t, p, b, MainFork, 10)
	for blk := uint32(0); blk < 10; blk++ {
		buf := mustRead(t, p, b, blk)
		if !used[buf.id] {
			t.Errorf("block %d of the new relation is in frame %d, not one of the dropped relation's %v", blk, buf.id, used)
		}
		buf.Release()
	}
}

// A fork found missing is remembered as missing (no open(2) per NBlocks)
// until the pool creates it, by CreateFork or by extending it, and again
// after the relation is dropped.
func TestAbsentForkRemembered(t *testing.T) {
	p, err := NewPool(Options{Dir: t.TempDir(), NBuffers: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	const rel = 77
	if err := p.CreateRel(rel); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if n, err := p.NBlocks(rel, FSMFork); n != 0 || err != nil {
			t.Fatalf("missing FSM fork: %d blocks, %v", n, err)
		}
	}
	if !p.relState(rel).forks[FSMFork].absent.Load() {
		t.Fatal("a missing fork is not remembered")
	}
	mustExtend(t, p, rel, FSMFork, 2)
	if n, err := p.NBlocks(rel, FSMFork); n != 2 || err != nil {
		t.Fatalf("FSM fork after extending it: %d blocks, %v", n, err)
	}
	if !p.Exists(rel, FSMFork) {
		t.Fatal("extended fork does not exist")
	}
	if err := p.DropRel(rel); err != nil {
		t.Fatal(err)
	}
	if n, err := p.NBlocks(rel, FSMFork); n != 0 || err != nil {
		t.Fatalf("dropped FSM fork: %d blocks, %v", n, err)
	}
	if err := p.CreateFork(rel, FSMFork); err != nil {
		t.Fatal(err)
	}
	mustExtend(t, p, rel, FSMFork, 1)
	if n, err := p.NBlocks(rel, FSMFork); n != 1 || err != nil {
		t.Fatalf("re-created FSM fork: %d blocks, %v", n, err)
	}
}

// ExtendTo creates an absent fork, adds only the pages missing up to the
// size asked for, and adds them once when several callers race for the
// same size (the FSM and visibility map forks, which no extension lock
// guards).
func TestExtendTo(t *testing.T) {
	p := newTestPool(t, 64, nil)
	const rel = 44
	if n, err := p.ExtendTo(rel, VMFork, 3); err != nil || n != 3 {
		t.Fatalf("ExtendTo 3 of an absent fork: %d, %v", n, err)
	}
	if n, err := p.ExtendTo(rel, VMFork, 2); err != nil || n != 3 {
		t.Fatalf("ExtendTo 2 of 3 blocks: %d, %v", n, err)
	}
	if s := p.Stats(rel); s.Extensions != 1 || s.BlocksExtended != 3 {
		t.Fatalf("stats %+v", s)
	}
	const ng = 8
	var wg sync.WaitGroup
	for target := uint32(4); target <= 40; target += 4 {
		for range ng {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if n, err := p.ExtendTo(rel, VMFork, target); err != nil || n < target {
					t.Errorf("ExtendTo %d: %d, %v", target, n, err)
				}
			}()
		}
		wg.Wait()
		if n, _ := p.NBlocks(rel, VMFork); n != target {
			t.Fatalf("%d racing ExtendTo %d left %d blocks", ng, target, n)
		}
	}
	if s := p.Stats(rel); s.BlocksExtended != 40 || s.Extensions != 11 {
		t.Fatalf("stats %+v", s)
	}
	st, err := os.Stat(p.path(rel, VMFork))
	if err != nil || st.Size() != 40*page.BlockSize {
		t.Fatalf("file %v, %v", st, err)
	}
	if err := p.Check(false); err != nil {
		t.Fatal(err)
	}
}

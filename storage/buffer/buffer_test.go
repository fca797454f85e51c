package buffer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"minipg/pgerr"
	"minipg/storage/page"
)

func newTestPool(t testing.TB, nbuf int, flushWAL func(uint64) error) *Pool {
	t.Helper()
	p, err := NewPool(Options{Dir: t.TempDir(), NBuffers: nbuf, FlushWAL: flushWAL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// Test pages carry a valid header, and in their special space (the last 16
// bytes) the block number, a counter and an owner tag.
const payloadOff = page.BlockSize - 16

// Header offsets (bufpage.h) the corruption cases spoil.
const (
	offFlags    = 10
	offLower    = 12
	offSpecial  = 16
	offPageSize = 18
)

func initTestPage(p []byte, blk uint32, counter uint64) {
	clear(p)
	page.Init(p, 16)
	binary.LittleEndian.PutUint32(p[payloadOff:], blk)
	binary.LittleEndian.PutUint64(p[payloadOff+8:], counter)
}

func setTestLSN(p []byte, lsn uint64) { page.SetLSN(p, lsn) }

func testPayload(p []byte) (blk uint32, counter uint64) {
	return binary.LittleEndian.Uint32(p[payloadOff:]), binary.LittleEndian.Uint64(p[payloadOff+8:])
}

func mustExtend(t testing.TB, p *Pool, rel RelFileNode, fork Fork, n int) uint32 {
	t.Helper()
	first, err := p.Extend(rel, fork, n)
	if err != nil {
		t.Fatal(err)
	}
	return first
}

// extendOnDisk extends like mustExtend, then drops the new blocks' frames,
// so that the first ReadBuffer of each reads it from the file (for tests
// that spoil the file or count reads).
func extendOnDisk(t testing.TB, p *Pool, rel RelFileNode, fork Fork, n int) uint32 {
	t.Helper()
	first := mustExtend(t, p, rel, fork, n)
	err := p.invalidate(func(tg Tag) bool {
		return tg.Rel == rel && tg.Fork == fork && tg.Block >= first && tg.Block < first+uint32(n)
	})
	if err != nil {
		t.Fatal(err)
	}
	return first
}

// mustRead pins block blk of rel's main fork.
func mustRead(t testing.TB, p *Pool, rel RelFileNode, blk uint32) *Buffer {
	t.Helper()
	b, err := p.ReadBuffer(rel, MainFork, blk)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeTestBlock initializes block blk through the pool.
func writeTestBlock(t testing.TB, p *Pool, rel RelFileNode, blk uint32, counter, lsn uint64) {
	t.Helper()
	b := mustRead(t, p, rel, blk)
	b.Lock()
	initTestPage(b.Page(), blk, counter)
	setTestLSN(b.Page(), lsn)
	b.MarkDirty()
	b.Unlock()
	b.Release()
}

func readCounter(t testing.TB, p *Pool, rel RelFileNode, blk uint32) uint64 {
	t.Helper()
	b := mustRead(t, p, rel, blk)
	defer b.Release()
	b.RLock()
	defer b.RUnlock()
	got, c := testPayload(b.Page())
	if got != blk {
		t.Fatalf("block %d holds page of block %d", blk, got)
	}
	return c
}

func TestReadBufferNewPagesAndRoundTrip(t *testing.T) {
	dir := t.TempDir()
	p, err := NewPool(Options{Dir: dir, NBuffers: 16})
	if err != nil {
		t.Fatal(err)
	}
	const rel, nblocks = 1234, 100
	if err := p.CreateRel(rel); err != nil {
		t.Fatal(err)
	}
	if !p.Exists(rel, MainFork) || p.Exists(rel, FSMFork) {
		t.Fatal("Exists: want main fork only")
	}
	if err := p.CreateFork(rel, FSMFork); err != nil || !p.Exists(rel, FSMFork) {
		t.Fatalf("CreateFork: %v", err)
	}
	if n, err := p.NBlocks(rel, FSMFork); n != 0 || err != nil {
		t.Fatalf("new FSM fork: %d blocks, %v", n, err)
	}
	if first := mustExtend(t, p, rel, MainFork, nblocks); first != 0 {
		t.Fatalf("first = %d", first)
	}
	// New pages read as all zeroes.
	b := mustRead(t, p, rel, 7)
	b.RLock()
	for i, c := range b.Page() {
		if c != 0 {
			t.Fatalf("new page byte %d = %d", i, c)
		}
	}
	b.RUnlock()
	if b.Tag() != (Tag{Rel: rel, Fork: MainFork, Block: 7}) || b.Block() != 7 {
		t.Fatalf("tag %v", b.Tag())
	}
	b.Release()
	for blk := uint32(0); blk < nblocks; blk++ {
		writeTestBlock(t, p, rel, blk, uint64(blk)*3, 0)
	}
	if _, err := p.ReadBuffer(rel, MainFork, nblocks); !errors.Is(err, ErrBlockOutOfRange) {
		t.Fatalf("read past end: %v", err)
	}
	if _, err := p.ReadBuffer(99, MainFork, 0); !errors.Is(err, ErrNoFile) {
		t.Fatalf("read of missing relation: %v", err)
	}
	if err := p.Check(false); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	// A fresh pool over the same directory sees every page.
	p2, err := NewPool(Options{Dir: dir, NBuffers: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	if n, err := p2.NBlocks(rel, MainFork); err != nil || n != nblocks {
		t.Fatalf("NBlocks = %d, %v", n, err)
	}
	for blk := uint32(0); blk < nblocks; blk++ {
		if c := readCounter(t, p2, rel, blk); c != uint64(blk)*3 {
			t.Fatalf("block %d counter %d", blk, c)
		}
	}
}

// Many goroutines increment per-block counters through a pool much smaller
// than the relation; every increment must survive eviction and a restart.
func TestEvictionConcurrent(t *testing.T) {
	cases := []struct {
		name              string
		nbuf, nblocks, ng int
		ops               int
	}{
		{"16frames-8g", 16, 300, 8, 3000},
		{"16frames-2g", 16, 64, 2, 3000},
		{"64frames-8g", 64, 500, 8, 2000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() {
				tc.ops /= 4
			}
			dir := t.TempDir()
			var walCalls atomic.Int64
			p, err := NewPool(Options{Dir: dir, NBuffers: tc.nbuf, FlushWAL: func(uint64) error {
				walCalls.Add(1)
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			const rel = 5
			mustExtend(t, p, rel, MainFork, tc.nblocks)
			for blk := 0; blk < tc.nblocks; blk++ {
				writeTestBlock(t, p, rel, uint32(blk), 0, 1)
			}
			want := make([]atomic.Uint64, tc.nblocks)
			var wg sync.WaitGroup
			errc := make(chan error, tc.ng+1)
			// A checkpointer flushing everything now and then races with
			// eviction writes of the same pages.
			stop := make(chan struct{})
			flusherDone := make(chan struct{})
			go func() {
				defer close(flusherDone)
				for {
					select {
					case <-stop:
						return
					default:
					}
					if err := p.FlushAll(); err != nil {
						errc <- err
						return
					}
					runtime.Gosched()
				}
			}()
			for g := 0; g < tc.ng; g++ {
				wg.Add(1)
				go func(seed uint64) {
					defer wg.Done()
					rng := rand.New(rand.NewPCG(seed, 1))
					for i := 0; i < tc.ops; i++ {
						blk := uint32(rng.IntN(tc.nblocks))
						b, err := p.ReadBuffer(rel, MainFork, blk)
						if err != nil {
							errc <- err
							return
						}
						if rng.IntN(3) == 0 {
							b.RLock()
							got, _ := testPayload(b.Page())
							b.RUnlock()
							if got != blk {
								errc <- fmt.Errorf("block %d holds page of block %d", blk, got)
							}
						} else {
							b.Lock()
							got, c := testPayload(b.Page())
							if got != blk {
								errc <- fmt.Errorf("block %d holds page of block %d", blk, got)
							}
							initTestPage(b.Page(), blk, c+1)
							setTestLSN(b.Page(), uint64(i+2))
							b.MarkDirty()
							want[blk].Add(1)
							b.Unlock()
						}
						b.Release()
					}
				}(uint64(g))
			}
			wg.Wait()
			close(stop)
			<-flusherDone
			close(errc)
			for err := range errc {
				t.Fatal(err)
			}
			if err := p.Check(false); err != nil {
				t.Fatal(err)
			}
			for blk := range want {
				if c := readCounter(t, p, rel, uint32(blk)); c != want[blk].Load() {
					t.Fatalf("block %d: counter %d, want %d", blk, c, want[blk].Load())
				}
			}
			st := p.Stats(rel)
			if st.BlocksWritten == 0 || walCalls.Load() < st.BlocksWritten {
				t.Fatalf("written %d, FlushWAL calls %d", st.BlocksWritten, walCalls.Load())
			}
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			p2, err := NewPool(Options{Dir: dir, NBuffers: tc.nbuf})
			if err != nil {
				t.Fatal(err)
			}
			defer p2.Close()
			for blk := range want {
				if c := readCounter(t, p2, rel, uint32(blk)); c != want[blk].Load() {
					t.Fatalf("after restart block %d: counter %d, want %d", blk, c, want[blk].Load())
				}
			}
		})
	}
}

func TestPinnedNeverEvicted(t *testing.T) {
	p := newTestPool(t, 16, nil)
	const rel = 9
	mustExtend(t, p, rel, MainFork, 200)
	for blk := uint32(0); blk < 200; blk++ {
		writeTestBlock(t, p, rel, blk, uint64(blk), 0)
	}
	// Pin 12 of the 16 frames and keep them.
	var pinned []*Buffer
	for blk := uint32(100); blk < 112; blk++ {
		b := mustRead(t, p, rel, blk)
		pinned = append(pinned, b)
	}
	// Churn the other 4 frames from several goroutines.
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				blk := uint32((i*7 + g*13) % 100)
				b, err := p.ReadBuffer(rel, MainFork, blk)
				if err != nil {
					// Four goroutines over four free frames may briefly find all pinned.
					if pgerr.CodeOf(err) == pgerr.InsufficientResources {
						runtime.Gosched()
						continue
					}
					t.Error(err)
					return
				}
				b.Release()
			}
		}()
	}
	wg.Wait()
	for i, b := range pinned {
		blk := uint32(100 + i)
		b.RLock()
		got, c := testPayload(b.Page())
		b.RUnlock()
		if b.Block() != blk || got != blk || c != uint64(blk) {
			t.Fatalf("pinned buffer %d: tag %v, page of block %d counter %d", blk, b.Tag(), got, c)
		}
	}
	// Pin the remaining 4: now every frame is pinned.
	for blk := uint32(0); blk < 4; blk++ {
		b := mustRead(t, p, rel, blk)
		pinned = append(pinned, b)
	}
	_, err := p.ReadBuffer(rel, MainFork, 150)
	if !errors.Is(err, ErrNoUnpinnedBuffers) || pgerr.CodeOf(err) != pgerr.InsufficientResources ||
		err.Error() != "no unpinned buffers available" {
		t.Fatalf("all pinned: %v (code %s)", err, pgerr.CodeOf(err))
	}
	// A hit still works when every frame is pinned.
	b := mustRead(t, p, rel, 105)
	b.Release()
	for _, b := range pinned {
		b.Release()
	}
	if c := readCounter(t, p, rel, 150); c != 150 {
		t.Fatalf("counter %d", c)
	}
	if err := p.Check(false); err != nil {
		t.Fatal(err)
	}
}

func TestDirtyWrittenBeforeReuse(t *testing.T) {
	p := newTestPool(t, 16, nil)
	const rel, n = 3, 64
	mustExtend(t, p, rel, MainFork, n)
	for blk := uint32(0); blk < n; blk++ {
		writeTestBlock(t, p, rel, blk, 1000+uint64(blk), 0)
	}
	// No flush was requested: every block that is no longer in the pool must
	// be on disk already.
	data, err := os.ReadFile(filepath.Join(p.opts.Dir, "3"))
	if err != nil {
		t.Fatal(err)
	}
	resident := map[uint32]bool{}
	for i := range p.frames {
		if p.frames[i].hdr.hasTag {
			resident[p.frames[i].hdr.tag.Block] = true
		}
	}
	ondisk := 0
	for blk := uint32(0); blk < n; blk++ {
		if resident[blk] {
			continue
		}
		got, c := testPayload(data[int(blk)*page.BlockSize : int(blk+1)*page.BlockSize])
		if got != blk || c != 1000+uint64(blk) {
			t.Fatalf("evicted block %d on disk: block %d counter %d", blk, got, c)
		}
		ondisk++
	}
	if ondisk < n-16 {
		t.Fatalf("only %d blocks evicted", ondisk)
	}
	if st := p.Stats(rel); st.BlocksWritten != int64(ondisk) {
		t.Fatalf("BlocksWritten %d, want %d", st.BlocksWritten, ondisk)
	}
}

func TestCorruptPage(t *testing.T) {
	cases := []struct {
		name  string
		spoil func(p []byte)
	}{
		{"garbage", func(p []byte) {
			for i := range p {
				p[i] = byte(i*31 + 7)
			}
		}},
		{"zero-upper-nonzero-bytes", func(p []byte) { clear(p); p[4000] = 1 }},
		{"lower-above-upper", func(p []byte) {
			initTestPage(p, 1, 0)
			binary.LittleEndian.PutUint16(p[offLower:], 9000)
		}},
		{"bad-pagesize-version", func(p []byte) {
			initTestPage(p, 1, 0)
			binary.LittleEndian.PutUint16(p[offPageSize:], 4096|4)
		}},
		{"bad-flags", func(p []byte) {
			initTestPage(p, 1, 0)
			binary.LittleEndian.PutUint16(p[offFlags:], 0x80)
		}},
		{"special-unaligned", func(p []byte) {
			initTestPage(p, 1, 0)
			binary.LittleEndian.PutUint16(p[offSpecial:], page.BlockSize-3)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newTestPool(t, 16, nil)
			const rel = 77
			extendOnDisk(t, p, rel, MainFork, 3)
			buf := make([]byte, page.BlockSize)
			tc.spoil(buf)
			f, err := os.OpenFile(filepath.Join(p.opts.Dir, "77"), os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteAt(buf, page.BlockSize); err != nil {
				t.Fatal(err)
			}
			f.Close()
			var wg sync.WaitGroup
			errs := make([]error, 8)
			for g := range errs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					b, err := p.ReadBuffer(rel, MainFork, 1)
					if err == nil {
						b.Release()
					}
					errs[g] = err
				}()
			}
			wg.Wait()
			for _, err := range errs {
				if !pgerr.IsCorruption(err) || !errors.Is(err, ErrCorruptPage) {
					t.Fatalf("want corruption, got %v", err)
				}
			}
			if want := "invalid page in block 1 of relation base/77"; errs[0].Error() != want {
				t.Fatalf("message %q, want %q", errs[0], want)
			}
			if err := p.Check(false); err != nil {
				t.Fatal(err)
			}
			for i := range p.frames {
				if p.frames[i].hdr.hasTag && p.frames[i].hdr.tag.Block == 1 {
					t.Fatal("a frame for the corrupt block was left behind")
				}
			}
			// Other blocks are fine.
			for _, blk := range []uint32{0, 2} {
				b := mustRead(t, p, rel, blk)
				b.Release()
			}
		})
	}
}

func TestFlushWALBeforeWrite(t *testing.T) {
	var (
		mu    sync.Mutex
		calls []uint64
		p     *Pool
	)
	path := ""
	p = newTestPool(t, 16, func(lsn uint64) error {
		// The page must not be on disk yet.
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, c := range data {
			if c != 0 {
				return fmt.Errorf("page written before FlushWAL(%X)", lsn)
			}
		}
		mu.Lock()
		calls = append(calls, lsn)
		mu.Unlock()
		return nil
	})
	const rel = 11
	path = filepath.Join(p.opts.Dir, "11")
	mustExtend(t, p, rel, MainFork, 2)
	const lsn = 0x1_0000_0ABC
	writeTestBlock(t, p, rel, 0, 1, lsn)
	if err := p.FlushRel(rel); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0] != lsn {
		t.Fatalf("FlushWAL calls %X, want [%X]", calls, uint64(lsn))
	}
	// A clean buffer is not written again.
	if err := p.FlushAll(); err != nil || len(calls) != 1 {
		t.Fatalf("second flush: %v, calls %X", err, calls)
	}

	// A failing FlushWAL keeps the page dirty and unwritten.
	p2 := newTestPool(t, 16, func(uint64) error { return errors.New("wal is broken") })
	mustExtend(t, p2, rel, MainFork, 1)
	writeTestBlock(t, p2, rel, 0, 1, 5)
	if err := p2.FlushAll(); err == nil {
		t.Fatal("flush succeeded with a failing FlushWAL")
	}
	if st := p2.Stats(rel); st.BlocksWritten != 0 {
		t.Fatalf("written %d", st.BlocksWritten)
	}
	dirty := 0
	for i := range p2.frames {
		if p2.frames[i].hdr.dirty {
			dirty++
		}
	}
	if dirty != 1 {
		t.Fatalf("%d dirty buffers after a failed write, want 1", dirty)
	}
}

func TestCounters(t *testing.T) {
	p := newTestPool(t, 16, nil)
	const rel = 21
	steps := []struct {
		name string
		do   func(t *testing.T)
		want RelStats
	}{
		{"extend 10", func(t *testing.T) { extendOnDisk(t, p, rel, MainFork, 10) },
			RelStats{BlocksExtended: 10, Extensions: 1}},
		{"extend fsm 3", func(t *testing.T) { extendOnDisk(t, p, rel, FSMFork, 3) },
			RelStats{BlocksExtended: 13, Extensions: 2}},
		{"dirty 4 blocks", func(t *testing.T) {
			for blk := uint32(0); blk < 4; blk++ {
				writeTestBlock(t, p, rel, blk, 0, 0)
			}
		}, RelStats{BlocksRead: 4, BlocksDirtied: 4, BlocksExtended: 13, Extensions: 2}},
		{"re-dirty block 0 (already dirty)", func(t *testing.T) { writeTestBlock(t, p, rel, 0, 1, 0) },
			RelStats{BlocksRead: 4, BlocksDirtied: 4, BlocksExtended: 13, Extensions: 2}},
		{"flush", func(t *testing.T) {
			if err := p.FlushRel(rel); err != nil {
				t.Fatal(err)
			}
		}, RelStats{BlocksRead: 4, BlocksWritten: 4, BlocksDirtied: 4, BlocksExtended: 13, Extensions: 2}},
		{"dirty block 0 again", func(t *testing.T) { writeTestBlock(t, p, rel, 0, 2, 0) },
			RelStats{BlocksRead: 4, BlocksWritten: 4, BlocksDirtied: 5, BlocksExtended: 13, Extensions: 2}},
		{"read fsm block (miss) and block 0 (hit)", func(t *testing.T) {
			for _, tg := range []Tag{{rel, FSMFork, 2}, {rel, MainFork, 0}} {
				b, err := p.ReadBuffer(tg.Rel, tg.Fork, tg.Block)
				if err != nil {
					t.Fatal(err)
				}
				b.Release()
			}
		}, RelStats{BlocksRead: 5, BlocksWritten: 4, BlocksDirtied: 5, BlocksExtended: 13, Extensions: 2}},
	}
	for _, s := range steps {
		s.do(t)
		if got := p.Stats(rel); got != s.want {
			t.Fatalf("after %s: %+v, want %+v", s.name, got, s.want)
		}
	}
	if (p.Stats(999) != RelStats{}) {
		t.Fatal("unknown relation has counters")
	}
}

func TestExtendConcurrent(t *testing.T) {
	p := newTestPool(t, 16, nil)
	const rel, ng, per = 4, 8, 20
	lock := p.ExtensionLock(rel)
	if lock != p.ExtensionLock(rel) {
		t.Fatal("two extension locks for one relation")
	}
	var (
		mu    sync.Mutex
		owner = map[uint32]int{}
		wg    sync.WaitGroup
	)
	for g := 0; g < ng; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				n := 1 + (g+i)%5
				lock.Lock()
				before, _ := p.NBlocks(rel, MainFork)
				first, err := p.Extend(rel, MainFork, n)
				after, _ := p.NBlocks(rel, MainFork)
				lock.Unlock()
				if err != nil || first != before || after != before+uint32(n) {
					t.Errorf("extend by %d: first %d err %v, size %d -> %d", n, first, err, before, after)
					return
				}
				mu.Lock()
				for blk := first; blk < first+uint32(n); blk++ {
					if o, dup := owner[blk]; dup {
						t.Errorf("block %d given to %d and %d", blk, o, g)
					}
					owner[blk] = g
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	n, _ := p.NBlocks(rel, MainFork)
	st, err := os.Stat(filepath.Join(p.opts.Dir, "4"))
	if err != nil || int(n) != len(owner) || st.Size() != int64(n)*page.BlockSize {
		t.Fatalf("nblocks %d, %d blocks handed out, file %d bytes (%v)", n, len(owner), st.Size(), err)
	}
	if s := p.Stats(rel); s.Extensions != ng*per || s.BlocksExtended != int64(n) {
		t.Fatalf("stats %+v", s)
	}
}

func TestExtensionLockWaiters(t *testing.T) {
	p := newTestPool(t, 16, nil)
	l := p.ExtensionLock(1)
	l.Lock()
	if l.Waiters() != 0 || l.TryLock() {
		t.Fatal("waiters or TryLock on a held lock")
	}
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Lock()
			l.Unlock()
		}()
	}
	for l.Waiters() != 3 {
		runtime.Gosched()
	}
	l.Unlock()
	wg.Wait()
	if l.Waiters() != 0 {
		t.Fatalf("waiters %d after all left", l.Waiters())
	}
}

func TestTruncateAndDrop(t *testing.T) {
	p := newTestPool(t, 16, nil)
	const rel = 8
	mustExtend(t, p, rel, MainFork, 10)
	mustExtend(t, p, rel, FSMFork, 2)
	for blk := uint32(0); blk < 10; blk++ {
		writeTestBlock(t, p, rel, blk, 7, 0)
	}
	if err := p.TruncateRel(rel, MainFork, 4); err != nil {
		t.Fatal(err)
	}
	if n, _ := p.NBlocks(rel, MainFork); n != 4 {
		t.Fatalf("nblocks %d after truncate", n)
	}
	if _, err := p.ReadBuffer(rel, MainFork, 4); !errors.Is(err, ErrBlockOutOfRange) {
		t.Fatalf("read of truncated block: %v", err)
	}
	// Re-extending gives zero pages, not the dropped buffers' contents.
	if first := mustExtend(t, p, rel, MainFork, 2); first != 4 {
		t.Fatalf("first %d", first)
	}
	b := mustRead(t, p, rel, 5)
	b.RLock()
	if blk, _ := testPayload(b.Page()); blk != 0 {
		t.Fatal("truncated block came back")
	}
	b.RUnlock()
	// Truncate waits for (and here: gives up on) pinned buffers only after a
	// while; release first.
	b.Release()
	if err := p.FlushAll(); err != nil {
		t.Fatal(err)
	}
	if c := readCounter(t, p, rel, 3); c != 7 {
		t.Fatalf("counter %d", c)
	}
	if err := p.DropRel(rel); err != nil {
		t.Fatal(err)
	}
	if p.Exists(rel, MainFork) || p.Exists(rel, FSMFork) {
		t.Fatal("files still exist after DropRel")
	}
	if n, err := p.NBlocks(rel, MainFork); n != 0 || err != nil {
		t.Fatalf("NBlocks after drop %d %v", n, err)
	}
	if err := p.Check(false); err != nil {
		t.Fatal(err)
	}
	for i := range p.frames {
		if p.frames[i].hdr.hasTag {
			t.Fatalf("frame %d still holds %v", i, p.frames[i].hdr.tag)
		}
	}
	if _, err := os.Stat(filepath.Join(p.opts.Dir, "8_fsm")); !os.IsNotExist(err) {
		t.Fatalf("fsm fork: %v", err)
	}
}

func BenchmarkReadBufferHit(b *testing.B) {
	for _, ng := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("goroutines=%d", ng), func(b *testing.B) {
			const rel, nblocks = 1, 128
			p := benchPool(b, 256, rel, nblocks)
			readConcurrently(b, p, rel, ng, func(g, i int) uint32 {
				return uint32((i*17 + g*31) % nblocks)
			}, func(i int, buf *Buffer) {
				buf.RLock()
				buf.RUnlock()
			})
			b.StopTimer()
			if st := p.Stats(rel); st.BlocksRead != nblocks {
				b.Fatalf("misses: %d reads", st.BlocksRead)
			}
		})
	}
}

// benchPool returns a pool of nbuf frames over relation rel of nblocks
// written blocks, and resets the benchmark's timer.
func benchPool(b *testing.B, nbuf int, rel RelFileNode, nblocks uint32) *Pool {
	p := newTestPool(b, nbuf, nil)
	mustExtend(b, p, rel, MainFork, int(nblocks))
	for blk := uint32(0); blk < nblocks; blk++ {
		writeTestBlock(b, p, rel, blk, 0, 0)
	}
	b.ResetTimer()
	return p
}

// readConcurrently shares b.N reads among ng goroutines: read i of
// goroutine g pins block blockOf(g, i), calls use on it and releases it.
func readConcurrently(b *testing.B, p *Pool, rel RelFileNode, ng int, blockOf func(g, i int) uint32, use func(i int, buf *Buffer)) {
	var wg sync.WaitGroup
	per := b.N / ng
	for g := 0; g < ng; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				buf, err := p.ReadBuffer(rel, MainFork, blockOf(g, i))
				if err != nil {
					b.Error(err)
					return
				}
				use(i, buf)
				buf.Release()
			}
		}()
	}
	wg.Wait()
}

func TestReadBufferZeroed(t *testing.T) {
	p := newTestPool(t, 16, nil)
	const rel = 31
	extendOnDisk(t, p, rel, MainFork, 3)
	// Block 1 on disk is garbage: ReadBuffer fails, ReadBufferZeroed does not read it.
	f, err := os.OpenFile(filepath.Join(p.opts.Dir, "31"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	garbage := make([]byte, page.BlockSize)
	for i := range garbage {
		garbage[i] = 0xAB
	}
	f.WriteAt(garbage, page.BlockSize)
	f.Close()
	if _, err := p.ReadBuffer(rel, MainFork, 1); !pgerr.IsCorruption(err) {
		t.Fatalf("ReadBuffer of garbage: %v", err)
	}
	b, err := p.ReadBufferZeroed(rel, MainFork, 1)
	if err != nil {
		t.Fatal(err)
	}
	b.Lock()
	for _, c := range b.Page() {
		if c != 0 {
			t.Fatal("zeroed buffer holds data")
		}
	}
	initTestPage(b.Page(), 1, 42)
	b.MarkDirty()
	b.Unlock()
	b.Release()
	// A hit returns the current contents.
	b, err = p.ReadBufferZeroed(rel, MainFork, 1)
	if err != nil {
		t.Fatal(err)
	}
	b.RLock()
	if blk, c := testPayload(b.Page()); blk != 1 || c != 42 {
		t.Fatalf("hit: block %d counter %d", blk, c)
	}
	b.RUnlock()
	b.Release()
	if _, err := p.ReadBufferZeroed(rel, MainFork, 3); !errors.Is(err, ErrBlockOutOfRange) {
		t.Fatalf("zeroed read past end: %v", err)
	}
	if st := p.Stats(rel); st.BlocksRead != 1 { // the failed ReadBuffer only
		t.Fatalf("BlocksRead %d, want 1", st.BlocksRead)
	}
	if err := p.FlushAll(); err != nil {
		t.Fatal(err)
	}
	if err := p.Check(false); err != nil {
		t.Fatal(err)
	}
}

// Concurrent misses on one block produce one read and one frame.
func TestConcurrentMissesShareOneRead(t *testing.T) {
	p := newTestPool(t, 64, nil)
	const rel, rounds, ng = 12, 40, 8
	extendOnDisk(t, p, rel, MainFork, rounds)
	for r := uint32(0); r < rounds; r++ {
		start := make(chan struct{})
		got := make([]*Buffer, ng)
		var wg sync.WaitGroup
		for g := 0; g < ng; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				b, err := p.ReadBuffer(rel, MainFork, r)
				if err != nil {
					t.Error(err)
					return
				}
				got[g] = b
			}()
		}
		close(start)
		wg.Wait()
		for _, b := range got {
			if b != got[0] {
				t.Fatalf("block %d: two frames", r)
			}
		}
		for _, b := range got {
			b.Release()
		}
	}
	if st := p.Stats(rel); st.BlocksRead != rounds {
		t.Fatalf("%d reads for %d blocks", st.BlocksRead, rounds)
	}
	if err := p.Check(false); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkReadBufferMiss reads a relation eight times the pool's size in a
// cycle, so that every read evicts (half of the victims dirty).
func BenchmarkReadBufferMiss(b *testing.B) {
	for _, ng := range []int{1, 4} {
		b.Run(fmt.Sprintf("goroutines=%d", ng), func(b *testing.B) {
			const rel, nblocks = 1, 512
			p := benchPool(b, 64, rel, nblocks)
			readConcurrently(b, p, rel, ng, func(g, i int) uint32 {
				return uint32((i*ng + g) % nblocks)
			}, func(i int, buf *Buffer) {
				if i%2 == 0 {
					buf.Lock()
					buf.MarkDirty()
					buf.Unlock()
				}
			})
		})
	}
}

package buffer

import (
	"testing"
)

// TestFlushAllPacedAndCounters: FlushAllPaced writes the buffers dirty when
// it starts, reports each processed one to delay, and returns how many it
// wrote; evictions of dirty pages count as backend writes and every
// page brought in as an allocation.
func TestFlushAllPacedAndCounters(t *testing.T) {
	p, err := NewPool(Options{Dir: t.TempDir(), NBuffers: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	const rel = RelFileNode(1)
	if err := p.CreateRel(rel); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Extend(rel, MainFork, 50); err != nil {
		t.Fatal(err)
	}
	if _, err := p.FlushAllPaced(nil); err != nil {
		t.Fatal(err)
	}
	dirty := func(n int) {
		for blk := 0; blk < n; blk++ {
			b, err := p.ReadBuffer(rel, MainFork, uint32(blk))
			if err != nil {
				t.Fatal(err)
			}
			b.Lock()
			b.Page()[100] = byte(blk + 1)
			b.MarkDirty()
			b.Unlock()
			b.Release()
		}
	}
	dirty(10)
	var calls []int
	total := -1
	n, err := p.FlushAllPaced(func(done, tot int) { calls = append(calls, done); total = tot })
	if err != nil || n != 10 || total != 10 || len(calls) != 10 || calls[9] != 10 {
		t.Fatalf("FlushAllPaced wrote %d (%v), total %d, calls %v", n, err, total, calls)
	}
	if n, err := p.FlushAllPaced(nil); err != nil || n != 0 {
		t.Fatalf("second FlushAllPaced wrote %d, %v", n, err)
	}
	c0 := p.Counters()
	if c0.BackendWrites != 0 {
		t.Fatalf("counters %+v", c0)
	}
	// 40 more dirty pages through 16 frames: evictions write dirty victims.
	for blk := 10; blk < 50; blk++ {
		b, err := p.ReadBuffer(rel, MainFork, uint32(blk))
		if err != nil {
			t.Fatal(err)
		}
		b.Lock()
		b.MarkDirty()
		b.Unlock()
		b.Release()
	}
	c1 := p.Counters()
	if c1.Alloc-c0.Alloc < 30 || c1.BackendWrites == 0 {
		t.Fatalf("counters %+v -> %+v", c0, c1)
	}
}

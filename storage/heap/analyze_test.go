package heap

import (
	"math/rand/v2"
	"strings"
	"testing"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// The block sampler takes exactly n distinct blocks in ascending order,
// every block when n is not smaller than the table, and each block about
// equally often.
func TestBlockSampler(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const nblocks, n, trials = 1000, 100, 2000
	hits := make([]int, nblocks)
	for range trials {
		s := newBlockSampler(nblocks, n, rng)
		var got []uint32
		for blk, ok := s.next(); ok; blk, ok = s.next() {
			if blk >= nblocks || (len(got) > 0 && blk <= got[len(got)-1]) {
				t.Fatalf("block %d after %v", blk, got)
			}
			got = append(got, blk)
			hits[blk]++
		}
		if len(got) != n {
			t.Fatalf("%d blocks sampled, want %d", len(got), n)
		}
	}
	// Each block is taken with probability n/nblocks = 0.1: 200 of 2000
	// times, standard deviation 13.4. The first and last blocks, and the
	// least and most taken, stay within 5 deviations.
	lo, hi := hits[0], hits[0]
	for _, h := range hits {
		lo, hi = min(lo, h), max(hi, h)
	}
	for _, h := range []int{hits[0], hits[nblocks-1], lo, hi} {
		if h < 133 || h > 267 {
			t.Fatalf("a block taken %d times of %d (first %d, last %d, least %d, most %d), want about 200",
				h, trials, hits[0], hits[nblocks-1], lo, hi)
		}
	}
	for _, c := range []struct{ nblocks, n uint32 }{{5, 10}, {7, 7}, {0, 3}} {
		s := newBlockSampler(c.nblocks, c.n, rng)
		k := uint32(0)
		for blk, ok := s.next(); ok; blk, ok = s.next() {
			if blk != k {
				t.Fatalf("%d of %d: block %d, want %d", c.n, c.nblocks, blk, k)
			}
			k++
		}
		if k != c.nblocks {
			t.Fatalf("%d of %d: %d blocks", c.n, c.nblocks, k)
		}
	}
}

// ANALYZE of a table larger than its sample reads only the sample and
// extrapolates the live and dead counts to the whole table, as
// PostgreSQL 15 sets reltuples; a table no larger is counted exactly.
func TestAnalyzeSamples(t *testing.T) {
	e := newEnv(t, 256, Options{})
	tids := e.insertCommitted(t, 0, 2000, strings.Repeat("a", 100))
	var victims []page.TID
	for i, tid := range tids {
		if i%4 == 0 {
			victims = append(victims, tid)
		}
	}
	e.deleteCommitted(t, victims)
	exact, err := e.rel.Analyze(e.o.OldestXmin(), e.o, VacuumOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if exact.LiveTuples != 1500 || exact.DeadTuples != 500 || exact.PagesSampled != exact.Pages {
		t.Fatalf("whole-table analyze: %+v, want 1500 live, 500 dead, every page read", exact)
	}
	perPage := int64(2000/exact.Pages) + 1

	old := AnalyzeSampleBlocks
	AnalyzeSampleBlocks = exact.Pages / 4
	defer func() { AnalyzeSampleBlocks = old }()
	for range 5 {
		st, err := e.rel.Analyze(e.o.OldestXmin(), e.o, VacuumOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if st.Pages != exact.Pages || st.PagesSampled != AnalyzeSampleBlocks {
			t.Fatalf("sampled %d of %d pages, want %d of %d", st.PagesSampled, st.Pages, AnalyzeSampleBlocks, exact.Pages)
		}
		// Every page but the last holds the same rows: the estimate is
		// off by at most a page's rows times pages / pages read.
		scale := int64(exact.Pages / AnalyzeSampleBlocks)
		if d := st.LiveTuples - 1500; d < -perPage*scale || d > perPage*scale {
			t.Fatalf("sampled analyze: %d live, want 1500 +- %d", st.LiveTuples, perPage*scale)
		}
		if d := st.DeadTuples - 500; d < -perPage*scale/3 || d > perPage*scale/3 {
			t.Fatalf("sampled analyze: %d dead, want 500 +- %d", st.DeadTuples, perPage*scale/3)
		}
	}
}

// VACUUM and ANALYZE read through the ring they are given: a table five
// times the pool's size leaves the pages resident before it resident
// (but for the few frames the ring took from the clock sweep), and all but
// the ring's first reads reuse a ring frame.
func TestVacuumAnalyzeThroughRing(t *testing.T) {
	const nbuf = 64
	e := newEnv(t, nbuf, Options{})
	tids := e.insertCommitted(t, 0, 20000, strings.Repeat("r", 100))
	e.deleteCommitted(t, tids[:len(tids)/2])
	nblocks, err := e.rel.NBlocks()
	if err != nil || nblocks < 5*nbuf {
		t.Fatalf("%d blocks (%v), want at least %d", nblocks, err, 5*nbuf)
	}
	if err := e.pool.FlushAll(); err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"vacuum", "analyze"} {
		before := e.residentBlocks(nblocks)
		s := e.pool.NewStrategy(buffer.RingBlocks)
		opts := VacuumOptions{Strategy: s}
		if op == "vacuum" {
			_, err = e.rel.VacuumWith(e.o.OldestXmin(), e.o, nil, opts)
		} else {
			_, err = e.rel.Analyze(e.o.OldestXmin(), e.o, opts)
		}
		if err != nil {
			t.Fatal(err)
		}
		after := e.residentBlocks(nblocks)
		kept := 0
		for blk := range before {
			if after[blk] {
				kept++
			}
		}
		// The ring's frames come from the clock sweep (8 of them, an
		// eighth of the pool); the FSM's pages take a few more.
		if kept < len(before)-s.Size()-8 {
			t.Fatalf("%s: %d of the %d resident pages left in the pool", op, kept, len(before))
		}
		misses := int(nblocks) - len(before)
		if s.Reused() < int64(misses-2*s.Size()) {
			t.Fatalf("%s: %d of %d reads reused a ring frame", op, s.Reused(), misses)
		}
	}
}

// A sequential scan of a table larger than a quarter of the pool reads it
// through a bulk-read ring, as PostgreSQL's initscan arranges: the pages
// resident before stay resident.
func TestSeqScanThroughRing(t *testing.T) {
	const nbuf = 64
	e := newEnv(t, nbuf, Options{})
	e.insertCommitted(t, 0, 12000, strings.Repeat("s", 100))
	nblocks, err := e.rel.NBlocks()
	if err != nil || nblocks < 3*nbuf {
		t.Fatalf("%d blocks (%v), want at least %d", nblocks, err, 3*nbuf)
	}
	scan := func() *Scan {
		s := e.rel.NewScan(e.snap(e.o.Begin(), 0))
		n := 0
		for {
			_, _, ok, err := s.Next()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			n++
		}
		s.Close()
		if n != 12000 {
			t.Fatalf("scan saw %d rows", n)
		}
		return s
	}
	scan() // sets the hint bits
	if err := e.pool.FlushAll(); err != nil {
		t.Fatal(err)
	}
	before := e.residentBlocks(nblocks)
	s := scan()
	if s.strategy == nil || s.strategy.Reused() < int64(int(nblocks)-len(before)-2*s.strategy.Size()) {
		t.Fatalf("the scan of %d blocks did not read through a ring (%v)", nblocks, s.strategy)
	}
	after, kept := e.residentBlocks(nblocks), 0
	for blk := range before {
		if after[blk] {
			kept++
		}
	}
	if kept < len(before)-s.strategy.Size()-4 {
		t.Fatalf("%d of the %d resident pages left in the pool", kept, len(before))
	}
}

// residentBlocks returns the blocks of the test relation below nblocks
// held in the buffer pool.
func (e *testEnv) residentBlocks(nblocks uint32) map[uint32]bool {
	m := map[uint32]bool{}
	for blk := range nblocks {
		if b := e.pool.ResidentBuffer(testRel, buffer.MainFork, blk); b != nil {
			m[blk] = true
			b.Release()
		}
	}
	return m
}

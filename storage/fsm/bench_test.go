package fsm

import (
	"math/rand"
	"testing"
)

// benchMap returns a vacuumed map of nblocks heap blocks, one in every
// `every` having room for 2000 bytes and the others 100 bytes.
func benchMap(b *testing.B, nblocks, every int) *Map {
	b.Helper()
	m := newTestMap(b, 128)
	for blk := 0; blk < nblocks; blk++ {
		avail := 100
		if blk%every == 0 {
			avail = 2000
		}
		mustRecord(b, m, uint32(blk), avail)
	}
	mustVacuumAll(b, m)
	return m
}

func BenchmarkGetPageWithFreeSpace(b *testing.B) {
	for _, c := range []struct {
		name           string
		nblocks, every int
	}{
		{"dense/10k", 10000, 1},
		{"sparse1pct/10k", 10000, 100},
		{"sparse1pct/100k", 100000, 100},
	} {
		b.Run(c.name, func(b *testing.B) {
			m := benchMap(b, c.nblocks, c.every)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if m.GetPageWithFreeSpace(1500) == InvalidBlock {
					b.Fatal("nothing found")
				}
			}
		})
		b.Run(c.name+"/parallel", func(b *testing.B) {
			m := benchMap(b, c.nblocks, c.every)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if m.GetPageWithFreeSpace(1500) == InvalidBlock {
						b.Error("nothing found")
						return
					}
				}
			})
		})
	}
	b.Run("miss/10k", func(b *testing.B) {
		m := benchMap(b, 10000, 100)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if m.GetPageWithFreeSpace(4000) != InvalidBlock {
				b.Fatal("found a page")
			}
		}
	})
}

// The classic retry step: record a full page, get another.
func BenchmarkRecordAndGetPageWithFreeSpace(b *testing.B) {
	const nblocks = 10000
	m := benchMap(b, nblocks, 1)
	rng := rand.New(rand.NewSource(1))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		blk := uint32(rng.Intn(nblocks))
		m.RecordAndGetPageWithFreeSpace(blk, 2000, 1500)
	}
}

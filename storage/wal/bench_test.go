package wal

import (
	"fmt"
	"sync"
	"testing"
)

func BenchmarkCommit(b *testing.B) {
	for _, ng := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("clients=%d", ng), func(b *testing.B) {
			o := testOptions(nil)
			o.SegmentSize = DefaultSegmentSize
			l := openTest(b, b.TempDir(), o)
			defer l.Close()
			before := l.Stats()
			rec := Record{Rmgr: RmgrXact, MainData: make([]byte, 32)}
			per := inParallel(b, ng, func() error {
				r := rec
				lsn, err := l.Insert(&r)
				if err == nil {
					err = l.Flush(lsn)
				}
				return err
			})
			b.StopTimer()
			st := l.Stats()
			commits := float64(per * ng)
			b.ReportMetric(commits/b.Elapsed().Seconds(), "commits/s")
			b.ReportMetric(float64(st.Sync-before.Sync)/commits, "fsyncs/commit")
		})
	}
}

// BenchmarkInsert measures the insert path alone (assembly, CRC, insert
// lock, copy into the WAL buffer) for a heap-insert-sized record.
func BenchmarkInsert(b *testing.B) {
	for _, ng := range []int{1, 8} {
		b.Run(fmt.Sprintf("goroutines=%d", ng), func(b *testing.B) {
			o := testOptions(nil)
			o.SegmentSize = DefaultSegmentSize
			o.NoSync = true
			l := openTest(b, b.TempDir(), o)
			defer l.Close()
			rec := Record{Rmgr: RmgrHeap, Blocks: []BlockRef{{Rel: 1, Block: 7, Data: make([]byte, 120)}},
				MainData: make([]byte, 3)}
			b.SetBytes(int64(RecordHeaderSize + BlockHeaderSize + RelFileNodeSize + BlockNumberSize + 120 + 2 + 3))
			inParallel(b, ng, func() error {
				r := rec
				_, err := l.Insert(&r)
				return err
			})
		})
	}
}

// inParallel resets the timer and runs op per times in each of ng
// goroutines, per being b.N/ng rounded up, which it returns; an error stops
// that goroutine.
func inParallel(b *testing.B, ng int, op func() error) (per int) {
	var wg sync.WaitGroup
	per = (b.N + ng - 1) / ng
	b.ResetTimer()
	for g := 0; g < ng; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				if err := op(); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return per
}

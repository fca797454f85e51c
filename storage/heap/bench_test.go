package heap

import (
	"fmt"
	"sync"
	"testing"
)

// Benchmarks of the insert path. Each reports rows/s, the blocks the
// relation was extended by and the number of extensions (buffer pool
// counters), with a 1024-buffer (8 MiB) pool and a 60-byte row
// (int4 + 20-character text, 64 bytes on the page with its line pointer).
//
//	go test -run '^$' -bench . -benchtime 200000x ./storage/heap/

const benchPayload = "bench-payload-000000"

func reportInsert(b *testing.B, e *testEnv, rows int) {
	b.StopTimer()
	st := e.pool.Stats(testRel)
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(st.BlocksExtended), "blocks_extended")
	b.ReportMetric(float64(st.Extensions), "extensions")
}

// BenchmarkInsert: one session, Insert one row at a time.
func BenchmarkInsert(b *testing.B) {
	e := newEnv(b, 1024, Options{})
	tup := mkRow(b, 1, benchPayload)
	xid := e.o.Begin()
	var st InsertState
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := e.rel.Insert(tup, xid, 0, &st); err != nil {
			b.Fatal(err)
		}
	}
	reportInsert(b, e, b.N)
}

// BenchmarkMultiInsert: one session, MultiInsert in batches of 1000 rows
// with a bulk insert state (COPY's path).
func BenchmarkMultiInsert(b *testing.B) {
	e := newEnv(b, 1024, Options{})
	const batch = 1000
	tups := make([][]byte, batch)
	for i := range tups {
		tups[i] = mkRow(b, int32(i), benchPayload)
	}
	xid := e.o.Begin()
	st := NewBulkInsertState()
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; done += batch {
		if _, err := e.rel.MultiInsert(tups[:min(batch, b.N-done)], xid, 0, st); err != nil {
			b.Fatal(err)
		}
	}
	reportInsert(b, e, b.N)
}

// BenchmarkConcurrentInsert: 1, 2, 4 and 8 sessions inserting single rows
// into one relation; b.N rows in total.
func BenchmarkConcurrentInsert(b *testing.B) {
	for _, sessions := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("sessions=%d", sessions), func(b *testing.B) {
			e := newEnv(b, 1024, Options{})
			tup := mkRow(b, 1, benchPayload)
			b.ResetTimer()
			var wg sync.WaitGroup
			for g := range sessions {
				n := b.N / sessions
				if g < b.N%sessions {
					n++
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					xid := e.o.Begin()
					var st InsertState
					for range n {
						if _, err := e.rel.Insert(tup, xid, 0, &st); err != nil {
							panic(err)
						}
					}
				}()
			}
			wg.Wait()
			reportInsert(b, e, b.N)
		})
	}
}

package heap

import (
	"strings"
	"testing"
)

// BenchmarkInsertWAL: single-row inserts without a WAL and with one
// (records inserted, not fsynced), WAL bytes per row reported.
func BenchmarkInsertWAL(b *testing.B) {
	row := mkRow(b, 1, strings.Repeat("x", 100))
	b.Run("no-wal", func(b *testing.B) {
		e := newEnv(b, 1024, Options{})
		var st InsertState
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := e.rel.Insert(row, 3, 0, &st); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("wal", func(b *testing.B) {
		e := openWALEnv(b, b.TempDir(), true)
		var st InsertState
		before := e.log.Stats()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := e.rel.Insert(row, 3, 0, &st); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		after := e.log.Stats()
		b.ReportMetric(float64(after.Bytes-before.Bytes)/float64(b.N), "walB/row")
		b.ReportMetric(float64(after.FPI-before.FPI), "fpi")
		e.log.Close()
	})
}

// BenchmarkMultiInsertWAL: MultiInsert in batches of 1000 rows with a bulk
// insert state and a WAL (records inserted, not fsynced): COPY's heap and
// WAL path. Reports rows/s and WAL bytes per row.
func BenchmarkMultiInsertWAL(b *testing.B) {
	e := openWALEnv(b, b.TempDir(), true)
	const batch = 1000
	tups := make([][]byte, batch)
	for i := range tups {
		tups[i] = mkRow(b, int32(i), benchPayload)
	}
	st := NewBulkInsertState()
	before := e.log.Stats()
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; done += batch {
		if _, err := e.rel.MultiInsert(tups[:min(batch, b.N-done)], 3, 0, st); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	after := e.log.Stats()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(after.Bytes-before.Bytes)/float64(b.N), "walB/row")
	e.log.Close()
}

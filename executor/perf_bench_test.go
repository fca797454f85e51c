package executor

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"testing"

	"minipg/types"
)

// stockDDL is TPC-C's stock table (BenchmarkSQL's columns).
const stockDDL = `CREATE TABLE st (s_w_id integer not null, s_i_id integer not null,
  s_quantity integer, s_ytd decimal(8,2), s_order_cnt integer, s_remote_cnt integer,
  s_data varchar(50), s_dist_01 char(24), s_dist_02 char(24), s_dist_03 char(24),
  s_dist_04 char(24), s_dist_05 char(24), s_dist_06 char(24), s_dist_07 char(24),
  s_dist_08 char(24), s_dist_09 char(24), s_dist_10 char(24))`

// loadStock creates st with n rows (warehouse 1..) through COPY.
func loadStock(b *testing.B, s *Session, n int) {
	b.Helper()
	mustExec(b, s, stockDDL)
	var sb strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "%d\t%d\t%d\t0.00\t0\t0\tdata for stock row %d of the table", 1+i/100000, 1+i%100000, 10+i%90, i)
		for d := 0; d < 10; d++ {
			fmt.Fprintf(&sb, "\tdist info %02d %11d", d, i)
		}
		sb.WriteByte('\n')
	}
	mustCopy(b, s, "COPY st FROM STDIN", []byte(sb.String()))
}

func openBenchEngine(b *testing.B, sharedBuffers int64) *Engine {
	b.Helper()
	e, err := Open(Config{DataDir: b.TempDir(), SharedBuffers: sharedBuffers}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	return e
}

// stockSession opens an engine with the given pool, loads n stock rows into
// table st and returns a session on it.
func stockSession(b *testing.B, sharedBuffers int64, n int) *Session {
	b.Helper()
	s := openBenchEngine(b, sharedBuffers).NewSession(nil)
	loadStock(b, s, n)
	return s
}

// benchCountStar times count(*) over 100,000 rows with a pool of the given
// size (after one warming scan), after a VACUUM if vacuum is set.
func benchCountStar(b *testing.B, sharedBuffers int64, vacuum bool) {
	const n = 100000
	s := stockSession(b, sharedBuffers, n)
	if vacuum {
		mustExec(b, s, "VACUUM st")
	}
	runQuery(b, s, "SELECT count(*) FROM st")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runQuery(b, s, "SELECT count(*) FROM st")
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
}

// runQuery runs one prepared query and returns the number of rows.
func runQuery(b *testing.B, s *Session, q string, params ...types.Datum) int {
	p, err := s.Prepare(q, nil)
	if err != nil {
		b.Fatal(err)
	}
	pt, err := s.Bind(p, params)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	if _, _, err := pt.Run(context.Background(), 0, func([]types.Datum) error { n++; return nil }); err != nil {
		b.Fatal(err)
	}
	pt.Close()
	if err := s.Sync(); err != nil {
		b.Fatal(err)
	}
	return n
}

func BenchmarkCountStar(b *testing.B) { benchCountStar(b, 128<<20, false) }

// BenchmarkCountStarAllVisible is BenchmarkCountStar after a VACUUM has
// marked every page all-visible, which the scan trusts instead of testing
// each tuple.
func BenchmarkCountStarAllVisible(b *testing.B) { benchCountStar(b, 128<<20, true) }

func BenchmarkScanFilter(b *testing.B) {
	const n = 100000
	s := stockSession(b, 128<<20, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got := runQuery(b, s, "SELECT s_i_id, s_quantity FROM st WHERE s_quantity < 11"); got == 0 {
			b.Fatal("no rows")
		}
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkInListPK(b *testing.B) {
	s := stockSession(b, 128<<20, 100000)
	mustExec(b, s, "CREATE UNIQUE INDEX st_pkey ON st (s_w_id, s_i_id)")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got := runQuery(b, s, "SELECT count(*) FROM st WHERE s_w_id = 1 AND s_i_id IN (1, 2)"); got != 1 {
			b.Fatal(got)
		}
	}
}

func BenchmarkBuildPK(b *testing.B) {
	const n = 100000
	s := stockSession(b, 128<<20, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mustExec(b, s, fmt.Sprintf("CREATE UNIQUE INDEX st_pk%d ON st (s_w_id, s_i_id)", i))
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkIndexMemory reports the heap bytes one index entry of a
// two-integer unique index takes after the build.
func BenchmarkIndexMemory(b *testing.B) {
	const n = 100000
	s := stockSession(b, 128<<20, n)
	var per float64
	for i := 0; i < b.N; i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		mustExec(b, s, fmt.Sprintf("CREATE UNIQUE INDEX st_m%d ON st (s_w_id, s_i_id)", i))
		runtime.GC()
		runtime.ReadMemStats(&after)
		per = float64(after.HeapAlloc-before.HeapAlloc) / n
	}
	b.ReportMetric(per, "B/entry")
}

// BenchmarkCopyBinary loads rows as pgx's CopyFrom sends them (binary COPY
// of int4, int4, text), the rows of minipg-bench rt's COPY workload.
func BenchmarkCopyBinary(b *testing.B) {
	e := openBenchEngine(b, 128<<20)
	s := e.NewSession(nil)
	mustExec(b, s, "CREATE TABLE bcb (id int, v int, t text)")
	const n = 50000
	var buf []byte
	buf = append(buf, "PGCOPY\n\377\r\n\x00"...)
	buf = binary.BigEndian.AppendUint32(buf, 0)
	buf = binary.BigEndian.AppendUint32(buf, 0)
	for i := 0; i < n; i++ {
		buf = binary.BigEndian.AppendUint16(buf, 3)
		buf = binary.BigEndian.AppendUint32(buf, 4)
		buf = binary.BigEndian.AppendUint32(buf, uint32(i))
		buf = binary.BigEndian.AppendUint32(buf, 4)
		buf = binary.BigEndian.AppendUint32(buf, uint32(i*3))
		t := "some text of a row"
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(t)))
		buf = append(buf, t...)
	}
	buf = binary.BigEndian.AppendUint16(buf, 0xFFFF)
	b.SetBytes(int64(len(buf)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mustCopy(b, s, "COPY bcb FROM STDIN (FORMAT binary)", buf)
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkCountStarEvicting is BenchmarkCountStar with a buffer pool half
// the table's size: every scan reads its pages back from the kernel.
func BenchmarkCountStarEvicting(b *testing.B) { benchCountStar(b, 16<<20, false) }

// BenchmarkReopenRebuild times opening an engine whose table has two
// indexes kept in memory (index_storage = memory): start-up rebuilds them
// from the heap.
func BenchmarkReopenRebuild(b *testing.B) {
	dir := b.TempDir()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e, err := Open(Config{DataDir: dir, SharedBuffers: 128 << 20, Settings: map[string]string{"index_storage": "memory"}}, log)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	s := e.NewSession(nil)
	const n = 100000
	loadStock(b, s, n)
	mustExec(b, s, "CREATE UNIQUE INDEX st_pkey ON st (s_w_id, s_i_id)")
	mustExec(b, s, "CREATE INDEX st_q ON st (s_quantity)")
	runQuery(b, s, "SELECT count(*) FROM st")
	s.Close()
	e.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, err := Open(Config{DataDir: dir, SharedBuffers: 128 << 20}, log)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { e.Close() })
		b.StopTimer()
		e.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
}

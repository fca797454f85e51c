package wal

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/page"
)

const testSegSize = 64 << 10

// logBuf collects log output so tests can assert on messages.
type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *logBuf) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *logBuf) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func testOptions(lb *logBuf) Options {
	o := Options{SegmentSize: testSegSize, WriterDelay: -1, RecycleSegments: -1}
	if lb != nil {
		o.Logger = slog.New(slog.NewTextHandler(lb, &slog.HandlerOptions{Level: slog.LevelDebug}))
	} else {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

func openTest(t testing.TB, dir string, o Options) *Log {
	t.Helper()
	l, err := Open(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// randomRecord builds a record with 0-3 block refs carrying data.
func randomRecord(rng *rand.Rand, i int) *Record {
	rec := &Record{Rmgr: RmgrHeap, Info: uint8(rng.IntN(8) << 4), Xid: uint32(1000 + i)}
	for b := rng.IntN(4); b > 0; b-- {
		data := make([]byte, rng.IntN(300))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		rec.Blocks = append(rec.Blocks, BlockRef{
			Rel: buffer.RelFileNode(16384 + rng.IntN(3)), Fork: buffer.Fork(rng.IntN(2)),
			Block: rng.Uint32N(1000), Data: data, WillInit: rng.IntN(5) == 0,
		})
	}
	rec.MainData = make([]byte, rng.IntN(2000))
	for j := range rec.MainData {
		rec.MainData[j] = byte(i + j)
	}
	return rec
}

func sameRecord(t *testing.T, want *Record, got *DecodedRecord) {
	t.Helper()
	if got.Rmgr != want.Rmgr || got.Info != want.Info || got.Xid != want.Xid ||
		!bytes.Equal(got.MainData, want.MainData) || len(got.Blocks) != len(want.Blocks) {
		t.Fatalf("record at %s: got rmgr %d info %#x xid %d main %d bytes %d blocks; want %d %#x %d %d %d",
			FormatLSN(got.LSN), got.Rmgr, got.Info, got.Xid, len(got.MainData), len(got.Blocks),
			want.Rmgr, want.Info, want.Xid, len(want.MainData), len(want.Blocks))
	}
	for i, wb := range want.Blocks {
		gb := got.Blocks[i]
		if gb.Rel != wb.Rel || gb.Fork != wb.Fork || gb.Block != wb.Block || gb.WillInit != wb.WillInit ||
			!bytes.Equal(gb.Data, wb.Data) {
			t.Fatalf("record at %s block %d: got %+v", FormatLSN(got.LSN), i, gb)
		}
	}
}

func TestRoundTripAcrossSegments(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions(nil))
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 2000
	var recs []*Record
	var starts, ends []uint64
	start := l.InsertLSN()
	for i := 0; i < n; i++ {
		rec := randomRecord(rng, i)
		s, e, err := l.insert(rec)
		if err != nil {
			t.Fatal(err)
		}
		if len(ends) > 0 && s != ends[len(ends)-1] {
			t.Fatalf("record %d starts at %s, previous ended at %s", i, FormatLSN(s), FormatLSN(ends[len(ends)-1]))
		}
		recs, starts, ends = append(recs, rec), append(starts, s), append(ends, e)
		if i%100 == 0 {
			if err := l.Flush(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := l.FlushAll(); err != nil {
		t.Fatal(err)
	}
	if l.FlushedLSN() != ends[n-1] || l.InsertLSN() != ends[n-1] {
		t.Fatalf("flushed %s insert %s, want %s", FormatLSN(l.FlushedLSN()), FormatLSN(l.InsertLSN()), FormatLSN(ends[n-1]))
	}
	segs, _ := listSegments(l.Dir(), testSegSize)
	if len(segs) < 10 {
		t.Fatalf("only %d segments for %d bytes", len(segs), ends[n-1]-start)
	}
	st := l.Stats()
	if st.Records != n+1 || st.Bytes != int64(ends[n-1]-start)+int64(start-testSegSize) {
		t.Fatalf("stats %+v (bytes written %d)", st, ends[n-1]-testSegSize)
	}

	check := func(rd *Reader) {
		t.Helper()
		defer rd.Close()
		for i := 0; i < n; i++ {
			rec, err := rd.Next()
			if err != nil {
				t.Fatalf("record %d: %v (%s)", i, err, rd.EndReason)
			}
			if rec.LSN != starts[i] || rec.EndLSN != ends[i] || (i > 0 && rec.Prev != starts[i-1]) {
				t.Fatalf("record %d at %s..%s prev %s", i, FormatLSN(rec.LSN), FormatLSN(rec.EndLSN), FormatLSN(rec.Prev))
			}
			sameRecord(t, recs[i], rec)
		}
		if _, err := rd.Next(); !errors.Is(err, io.EOF) {
			t.Fatalf("after the last record: %v", err)
		}
		if !strings.Contains(rd.EndReason, "invalid record length") || rd.EndLSN() != ends[n-1] {
			t.Fatalf("end reason %q at %s", rd.EndReason, FormatLSN(rd.EndLSN()))
		}
	}
	check(l.NewReader(starts[0]))
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}

	// Reopen without a shutdown checkpoint: Open finds the same end, and
	// Recover hands every record to the heap's redo function.
	l2 := openTest(t, dir, testOptions(nil))
	defer l2.Close()
	if !l2.NeedsRecovery() || l2.InsertLSN() != ends[n-1] {
		t.Fatalf("reopened: needs recovery %v, insert %s", l2.NeedsRecovery(), FormatLSN(l2.InsertLSN()))
	}
	i := 0
	l2.RegisterRedo(RmgrHeap, func(rec *DecodedRecord) error {
		sameRecord(t, recs[i], rec)
		i++
		return nil
	})
	rs, err := l2.Recover()
	if err != nil || i != n || rs.Records != n+1 {
		t.Fatalf("recover: %v, %d redo calls, %+v", err, i, rs)
	}
	check(l2.NewReader(starts[0]))
	// New records follow on.
	end, err := l2.Insert(&Record{Rmgr: RmgrHeap, MainData: []byte("after")})
	if err != nil || end <= ends[n-1] {
		t.Fatalf("insert after reopen: %s %v", FormatLSN(end), err)
	}
}

func TestFlushBeyondInsert(t *testing.T) {
	l := openTest(t, t.TempDir(), testOptions(nil))
	defer l.Close()
	if err := l.Flush(l.InsertLSN() + 100); !errors.Is(err, ErrFlushBeyondInsert) {
		t.Fatalf("got %v", err)
	}
	if err := l.Flush(l.InsertLSN()); err != nil {
		t.Fatal(err)
	}
}

// Group commit, made deterministic: in each round 32 goroutines insert a
// commit record, wait until all have inserted, then all flush. The first
// flusher writes and fsyncs all 32 records; the other 31 find them durable.
func TestGroupCommitRounds(t *testing.T) {
	l := openTest(t, t.TempDir(), testOptions(nil))
	defer l.Close()
	const ng, rounds = 32, 10
	before := l.Stats()
	for r := 0; r < rounds; r++ {
		var inserted, wg sync.WaitGroup
		inserted.Add(ng)
		start := make(chan struct{})
		errs := make(chan error, ng)
		for g := 0; g < ng; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				lsn, err := l.Insert(&Record{Rmgr: RmgrXact, Xid: uint32(g), MainData: make([]byte, 40)})
				inserted.Done()
				<-start
				if err == nil {
					err = l.Flush(lsn)
				}
				if err == nil && l.FlushedLSN() < lsn {
					err = fmt.Errorf("Flush(%s) returned with flushed %s", FormatLSN(lsn), FormatLSN(l.FlushedLSN()))
				}
				errs <- err
			}()
		}
		inserted.Wait()
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	st := l.Stats()
	if flushes := st.Flushes - before.Flushes; flushes != rounds {
		t.Fatalf("%d flush rounds for %d rounds of %d commits", flushes, rounds, ng)
	}
	if syncs := st.Sync - before.Sync; syncs < rounds || syncs > rounds+2 {
		t.Fatalf("%d fsyncs for %d rounds", syncs, rounds)
	}
}

// Free-running group commit: every Flush returns only once its record is
// durable, and fsyncs are shared.
func TestGroupCommitConcurrent(t *testing.T) {
	l := openTest(t, t.TempDir(), testOptions(nil))
	defer l.Close()
	const ng, per = 32, 30
	var wg sync.WaitGroup
	errs := make(chan error, ng)
	for g := 0; g < ng; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				lsn, err := l.Insert(&Record{Rmgr: RmgrXact, Xid: uint32(g*per + i), MainData: make([]byte, 40)})
				if err == nil {
					err = l.Flush(lsn)
				}
				if err == nil && l.FlushedLSN() < lsn {
					err = fmt.Errorf("flushed %s < %s", FormatLSN(l.FlushedLSN()), FormatLSN(lsn))
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	st := l.Stats()
	if st.Sync > ng*per {
		t.Fatalf("%d fsyncs for %d commits", st.Sync, ng*per)
	}
	t.Logf("%d commits, %d flush rounds, %d fsyncs", ng*per, st.Flushes, st.Sync)
}

// segOf returns the path of the segment holding lsn.
func segOf(dir string, lsn uint64) (string, int64) {
	return filepath.Join(dir, "wal", SegmentName(lsn/testSegSize, testSegSize)), int64(lsn % testSegSize)
}

func spoil(t *testing.T, dir string, lsn uint64, f func(b []byte)) {
	t.Helper()
	path, off := segOf(dir, lsn)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f(data[off:])
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A damaged record in the middle of the last segment ends replay there with
// a clear message; the server side (Open) starts, and new WAL goes after the
// last good record.
func TestCorruptTailStopsReplay(t *testing.T) {
	cases := []struct {
		name, msg string
		spoil     func(b []byte)
	}{
		{"flipped-data-byte", "incorrect resource manager data checksum", func(b []byte) { b[RecordHeaderSize+5] ^= 0x40 }},
		{"flipped-header-byte", "incorrect resource manager data checksum", func(b []byte) { b[16] ^= 0x01 }},
		{"zeroed-length", "invalid record length", func(b []byte) { clear(b[0:4]) }},
		{"huge-length", "invalid record length", func(b []byte) { binary.LittleEndian.PutUint32(b, 1<<30) }},
		{"torn-half-zero", "incorrect resource manager data checksum", func(b []byte) {
			n := int(binary.LittleEndian.Uint32(b))
			clear(b[n/2 : n])
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			l := openTest(t, dir, testOptions(nil))
			rng := rand.New(rand.NewPCG(3, 4))
			var starts []uint64
			var recs []*Record
			// Fill a few segments.
			for l.InsertLSN() < 4*testSegSize+testSegSize/2 {
				rec := randomRecord(rng, len(recs))
				s, _, err := l.insert(rec)
				if err != nil {
					t.Fatal(err)
				}
				starts, recs = append(starts, s), append(recs, rec)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			// Damage a record in the middle of the last segment.
			lastSeg := l.InsertLSN() / testSegSize
			bad := -1
			for i, s := range starts {
				if s/testSegSize == lastSeg && s%testSegSize > testSegSize/4 {
					bad = i
					break
				}
			}
			spoil(t, dir, starts[bad], tc.spoil)

			var lb logBuf
			l2 := openTest(t, dir, testOptions(&lb))
			if l2.InsertLSN() != starts[bad] {
				t.Fatalf("end of WAL at %s, want %s", FormatLSN(l2.InsertLSN()), FormatLSN(starts[bad]))
			}
			if !strings.Contains(lb.String(), tc.msg) || !strings.Contains(lb.String(), FormatLSN(starts[bad])) {
				t.Fatalf("log does not say %q at %s:\n%s", tc.msg, FormatLSN(starts[bad]), lb.String())
			}
			replayed := 0
			l2.RegisterRedo(RmgrHeap, func(rec *DecodedRecord) error {
				sameRecord(t, recs[replayed], rec)
				replayed++
				return nil
			})
			if _, err := l2.Recover(); err != nil {
				t.Fatal(err)
			}
			if replayed != bad {
				t.Fatalf("replayed %d records, want %d", replayed, bad)
			}
			// New records overwrite the damaged tail; what followed it is
			// gone for good, even after another restart.
			newRec := &Record{Rmgr: RmgrHeap, Xid: 7, MainData: []byte("new after recovery")}
			if _, err := l2.Insert(newRec); err != nil {
				t.Fatal(err)
			}
			if err := l2.Close(); err != nil {
				t.Fatal(err)
			}
			l3 := openTest(t, dir, testOptions(nil))
			defer l3.Close()
			var got []*Record
			l3.RegisterRedo(RmgrHeap, func(rec *DecodedRecord) error {
				got = append(got, &Record{Rmgr: rec.Rmgr, Xid: rec.Xid, MainData: bytes.Clone(rec.MainData)})
				return nil
			})
			if _, err := l3.Recover(); err != nil {
				t.Fatal(err)
			}
			if len(got) != bad+1 || string(got[bad].MainData) != "new after recovery" {
				t.Fatalf("after second restart: %d records", len(got))
			}
		})
	}
}

// standardPage returns a PageInit'ed page with some items, lower/upper as given.
func testPage(lower, upper int, fill byte) []byte {
	p := make([]byte, page.BlockSize)
	binary.LittleEndian.PutUint16(p[12:], uint16(lower))
	binary.LittleEndian.PutUint16(p[14:], uint16(upper))
	binary.LittleEndian.PutUint16(p[16:], page.BlockSize)
	binary.LittleEndian.PutUint16(p[18:], page.BlockSize|4)
	for i := page.HeaderSize; i < lower; i++ {
		p[i] = fill + byte(i)
	}
	for i := upper; i < page.BlockSize; i++ {
		p[i] = fill ^ byte(i)
	}
	return p
}

func TestFPIHoleRoundTrip(t *testing.T) {
	cases := []struct {
		name    string
		page    []byte
		holeLen int
	}{
		{"hole", testPage(40, 7000, 3), 7000 - 40},
		{"full-page-no-hole", testPage(4000, 4000, 5), 0},
		{"empty-page", testPage(page.HeaderSize, page.BlockSize, 9), page.BlockSize - page.HeaderSize},
		{"zero-page", make([]byte, page.BlockSize), 0},
		{"bogus-lower-above-upper", testPage(5000, 100, 1), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := openTest(t, t.TempDir(), testOptions(nil))
			defer l.Close()
			before := l.Stats()
			orig := bytes.Clone(tc.page)
			rec := &Record{Rmgr: RmgrHeap, Info: 0x10, Xid: 5, MainData: []byte("m"),
				Blocks: []BlockRef{{Rel: 1, Block: 3, Page: tc.page, ForceImage: true, Data: []byte("d")}}}
			start, end, err := l.insert(rec)
			if err != nil {
				t.Fatal(err)
			}
			// The image replaces the block's data: main data "m" only.
			// XLogRecord, block header, image header, RelFileNode, block
			// number, the image, the main data's header and byte.
			want := RecordHeaderSize + BlockHeaderSize + BlockImageHeaderSize + RelFileNodeSize + BlockNumberSize +
				page.BlockSize - tc.holeLen + 2 + 1
			if int(end-start) != want {
				t.Fatalf("record is %d bytes, want %d", end-start, want)
			}
			if err := l.FlushAll(); err != nil {
				t.Fatal(err)
			}
			rd := l.NewReader(start)
			defer rd.Close()
			got, err := rd.Next()
			if err != nil {
				t.Fatal(err)
			}
			b := got.Blocks[0]
			if !b.HasImage || b.HoleLen != tc.holeLen || len(b.Data) != 0 || string(got.MainData) != "m" {
				t.Fatalf("block %+v", b)
			}
			dst := bytes.Repeat([]byte{0xEE}, page.BlockSize)
			if !got.RestoreImage(0, dst) || !bytes.Equal(dst, orig) {
				t.Fatal("restored page differs from the original")
			}
			if s := l.Stats(); s.FPI-before.FPI != 1 {
				t.Fatalf("wal_fpi +%d", s.FPI-before.FPI)
			}
		})
	}
}

func TestFullPageImageDecision(t *testing.T) {
	l := openTest(t, t.TempDir(), testOptions(nil))
	defer l.Close()
	redo := l.RedoLSN()
	old := testPage(40, 8000, 1)
	page.SetLSN(old, redo) // last changed before the redo point
	fresh := testPage(40, 8000, 2)

	insert := func(b BlockRef) bool {
		t.Helper()
		before := l.Stats().FPI
		if _, err := l.Insert(&Record{Rmgr: RmgrHeap, Blocks: []BlockRef{b}}); err != nil {
			t.Fatal(err)
		}
		return l.Stats().FPI > before
	}
	lsn, _ := l.Insert(&Record{Rmgr: RmgrHeap})
	page.SetLSN(fresh, lsn) // changed after the redo point

	steps := []struct {
		name string
		ref  BlockRef
		fpw  bool
		want bool
	}{
		{"page older than redo", BlockRef{Rel: 1, Page: old}, true, true},
		{"page newer than redo", BlockRef{Rel: 1, Page: fresh}, true, false},
		{"no page given", BlockRef{Rel: 1}, true, false},
		{"will init", BlockRef{Rel: 1, Page: old, WillInit: true}, true, false},
		{"forced", BlockRef{Rel: 1, Page: fresh, ForceImage: true}, true, true},
		{"full_page_writes off", BlockRef{Rel: 1, Page: old}, false, false},
	}
	for _, s := range steps {
		l.SetFullPageWrites(s.fpw)
		if s.ref.Page != nil && !s.ref.WillInit && !s.ref.ForceImage && l.NeedsFPI(page.LSN(s.ref.Page)) != s.want {
			t.Fatalf("%s: NeedsFPI %v", s.name, !s.want)
		}
		if got := insert(s.ref); got != s.want {
			t.Fatalf("%s: image %v, want %v", s.name, got, s.want)
		}
	}
	l.SetFullPageWrites(true)
	// After a checkpoint the fresh page is older than the redo point.
	if _, err := l.Checkpoint(CheckpointOptions{}); err != nil {
		t.Fatal(err)
	}
	if !l.NeedsFPI(page.LSN(fresh)) || !insert(BlockRef{Rel: 1, Page: fresh}) {
		t.Fatal("no image for the first change after a checkpoint")
	}
}

func TestCheckpointControlFileAndRecycling(t *testing.T) {
	dir := t.TempDir()
	o := testOptions(nil)
	o.RecycleSegments = 2
	l := openTest(t, dir, o)
	fill := func(upto uint64) {
		for l.InsertLSN() < upto {
			if _, err := l.Insert(&Record{Rmgr: RmgrHeap, MainData: make([]byte, 1000)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.FlushAll(); err != nil {
			t.Fatal(err)
		}
	}
	fill(8 * testSegSize)
	flushed := false
	ck, err := l.Checkpoint(CheckpointOptions{Extra: []byte("nextxid=42"), FlushBuffers: func(redo uint64, _ *CheckpointProgress) error {
		flushed = redo == l.RedoLSN()
		return nil
	}})
	if err != nil || !flushed {
		t.Fatalf("checkpoint: %v, FlushBuffers called with the redo point: %v", err, flushed)
	}
	segs, _ := listSegments(l.Dir(), testSegSize)
	redoSeg := ck.Redo / testSegSize
	future := 0
	for _, s := range segs {
		if s < redoSeg {
			t.Fatalf("segment %d before the redo segment %d survived", s, redoSeg)
		}
		if s > redoSeg {
			future++
		}
	}
	if future != 2 {
		t.Fatalf("%d recycled segments, want 2 (%v)", future, segs)
	}
	ctl, err := readControl(filepath.Join(dir, "global", "pg_control"))
	if err != nil || ctl.Checkpoint != ck.LSN || ctl.Redo != ck.Redo || ctl.State != StateInProduction {
		t.Fatalf("control %+v, %v; checkpoint %+v", ctl, err, ck)
	}
	// Write through the recycled segments (their stale records must not be
	// read as ours), then shut down cleanly.
	fill(l.InsertLSN() + 3*testSegSize + 100)
	end := l.InsertLSN()
	if _, err := l.Checkpoint(CheckpointOptions{Shutdown: true, Extra: []byte("nextxid=43")}); err != nil {
		t.Fatal(err)
	}
	end2 := l.InsertLSN()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l2 := openTest(t, dir, o)
	defer l2.Close()
	if l2.NeedsRecovery() || l2.InsertLSN() != end2 || end2 <= end {
		t.Fatalf("after clean shutdown: needs recovery %v, end %s want %s", l2.NeedsRecovery(),
			FormatLSN(l2.InsertLSN()), FormatLSN(end2))
	}
	if lc := l2.LastCheckpoint(); string(lc.Extra) != "nextxid=43" || !lc.Shutdown || lc.Redo != end {
		t.Fatalf("last checkpoint %+v", lc)
	}
	if st, err := l2.Recover(); err != nil || st.Records != 0 {
		t.Fatalf("recover after clean shutdown: %+v %v", st, err)
	}
	// A damaged control file is reported as corruption.
	cp := filepath.Join(dir, "global", "pg_control")
	b, _ := os.ReadFile(cp)
	b[20] ^= 1
	os.WriteFile(cp, b, 0o600)
	if _, err := Open(dir, o); err == nil || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("open with a damaged control file: %v", err)
	}
}

// The heap-style use of the package with the buffer pool: page changes are
// logged with images after a checkpoint, the pool obeys the WAL rule, and
// after a crash with a torn page on disk Recover rebuilds every page.
func TestRecoveryWithBufferPoolAndTornPage(t *testing.T) {
	dir := t.TempDir()
	const rel = 16384
	const rmgrTest RmgrID = 200 // "set byte Data[0..3] at offset Data[4..5]"
	var pool *buffer.Pool
	var l *Log
	open := func() {
		l = openTest(t, dir, testOptions(nil))
		var err error
		pool, err = buffer.NewPool(buffer.Options{Dir: filepath.Join(dir, "base"), NBuffers: 16, FlushWAL: l.Flush})
		if err != nil {
			t.Fatal(err)
		}
		l.RegisterRedo(rmgrTest, func(rec *DecodedRecord) error {
			for i := range rec.Blocks {
				buf, action, err := ReadBufferForRedo(pool, rec, i)
				if err != nil {
					return err
				}
				if action == BlockNeedsRedo {
					p := buf.Page()
					if rec.Blocks[i].WillInit {
						page.Init(p, 4096) // changes go to the special space, outside the hole
					}
					d := rec.Blocks[i].Data
					if len(d) > 0 {
						off := int(binary.LittleEndian.Uint16(d[4:]))
						copy(p[off:], d[:4])
					}
					page.SetLSN(p, rec.EndLSN)
					buf.MarkDirty()
				}
				buf.Unlock()
				buf.Release()
			}
			return nil
		})
	}
	open()
	if err := pool.CreateRel(rel); err != nil {
		t.Fatal(err)
	}
	const nblocks = 40
	want := make([][]byte, nblocks)
	change := func(blk uint32, off int, val uint32, init bool) {
		buf, err := pool.ReadBuffer(rel, buffer.MainFork, blk)
		if err != nil {
			t.Fatal(err)
		}
		buf.Lock()
		p := buf.Page()
		if init {
			page.Init(p, 4096) // changes go to the special space, outside the hole
		}
		d := make([]byte, 6)
		binary.LittleEndian.PutUint32(d, val)
		binary.LittleEndian.PutUint16(d[4:], uint16(off))
		copy(p[off:], d[:4])
		lsn, err := l.Insert(&Record{Rmgr: rmgrTest, Blocks: []BlockRef{{Rel: rel, Block: blk, Page: p, WillInit: init, Data: d}}})
		if err != nil {
			t.Fatal(err)
		}
		page.SetLSN(p, lsn)
		buf.MarkDirty()
		want[blk] = bytes.Clone(p)
		buf.Unlock()
		buf.Release()
	}
	lock := pool.ExtensionLock(rel)
	lock.Lock()
	if _, err := pool.Extend(rel, buffer.MainFork, nblocks); err != nil {
		t.Fatal(err)
	}
	lock.Unlock()
	for blk := uint32(0); blk < nblocks; blk++ {
		change(blk, 4096, blk, true)
	}
	// Checkpoint: pages on disk, redo point moves; the next change of each
	// page carries an image.
	if _, err := l.Checkpoint(CheckpointOptions{FlushBuffers: func(uint64, *CheckpointProgress) error {
		if err := pool.FlushAll(); err != nil {
			return err
		}
		return pool.Sync()
	}}); err != nil {
		t.Fatal(err)
	}
	fpiBefore := l.Stats().FPI
	rng := rand.New(rand.NewPCG(5, 6))
	change(7, 4100, 0xDEADBEEF, false) // block 7 gets an image
	for i := 0; i < 400; i++ {
		change(rng.Uint32N(nblocks), 4096+4*rng.IntN(1000), rng.Uint32(), false)
	}
	if got := l.Stats().FPI - fpiBefore; got == 0 || got > nblocks {
		t.Fatalf("%d images after the checkpoint, want 1..%d", got, nblocks)
	}
	// Crash: WAL flushed (a commit), pool dropped without writing the rest.
	if err := l.FlushAll(); err != nil {
		t.Fatal(err)
	}
	// Some pages reached disk (eviction); tear one of them: its first half
	// garbage (a header that fails verification), its second half from the
	// newest version.
	l.Close()
	path := filepath.Join(dir, "base", "16384")
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	torn := append(bytes.Repeat([]byte{0x5A}, page.BlockSize/2), want[7][page.BlockSize/2:]...)
	f.WriteAt(torn, 7*page.BlockSize)
	f.Close()

	open()
	defer l.Close()
	if _, err := pool.ReadBuffer(rel, buffer.MainFork, 7); !pgerr.IsCorruption(err) {
		t.Fatalf("torn page before recovery: %v", err)
	}
	st, err := l.Recover()
	if err != nil {
		t.Fatal(err)
	}
	if st.FPI == 0 {
		t.Fatalf("recovery used no images: %+v", st)
	}
	for blk := uint32(0); blk < nblocks; blk++ {
		buf, err := pool.ReadBuffer(rel, buffer.MainFork, blk)
		if err != nil {
			t.Fatal(err)
		}
		buf.RLock()
		ok := bytes.Equal(buf.Page(), want[blk])
		buf.RUnlock()
		buf.Release()
		if !ok {
			got := buf.Page()
			for i := range got {
				if got[i] != want[blk][i] {
					t.Logf("first diff at %d: %x vs %x", i, got[i:i+8], want[blk][i:i+8])
					break
				}
			}
			t.Fatalf("block %d differs after recovery", blk)
		}
	}
	if err := pool.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestStorageRedo(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base")
	l := openTest(t, dir, testOptions(nil))
	pool, err := buffer.NewPool(buffer.Options{Dir: base, NBuffers: 16, FlushWAL: l.Flush})
	if err != nil {
		t.Fatal(err)
	}
	steps := []func() (uint64, error){
		func() (uint64, error) { return l.LogCreate(1, buffer.MainFork) },
		func() (uint64, error) { return l.LogCreate(1, buffer.FSMFork) },
		func() (uint64, error) { return l.LogCreate(2, buffer.MainFork) },
		func() (uint64, error) { return l.LogTruncate(1, buffer.MainFork, 3) },
		func() (uint64, error) { return l.LogDrop(2) },
	}
	for _, s := range steps {
		if _, err := s(); err != nil {
			t.Fatal(err)
		}
	}
	// Only rel 1's main fork was ever extended (6 pages, never synced).
	pool.CreateRel(1)
	pool.Extend(1, buffer.MainFork, 6)
	if err := l.FlushAll(); err != nil {
		t.Fatal(err)
	}
	l.Close()
	l = openTest(t, dir, testOptions(nil))
	defer l.Close()
	pool2, err := buffer.NewPool(buffer.Options{Dir: base, NBuffers: 16, FlushWAL: l.Flush})
	if err != nil {
		t.Fatal(err)
	}
	defer pool2.Close()
	l.RegisterRedo(RmgrStorage, StorageRedo(pool2))
	if _, err := l.Recover(); err != nil {
		t.Fatal(err)
	}
	if n, _ := pool2.NBlocks(1, buffer.MainFork); n != 3 || !pool2.Exists(1, buffer.FSMFork) || pool2.Exists(2, buffer.MainFork) {
		t.Fatalf("after redo: rel 1 has %d blocks, fsm %v, rel 2 exists %v", n,
			pool2.Exists(1, buffer.FSMFork), pool2.Exists(2, buffer.MainFork))
	}
}

func TestCheckpointerVolumeAndRequest(t *testing.T) {
	l := openTest(t, t.TempDir(), testOptions(nil))
	defer l.Close()
	var mu sync.Mutex
	calls := 0
	c := l.StartCheckpointer(CheckpointerOptions{MaxWAL: 4 * testSegSize, Poll: time.Millisecond,
		Prepare: func() CheckpointOptions {
			return CheckpointOptions{FlushBuffers: func(uint64, *CheckpointProgress) error {
				mu.Lock()
				calls++
				mu.Unlock()
				return nil
			}}
		}})
	defer c.Stop()
	if err := c.Request(); err != nil {
		t.Fatal(err)
	}
	before := l.Stats().Checkpoints
	if before < 1 {
		t.Fatal("requested checkpoint did not run")
	}
	// Write more than MaxWAL / (1 + checkpoint_completion_target) since the
	// redo point: a checkpoint follows, counted as requested.
	reqBefore := l.Stats().CheckpointsReq
	for float64(l.InsertLSN()-l.RedoLSN()) <= 4*testSegSize/1.9 {
		if _, err := l.Insert(&Record{Rmgr: RmgrHeap, MainData: make([]byte, 1000)}); err != nil {
			t.Fatal(err)
		}
	}
	for l.Stats().Checkpoints == before {
		time.Sleep(time.Millisecond)
	}
	c.Stop()
	if st := l.Stats(); st.CheckpointsReq <= reqBefore || st.CheckpointsTimed != 0 {
		t.Fatalf("WAL-triggered checkpoint counted as %+v", st)
	}
	if err := c.Request(); !errors.Is(err, ErrClosed) {
		t.Fatalf("request after stop: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if int64(calls) != l.Stats().Checkpoints-1 { // the bootstrap checkpoint has no FlushBuffers
		t.Fatalf("%d FlushBuffers calls, %d checkpoints", calls, l.Stats().Checkpoints)
	}
}

// Asynchronous commit: without Flush, the WAL writer makes the record
// durable on its own.
func TestWALWriterFlushesAsyncCommits(t *testing.T) {
	o := testOptions(nil)
	o.WriterDelay = time.Millisecond
	l := openTest(t, t.TempDir(), o)
	defer l.Close()
	lsn, err := l.Insert(&Record{Rmgr: RmgrXact, MainData: []byte("async")})
	if err != nil {
		t.Fatal(err)
	}
	for l.FlushedLSN() < lsn {
		time.Sleep(time.Millisecond)
	}
}

// A crash can leave the WAL cut at any byte, followed by zeroes (never
// written) or garbage (old or torn sectors). Open must end the WAL exactly at
// the last record that lies wholly before the cut.
func TestTornWriteAtAnyByte(t *testing.T) {
	src := t.TempDir()
	l := openTest(t, src, testOptions(nil))
	rng := rand.New(rand.NewPCG(7, 8))
	var starts []uint64
	for l.InsertLSN() < 3*testSegSize+testSegSize/3 {
		s, _, err := l.insert(randomRecord(rng, len(starts)))
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, s)
	}
	end := l.InsertLSN()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	segs, _ := listSegments(filepath.Join(src, "wal"), testSegSize)
	files := map[uint64][]byte{}
	for _, s := range segs {
		files[s], _ = os.ReadFile(filepath.Join(src, "wal", SegmentName(s, testSegSize)))
	}
	control, _ := os.ReadFile(filepath.Join(src, "global", "pg_control"))
	first := starts[0]
	for i := 0; i < 40; i++ {
		cut := first + 1 + rng.Uint64N(end-first-1)
		if i == 0 {
			cut = starts[len(starts)/2] // exactly at a record boundary
		}
		garbage := i%2 == 1
		t.Run(fmt.Sprintf("cut=%s/garbage=%v", FormatLSN(cut), garbage), func(t *testing.T) {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "wal"), 0o700)
			os.MkdirAll(filepath.Join(dir, "global"), 0o700)
			os.WriteFile(filepath.Join(dir, "global", "pg_control"), control, 0o600)
			for s, data := range files {
				data = bytes.Clone(data)
				lo, hi := int64(s)*testSegSize, int64(s+1)*testSegSize
				for pos := max(lo, int64(cut)); pos < hi; pos++ {
					if garbage {
						data[pos-lo] = byte(rng.Uint32())
					} else {
						data[pos-lo] = 0
					}
				}
				os.WriteFile(filepath.Join(dir, "wal", SegmentName(s, testSegSize)), data, 0o600)
			}
			// The last record wholly before the cut.
			want := starts[0]
			for j := range starts {
				recEnd := end
				if j+1 < len(starts) {
					recEnd = starts[j+1]
				}
				if recEnd > cut {
					break
				}
				want = recEnd
			}
			l := openTest(t, dir, testOptions(nil))
			defer l.Close()
			if got := l.InsertLSN(); got != want {
				t.Fatalf("end of WAL %s, want %s", FormatLSN(got), FormatLSN(want))
			}
			n := 0
			l.RegisterRedo(RmgrHeap, func(*DecodedRecord) error { n++; return nil })
			if _, err := l.Recover(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Once inserts pass the middle of a segment, the WAL writer creates the
// next one in the background, full size, so that the insert that crosses
// into it does not wait for the zero-fill; the log then continues into
// it and reopens at the same end.
func TestWALWriterPreallocatesNextSegment(t *testing.T) {
	dir := t.TempDir()
	o := testOptions(nil)
	o.WriterDelay = time.Hour // only the preallocation wakes the writer
	l := openTest(t, dir, o)
	cur := l.InsertLSN() / testSegSize
	next := l.segPath(cur + 2)
	for l.InsertLSN()/testSegSize <= cur { // into segment cur+1, which the start-up checkpoint made
		if _, err := l.Insert(&Record{Rmgr: RmgrHeap, MainData: make([]byte, 1000)}); err != nil {
			t.Fatal(err)
		}
	}
	cur++
	if _, err := os.Stat(next); !os.IsNotExist(err) {
		t.Fatalf("segment %d exists before its predecessor is half full: %v", cur+1, err)
	}
	for l.InsertLSN()%testSegSize < testSegSize/2 && l.InsertLSN()/testSegSize == cur {
		if _, err := l.Insert(&Record{Rmgr: RmgrHeap, MainData: make([]byte, 1000)}); err != nil {
			t.Fatal(err)
		}
	}
	if l.InsertLSN()/testSegSize != cur {
		t.Fatalf("records crossed the segment before its middle was seen")
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		st, err := os.Stat(next)
		if err == nil && st.Size() == testSegSize {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("segment %d not preallocated: %v", cur+1, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(dir, "wal", "xlogtemp.prealloc")); !os.IsNotExist(err) {
		t.Fatalf("temporary file left behind: %v", err)
	}
	for l.InsertLSN()/testSegSize <= cur+1 {
		if _, err := l.Insert(&Record{Rmgr: RmgrHeap, MainData: make([]byte, 1000)}); err != nil {
			t.Fatal(err)
		}
	}
	end := l.InsertLSN()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l2 := openTest(t, dir, testOptions(nil))
	defer l2.Close()
	if l2.InsertLSN() != end {
		t.Fatalf("reopened at %s, want %s", FormatLSN(l2.InsertLSN()), FormatLSN(end))
	}
}

// TestReaderReadAhead reads records of up to 40 KB over 1 MB segments, so
// that records straddle both the read-ahead window and segment ends, and
// checks each against what was written and that the reader read each
// segment in windows rather than per record.
func TestReaderReadAhead(t *testing.T) {
	const segSize = 1 << 20
	o := testOptions(nil)
	o.SegmentSize = segSize
	l := openTest(t, t.TempDir(), o)
	defer l.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	var recs []*Record
	var starts []uint64
	for l.InsertLSN() < 5*segSize {
		rec := randomRecord(rng, len(recs))
		rec.MainData = make([]byte, rng.IntN(40<<10))
		for j := range rec.MainData {
			rec.MainData[j] = byte(rng.Uint32())
		}
		s, _, err := l.insert(rec)
		if err != nil {
			t.Fatal(err)
		}
		recs, starts = append(recs, rec), append(starts, s)
	}
	if err := l.FlushAll(); err != nil {
		t.Fatal(err)
	}
	rd := l.NewReader(starts[0])
	defer rd.Close()
	for i := range recs {
		rec, err := rd.Next()
		if err != nil {
			t.Fatalf("record %d of %d: %v (%s)", i, len(recs), err, rd.EndReason)
		}
		if rec.LSN != starts[i] {
			t.Fatalf("record %d at %s, want %s", i, FormatLSN(rec.LSN), FormatLSN(starts[i]))
		}
		sameRecord(t, recs[i], rec)
	}
	if _, err := rd.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last record: %v", err)
	}
	// 5 MB in 256 KB windows, each segment's last window cut at its end:
	// about 20 reads, against two per record (thousands) without read-ahead.
	span := rd.EndLSN() - starts[0]
	if limit := int(span/readAhead) + 2*int(span/segSize+2); rd.reads > limit || len(recs) < 200 {
		t.Fatalf("%d records over %d bytes took %d segment reads, want at most %d", len(recs), span, rd.reads, limit)
	}
}

// TestCutTailSetsLaterSegmentsAside damages a record two segments before
// the last: Open takes the later segments out of the WAL at once (renamed,
// so their records, valid at their own positions, can never follow the new
// end) and removes them in the background, as it removes set-aside files
// a crash left behind.
func TestCutTailSetsLaterSegmentsAside(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions(nil))
	rng := rand.New(rand.NewPCG(5, 6))
	var starts []uint64
	for l.InsertLSN() < 5*testSegSize+testSegSize/2 {
		s, _, err := l.insert(randomRecord(rng, len(starts)))
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, s)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	bad := -1
	for i, s := range starts {
		if s/testSegSize == 3 && s%testSegSize > testSegSize/4 {
			bad = i
			break
		}
	}
	spoil(t, dir, starts[bad], func(b []byte) { b[RecordHeaderSize+1] ^= 0x10 })
	leftover := filepath.Join(dir, "wal", setAsidePrefix+"000000010000000000000099")
	if err := os.WriteFile(leftover, []byte("stale"), 0o600); err != nil {
		t.Fatal(err)
	}

	o := testOptions(nil)
	o.WriterDelay = 10 * time.Millisecond
	l2 := openTest(t, dir, o)
	if l2.InsertLSN() != starts[bad] {
		t.Fatalf("end of WAL at %s, want %s", FormatLSN(l2.InsertLSN()), FormatLSN(starts[bad]))
	}
	segs, err := listSegments(filepath.Join(dir, "wal"), testSegSize)
	if err != nil {
		t.Fatal(err)
	}
	if last := segs[len(segs)-1]; last > 3 {
		t.Fatalf("segment %d still in the WAL after the end in segment 3: %v", last, segs)
	}
	// New records run on into segment 4, a fresh one.
	for l2.InsertLSN() < 4*testSegSize+testSegSize/2 {
		if _, err := l2.Insert(&Record{Rmgr: RmgrHeap, Xid: 9, MainData: make([]byte, 500)}); err != nil {
			t.Fatal(err)
		}
	}
	end := l2.InsertLSN()
	if err := l2.Close(); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(filepath.Join(dir, "wal"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), setAsidePrefix) {
			t.Errorf("%s left in the WAL directory after Close", e.Name())
		}
	}
	l3 := openTest(t, dir, testOptions(nil))
	defer l3.Close()
	n := 0
	l3.RegisterRedo(RmgrHeap, func(rec *DecodedRecord) error { n++; return nil })
	if _, err := l3.Recover(); err != nil {
		t.Fatal(err)
	}
	if l3.InsertLSN() != end {
		t.Fatalf("after the restart the WAL ends at %s, want %s (%d records replayed)", FormatLSN(l3.InsertLSN()), FormatLSN(end), n)
	}
}

// TestCleanShutdownKeepsRecycledSegments: after a clean shutdown the
// segments the checkpoints recycled stay for the WAL to run into (no new
// file to zero-fill); records written through them after the restart are
// all replayed after a crash, and none of their stale ones.
func TestCleanShutdownKeepsRecycledSegments(t *testing.T) {
	dir := t.TempDir()
	o := testOptions(nil)
	o.RecycleSegments = 3
	l := openTest(t, dir, o)
	fill := func(l *Log, upto uint64) int {
		n := 0
		for l.InsertLSN() < upto {
			if _, err := l.Insert(&Record{Rmgr: RmgrHeap, Xid: uint32(n), MainData: make([]byte, 700)}); err != nil {
				t.Fatal(err)
			}
			n++
		}
		if err := l.FlushAll(); err != nil {
			t.Fatal(err)
		}
		return n
	}
	fill(l, 8*testSegSize)
	if _, err := l.Checkpoint(CheckpointOptions{Shutdown: true}); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	before, _ := listSegments(filepath.Join(dir, "wal"), testSegSize)

	l2 := openTest(t, dir, o)
	after, _ := listSegments(l2.Dir(), testSegSize)
	endSeg := l2.InsertLSN() / testSegSize
	ahead := 0
	for _, s := range after {
		if s > endSeg {
			ahead++
		}
	}
	if ahead != 3 || len(after) != len(before) {
		t.Fatalf("segments before the restart %v, after %v: %d ahead of segment %d, want the 3 recycled", before, after, ahead, endSeg)
	}
	start := l2.InsertLSN()
	n := fill(l2, start+3*testSegSize+testSegSize/3) // through the recycled segments
	end := l2.InsertLSN()
	l2.closeFiles() // a crash: no shutdown checkpoint
	l2.closed.Store(true)
	close(l2.stop)

	l3 := openTest(t, dir, o)
	defer l3.Close()
	got := 0
	l3.RegisterRedo(RmgrHeap, func(rec *DecodedRecord) error {
		if rec.LSN >= start {
			if rec.Xid != uint32(got) {
				t.Fatalf("record at %s has xid %d, want %d", FormatLSN(rec.LSN), rec.Xid, got)
			}
			got++
		}
		return nil
	})
	if _, err := l3.Recover(); err != nil {
		t.Fatal(err)
	}
	if got != n || l3.InsertLSN() != end {
		t.Fatalf("replayed %d of the %d records written after the restart, end %s want %s", got, n, FormatLSN(l3.InsertLSN()), FormatLSN(end))
	}
}

package nbtree

import (
	"bytes"
	"encoding/binary"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"minipg/storage/buffer"
	"minipg/storage/page"
	"minipg/storage/wal"
)

const testRel = buffer.RelFileNode(16500)

// env is an index with a WAL in a data directory that can "crash": drop
// the buffer pool without writing it and replay the log into a new one.
type env struct {
	dir   string
	nbuf  int
	log   *wal.Log
	pool  *buffer.Pool
	ix    *Index
	opts  Options
	stats wal.RecoveryStats
}

func openEnv(t testing.TB, dir string, nbuf int, opts Options) *env {
	t.Helper()
	l, err := wal.Open(dir, wal.Options{SegmentSize: 1 << 20, NoSync: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	// The log's writer may preallocate a segment at any time: it stops
	// before the test's directory is removed (cleanups run last first).
	t.Cleanup(func() { l.Close() })
	pool, err := buffer.NewPool(buffer.Options{Dir: filepath.Join(dir, "base"), NBuffers: nbuf, FlushWAL: l.Flush})
	if err != nil {
		t.Fatal(err)
	}
	RegisterRedo(l, pool)
	l.RegisterRedo(wal.RmgrStorage, wal.StorageRedo(pool))
	st, err := l.Recover()
	if err != nil {
		t.Fatal(err)
	}
	opts.WAL = l
	e := &env{dir: dir, nbuf: nbuf, log: l, pool: pool, opts: opts, stats: st}
	if n, _ := pool.NBlocks(testRel, buffer.MainFork); n == 0 {
		if e.ix, err = Create(pool, testRel, opts); err != nil {
			t.Fatal(err)
		}
	} else {
		e.ix = Open(pool, testRel, opts)
	}
	return e
}

// newEnv is openEnv in a new directory.
func newEnv(t testing.TB, nbuf int, opts Options) *env {
	return openEnv(t, t.TempDir(), nbuf, opts)
}

// crash closes the log (everything logged is durable, as after a commit),
// drops the pool unwritten and recovers into a new one.
func (e *env) crash(t testing.TB) *env {
	t.Helper()
	if err := e.log.Close(); err != nil {
		t.Fatal(err)
	}
	return openEnv(t, e.dir, e.nbuf, e.opts)
}

func (e *env) checkpoint(t testing.TB) {
	t.Helper()
	if _, err := e.log.Checkpoint(wal.CheckpointOptions{FlushBuffers: func(uint64, *wal.CheckpointProgress) error {
		if err := e.pool.FlushAll(); err != nil {
			return err
		}
		return e.pool.Sync()
	}}); err != nil {
		t.Fatal(err)
	}
}

// pages returns copies of every page of the index as the pool has them.
// crashSamePages crashes e and fails unless recovery gives back the pages
// e had, byte for byte; it returns the recovered environment.
func crashSamePages(t testing.TB, e *env) *env {
	t.Helper()
	want := e.pages(t)
	r := e.crash(t)
	samePages(t, want, r.pages(t))
	return r
}

// samePages fails unless got holds the pages of want, byte for byte.
func samePages(t testing.TB, want, got [][]byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("recovered index has %d blocks, want %d", len(got), len(want))
	}
	for blk := range want {
		if !bytes.Equal(want[blk], got[blk]) {
			i := 0
			for want[blk][i] == got[blk][i] {
				i++
			}
			t.Fatalf("block %d differs after recovery at byte %d", blk, i)
		}
	}
}

func (e *env) pages(t testing.TB) [][]byte {
	t.Helper()
	n, err := e.pool.NBlocks(testRel, buffer.MainFork)
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]byte, n)
	for blk := range n {
		b, err := e.pool.ReadBuffer(testRel, buffer.MainFork, blk)
		if err != nil {
			t.Fatal(err)
		}
		b.RLock()
		out[blk] = bytes.Clone(b.Page())
		b.RUnlock()
		b.Release()
	}
	return out
}

// mkKey encodes a test key: k as 8 bytes big-endian, then text and a 0
// terminator (self-delimiting, as types.AppendKey's encodings are).
func mkKey(k uint64, text string) []byte {
	b := binary.BigEndian.AppendUint64(nil, k)
	b = append(b, text...)
	return append(b, 0)
}

func mkEntry(k uint64, text string, tid page.TID) []byte {
	return AppendTID(mkKey(k, text), tid)
}

func randEntry(rng *rand.Rand, keys uint64, maxText int) []byte {
	text := strings.Repeat(string(rune('a'+rng.IntN(26))), rng.IntN(maxText+1))
	return mkEntry(rng.Uint64N(keys), text, page.TID{Block: rng.Uint32N(1000), Offset: uint16(1 + rng.IntN(200))})
}

// model is the reference: a set of entries.
type model map[string]struct{}

func (m model) sorted() []string {
	out := make([]string, 0, len(m))
	for e := range m {
		out = append(out, e)
	}
	slices.Sort(out)
	return out
}

// collect runs it to the end.
func collect(t testing.TB, it *Iterator) []string {
	t.Helper()
	var out []string
	for {
		tid, ok := it.Next()
		if !ok {
			break
		}
		if entryTID(it.Entry()) != tid {
			t.Fatalf("Next returned %v for entry %x", tid, it.Entry())
		}
		out = append(out, string(it.Entry()))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// modelRange is what a scan between lo and hi returns, computed on the
// model with package index's prefix comparisons.
func modelRange(sorted []string, lo, hi Bound, reverse bool) []string {
	cmpPrefix := func(a string, b []byte) int {
		n := min(len(a), len(b))
		return strings.Compare(a[:n], string(b[:n]))
	}
	var out []string
	for _, e := range sorted {
		if lo.Key != nil {
			c := cmpPrefix(e, lo.Key)
			if c < 0 || (c == 0 && !lo.Inclusive) {
				continue
			}
		}
		if hi.Key != nil {
			c := cmpPrefix(e, hi.Key)
			if c > 0 || (c == 0 && !hi.Inclusive) {
				continue
			}
		}
		out = append(out, e)
	}
	if reverse {
		slices.Reverse(out)
	}
	return out
}

func mustCheck(t testing.TB, ix *Index) CheckStats {
	t.Helper()
	st, err := ix.Check()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// compareContents fails unless the index holds exactly the model's entries.
func compareContents(t testing.TB, ix *Index, m model) {
	t.Helper()
	want := m.sorted()
	got := collect(t, ix.NewIterator(Bound{}, Bound{}, false))
	if !slices.Equal(got, want) {
		t.Fatalf("index holds %d entries, model %d; first difference at %d", len(got), len(want), firstDiff(got, want))
	}
	n, err := ix.Len()
	if err != nil || n != len(want) {
		t.Fatalf("Len = %d, %v; want %d", n, err, len(want))
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

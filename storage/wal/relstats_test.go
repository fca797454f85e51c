package wal

import (
	"sync"
	"testing"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

func relStatsOf(l *Log, rel buffer.RelFileNode, rmgr RmgrID, info uint8) RelStats {
	for _, s := range l.RelStats() {
		if s.Rel == rel && s.Rmgr == rmgr && s.Info == info {
			return s
		}
	}
	return RelStats{}
}

// Records are counted per relation and record type: the record and its
// bytes for the first block's relation, images and pages dirtied for each
// block's; the sums agree with pg_stat_wal's counters; a reset forgets
// them.
func TestRelStats(t *testing.T) {
	l := openTest(t, t.TempDir(), testOptions(nil))
	defer l.Close()
	before := l.Stats()
	redo := l.RedoLSN()
	old := testPage(40, 8000, 1)
	page.SetLSN(old, redo) // first change since the redo point: an image
	fresh := testPage(40, 8000, 2)
	page.SetLSN(fresh, redo+1)

	ins := func(rec *Record) int64 {
		t.Helper()
		start, end, err := l.insert(rec)
		if err != nil {
			t.Fatal(err)
		}
		return int64(end - start)
	}
	n1 := ins(&Record{Rmgr: RmgrHeap, Info: 0x00, Xid: 3,
		Blocks: []BlockRef{{Rel: 7, Block: 1, Page: old, Dirtied: true, Data: []byte("a")}}})
	n2 := ins(&Record{Rmgr: RmgrHeap, Info: 0x00, Xid: 3,
		Blocks: []BlockRef{{Rel: 7, Block: 2, Page: fresh, Data: []byte("b")}}})
	// An update whose two blocks belong to different relations (not one
	// the heap writes, but the rule must hold).
	n3 := ins(&Record{Rmgr: RmgrHeap, Info: 0x20, Xid: 3, Blocks: []BlockRef{
		{Rel: 7, Block: 2, Page: fresh, Dirtied: true},
		{Rel: 8, Block: 0, Page: old, Dirtied: true}}})
	n4 := ins(&Record{Rmgr: RmgrXact, Info: 0x00, Xid: 3, MainData: []byte("commit")})

	if got, want := relStatsOf(l, 7, RmgrHeap, 0x00), (RelStats{Rel: 7, Rmgr: RmgrHeap, Info: 0x00, Records: 2, FPI: 1, Bytes: n1 + n2, PagesDirtied: 1}); got != want {
		t.Errorf("inserts on 7:\n got %+v\nwant %+v", got, want)
	}
	if got, want := relStatsOf(l, 7, RmgrHeap, 0x20), (RelStats{Rel: 7, Rmgr: RmgrHeap, Info: 0x20, Records: 1, FPI: 0, Bytes: n3, PagesDirtied: 1}); got != want {
		t.Errorf("update on 7:\n got %+v\nwant %+v", got, want)
	}
	if got, want := relStatsOf(l, 8, RmgrHeap, 0x20), (RelStats{Rel: 8, Rmgr: RmgrHeap, Info: 0x20, Records: 0, FPI: 1, PagesDirtied: 1}); got != want {
		t.Errorf("update's second block on 8:\n got %+v\nwant %+v", got, want)
	}
	if got := relStatsOf(l, 0, RmgrXact, 0x00); got.Records != 1 || got.Bytes != n4 {
		t.Errorf("commit without a relation: %+v", got)
	}
	// A storage record has no blocks but is about one relation.
	if _, err := l.LogTruncate(7, buffer.MainFork, 3); err != nil {
		t.Fatal(err)
	}
	if got := relStatsOf(l, 7, RmgrStorage, InfoSmgrTruncate); got.Records != 1 || got.Bytes == 0 {
		t.Errorf("truncation of 7: %+v", got)
	}
	var sum RelStats
	for _, s := range l.RelStats() {
		sum.Records += s.Records
		sum.FPI += s.FPI
		sum.Bytes += s.Bytes
	}
	// Both count since Open (the bootstrap checkpoint included).
	if after := l.Stats(); sum.Records != after.Records || sum.FPI != after.FPI || sum.Bytes != after.Bytes || before.Records == 0 {
		t.Errorf("per-relation sums %+v disagree with pg_stat_wal's %+v", sum, after)
	}
	l.ResetRelStats()
	if got := l.RelStats(); len(got) != 0 {
		t.Errorf("after reset: %+v", got)
	}
	ins(&Record{Rmgr: RmgrHeap, Info: 0x00, Xid: 4, Blocks: []BlockRef{{Rel: 7, Block: 2, Page: fresh}}})
	if got := relStatsOf(l, 7, RmgrHeap, 0x00); got.Records != 1 {
		t.Errorf("counting after reset: %+v", got)
	}
}

// Concurrent inserters lose no count (the counters are atomics reached
// through an immutable map, no lock).
func TestRelStatsConcurrent(t *testing.T) {
	l := openTest(t, t.TempDir(), testOptions(nil))
	defer l.Close()
	const sessions, each = 8, 500
	var wg sync.WaitGroup
	for g := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				rec := &Record{Rmgr: RmgrHeap, Info: 0x00, Xid: 9,
					Blocks: []BlockRef{{Rel: buffer.RelFileNode(100 + g%2), Block: uint32(i), Dirtied: i%2 == 0, Data: []byte("x")}}}
				if _, err := l.Insert(rec); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for rel := buffer.RelFileNode(100); rel <= 101; rel++ {
		s := relStatsOf(l, rel, RmgrHeap, 0x00)
		if s.Records != sessions/2*each || s.PagesDirtied != sessions/2*each/2 {
			t.Errorf("relation %d: %+v", rel, s)
		}
	}
}

func TestRecordTypeName(t *testing.T) {
	for _, c := range []struct {
		rmgr       RmgrID
		info       uint8
		name, kind string
	}{
		{RmgrXLOG, InfoCheckpointOnline, "XLOG", "CHECKPOINT_ONLINE"},
		{RmgrXact, 0x00, "Transaction", "COMMIT"},
		{RmgrXact, 0x20, "Transaction", "ABORT"},
		{RmgrStorage, InfoSmgrCreate, "Storage", "CREATE"},
		{RmgrXLOG, 0xE0, "XLOG", "UNKNOWN (e0)"},
		{200, 0x10, "rmgr 200", "UNKNOWN (10)"},
	} {
		if n, k := RecordTypeName(c.rmgr, c.info); n != c.name || k != c.kind {
			t.Errorf("RecordTypeName(%d, %#x) = %q, %q; want %q, %q", c.rmgr, c.info, n, k, c.name, c.kind)
		}
	}
}

// The per-record cost of the accounting: a sync.Map load and a few atomic
// adds.
func BenchmarkCountRel(b *testing.B) {
	l := openTest(b, b.TempDir(), testOptions(nil))
	defer l.Close()
	rec := &Record{Rmgr: RmgrHeap, Blocks: []BlockRef{{Rel: 1, Block: 7, Dirtied: true}}}
	never := func(*BlockRef) bool { return false }
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.countRel(rec, 200, never)
		}
	})
}

package fsm

import (
	"reflect"
	"testing"
)

func TestTargetFreeSpace(t *testing.T) {
	for _, c := range []struct {
		need, save, run, want int
	}{
		{100, 0, 0, 100},
		{100, 819, 1040, 1855}, // a run of ten: its room less the first line pointer
		{100, 819, 100, 919},   // a run no larger than the row asks for the row
		{100, 819, 7500, 8016}, // a run asks for a nearly empty page at most
		{7000, 1016, 9000, 8016},
		{100, 819, 0, 919},
		{7000, 1016, 0, 8016},
		{7000, 1017, 0, 8016}, // PostgreSQL 16: a nearly empty page will do
		{8000, 819, 0, 8016},
		{8100, 0, 0, 8100},
		{8160, 0, 0, 8160},
	} {
		r := Request{Need: c.need, SaveFree: c.save, RunBytes: c.run}
		if got := r.TargetFreeSpace(); got != c.want {
			t.Errorf("TargetFreeSpace(need %d, save %d, run %d) = %d, want %d", c.need, c.save, c.run, got, c.want)
		}
	}
}

func TestClassicChoose(t *testing.T) {
	m := newTestMap(t, 16)
	pol := NewClassic()
	r := Request{Need: 100, Target: InvalidBlock, OldBlock: InvalidBlock}
	if blk := pol.Choose(m, r); blk != InvalidBlock {
		t.Fatalf("empty relation: %d", blk)
	}
	if _, err := m.pool.Extend(m.rel, 0, 3); err != nil {
		t.Fatal(err)
	}
	// The FSM knows nothing: the last block.
	if blk := pol.Choose(m, r); blk != 2 {
		t.Fatalf("FSM empty: %d, want the last block 2", blk)
	}
	mustRecord(t, m, 1, 500)
	mustVacuumAll(t, m)
	if blk := pol.Choose(m, r); blk != 1 {
		t.Fatalf("FSM knows block 1: got %d", blk)
	}
	// The session's target comes first, whatever the FSM says.
	r.Target = 0
	if blk := pol.Choose(m, r); blk != 0 {
		t.Fatalf("target 0: got %d", blk)
	}
	// The target was full: its real free space is recorded, and the FSM
	// answers; the fillfactor reserve counts in the search.
	if blk := pol.Retry(m, r, 0, 60); blk != 1 {
		t.Fatalf("Retry: %d, want 1", blk)
	}
	if got := m.GetRecordedFreeSpace(0); got != 32 {
		t.Fatalf("block 0 recorded %d, want 32", got)
	}
	r.SaveFree = 819
	if blk := pol.Retry(m, r, 1, 500); blk != InvalidBlock {
		t.Fatalf("Retry with reserve: %d, want InvalidBlock", blk)
	}
	st := pol.Stats()
	if st.TargetTries != 1 || st.TargetHits != 0 || st.Retries != 2 || st.LastBlockTries != 1 || st.FSMAnswers != 2 {
		t.Fatalf("stats %+v", st)
	}
}

// One session inserting 1000 tuples of 100 bytes: 78 fit on a page
// (8164 - 78*104 = 52 < 100), so PostgreSQL uses 13 pages, extending one
// page at a time, and hits its target on every insert but the first of
// each page.
func TestClassicSingleSession(t *testing.T) {
	m := newTestMap(t, 16)
	pol := NewClassic()
	h := newSimHeap(t, m, pol)
	target := InvalidBlock
	for i := 0; i < 1000; i++ {
		blk := h.insert(Request{Need: 100, Target: target, OldBlock: InvalidBlock})
		if want := uint32(i / 78); blk != want {
			t.Fatalf("tuple %d on block %d, want %d", i, blk, want)
		}
		target = blk
	}
	st := pol.Stats()
	want := PolicyStats{TargetTries: 999, TargetHits: 987, Retries: 12, Extensions: 13, BlocksExtended: 13, MaxExtendBy: 1}
	if !reflect.DeepEqual(st, want) {
		t.Fatalf("stats %+v, want %+v", st, want)
	}
	// Each full page's real free space was recorded when the insert left it.
	for b := uint32(0); b < 12; b++ {
		if got := m.GetRecordedFreeSpace(b); got != 32 {
			t.Errorf("block %d recorded %d, want 32", b, got)
		}
	}
}

// PostgreSQL 16's extension sizes: NumPages * (1 + waiters), capped at 64.
func TestExtendBy(t *testing.T) {
	for _, c := range []struct{ numPages, waiters, want int }{
		{0, 0, 1}, {1, 0, 1}, {3, 0, 3}, {1, 3, 4}, {3, 2, 9}, {100, 0, 64}, {1, 70, 64},
	} {
		if got := extendBy(Request{NumPages: c.numPages}, c.waiters); got != c.want {
			t.Errorf("extendBy(%d pages, %d waiters) = %d, want %d", c.numPages, c.waiters, got, c.want)
		}
	}
}

// A multi-insert that needs 3 pages gets 3: the first is the caller's, the
// others are in the FSM (PostgreSQL 16 without a BulkInsertState).
func TestClassicExtendNumPages(t *testing.T) {
	m := newTestMap(t, 16)
	pol := NewClassic()
	r := Request{Need: 100, Target: InvalidBlock, OldBlock: InvalidBlock, NumPages: 3}
	first, err := pol.Extend(m, r)
	if err != nil {
		t.Fatal(err)
	}
	if first != 0 || m.GetRecordedFreeSpace(0) != 0 {
		t.Fatalf("first %d recorded %d", first, m.GetRecordedFreeSpace(0))
	}
	for b := uint32(1); b < 3; b++ {
		if got := m.GetRecordedFreeSpace(b); got != MaxRequestSize {
			t.Errorf("block %d recorded %d", b, got)
		}
	}
	if got := []uint32{m.GetPageWithFreeSpace(8000), m.GetPageWithFreeSpace(8000)}; got[0] != 1 || got[1] != 2 {
		t.Errorf("searches found %v, want [1 2]", got)
	}
	if st := pol.Stats(); st.Extensions != 1 || st.BlocksExtended != 3 {
		t.Errorf("stats %+v", st)
	}
}

// Eight sessions queue on the extension lock: the first to get it sees
// seven waiters and extends by eight blocks; the seven find theirs in the
// FSM after waiting and do not extend.
func TestClassicExtensionWithWaiters(t *testing.T) {
	m := newTestMap(t, 64)
	pol := NewClassic()
	got := extendWithWaiters(t, m, pol, Request{Need: 200, Target: InvalidBlock, OldBlock: InvalidBlock}, 8)
	st := pol.Stats()
	if st.Extensions != 1 || st.BlocksExtended != 8 || st.MaxExtendBy != 8 || st.ExtendRechecks != 7 {
		t.Fatalf("stats %+v", st)
	}
	seen := map[uint32]bool{}
	for _, b := range got {
		seen[b] = true
	}
	if len(seen) != 8 {
		t.Fatalf("sessions got blocks %v, want 8 distinct", got)
	}
}

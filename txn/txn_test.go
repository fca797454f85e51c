package txn

import (
	"context"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"minipg/pgerr"
	"minipg/storage/heap"
)

func open(t *testing.T, dir string) *Manager {
	t.Helper()
	m, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustXid(t *testing.T, tx *Txn) uint32 {
	t.Helper()
	x, err := tx.Xid()
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestClog(t *testing.T) {
	var c clog
	xids := []uint32{0, 1, 2, 3, 4, 7, xidsPerPage - 1, xidsPerPage, 3*xidsPerPage + 5}
	for i, x := range xids {
		c.set(x, byte(i%3))
	}
	c.set(4, statusCommitted) // overwrite
	check := func(c *clog) {
		t.Helper()
		for i, x := range xids {
			want := byte(i % 3)
			if x == 4 {
				want = statusCommitted
			}
			if got := c.get(x); got != want {
				t.Errorf("get(%d) = %d, want %d", x, got, want)
			}
		}
		if got := c.get(10 * xidsPerPage); got != statusInProgress {
			t.Errorf("get beyond end = %d", got)
		}
	}
	check(&c)
	var d clog
	d.load(c.bytes(3*xidsPerPage + 6))
	check(&d)
}

func TestXidsAndStatus(t *testing.T) {
	m := open(t, t.TempDir())
	for xid, want := range map[uint32]heap.XidStatus{0: heap.XidAborted, 1: heap.XidCommitted, 2: heap.XidCommitted, 3: heap.XidAborted} {
		if got := m.Status(xid); got != want {
			t.Errorf("Status(%d) = %v, want %v", xid, got, want)
		}
	}
	ro := m.Begin()
	_ = ro.Snapshot()
	if ro.XidIfAssigned() != InvalidXid {
		t.Fatal("read-only transaction got an xid")
	}
	if err := ro.Commit(); err != nil {
		t.Fatal(err)
	}
	if m.NextXid() != FirstNormalXid {
		t.Fatalf("NextXid = %d after a read-only transaction", m.NextXid())
	}

	a, b := m.Begin(), m.Begin()
	xa, xb := mustXid(t, a), mustXid(t, b)
	if xa != 3 || xb != 4 || mustXid(t, a) != 3 {
		t.Fatalf("xids %d, %d; want 3, 4", xa, xb)
	}
	if m.Status(xa) != heap.XidInProgress {
		t.Fatal("running xid not in progress")
	}
	if err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := b.Abort(); err != nil {
		t.Fatal(err)
	}
	if m.Status(xa) != heap.XidCommitted || m.Status(xb) != heap.XidAborted {
		t.Fatalf("status %v %v", m.Status(xa), m.Status(xb))
	}
	if m.Status(1000) != heap.XidAborted {
		t.Fatal("never-assigned xid should count as aborted")
	}
	if err := a.Abort(); err != nil || m.Status(xa) != heap.XidCommitted {
		t.Fatal("Abort after Commit changed the status")
	}
	if _, err := a.Xid(); err == nil && a.XidIfAssigned() == InvalidXid {
		t.Fatal("ended transaction got an xid")
	}
}

func TestSnapshot(t *testing.T) {
	m := open(t, t.TempDir())
	a, b, c := m.Begin(), m.Begin(), m.Begin()
	xa, xb, xc := mustXid(t, a), mustXid(t, b), mustXid(t, c)
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	s := c.Snapshot()
	if s.Xmin != xa || s.Xmax != xc+1 || !slices.Equal(s.Xip, []uint32{xa}) || s.CurXid != xc || s.CurCid != 0 || s.Oracle != m {
		t.Fatalf("snapshot %+v (xids %d %d %d)", s, xa, xb, xc)
	}
	r := m.Begin()
	s = r.Snapshot()
	if s.Xmin != xa || s.Xmax != xc+1 || !slices.Equal(s.Xip, []uint32{xa, xc}) || s.CurXid != 0 {
		t.Fatalf("read-only snapshot %+v", s)
	}
	// Assigning the xid later fills in the statement's snapshot.
	xr := mustXid(t, r)
	if s.CurXid != xr {
		t.Fatalf("CurXid = %d after Xid, want %d", s.CurXid, xr)
	}
}

func TestCommandIDs(t *testing.T) {
	m := open(t, t.TempDir())
	tx := m.Begin()
	if tx.Snapshot().CurCid != 0 {
		t.Fatal("first cid not 0")
	}
	// A SELECT does not use its command id.
	if err := tx.NextCommand(); err != nil || tx.CommandID() != 0 {
		t.Fatalf("cid advanced by a read: %d", tx.CommandID())
	}
	// An INSERT does; the next statement sees it.
	if tx.UseCommandID() != 0 {
		t.Fatal("UseCommandID")
	}
	if err := tx.NextCommand(); err != nil || tx.CommandID() != 1 || tx.Snapshot().CurCid != 1 {
		t.Fatalf("cid after a write: %d", tx.CommandID())
	}
	tx.cid, tx.cidUsed = InvalidCommand-1, true
	if err := tx.NextCommand(); pgerr.CodeOf(err) != pgerr.ProgramLimitExceeded {
		t.Fatalf("command id overflow: %v", err)
	}
}

func TestWait(t *testing.T) {
	m := open(t, t.TempDir())
	a := m.Begin()
	xa := mustXid(t, a)
	if err := m.Wait(context.Background(), 12345); err != nil {
		t.Fatal("Wait on a finished xid:", err)
	}
	done := make(chan heap.XidStatus)
	go func() {
		if err := m.Wait(context.Background(), xa); err != nil {
			t.Error(err)
		}
		done <- m.Status(xa)
	}()
	ctx, cancel := context.WithCancel(context.Background())
	cancelled := make(chan error)
	go func() { cancelled <- m.Wait(ctx, xa) }()
	cancel()
	if err := <-cancelled; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Wait = %v", err)
	}
	if err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	if st := <-done; st != heap.XidCommitted {
		t.Fatalf("after Wait: %v", st)
	}
}

// awaitWaiting returns once transaction xid is blocked in WaitFor.
func awaitWaiting(m *Manager, xid uint32) {
	for {
		m.mu.RLock()
		_, ok := m.mu.waitsFor[xid]
		m.mu.RUnlock()
		if ok {
			return
		}
		runtimeGosched()
	}
}

func TestDeadlock(t *testing.T) {
	m := open(t, t.TempDir())
	a, b, c := m.Begin(), m.Begin(), m.Begin()
	xa, xb, xc := mustXid(t, a), mustXid(t, b), mustXid(t, c)
	aDone := make(chan error)
	go func() { aDone <- a.WaitFor(context.Background(), xb) }() // a -> b
	bDone := make(chan error)
	awaitWaiting(m, xa)
	go func() { bDone <- b.WaitFor(context.Background(), xc) }() // b -> c
	awaitWaiting(m, xb)
	if err := c.WaitFor(context.Background(), xc); pgerr.CodeOf(err) != pgerr.DeadlockDetected {
		t.Fatalf("waiting for oneself = %v", err)
	}
	// c -> a closes the cycle a -> b -> c -> a.
	err := c.WaitFor(context.Background(), xa)
	if pgerr.CodeOf(err) != pgerr.DeadlockDetected {
		t.Fatalf("WaitFor closing a cycle = %v, want 40P01", err)
	}
	if err := c.Abort(); err != nil {
		t.Fatal(err)
	}
	if err := <-bDone; err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-aDone; err != nil {
		t.Fatal(err)
	}
	if m.Status(xb) != heap.XidCommitted {
		t.Fatal("b not committed")
	}
}

func TestOldestXmin(t *testing.T) {
	m := open(t, t.TempDir())
	if got := m.OldestXmin(); got != FirstNormalXid {
		t.Fatalf("OldestXmin on an idle system = %d", got)
	}
	w := m.Begin()
	xw := mustXid(t, w)
	reader := m.Begin()
	s := reader.Snapshot() // sees xw running
	if s.Xmin != xw {
		t.Fatalf("reader xmin %d", s.Xmin)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	// The reader's statement may still treat xw as running: VACUUM must not
	// remove rows xw deleted.
	if got := m.OldestXmin(); got != xw {
		t.Fatalf("OldestXmin with an old snapshot = %d, want %d", got, xw)
	}
	reader.ResetXmin()
	if got := m.OldestXmin(); got != xw+1 {
		t.Fatalf("OldestXmin after ResetXmin = %d, want %d", got, xw+1)
	}
	_ = reader.Snapshot()
	if err := reader.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := m.OldestXmin(); got != m.NextXid() {
		t.Fatalf("OldestXmin idle = %d, want %d", got, m.NextXid())
	}
}

func TestPersistence(t *testing.T) {
	dir := t.TempDir()
	m := open(t, dir)
	var committed, aborted []uint32
	for i := 0; i < 100; i++ {
		tx := m.Begin()
		x := mustXid(t, tx)
		if i%3 == 0 {
			_ = tx.Abort()
			aborted = append(aborted, x)
		} else {
			_ = tx.Commit()
			committed = append(committed, x)
		}
	}
	running := m.Begin()
	xr := mustXid(t, running)
	if err := m.Save(); err != nil {
		t.Fatal(err)
	}
	m2 := open(t, dir)
	for _, x := range committed {
		if m2.Status(x) != heap.XidCommitted {
			t.Fatalf("xid %d not committed after reopen", x)
		}
	}
	for _, x := range append(aborted, xr) {
		if m2.Status(x) != heap.XidAborted {
			t.Fatalf("xid %d not aborted after reopen", x)
		}
	}
	// Crash without Save: xids handed out after the Save are never reused.
	tx := m2.Begin()
	x1 := mustXid(t, tx)
	if x1 <= xr {
		t.Fatalf("xid %d reused (last before restart %d)", x1, xr)
	}
	_ = tx.Commit()
	m3 := open(t, dir)
	tx = m3.Begin()
	if x2 := mustXid(t, tx); x2 <= x1 {
		t.Fatalf("xid %d reused after crash (had %d)", x2, x1)
	}
	if m3.Status(x1) != heap.XidAborted {
		t.Fatal("commit after the last Save survived without WAL replay")
	}
	// WAL replay corrects it.
	m4 := open(t, dir)
	m4.RecoverCommitted(x1)
	m4.RecoverAborted(x1 + 1)
	m4.AdvanceNextXid(x1 + 100000)
	if m4.Status(x1) != heap.XidCommitted || m4.NextXid() != x1+100000 {
		t.Fatalf("recovery: status %v next %d", m4.Status(x1), m4.NextXid())
	}
	if err := m4.Close(); err != nil {
		t.Fatal(err)
	}
	m5 := open(t, dir)
	if m5.Status(x1) != heap.XidCommitted || m5.NextXid() < x1+100000 {
		t.Fatal("recovered state not saved")
	}
}

func TestCorruptFiles(t *testing.T) {
	for _, name := range []string{clogFile, limitFile} {
		dir := t.TempDir()
		m := open(t, dir)
		tx := m.Begin()
		mustXid(t, tx)
		_ = tx.Commit()
		if err := m.Save(); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)-1] ^= 0x40
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(dir); !pgerr.IsCorruption(err) {
			t.Fatalf("%s: Open of a corrupt file = %v", name, err)
		}
	}
}

func TestCommitHook(t *testing.T) {
	m := open(t, t.TempDir())
	release := make(chan struct{})
	entered := make(chan uint32)
	m.SetCommitHook(func(xid uint32, _ []uint32) error {
		if m.Status(xid) != heap.XidInProgress {
			t.Error("commit log updated before the commit record")
		}
		if xid%2 == 0 {
			return errors.New("disk full")
		}
		entered <- xid
		<-release
		return nil
	})
	var aborted []uint32
	m.SetAbortHook(func(xid uint32, _ []uint32) error { aborted = append(aborted, xid); return nil })

	odd := m.Begin()
	xo := mustXid(t, odd) // 3
	commitDone := make(chan error)
	go func() { commitDone <- odd.Commit() }()
	<-entered
	// A checkpoint started now must wait for the commit to reach the log.
	saveDone := make(chan error)
	go func() { saveDone <- m.Save() }()
	select {
	case err := <-saveDone:
		t.Fatalf("Save returned (%v) while a commit was between record and log", err)
	default:
	}
	close(release)
	if err := <-commitDone; err != nil {
		t.Fatal(err)
	}
	if err := <-saveDone; err != nil {
		t.Fatal(err)
	}
	if m.Status(xo) != heap.XidCommitted {
		t.Fatal("not committed")
	}

	even := m.Begin()
	xe := mustXid(t, even) // 4
	if err := even.Commit(); err == nil || m.Status(xe) != heap.XidAborted {
		t.Fatalf("failed commit hook: err %v, status %v", err, m.Status(xe))
	}
	ab := m.Begin()
	xab := mustXid(t, ab)
	_ = ab.Abort()
	ro := m.Begin()
	_ = ro.Abort()
	if !slices.Equal(aborted, []uint32{xab}) {
		t.Fatalf("abort hook calls %v", aborted)
	}
}

// TestConcurrentSnapshots runs many transactions at once and checks every
// snapshot against what the test knows: a transaction whose Commit returned
// before the snapshot was taken is finished in it, and every xid the snapshot
// treats as finished has a final status.
func TestConcurrentSnapshots(t *testing.T) {
	m := open(t, t.TempDir())
	var mu sync.Mutex
	var finished []uint32 // xids whose Commit/Abort returned
	const workers, rounds = 8, 300
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(seed))
			for i := 0; i < rounds; i++ {
				tx := m.Begin()
				if rng.Intn(4) > 0 {
					if _, err := tx.Xid(); err != nil {
						t.Error(err)
						return
					}
				}
				mu.Lock()
				done := slices.Clone(finished)
				mu.Unlock()
				s := tx.Snapshot()
				for _, x := range done {
					if x >= s.Xmax || slices.Contains(s.Xip, x) {
						t.Errorf("finished xid %d running in snapshot %+v", x, s)
						return
					}
				}
				for _, x := range s.Xip {
					if x < s.Xmin || x >= s.Xmax || x == tx.XidIfAssigned() {
						t.Errorf("bad xip %d in %+v", x, s)
						return
					}
				}
				for x := FirstNormalXid; x < s.Xmin; x++ {
					if m.Status(x) == heap.XidInProgress {
						t.Errorf("xid %d below xmin %d in progress", x, s.Xmin)
						return
					}
				}
				if h := m.OldestXmin(); h > s.Xmin {
					t.Errorf("OldestXmin %d above a live snapshot's xmin %d", h, s.Xmin)
					return
				}
				x := tx.XidIfAssigned()
				if rng.Intn(3) == 0 {
					_ = tx.Abort()
				} else {
					_ = tx.Commit()
				}
				if x != InvalidXid {
					if m.Status(x) == heap.XidInProgress {
						t.Errorf("xid %d in progress after end", x)
					}
					mu.Lock()
					finished = append(finished, x)
					mu.Unlock()
				}
			}
		}(int64(w))
	}
	// Waiters on random running xids must all wake.
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				r := m.Running()
				if len(r) == 0 {
					continue
				}
				x := r[i%len(r)]
				if err := m.Wait(context.Background(), x); err != nil {
					t.Error(err)
					return
				}
				if m.Status(x) == heap.XidInProgress {
					t.Errorf("Wait(%d) returned while in progress", x)
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(m.Running()) != 0 {
		t.Fatalf("running after all ended: %v", m.Running())
	}
	if got := m.OldestXmin(); got != m.NextXid() {
		t.Fatalf("OldestXmin %d, next %d", got, m.NextXid())
	}
}

package heap

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	"minipg/storage/fsm"
	"minipg/storage/page"
)

// TestUpdateToOtherPage: an update that does not fit on the old page goes
// elsewhere; the old version points at the new one, which is HEAP_UPDATED;
// the old page is marked full and prunable.
func TestUpdateToOtherPage(t *testing.T) {
	e := newEnv(t, 16, Options{})
	payload := strings.Repeat("p", 400)
	tids := e.insertCommitted(t, 0, 18, payload) // 18 * 436 bytes: page 0 full
	if tids[17].Block != 0 {
		t.Fatalf("setup: row 17 at %s", tids[17])
	}
	x := e.o.Begin()
	ntid, res, _, err := e.rel.Update(e.snap(x, 0), tids[3], mkRow(t, 3, payload+"!"), x, 0, nil)
	if err != nil || res != TMOk {
		t.Fatal(res, err)
	}
	if ntid.Block == 0 {
		t.Fatalf("new version at %s on the full page", ntid)
	}
	if st := e.rel.Stats(); st.UpdatesOtherPage != 1 || st.UpdatesSamePage != 0 || st.Inserts != 18 {
		t.Errorf("stats %+v", st)
	}
	old := e.rawTuple(t, tids[3])
	if Xmax(old) != x || Ctid(old) != ntid || Infomask(old)&(HeapXmaxInvalid|HeapXmaxLockOnly|HeapLockMask) != 0 {
		t.Errorf("old version: xmax %d ctid %s infomask %#x", Xmax(old), Ctid(old), Infomask(old))
	}
	nw := e.rawTuple(t, ntid)
	if Xmin(nw) != x || Infomask(nw)&HeapUpdated == 0 || Ctid(nw) != ntid || Infomask(nw)&HeapXmaxInvalid == 0 {
		t.Errorf("new version: xmin %d ctid %s infomask %#x", Xmin(nw), Ctid(nw), Infomask(nw))
	}
	e.withPage(t, 0, func(p page.Page) {
		if page.Flags(p)&page.PDPageFull == 0 || page.PruneXid(p) != x {
			t.Errorf("old page: flags %#x prune xid %d", page.Flags(p), page.PruneXid(p))
		}
	})
	// Before commit: others see the old version, x sees the new one.
	if rows := e.scanAll(t, e.snap(0, 0)); rows[3].tid != tids[3] {
		t.Errorf("other snapshot sees row 3 at %s", rows[3].tid)
	}
	if rows := e.scanAll(t, e.snap(x, 1)); rows[3].tid != ntid || len(rows) != 18 {
		t.Errorf("own snapshot sees row 3 at %s (%d rows)", rows[3].tid, len(rows))
	}
	e.o.Commit(x)
	if rows := e.scanAll(t, e.snap(0, 0)); rows[3].tid != ntid || rows[3].payload != payload+"!" {
		t.Errorf("after commit row 3 at %s", rows[3].tid)
	}
	mustCheckPages(t, e.rel)
}

// TestUpdateChainFollow: READ COMMITTED's recheck. A writer whose
// snapshot predates a committed update gets TMUpdated and the next
// version's TID, follows the chain and updates the newest version; a
// committed delete gives TMDeleted.
func TestUpdateChainFollow(t *testing.T) {
	e := newEnv(t, 16, Options{})
	tid := e.insertCommitted(t, 1, 1, "v1")[0]
	t2 := e.o.Begin()
	old := e.snap(t2, 0) // t2's statement snapshot sees v1

	var chain []page.TID
	cur := tid
	for i := 2; i <= 3; i++ {
		t1 := e.o.Begin()
		ntid, res, _, err := e.rel.Update(e.snap(t1, 0), cur, mkRow(t, 1, fmt.Sprintf("v%d", i)), t1, 0, nil)
		if err != nil || res != TMOk {
			t.Fatal(res, err)
		}
		e.o.Commit(t1)
		chain = append(chain, ntid)
		cur = ntid
	}
	if _, ok, _ := e.rel.Fetch(old, tid); !ok {
		t.Fatal("old snapshot no longer sees v1")
	}

	// Follow the chain the way the executor does.
	at := tid
	hops := 0
	for {
		ntid, res, fd, err := e.rel.Update(old, at, mkRow(t, 1, "v4"), t2, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res == TMOk {
			cur = ntid
			break
		}
		if res != TMUpdated {
			t.Fatalf("hop %d: %v", hops, res)
		}
		next, ok, err := e.rel.FetchAny(fd.Ctid)
		if err != nil || !ok || Xmin(next) != fd.Xmax {
			t.Fatalf("hop %d: next version at %s: ok=%v err=%v xmin=%d want %d", hops, fd.Ctid, ok, err, Xmin(next), fd.Xmax)
		}
		if fd.Ctid != chain[hops] {
			t.Fatalf("hop %d: ctid %s, want %s", hops, fd.Ctid, chain[hops])
		}
		at = fd.Ctid
		hops++
	}
	if hops != 2 {
		t.Errorf("%d hops, want 2", hops)
	}
	e.o.Commit(t2)
	rows := e.scanAll(t, e.snap(0, 0))
	if len(rows) != 1 || rows[1].payload != "v4" || rows[1].tid != cur {
		t.Errorf("after the chain: %v", rows)
	}

	// A committed delete: TMDeleted, ctid = itself.
	t3, t4 := e.o.Begin(), e.o.Begin()
	s4 := e.snap(t4, 0)
	if res, _, err := e.rel.Delete(e.snap(t3, 0), cur, t3, 0); err != nil || res != TMOk {
		t.Fatal(res, err)
	}
	e.o.Commit(t3)
	res, fd, err := e.rel.Delete(s4, cur, t4, 0)
	if err != nil || res != TMDeleted || fd.Ctid != cur || fd.Xmax != t3 {
		t.Errorf("delete of a deleted row: %v %+v %v", res, fd, err)
	}
	if res, _, _ := e.rel.Lock(s4, cur, t4, 0); res != TMDeleted {
		t.Errorf("lock of a deleted row: %v", res)
	}
	mustCheckPages(t, e.rel)
}

// TestConcurrentUpdatersBlock: a second writer gets TMBeingModified with
// the first writer's xid for Update, Delete and Lock; after an abort it
// proceeds on the same version, after a commit it is sent down the chain.
func TestConcurrentUpdatersBlock(t *testing.T) {
	e := newEnv(t, 16, Options{})
	tid := e.insertCommitted(t, 1, 1, "v1")[0]
	for _, abort := range []bool{true, false} {
		t1, t2 := e.o.Begin(), e.o.Begin()
		s2 := e.snap(t2, 0)
		ntid, res, _, err := e.rel.Update(e.snap(t1, 0), tid, mkRow(t, 1, "t1"), t1, 0, nil)
		if err != nil || res != TMOk {
			t.Fatal(res, err)
		}
		_, res, fd, err := e.rel.Update(s2, tid, mkRow(t, 1, "t2"), t2, 0, nil)
		if err != nil || res != TMBeingModified || fd.Xmax != t1 {
			t.Fatalf("concurrent update: %v %+v %v", res, fd, err)
		}
		if res, fd, _ := e.rel.Delete(s2, tid, t2, 0); res != TMBeingModified || fd.Xmax != t1 {
			t.Errorf("concurrent delete: %v %+v", res, fd)
		}
		if res, fd, _ := e.rel.Lock(s2, tid, t2, 0); res != TMBeingModified || fd.Xmax != t1 {
			t.Errorf("concurrent lock: %v %+v", res, fd)
		}
		if abort {
			e.o.Abort(t1)
			t2tid, res, _, err := e.rel.Update(s2, tid, mkRow(t, 1, "t2"), t2, 0, nil)
			if err != nil || res != TMOk {
				t.Fatalf("after abort: %v %v", res, err)
			}
			e.o.Commit(t2)
			tid = t2tid
		} else {
			e.o.Commit(t1)
			_, res, fd, err := e.rel.Update(s2, tid, mkRow(t, 1, "t2"), t2, 0, nil)
			if err != nil || res != TMUpdated || fd.Ctid != ntid || fd.Xmax != t1 {
				t.Fatalf("after commit: %v %+v %v", res, fd, err)
			}
			e.o.Abort(t2)
			tid = ntid
		}
	}
	rows := e.scanAll(t, e.snap(0, 0))
	if len(rows) != 1 || rows[1].payload != "t1" {
		t.Errorf("final rows %v", rows)
	}
}

// TestRowLock: FOR UPDATE locks block writers but not readers; a lock
// held by the writer's own transaction does not block it; the lock of an
// ended transaction does not block anyone.
func TestRowLock(t *testing.T) {
	e := newEnv(t, 16, Options{})
	tid := e.insertCommitted(t, 1, 1, "v1")[0]
	t1, t2 := e.o.Begin(), e.o.Begin()
	if res, _, err := e.rel.Lock(e.snap(t1, 0), tid, t1, 0); err != nil || res != TMOk {
		t.Fatal(res, err)
	}
	raw := e.rawTuple(t, tid)
	if Xmax(raw) != t1 || Infomask(raw)&(HeapXmaxLockOnly|HeapXmaxExclLock) != HeapXmaxLockOnly|HeapXmaxExclLock ||
		Infomask2(raw)&HeapKeysUpdated == 0 || Ctid(raw) != tid {
		t.Errorf("locked tuple: xmax %d infomask %#x infomask2 %#x", Xmax(raw), Infomask(raw), Infomask2(raw))
	}
	if _, ok, _ := e.rel.Fetch(e.snap(t2, 0), tid); !ok {
		t.Error("a row lock hid the row from a reader")
	}
	if res, fd, _ := e.rel.Lock(e.snap(t2, 0), tid, t2, 0); res != TMBeingModified || fd.Xmax != t1 {
		t.Errorf("second locker: %v %+v", res, fd)
	}
	if res, _, _ := e.rel.Lock(e.snap(t1, 1), tid, t1, 1); res != TMOk {
		t.Errorf("relock by the holder: %v", res)
	}
	// The holder may update its locked row.
	ntid, res, _, err := e.rel.Update(e.snap(t1, 1), tid, mkRow(t, 1, "v2"), t1, 1, nil)
	if err != nil || res != TMOk {
		t.Fatalf("update by the lock holder: %v %v", res, err)
	}
	e.o.Commit(t1)
	// Lock of a committed locker that then updated: t2 is sent down the chain.
	if res, fd, _ := e.rel.Lock(e.snap(t2, 0), tid, t2, 0); res != TMUpdated || fd.Ctid != ntid {
		t.Errorf("lock after update: %v %+v", res, fd)
	}
	// A lock by a transaction that committed (or aborted) without updating
	// does not block.
	for _, commit := range []bool{true, false} {
		t3 := e.o.Begin()
		if res, _, _ := e.rel.Lock(e.snap(t3, 0), ntid, t3, 0); res != TMOk {
			t.Fatalf("lock: %v", res)
		}
		if commit {
			e.o.Commit(t3)
		} else {
			e.o.Abort(t3)
		}
		if res, _, _ := e.rel.Lock(e.snap(t2, 0), ntid, t2, 0); res != TMOk {
			t.Errorf("lock after the locker ended (commit=%v): %v", commit, res)
		}
		e.o.Commit(t2)
		t2 = e.o.Begin()
	}
	e.o.Commit(t2)
	mustCheckPages(t, e.rel)
}

// TestRowLockNoKey: FOR NO KEY UPDATE sets the lock's xmax bits without
// HEAP_KEYS_UPDATED, blocks other lockers as FOR UPDATE does, and is
// upgraded by a FOR UPDATE of its holder; a FOR UPDATE lock stays one.
func TestRowLockNoKey(t *testing.T) {
	e := newEnv(t, 16, Options{})
	tid := e.insertCommitted(t, 1, 1, "v1")[0]
	t1, t2 := e.o.Begin(), e.o.Begin()
	if res, _, err := e.rel.LockNoKey(e.snap(t1, 0), tid, t1, 0); err != nil || res != TMOk {
		t.Fatal(res, err)
	}
	raw := e.rawTuple(t, tid)
	if Xmax(raw) != t1 || Infomask(raw)&(HeapXmaxLockOnly|HeapXmaxExclLock) != HeapXmaxLockOnly|HeapXmaxExclLock ||
		Infomask2(raw)&HeapKeysUpdated != 0 {
		t.Errorf("locked tuple: xmax %d infomask %#x infomask2 %#x", Xmax(raw), Infomask(raw), Infomask2(raw))
	}
	for _, lock := range []func(*Snapshot, page.TID, uint32, uint32) (Result, FailureData, error){e.rel.Lock, e.rel.LockNoKey} {
		if res, fd, _ := lock(e.snap(t2, 0), tid, t2, 0); res != TMBeingModified || fd.Xmax != t1 {
			t.Errorf("second locker: %v %+v", res, fd)
		}
	}
	if res, _, _ := e.rel.Lock(e.snap(t1, 1), tid, t1, 1); res != TMOk {
		t.Fatalf("upgrade by the holder: %v", res)
	}
	if raw := e.rawTuple(t, tid); Infomask2(raw)&HeapKeysUpdated == 0 {
		t.Errorf("upgraded lock: infomask2 %#x", Infomask2(raw))
	}
	if res, _, _ := e.rel.LockNoKey(e.snap(t1, 2), tid, t1, 2); res != TMOk {
		t.Fatalf("weaker relock by the holder: %v", res)
	}
	if raw := e.rawTuple(t, tid); Infomask2(raw)&HeapKeysUpdated == 0 {
		t.Errorf("a weaker relock downgraded the lock: infomask2 %#x", Infomask2(raw))
	}
	e.o.Commit(t1)
	e.o.Commit(t2)
	// An update of a row its transaction locked keeps the stronger mode:
	// HEAP_KEYS_UPDATED after FOR UPDATE, even with the key unchanged.
	for _, keys := range []bool{false, true} {
		tid := e.insertCommitted(t, 10, 1, "v")[0]
		x := e.o.Begin()
		lock := e.rel.LockNoKey
		if keys {
			lock = e.rel.Lock
		}
		if res, _, err := lock(e.snap(x, 0), tid, x, 0); err != nil || res != TMOk {
			t.Fatal(res, err)
		}
		ntid, res, _, err := e.rel.Update(e.snap(x, 0), tid, mkRow(t, 10, "w"), x, 0, nil)
		if err != nil || res != TMOk {
			t.Fatal(res, err)
		}
		raw := e.rawTuple(t, tid)
		if got := Infomask2(raw)&HeapKeysUpdated != 0; got != keys || Infomask(raw)&HeapXmaxLockOnly != 0 || Xmax(raw) != x {
			t.Errorf("updated after lock (FOR UPDATE %v): infomask %#x infomask2 %#x", keys, Infomask(raw), Infomask2(raw))
		}
		// The lock stays on the new version, as FOR KEY SHARE, which a
		// FOR NO KEY UPDATE of its holder upgrades.
		nraw := e.rawTuple(t, ntid)
		if Xmax(nraw) != x || Infomask(nraw)&(HeapXmaxInvalid|HeapLockMask|HeapXmaxLockOnly) != HeapXmaxKeyshrLock|HeapXmaxLockOnly {
			t.Errorf("new version: xmax %d infomask %#x", Xmax(nraw), Infomask(nraw))
		}
		if res, _, err := e.rel.LockNoKey(e.snap(x, 1), ntid, x, 1); err != nil || res != TMOk {
			t.Fatal(res, err)
		}
		if nraw := e.rawTuple(t, ntid); Infomask(nraw)&(HeapLockMask|HeapXmaxLockOnly) != HeapXmaxExclLock|HeapXmaxLockOnly {
			t.Errorf("new version relocked: infomask %#x", Infomask(nraw))
		}
		e.o.Commit(x)
		if _, ok, _ := e.rel.Fetch(e.snap(0, 0), ntid); !ok {
			t.Error("the new version of a locked row is not visible after the commit")
		}
	}
	mustCheckPages(t, e.rel)
}

// TestOwnChanges: cmin/cmax semantics inside one transaction, including
// the combo command id of a row inserted and updated by it.
func TestOwnChanges(t *testing.T) {
	e := newEnv(t, 16, Options{})
	x := e.o.Begin()
	v1, err := e.rel.Insert(mkRow(t, 1, "v1"), x, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := e.rel.Fetch(e.snap(x, 0), v1); ok {
		t.Error("command 0 sees its own insert")
	}
	if _, ok, _ := e.rel.Fetch(e.snap(x, 1), v1); !ok {
		t.Error("command 1 does not see command 0's insert")
	}
	if _, res, _, _ := e.rel.Update(e.snap(x, 0), v1, mkRow(t, 1, "no"), x, 0, nil); res != TMInvisible {
		t.Errorf("update of a row inserted by the same command: %v", res)
	}
	v2, res, _, err := e.rel.Update(e.snap(x, 1), v1, mkRow(t, 1, "v2"), x, 1, nil)
	if err != nil || res != TMOk {
		t.Fatal(res, err)
	}
	raw := e.rawTuple(t, v1)
	if Infomask(raw)&HeapComboCid == 0 || cmin(raw) != 0 || cmax(raw) != 1 {
		t.Errorf("combo cid: infomask %#x cid %#x", Infomask(raw), Cid(raw))
	}
	// Command 1 still sees v1 (deleted by itself), not v2 (inserted by itself).
	s1 := e.snap(x, 1)
	if _, ok, _ := e.rel.Fetch(s1, v1); !ok {
		t.Error("command 1 lost v1")
	}
	if _, ok, _ := e.rel.Fetch(s1, v2); ok {
		t.Error("command 1 sees v2")
	}
	if _, res, _, _ := e.rel.Update(s1, v1, mkRow(t, 1, "no"), x, 1, nil); res != TMSelfModified {
		t.Errorf("second update in the same command: %v", res)
	}
	s2 := e.snap(x, 2)
	if _, res, _, _ := e.rel.Update(s2, v1, mkRow(t, 1, "no"), x, 2, nil); res != TMInvisible {
		t.Errorf("update of a version replaced by an earlier command: %v", res)
	}
	if rows := e.scanAll(t, s2); len(rows) != 1 || rows[1].tid != v2 {
		t.Errorf("command 2 sees %v", rows)
	}
	if rows := e.scanAll(t, e.snap(0, 0)); len(rows) != 0 {
		t.Errorf("another transaction sees %v", rows)
	}
	if res, _, err := e.rel.Delete(s2, v2, x, 2); err != nil || res != TMOk {
		t.Fatal(res, err)
	}
	if rows := e.scanAll(t, e.snap(x, 3)); len(rows) != 0 {
		t.Errorf("after own delete: %v", rows)
	}
	e.o.Commit(x)
	if rows := e.scanAll(t, e.snap(0, 0)); len(rows) != 0 {
		t.Errorf("after commit: %v", rows)
	}
	mustCheckPages(t, e.rel)
}

// TestReadCommittedCounter: sessions increment one row concurrently with
// PostgreSQL's READ COMMITTED protocol (wait for a running writer, follow
// the chain after a committed one); no increment is lost, and concurrent
// scans always see exactly one version of every row.
func TestReadCommittedCounter(t *testing.T) {
	sessions, perSession := 8, 150
	if testing.Short() || raceEnabled {
		perSession = 40
	}
	e := newEnv(t, 32, Options{})
	e.insertCommitted(t, 0, 50, "0")
	var wg sync.WaitGroup
	errc := make(chan error, sessions+2)
	stop := make(chan struct{})
	for range 2 {
		wg.Add(1)
		go func() { // readers
			defer wg.Done()
			for {
				select {
				case <-stop:
					errc <- nil
					return
				default:
				}
				seen := map[int32]bool{}
				rx := e.o.Begin() // a transaction, so that its snapshot holds back pruning
				s := e.rel.NewScan(e.o.Snapshot(rx, 0))
				for {
					_, tup, ok, err := s.Next()
					if err != nil {
						errc <- err
						return
					}
					if !ok {
						break
					}
					id, _ := rowOf(nil, tup)
					if seen[id] {
						errc <- fmt.Errorf("a scan saw row %d twice", id)
						return
					}
					seen[id] = true
				}
				e.o.Commit(rx)
				if len(seen) != 50 {
					errc <- fmt.Errorf("a scan saw %d rows", len(seen))
					return
				}
			}
		}()
	}
	var writers sync.WaitGroup
	for g := range sessions {
		writers.Add(1)
		go func() {
			defer writers.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			for range perSession {
				id := int32(0)
				if rng.IntN(2) == 0 {
					id = int32(1 + rng.IntN(49))
				}
				if err := increment(e, id); err != nil {
					errc <- err
					return
				}
			}
			errc <- nil
		}()
	}
	writers.Wait()
	close(stop)
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			t.Fatal(err)
		}
	}
	rows := e.scanAll(t, e.snap(0, 0))
	total := 0
	for _, r := range rows {
		var n int
		fmt.Sscan(r.payload, &n)
		total += n
	}
	if total != sessions*perSession {
		t.Errorf("sum of counters %d, want %d (lost updates)", total, sessions*perSession)
	}
	mustCheckPages(t, e.rel)
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, e.rel)
}

// increment adds one to row id's counter in its own transaction, the way
// the executor runs UPDATE t SET n = n + 1 WHERE id = $1 in READ COMMITTED.
func increment(e *testEnv, id int32) error { return incrementPad(e, id, 0) }

// incrementPad is increment with pad bytes of padding after the counter,
// so that new versions vary in size and move between pages.
func incrementPad(e *testEnv, id int32, pad int) error {
	x := e.o.Begin()
	snap := e.o.Snapshot(x, 0)
	// Find the row with the statement's snapshot.
	var at page.TID
	var cur []byte
	s := e.rel.NewScan(snap)
	for {
		tid, tup, ok, err := s.Next()
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("row %d not found", id)
		}
		if rid, _ := rowOf(nil, tup); rid == id {
			at, cur = tid, tup
			break
		}
	}
	s.Close()
	for {
		var n int
		_, p := rowOf(nil, cur)
		fmt.Sscan(p, &n)
		_, res, fd, err := e.rel.Update(snap, at, mkRow(nil, id, fmt.Sprint(n+1)+" "+strings.Repeat("#", pad)), x, 0, nil)
		if err != nil {
			return err
		}
		switch res {
		case TMOk:
			e.o.Commit(x)
			return nil
		case TMBeingModified:
			for e.o.Status(fd.Xmax) == XidInProgress {
				runtime.Gosched()
			}
		case TMUpdated:
			next, ok, err := e.rel.FetchAny(fd.Ctid)
			if err != nil || !ok || Xmin(next) != fd.Xmax {
				return fmt.Errorf("chain from %s to %s broken: ok=%v err=%v", at, fd.Ctid, ok, err)
			}
			at, cur = fd.Ctid, next
		default:
			return fmt.Errorf("increment of %d at %s: %v", id, at, res)
		}
	}
}

// TestConcurrentUpdatesMove: large rows of varying size updated by several
// sessions while VACUUM runs, so that new versions move between pages in
// both directions (the two-buffer locking of UPDATE, FSM reuse of freed
// space); no update is lost.
func TestConcurrentUpdatesMove(t *testing.T) {
	sessions, perSession := 4, 150
	if testing.Short() || raceEnabled {
		perSession = 40
	}
	e := newEnv(t, 48, Options{FillFactor: 90})
	e.insertCommitted(t, 0, 60, "0 "+strings.Repeat("#", 900))
	var wg sync.WaitGroup
	errc := make(chan error, sessions+1)
	stop := make(chan struct{})
	var vacuums sync.WaitGroup
	vacuums.Add(1)
	go func() {
		defer vacuums.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
				errc <- err
				return
			}
		}
	}()
	for g := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 2))
			for range perSession {
				if err := incrementPad(e, int32(rng.IntN(60)), 200+rng.IntN(1800)); err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	vacuums.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	total := 0
	for _, r := range e.scanAll(t, e.snap(0, 0)) {
		var n int
		fmt.Sscan(r.payload, &n)
		total += n
	}
	if total != sessions*perSession {
		t.Errorf("sum of counters %d, want %d", total, sessions*perSession)
	}
	st := e.rel.Stats()
	if st.UpdatesOtherPage == 0 {
		t.Errorf("no update moved to another page: %+v", st)
	}
	t.Logf("%+v", st)
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, e.rel)
}

// TestUpdateJoinsRelatedRows: under the locality policy, the new versions
// of a transaction's updates that do not fit on their page go to the page
// of the rows its statement updates next (told by SetStatementBlocks),
// using that page's fillfactor reserve, and all to that page; without the
// hint they go to the lower neighbour. The classic policy sends them to a
// fresh page at the end, as PostgreSQL does after a fillfactor load.
func TestUpdateJoinsRelatedRows(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy fsm.Policy
		hint   bool
		single bool   // each update is a single-row statement
		want   uint32 // the block every moved version lands on
	}{
		{"locality with the statement's blocks", fsm.NewLocality(), true, false, 2},
		{"locality, neighbours only", fsm.NewLocality(), false, false, 0},
		// A row with no siblings leaves the neighbours' reserve alone,
		// and the page the session inserts into: its moved versions
		// gather on a new page, the session's update target.
		{"locality, single-row statements", fsm.NewLocality(), false, true, 5},
		{"classic", fsm.NewClassic(), true, false, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 64, Options{FillFactor: 80, Policy: tc.policy})
			var st InsertState
			x := e.o.Begin()
			var tids []page.TID
			for i := 0; ; i++ {
				tid, err := e.rel.Insert(mkRow(t, int32(i), strings.Repeat("r", 80)), x, 0, &st)
				if err != nil {
					t.Fatal(err)
				}
				if tid.Block == 4 {
					break // blocks 0..3 are full to the fillfactor
				}
				tids = append(tids, tid)
			}
			e.o.Commit(x)
			// Grow ten rows of block 1: the reserve of their page takes
			// the first new versions (HOT), the rest must move, and fit
			// in one other page's reserve.
			u := e.o.Begin()
			var on1 []page.TID
			for _, tid := range tids {
				if tid.Block == 1 && len(on1) < 10 {
					on1 = append(on1, tid)
				}
			}
			if tc.hint {
				st.SetStatementBlocks(e.rel, u, func() []uint32 { return []uint32{1, 2} })
			}
			moved := map[uint32]int{}
			st.SetStatementSingleRow(e.rel, u, tc.single)
			for i, tid := range on1 {
				ntid, res, _, err := e.rel.Update(e.snap(u, 0), tid, mkRow(t, int32(i), strings.Repeat("u", 200)), u, 0, &st)
				if err != nil || res != TMOk {
					t.Fatalf("update %s: %v %v", tid, res, err)
				}
				if ntid.Block != 1 {
					moved[ntid.Block]++
				}
			}
			e.o.Commit(u)
			if n := moved[tc.want]; len(moved) != 1 || n == 0 || n == len(on1) {
				t.Fatalf("moved versions went to %v, want all on block %d", moved, tc.want)
			}
			mustCheckPages(t, e.rel)
		})
	}
}

// TestUpdateKeepsInsertTarget: an update whose new version leaves its page
// makes that page the session's next insert target under classic, as
// PostgreSQL's single rd_targblock does, while under locality the session
// goes on inserting where it was (fsm.TargetSplitter) and a second moved
// version follows the first.
func TestUpdateKeepsInsertTarget(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pol   fsm.Policy
		split bool
	}{{"classic", fsm.NewClassic(), false}, {"locality", fsm.NewLocality(), true}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 64, Options{Policy: tc.pol})
			payload := strings.Repeat("p", 400)
			// Pages 0 to 4 full (18 rows of 436 bytes each), page 5 the
			// session's insert target with ten rows.
			var st InsertState
			x := e.o.Begin()
			var tids []page.TID
			for i := 0; i < 100; i++ {
				tid, err := e.rel.Insert(mkRow(t, int32(i), payload), x, 0, &st)
				if err != nil {
					t.Fatal(err)
				}
				tids = append(tids, tid)
			}
			e.o.Commit(x)
			insertTarget := tids[len(tids)-1].Block
			// Another session made room on page 0 that the FSM knows of.
			d := e.o.Begin()
			for _, tid := range tids[:10] {
				if res, _, err := e.rel.Delete(e.snap(d, 0), tid, d, 0); err != nil || res != TMOk {
					t.Fatal(res, err)
				}
			}
			e.o.Commit(d)
			if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
				t.Fatal(err)
			}
			// The session grows a row of page 1 past what page 1 and its
			// insert target have free: only page 0 can take it.
			u := e.o.Begin()
			var src page.TID
			for _, tid := range tids {
				if tid.Block == 1 {
					src = tid
					break
				}
			}
			ntid, res, _, err := e.rel.Update(e.snap(u, 0), src, mkRow(t, 99, strings.Repeat("g", 4000)), u, 0, &st)
			if err != nil || res != TMOk {
				t.Fatal(res, err)
			}
			if ntid.Block == 1 || ntid.Block == insertTarget {
				t.Fatalf("setup: moved version at %s (insert target %d)", ntid, insertTarget)
			}
			tid, err := e.rel.Insert(mkRow(t, 100, "x"), u, 1, &st)
			if err != nil {
				t.Fatal(err)
			}
			e.o.Commit(u)
			want := ntid.Block
			if tc.split {
				want = insertTarget
			}
			if tid.Block != want {
				t.Fatalf("insert after the update went to %s, want block %d (moved version at %s)", tid, want, ntid)
			}
			mustCheckPages(t, e.rel)
		})
	}
}

// BulkRelations names a relation once its insert target has moved through
// the given number of pages since the last ResetMoves: a transaction of a few rows is not a bulk load, one that
// filled many pages is.
func TestBulkRelationsCountsPages(t *testing.T) {
	e := newEnv(t, 64, Options{})
	xid := e.o.Begin()
	var st InsertState
	row := mkRow(t, 1, strings.Repeat("x", 1000))
	insert := func(n int) {
		t.Helper()
		for range n {
			if _, err := e.rel.Insert(row, xid, 0, &st); err != nil {
				t.Fatal(err)
			}
		}
	}
	insert(3)
	if rels := st.BulkRelations(4); len(rels) != 0 {
		t.Fatalf("3 rows: %d bulk relations, want none", len(rels))
	}
	insert(7 * 5) // five pages' worth more: at least four moves of the target
	if rels := st.BulkRelations(4); len(rels) != 1 || rels[0] != e.rel {
		t.Fatalf("five pages: bulk relations %v, want the relation", rels)
	}
	st.ResetMoves()
	if rels := st.BulkRelations(1); len(rels) != 0 {
		t.Fatalf("after the count was reset: %d bulk relations, want none", len(rels))
	}
}

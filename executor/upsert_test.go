package executor

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"minipg/pgerr"
	"minipg/storage/heap"
	"minipg/types"
)

// checkHeapPages runs the heap's page checker on table name.
func checkHeapPages(t *testing.T, e *Engine, name string) {
	t.Helper()
	r, err := e.relByName(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := heap.CheckPages(r.heap); err != nil {
		t.Errorf("%s: %v", name, err)
	}
}

// TestConcurrentUpsert: sessions upserting the same keys at once never
// raise a unique violation on the arbiter: DO UPDATE counts every
// statement once, DO NOTHING leaves one row per key.
func TestConcurrentUpsert(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(nil)
	defer s.Close()
	mustExec(t, s, "CREATE TABLE up (id int PRIMARY KEY, n int NOT NULL, w int)")
	mustExec(t, s, "CREATE TABLE upn (id int PRIMARY KEY, w int)")
	const workers, keys = 8, 40
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ss := e.NewSession(nil)
			defer ss.Close()
			for k := range keys {
				// Half the workers go through the keys backwards, so that
				// sessions meet each other's rows in both states.
				if w%2 == 1 {
					k = keys - 1 - k
				}
				for _, q := range []string{
					"INSERT INTO up VALUES ($1, 1, $2) ON CONFLICT (id) DO UPDATE SET n = up.n + 1, w = excluded.w",
					"INSERT INTO upn VALUES ($1, $2) ON CONFLICT DO NOTHING",
				} {
					_, tag, err := exec(t, ss, q, int64(k), int64(w))
					ss.Sync()
					if err != nil || (tag != "INSERT 0 1" && tag != "INSERT 0 0") {
						errs <- fmt.Errorf("worker %d key %d: %s: %q %v", w, k, q, tag, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	rows, _ := mustExec(t, s, "SELECT count(*), sum(n), min(n), max(n) FROM up")
	if got, want := fmt.Sprint(rows[0]...), fmt.Sprint(keys, workers*keys, workers, workers); got != want {
		t.Errorf("up: count, sum, min, max %s, want %s", got, want)
	}
	rows, _ = mustExec(t, s, "SELECT count(*), count(DISTINCT id) FROM upn")
	if r := rows[0]; r[0].(int64) != keys || r[1].(int64) != keys {
		t.Errorf("upn: %v rows, want %d", r, keys)
	}
	checkHeapPages(t, e, "up")
}

// TestUpsertSpeculativeConflict: a conflicting row that appears between
// the search for a conflict and the speculative insertion (a committed
// one, or one whose inserter is still running, which then commits or
// aborts) makes the insertion take its row back (t_xmin 0 in the heap)
// and start over: DO UPDATE then updates the committed row, or inserts
// after all when the other inserter aborted; DO NOTHING skips. No 23505.
func TestUpsertSpeculativeConflict(t *testing.T) {
	cases := []struct {
		name    string
		other   string // how the other session's row ends: "" (committed before), "commit", "rollback"
		upsert  string
		tag     string
		want    string // the row with id 1 afterwards
		wantDel int64  // super-deleted tuples in the heap
	}{
		{"committed, do update", "", "INSERT INTO sc VALUES (1, 'mine') ON CONFLICT (id) DO UPDATE SET v = sc.v || '+' || excluded.v", "INSERT 0 1", "theirs+mine", 1},
		{"running then committed, do update", "commit", "INSERT INTO sc VALUES (1, 'mine') ON CONFLICT (id) DO UPDATE SET v = sc.v || '+' || excluded.v", "INSERT 0 1", "theirs+mine", 1},
		{"running then aborted, do update", "rollback", "INSERT INTO sc VALUES (1, 'mine') ON CONFLICT (id) DO UPDATE SET v = sc.v || '+' || excluded.v", "INSERT 0 1", "mine", 1},
		{"running then committed, do nothing", "commit", "INSERT INTO sc VALUES (1, 'mine') ON CONFLICT DO NOTHING", "INSERT 0 0", "theirs", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := openTestEngine(t, "")
			s := e.NewSession(nil)
			defer s.Close()
			other := e.NewSession(nil)
			defer other.Close()
			mustExec(t, s, "CREATE EXTENSION pageinspect")
			mustExec(t, s, "CREATE TABLE sc (id int PRIMARY KEY, v text)")
			fired := false
			ended := make(chan struct{})
			testHookNoConflict = func() {
				if fired {
					return
				}
				fired = true
				if c.other == "" {
					mustExec(t, other, "INSERT INTO sc VALUES (1, 'theirs')")
					close(ended)
					return
				}
				mustExec(t, other, "BEGIN")
				mustExec(t, other, "INSERT INTO sc VALUES (1, 'theirs')")
				go func() {
					// The upsert meets the running insert, takes its row back
					// and waits for this transaction.
					time.Sleep(50 * time.Millisecond)
					mustExec(t, other, c.other)
					close(ended)
				}()
			}
			defer func() { testHookNoConflict = nil }()
			_, tag, err := exec(t, s, c.upsert)
			s.Sync()
			<-ended
			if err != nil || tag != c.tag || !fired {
				t.Fatalf("upsert: %q %v (hook fired %v), want %q", tag, err, fired, c.tag)
			}
			rows, _ := mustExec(t, s, "SELECT v FROM sc WHERE id = 1")
			if len(rows) != 1 || rows[0][0] != c.want {
				t.Fatalf("row 1: %v, want %q", rows, c.want)
			}
			rows, _ = mustExec(t, s, "SELECT count(*) FROM heap_page_items(get_raw_page('sc', 0)) WHERE t_xmin = '0'")
			if rows[0][0].(int64) != c.wantDel {
				t.Errorf("%v super-deleted tuples, want %d", rows[0][0], c.wantDel)
			}
			checkHeapPages(t, e, "sc")
		})
	}
}

// TestUpsertWaitsForSpeculativeInsertion: a plain INSERT that meets an
// undecided speculative insertion of its key waits for the decision, not
// for the inserter's transaction: taken back, the key is free at once,
// while that transaction is still open.
func TestUpsertWaitsForSpeculativeInsertion(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(nil)
	defer s.Close()
	holder := e.NewSession(nil)
	defer holder.Close()
	plain := e.NewSession(nil)
	defer plain.Close()
	mustExec(t, s, "CREATE TABLE sw (id int PRIMARY KEY, k int UNIQUE, v text)")
	// holder keeps k = 5 taken by a running transaction; the upsert's
	// speculative row (id 1, k 5) gets its id entry, then waits for k.
	mustExec(t, holder, "BEGIN")
	mustExec(t, holder, "INSERT INTO sw VALUES (100, 5, 'holder')")
	mustExec(t, s, "BEGIN")
	upsertDone := make(chan error, 1)
	go func() {
		_, _, err := exec(t, s, "INSERT INTO sw VALUES (1, 5, 'upsert') ON CONFLICT (id) DO NOTHING")
		upsertDone <- err
	}()
	time.Sleep(50 * time.Millisecond)
	// plain inserts id 1: it meets the undecided row and waits for its
	// decision.
	plainDone := make(chan error, 1)
	go func() {
		_, _, err := exec(t, plain, "INSERT INTO sw VALUES (1, 6, 'plain')")
		plainDone <- err
	}()
	time.Sleep(50 * time.Millisecond)
	select {
	case err := <-plainDone:
		t.Fatalf("the plain insert did not wait: %v", err)
	default:
	}
	// holder commits: the upsert's k conflicts (k is no arbiter), 23505,
	// and its row is taken back; its transaction stays open (failed), yet
	// the plain insert goes in.
	mustExec(t, holder, "COMMIT")
	if err := <-upsertDone; pgerr.CodeOf(err) != pgerr.UniqueViolation {
		t.Fatalf("upsert: %v, want 23505 on k", err)
	}
	select {
	case err := <-plainDone:
		if err != nil {
			t.Fatalf("plain insert: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the plain insert waits for the upsert's transaction")
	}
	plain.Sync()
	s.Sync()
	mustExec(t, s, "ROLLBACK")
	rows, _ := mustExec(t, s, "SELECT id, k, v FROM sw ORDER BY id")
	want := [][]types.Datum{{1, 6, "plain"}, {100, 5, "holder"}}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Fatalf("rows %v, want %v", rows, want)
	}
}

package wal

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// TestCheckpointerRequestsRaceStop: CHECKPOINT requests race Stop while
// other goroutines insert (records with pages, so that Insert rechecks its
// images when the redo point moves) and commit (Flush), the WAL writer
// flushes, and every checkpoint's FlushBuffers flushes the WAL as the buffer
// pool does for each page it writes. Every Request returns (with its
// checkpoint's result, or ErrClosed once the checkpointer has stopped), Stop
// returns, a request after Stop is ErrClosed, and the shutdown checkpoint
// that follows succeeds. A lost wake-up or a lock-order inversion among the
// checkpointer, the insert lock, the writer and group commit hangs here
// (go test -timeout then dumps the goroutines).
func TestCheckpointerRequestsRaceStop(t *testing.T) {
	rounds := 20
	if testing.Short() {
		rounds = 5
	}
	for range rounds {
		o := testOptions(nil)
		o.WriterDelay = time.Millisecond
		l := openTest(t, t.TempDir(), o)
		flushBuffers := func(uint64, *CheckpointProgress) error { return l.Flush(l.InsertLSN()) }
		c := l.StartCheckpointer(CheckpointerOptions{Poll: time.Millisecond, MaxWAL: 2 * testSegSize,
			Prepare: func() CheckpointOptions { return CheckpointOptions{FlushBuffers: flushBuffers} }})

		stopWriters := make(chan struct{})
		var writers sync.WaitGroup
		for w := range 3 {
			writers.Add(1)
			go func() {
				defer writers.Done()
				pg := page.Page(make([]byte, page.BlockSize))
				page.Init(pg, 0)
				for i := 0; ; i++ {
					select {
					case <-stopWriters:
						return
					default:
					}
					rec := &Record{Rmgr: RmgrHeap, Xid: uint32(1000 + w), MainData: make([]byte, 200)}
					if i%2 == 0 {
						rec.Blocks = []BlockRef{{Rel: buffer.RelFileNode(16384 + w), Block: uint32(i % 7), Page: pg, Data: []byte{1, 2, 3}}}
					}
					end, err := l.Insert(rec)
					if err == nil && i%3 == 0 {
						err = l.Flush(end)
					}
					if err != nil {
						t.Error(err)
						return
					}
					page.SetLSN(pg, end)
				}
			}()
		}

		var requesters sync.WaitGroup
		var done, closed atomic.Int64
		first := make(chan struct{}, 4)
		for range 4 {
			requesters.Add(1)
			go func() {
				defer requesters.Done()
				for n := 0; ; n++ {
					err := c.Request()
					if n == 0 {
						first <- struct{}{}
					}
					if errors.Is(err, ErrClosed) {
						closed.Add(1)
						return
					}
					if err != nil {
						t.Error(err)
						return
					}
					done.Add(1)
				}
			}()
		}
		for range 4 {
			<-first
		}
		c.Stop()
		requesters.Wait()
		if err := c.Request(); !errors.Is(err, ErrClosed) {
			t.Fatalf("request after Stop: %v", err)
		}
		close(stopWriters)
		writers.Wait()
		if closed.Load() != 4 || done.Load() < 4 {
			t.Fatalf("%d requests done, %d requesters saw ErrClosed", done.Load(), closed.Load())
		}
		if _, err := l.Checkpoint(CheckpointOptions{Shutdown: true, FlushBuffers: flushBuffers}); err != nil {
			t.Fatal(err)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCheckpointerAfterLogClosed: a checkpoint requested after the log was
// closed (a shutdown that forgot to stop the checkpointer first) fails with
// ErrClosed instead of hanging, and Stop still returns.
func TestCheckpointerAfterLogClosed(t *testing.T) {
	l := openTest(t, t.TempDir(), testOptions(nil))
	c := l.StartCheckpointer(CheckpointerOptions{})
	if err := c.Request(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Request(); !errors.Is(err, ErrClosed) {
		t.Fatalf("request after the log was closed: %v", err)
	}
	c.Stop()
	c.Stop()
	if err := c.Request(); !errors.Is(err, ErrClosed) {
		t.Fatalf("request after Stop: %v", err)
	}
}

package tpcc

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// WALStats is one reading of pg_stat_wal.
type WALStats struct {
	Records, FPI, Bytes float64
}

// Sub returns s - o.
func (s WALStats) Sub(o WALStats) WALStats {
	return WALStats{s.Records - o.Records, s.FPI - o.FPI, s.Bytes - o.Bytes}
}

// ReadWAL reads pg_stat_wal's wal_records, wal_fpi and wal_bytes. The error
// is returned as is: a server without the view reports "n/a".
func ReadWAL(ctx context.Context, c *pgx.Conn) (WALStats, error) {
	var s WALStats
	err := c.QueryRow(ctx, "SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal").Scan(&s.Records, &s.FPI, &s.Bytes)
	return s, err
}

// settleWAL waits for other backends' statistics to reach pg_stat_wal:
// PostgreSQL publishes a backend's WAL counters when it goes idle (at most
// once a second) or exits. It reads until two readings 300 ms apart agree,
// for at most 3 s, and returns the last reading.
func settleWAL(ctx context.Context, c *pgx.Conn) (WALStats, error) {
	prev, err := ReadWAL(ctx, c)
	if err != nil {
		return prev, err
	}
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
		time.Sleep(300 * time.Millisecond)
		cur, err := ReadWAL(ctx, c)
		if err != nil {
			return cur, err
		}
		if cur == prev {
			return cur, nil
		}
		prev = cur
	}
	return prev, nil
}

// watchOthers samples pg_stat_activity every 500 ms on c (which the caller
// must not use meanwhile) for sessions of other applications that are busy
// (active or in a transaction): pg_stat_wal is cluster-wide, so their WAL
// would be counted as ours. stop returns how many distinct such sessions
// were seen, or -1 when the server has no pg_stat_activity.
func watchOthers(ctx context.Context, c *pgx.Conn) (stop func() int) {
	const q = `SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend'
		AND application_name <> '` + AppName + `' AND state <> 'idle' AND pid <> pg_backend_pid()`
	seen := map[int32]bool{}
	failed := false
	done := make(chan struct{})
	var wg sync.WaitGroup
	sample := func() {
		rows, err := c.Query(ctx, q)
		if err != nil {
			failed = true
			return
		}
		pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
		if err != nil {
			failed = true
			return
		}
		for _, p := range pids {
			seen[p] = true
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for !failed {
			sample()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() int {
		close(done)
		wg.Wait()
		if failed {
			return -1
		}
		return len(seen)
	}
}

// BufferWrites is one reading of pg_stat_bgwriter's buffer counters: the
// data pages written by checkpoints, by the background writer (none in
// minipg) and by backends taking a dirty buffer's frame, and the buffers
// allocated for pages not in the pool.
type BufferWrites struct {
	Checkpoint, Clean, Backend, Alloc float64
}

// Written is every data page written.
func (b BufferWrites) Written() float64 { return b.Checkpoint + b.Clean + b.Backend }

// Sub returns b - o.
func (b BufferWrites) Sub(o BufferWrites) BufferWrites {
	return BufferWrites{b.Checkpoint - o.Checkpoint, b.Clean - o.Clean, b.Backend - o.Backend, b.Alloc - o.Alloc}
}

// ReadBufferWrites reads pg_stat_bgwriter. The error is returned as is: a
// server without the view reports "n/a".
func ReadBufferWrites(ctx context.Context, c *pgx.Conn) (BufferWrites, error) {
	var b BufferWrites
	err := c.QueryRow(ctx, "SELECT buffers_checkpoint, buffers_clean, buffers_backend, buffers_alloc FROM pg_stat_bgwriter").
		Scan(&b.Checkpoint, &b.Clean, &b.Backend, &b.Alloc)
	return b, err
}

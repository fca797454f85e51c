package tpcc

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Mix is the standard transaction mix in percent: New-Order 45, Payment 43,
// Order-Status 4, Delivery 4, Stock-Level 4.
var Mix = [numTxTypes]int{45, 43, 4, 4, 4}

// PickTx maps a uniform draw in 1..100 to a transaction type of the mix.
func PickTx(n int) TxType {
	for t := TxType(0); t < numTxTypes; t++ {
		if n <= Mix[t] {
			return t
		}
		n -= Mix[t]
	}
	return StockLevel
}

// Retryable reports whether err is a serialization failure or a deadlock,
// after which the transaction is run again.
func Retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// RunOptions configure Run.
type RunOptions struct {
	Terminals   int
	Duration    time.Duration // stop after this long, or
	Txns        int           // after this many transactions in total (0 = use Duration)
	Seed        uint64
	RollbackPct int // New-Orders that roll back (default 1)
	MaxRetries  int // per transaction (default 10)
	// Rate caps the transactions started per minute, all terminals
	// together (BenchmarkSQL's limitTxnsPerMin); 0: as fast as they go.
	// Each terminal starts its transactions Terminals/Rate minutes apart,
	// so that targets of different speeds do the same work per minute and
	// their per-transaction figures (full-page images after timed
	// checkpoints) compare.
	Rate float64
	// Single runs only transaction type Only instead of the mix.
	Single bool
	Only   TxType
}

// TxStats are the counts and latencies of one transaction type.
type TxStats struct {
	Count     int // committed (and, for New-Order, the expected rollbacks)
	Rollbacks int // expected New-Order rollbacks
	Retries   int
	Errors    int
	Latencies []time.Duration
}

// Percentile returns the p-th percentile latency (0 < p <= 100).
func (s *TxStats) Percentile(p float64) time.Duration {
	if len(s.Latencies) == 0 {
		return 0
	}
	l := append([]time.Duration(nil), s.Latencies...)
	sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	i := int(float64(len(l))*p/100+0.5) - 1
	return l[max(0, min(i, len(l)-1))]
}

// Mean returns the mean latency.
func (s *TxStats) Mean() time.Duration {
	if len(s.Latencies) == 0 {
		return 0
	}
	var sum time.Duration
	for _, d := range s.Latencies {
		sum += d
	}
	return sum / time.Duration(len(s.Latencies))
}

// RunResult is the outcome of Run.
type RunResult struct {
	Elapsed  time.Duration
	Tx       [numTxTypes]TxStats
	FirstErr error // first non-retryable error, if any
}

// TpmC returns New-Orders per minute.
func (r *RunResult) TpmC() float64 {
	return float64(r.Tx[NewOrder].Count) / r.Elapsed.Minutes()
}

// Total returns the number of transactions completed.
func (r *RunResult) Total() int {
	n := 0
	for _, s := range r.Tx {
		n += s.Count
	}
	return n
}

// Run drives opts.Terminals terminals, each on its own connection with home
// warehouse (i mod W)+1, through the mix (or one type) until the duration
// or the transaction count is reached. A transaction that fails with a
// serialization failure or deadlock is retried; another error is counted,
// reported in FirstErr, and stops that terminal.
func Run(ctx context.Context, connect Connector, o RunOptions) (*RunResult, error) {
	if o.Terminals < 1 {
		o.Terminals = 1
	}
	if o.MaxRetries == 0 {
		o.MaxRetries = 10
	}
	c, err := connect(ctx)
	if err != nil {
		return nil, err
	}
	db, err := ReadDB(ctx, c)
	c.Close(context.Background())
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex // protects res and remaining
	res := &RunResult{}
	remaining := o.Txns
	take := func() bool {
		if o.Txns == 0 {
			return true
		}
		mu.Lock()
		defer mu.Unlock()
		if remaining == 0 {
			return false
		}
		remaining--
		return true
	}
	if o.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Duration)
		defer cancel()
	}
	conns, err := openN(ctx, connect, o.Terminals)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, c := range conns {
			flushStats(c)
			c.Close(context.Background())
		}
	}()
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < o.Terminals; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			t := &Terminal{Conn: conns[i], DB: db, W: i%db.Warehouses + 1, RollbackPct: o.RollbackPct,
				Rand: NewRunRand(o.Seed+uint64(i)*104729+1, db.CLast, db.CID, db.IID)}
			var local [numTxTypes]TxStats
			var firstErr error
			pace := newPacer(o.Rate, o.Terminals, i)
			for ctx.Err() == nil && pace.wait(ctx) && take() {
				typ := o.Only
				if !o.Single {
					typ = PickTx(t.Rand.Int(1, 100))
				}
				t0 := time.Now()
				err := t.runWithRetry(ctx, typ, o.MaxRetries, &local[typ])
				if ctx.Err() != nil {
					break // cut off by the deadline: not counted
				}
				switch {
				case err == nil:
					local[typ].Count++
				case errors.Is(err, ErrRollback):
					local[typ].Count++
					local[typ].Rollbacks++
				default:
					local[typ].Errors++
					firstErr = fmt.Errorf("terminal %d %s: %w", i, typ, err)
				}
				if firstErr != nil {
					break
				}
				local[typ].Latencies = append(local[typ].Latencies, time.Since(t0))
			}
			mu.Lock()
			defer mu.Unlock()
			for k := range local {
				s := &res.Tx[k]
				s.Count += local[k].Count
				s.Rollbacks += local[k].Rollbacks
				s.Retries += local[k].Retries
				s.Errors += local[k].Errors
				s.Latencies = append(s.Latencies, local[k].Latencies...)
			}
			if firstErr != nil && res.FirstErr == nil {
				res.FirstErr = firstErr
			}
		}(i)
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	return res, nil
}

func (t *Terminal) runWithRetry(ctx context.Context, typ TxType, maxRetries int, st *TxStats) error {
	var in NewOrderInput
	if typ == NewOrder {
		in = t.GenNewOrder()
	}
	for attempt := 0; ; attempt++ {
		var err error
		switch typ {
		case NewOrder:
			err = t.RunNewOrder(ctx, in)
		case Payment:
			err = t.RunPayment(ctx)
		case OrderStatus:
			err = t.RunOrderStatus(ctx)
		case Delivery:
			err = t.RunDelivery(ctx)
		case StockLevel:
			err = t.RunStockLevel(ctx)
		}
		if err == nil || !Retryable(err) || attempt >= maxRetries {
			return err
		}
		st.Retries++
	}
}

// flushStats asks a PostgreSQL backend to publish its pending statistics
// (pg_stat_wal among them) before the connection closes; servers without
// pg_stat_force_next_flush ignore it.
func flushStats(c *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, _ = c.Exec(ctx, "SELECT pg_stat_force_next_flush()")
}

// pacer spaces one terminal's transactions for RunOptions.Rate.
type pacer struct {
	interval time.Duration // 0: no limit
	next     time.Time
}

// newPacer paces terminal i of n for rate transactions per minute in all;
// the terminals' first starts are spread over one interval.
func newPacer(rate float64, n, i int) *pacer {
	if rate <= 0 {
		return &pacer{}
	}
	iv := time.Duration(float64(time.Minute) * float64(n) / rate)
	return &pacer{interval: iv, next: time.Now().Add(iv * time.Duration(i) / time.Duration(n))}
}

// wait sleeps until the terminal's next start and reports false if ctx
// ended first. A terminal that fell behind (slow transactions) starts at
// once but does not make up more than one interval in a burst.
func (p *pacer) wait(ctx context.Context) bool {
	if p.interval == 0 {
		return true
	}
	now := time.Now()
	if d := p.next.Sub(now); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		}
	} else if -d > p.interval {
		p.next = now
	}
	p.next = p.next.Add(p.interval)
	return true
}

package tpcc

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// WALDelta is a pg_stat_wal difference over a measured interval, or the
// reason there is none.
type WALDelta struct {
	WALStats
	Err error // pg_stat_wal could not be read: "n/a"
	// OtherSessions is the number of busy sessions of other applications
	// seen during the interval (their WAL is in the delta too); -1 unknown.
	OtherSessions int
}

func measureStart(ctx context.Context, c *pgx.Conn, checkpoint bool) (WALStats, error, error) {
	var ckErr error
	if checkpoint {
		_, ckErr = c.Exec(ctx, "CHECKPOINT")
	}
	w, err := settleWAL(ctx, c)
	return w, err, ckErr
}

// DeliveryPassOptions configure DeliveryPass.
type DeliveryPassOptions struct {
	PerDistrict int  // oldest undelivered orders to deliver per district (docs/BENCHMARKSQL.md: 300)
	Workers     int  // connections delivering concurrently (default 1)
	Checkpoint  bool // CHECKPOINT before measuring, so FPIs count from a known point
	Seed        uint64
}

// DeliveryPassResult reports DeliveryPass.
type DeliveryPassResult struct {
	Orders        int // orders delivered = transactions
	Elapsed       time.Duration
	Before, After Locality // lines of the delivered orders
	LinesSamePage int      // order lines whose new version stayed on the old block
	Lines         int
	WAL           WALDelta
	CheckpointErr error
}

// DeliveryPass delivers the PerDistrict oldest undelivered orders of every
// district, one order per transaction (BenchmarkSQL's DELIVERY_BG work for
// one district), round by round over the districts, and measures the
// locality of those orders' lines before and after and the WAL written.
func DeliveryPass(ctx context.Context, connect Connector, o DeliveryPassOptions) (*DeliveryPassResult, error) {
	if o.Workers < 1 {
		o.Workers = 1
	}
	admin, err := connect(ctx)
	if err != nil {
		return nil, err
	}
	defer admin.Close(context.Background())
	db, err := ReadDB(ctx, admin)
	if err != nil {
		return nil, err
	}
	keep := map[OrderKey]bool{}
	type job struct{ w, d int32 }
	var jobs []job
	for w := 1; w <= db.Warehouses; w++ {
		for d := 1; d <= Districts; d++ {
			rows, err := admin.Query(ctx, "SELECT no_o_id FROM bmsql_new_order WHERE no_w_id = $1 AND no_d_id = $2 ORDER BY no_o_id LIMIT $3",
				int32(w), int32(d), int64(o.PerDistrict))
			if err != nil {
				return nil, err
			}
			ids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
			if err != nil {
				return nil, err
			}
			for _, id := range ids {
				keep[OrderKey{int32(w), int32(d), id}] = true
			}
		}
	}
	for i := 0; i < o.PerDistrict; i++ {
		for w := 1; w <= db.Warehouses; w++ {
			for d := 1; d <= Districts; d++ {
				jobs = append(jobs, job{int32(w), int32(d)})
			}
		}
	}
	before, err := OrderLineBlocks(ctx, admin, keep)
	if err != nil {
		return nil, fmt.Errorf("order_line blocks: %w", err)
	}
	res := &DeliveryPassResult{Before: ComputeLocality(before)}
	wal0, walErr, ckErr := measureStart(ctx, admin, o.Checkpoint)
	res.CheckpointErr = ckErr

	conns, err := openN(ctx, connect, o.Workers)
	if err != nil {
		return nil, err
	}
	var next, delivered atomic.Int64
	errs := make([]error, o.Workers)
	stopWatch := watchOthers(ctx, admin)
	start := time.Now()
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func(i int, c *pgx.Conn) {
			defer wg.Done()
			r := NewRand(o.Seed + uint64(i) + 1)
			for {
				j := int(next.Add(1) - 1)
				if j >= len(jobs) {
					return
				}
				carrier := int32(r.Int(1, 10))
				var ok bool
				for attempt := 0; ; attempt++ {
					err := inTx(ctx, c, func(tx pgx.Tx) error {
						var err error
						ok, err = DeliverOne(ctx, tx, jobs[j].w, jobs[j].d, carrier)
						return err
					})
					if err == nil {
						break
					}
					if !Retryable(err) || attempt >= 10 {
						errs[i] = err
						return
					}
				}
				if ok {
					delivered.Add(1)
				}
			}
		}(i, c)
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	others := stopWatch()
	res.Orders = int(delivered.Load())
	for _, c := range conns {
		flushStats(c)
		c.Close(context.Background())
	}
	for _, err := range errs {
		if err != nil {
			return res, err
		}
	}
	res.WAL = walDelta(ctx, admin, wal0, walErr)
	res.WAL.OtherSessions = others
	after, err := OrderLineBlocks(ctx, admin, keep)
	if err != nil {
		return res, fmt.Errorf("order_line blocks: %w", err)
	}
	res.After = ComputeLocality(after)
	res.LinesSamePage, res.Lines = SamePage(before, after)
	return res, nil
}

func walDelta(ctx context.Context, c *pgx.Conn, wal0 WALStats, err0 error) WALDelta {
	if err0 != nil {
		return WALDelta{Err: err0}
	}
	wal1, err := settleWAL(ctx, c)
	if err != nil {
		return WALDelta{Err: err}
	}
	return WALDelta{WALStats: wal1.Sub(wal0)}
}

// NewOrdersOptions configure NewOrders.
type NewOrdersOptions struct {
	N           int // New-Order transactions (default 1000)
	Terminals   int // default 1
	Checkpoint  bool
	Seed        uint64
	RollbackPct int
}

// NewOrdersResult reports NewOrders.
type NewOrdersResult struct {
	Run           *RunResult
	WAL           WALDelta
	Locality      Locality // lines of the orders the run created
	CheckpointErr error
}

// NewOrders runs N New-Order transactions after an optional CHECKPOINT and
// measures the WAL they write and the locality of the order lines they
// insert.
func NewOrders(ctx context.Context, connect Connector, o NewOrdersOptions) (*NewOrdersResult, error) {
	if o.N <= 0 {
		o.N = 1000
	}
	admin, err := connect(ctx)
	if err != nil {
		return nil, err
	}
	defer admin.Close(context.Background())
	firstNew := map[[2]int32]int32{}
	rows, err := admin.Query(ctx, "SELECT d_w_id, d_id, d_next_o_id FROM bmsql_district")
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var w, d, n int32
		if err := rows.Scan(&w, &d, &n); err != nil {
			return nil, err
		}
		firstNew[[2]int32{w, d}] = n
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	res := &NewOrdersResult{}
	wal0, walErr, ckErr := measureStart(ctx, admin, o.Checkpoint)
	res.CheckpointErr = ckErr
	stopWatch := watchOthers(ctx, admin)
	res.Run, err = Run(ctx, connect, RunOptions{Terminals: o.Terminals, Txns: o.N, Seed: o.Seed,
		RollbackPct: o.RollbackPct, Single: true, Only: NewOrder})
	others := stopWatch()
	if err != nil {
		return res, err
	}
	if res.Run.FirstErr != nil {
		return res, res.Run.FirstErr
	}
	res.WAL = walDelta(ctx, admin, wal0, walErr)
	res.WAL.OtherSessions = others
	all, err := OrderLineBlocks(ctx, admin, nil)
	if err != nil {
		return res, fmt.Errorf("order_line blocks: %w", err)
	}
	var mine []RowBlock
	for _, r := range all {
		if r.Key.O >= firstNew[[2]int32{r.Key.W, r.Key.D}] {
			mine = append(mine, r)
		}
	}
	res.Locality = ComputeLocality(mine)
	return res, nil
}

// DeliveryTables are the tables a Delivery changes: it deletes new_order
// rows and updates oorder, order_line and customer rows.
var DeliveryTables = []string{"bmsql_new_order", "bmsql_oorder", "bmsql_order_line", "bmsql_customer"}

// VacuumAfter measures the cleanup a pass leaves to VACUUM: after a
// CHECKPOINT (autovacuum comes minutes later, after checkpoints), a
// VACUUM of each of tables, and the WAL it writes. A server that prunes
// and frees line pointers while the pass runs leaves less of it.
func VacuumAfter(ctx context.Context, c *pgx.Conn, tables []string) (WALDelta, error) {
	wal0, walErr, ckErr := measureStart(ctx, c, true)
	if ckErr != nil {
		return WALDelta{}, fmt.Errorf("CHECKPOINT: %w", ckErr)
	}
	for _, t := range tables {
		if _, err := c.Exec(ctx, "VACUUM "+pgx.Identifier{t}.Sanitize()); err != nil {
			return WALDelta{}, fmt.Errorf("VACUUM %s: %w", t, err)
		}
	}
	return walDelta(ctx, c, wal0, walErr), nil
}

package tpcc

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// Districts per warehouse; never scaled.
const Districts = 10

// Scale holds the row counts of a database scaled by a factor: 1 is the
// TPC-C size (100,000 items and stock rows per warehouse, 3,000 customers and
// orders and 900 new orders per district). Smaller factors keep the shape
// (70% of the initial orders delivered, 30% new) for quick tests.
type Scale struct {
	Items     int // items, and stock rows per warehouse
	Customers int // customers (and history rows, and initial orders) per district
	NewOrders int // undelivered initial orders per district (the last ones)
}

// ScaleOf returns the counts for factor f (clamped so every count is >= 1).
func ScaleOf(f float64) Scale {
	n := func(full int) int { return max(1, int(math.Round(float64(full)*f))) }
	s := Scale{Items: n(100000), Customers: n(3000), NewOrders: n(900)}
	s.NewOrders = min(s.NewOrders, s.Customers)
	return s
}

// Orders is the number of initial orders per district (one per customer).
func (s Scale) Orders() int { return s.Customers }

// FirstUndelivered is the first o_id without a carrier (2101 at full scale).
func (s Scale) FirstUndelivered() int { return s.Customers - s.NewOrders + 1 }

// Mode is how the loader sends rows.
type Mode string

const (
	// ModeBatch sends one single-row INSERT per row, pipelined as a pgx
	// Batch, like BenchmarkSQL's JDBC batches: one heap_insert per row.
	ModeBatch Mode = "batch"
	// ModeValues sends multi-row INSERT ... VALUES statements.
	ModeValues Mode = "values"
	// ModeCopy sends binary COPY FROM STDIN (pgx CopyFrom): heap_multi_insert.
	ModeCopy Mode = "copy"
)

// ParseMode checks a -mode flag value.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeBatch, ModeValues, ModeCopy:
		return m, nil
	}
	return "", fmt.Errorf("tpcc: unknown load mode %q (batch, values or copy)", s)
}

// DefaultChunk is how many statements of a batch pgjdbc's executeBatch
// pipelines before it sends a Sync and waits for the results (its 64,000
// byte receive-buffer estimate at 250 bytes per statement), so that a batch
// reaches the server in BenchmarkSQL's rhythm.
const DefaultChunk = 256

// Connector opens one connection to the database under test.
type Connector func(ctx context.Context) (*pgx.Conn, error)

// LoadOptions configure Load.
type LoadOptions struct {
	Warehouses int
	Workers    int     // concurrent loader connections (BenchmarkSQL default 4)
	Scale      float64 // 1 = TPC-C size
	Mode       Mode
	// Chunk, in batch mode, sends a batch in pipelined pieces of this many
	// INSERTs, each waited for before the next; < 0: the whole batch at
	// once; 0: DefaultChunk.
	Chunk int
	Seed  uint64
	// Logf, if set, receives progress lines.
	Logf func(format string, args ...any)
}

// LoadResult reports a load.
type LoadResult struct {
	Rows       int64         // rows inserted
	LoadTime   time.Duration // data only
	IndexTime  time.Duration // primary keys and indexes
	VacuumTime time.Duration
}

// Load drops and recreates the bmsql_* tables, loads them as BenchmarkSQL's
// LoadData does (a shared job counter: job 0 is ITEM plus CONFIG, job w is
// warehouse w, each job ONE transaction on the worker's own connection),
// then builds the indexes and vacuums every table.
func Load(ctx context.Context, connect Connector, o LoadOptions) (LoadResult, error) {
	var res LoadResult
	if o.Workers < 1 {
		o.Workers = 1
	}
	if o.Mode == "" {
		o.Mode = ModeBatch
	}
	if o.Chunk == 0 {
		o.Chunk = DefaultChunk
	}
	if o.Scale <= 0 {
		o.Scale = 1
	}
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	sc := ScaleOf(o.Scale)
	admin, err := connect(ctx)
	if err != nil {
		return res, err
	}
	defer admin.Close(context.Background())
	if err := DropTables(ctx, admin); err != nil {
		return res, err
	}
	if err := CreateTables(ctx, admin); err != nil {
		return res, err
	}

	// One set of NURand constants for the whole load, saved in bmsql_config.
	consts := NewRand(o.Seed)
	var next atomic.Int64
	var rows atomic.Int64
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, o.Workers)
	start := time.Now()
	for w := 0; w < o.Workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c, err := connect(ctx)
			if err != nil {
				errs[w] = err
				cancel()
				return
			}
			defer c.Close(context.Background())
			ld := &loader{conn: c, mode: o.Mode, chunk: o.Chunk, sc: sc, warehouses: o.Warehouses, consts: consts}
			for {
				job := int(next.Add(1) - 1)
				if job > o.Warehouses {
					return
				}
				t0 := time.Now()
				// Seeded per job, not per worker: the same data whichever
				// worker loads a warehouse, so targets can be compared.
				ld.rnd = NewRand(o.Seed + uint64(job+1)*7919)
				n, err := ld.job(ctx, job)
				if err != nil {
					errs[w] = fmt.Errorf("worker %d, job %d: %w", w, job, err)
					cancel()
					return
				}
				rows.Add(n)
				if job == 0 {
					logf("worker %d: ITEM and CONFIG done, %d rows in %v", w, n, time.Since(t0).Round(time.Millisecond))
				} else {
					logf("worker %d: warehouse %d done, %d rows in %v", w, job, n, time.Since(t0).Round(time.Millisecond))
				}
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return res, err
		}
	}
	res.Rows = rows.Load()
	res.LoadTime = time.Since(start)

	t0 := time.Now()
	if err := CreateIndexes(ctx, admin); err != nil {
		return res, err
	}
	res.IndexTime = time.Since(t0)
	t0 = time.Now()
	if err := VacuumTables(ctx, admin); err != nil {
		return res, err
	}
	res.VacuumTime = time.Since(t0)
	return res, nil
}

// loader is one LoadData worker.
type loader struct {
	conn       *pgx.Conn
	mode       Mode
	chunk      int
	sc         Scale
	warehouses int
	rnd        *Rand
	consts     *Rand
}

func (l *loader) job(ctx context.Context, job int) (int64, error) {
	tx, err := l.conn.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck // no-op after Commit
	var n int64
	if job == 0 {
		n, err = l.loadItem(ctx, tx)
	} else {
		n, err = l.loadWarehouse(ctx, tx, job)
	}
	if err != nil {
		return 0, err
	}
	return n, tx.Commit(ctx)
}

func (l *loader) loadItem(ctx context.Context, tx pgx.Tx) (int64, error) {
	cfg := newSink(tx, l.mode, l.chunk, "bmsql_config", "cfg_name, cfg_value")
	cfg.add("warehouses", fmt.Sprint(l.warehouses))
	cfg.add("nURandCLast", fmt.Sprint(l.consts.CLast))
	cfg.add("nURandCC_ID", fmt.Sprint(l.consts.CID))
	cfg.add("nURandCI_ID", fmt.Sprint(l.consts.IID))
	if err := cfg.flush(ctx); err != nil {
		return 0, err
	}
	r := l.rnd
	it := newSink(tx, l.mode, l.chunk, "bmsql_item", "i_id, i_im_id, i_name, i_price, i_data")
	for i := 1; i <= l.sc.Items; i++ {
		it.add(int32(i), int32(r.Int(1, 10000)), r.AString(14, 24), float64(r.Int(100, 10000))/100, r.Data())
		if i%1000 == 0 {
			if err := it.flush(ctx); err != nil {
				return 0, err
			}
		}
	}
	if err := it.flush(ctx); err != nil {
		return 0, err
	}
	return cfg.n + it.n, nil
}

func (l *loader) loadWarehouse(ctx context.Context, tx pgx.Tx, w int) (int64, error) {
	r := l.rnd
	w32 := int32(w)
	now := time.Now()
	wh := newSink(tx, l.mode, l.chunk, "bmsql_warehouse", "w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, w_tax, w_ytd")
	wh.add(w32, r.AString(6, 10), r.AString(10, 20), r.AString(10, 20), r.AString(10, 20), r.State(), r.Zip(),
		float64(r.Int(0, 2000))/10000, 300000.0)
	if err := wh.flush(ctx); err != nil {
		return 0, err
	}

	st := newSink(tx, l.mode, l.chunk, "bmsql_stock", "s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, "+
		"s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, s_remote_cnt, s_data")
	for i := 1; i <= l.sc.Items; i++ {
		st.add(int32(i), w32, int32(r.Int(10, 100)),
			r.AString(24, 24), r.AString(24, 24), r.AString(24, 24), r.AString(24, 24), r.AString(24, 24),
			r.AString(24, 24), r.AString(24, 24), r.AString(24, 24), r.AString(24, 24), r.AString(24, 24),
			0.0, int32(0), int32(0), r.Data())
		if i%10000 == 0 {
			if err := st.flush(ctx); err != nil {
				return 0, err
			}
		}
	}
	if err := st.flush(ctx); err != nil {
		return 0, err
	}
	total := wh.n + st.n

	for d := 1; d <= Districts; d++ {
		d32 := int32(d)
		di := newSink(tx, l.mode, l.chunk, "bmsql_district", "d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, d_state, d_zip, d_tax, d_ytd, d_next_o_id")
		di.add(d32, w32, r.AString(6, 10), r.AString(10, 20), r.AString(10, 20), r.AString(10, 20), r.State(), r.Zip(),
			float64(r.Int(0, 2000))/10000, 30000.0, int32(l.sc.Orders()+1))
		cu := newSink(tx, l.mode, l.chunk, "bmsql_customer", "c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, "+
			"c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, "+
			"c_payment_cnt, c_delivery_cnt, c_data")
		hi := newSink(tx, l.mode, l.chunk, "bmsql_history", "hist_id, h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data")
		for c := 1; c <= l.sc.Customers; c++ {
			last := LastName(l.consts.lastNumberFor(r, c))
			credit := "GC"
			if r.Int(1, 100) > 90 {
				credit = "BC"
			}
			cu.add(int32(c), d32, w32, r.AString(8, 16), "OE", last, r.AString(10, 20), r.AString(10, 20),
				r.AString(10, 20), r.State(), r.Zip(), r.NString(16, 16), now, credit, 50000.0,
				float64(r.Int(0, 5000))/10000, -10.0, 10.0, int32(1), int32(0), r.AString(300, 500))
			histID := ((w-1)*Districts+(d-1))*l.sc.Customers + c
			hi.add(int32(histID), int32(c), d32, w32, d32, w32, now, 10.0, r.AString(12, 24))
		}
		or := newSink(tx, l.mode, l.chunk, "bmsql_oorder", "o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local")
		ol := newSink(tx, l.mode, l.chunk, "bmsql_order_line", "ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, "+
			"ol_delivery_d, ol_quantity, ol_amount, ol_dist_info")
		no := newSink(tx, l.mode, l.chunk, "bmsql_new_order", "no_o_id, no_d_id, no_w_id")
		perm := r.Perm(l.sc.Customers)
		for o := 1; o <= l.sc.Orders(); o++ {
			delivered := o < l.sc.FirstUndelivered()
			var carrier any // NULL
			if delivered {
				carrier = int32(r.Int(1, 10))
			}
			cnt := r.Int(5, 15)
			or.add(int32(o), d32, w32, int32(perm[o-1]), now, carrier, int32(cnt), int32(1))
			for n := 1; n <= cnt; n++ {
				var deliveryD any
				amount := 0.0
				if delivered {
					deliveryD = now
				} else {
					amount = float64(r.Int(1, 999999)) / 100
				}
				ol.add(int32(o), d32, w32, int32(n), int32(r.Int(1, l.sc.Items)), w32, deliveryD, int32(5), amount, r.AString(24, 24))
			}
			if !delivered {
				no.add(int32(o), d32, w32)
			}
		}
		for _, s := range []*sink{di, cu, hi, or, ol, no} {
			if err := s.flush(ctx); err != nil {
				return 0, err
			}
			total += s.n
		}
	}
	return total, nil
}

// lastNumberFor returns the C_LAST number of customer c while loading: c-1
// for the first 1,000 customers, NURand(255, 0, 999) for the others
// (clause 4.3.3.1). The constant is the load's, drawn by r.
func (k *Rand) lastNumberFor(r *Rand, c int) int {
	if c <= 1000 {
		return c - 1
	}
	return nurand(r.Int(0, 255), r.Int(0, 999), k.CLast, 0, 999)
}

// sink collects rows of one table and sends them in the loader's mode.
type sink struct {
	tx    pgx.Tx
	mode  Mode
	chunk int // batch mode: INSERTs per pipelined piece, 0 = all
	table string
	cols  []string
	rows  [][]any
	n     int64 // rows sent
}

func newSink(tx pgx.Tx, mode Mode, chunk int, table, cols string) *sink {
	cs := strings.Split(cols, ",")
	for i := range cs {
		cs[i] = strings.TrimSpace(cs[i])
	}
	return &sink{tx: tx, mode: mode, chunk: chunk, table: table, cols: cs}
}

func (s *sink) add(vals ...any) {
	if len(vals) != len(s.cols) {
		panic(fmt.Sprintf("tpcc: %s: %d values for %d columns", s.table, len(vals), len(s.cols)))
	}
	s.rows = append(s.rows, vals)
}

// maxValuesRows caps a multi-row VALUES statement (and PostgreSQL's 65,535
// parameters per statement caps it further for wide tables).
const maxValuesRows = 1000

func (s *sink) flush(ctx context.Context) error {
	if len(s.rows) == 0 {
		return nil
	}
	var err error
	switch s.mode {
	case ModeCopy:
		_, err = s.tx.CopyFrom(ctx, pgx.Identifier{s.table}, s.cols, pgx.CopyFromRows(s.rows))
	case ModeValues:
		per := min(maxValuesRows, 65535/len(s.cols))
		for i := 0; i < len(s.rows) && err == nil; i += per {
			chunk := s.rows[i:min(i+per, len(s.rows))]
			args := make([]any, 0, len(chunk)*len(s.cols))
			for _, r := range chunk {
				args = append(args, r...)
			}
			_, err = s.tx.Exec(ctx, insertSQL(s.table, s.cols, len(chunk)), args...)
		}
	default:
		q := insertSQL(s.table, s.cols, 1)
		per := s.chunk
		if per <= 0 {
			per = len(s.rows)
		}
		for i := 0; i < len(s.rows) && err == nil; i += per {
			b := &pgx.Batch{}
			for _, r := range s.rows[i:min(i+per, len(s.rows))] {
				b.Queue(q, r...)
			}
			err = s.tx.SendBatch(ctx, b).Close()
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", s.table, err)
	}
	s.n += int64(len(s.rows))
	s.rows = s.rows[:0]
	return nil
}

// insertSQL returns INSERT INTO table (cols) VALUES ($1, ...), (...) with
// nrows rows of placeholders.
func insertSQL(table string, cols []string, nrows int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO ")
	b.WriteString(table)
	b.WriteString(" (")
	b.WriteString(strings.Join(cols, ", "))
	b.WriteString(") VALUES ")
	p := 1
	for i := 0; i < nrows; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j := range cols {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "$%d", p)
			p++
		}
		b.WriteByte(')')
	}
	return b.String()
}

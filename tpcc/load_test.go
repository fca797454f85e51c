package tpcc

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The tests below need a PostgreSQL server: TPCC_TEST_DSN, or the
// PostgreSQL 15 of the development machine. They are skipped when it cannot
// be reached (CI has none). Each test works in a schema of its own.
func testConnector(t *testing.T) Connector {
	t.Helper()
	if testing.Short() {
		t.Skip("needs a PostgreSQL server")
	}
	dsn := os.Getenv("TPCC_TEST_DSN")
	if dsn == "" {
		dsn = "postgres://postgres:postgres@127.0.0.1:5432/postgres?sslmode=disable"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Skipf("PostgreSQL not reachable (%v)", err)
	}
	defer c.Close(context.Background())
	schema := fmt.Sprintf("tpcc_test_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6)
	if _, err := c.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), dsn)
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		_, _ = c.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
	})
	conn, err := DSNConnector(dsn, schema)
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

func count(t *testing.T, c *pgx.Conn, q string) int64 {
	t.Helper()
	var n int64
	if err := c.QueryRow(context.Background(), q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// checkConsistency runs TPC-C's consistency conditions 1-4 and others that
// hold after any mix (clause 3.3.2).
func checkConsistency(t *testing.T, c *pgx.Conn) {
	t.Helper()
	bad, err := Check(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Errorf("Check: %s", b)
	}
	for _, q := range []string{
		// 2: d_next_o_id - 1 = max(o_id) = max(no_o_id)
		`SELECT count(*) FROM bmsql_district WHERE d_next_o_id - 1 <> (SELECT max(o_id) FROM bmsql_oorder WHERE o_w_id = d_w_id AND o_d_id = d_id)`,
		// 3: new_order ids are contiguous per district
		`SELECT count(*) FROM (SELECT no_w_id, no_d_id FROM bmsql_new_order GROUP BY no_w_id, no_d_id HAVING max(no_o_id) - min(no_o_id) + 1 <> count(*)) x`,
		// 4: sum(o_ol_cnt) = count(order lines) per district
		`SELECT count(*) FROM bmsql_district WHERE (SELECT sum(o_ol_cnt) FROM bmsql_oorder WHERE o_w_id = d_w_id AND o_d_id = d_id) <>
		   (SELECT count(*) FROM bmsql_order_line WHERE ol_w_id = d_w_id AND ol_d_id = d_id)`,
		// undelivered orders are exactly the new_order rows
		`SELECT count(*) FROM bmsql_oorder o WHERE (o_carrier_id IS NULL) <> EXISTS (SELECT 1 FROM bmsql_new_order WHERE no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id)`,
		// delivered lines have a delivery date
		`SELECT count(*) FROM bmsql_order_line JOIN bmsql_oorder ON o_w_id = ol_w_id AND o_d_id = ol_d_id AND o_id = ol_o_id WHERE (o_carrier_id IS NULL) <> (ol_delivery_d IS NULL)`,
	} {
		if n := count(t, c, q); n != 0 {
			t.Errorf("consistency: %d violations of\n%s", n, q)
		}
	}
}

func TestLoadModes(t *testing.T) {
	connect := testConnector(t)
	ctx := context.Background()
	sc := ScaleOf(0.01)
	for _, mode := range []Mode{ModeBatch, ModeValues, ModeCopy} {
		t.Run(string(mode), func(t *testing.T) {
			_, err := Load(ctx, connect, LoadOptions{Warehouses: 2, Workers: 2, Scale: 0.01, Mode: mode, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			c, err := connect(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close(ctx)
			W, D := int64(2), int64(Districts)
			for _, tc := range []struct {
				q    string
				want int64
			}{
				{"SELECT count(*) FROM bmsql_config", 4},
				{"SELECT count(*) FROM bmsql_item", int64(sc.Items)},
				{"SELECT count(*) FROM bmsql_warehouse", W},
				{"SELECT count(*) FROM bmsql_stock", W * int64(sc.Items)},
				{"SELECT count(*) FROM bmsql_district", W * D},
				{"SELECT count(*) FROM bmsql_customer", W * D * int64(sc.Customers)},
				{"SELECT count(*) FROM bmsql_history", W * D * int64(sc.Customers)},
				{"SELECT count(*) FROM bmsql_oorder", W * D * int64(sc.Orders())},
				{"SELECT count(*) FROM bmsql_new_order", W * D * int64(sc.NewOrders)},
				{"SELECT count(*) FROM bmsql_oorder WHERE o_carrier_id IS NULL", W * D * int64(sc.NewOrders)},
				{"SELECT count(*) FROM bmsql_oorder WHERE o_ol_cnt NOT BETWEEN 5 AND 15", 0},
				{"SELECT count(DISTINCT o_c_id) FROM bmsql_oorder WHERE o_w_id = 1 AND o_d_id = 1", int64(sc.Customers)},
				{"SELECT count(*) FROM bmsql_order_line WHERE ol_o_id < 22 AND (ol_delivery_d IS NULL OR ol_amount <> 0)", 0},
				{"SELECT count(*) FROM bmsql_order_line WHERE ol_o_id >= 22 AND ol_delivery_d IS NOT NULL", 0},
				{"SELECT count(*) FROM bmsql_customer WHERE c_id <= 1000 AND c_last <> " +
					"(ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[(c_id-1)/100+1] || " +
					"(ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[(c_id-1)/10%10+1] || " +
					"(ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[(c_id-1)%10+1]", 0},
				{"SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND tablename LIKE 'bmsql_%'", int64(len(Indexes) + 1)},
			} {
				if got := count(t, c, tc.q); got != tc.want {
					t.Errorf("%s = %d, want %d", tc.q, got, tc.want)
				}
			}
			checkConsistency(t, c)
			rows, err := OrderLineBlocks(ctx, c, nil)
			if err != nil {
				t.Fatal(err)
			}
			l := ComputeLocality(rows)
			if l.Groups != int(W*D)*sc.Orders() || l.Rows != int(count(t, c, "SELECT count(*) FROM bmsql_order_line")) {
				t.Errorf("locality over %d orders / %d lines: %+v", W*D*int64(sc.Orders()), l.Rows, l)
			}
		})
	}
}

// TestRunMixAndPasses runs the mix (BenchmarkSQL's statements as written)
// and both passes on PostgreSQL 15 and on an in-process minipg; every
// consistency check holds after each.
func TestRunMixAndPasses(t *testing.T) {
	t.Run("postgres", func(t *testing.T) { runMixAndPasses(t, testConnector(t)) })
	t.Run("minipg", func(t *testing.T) { runMixAndPasses(t, minipgConnector(t)) })
}

func runMixAndPasses(t *testing.T, connect Connector) {
	ctx := context.Background()
	if _, err := Load(ctx, connect, LoadOptions{Warehouses: 2, Workers: 3, Scale: 0.01, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	// The buffer-write counters before the mix: a timed checkpoint may
	// write the mix's pages before the CHECKPOINT below does.
	c0, err := connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bw0, err := ReadBufferWrites(ctx, c0)
	c0.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(ctx, connect, RunOptions{Terminals: 4, Txns: 400, Seed: 3, RollbackPct: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.FirstErr != nil {
		t.Fatal(res.FirstErr)
	}
	if res.Total() != 400 {
		t.Errorf("%d transactions done, want 400", res.Total())
	}
	for typ := NewOrder; typ < numTxTypes; typ++ {
		if res.Tx[typ].Count == 0 {
			t.Errorf("no %s in 400 transactions of the mix", typ)
		}
	}
	c, err := connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	checkConsistency(t, c)
	// The mix's changed pages are written by the next checkpoint.
	if _, err := c.Exec(ctx, "CHECKPOINT"); err != nil {
		t.Fatal(err)
	}
	if bw1, err := ReadBufferWrites(ctx, c); err != nil || bw1.Sub(bw0).Checkpoint <= 0 || bw1.Sub(bw0).Written() < bw1.Sub(bw0).Checkpoint {
		t.Errorf("pg_stat_bgwriter from before the mix to a CHECKPOINT after it: %+v -> %+v, %v", bw0, bw1, err)
	}
	committed := res.Tx[NewOrder].Count - res.Tx[NewOrder].Rollbacks
	if got := count(t, c, "SELECT count(*) FROM bmsql_oorder") - 2*Districts*30; got != int64(committed) {
		t.Errorf("%d new orders in bmsql_oorder, %d committed", got, committed)
	}

	undelivered := count(t, c, "SELECT count(*) FROM bmsql_new_order")
	dp, err := DeliveryPass(ctx, connect, DeliveryPassOptions{PerDistrict: 3, Checkpoint: true, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	// At most 3 per district: the mix's Deliveries may have left fewer.
	if dp.Orders == 0 || dp.Orders > 2*Districts*3 || dp.Before.Groups != dp.Orders || dp.After.Groups != dp.Orders {
		t.Errorf("delivery pass: %d orders, before %d, after %d groups", dp.Orders, dp.Before.Groups, dp.After.Groups)
	}
	if dp.WAL.Err != nil || dp.WAL.Records <= 0 || dp.WAL.Bytes <= 0 {
		t.Errorf("delivery pass WAL: %+v", dp.WAL)
	}
	if dp.Lines != dp.After.Rows || dp.LinesSamePage > dp.Lines {
		t.Errorf("same page %d of %d lines (%d after)", dp.LinesSamePage, dp.Lines, dp.After.Rows)
	}
	if got := count(t, c, "SELECT count(*) FROM bmsql_new_order"); got != undelivered-int64(dp.Orders) {
		t.Errorf("%d undelivered after the pass, want %d", got, undelivered-int64(dp.Orders))
	}
	checkConsistency(t, c)

	no, err := NewOrders(ctx, connect, NewOrdersOptions{N: 50, Terminals: 2, Checkpoint: true, Seed: 5, RollbackPct: 1})
	if err != nil {
		t.Fatal(err)
	}
	if no.Run.Tx[NewOrder].Count != 50 || no.WAL.Err != nil || no.WAL.Records <= 0 {
		t.Errorf("neworders: %d done, WAL %+v", no.Run.Tx[NewOrder].Count, no.WAL)
	}
	if want := 50 - no.Run.Tx[NewOrder].Rollbacks; no.Locality.Groups != want {
		t.Errorf("neworders: locality over %d orders, want %d", no.Locality.Groups, want)
	}
	checkConsistency(t, c)

	// Check finds broken conditions.
	for _, q := range []string{
		"UPDATE bmsql_district SET d_ytd = d_ytd + 1 WHERE d_w_id = 1 AND d_id = 1",
		"DELETE FROM bmsql_order_line WHERE ol_w_id = 2 AND ol_d_id = 3 AND ol_o_id = 5 AND ol_number = 1",
	} {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	bad, err := Check(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"condition 1": false, "condition 4": false, "condition 6": false}
	for _, b := range bad {
		for k := range want {
			if strings.HasPrefix(b, k+":") {
				want[k] = true
			}
		}
	}
	for k, found := range want {
		if !found {
			t.Errorf("Check did not report %s; got %q", k, bad)
		}
	}
}

package tpcc

import (
	"context"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"
)

// Check verifies TPC-C's consistency conditions (clause 3.3.2) that hold
// after any mix of committed transactions, with single-table GROUP BY
// queries only, so that it runs on any server speaking the SQL subset. It
// returns one line per violated condition (at most a few examples each).
//
//  1. w_ytd = sum(d_ytd) of the warehouse's districts
//  2. d_next_o_id - 1 = max(o_id) = max(no_o_id) of the district
//  3. max(no_o_id) - min(no_o_id) + 1 = number of new_order rows of the district
//  4. sum(o_ol_cnt) = number of order lines of the district
//  5. o_carrier_id is NULL exactly for the orders with a new_order row
//  6. o_ol_cnt = the number of lines of each order
//  7. ol_delivery_d is NULL exactly for the lines of undelivered orders
//  8. w_ytd = sum(h_amount) of the warehouse, 9. d_ytd = sum(h_amount) of
//     the district (only at full scale: the initial YTDs are fixed)
func Check(ctx context.Context, c *pgx.Conn) ([]string, error) {
	var bad []string
	report := func(cond int, format string, args ...any) {
		bad = append(bad, fmt.Sprintf("condition %d: ", cond)+fmt.Sprintf(format, args...))
	}
	type wd struct{ w, d int32 }
	q := func(sql string, scan func(rows pgx.Rows) error) error {
		rows, err := c.Query(ctx, sql)
		if err != nil {
			return fmt.Errorf("%s: %w", sql, err)
		}
		defer rows.Close()
		for rows.Next() {
			if err := scan(rows); err != nil {
				return fmt.Errorf("%s: %w", sql, err)
			}
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("%s: %w", sql, err)
		}
		return nil
	}
	wYTD := map[int32]float64{}
	if err := q("SELECT w_id, w_ytd FROM bmsql_warehouse", func(r pgx.Rows) error {
		var w int32
		var v float64
		err := r.Scan(&w, &v)
		wYTD[w] = v
		return err
	}); err != nil {
		return nil, err
	}
	dYTD := map[wd]float64{}
	dNext := map[wd]int32{}
	sumD := map[int32]float64{}
	if err := q("SELECT d_w_id, d_id, d_ytd, d_next_o_id FROM bmsql_district", func(r pgx.Rows) error {
		var k wd
		var v float64
		var n int32
		err := r.Scan(&k.w, &k.d, &v, &n)
		dYTD[k], dNext[k] = v, n
		sumD[k.w] += v
		return err
	}); err != nil {
		return nil, err
	}
	for w, y := range wYTD {
		if math.Abs(y-sumD[w]) > 0.005 {
			report(1, "warehouse %d: w_ytd %.2f, sum(d_ytd) %.2f", w, y, sumD[w])
		}
	}
	type agg struct {
		max, min, n int64
		sum         float64
	}
	oAgg := map[wd]agg{}
	if err := q("SELECT o_w_id, o_d_id, max(o_id), sum(o_ol_cnt), count(*) FROM bmsql_oorder GROUP BY o_w_id, o_d_id", func(r pgx.Rows) error {
		var k wd
		var a agg
		err := r.Scan(&k.w, &k.d, &a.max, &a.sum, &a.n)
		oAgg[k] = a
		return err
	}); err != nil {
		return nil, err
	}
	noAgg := map[wd]agg{}
	if err := q("SELECT no_w_id, no_d_id, max(no_o_id), min(no_o_id), count(*) FROM bmsql_new_order GROUP BY no_w_id, no_d_id", func(r pgx.Rows) error {
		var k wd
		var a agg
		err := r.Scan(&k.w, &k.d, &a.max, &a.min, &a.n)
		noAgg[k] = a
		return err
	}); err != nil {
		return nil, err
	}
	olCount := map[wd]int64{}
	olUndelivered := map[wd]int64{}
	if err := q("SELECT ol_w_id, ol_d_id, count(*), count(ol_delivery_d) FROM bmsql_order_line GROUP BY ol_w_id, ol_d_id", func(r pgx.Rows) error {
		var k wd
		var n, delivered int64
		err := r.Scan(&k.w, &k.d, &n, &delivered)
		olCount[k], olUndelivered[k] = n, n-delivered
		return err
	}); err != nil {
		return nil, err
	}
	undelivOrders := map[wd]int64{}
	undelivLines := map[wd]int64{}
	if err := q("SELECT o_w_id, o_d_id, count(*), sum(o_ol_cnt) FROM bmsql_oorder WHERE o_carrier_id IS NULL GROUP BY o_w_id, o_d_id", func(r pgx.Rows) error {
		var k wd
		var n int64
		var lines float64
		err := r.Scan(&k.w, &k.d, &n, &lines)
		undelivOrders[k], undelivLines[k] = n, int64(lines)
		return err
	}); err != nil {
		return nil, err
	}
	for k, next := range dNext {
		o, no := oAgg[k], noAgg[k]
		if int64(next)-1 != o.max || (no.n > 0 && no.max != o.max) {
			report(2, "district %d/%d: d_next_o_id %d, max(o_id) %d, max(no_o_id) %d", k.w, k.d, next, o.max, no.max)
		}
		if no.n > 0 && no.max-no.min+1 != no.n {
			report(3, "district %d/%d: new_order %d..%d but %d rows", k.w, k.d, no.min, no.max, no.n)
		}
		if int64(o.sum) != olCount[k] {
			report(4, "district %d/%d: sum(o_ol_cnt) %.0f, %d order lines", k.w, k.d, o.sum, olCount[k])
		}
		if undelivOrders[k] != no.n {
			report(5, "district %d/%d: %d orders without carrier, %d new_order rows", k.w, k.d, undelivOrders[k], no.n)
		}
		if undelivLines[k] != olUndelivered[k] {
			report(7, "district %d/%d: undelivered orders have %d lines, %d lines without ol_delivery_d", k.w, k.d, undelivLines[k], olUndelivered[k])
		}
	}
	// 6, per order.
	type ok struct{ w, d, o int32 }
	cnt := map[ok]int32{}
	if err := q("SELECT o_w_id, o_d_id, o_id, o_ol_cnt FROM bmsql_oorder", func(r pgx.Rows) error {
		var k ok
		var n int32
		err := r.Scan(&k.w, &k.d, &k.o, &n)
		cnt[k] = n
		return err
	}); err != nil {
		return nil, err
	}
	lines := map[ok]int32{}
	if err := q("SELECT ol_w_id, ol_d_id, ol_o_id, count(*) FROM bmsql_order_line GROUP BY ol_w_id, ol_d_id, ol_o_id", func(r pgx.Rows) error {
		var k ok
		var n int32
		err := r.Scan(&k.w, &k.d, &k.o, &n)
		lines[k] = n
		return err
	}); err != nil {
		return nil, err
	}
	shown := 0
	for k, n := range cnt {
		if lines[k] != n {
			if shown < 3 {
				report(6, "order %d/%d/%d: o_ol_cnt %d, %d lines", k.w, k.d, k.o, n, lines[k])
			}
			shown++
		}
	}
	if len(lines) != len(cnt) {
		report(6, "%d orders, lines of %d orders", len(cnt), len(lines))
	}
	// 8 and 9 only hold at full scale (w_ytd 300,000 = 30,000 history rows of 10.00).
	var customers int64
	if err := c.QueryRow(ctx, "SELECT count(*) FROM bmsql_customer WHERE c_w_id = 1 AND c_d_id = 1").Scan(&customers); err != nil {
		return nil, err
	}
	if customers == 3000 {
		hW := map[int32]float64{}
		hD := map[wd]float64{}
		if err := q("SELECT h_w_id, h_d_id, sum(h_amount) FROM bmsql_history GROUP BY h_w_id, h_d_id", func(r pgx.Rows) error {
			var k wd
			var v float64
			err := r.Scan(&k.w, &k.d, &v)
			hD[k] = v
			hW[k.w] += v
			return err
		}); err != nil {
			return nil, err
		}
		for w, y := range wYTD {
			if math.Abs(y-hW[w]) > 0.005 {
				report(8, "warehouse %d: w_ytd %.2f, sum(h_amount) %.2f", w, y, hW[w])
			}
		}
		for k, y := range dYTD {
			if math.Abs(y-hD[k]) > 0.005 {
				report(9, "district %d/%d: d_ytd %.2f, sum(h_amount) %.2f", k.w, k.d, y, hD[k])
			}
		}
	}
	return bad, nil
}

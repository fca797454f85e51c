package tpcc

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// The five transactions issue the statements of BenchmarkSQL 5's
// jTPCCConnection (its PostgreSQL flavour), in the same order, with two
// changes so that they stay inside the SQL subset every server under test
// speaks: the customer-warehouse join of New-Order is two point SELECTs,
// and the subqueries of Order-Status and Stock-Level are split into
// separate SELECTs whose results feed the next one. The writes are
// identical.

// TxType names a transaction of the mix.
type TxType int

const (
	NewOrder TxType = iota
	Payment
	OrderStatus
	Delivery
	StockLevel
	numTxTypes
)

func (t TxType) String() string {
	return [...]string{"NewOrder", "Payment", "OrderStatus", "Delivery", "StockLevel"}[t]
}

// ErrRollback marks the 1% of New-Order transactions that use an unused
// item number and roll back on purpose (clause 2.4.2.3).
var ErrRollback = errors.New("tpcc: item number is not valid (expected rollback)")

// DB describes the loaded database a terminal works on.
type DB struct {
	Warehouses int
	Items      int
	Customers  int // per district
	CLast      int // NURand constants of the load (bmsql_config)
	CID, IID   int
}

// ReadDB reads the database's shape from bmsql_config and the tables.
func ReadDB(ctx context.Context, c *pgx.Conn) (DB, error) {
	var db DB
	rows, err := c.Query(ctx, "SELECT cfg_name, cfg_value FROM bmsql_config")
	if err != nil {
		return db, err
	}
	cfg := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return db, err
		}
		cfg[k] = v
	}
	if err := rows.Err(); err != nil {
		return db, err
	}
	for _, f := range []struct {
		name string
		dst  *int
	}{{"warehouses", &db.Warehouses}, {"nURandCLast", &db.CLast}, {"nURandCC_ID", &db.CID}, {"nURandCI_ID", &db.IID}} {
		if _, err := fmt.Sscan(cfg[f.name], f.dst); err != nil {
			return db, fmt.Errorf("bmsql_config %s = %q: %v", f.name, cfg[f.name], err)
		}
	}
	if err := c.QueryRow(ctx, "SELECT max(i_id) FROM bmsql_item").Scan(&db.Items); err != nil {
		return db, fmt.Errorf("items: %w", err)
	}
	if err := c.QueryRow(ctx, "SELECT max(c_id) FROM bmsql_customer WHERE c_w_id = 1 AND c_d_id = 1").Scan(&db.Customers); err != nil {
		return db, fmt.Errorf("customers: %w", err)
	}
	return db, nil
}

// Terminal is one emulated terminal: a connection, a home warehouse and a
// random generator.
type Terminal struct {
	Conn *pgx.Conn
	DB   DB
	W    int // home warehouse
	Rand *Rand
	// RollbackPct is the share of New-Orders that roll back (1 in TPC-C).
	RollbackPct int
}

func (t *Terminal) customerID() int { return t.Rand.NURand(1023, 1, t.DB.Customers) }
func (t *Terminal) itemID() int     { return t.Rand.NURand(8191, 1, t.DB.Items) }
func (t *Terminal) otherWarehouse() int {
	if t.DB.Warehouses == 1 {
		return t.W
	}
	for {
		if w := t.Rand.Int(1, t.DB.Warehouses); w != t.W {
			return w
		}
	}
}

// orderLine is one line of a New-Order input.
type orderLine struct{ item, supplyW, qty int }

// NewOrderInput is the terminal input of one New-Order.
type NewOrderInput struct {
	D, C  int
	Lines []orderLine
}

// GenNewOrder draws the input of a New-Order (clause 2.4.1).
func (t *Terminal) GenNewOrder() NewOrderInput {
	in := NewOrderInput{D: t.Rand.Int(1, Districts), C: t.customerID()}
	n := t.Rand.Int(5, 15)
	rbk := t.Rand.Int(1, 100) <= t.RollbackPct
	for i := 0; i < n; i++ {
		l := orderLine{item: t.itemID(), supplyW: t.W, qty: t.Rand.Int(1, 10)}
		if t.Rand.Int(1, 100) == 1 {
			l.supplyW = t.otherWarehouse()
		}
		if rbk && i == n-1 {
			l.item = t.DB.Items + 1 // unused
		}
		in.Lines = append(in.Lines, l)
	}
	return in
}

// RunNewOrder executes one New-Order in its own transaction.
func (t *Terminal) RunNewOrder(ctx context.Context, in NewOrderInput) error {
	return inTx(ctx, t.Conn, func(tx pgx.Tx) error {
		w, d, c := int32(t.W), int32(in.D), int32(in.C)
		var discount, wTax, dTax float64
		var last, credit string
		if err := tx.QueryRow(ctx, "SELECT c_discount, c_last, c_credit FROM bmsql_customer "+
			"WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3", w, d, c).Scan(&discount, &last, &credit); err != nil {
			return fmt.Errorf("select customer: %w", err)
		}
		if err := tx.QueryRow(ctx, "SELECT w_tax FROM bmsql_warehouse WHERE w_id = $1", w).Scan(&wTax); err != nil {
			return fmt.Errorf("select warehouse: %w", err)
		}
		var oid int32
		if err := tx.QueryRow(ctx, "SELECT d_tax, d_next_o_id FROM bmsql_district "+
			"WHERE d_w_id = $1 AND d_id = $2 FOR UPDATE", w, d).Scan(&dTax, &oid); err != nil {
			return fmt.Errorf("select district: %w", err)
		}
		if _, err := tx.Exec(ctx, "UPDATE bmsql_district SET d_next_o_id = d_next_o_id + 1 "+
			"WHERE d_w_id = $1 AND d_id = $2", w, d); err != nil {
			return fmt.Errorf("update district: %w", err)
		}
		allLocal := int32(1)
		for _, l := range in.Lines {
			if l.supplyW != t.W {
				allLocal = 0
			}
		}
		if _, err := tx.Exec(ctx, "INSERT INTO bmsql_oorder (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) "+
			"VALUES ($1, $2, $3, $4, $5, $6, $7)", oid, d, w, c, time.Now(), int32(len(in.Lines)), allLocal); err != nil {
			return fmt.Errorf("insert oorder: %w", err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO bmsql_new_order (no_o_id, no_d_id, no_w_id) VALUES ($1, $2, $3)", oid, d, w); err != nil {
			return fmt.Errorf("insert new_order: %w", err)
		}
		// Lines in (supply warehouse, item) order, as BenchmarkSQL sorts
		// them, so that concurrent New-Orders lock stock rows in one order.
		type numbered struct {
			orderLine
			number int
		}
		lines := make([]numbered, len(in.Lines))
		for i, l := range in.Lines {
			lines[i] = numbered{l, i + 1}
		}
		sort.SliceStable(lines, func(i, j int) bool {
			if lines[i].supplyW != lines[j].supplyW {
				return lines[i].supplyW < lines[j].supplyW
			}
			return lines[i].item < lines[j].item
		})
		stockUpd := &pgx.Batch{}
		olIns := &pgx.Batch{}
		for _, l := range lines {
			var price float64
			var iName, iData string
			err := tx.QueryRow(ctx, "SELECT i_price, i_name, i_data FROM bmsql_item WHERE i_id = $1", int32(l.item)).Scan(&price, &iName, &iData)
			if errors.Is(err, pgx.ErrNoRows) {
				return ErrRollback
			}
			if err != nil {
				return fmt.Errorf("select item: %w", err)
			}
			var qty int32
			var sData string
			var dist [10]string
			if err := tx.QueryRow(ctx, "SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, "+
				"s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM bmsql_stock WHERE s_w_id = $1 AND s_i_id = $2 FOR UPDATE",
				int32(l.supplyW), int32(l.item)).Scan(&qty, &sData, &dist[0], &dist[1], &dist[2], &dist[3], &dist[4],
				&dist[5], &dist[6], &dist[7], &dist[8], &dist[9]); err != nil {
				return fmt.Errorf("select stock: %w", err)
			}
			newQty := qty - int32(l.qty)
			if qty < int32(l.qty)+10 {
				newQty += 91
			}
			remote := int32(0)
			if l.supplyW != t.W {
				remote = 1
			}
			stockUpd.Queue("UPDATE bmsql_stock SET s_quantity = $1, s_ytd = s_ytd + $2, s_order_cnt = s_order_cnt + 1, "+
				"s_remote_cnt = s_remote_cnt + $3 WHERE s_w_id = $4 AND s_i_id = $5",
				newQty, int32(l.qty), remote, int32(l.supplyW), int32(l.item))
			amount := float64(l.qty) * price
			olIns.Queue("INSERT INTO bmsql_order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, "+
				"ol_quantity, ol_amount, ol_dist_info) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
				oid, d, w, int32(l.number), int32(l.item), int32(l.supplyW), int32(l.qty), amount, dist[in.D-1])
		}
		if err := tx.SendBatch(ctx, stockUpd).Close(); err != nil {
			return fmt.Errorf("update stock: %w", err)
		}
		if err := tx.SendBatch(ctx, olIns).Close(); err != nil {
			return fmt.Errorf("insert order_line: %w", err)
		}
		return nil
	})
}

// customerByLast returns the c_id of the customer in the middle of the
// list of customers with that last name ordered by c_first (2.5.2.2).
func customerByLast(ctx context.Context, tx pgx.Tx, w, d int32, last string) (int32, error) {
	rows, err := tx.Query(ctx, "SELECT c_id FROM bmsql_customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3 ORDER BY c_first", w, d, last)
	if err != nil {
		return 0, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		return 0, fmt.Errorf("no customer with c_last %s in district %d/%d", last, w, d)
	}
	return ids[(len(ids)+1)/2-1], nil
}

// RunPayment executes one Payment (clause 2.5).
func (t *Terminal) RunPayment(ctx context.Context) error {
	r := t.Rand
	w := int32(t.W)
	d := int32(r.Int(1, Districts))
	cw, cd := w, d
	if r.Int(1, 100) > 85 {
		cw = int32(t.otherWarehouse())
		cd = int32(r.Int(1, Districts))
	}
	byName := r.Int(1, 100) <= 60
	cid := int32(t.customerID())
	last := LastName(r.CLastNumber(t.DB.Customers))
	amount := float64(r.Int(100, 500000)) / 100
	return inTx(ctx, t.Conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "UPDATE bmsql_warehouse SET w_ytd = w_ytd + $1 WHERE w_id = $2", amount, w); err != nil {
			return fmt.Errorf("update warehouse: %w", err)
		}
		var wName, dName string
		var s1, s2, city, state, zip string
		if err := tx.QueryRow(ctx, "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM bmsql_warehouse WHERE w_id = $1", w).
			Scan(&wName, &s1, &s2, &city, &state, &zip); err != nil {
			return fmt.Errorf("select warehouse: %w", err)
		}
		if _, err := tx.Exec(ctx, "UPDATE bmsql_district SET d_ytd = d_ytd + $1 WHERE d_w_id = $2 AND d_id = $3", amount, w, d); err != nil {
			return fmt.Errorf("update district: %w", err)
		}
		if err := tx.QueryRow(ctx, "SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM bmsql_district WHERE d_w_id = $1 AND d_id = $2", w, d).
			Scan(&dName, &s1, &s2, &city, &state, &zip); err != nil {
			return fmt.Errorf("select district: %w", err)
		}
		if byName {
			var err error
			if cid, err = customerByLast(ctx, tx, cw, cd, last); err != nil {
				return err
			}
		}
		var first, middle, clast, phone, credit string
		var since time.Time
		var creditLim, discount, balance float64
		if err := tx.QueryRow(ctx, "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, "+
			"c_since, c_credit, c_credit_lim, c_discount, c_balance FROM bmsql_customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3 FOR UPDATE",
			cw, cd, cid).Scan(&first, &middle, &clast, &s1, &s2, &city, &state, &zip, &phone, &since, &credit, &creditLim, &discount, &balance); err != nil {
			return fmt.Errorf("select customer: %w", err)
		}
		if strings.TrimSpace(credit) == "BC" {
			var data string
			if err := tx.QueryRow(ctx, "SELECT c_data FROM bmsql_customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3", cw, cd, cid).Scan(&data); err != nil {
				return fmt.Errorf("select customer data: %w", err)
			}
			data = fmt.Sprintf("C_ID=%d C_D_ID=%d C_W_ID=%d D_ID=%d W_ID=%d H_AMOUNT=%.2f   %s", cid, cd, cw, d, w, amount, data)
			if len(data) > 500 {
				data = data[:500]
			}
			if _, err := tx.Exec(ctx, "UPDATE bmsql_customer SET c_balance = c_balance - $1, c_ytd_payment = c_ytd_payment + $2, "+
				"c_payment_cnt = c_payment_cnt + 1, c_data = $3 WHERE c_w_id = $4 AND c_d_id = $5 AND c_id = $6",
				amount, amount, data, cw, cd, cid); err != nil {
				return fmt.Errorf("update customer: %w", err)
			}
		} else if _, err := tx.Exec(ctx, "UPDATE bmsql_customer SET c_balance = c_balance - $1, c_ytd_payment = c_ytd_payment + $2, "+
			"c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = $3 AND c_d_id = $4 AND c_id = $5", amount, amount, cw, cd, cid); err != nil {
			return fmt.Errorf("update customer: %w", err)
		}
		hData := wName + "    " + dName
		if _, err := tx.Exec(ctx, "INSERT INTO bmsql_history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) "+
			"VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", cid, cd, cw, d, w, time.Now(), amount, hData); err != nil {
			return fmt.Errorf("insert history: %w", err)
		}
		return nil
	})
}

// RunOrderStatus executes one Order-Status (clause 2.6); read only.
func (t *Terminal) RunOrderStatus(ctx context.Context) error {
	r := t.Rand
	w := int32(t.W)
	d := int32(r.Int(1, Districts))
	byName := r.Int(1, 100) <= 60
	cid := int32(t.customerID())
	last := LastName(r.CLastNumber(t.DB.Customers))
	return inTx(ctx, t.Conn, func(tx pgx.Tx) error {
		if byName {
			var err error
			if cid, err = customerByLast(ctx, tx, w, d, last); err != nil {
				return err
			}
		}
		var first, middle, clast string
		var balance float64
		if err := tx.QueryRow(ctx, "SELECT c_first, c_middle, c_last, c_balance FROM bmsql_customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3",
			w, d, cid).Scan(&first, &middle, &clast, &balance); err != nil {
			return fmt.Errorf("select customer: %w", err)
		}
		var maxO pgtype.Int4
		if err := tx.QueryRow(ctx, "SELECT max(o_id) FROM bmsql_oorder WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3", w, d, cid).Scan(&maxO); err != nil {
			return fmt.Errorf("select last order id: %w", err)
		}
		if !maxO.Valid {
			return nil // a customer without orders (only at tiny scales)
		}
		var oid int32
		var entry time.Time
		var carrier pgtype.Int4
		if err := tx.QueryRow(ctx, "SELECT o_id, o_entry_d, o_carrier_id FROM bmsql_oorder WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3",
			w, d, maxO.Int32).Scan(&oid, &entry, &carrier); err != nil {
			return fmt.Errorf("select last order: %w", err)
		}
		rows, err := tx.Query(ctx, "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM bmsql_order_line "+
			"WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3 ORDER BY ol_w_id, ol_d_id, ol_o_id, ol_number", w, d, oid)
		if err != nil {
			return fmt.Errorf("select order lines: %w", err)
		}
		for rows.Next() {
			var item, supply, qty int32
			var amount float64
			var deliv pgtype.Timestamp
			if err := rows.Scan(&item, &supply, &qty, &amount, &deliv); err != nil {
				rows.Close()
				return err
			}
		}
		return rows.Err()
	})
}

// DeliverOne delivers the oldest undelivered order of district (w, d)
// inside tx: BenchmarkSQL's DELIVERY_BG statements for one district. It
// returns false when the district has nothing to deliver.
func DeliverOne(ctx context.Context, tx pgx.Tx, w, d int32, carrier int32) (bool, error) {
	for {
		var oid int32
		err := tx.QueryRow(ctx, "SELECT no_o_id FROM bmsql_new_order WHERE no_w_id = $1 AND no_d_id = $2 ORDER BY no_o_id ASC LIMIT 1", w, d).Scan(&oid)
		if errors.Is(err, pgx.ErrNoRows) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("select oldest new_order: %w", err)
		}
		tag, err := tx.Exec(ctx, "DELETE FROM bmsql_new_order WHERE no_w_id = $1 AND no_d_id = $2 AND no_o_id = $3", w, d, oid)
		if err != nil {
			return false, fmt.Errorf("delete new_order: %w", err)
		}
		if tag.RowsAffected() == 0 {
			continue // delivered concurrently by someone else; take the next one
		}
		var cid int32
		if err := tx.QueryRow(ctx, "SELECT o_c_id FROM bmsql_oorder WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3", w, d, oid).Scan(&cid); err != nil {
			return false, fmt.Errorf("select order: %w", err)
		}
		if _, err := tx.Exec(ctx, "UPDATE bmsql_oorder SET o_carrier_id = $1 WHERE o_w_id = $2 AND o_d_id = $3 AND o_id = $4", carrier, w, d, oid); err != nil {
			return false, fmt.Errorf("update order: %w", err)
		}
		var sum pgtype.Numeric
		if err := tx.QueryRow(ctx, "SELECT sum(ol_amount) AS sum_ol_amount FROM bmsql_order_line WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3",
			w, d, oid).Scan(&sum); err != nil {
			return false, fmt.Errorf("select sum(ol_amount): %w", err)
		}
		if _, err := tx.Exec(ctx, "UPDATE bmsql_order_line SET ol_delivery_d = $1 WHERE ol_w_id = $2 AND ol_d_id = $3 AND ol_o_id = $4",
			time.Now(), w, d, oid); err != nil {
			return false, fmt.Errorf("update order_line: %w", err)
		}
		if _, err := tx.Exec(ctx, "UPDATE bmsql_customer SET c_balance = c_balance + $1, c_delivery_cnt = c_delivery_cnt + 1 "+
			"WHERE c_w_id = $2 AND c_d_id = $3 AND c_id = $4", sum, w, d, cid); err != nil {
			return false, fmt.Errorf("update customer: %w", err)
		}
		return true, nil
	}
}

// RunDelivery executes one Delivery (clause 2.7): the oldest undelivered
// order of each of the 10 districts, in one transaction.
func (t *Terminal) RunDelivery(ctx context.Context) error {
	carrier := int32(t.Rand.Int(1, 10))
	return inTx(ctx, t.Conn, func(tx pgx.Tx) error {
		for d := int32(1); d <= Districts; d++ {
			if _, err := DeliverOne(ctx, tx, int32(t.W), d, carrier); err != nil {
				return err
			}
		}
		return nil
	})
}

// RunStockLevel executes one Stock-Level (clause 2.8); read only.
func (t *Terminal) RunStockLevel(ctx context.Context) error {
	w := int32(t.W)
	d := int32(t.Rand.Int(1, Districts))
	threshold := int32(t.Rand.Int(10, 20))
	return inTx(ctx, t.Conn, func(tx pgx.Tx) error {
		var next int32
		if err := tx.QueryRow(ctx, "SELECT d_next_o_id FROM bmsql_district WHERE d_w_id = $1 AND d_id = $2", w, d).Scan(&next); err != nil {
			return fmt.Errorf("select district: %w", err)
		}
		rows, err := tx.Query(ctx, "SELECT DISTINCT ol_i_id FROM bmsql_order_line WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id >= $3 AND ol_o_id < $4",
			w, d, next-20, next)
		if err != nil {
			return fmt.Errorf("select recent items: %w", err)
		}
		items, err := pgx.CollectRows(rows, pgx.RowTo[int32])
		if err != nil {
			return fmt.Errorf("select recent items: %w", err)
		}
		if len(items) == 0 {
			return nil
		}
		// A statement text per list length: run it unprepared rather than
		// filling the statement cache.
		args := []any{pgx.QueryExecModeExec, w, threshold}
		ph := make([]string, len(items))
		for i, it := range items {
			args = append(args, it)
			ph[i] = fmt.Sprintf("$%d", i+3)
		}
		var low int64
		if err := tx.QueryRow(ctx, "SELECT count(*) AS low_stock FROM bmsql_stock WHERE s_w_id = $1 AND s_quantity < $2 AND s_i_id IN ("+
			strings.Join(ph, ", ")+")", args...).Scan(&low); err != nil {
			return fmt.Errorf("count low stock: %w", err)
		}
		return nil
	})
}

// inTx runs fn in a transaction and commits it; any error rolls it back.
func inTx(ctx context.Context, c *pgx.Conn, fn func(pgx.Tx) error) error {
	tx, err := c.Begin(ctx)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		if rbErr := tx.Rollback(ctx); rbErr != nil && !errors.Is(err, ErrRollback) {
			return fmt.Errorf("%w (rollback: %v)", err, rbErr)
		}
		return err
	}
	return tx.Commit(ctx)
}

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
// jTPCCConnection (statements.go) as written, in jTPCCTData's order.

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

// RunNewOrder executes one New-Order in its own transaction, as
// jTPCCTData.executeNewOrder does: the lines in (supply warehouse, item)
// order so that concurrent New-Orders lock stock rows in one order, numbered
// in that order; stock updates and order-line inserts batched and sent
// after the last line. An unused item number (the 1% of clause 2.4.2.3)
// sends the batches built so far and rolls the transaction back.
func (t *Terminal) RunNewOrder(ctx context.Context, in NewOrderInput) error {
	return inTx(ctx, t.Conn, func(tx pgx.Tx) error {
		w, d, c := int32(t.W), int32(in.D), int32(in.C)
		var discount, wTax, dTax float64
		var last, credit string
		var oid int32
		if err := tx.QueryRow(ctx, StmtNewOrderSelectDist, w, d).Scan(&dTax, &oid); err != nil {
			return fmt.Errorf("select district: %w", err)
		}
		if err := tx.QueryRow(ctx, StmtNewOrderSelectWhseCust, w, d, c).Scan(&discount, &last, &credit, &wTax); err != nil {
			return fmt.Errorf("select warehouse and customer: %w", err)
		}
		if _, err := tx.Exec(ctx, StmtNewOrderUpdateDist, w, d); err != nil {
			return fmt.Errorf("update district: %w", err)
		}
		allLocal := int32(1)
		for _, l := range in.Lines {
			if l.supplyW != t.W {
				allLocal = 0
			}
		}
		if _, err := tx.Exec(ctx, StmtNewOrderInsertOrder, oid, d, w, c, time.Now(), int32(len(in.Lines)), allLocal); err != nil {
			return fmt.Errorf("insert oorder: %w", err)
		}
		if _, err := tx.Exec(ctx, StmtNewOrderInsertNewOrder, oid, d, w); err != nil {
			return fmt.Errorf("insert new_order: %w", err)
		}
		lines := append([]orderLine(nil), in.Lines...)
		sort.SliceStable(lines, func(i, j int) bool {
			if lines[i].supplyW != lines[j].supplyW {
				return lines[i].supplyW < lines[j].supplyW
			}
			return lines[i].item < lines[j].item
		})
		stockUpd := &pgx.Batch{}
		olIns := &pgx.Batch{}
		send := func() error {
			if stockUpd.Len() == 0 {
				return nil
			}
			if err := tx.SendBatch(ctx, stockUpd).Close(); err != nil {
				return fmt.Errorf("update stock: %w", err)
			}
			if err := tx.SendBatch(ctx, olIns).Close(); err != nil {
				return fmt.Errorf("insert order_line: %w", err)
			}
			return nil
		}
		for i, l := range lines {
			var price float64
			var iName, iData string
			err := tx.QueryRow(ctx, StmtNewOrderSelectItem, int32(l.item)).Scan(&price, &iName, &iData)
			if errors.Is(err, pgx.ErrNoRows) && l.item > t.DB.Items {
				if err := send(); err != nil {
					return err
				}
				return ErrRollback
			}
			if err != nil {
				return fmt.Errorf("select item: %w", err)
			}
			var qty int32
			var sData string
			var dist [10]string
			if err := tx.QueryRow(ctx, StmtNewOrderSelectStock, int32(l.supplyW), int32(l.item)).Scan(&qty, &sData,
				&dist[0], &dist[1], &dist[2], &dist[3], &dist[4], &dist[5], &dist[6], &dist[7], &dist[8], &dist[9]); err != nil {
				return fmt.Errorf("select stock: %w", err)
			}
			newQty := qty - int32(l.qty)
			if qty < int32(l.qty)+10 {
				newQty = qty + 91
			}
			remote := int32(0)
			if l.supplyW != t.W {
				remote = 1
			}
			stockUpd.Queue(StmtNewOrderUpdateStock, newQty, int32(l.qty), remote, int32(l.supplyW), int32(l.item))
			amount := float64(l.qty) * price
			olIns.Queue(StmtNewOrderInsertOrderLine, oid, d, w, int32(i+1), int32(l.item), int32(l.supplyW), int32(l.qty), amount, dist[in.D-1])
		}
		return send()
	})
}

// customerByLast returns the c_id of the customer in the middle of the
// list of customers with that last name ordered by c_first (2.5.2.2);
// stmt is the Payment or the Order-Status form of the query.
func customerByLast(ctx context.Context, tx pgx.Tx, stmt string, w, d int32, last string) (int32, error) {
	rows, err := tx.Query(ctx, stmt, w, d, last)
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
		var wName, dName string
		var s1, s2, city, state, zip string
		if _, err := tx.Exec(ctx, StmtPaymentUpdateDistrict, amount, w, d); err != nil {
			return fmt.Errorf("update district: %w", err)
		}
		if err := tx.QueryRow(ctx, StmtPaymentSelectDistrict, w, d).Scan(&dName, &s1, &s2, &city, &state, &zip); err != nil {
			return fmt.Errorf("select district: %w", err)
		}
		if _, err := tx.Exec(ctx, StmtPaymentUpdateWarehouse, amount, w); err != nil {
			return fmt.Errorf("update warehouse: %w", err)
		}
		if err := tx.QueryRow(ctx, StmtPaymentSelectWarehouse, w).Scan(&wName, &s1, &s2, &city, &state, &zip); err != nil {
			return fmt.Errorf("select warehouse: %w", err)
		}
		if byName {
			var err error
			if cid, err = customerByLast(ctx, tx, StmtPaymentSelectCustomerListByLast, cw, cd, last); err != nil {
				return err
			}
		}
		var first, middle, clast, phone, credit string
		var since time.Time
		var creditLim, discount, balance float64
		if err := tx.QueryRow(ctx, StmtPaymentSelectCustomer, cw, cd, cid).Scan(&first, &middle, &clast, &s1, &s2, &city, &state, &zip, &phone, &since, &credit, &creditLim, &discount, &balance); err != nil {
			return fmt.Errorf("select customer: %w", err)
		}
		if strings.TrimSpace(credit) != "GC" {
			var data string
			if err := tx.QueryRow(ctx, StmtPaymentSelectCustomerData, cw, cd, cid).Scan(&data); err != nil {
				return fmt.Errorf("select customer data: %w", err)
			}
			data = fmt.Sprintf("C_ID=%d C_D_ID=%d C_W_ID=%d D_ID=%d W_ID=%d H_AMOUNT=%.2f   %s", cid, cd, cw, d, w, amount, data)
			if len(data) > 500 {
				data = data[:500]
			}
			if _, err := tx.Exec(ctx, StmtPaymentUpdateCustomerWithData, amount, amount, data, cw, cd, cid); err != nil {
				return fmt.Errorf("update customer: %w", err)
			}
		} else if _, err := tx.Exec(ctx, StmtPaymentUpdateCustomer, amount, amount, cw, cd, cid); err != nil {
			return fmt.Errorf("update customer: %w", err)
		}
		hData := wName + "    " + dName
		if _, err := tx.Exec(ctx, StmtPaymentInsertHistory, cid, cd, cw, d, w, time.Now(), amount, hData); err != nil {
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
			if cid, err = customerByLast(ctx, tx, StmtOrderStatusSelectCustomerListByLast, w, d, last); err != nil {
				return err
			}
		}
		var first, middle, clast string
		var balance float64
		if err := tx.QueryRow(ctx, StmtOrderStatusSelectCustomer, w, d, cid).Scan(&first, &middle, &clast, &balance); err != nil {
			return fmt.Errorf("select customer: %w", err)
		}
		var oid int32
		var entry time.Time
		var carrier pgtype.Int4
		err := tx.QueryRow(ctx, StmtOrderStatusSelectLastOrder, w, d, cid, w, d, cid).Scan(&oid, &entry, &carrier)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil // a customer without orders (only at tiny scales)
		}
		if err != nil {
			return fmt.Errorf("select last order: %w", err)
		}
		rows, err := tx.Query(ctx, StmtOrderStatusSelectOrderLine, w, d, oid)
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
		err := tx.QueryRow(ctx, StmtDeliveryBGSelectOldestNewOrder, w, d).Scan(&oid)
		if errors.Is(err, pgx.ErrNoRows) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("select oldest new_order: %w", err)
		}
		tag, err := tx.Exec(ctx, StmtDeliveryBGDeleteOldestNewOrder, w, d, oid)
		if err != nil {
			return false, fmt.Errorf("delete new_order: %w", err)
		}
		if tag.RowsAffected() == 0 {
			continue // delivered concurrently by someone else; take the next one
		}
		if _, err := tx.Exec(ctx, StmtDeliveryBGUpdateOrder, carrier, w, d, oid); err != nil {
			return false, fmt.Errorf("update order: %w", err)
		}
		var cid int32
		if err := tx.QueryRow(ctx, StmtDeliveryBGSelectOrder, w, d, oid).Scan(&cid); err != nil {
			return false, fmt.Errorf("select order: %w", err)
		}
		if _, err := tx.Exec(ctx, StmtDeliveryBGUpdateOrderLine, time.Now(), w, d, oid); err != nil {
			return false, fmt.Errorf("update order_line: %w", err)
		}
		var sum pgtype.Numeric
		if err := tx.QueryRow(ctx, StmtDeliveryBGSelectSumOLAmount, w, d, oid).Scan(&sum); err != nil {
			return false, fmt.Errorf("select sum(ol_amount): %w", err)
		}
		if _, err := tx.Exec(ctx, StmtDeliveryBGUpdateCustomer, sum, w, d, cid); err != nil {
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
		var low int64
		if err := tx.QueryRow(ctx, StmtStockLevelSelectLow, w, threshold, w, d).Scan(&low); err != nil {
			return fmt.Errorf("select low stock: %w", err)
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

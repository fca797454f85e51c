package executor

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"minipg/sql"
)

// TestBenchmarkSQLPlansUseIndexes runs BenchmarkSQL's StockLevel query and
// the NOT EXISTS shape of its consistency checks with parameters, as its
// driver sends them, and checks both the answers and that the big tables
// are reached through their primary keys, never scanned.
func TestBenchmarkSQLPlansUseIndexes(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	for _, q := range []string{
		"CREATE TABLE bmsql_district (d_w_id int NOT NULL, d_id int NOT NULL, d_next_o_id int, PRIMARY KEY (d_w_id, d_id))",
		"CREATE TABLE bmsql_order_line (ol_w_id int NOT NULL, ol_d_id int NOT NULL, ol_o_id int NOT NULL, ol_number int NOT NULL, ol_i_id int NOT NULL, PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))",
		"CREATE TABLE bmsql_stock (s_w_id int NOT NULL, s_i_id int NOT NULL, s_quantity int, PRIMARY KEY (s_w_id, s_i_id))",
		"CREATE TABLE bmsql_oorder (o_w_id int NOT NULL, o_d_id int NOT NULL, o_id int NOT NULL, o_carrier_id int, PRIMARY KEY (o_w_id, o_d_id, o_id))",
		"CREATE TABLE bmsql_new_order (no_w_id int NOT NULL, no_d_id int NOT NULL, no_o_id int NOT NULL, PRIMARY KEY (no_w_id, no_d_id, no_o_id))",
		"INSERT INTO bmsql_district SELECT w, d, 101 FROM generate_series(1, 2) w, generate_series(1, 10) d",
		"INSERT INTO bmsql_order_line SELECT w, d, o, n, (o * 7 + n * 13) % 1000 + 1 FROM generate_series(1, 2) w, generate_series(1, 10) d, generate_series(1, 100) o, generate_series(1, 5) n",
		"INSERT INTO bmsql_stock SELECT w, i, i % 50 FROM generate_series(1, 2) w, generate_series(1, 1000) i",
		"INSERT INTO bmsql_oorder SELECT 1, 1, o, CASE WHEN o <= 90 THEN 1 END FROM generate_series(1, 100) o",
		"INSERT INTO bmsql_new_order SELECT 1, 1, o FROM generate_series(91, 99) o",
	} {
		mustExec(t, s, q)
	}
	var mu sync.Mutex
	scanned := map[string]int{}
	onSeqScan = func(table string) {
		mu.Lock()
		scanned[table]++
		mu.Unlock()
	}
	defer func() { onSeqScan = nil }()

	stockLevel := "SELECT count(*) AS low_stock FROM (" +
		"    SELECT s_w_id, s_i_id, s_quantity " +
		"        FROM bmsql_stock " +
		"        WHERE s_w_id = $1 AND s_quantity < $2 AND s_i_id IN (" +
		"            SELECT ol_i_id " +
		"                FROM bmsql_district " +
		"                JOIN bmsql_order_line ON ol_w_id = d_w_id " +
		"                 AND ol_d_id = d_id " +
		"                 AND ol_o_id >= d_next_o_id - 20 " +
		"                 AND ol_o_id < d_next_o_id " +
		"                WHERE d_w_id = $3 AND d_id = $4 " +
		"        ) " +
		"    ) AS L"
	// The expected count, computed here: distinct items of orders 81..100
	// of district (1, 3) whose stock quantity (i % 50) is below 20.
	items := map[int64]bool{}
	for o := int64(81); o <= 100; o++ {
		for n := int64(1); n <= 5; n++ {
			i := (o*7+n*13)%1000 + 1
			if i%50 < 20 {
				items[i] = true
			}
		}
	}
	// The stock rows are fetched by primary key, one per item the
	// subquery returns, not by a range over the whole warehouse.
	p, err := s.Prepare(stockLevel, nil)
	if err != nil {
		t.Fatal(err)
	}
	derived := p.bound.Stmt.(*sql.Select).From[0].Sub
	stock, err := e.rel(derived.Table.OID)
	if err != nil {
		t.Fatal(err)
	}
	if ip := chooseIndex(stock, derived.Where); ip == nil || ip.inSub == nil || len(ip.eq) != 2 {
		t.Errorf("stock access path %+v, want a primary key lookup per IN (SELECT ...) value", ip)
	}
	rows, _ := mustExec(t, s, stockLevel, int64(1), int64(20), int64(1), int64(3))
	if got := rows[0][0]; got != int64(len(items)) {
		t.Errorf("low_stock = %v, want %d", got, len(items))
	}

	rows, _ = mustExec(t, s, "SELECT count(*) FROM bmsql_oorder WHERE o_carrier_id IS NULL AND NOT EXISTS ("+
		"SELECT 1 FROM bmsql_new_order WHERE no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id)")
	if got := rows[0][0]; got != int64(1) { // order 100
		t.Errorf("undelivered orders without a new_order row = %v, want 1", got)
	}
	var bad []string
	for _, tbl := range []string{"bmsql_stock", "bmsql_order_line", "bmsql_new_order", "bmsql_district"} {
		if scanned[tbl] > 0 {
			bad = append(bad, fmt.Sprintf("%s scanned %d times", tbl, scanned[tbl]))
		}
	}
	if len(bad) > 0 {
		t.Errorf("sequential scans: %s", strings.Join(bad, ", "))
	}
}

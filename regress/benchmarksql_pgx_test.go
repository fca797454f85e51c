package regress

import (
	"context"
	"database/sql/driver"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"minipg/tpcc"
)

// jtpccStatements are the SELECTs of BenchmarkSQL 5's
// src/client/jTPCCConnection.java as it sends them (each ? as $n), with
// parameters for the load of sql/benchmarksql.sql.
var jtpccStatements = []struct {
	sql  string
	args []any
}{
	{tpcc.StmtNewOrderSelectWhseCust, []any{1, 2, 3}},
	{tpcc.StmtNewOrderSelectDist, []any{1, 2}},
	{tpcc.StmtNewOrderSelectStock, []any{1, 7}},
	{tpcc.StmtNewOrderSelectItem, []any{7}},
	{tpcc.StmtPaymentSelectWarehouse, []any{2}},
	{tpcc.StmtPaymentSelectDistrict, []any{2, 3}},
	{tpcc.StmtPaymentSelectCustomerListByLast, []any{1, 1, "OUGHT"}},
	{tpcc.StmtPaymentSelectCustomer, []any{1, 1, 4}},
	{tpcc.StmtPaymentSelectCustomerData, []any{1, 1, 4}},
	{tpcc.StmtOrderStatusSelectCustomer, []any{2, 1, 2}},
	{tpcc.StmtOrderStatusSelectLastOrder, []any{2, 1, 2, 2, 1, 2}},
	{tpcc.StmtOrderStatusSelectOrderLine, []any{2, 1, 5}},
	{tpcc.StmtStockLevelSelectLow, []any{1, 20, 1, 2}},
	{tpcc.StmtStockLevelSelectLow, []any{2, 15, 2, 3}},
	{tpcc.StmtDeliveryBGSelectOldestNewOrder, []any{1, 3}},
	{tpcc.StmtDeliveryBGSelectOrder, []any{1, 3, 5}},
	{tpcc.StmtDeliveryBGSelectSumOLAmount, []any{1, 3, 5}},
}

// TestBenchmarkSQLExtended loads the schema of sql/benchmarksql.sql and
// runs BenchmarkSQL's statements through pgx in its default mode (prepared
// statements, extended protocol, binary results where pgx asks for them)
// and with the simple protocol: the answers must agree (the simple ones are
// those the regress script compares with PostgreSQL 15), and every
// consistency check of checks.sql must say OK.
func TestBenchmarkSQLExtended(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server")
	}
	script, err := os.ReadFile("sql/benchmarksql.sql")
	if err != nil {
		t.Fatal(err)
	}
	text := string(script)
	loadEnd := strings.Index(text, "-- run/checks/checks.sql, unchanged")
	checksEnd := strings.Index(text, "-- jTPCCConnection.java: NewOrder")
	if loadEnd < 0 || checksEnd < 0 {
		t.Fatal("sql/benchmarksql.sql: markers not found")
	}
	port := startServer(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, stmt := range statements(text[:loadEnd]) {
		if _, err := conn.Exec(ctx, stmt, pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	query := func(sql string, mode pgx.QueryExecMode, args ...any) []string {
		rows, err := conn.Query(ctx, sql, append([]any{mode}, args...)...)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				t.Fatal(err)
			}
			var cells []string
			for _, v := range vals {
				if dv, ok := v.(driver.Valuer); ok {
					v, _ = dv.Value()
				}
				cells = append(cells, fmt.Sprint(v))
			}
			out = append(out, strings.Join(cells, "|"))
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return out
	}
	checks := statements(text[loadEnd:checksEnd])
	if len(checks) != 8 {
		t.Fatalf("%d checks in the script, want 8", len(checks))
	}
	for _, c := range checks {
		for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
			got := query(c, mode)
			if len(got) != 1 || !strings.HasPrefix(got[0], "OK   |") {
				t.Errorf("check %.60q (mode %v): %q, want OK", c, mode, got)
			}
		}
	}
	for _, st := range jtpccStatements {
		prepared := query(st.sql, pgx.QueryExecModeCacheStatement, st.args...)
		simple := query(st.sql, pgx.QueryExecModeSimpleProtocol, st.args...)
		if strings.Join(prepared, "\n") != strings.Join(simple, "\n") {
			t.Errorf("%.60q: prepared %q, simple %q", st.sql, prepared, simple)
		}
		if len(prepared) == 0 {
			t.Errorf("%.60q: no rows", st.sql)
		}
	}
}

// statements splits a script into its statements, dropping comment lines.
func statements(s string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "--") {
			continue
		}
		cur.WriteString(line + "\n")
		if strings.HasSuffix(strings.TrimSpace(line), ";") {
			out = append(out, strings.TrimSuffix(strings.TrimSpace(cur.String()), ";"))
			cur.Reset()
		}
	}
	return out
}

package regress

import (
	"context"
	"database/sql/driver"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// jtpccStatements are the SELECTs of BenchmarkSQL 5's
// src/client/jTPCCConnection.java as it sends them (each ? as $n), with
// parameters for the load of sql/benchmarksql.sql.
var jtpccStatements = []struct {
	sql  string
	args []any
}{
	{"SELECT c_discount, c_last, c_credit, w_tax     FROM bmsql_customer     JOIN bmsql_warehouse ON (w_id = c_w_id)     WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3", []any{1, 2, 3}},
	{"SELECT d_tax, d_next_o_id     FROM bmsql_district     WHERE d_w_id = $1 AND d_id = $2     FOR UPDATE", []any{1, 2}},
	{"SELECT s_quantity, s_data,        s_dist_01, s_dist_02, s_dist_03, s_dist_04,        s_dist_05, s_dist_06, s_dist_07, s_dist_08,        s_dist_09, s_dist_10     FROM bmsql_stock     WHERE s_w_id = $1 AND s_i_id = $2     FOR UPDATE", []any{1, 7}},
	{"SELECT i_price, i_name, i_data     FROM bmsql_item     WHERE i_id = $1", []any{7}},
	{"SELECT w_name, w_street_1, w_street_2, w_city,        w_state, w_zip     FROM bmsql_warehouse     WHERE w_id = $1 ", []any{2}},
	{"SELECT d_name, d_street_1, d_street_2, d_city,        d_state, d_zip     FROM bmsql_district     WHERE d_w_id = $1 AND d_id = $2", []any{2, 3}},
	{"SELECT c_id     FROM bmsql_customer     WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3     ORDER BY c_first", []any{1, 1, "OUGHT"}},
	{"SELECT c_first, c_middle, c_last, c_street_1, c_street_2,        c_city, c_state, c_zip, c_phone, c_since, c_credit,        c_credit_lim, c_discount, c_balance     FROM bmsql_customer     WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3     FOR UPDATE", []any{1, 1, 4}},
	{"SELECT c_data     FROM bmsql_customer     WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3", []any{1, 1, 4}},
	{"SELECT c_first, c_middle, c_last, c_balance     FROM bmsql_customer     WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3", []any{2, 1, 2}},
	{"SELECT o_id, o_entry_d, o_carrier_id     FROM bmsql_oorder     WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3       AND o_id = (          SELECT max(o_id)               FROM bmsql_oorder               WHERE o_w_id = $4 AND o_d_id = $5 AND o_c_id = $6          )", []any{2, 1, 2, 2, 1, 2}},
	{"SELECT ol_i_id, ol_supply_w_id, ol_quantity,        ol_amount, ol_delivery_d     FROM bmsql_order_line     WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3     ORDER BY ol_w_id, ol_d_id, ol_o_id, ol_number", []any{2, 1, 5}},
	{"SELECT count(*) AS low_stock FROM (    SELECT s_w_id, s_i_id, s_quantity         FROM bmsql_stock         WHERE s_w_id = $1 AND s_quantity < $2 AND s_i_id IN (            SELECT ol_i_id                 FROM bmsql_district                 JOIN bmsql_order_line ON ol_w_id = d_w_id                  AND ol_d_id = d_id                  AND ol_o_id >= d_next_o_id - 20                  AND ol_o_id < d_next_o_id                 WHERE d_w_id = $3 AND d_id = $4         )     ) AS L", []any{1, 20, 1, 2}},
	{"SELECT count(*) AS low_stock FROM (    SELECT s_w_id, s_i_id, s_quantity         FROM bmsql_stock         WHERE s_w_id = $1 AND s_quantity < $2 AND s_i_id IN (            SELECT ol_i_id                 FROM bmsql_district                 JOIN bmsql_order_line ON ol_w_id = d_w_id                  AND ol_d_id = d_id                  AND ol_o_id >= d_next_o_id - 20                  AND ol_o_id < d_next_o_id                 WHERE d_w_id = $3 AND d_id = $4         )     ) AS L", []any{2, 15, 2, 3}},
	{"SELECT no_o_id     FROM bmsql_new_order     WHERE no_w_id = $1 AND no_d_id = $2     ORDER BY no_o_id ASC", []any{1, 3}},
	{"SELECT o_c_id     FROM bmsql_oorder     WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3", []any{1, 3, 5}},
	{"SELECT sum(ol_amount) AS sum_ol_amount     FROM bmsql_order_line     WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3", []any{1, 3, 5}},
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

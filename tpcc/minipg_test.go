package tpcc

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"minipg/internal/testserver"
)

// minipgConnector serves a fresh in-process minipg and connects to it.
func minipgConnector(t *testing.T) Connector {
	t.Helper()
	conn, err := DSNConnector(testserver.Start(t), "")
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

// TestLoadOnMinipg: BenchmarkSQL's indexCreates.sql runs unchanged on
// minipg, and its primary keys are constraints: enforced, named as
// PostgreSQL names them, dropped only with ALTER TABLE ... DROP CONSTRAINT.
func TestLoadOnMinipg(t *testing.T) {
	connect := minipgConnector(t)
	ctx := context.Background()
	if _, err := Load(ctx, connect, LoadOptions{Warehouses: 1, Workers: 1, Scale: 0.01, Mode: ModeCopy, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	c, err := connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	bad, err := Check(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Errorf("Check: %s", b)
	}
	wantErr := func(q, code, constraint string) {
		t.Helper()
		_, err := c.Exec(ctx, q, pgx.QueryExecModeSimpleProtocol)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != code {
			t.Errorf("%s: %v, want %s", q, err, code)
		} else if constraint != "" && pe.Message != fmt.Sprintf("duplicate key value violates unique constraint \"%s\"", constraint) {
			t.Errorf("%s: %q", q, pe.Message)
		}
	}
	wantErr("INSERT INTO bmsql_warehouse (w_id) VALUES (1)", "23505", "bmsql_warehouse_pkey")
	wantErr("INSERT INTO bmsql_district (d_w_id, d_id) VALUES (1, 1)", "23505", "bmsql_district_pkey")
	wantErr("UPDATE bmsql_item SET i_id = 2 WHERE i_id = 1", "23505", "bmsql_item_pkey")
	wantErr("ALTER TABLE bmsql_item ADD PRIMARY KEY (i_id)", "42P16", "")
	wantErr("DROP INDEX bmsql_stock_pkey", "2BP01", "")
	if _, err := c.Exec(ctx, "ALTER TABLE bmsql_item DROP CONSTRAINT bmsql_item_pkey"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, "INSERT INTO bmsql_item (i_id) VALUES (1)"); err != nil {
		t.Fatalf("insert after DROP CONSTRAINT: %v", err)
	}
}

package tpcc

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Table is one bmsql_* table: its name, column list (DDL) and the fill
// factor BenchmarkSQL's tuned PostgreSQL setup gives it.
type Table struct {
	Name       string
	Columns    string
	FillFactor int // 100 = PostgreSQL's default, not written in the DDL
}

// Tables are BenchmarkSQL 5's run/sql.common/tableCreates.sql, with the fill
// factors of run/sql.postgres/extraCommandsBeforeLoad.sql (commit 3ef4fe71
// of petergeoghegan/benchmarksql) written as WITH (fillfactor=N).
var Tables = []Table{
	{"bmsql_config", `cfg_name varchar(30) primary key,
  cfg_value varchar(50)`, 100},
	{"bmsql_warehouse", `w_id integer not null,
  w_ytd decimal(12,2),
  w_tax decimal(4,4),
  w_name varchar(10),
  w_street_1 varchar(20),
  w_street_2 varchar(20),
  w_city varchar(20),
  w_state char(2),
  w_zip char(9)`, 50},
	{"bmsql_district", `d_w_id integer not null,
  d_id integer not null,
  d_ytd decimal(12,2),
  d_tax decimal(4,4),
  d_next_o_id integer,
  d_name varchar(10),
  d_street_1 varchar(20),
  d_street_2 varchar(20),
  d_city varchar(20),
  d_state char(2),
  d_zip char(9)`, 79},
	{"bmsql_customer", `c_w_id integer not null,
  c_d_id integer not null,
  c_id integer not null,
  c_discount decimal(4,4),
  c_credit char(2),
  c_last varchar(16),
  c_first varchar(16),
  c_credit_lim decimal(12,2),
  c_balance decimal(12,2),
  c_ytd_payment decimal(12,2),
  c_payment_cnt integer,
  c_delivery_cnt integer,
  c_street_1 varchar(20),
  c_street_2 varchar(20),
  c_city varchar(20),
  c_state char(2),
  c_zip char(9),
  c_phone char(16),
  c_since timestamp,
  c_middle char(2),
  c_data varchar(500)`, 90},
	{"bmsql_history", `hist_id integer,
  h_c_id integer,
  h_c_d_id integer,
  h_c_w_id integer,
  h_d_id integer,
  h_w_id integer,
  h_date timestamp,
  h_amount decimal(6,2),
  h_data varchar(24)`, 100},
	{"bmsql_new_order", `no_w_id integer not null,
  no_d_id integer not null,
  no_o_id integer not null`, 100},
	{"bmsql_oorder", `o_w_id integer not null,
  o_d_id integer not null,
  o_id integer not null,
  o_c_id integer,
  o_carrier_id integer,
  o_ol_cnt integer,
  o_all_local integer,
  o_entry_d timestamp`, 80},
	{"bmsql_order_line", `ol_w_id integer not null,
  ol_d_id integer not null,
  ol_o_id integer not null,
  ol_number integer not null,
  ol_i_id integer not null,
  ol_delivery_d timestamp,
  ol_amount decimal(6,2),
  ol_supply_w_id integer,
  ol_quantity integer,
  ol_dist_info char(24)`, 80},
	{"bmsql_item", `i_id integer not null,
  i_name varchar(24),
  i_price decimal(5,2),
  i_data varchar(50),
  i_im_id integer`, 100},
	{"bmsql_stock", `s_w_id integer not null,
  s_i_id integer not null,
  s_quantity integer,
  s_ytd decimal(8,2),
  s_order_cnt integer,
  s_remote_cnt integer,
  s_data varchar(50),
  s_dist_01 char(24),
  s_dist_02 char(24),
  s_dist_03 char(24),
  s_dist_04 char(24),
  s_dist_05 char(24),
  s_dist_06 char(24),
  s_dist_07 char(24),
  s_dist_08 char(24),
  s_dist_09 char(24),
  s_dist_10 char(24)`, 95},
}

// CreateTableSQL returns the CREATE TABLE statement of t.
func (t Table) CreateTableSQL() string {
	s := "CREATE TABLE " + t.Name + " (\n  " + t.Columns + "\n)"
	if t.FillFactor != 100 {
		s += fmt.Sprintf(" WITH (fillfactor=%d)", t.FillFactor)
	}
	return s
}

// Index is one of run/sql.common/indexCreates.sql's primary keys or
// secondary indexes, built after the load.
type Index struct {
	Table, Name, Columns string
	Primary, Unique      bool
}

// Indexes are created after the load, in BenchmarkSQL's order.
var Indexes = []Index{
	{"bmsql_warehouse", "bmsql_warehouse_pkey", "w_id", true, true},
	{"bmsql_district", "bmsql_district_pkey", "d_w_id, d_id", true, true},
	{"bmsql_customer", "bmsql_customer_pkey", "c_w_id, c_d_id, c_id", true, true},
	{"bmsql_customer", "bmsql_customer_idx1", "c_w_id, c_d_id, c_last, c_first", false, false},
	{"bmsql_oorder", "bmsql_oorder_pkey", "o_w_id, o_d_id, o_id", true, true},
	{"bmsql_oorder", "bmsql_oorder_idx1", "o_w_id, o_d_id, o_carrier_id, o_id", false, true},
	{"bmsql_new_order", "bmsql_new_order_pkey", "no_w_id, no_d_id, no_o_id", true, true},
	{"bmsql_order_line", "bmsql_order_line_pkey", "ol_w_id, ol_d_id, ol_o_id, ol_number", true, true},
	{"bmsql_stock", "bmsql_stock_pkey", "s_w_id, s_i_id", true, true},
	{"bmsql_item", "bmsql_item_pkey", "i_id", true, true},
}

// SQL returns the statement BenchmarkSQL runs for ix: ALTER TABLE ... ADD
// CONSTRAINT ... PRIMARY KEY, or CREATE [UNIQUE] INDEX.
func (ix Index) SQL() string {
	if ix.Primary {
		return fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s PRIMARY KEY (%s)", ix.Table, ix.Name, ix.Columns)
	}
	u := ""
	if ix.Unique {
		u = "UNIQUE "
	}
	return fmt.Sprintf("CREATE %sINDEX %s ON %s (%s)", u, ix.Name, ix.Table, ix.Columns)
}

// DropTables drops every bmsql_* table that exists.
func DropTables(ctx context.Context, c *pgx.Conn) error {
	for i := len(Tables) - 1; i >= 0; i-- {
		if _, err := c.Exec(ctx, "DROP TABLE IF EXISTS "+Tables[i].Name); err != nil {
			return fmt.Errorf("drop %s: %w", Tables[i].Name, err)
		}
	}
	return nil
}

// CreateTables creates every bmsql_* table (without indexes other than
// bmsql_config's primary key, as BenchmarkSQL does).
func CreateTables(ctx context.Context, c *pgx.Conn) error {
	for _, t := range Tables {
		if _, err := c.Exec(ctx, t.CreateTableSQL()); err != nil {
			return fmt.Errorf("create %s: %w", t.Name, err)
		}
	}
	return nil
}

// CreateIndexes builds the primary keys and secondary indexes with
// BenchmarkSQL's own statements (Index.SQL).
func CreateIndexes(ctx context.Context, c *pgx.Conn) error {
	for _, ix := range Indexes {
		if _, err := c.Exec(ctx, ix.SQL()); err != nil {
			return fmt.Errorf("%s: %w", ix.Name, err)
		}
	}
	return nil
}

// VacuumTables runs VACUUM on every table, as BenchmarkSQL's build does
// after the indexes.
func VacuumTables(ctx context.Context, c *pgx.Conn) error {
	for _, t := range Tables {
		if _, err := c.Exec(ctx, "VACUUM "+t.Name); err != nil {
			return fmt.Errorf("vacuum %s: %w", t.Name, err)
		}
	}
	return nil
}

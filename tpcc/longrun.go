package tpcc

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// AllocatorTables are the tables whose layout the free-space policy
// decides during a run: the ones that receive inserts, or updates that
// may leave their page. bmsql_stock and bmsql_customer are updated in
// place (HOT) and their pages are chosen by the load alone.
var AllocatorTables = []string{"bmsql_order_line", "bmsql_oorder", "bmsql_new_order", "bmsql_history",
	"bmsql_district", "bmsql_warehouse"}

// TableState is what a long run compares before and after: each table's
// size in blocks and how often it has been vacuumed, and each district's
// next order number (orders from it on were entered by the run).
type TableState struct {
	Blocks      map[string]int64
	Vacuums     map[string]int64 // VACUUM statements (pg_stat_user_tables.vacuum_count)
	AutoVacuums map[string]int64 // autovacuum runs (autovacuum_count)
	NextOrder   map[[2]int32]int32
	// Used holds, for the tables a run inserts into (order_line, oorder,
	// new_order), the blocks that held rows (ReadUsedBlocks; nil until
	// read): a pre-run block outside it was empty, a page the load
	// extended and left unused.
	Used map[string]map[uint32]bool
}

// ReadUsedBlocks fills s.Used from the tables' ctids.
func (s *TableState) ReadUsedBlocks(ctx context.Context, c *pgx.Conn) error {
	s.Used = map[string]map[uint32]bool{}
	for _, t := range []string{"bmsql_order_line", "bmsql_oorder", "bmsql_new_order"} {
		rows, err := c.Query(ctx, "SELECT DISTINCT (ctid::text::point)[0]::int FROM "+t)
		if err != nil {
			return fmt.Errorf("%s blocks: %w", t, err)
		}
		used := map[uint32]bool{}
		for rows.Next() {
			var b int32
			if err := rows.Scan(&b); err != nil {
				rows.Close()
				return err
			}
			used[uint32(b)] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("%s blocks: %w", t, err)
		}
		s.Used[t] = used
	}
	return nil
}

// ReadTableState reads the state of every bmsql_* table on c, from
// pg_relation_size, pg_stat_user_tables and bmsql_district, which both
// minipg and PostgreSQL have. The statistics of the tables of the current
// schema are taken: on PostgreSQL, where several schemas may hold
// bmsql_* tables, pg_stat_user_tables is filtered by schemaname.
func ReadTableState(ctx context.Context, c *pgx.Conn) (*TableState, error) {
	s := &TableState{Blocks: map[string]int64{}, Vacuums: map[string]int64{}, AutoVacuums: map[string]int64{},
		NextOrder: map[[2]int32]int32{}}
	for _, t := range Tables {
		var size int64
		if err := c.QueryRow(ctx, "SELECT pg_relation_size('"+t.Name+"')").Scan(&size); err != nil {
			return nil, fmt.Errorf("pg_relation_size(%s): %w", t.Name, err)
		}
		s.Blocks[t.Name] = size / 8192
	}
	var schema string
	if err := c.QueryRow(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
		return nil, fmt.Errorf("current_schema(): %w", err)
	}
	rows, err := c.Query(ctx, "SELECT relname, vacuum_count, autovacuum_count FROM pg_stat_user_tables "+
		"WHERE schemaname = $1 AND relname LIKE 'bmsql%'", schema)
	if err != nil {
		return nil, fmt.Errorf("pg_stat_user_tables: %w", err)
	}
	for rows.Next() {
		var name string
		var v, av int64
		if err := rows.Scan(&name, &v, &av); err != nil {
			rows.Close()
			return nil, err
		}
		s.Vacuums[name], s.AutoVacuums[name] = v, av
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("pg_stat_user_tables: %w", err)
	}
	rows, err = c.Query(ctx, "SELECT d_w_id, d_id, d_next_o_id FROM bmsql_district")
	if err != nil {
		return nil, fmt.Errorf("bmsql_district: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var w, d, next int32
		if err := rows.Scan(&w, &d, &next); err != nil {
			return nil, err
		}
		s.NextOrder[[2]int32{w, d}] = next
	}
	return s, rows.Err()
}

// RunLayout is the layout a run left, measured at its end from the
// tables' ctids.
type RunLayout struct {
	All Locality // every order's lines
	New Locality // the lines of the orders the run entered
	// Rows the run inserted into each table and how many of them are on
	// blocks that existed before the run (where a free space map fed by
	// VACUUM sends them). Rows the run inserted and later deleted (a
	// delivered new_order) are not seen.
	Inserted, PreRun map[string]int
	// PreRunUsed counts the PreRun rows on blocks that held rows before
	// the run (TableState.Used; zero when it was not read): the pages
	// VACUUM gave back, as against the empty pages a load left.
	PreRunUsed map[string]int
	// PreRunMixed counts the PreRun rows on blocks that still hold rows
	// of orders entered before the run: the run's rows mixed with old
	// ones. A queue such as new_order refills the blocks its delivered
	// rows left under any policy that keeps it at its size; those blocks
	// hold no old rows any more and are not counted here.
	PreRunMixed map[string]int
}

// countRunRows adds to out the rows of table the run inserted (isNew),
// those of them on blocks that existed before the run, those on blocks
// that held rows then (before.Used), and those on pre-run blocks that
// still hold rows of older orders.
func countRunRows(out *RunLayout, table string, rows []RowBlock, isNew func(OrderKey) bool, before *TableState) {
	old := map[uint32]bool{}
	for _, r := range rows {
		if !isNew(r.Key) {
			old[r.Block] = true
		}
	}
	for _, r := range rows {
		if !isNew(r.Key) {
			continue
		}
		out.Inserted[table]++
		if int64(r.Block) >= before.Blocks[table] {
			continue
		}
		out.PreRun[table]++
		if before.Used[table][r.Block] {
			out.PreRunUsed[table]++
		}
		if old[r.Block] {
			out.PreRunMixed[table]++
		}
	}
}

// MeasureRunLayout reads the lines of every order, and the orders and new
// orders the run entered (order number at least before's next order of
// their district), and places them against the tables' sizes in before.
func MeasureRunLayout(ctx context.Context, c *pgx.Conn, before *TableState) (*RunLayout, error) {
	isNew := func(k OrderKey) bool {
		next, ok := before.NextOrder[[2]int32{k.W, k.D}]
		return ok && k.O >= next
	}
	out := &RunLayout{Inserted: map[string]int{}, PreRun: map[string]int{}, PreRunUsed: map[string]int{},
		PreRunMixed: map[string]int{}}
	lines, err := OrderLineBlocks(ctx, c, nil)
	if err != nil {
		return nil, fmt.Errorf("order_line ctids: %w", err)
	}
	out.All = ComputeLocality(lines)
	var fresh []RowBlock
	for _, r := range lines {
		if isNew(r.Key) {
			fresh = append(fresh, r)
		}
	}
	out.New = ComputeLocality(fresh)
	countRunRows(out, "bmsql_order_line", lines, isNew, before)
	for _, q := range []struct{ table, sql string }{
		{"bmsql_oorder", "SELECT o_w_id, o_d_id, o_id, 0, ctid FROM bmsql_oorder"},
		{"bmsql_new_order", "SELECT no_w_id, no_d_id, no_o_id, 0, ctid FROM bmsql_new_order"},
	} {
		rows, err := groupBlocks(ctx, c, q.sql, nil)
		if err != nil {
			return nil, fmt.Errorf("%s ctids: %w", q.table, err)
		}
		countRunRows(out, q.table, rows, isNew, before)
	}
	return out, nil
}

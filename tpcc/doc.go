// Package tpcc is a BenchmarkSQL-like TPC-C driver over pgx, used by
// cmd/minipg-bench to load, run and measure minipg and PostgreSQL side by
// side. It exists to measure heap locality: where the rows that belong
// together (the order lines of one order) land, and what that costs in WAL.
//
// Files, one concept each:
//
//	schema.go    bmsql_* tables with BenchmarkSQL's tuned fill factors; keys and indexes built after the load
//	rand.go      TPC-C random values: NURand and its C constants, C_LAST syllables, a/n-strings, permutations
//	load.go      LoadData: N workers, job 0 = ITEM + CONFIG, then one warehouse per job as ONE transaction;
//	             rows as pipelined single-row INSERTs (default), multi-row VALUES or binary COPY
//	statements.go jTPCCConnection's statements, character for character
//	txn.go       New-Order, Payment, Order-Status, Delivery, Stock-Level in jTPCCTData's order
//	driver.go    terminals, the 45/43/4/4/4 mix, retries on 40001/40P01, latencies, tpmC
//	locality.go  per-order block sets from ctid: 2+ blocks, 3+ blocks, non-contiguous, spread
//	passes.go    the delivery pass and the 1,000-New-Order pass, with pg_stat_wal deltas
//	wal.go       pg_stat_wal readings
//	walrel.go    WAL per table between two readings: minipg_stat_wal_rel, or pg_walinspect on PostgreSQL
//	layout.go    block maps (each block's district, mixed blocks) and histograms of blocks and span per group
//
// The transactions send BenchmarkSQL 5's statements as written
// (statements.go: New-Order's customer-warehouse join, Order-Status's
// max(o_id) subquery, Stock-Level's count over a derived table with an IN
// subquery) in jTPCCTData's order. The delivery pass runs one order per
// transaction (the DELIVERY_BG work of one district), which is how the
// reference figures in docs/BENCHMARKSQL.md count transactions.
//
// Tests that need a server use TPCC_TEST_DSN or the local PostgreSQL 15 and
// are skipped when it cannot be reached (or with -short); each works in a
// schema of its own.
package tpcc

package main

// extend: relation extension under concurrency. C clients each load
// batches into one shared table (COPY of 4-byte integers or 1 KiB texts,
// or transactions of single-row 1 KiB INSERTs); the figures are the rows,
// bytes and batches per second, the table's size against what one writer
// would need, the blocks extended but never used, the WAL written and the
// policy's own extension counters.

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// extendWorkload is one way of loading the shared table.
type extendWorkload struct {
	name    string
	col     string // column type
	payload int    // data bytes of a row
	insert  bool   // single-row INSERTs in a transaction instead of COPY
	batch   int    // default rows per batch
}

var extendWorkloads = []extendWorkload{
	{name: "copy-int4", col: "int", payload: 4, batch: 10000},
	{name: "copy-1k", col: "text", payload: 1024, batch: 1000},
	{name: "insert-1k", col: "text", payload: 1024, insert: true, batch: 1000},
}

const extendTable = "minipg_bench_extend"

// rowsPerPage is how many rows of dataLen bytes (after the tuple header,
// alignment included) one writer puts on a page at fillfactor 100: 8192 -
// 24 bytes of page header, each row a MAXALIGNed 24-byte header plus data
// and a 4-byte line pointer, at most MaxHeapTuplesPerPage (291).
func rowsPerPage(dataLen int) int {
	tup := (24 + dataLen + 7) &^ 7
	return min(291, (8192-24)/(tup+4))
}

// rowDataLen is the stored length of a payload: an int4 is 4 bytes, a text
// of n bytes has a 1-byte varlena header up to 126 bytes, else 4.
func rowDataLen(w extendWorkload) int {
	if w.col == "int" {
		return 4
	}
	if w.payload <= 126 {
		return w.payload + 1
	}
	return w.payload + 4
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q: want positive integers separated by commas", s)
		}
		out = append(out, n)
	}
	return out, nil
}

func extendMain(args []string) (err error) {
	fs := flag.NewFlagSet("minipg-bench extend", flag.ExitOnError)
	ff := addFrameFlags(fs, 3)
	clientsFlag := fs.String("clients", "1,2,4,8,16,32,64", "client counts")
	workloadsFlag := fs.String("workloads", "copy-int4,copy-1k,insert-1k", "workloads: copy-int4, copy-1k, insert-1k")
	batchRows := fs.Int("batch-rows", 0, "rows per batch (default 10000 for copy-int4, 1000 otherwise)")
	dur := fs.Duration("duration", 5*time.Second, "fixed time of each run")
	batches := fs.Int("batches", 0, "fixed rounds instead: batches per client (overrides -duration)")
	fs.Parse(args) //nolint:errcheck // ExitOnError
	clients, err := parseInts(*clientsFlag)
	if err != nil {
		return fmt.Errorf("-clients %w", err)
	}
	var wls []extendWorkload
	for _, name := range strings.Split(*workloadsFlag, ",") {
		found := false
		for _, w := range extendWorkloads {
			if w.name == strings.TrimSpace(name) {
				if *batchRows > 0 {
					w.batch = *batchRows
				}
				wls = append(wls, w)
				found = true
			}
		}
		if !found {
			return fmt.Errorf("-workloads: unknown %q", name)
		}
	}
	f, err := newFrame("extend", args, ff, nil)
	if err != nil {
		return err
	}
	defer f.end(&err)
	f.steps(len(wls) * len(clients))
	ctx := context.Background()
	for _, w := range wls {
		for _, c := range clients {
			desc := fmt.Sprintf("%s, %d clients", w.name, c)
			err := f.each(desc, func(_ int, t *benchTarget) error {
				return runExtend(ctx, f, t, w, c, *dur, *batches)
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// runExtend is one run of workload w with c clients on t; it records the
// figures in f.run and drops the table.
func runExtend(ctx context.Context, f *frame, t *benchTarget, w extendWorkload, c int, d time.Duration, batches int) error {
	admin, err := pgx.Connect(ctx, t.dsn)
	if err != nil {
		return err
	}
	defer admin.Close(ctx)
	if err := recreate(ctx, admin, extendTable, "v "+w.col); err != nil {
		return err
	}
	defer admin.Exec(ctx, "DROP TABLE IF EXISTS "+extendTable) //nolint:errcheck // best effort

	conns := make([]*pgx.Conn, c)
	for i := range conns {
		if conns[i], err = pgx.Connect(ctx, t.dsn); err != nil {
			return err
		}
		defer conns[i].Close(ctx)
	}
	text := strings.Repeat("abcdefghijklmnopqrstuvwxyz012345", w.payload/32+1)[:w.payload]
	rows := make([][]any, w.batch)
	for i := range rows {
		if w.col == "int" {
			rows[i] = []any{int32(i)}
		} else {
			rows[i] = []any{text}
		}
	}
	lsn0, lsnErr := currentLSN(ctx, admin)

	var nrows, nbatches atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	start := time.Now()
	for i := range c {
		wg.Add(1)
		go func(conn *pgx.Conn) {
			defer wg.Done()
			for b := 0; batches > 0 && b < batches || batches == 0 && time.Since(start) < d; b++ {
				var err error
				if w.insert {
					err = insertBatch(ctx, conn, text, w.batch)
				} else {
					var n int64
					n, err = conn.CopyFrom(ctx, pgx.Identifier{extendTable}, []string{"v"}, pgx.CopyFromRows(rows))
					if err == nil && n != int64(w.batch) {
						err = fmt.Errorf("COPY reported %d rows, want %d", n, w.batch)
					}
				}
				if err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
				nrows.Add(int64(w.batch))
				nbatches.Add(1)
			}
		}(conns[i])
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	if e := firstErr.Load(); e != nil {
		return e.(error)
	}
	rec := func(metric, unit string, v float64) {
		f.run.add("extend", w.name, "clients", float64(c), t.Name, metric, unit, v)
	}
	rows64 := float64(nrows.Load())
	rec("rows/s", "rows/s", rows64/secs)
	rec("MB/s", "MB/s", rows64*float64(w.payload)/1e6/secs)
	rec("batches/s", "batches/s", float64(nbatches.Load())/secs)
	if lsnErr == nil {
		lsn1, err := currentLSN(ctx, admin)
		if err == nil {
			rec("WAL bytes", "bytes", float64(lsn1-lsn0))
			rec("WAL bytes per row", "bytes", float64(lsn1-lsn0)/rows64)
		}
	} else {
		f.run.note(t.Name + ": pg_current_wal_lsn: " + lsnErr.Error())
	}

	var size int64
	if err := admin.QueryRow(ctx, "SELECT pg_relation_size('"+extendTable+"')").Scan(&size); err != nil {
		return fmt.Errorf("pg_relation_size: %w", err)
	}
	blocks := float64(size / 8192)
	ideal := float64((int(rows64) + rowsPerPage(rowDataLen(w)) - 1) / rowsPerPage(rowDataLen(w)))
	rec("blocks", "blocks", blocks)
	rec("single-writer blocks", "blocks", ideal)
	rec("blocks / single-writer", "ratio", blocks/max(ideal, 1))
	maxBlk, distinct, err := blockUse(ctx, admin, extendTable)
	if err != nil {
		return fmt.Errorf("ctid scan: %w", err)
	}
	rec("blocks never used", "blocks", float64(maxBlk+1-distinct))
	rec("blocks past the last row", "blocks", blocks-float64(maxBlk+1))
	if !t.isPG() {
		counters, err := fsmCounters(ctx, admin, extendTable)
		if err != nil {
			f.run.note(t.Name + ": minipg_stat_fsm: " + err.Error())
		}
		for _, kv := range counters {
			rec("fsm "+kv.name, "", kv.v)
		}
	}
	return nil
}

func insertBatch(ctx context.Context, c *pgx.Conn, text string, n int) error {
	tx, err := c.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // after Commit a no-op
	for range n {
		if _, err := tx.Exec(ctx, "INSERT INTO "+extendTable+" VALUES ($1)", text); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// currentLSN reads pg_current_wal_lsn() as a byte position.
func currentLSN(ctx context.Context, c *pgx.Conn) (uint64, error) {
	var s string
	if err := c.QueryRow(ctx, "SELECT pg_current_wal_lsn()::text").Scan(&s); err != nil {
		return 0, err
	}
	return parseLSN(s)
}

// parseLSN reads an LSN written as PostgreSQL prints it, "hi/lo" in hex.
func parseLSN(s string) (uint64, error) {
	hi, lo, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return 0, fmt.Errorf("bad LSN %q", s)
	}
	h, err1 := strconv.ParseUint(hi, 16, 32)
	l, err2 := strconv.ParseUint(lo, 16, 32)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("bad LSN %q", s)
	}
	return h<<32 | l, nil
}

// blockUse scans the table's ctids and returns the highest block holding
// a row and how many distinct blocks hold rows (maxBlk is -1 when empty).
func blockUse(ctx context.Context, c *pgx.Conn, table string) (maxBlk, distinct int64, err error) {
	rows, err := c.Query(ctx, "SELECT ctid FROM "+table)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	seen := map[uint32]struct{}{}
	maxBlk = -1
	for rows.Next() {
		var tid pgtype.TID
		if err := rows.Scan(&tid); err != nil {
			return 0, 0, err
		}
		seen[tid.BlockNumber] = struct{}{}
		maxBlk = max(maxBlk, int64(tid.BlockNumber))
	}
	return maxBlk, int64(len(seen)), rows.Err()
}

type namedValue struct {
	name string
	v    float64
}

// fsmCounters reads table's row of minipg_stat_fsm, every numeric column
// by its name (the view's columns may change).
func fsmCounters(ctx context.Context, c *pgx.Conn, table string) ([]namedValue, error) {
	rows, err := c.Query(ctx, "SELECT * FROM minipg_stat_fsm WHERE relname = $1", table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []namedValue
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, err
		}
		for i, fd := range rows.FieldDescriptions() {
			if v, ok := toFloat(vals[i]); ok {
				out = append(out, namedValue{fd.Name, v})
			}
		}
	}
	return out, rows.Err()
}

// toFloat converts a numeric column value.
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case int16:
		return float64(x), true
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case pgtype.Numeric:
		f, err := x.Float64Value()
		return f.Float64, err == nil && f.Valid
	}
	return 0, false
}

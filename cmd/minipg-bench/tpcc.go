// TPC-C (BenchmarkSQL-like) subcommands of minipg-bench. The driver itself
// lives in package minipg/tpcc; this file parses flags, runs a subcommand
// against every target in turn and prints the figures side by side.
//
//	minipg-bench load          -server bin/minipg [-pg DSN] -w 2 -workers 4 [-scale 1] [-mode batch|values|copy]
//	minipg-bench locality      -dsn DSN [-dsn DSN]
//	minipg-bench run           -dsn DSN -terminals 4 -duration 1m | -txns N [-rate TPM]
//	minipg-bench delivery-pass -dsn DSN [-per-district 300] [-workers 1]
//	minipg-bench neworders     -dsn DSN [-n 1000] [-terminals 1]
//	minipg-bench check         -dsn DSN    TPC-C consistency conditions
//
// Targets come from the common frame (frame.go: -server starts a fresh
// minipg per fsm_policy, -minipg and -pg name running servers) and from
// -dsn (repeatable, optionally NAME=DSN). On a server started by -server
// every subcommand but load loads the tables first (-w, -scale, ...), as
// it does on any target with -load.
//
// Besides the figures, every subcommand but check records the layout of
// bmsql_order_line and bmsql_customer at its end (block maps and
// histograms, drawn by -html), and load, run, delivery-pass and neworders
// the WAL per table when the server offers it (minipg_stat_wal_rel, or
// pg_walinspect on PostgreSQL, read every 5 s while the subcommand runs so
// that checkpoints do not recycle the WAL before it is read).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"minipg/tpcc"
)

var tpccCommands = map[string]bool{"load": true, "locality": true, "run": true, "delivery-pass": true, "neworders": true, "check": true}

// otherCommands are the subcommands that are neither rt nor TPC-C.
var otherCommands = map[string]func(args []string) error{
	"extend":      extendMain,
	"smalltables": smalltablesMain,
	"startup":     startupMain,
	"report":      reportMain,
}

// runSubcommand runs a TPC-C subcommand named by os.Args[1] and reports
// true, or strips an explicit "rt" and reports false so that main runs the
// round-trip benchmark.
func runSubcommand() bool {
	if len(os.Args) < 2 {
		return false
	}
	if os.Args[1] == "rt" {
		os.Args = append(os.Args[:1], os.Args[2:]...)
		return false
	}
	if os.Args[1] == "help" {
		fmt.Print(usage)
		return true
	}
	log.SetFlags(0)
	if fn, ok := otherCommands[os.Args[1]]; ok {
		if err := fn(os.Args[2:]); err != nil {
			log.Fatalf("minipg-bench %s: %v", os.Args[1], err)
		}
		return true
	}
	if !tpccCommands[os.Args[1]] {
		return false
	}
	if err := tpccMain(os.Args[1], os.Args[2:]); err != nil {
		log.Fatalf("minipg-bench %s: %v", os.Args[1], err)
	}
	return true
}

const usage = `usage: minipg-bench [subcommand] [flags]

  rt             pgx round trips, COPY, commits (the default; see minipg-bench rt -h)
  extend         C clients COPY or INSERT into one table: throughput, blocks, WAL, extension counters
  smalltables    T tables of B blocks, every insert through the free-space logic, per small-table threshold
  startup        start-up time and memory (PSS) against data size: clean stop and kill -9, per index_storage
  report         report --html FILE RUN.json...: one page from the JSON of several runs
  load           create and load the bmsql_* tables, build indexes, VACUUM, report locality
  locality       report order-line and customer locality of a loaded database
  run            run terminals through the TPC-C mix for -duration or -txns
  delivery-pass  deliver the -per-district oldest orders, locality before/after, WAL per transaction
  neworders      run -n New-Orders after a CHECKPOINT, WAL per 1,000 new orders
  check          TPC-C consistency conditions

Targets: -server BINARY (a fresh minipg per fsm_policy, -policies to choose),
-pg DSN (PostgreSQL 15), -minipg DSN, and for TPC-C -dsn DSN (repeatable, NAME=DSN).
Every subcommand takes -rounds (and -first-round 2 for a reversed round on its own),
-json FILE, -html FILE and -progress.
Run "minipg-bench SUBCOMMAND -h" for the flags.
`

type targetFlag []string

func (t *targetFlag) String() string     { return strings.Join(*t, ",") }
func (t *targetFlag) Set(s string) error { *t = append(*t, s); return nil }

func tpccMain(cmd string, args []string) (err error) {
	fs := flag.NewFlagSet("minipg-bench "+cmd, flag.ExitOnError)
	ff := addFrameFlags(fs, 1)
	fs.Var(&ff.dsns, "dsn", "target DSN, or NAME=DSN (repeatable)")
	loadFirst := fs.Bool("load", false, "load the tables first (always on servers started by -server)")
	walRel := fs.Bool("wal-rel", true, "load, run, delivery-pass, neworders: WAL per table (minipg_stat_wal_rel, or pg_walinspect, created in the database when absent)")
	schema := fs.String("schema", "", "PostgreSQL targets: schema of the bmsql_* tables (created if absent; minipg targets use their default)")
	seed := fs.Uint64("seed", 1, "random seed")
	atOnce := fs.Bool("concurrent", false, "measure the targets of a round at the same time rather than in turn (after each one's load): they share the machine, so no target gets a quieter slot; with -rate each target runs at that rate")
	// load
	warehouses := fs.Int("w", 1, "load: warehouses")
	workers := fs.Int("workers", 0, "load: loader connections (default 4); delivery-pass: delivering connections (default 1)")
	scale := fs.Float64("scale", 1, "load: scale of the per-district and item counts (0.01 for quick tests)")
	mode := fs.String("mode", "batch", "load: batch (single-row INSERTs), values (multi-row VALUES) or copy")
	chunk := fs.Int("chunk", tpcc.DefaultChunk, "load, batch mode: pipeline INSERTs in pieces of N, each waited for, as pgjdbc does; -1 = the whole batch at once")
	noLocality := fs.Bool("no-locality", false, "load: skip the locality report")
	// run / neworders
	terminals := fs.Int("terminals", 0, "run: terminals (default 4); neworders: terminals (default 1)")
	duration := fs.Duration("duration", time.Minute, "run: duration (unless -txns)")
	txns := fs.Int("txns", 0, "run: stop after this many transactions instead of -duration")
	rate := fs.Float64("rate", 0, "run: at most this many transactions per minute, all terminals together (0: no limit), so that targets do the same work per minute")
	cpuProfile := fs.String("cpuprofile", "", "run: write a CPU profile of each server started here with -c debug_pprof_addr=HOST:PORT, over the middle half of its mix, into this directory")
	rollback := fs.Int("rollback-pct", 1, "run, neworders: New-Orders that roll back on an unused item")
	n := fs.Int("n", 1000, "neworders: New-Order transactions")
	// delivery-pass
	perDistrict := fs.Int("per-district", 300, "delivery-pass: oldest undelivered orders to deliver per district")
	checkpoint := fs.Bool("checkpoint", true, "delivery-pass, neworders: CHECKPOINT before measuring")
	cleanup := fs.Bool("cleanup", true, "delivery-pass: then CHECKPOINT, VACUUM the tables Delivery changed and report the WAL of that too (the cleanup the pass left)")
	fs.Parse(args) //nolint:errcheck // ExitOnError

	def := func(v *int, d int) int {
		if *v == 0 {
			return d
		}
		return *v
	}
	logf := func(format string, a ...any) { log.Printf("  "+format, a...) }

	m, err := tpcc.ParseMode(*mode)
	if err != nil {
		return err
	}
	load := func(ctx context.Context, connect tpcc.Connector) (tpcc.LoadResult, error) {
		return tpcc.Load(ctx, connect, tpcc.LoadOptions{Warehouses: *warehouses, Workers: def(workers, 4),
			Scale: *scale, Mode: m, Chunk: *chunk, Seed: *seed, Logf: logf})
	}
	var fn func(ctx context.Context, connect tpcc.Connector, r *result) error
	switch cmd {
	case "load":
		fn = func(ctx context.Context, connect tpcc.Connector, r *result) error {
			res, err := load(ctx, connect)
			if err != nil {
				return err
			}
			r.num("load: rows", float64(res.Rows), "%.0f")
			r.num("load: seconds (data)", res.LoadTime.Seconds(), "%.1f")
			r.num("load: rows/s", float64(res.Rows)/res.LoadTime.Seconds(), "%.0f")
			r.num("load: seconds (indexes)", res.IndexTime.Seconds(), "%.1f")
			r.num("load: seconds (vacuum)", res.VacuumTime.Seconds(), "%.1f")
			if *noLocality {
				return nil
			}
			return localityReport(ctx, connect, r)
		}
	case "locality":
		fn = localityReport
	case "check":
		fn = func(ctx context.Context, connect tpcc.Connector, r *result) error {
			c, err := connect(ctx)
			if err != nil {
				return err
			}
			defer c.Close(ctx)
			bad, err := tpcc.Check(ctx, c)
			if err != nil {
				return err
			}
			for _, b := range bad {
				r.note(b)
			}
			r.num("consistency violations", float64(len(bad)), "%.0f")
			return nil
		}
	case "run":
		fn = func(ctx context.Context, connect tpcc.Connector, r *result) error {
			d := *duration
			if *txns > 0 {
				d = 0
			}
			sc, err := connect(ctx)
			if err != nil {
				return err
			}
			defer sc.Close(ctx)
			before, err := tpcc.ReadTableState(ctx, sc)
			if err == nil {
				err = before.ReadUsedBlocks(ctx, sc)
			}
			if err != nil {
				r.note("table state before the run: " + err.Error())
			}
			// The server's CPU over the mix (a server started here): per
			// transaction it compares targets whatever their speed, which a
			// rate below every target's capacity (-rate) makes equal.
			bw0, bwErr := tpcc.ReadBufferWrites(ctx, sc)
			var cpu0 float64
			var cpuErr error
			if r.pid != 0 {
				cpu0, cpuErr = processCPU(r.pid)
			}
			profiled := make(chan error, 1)
			switch {
			case *cpuProfile == "":
				profiled = nil
			case r.pprofAddr == "" || d == 0:
				profiled <- fmt.Errorf("needs a server started with -c debug_pprof_addr and a -duration")
			default:
				wait, length := profileWindow(d)
				pctx, cancel := context.WithCancel(ctx)
				defer cancel()
				go func() {
					profiled <- fetchCPUProfile(pctx, r.pprofAddr, wait, length, profileFile(*cpuProfile, r.name, r.round))
				}()
			}
			res, err := tpcc.Run(ctx, connect, tpcc.RunOptions{Terminals: def(terminals, 4), Duration: d, Txns: *txns,
				Seed: *seed, RollbackPct: *rollback, Rate: *rate})
			if err != nil {
				return err
			}
			if profiled != nil {
				if perr := <-profiled; perr != nil {
					r.note("CPU profile: " + perr.Error())
				}
			}
			r.txns = float64(res.Total())
			if r.pid != 0 && cpuErr == nil {
				var cpu1 float64
				if cpu1, cpuErr = processCPU(r.pid); cpuErr == nil && r.txns > 0 {
					r.num("server CPU ms per transaction", 1000*(cpu1-cpu0)/r.txns, "%.3f")
					r.num("server CPU, cores", (cpu1-cpu0)/res.Elapsed.Seconds(), "%.2f")
				}
			}
			if cpuErr != nil {
				r.note("server CPU: " + cpuErr.Error())
			}
			bufferFigures(ctx, sc, r, bw0, bwErr)
			if before != nil {
				if err := runLayoutFigures(ctx, sc, before, r); err != nil {
					r.note("layout after the run: " + err.Error())
				}
			}
			if res.FirstErr != nil {
				r.note("first error: " + res.FirstErr.Error())
			}
			r.num("tpmC (New-Orders/min)", res.TpmC(), "%.0f")
			r.num("transactions/s", float64(res.Total())/res.Elapsed.Seconds(), "%.1f")
			for typ := tpcc.NewOrder; typ <= tpcc.StockLevel; typ++ {
				s := &res.Tx[typ]
				r.num(typ.String()+": count", float64(s.Count), "%.0f")
				r.num(typ.String()+": mean ms", ms(s.Mean()), "%.2f")
				r.num(typ.String()+": p90 ms", ms(s.Percentile(90)), "%.2f")
				r.num(typ.String()+": p99 ms", ms(s.Percentile(99)), "%.2f")
				r.num(typ.String()+": retries", float64(s.Retries), "%.0f")
				r.num(typ.String()+": errors", float64(s.Errors), "%.0f")
			}
			r.num("NewOrder: expected rollbacks", float64(res.Tx[tpcc.NewOrder].Rollbacks), "%.0f")
			return layouts(ctx, connect, r)
		}
	case "delivery-pass":
		fn = func(ctx context.Context, connect tpcc.Connector, r *result) error {
			res, err := tpcc.DeliveryPass(ctx, connect, tpcc.DeliveryPassOptions{PerDistrict: *perDistrict,
				Workers: def(workers, 1), Checkpoint: *checkpoint, Seed: *seed})
			if res != nil && res.CheckpointErr != nil {
				r.note("CHECKPOINT failed: " + res.CheckpointErr.Error())
			}
			if err != nil {
				return err
			}
			t := float64(res.Orders)
			r.num("delivery: transactions (orders)", t, "%.0f")
			r.num("delivery: seconds", res.Elapsed.Seconds(), "%.1f")
			r.num("delivery: transactions/s", t/res.Elapsed.Seconds(), "%.0f")
			r.num("order lines updated on their page %", pct(res.LinesSamePage, res.Lines), "%.1f")
			for _, x := range []struct {
				when string
				l    tpcc.Locality
			}{{"before", res.Before}, {"after", res.After}} {
				r.num("delivered orders "+x.when+": % on 2+ blocks", x.l.Pct(x.l.Multi2), "%.2f")
				r.num("delivered orders "+x.when+": % on 3+ blocks", x.l.Pct(x.l.Multi3), "%.2f")
				r.num("delivered orders "+x.when+": % non-contiguous", x.l.Pct(x.l.NonContig), "%.2f")
				r.num("delivered orders "+x.when+": max spread (blocks)", float64(x.l.MaxSpread), "%.0f")
			}
			walRows(r, res.WAL, "per transaction", t, "%.2f")
			// The floor: the pass dirties, and logs a full-page image of,
			// at least each distinct page the delivered orders' lines
			// occupy (after its CHECKPOINT, within one checkpoint interval).
			r.num("order_line blocks per delivered order", res.Before.AvgBlocks, "%.3f")
			r.num("floor: distinct order_line blocks of the pass per delivery (FPIs)", float64(res.Before.TotalBlock)/t, "%.3f")
			r.deliveries = t
			r.floorFPI = float64(res.Before.TotalBlock) / t
			if *cleanup {
				r.after = func(ctx context.Context, pc *pgx.Conn) error {
					return vacuumAfterPass(ctx, pc, r, res.WAL, t, *walRel)
				}
			}
			return layouts(ctx, connect, r)
		}
	case "neworders":
		fn = func(ctx context.Context, connect tpcc.Connector, r *result) error {
			res, err := tpcc.NewOrders(ctx, connect, tpcc.NewOrdersOptions{N: *n, Terminals: def(terminals, 1),
				Checkpoint: *checkpoint, Seed: *seed, RollbackPct: *rollback})
			if res != nil && res.CheckpointErr != nil {
				r.note("CHECKPOINT failed: " + res.CheckpointErr.Error())
			}
			if err != nil {
				return err
			}
			no := res.Run.Tx[tpcc.NewOrder]
			r.num("new orders (incl. expected rollbacks)", float64(no.Count), "%.0f")
			r.num("expected rollbacks", float64(no.Rollbacks), "%.0f")
			r.num("elapsed seconds", res.Run.Elapsed.Seconds(), "%.2f")
			r.num("new orders/s", float64(no.Count)/res.Run.Elapsed.Seconds(), "%.0f")
			r.num("mean latency ms", ms(no.Mean()), "%.2f")
			walRows(r, res.WAL, "per 1,000 new orders", float64(no.Count)/1000, "%.0f")
			l := res.Locality
			r.num("new orders' lines: % on 2+ blocks", l.Pct(l.Multi2), "%.2f")
			r.num("new orders' lines: % on 3+ blocks", l.Pct(l.Multi3), "%.2f")
			r.num("new orders' lines: % non-contiguous", l.Pct(l.NonContig), "%.2f")
			r.num("new orders' lines: max spread (blocks)", float64(l.MaxSpread), "%.0f")
			return layouts(ctx, connect, r)
		}
	}

	if *cpuProfile != "" {
		if err := os.MkdirAll(*cpuProfile, 0o755); err != nil {
			return err
		}
	}
	f, err := newFrame(cmd, args, ff, nil)
	if err != nil {
		return err
	}
	defer f.end(&err)
	ctx := context.Background()
	f.steps(1)
	body := func(round int, t *benchTarget, ready func()) error {
		phase := cmd
		if ff.rounds > 1 {
			phase = fmt.Sprintf("%s, round %d", cmd, round+1)
		}
		connect, err := t.tpccConnector(ctx, *schema)
		if err != nil {
			return err
		}
		if cmd != "load" && (t.dataDir != "" || *loadFirst) {
			f.prog.logf("%s: loading %d warehouse(s) at scale %g", t.Name, *warehouses, *scale)
			if _, err := load(ctx, connect); err != nil {
				return fmt.Errorf("load: %w", err)
			}
		}
		r := &result{name: t.Name, pid: t.pid, pprofAddr: t.Settings["debug_pprof_addr"], round: f.ff.first + round}
		var probe *tpcc.WALRelProbe
		var pc *pgx.Conn
		if *walRel && (cmd == "load" || cmd == "run" || cmd == "delivery-pass" || cmd == "neworders") {
			if pc, err = connect(ctx); err != nil {
				return err
			}
			defer pc.Close(ctx)
			if probe, err = tpcc.StartWALRel(ctx, pc); err != nil {
				r.note(fmt.Sprintf("WAL per table skipped: %v", err))
				probe = nil
			}
		}
		stopWatch := func() {}
		if probe != nil {
			stopWatch = probe.Watch(ctx, pc, 5*time.Second)
		}
		marked := false
		if pc != nil && cmd != "load" {
			// minipg only: count where new row versions land from here on.
			_, merr := pc.Exec(ctx, "SELECT minipg_stat_placement_mark()")
			marked = merr == nil
		}
		ready()
		start := time.Now()
		err = fn(ctx, connect, r)
		stopWatch()
		if marked {
			if perr := placementFigures(ctx, pc, r); perr != nil {
				r.note("placement figures: " + perr.Error())
			}
		}
		f.prog.logf("%s: %s done in %v", cmd, t.Name, time.Since(start).Round(time.Millisecond))
		if err != nil {
			r.note("FAILED: " + err.Error())
		}
		var rels []tpcc.RelWAL
		var relErr error
		if probe != nil {
			rels, relErr = probe.Stop(ctx, pc)
		}
		if r.after != nil && err == nil {
			if pc == nil {
				if pc, err = connect(ctx); err != nil {
					return err
				}
				defer pc.Close(ctx)
			}
			if aerr := r.after(ctx, pc); aerr != nil {
				r.note(aerr.Error())
			}
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if probe != nil {
			if relErr != nil {
				f.run.note(fmt.Sprintf("%s: WAL per table (%s): %v", t.Name, probe.Source, relErr))
			}
			if r.txns > 0 {
				allocatorWAL(r, rels)
			}
			if r.deliveries > 0 {
				deliveryFloor(r, rels)
			}
			for _, rw := range rels {
				f.run.WALRel = append(f.run.WALRel, WALRelRow{Target: t.Name, Phase: phase + " (" + probe.Source + ")", RelWAL: rw})
			}
		}
		for _, name := range r.names {
			c := r.vals[name]
			v := c.v
			if c.na {
				v = math.NaN()
			}
			f.run.add(cmd, "", "", 0, t.Name, name, "", v)
		}
		for _, n := range r.notes {
			f.run.note(t.Name + ": " + n)
		}
		for _, l := range r.layouts {
			l.Target, l.Phase = t.Name, phase
			f.run.Layouts = append(f.run.Layouts, l)
		}
		return nil
	}
	f.run.AtOnce = *atOnce
	return f.eachRound(cmd, *atOnce, body)
}

// bufferFigures adds the data pages written and read into the pool per
// 1,000 transactions of the mix, from pg_stat_bgwriter read before (bw0)
// and now: what placement can save besides WAL.
func bufferFigures(ctx context.Context, sc *pgx.Conn, r *result, bw0 tpcc.BufferWrites, err error) {
	var bw1 tpcc.BufferWrites
	if err == nil {
		bw1, err = tpcc.ReadBufferWrites(ctx, sc)
	}
	if err != nil || r.txns == 0 {
		if err != nil {
			r.note("pg_stat_bgwriter: " + err.Error())
		}
		r.na("data pages written per 1,000 transactions")
		return
	}
	d, k := bw1.Sub(bw0), r.txns/1000
	r.num("data pages written per 1,000 transactions", d.Written()/k, "%.1f")
	r.num("data pages written by checkpoints per 1,000 transactions", d.Checkpoint/k, "%.1f")
	r.num("buffers allocated (pages read) per 1,000 transactions", d.Alloc/k, "%.1f")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func pct(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return 100 * float64(a) / float64(b)
}

func walRows(r *result, w tpcc.WALDelta, per string, div float64, format string) {
	if w.Err != nil {
		r.note("pg_stat_wal: " + w.Err.Error())
		r.na("WAL records " + per)
		r.na("WAL FPIs " + per)
		r.na("WAL bytes " + per)
		r.na("WAL bytes total")
		return
	}
	if w.OtherSessions > 0 {
		r.note(fmt.Sprintf("%d busy sessions of other applications during the measurement: pg_stat_wal is cluster-wide, the WAL figures include theirs", w.OtherSessions))
	}
	r.num("WAL records "+per, w.Records/div, format)
	r.num("WAL FPIs "+per, w.FPI/div, "%.2f")
	r.num("WAL bytes "+per, w.Bytes/div, "%.0f")
	r.num("WAL bytes total", w.Bytes, "%.0f")
}

func localityReport(ctx context.Context, connect tpcc.Connector, r *result) error {
	c, err := connect(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	for _, rel := range []string{"bmsql_order_line", "bmsql_customer", "bmsql_stock", "bmsql_oorder"} {
		var size int64
		if err := c.QueryRow(ctx, "SELECT pg_relation_size('"+rel+"')").Scan(&size); err != nil {
			r.na(rel + " blocks")
			r.note(fmt.Sprintf("pg_relation_size(%s): %v", rel, err))
			continue
		}
		r.num(rel+" blocks", float64(size/8192), "%.0f")
	}
	rows, err := tpcc.OrderLineBlocks(ctx, c, nil)
	if err != nil {
		return fmt.Errorf("order_line ctids: %w", err)
	}
	l := tpcc.ComputeLocality(rows)
	r.layouts = append(r.layouts, layoutOf("bmsql_order_line", rows))
	r.num("orders", float64(l.Groups), "%.0f")
	r.num("order lines per block", float64(l.Rows)/float64(max(1, l.TotalBlock)), "%.1f")
	r.num("orders on 2+ blocks %", l.Pct(l.Multi2), "%.2f")
	r.num("orders on 3+ blocks %", l.Pct(l.Multi3), "%.3f")
	r.num("orders on 3+ blocks", float64(l.Multi3), "%.0f")
	r.num("orders non-contiguous %", l.Pct(l.NonContig), "%.2f")
	r.num("orders: max spread (blocks)", float64(l.MaxSpread), "%.0f")
	r.num("orders: mean blocks", l.AvgBlocks, "%.3f")
	cust, err := tpcc.CustomerBlocks(ctx, c)
	if err != nil {
		return fmt.Errorf("customer ctids: %w", err)
	}
	cl := tpcc.ComputeLocality(cust)
	r.layouts = append(r.layouts, layoutOf("bmsql_customer", cust))
	r.num("customers of a district: mean blocks", cl.AvgBlocks, "%.0f")
	r.num("customers of a district: mean span", cl.AvgSpan, "%.0f")
	return nil
}

// result is one target's figures, in the order they were recorded.
type result struct {
	name    string
	names   []string
	vals    map[string]cell
	notes   []string
	layouts []Layout
	txns    float64 // run: transactions completed (for figures per 1,000)
	pid     int     // the server process when started here (-server), else 0
	// pprofAddr is the server's debug_pprof_addr when started here with
	// one; round the round's number (from 1) for the profile's name.
	pprofAddr string
	round     int
	// delivery-pass: deliveries and the floor of order_line FPIs (and
	// pages dirtied) per delivery
	deliveries, floorFPI float64
	// after, when set, runs on connection pc once the measurement and its
	// WAL per table are taken (delivery-pass: the cleanup it left).
	after func(ctx context.Context, pc *pgx.Conn) error
}

type cell struct {
	v      float64
	format string
	na     bool
}

func (r *result) set(name string, c cell) {
	if r.vals == nil {
		r.vals = map[string]cell{}
	}
	if _, ok := r.vals[name]; !ok {
		r.names = append(r.names, name)
	}
	r.vals[name] = c
}

func (r *result) num(name string, v float64, format string) { r.set(name, cell{v: v, format: format}) }
func (r *result) na(name string)                            { r.set(name, cell{na: true}) }
func (r *result) note(s string)                             { r.notes = append(r.notes, s) }

// layouts records the block maps of bmsql_order_line and bmsql_customer.
func layouts(ctx context.Context, connect tpcc.Connector, r *result) error {
	c, err := connect(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	rows, err := tpcc.OrderLineBlocks(ctx, c, nil)
	if err != nil {
		return fmt.Errorf("order_line ctids: %w", err)
	}
	cust, err := tpcc.CustomerBlocks(ctx, c)
	if err != nil {
		return fmt.Errorf("customer ctids: %w", err)
	}
	r.layouts = append(r.layouts, layoutOf("bmsql_order_line", rows), layoutOf("bmsql_customer", cust))
	return nil
}

// createSchema creates schema on the server at dsn unless it exists.
// tpccConnector connects to t's TPC-C tables: on PostgreSQL in schema
// (created if absent) when one is given, on minipg in its default schema.
func (t *benchTarget) tpccConnector(ctx context.Context, schema string) (tpcc.Connector, error) {
	if !t.isPG() {
		schema = ""
	}
	if schema != "" {
		if err := createSchema(ctx, t.dsn, schema); err != nil {
			return nil, err
		}
	}
	return tpcc.DSNConnector(t.dsn, schema)
}

func createSchema(ctx context.Context, dsn, schema string) error {
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	_, err = c.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{schema}.Sanitize())
	return err
}

// layoutOf is a table's block map and the histograms of its groups
// (orders, or districts for customers).
func layoutOf(table string, rows []tpcc.RowBlock) Layout {
	b, s := tpcc.Histograms(rows)
	return Layout{Map: tpcc.BuildBlockMap(table, rows), BlocksHist: b, SpanHist: s}
}

// placementFigures adds, per bmsql_ table that received new row versions
// since the mark, the share of them that landed on pages that existed at
// the mark (where a free space map fed by VACUUM sends them) and on pages
// already changed since the redo point (no full-page image), from
// minipg_stat_placement.
func placementFigures(ctx context.Context, c *pgx.Conn, r *result) error {
	rows, err := c.Query(ctx, "SELECT relname, placements, pre_run_pages, logged_pages, update_placements, update_pre_run_pages "+
		"FROM minipg_stat_placement WHERE relname LIKE 'bmsql_%' AND placements > 0 ORDER BY relname")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var n, pre, logged, upd, updPre int64
		if err := rows.Scan(&name, &n, &pre, &logged, &upd, &updPre); err != nil {
			return err
		}
		short := strings.TrimPrefix(name, "bmsql_")
		if ins := n - upd; ins > 0 {
			r.num(short+": inserts", float64(ins), "%.0f")
			r.num(short+": inserts on pre-run pages %", 100*float64(pre-updPre)/float64(ins), "%.2f")
		}
		if upd > 0 {
			r.num(short+": moved update versions", float64(upd), "%.0f")
			r.num(short+": moved versions on pre-run pages %", 100*float64(updPre)/float64(upd), "%.2f")
		}
		r.num(short+": new versions on pages logged since redo %", 100*float64(logged)/float64(n), "%.2f")
	}
	return rows.Err()
}

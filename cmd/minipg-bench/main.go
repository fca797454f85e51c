// Command minipg-bench drives minipg (and, when given a DSN, PostgreSQL) with
// pgx and reports round trips and rows per second side by side, measured in
// one run so that the ratio is meaningful on a noisy machine.
//
//	minipg-bench [rt] -server bin/minipg [-pg postgres://...] [-duration 5s] [-rounds 3]
//
// Every workload runs -rounds times on each server, alternating which goes
// first, and the median of each server's rounds is reported.
//
// The TPC-C subcommands (load, locality, run, delivery-pass, neworders) are
// described in tpcc.go.
//
// With -server it starts that binary on a free loopback port with a fresh
// data directory and reports its peak resident set size (VmHWM) as well;
// -minipg DSN uses an already running server instead.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

type target struct {
	name string
	dsn  string
	pid  int // server process to read VmHWM from, 0 if unknown
}

func main() {
	if runSubcommand() { // TPC-C subcommands, tpcc.go
		return
	}
	serverBin := flag.String("server", "", "minipg binary to start on a free port")
	minipgDSN := flag.String("minipg", "", "DSN of a running minipg (instead of -server)")
	pgDSN := flag.String("pg", os.Getenv("PGBENCH_DSN"), "DSN of a PostgreSQL 15 to compare with")
	dur := flag.Duration("duration", 3*time.Second, "duration of each timed workload")
	copyRows := flag.Int("copy-rows", 200000, "rows per COPY workload")
	clients := flag.Int("clients", 32, "connections of the concurrent workload")
	rounds := flag.Int("rounds", 3, "times each workload runs on each server (the median is reported)")
	verbose := flag.Bool("v", false, "print every round's figure")
	flag.Parse()
	log.SetFlags(0)

	var targets []target
	switch {
	case *minipgDSN != "":
		targets = append(targets, target{name: "minipg", dsn: *minipgDSN})
	case *serverBin != "":
		t, stop := startServer(*serverBin)
		defer stop()
		targets = append(targets, t)
	default:
		log.Fatal("minipg-bench: give -server BINARY or -minipg DSN")
	}
	if *pgDSN != "" {
		targets = append(targets, target{name: "postgresql", dsn: *pgDSN})
	}

	// Each workload runs on every target in turn, rounds times, the order
	// of the targets alternating between rounds, and the median of a
	// target's rounds is reported: a slow moment of a noisy machine then
	// hits both servers alike and no single run decides a figure.
	workloads := []struct {
		name string
		run  func(ctx context.Context, dsn string) (float64, error)
	}{
		{"single-row INSERT round trips/s", func(ctx context.Context, dsn string) (float64, error) { return benchInsert(ctx, dsn, *dur) }},
		{"primary-key SELECT round trips/s", func(ctx context.Context, dsn string) (float64, error) { return benchSelect(ctx, dsn, *dur) }},
		{"COPY rows/s", func(ctx context.Context, dsn string) (float64, error) { return benchCopy(ctx, dsn, *copyRows) }},
		{fmt.Sprintf("%d conns INSERT+SELECT stmts/s", *clients), func(ctx context.Context, dsn string) (float64, error) {
			return benchConcurrent(ctx, dsn, *clients, *dur)
		}},
		{"commits/s, 1 client", func(ctx context.Context, dsn string) (float64, error) { return benchCommits(ctx, dsn, 1, *dur) }},
		{"commits/s, 8 clients", func(ctx context.Context, dsn string) (float64, error) { return benchCommits(ctx, dsn, 8, *dur) }},
		{"commits/s, 32 clients", func(ctx context.Context, dsn string) (float64, error) { return benchCommits(ctx, dsn, 32, *dur) }},
	}
	ctx := context.Background()
	medians := make([][]float64, len(workloads)) // [workload][target]
	for w, wl := range workloads {
		samples := make([][]float64, len(targets))
		for r := range *rounds {
			for k := range targets {
				ti := k
				if r%2 == 1 {
					ti = len(targets) - 1 - k
				}
				v, err := wl.run(ctx, targets[ti].dsn)
				if err != nil {
					log.Fatalf("%s, %s: %v", targets[ti].name, wl.name, err)
				}
				samples[ti] = append(samples[ti], v)
			}
		}
		medians[w] = make([]float64, len(targets))
		for ti := range targets {
			medians[w][ti] = median(samples[ti])
		}
		if *verbose {
			fmt.Printf("%s: %v\n", wl.name, samples)
		}
	}
	for _, t := range targets {
		if t.pid != 0 {
			fmt.Printf("%s peak RSS (VmHWM) after all workloads (up to %d connections): %s\n", t.name, *clients, vmHWM(t.pid))
		}
	}
	fmt.Printf("\nmedian of %d rounds\n%-34s", *rounds, "workload")
	for _, t := range targets {
		fmt.Printf("%16s", t.name)
	}
	if len(targets) == 2 {
		fmt.Printf("%16s", "minipg/pg")
	}
	fmt.Println()
	for w, wl := range workloads {
		fmt.Printf("%-34s", wl.name)
		for _, v := range medians[w] {
			fmt.Printf("%16.0f", v)
		}
		if len(targets) == 2 && medians[w][1] > 0 {
			fmt.Printf("%16.2f", medians[w][0]/medians[w][1])
		}
		fmt.Println()
	}
}

// median returns the middle value of xs (the mean of the two middle ones
// for an even count).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func startServer(bin string) (target, func()) {
	dir, err := os.MkdirTemp("", "minipg-bench")
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, "-D", filepath.Join(dir, "data"), "-p", fmt.Sprint(port), "-h", "127.0.0.1")
	logf, _ := os.Create(filepath.Join(dir, "server.log"))
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	dsn := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			log.Fatalf("minipg did not start (log in %s)", dir)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return target{name: "minipg", dsn: dsn, pid: cmd.Process.Pid}, func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
		os.RemoveAll(dir)
	}
}

// vmHWM returns the peak resident set size of a process as /proc reports it.
func vmHWM(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))
		}
	}
	return "unknown"
}

func connect(ctx context.Context, dsn string) *pgx.Conn {
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		log.Fatal(err)
	}
	return c
}

func recreate(ctx context.Context, c *pgx.Conn, table, cols string) error {
	if _, err := c.Exec(ctx, "DROP TABLE IF EXISTS "+table); err != nil {
		return err
	}
	_, err := c.Exec(ctx, "CREATE TABLE "+table+" ("+cols+")")
	return err
}

// timed runs fn repeatedly for d and returns calls per second.
func timed(d time.Duration, fn func(i int) error) (float64, error) {
	start := time.Now()
	n := 0
	for time.Since(start) < d {
		if err := fn(n); err != nil {
			return 0, err
		}
		n++
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

func benchInsert(ctx context.Context, dsn string, d time.Duration) (float64, error) {
	c := connect(ctx, dsn)
	defer c.Close(ctx)
	if err := recreate(ctx, c, "bench_ins", "id int PRIMARY KEY, v text"); err != nil {
		return 0, err
	}
	return timed(d, func(i int) error {
		_, err := c.Exec(ctx, "INSERT INTO bench_ins VALUES ($1, $2)", i, "value")
		return err
	})
}

func benchSelect(ctx context.Context, dsn string, d time.Duration) (float64, error) {
	c := connect(ctx, dsn)
	defer c.Close(ctx)
	if err := recreate(ctx, c, "bench_sel", "id int PRIMARY KEY, v text"); err != nil {
		return 0, err
	}
	const n = 10000
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = []any{int32(i), fmt.Sprintf("value %d", i)}
	}
	if _, err := c.CopyFrom(ctx, pgx.Identifier{"bench_sel"}, []string{"id", "v"}, pgx.CopyFromRows(rows)); err != nil {
		return 0, err
	}
	return timed(d, func(i int) error {
		var v string
		return c.QueryRow(ctx, "SELECT v FROM bench_sel WHERE id = $1", (i*7919)%n).Scan(&v)
	})
}

func benchCopy(ctx context.Context, dsn string, n int) (float64, error) {
	c := connect(ctx, dsn)
	defer c.Close(ctx)
	if err := recreate(ctx, c, "bench_copy", "id int, v int, t text"); err != nil {
		return 0, err
	}
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = []any{int32(i), int32(i * 3), "some text of a row"}
	}
	start := time.Now()
	got, err := c.CopyFrom(ctx, pgx.Identifier{"bench_copy"}, []string{"id", "v", "t"}, pgx.CopyFromRows(rows))
	if err != nil {
		return 0, err
	}
	if int(got) != n {
		return 0, fmt.Errorf("COPY reported %d rows, want %d", got, n)
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// concurrently runs clients workers at once until d has passed and returns
// the statements per second they ran together. open(w) prepares worker w in
// its goroutine and gives its step, which runs round i and says how many
// statements that was, and what to release at the end (nil: nothing). The
// first error stops its worker and is returned.
func concurrently(clients int, d time.Duration, open func(w int) (step func(i int) (int, error), release func(), err error)) (float64, error) {
	var ops atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			step, release, err := open(w)
			if err != nil {
				firstErr.CompareAndSwap(nil, err)
				return
			}
			if release != nil {
				defer release()
			}
			for i := 0; time.Since(start) < d; i++ {
				n, err := step(i)
				if err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
				ops.Add(int64(n))
			}
		}(w)
	}
	wg.Wait()
	if e := firstErr.Load(); e != nil {
		return 0, e.(error)
	}
	return float64(ops.Load()) / time.Since(start).Seconds(), nil
}

// benchConcurrent runs clients connections, each alternating single-row
// INSERTs and primary-key SELECTs, and returns statements per second.
func benchConcurrent(ctx context.Context, dsn string, clients int, d time.Duration) (float64, error) {
	c := connect(ctx, dsn)
	if err := recreate(ctx, c, "bench_conc", "id int PRIMARY KEY, v text"); err != nil {
		return 0, err
	}
	c.Close(ctx)
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return 0, err
	}
	cfg.MaxConns = int32(clients)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return 0, err
	}
	defer pool.Close()
	return concurrently(clients, d, func(w int) (func(int) (int, error), func(), error) {
		return func(i int) (int, error) {
			id := w*10_000_000 + i
			if _, err := pool.Exec(ctx, "INSERT INTO bench_conc VALUES ($1, 'v')", id); err != nil {
				return 0, err
			}
			var v string
			return 2, pool.QueryRow(ctx, "SELECT v FROM bench_conc WHERE id = $1", id).Scan(&v)
		}, nil, nil
	})
}

// benchCommits runs clients connections committing one-row transactions.
func benchCommits(ctx context.Context, dsn string, clients int, d time.Duration) (float64, error) {
	c := connect(ctx, dsn)
	if err := recreate(ctx, c, "bench_commit", "id int, v text"); err != nil {
		return 0, err
	}
	c.Close(ctx)
	return concurrently(clients, d, func(w int) (func(int) (int, error), func(), error) {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			return nil, nil, err
		}
		return func(i int) (int, error) {
			_, err := conn.Exec(ctx, "INSERT INTO bench_commit VALUES ($1, 'v')", w*10_000_000+i)
			return 1, err
		}, func() { conn.Close(ctx) }, nil
	})
}

// Command minipg-bench reproduces the measurements minipg is built on, with
// minipg under each free-space policy and PostgreSQL 15 side by side in one
// run, so that the ratios are meaningful on a noisy machine.
//
//	minipg-bench [rt]        pgx round trips, COPY, commits (the default)
//	minipg-bench extend      concurrent COPY / INSERT into one table: relation extension
//	minipg-bench smalltables many small tables, every insert through the free-space logic
//	minipg-bench startup     start-up time and memory against data size, clean stop and kill -9
//	minipg-bench load | locality | run | delivery-pass | neworders | check   TPC-C (tpcc.go)
//	minipg-bench report --html FILE RUN.json...   one page from the JSON of several runs
//
// Every subcommand shares one frame (frame.go): -server BINARY starts a
// fresh minipg per fsm_policy (-policies, default every policy the server
// registers), -pg DSN adds PostgreSQL 15, -rounds N repeats each
// measurement with the order of the targets alternating and reports the
// median with min-max, -json FILE keeps every figure (always written,
// by default under bench-results/), -html FILE draws the report page.
// A started minipg's data directory is removed when it stops; with
// MINIPG_BENCH_LOGDIR=DIR in the environment its server log is kept there.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"maps"
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

// startedServer is a minipg started by startServerWith.
type startedServer struct {
	dsn     string
	pid     int    // server process, to read VmHWM from
	dataDir string // its fresh data directory
	proc    *serverProc
}

func main() {
	if runSubcommand() { // the other subcommands, tpcc.go
		return
	}
	log.SetFlags(0)
	if err := rtMain(os.Args[1:]); err != nil {
		log.Fatal("minipg-bench: ", err)
	}
}

// rtMain is the round-trip benchmark: each workload runs on every target
// in turn, -rounds times, the order of the targets alternating between
// rounds, and the median of a target's rounds is reported: a slow moment
// of a noisy machine then hits all servers alike and no single run
// decides a figure.
func rtMain(args []string) (err error) {
	fs := flag.NewFlagSet("minipg-bench rt", flag.ExitOnError)
	ff := addFrameFlags(fs, 3)
	dur := fs.Duration("duration", 3*time.Second, "duration of each timed workload")
	copyRows := fs.Int("copy-rows", 200000, "rows per COPY workload")
	clients := fs.Int("clients", 32, "connections of the concurrent workload")
	fs.Parse(args) //nolint:errcheck // ExitOnError
	f, err := newFrame("rt", args, ff, nil)
	if err != nil {
		return err
	}
	defer f.end(&err)
	workloads := []struct {
		name string
		run  func(ctx context.Context, dsn string) (float64, error)
	}{
		{"single-row INSERT", func(ctx context.Context, dsn string) (float64, error) { return benchInsert(ctx, dsn, *dur) }},
		{"primary-key SELECT", func(ctx context.Context, dsn string) (float64, error) { return benchSelect(ctx, dsn, *dur) }},
		{"COPY", func(ctx context.Context, dsn string) (float64, error) { return benchCopy(ctx, dsn, *copyRows) }},
		{fmt.Sprintf("%d conns INSERT+SELECT", *clients), func(ctx context.Context, dsn string) (float64, error) {
			return benchConcurrent(ctx, dsn, *clients, *dur)
		}},
		{"commits, 1 client", func(ctx context.Context, dsn string) (float64, error) { return benchCommits(ctx, dsn, 1, *dur) }},
		{"commits, 8 clients", func(ctx context.Context, dsn string) (float64, error) { return benchCommits(ctx, dsn, 8, *dur) }},
		{"commits, 32 clients", func(ctx context.Context, dsn string) (float64, error) { return benchCommits(ctx, dsn, 32, *dur) }},
	}
	units := []string{"round trips/s", "round trips/s", "rows/s", "statements/s", "commits/s", "commits/s", "commits/s"}
	ctx := context.Background()
	f.steps(len(workloads))
	for w, wl := range workloads {
		err := f.each(wl.name, func(_ int, t *benchTarget) error {
			v, err := wl.run(ctx, t.dsn)
			if err != nil {
				return err
			}
			f.run.add("rt", wl.name, "", 0, t.Name, units[w], units[w], v)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
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

// startServerWith starts the minipg binary bin on a free loopback port
// with a fresh data directory and settings given as -c name=value, waits
// until it accepts connections, and returns it with a function that stops
// it and removes the directory.
func startServerWith(bin string, settings map[string]string) (startedServer, func(), error) {
	dir, err := os.MkdirTemp("", "minipg-bench")
	if err != nil {
		return startedServer{}, nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return startedServer{}, nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	data := filepath.Join(dir, "data")
	args := []string{"-D", data, "-p", fmt.Sprint(port), "-h", "127.0.0.1"}
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		args = append(args, "-c", k+"="+settings[k])
	}
	p := &serverProc{bin: bin, args: args, dir: dir, port: port}
	if err := p.launch(60 * time.Second); err != nil {
		os.RemoveAll(dir)
		return startedServer{}, nil, err
	}
	stop := func() {
		p.halt(os.Interrupt)
		keepServerLog(dir, port)
		os.RemoveAll(dir)
	}
	dsn := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	return startedServer{dsn: dsn, pid: p.pid(), dataDir: data, proc: p}, stop, nil
}

// keepServerLog copies a stopped server's log to the directory named by
// the environment variable MINIPG_BENCH_LOGDIR, if set, as
// minipg-PORT.log (the data directory itself is removed).
func keepServerLog(dir string, port int) {
	to := os.Getenv("MINIPG_BENCH_LOGDIR")
	if to == "" {
		return
	}
	b, err := os.ReadFile(filepath.Join(dir, "server.log"))
	if err == nil {
		err = os.WriteFile(filepath.Join(to, fmt.Sprintf("minipg-%d.log", port)), b, 0o644)
	}
	if err != nil {
		log.Printf("keeping the server log: %v", err)
	}
}

// serverProc is a minipg process of startServerWith, which can be stopped
// and started again on the same data directory and port.
type serverProc struct {
	bin    string
	args   []string
	dir    string // holds data/ and server.log
	port   int
	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has ended and been reaped
	logf   *os.File
}

// launch starts the process and waits until it accepts connections, at
// most wait.
func (p *serverProc) launch(wait time.Duration) error {
	logf, err := os.OpenFile(filepath.Join(p.dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(p.bin, p.args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return err
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	p.cmd, p.exited, p.logf = cmd, exited, logf
	deadline := time.Now().Add(wait)
	for {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", p.port))
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case <-exited:
			logf.Close()
			b, _ := os.ReadFile(filepath.Join(p.dir, "server.log"))
			return fmt.Errorf("minipg %s exited: %s", strings.Join(p.args, " "), strings.TrimSpace(string(b)))
		default:
		}
		if time.Now().After(deadline) {
			p.halt(os.Kill)
			return fmt.Errorf("minipg did not start in %v (%s)", wait, strings.Join(p.args, " "))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// halt sends sig (os.Interrupt: a clean stop; os.Kill: kill -9) and waits
// until the process has ended.
func (p *serverProc) halt(sig os.Signal) {
	_ = p.cmd.Process.Signal(sig)
	<-p.exited
	p.logf.Close()
}

func (p *serverProc) pid() int { return p.cmd.Process.Pid }

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

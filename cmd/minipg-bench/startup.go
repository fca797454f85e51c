package main

// startup: how long a server takes to start, and how much memory it holds,
// against the size of its data. For each size (-w, in warehouses) every
// target is loaded, CHECKPOINTed and measured: memory after the load; a
// clean stop and start, timed until the first index lookups on the three
// largest tables answer; memory right after, then at the end of a short
// TPC-C mix (-mix); kill -9 at the end of the mix (all processes of the
// server) and a start timed the same way, which replays the mix's WAL.
// minipg runs once per -index-storage value; PostgreSQL is stopped and
// started with -pgctl (the user running minipg-bench must be allowed to),
// and its memory is the sum over its processes, so both are counted as
// the proportional set size (PSS) of every process of the server.

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"minipg/tpcc"
)

func startupMain(args []string) (err error) {
	fset := flag.NewFlagSet("minipg-bench startup", flag.ExitOnError)
	ff := addFrameFlags(fset, 1)
	sizesFlag := fset.String("w", "1,4,16", "warehouses, comma-separated: each size is loaded in turn")
	workers := fset.Int("workers", 4, "loader connections")
	scale := fset.Float64("scale", 1, "scale of the per-district and item counts (0.01 for quick tests)")
	storages := fset.String("index-storage", "memory,disk", "index_storage values of the minipg servers, comma-separated")
	pgctl := fset.String("pgctl", "pg_ctlcluster 15 main", "command that stops (STOP -m fast) and starts (START) the PostgreSQL of -pg, run by sh")
	schema := fset.String("schema", "", "PostgreSQL: schema of the bmsql_* tables (created if absent)")
	mix := fset.Duration("mix", time.Minute, "TPC-C mix after the clean restart: memory under load, and the WAL the crash restart replays")
	terminals := fset.Int("terminals", 8, "terminals of the mix")
	wait := fset.Duration("wait", 10*time.Minute, "longest start to wait for")
	fset.Parse(args) //nolint:errcheck // ExitOnError
	sizes, err := parseInts(*sizesFlag)
	if err != nil {
		return fmt.Errorf("-w %w", err)
	}
	var variants []variant
	for _, v := range strings.Split(*storages, ",") {
		v = strings.TrimSpace(v)
		variants = append(variants, variant{suffix: "/index=" + v, settings: map[string]string{"index_storage": v}})
	}
	f, err := newFrame("startup", args, ff, variants)
	if err != nil {
		return err
	}
	defer f.end(&err)
	ctx := context.Background()
	f.steps(len(sizes))
	for _, w := range sizes {
		err := f.each(fmt.Sprintf("%d warehouse(s)", w), func(_ int, t *benchTarget) error {
			connect, err := t.tpccConnector(ctx, *schema)
			if err != nil {
				return err
			}
			s := &startupTarget{t: t, connect: connect, pgctl: *pgctl, wait: *wait}
			if !t.isPG() && t.proc == nil {
				return errors.New("minipg targets must be started by -server (they are restarted)")
			}
			add := func(metric, unit string, v float64) {
				f.run.add("startup", "", "warehouses", float64(w), t.Name, metric, unit, v)
			}
			f.prog.logf("%s: loading %d warehouse(s)", t.Name, w)
			if _, err := tpcc.Load(ctx, connect, tpcc.LoadOptions{Warehouses: w, Workers: *workers, Scale: *scale,
				Mode: tpcc.ModeBatch, Chunk: tpcc.DefaultChunk, Seed: 1}); err != nil {
				return fmt.Errorf("load: %w", err)
			}
			return s.measure(ctx, add, *mix, *terminals)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// startupTarget restarts one target and reads its memory.
type startupTarget struct {
	t       *benchTarget
	connect tpcc.Connector
	pgctl   string
	wait    time.Duration
}

// measure records, for the data just loaded, its size, the memory after
// the load, the clean and the crash restart and the memory after each.
func (s *startupTarget) measure(ctx context.Context, add func(metric, unit string, v float64), mix time.Duration, terminals int) error {
	c, err := s.connect(ctx)
	if err != nil {
		return err
	}
	size, err := tablesSize(ctx, c)
	if err == nil {
		_, err = c.Exec(ctx, "CHECKPOINT")
	}
	c.Close(ctx)
	if err != nil {
		return err
	}
	add("data size (tables and indexes)", "MB", float64(size)/(1<<20))
	pss, err := s.memory(ctx)
	if err != nil {
		return err
	}
	add("memory after the load (PSS)", "MB", pss)

	d, err := s.restart(ctx, syscall.SIGINT)
	if err != nil {
		return fmt.Errorf("restart after a clean stop: %w", err)
	}
	add("start after a clean stop", "s", d.Seconds())
	if pss, err = s.memory(ctx); err != nil {
		return err
	}
	add("memory right after the start (PSS)", "MB", pss)
	if mix > 0 {
		res, err := tpcc.Run(ctx, s.connect, tpcc.RunOptions{Terminals: terminals, Duration: mix, Seed: 1, RollbackPct: 1})
		if err != nil {
			return fmt.Errorf("mix: %w", err)
		}
		add("tpmC of the mix", "New-Orders/min", res.TpmC())
		if pss, err = s.memory(ctx); err != nil {
			return err
		}
		add("memory at the end of the mix (PSS)", "MB", pss)
	}
	if d, err = s.restart(ctx, syscall.SIGKILL); err != nil {
		return fmt.Errorf("restart after kill -9: %w", err)
	}
	add("start after kill -9", "s", d.Seconds())
	if pss, err = s.memory(ctx); err != nil {
		return err
	}
	add("memory right after the crash restart (PSS)", "MB", pss)
	return nil
}

// restart stops the target (SIGINT: a clean stop, SIGKILL: kill -9 of
// every process of the server) and starts it again, and returns the time
// from the start command until the first index lookups answered.
func (s *startupTarget) restart(ctx context.Context, sig syscall.Signal) (time.Duration, error) {
	if s.t.isPG() {
		return s.restartPG(ctx, sig)
	}
	p := s.t.proc
	p.halt(sig)
	start := time.Now()
	if err := p.launch(s.wait); err != nil {
		return 0, err
	}
	s.t.pid = p.pid()
	if err := s.firstLookups(ctx, start.Add(s.wait)); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

func (s *startupTarget) restartPG(ctx context.Context, sig syscall.Signal) (time.Duration, error) {
	if sig == syscall.SIGKILL {
		pid, err := s.postmasterPID(ctx)
		if err != nil {
			return 0, err
		}
		tree := processTree(pid)
		for _, p := range tree {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		for _, p := range tree {
			for syscall.Kill(p, 0) == nil {
				time.Sleep(10 * time.Millisecond)
			}
		}
	} else if out, err := exec.Command("sh", "-c", s.pgctl+" stop -m fast").CombinedOutput(); err != nil {
		return 0, fmt.Errorf("%s stop: %v: %s", s.pgctl, err, out)
	}
	start := time.Now()
	if out, err := exec.Command("sh", "-c", s.pgctl+" start").CombinedOutput(); err != nil {
		return 0, fmt.Errorf("%s start: %v: %s", s.pgctl, err, out)
	}
	if err := s.firstLookups(ctx, start.Add(s.wait)); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// firstLookups connects until the server answers, then looks up one row
// by primary key in each of the three largest tables.
func (s *startupTarget) firstLookups(ctx context.Context, deadline time.Time) error {
	for {
		c, err := s.connect(ctx)
		if err == nil {
			var n int
			for _, q := range []string{
				"SELECT count(*) FROM bmsql_stock WHERE s_w_id = 1 AND s_i_id = 1",
				"SELECT count(*) FROM bmsql_customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 1",
				"SELECT count(*) FROM bmsql_order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 1",
			} {
				if err = c.QueryRow(ctx, q).Scan(&n); err != nil {
					break
				}
			}
			c.Close(ctx)
			if err == nil {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer after the start: %w", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// postmasterPID reads the first line of PostgreSQL's postmaster.pid.
func (s *startupTarget) postmasterPID(ctx context.Context) (int, error) {
	c, err := s.connect(ctx)
	if err != nil {
		return 0, err
	}
	defer c.Close(ctx)
	var dir string
	if err := c.QueryRow(ctx, "SHOW data_directory").Scan(&dir); err != nil {
		return 0, err
	}
	b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return strconv.Atoi(strings.TrimSpace(line))
}

// memory returns the PSS of the target's processes in MB.
func (s *startupTarget) memory(ctx context.Context) (float64, error) {
	pid := s.t.pid
	if s.t.isPG() {
		var err error
		if pid, err = s.postmasterPID(ctx); err != nil {
			return 0, err
		}
	}
	var kb int64
	for _, p := range processTree(pid) {
		v, err := pssKB(p)
		if err != nil {
			return 0, err
		}
		kb += v
	}
	return float64(kb) / 1024, nil
}

// tablesSize sums pg_total_relation_size over the TPC-C tables.
func tablesSize(ctx context.Context, c *pgx.Conn) (int64, error) {
	var total int64
	for _, t := range tpcc.Tables {
		var n int64
		if err := c.QueryRow(ctx, "SELECT pg_total_relation_size($1::regclass)", t.Name).Scan(&n); err != nil {
			return 0, fmt.Errorf("size of %s: %w", t.Name, err)
		}
		total += n
	}
	return total, nil
}

// processTree returns pid and its descendants, read from /proc.
func processTree(pid int) []int {
	children := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, err := parentPID(p); err == nil {
			children[pp] = append(children[pp], p)
		}
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// parentPID reads the ppid field of /proc/PID/stat (the fourth, after
// the command name in parentheses, which may hold spaces).
func parentPID(pid int) (int, error) {
	stat, err := readStat(pid)
	if err != nil {
		return 0, err
	}
	return parseStatPPID(stat)
}

// readStat returns process pid's /proc/PID/stat line.
func readStat(pid int) (string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return string(b), err
}

func parseStatPPID(stat string) (int, error) {
	f, err := statFields(stat)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(f[1])
}

// userHZ is the unit of the CPU times in /proc/PID/stat (USER_HZ, 100 on
// every Linux architecture the kernel reports to user space with).
const userHZ = 100

// processCPU returns the CPU time, user and system, process pid has used so
// far, in seconds, from /proc/PID/stat.
func processCPU(pid int) (float64, error) {
	stat, err := readStat(pid)
	if err != nil {
		return 0, err
	}
	return parseStatCPU(stat)
}

// parseStatCPU reads utime and stime (the 14th and 15th fields of a stat
// line, the 12th and 13th after the command name) in seconds.
func parseStatCPU(stat string) (float64, error) {
	f, err := statFields(stat)
	if err != nil {
		return 0, err
	}
	if len(f) < 13 {
		return 0, fmt.Errorf("short stat %q", stat)
	}
	utime, err := strconv.ParseUint(f[11], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("utime in %q: %w", stat, err)
	}
	stime, err := strconv.ParseUint(f[12], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("stime in %q: %w", stat, err)
	}
	return float64(utime+stime) / userHZ, nil
}

// statFields returns the fields of a /proc/PID/stat line after the command
// name (state, ppid, ...).
func statFields(stat string) ([]string, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return nil, fmt.Errorf("no command name in %q", stat)
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 2 {
		return nil, fmt.Errorf("short stat %q", stat)
	}
	return f, nil
}

// pssKB reads the Pss line of /proc/PID/smaps_rollup; a process that has
// gone meanwhile counts 0.
func pssKB(pid int) (int64, error) {
	fh, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
		return 0, nil // exited since the tree was read (a backend whose client left)
	}
	if err != nil {
		return 0, err
	}
	defer fh.Close()
	kb, err := parsePss(bufio.NewScanner(fh))
	if err != nil && exited(pid) {
		return 0, nil
	}
	return kb, err
}

// exited reports whether pid is gone or a zombie, whose smaps are empty.
func exited(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f, err := statFields(string(b))
	return err == nil && (f[0] == "Z" || f[0] == "X")
}

func parsePss(sc *bufio.Scanner) (int64, error) {
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "Pss:"); ok {
			v, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
			return strconv.ParseInt(v, 10, 64)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, errors.New("no Pss line")
}

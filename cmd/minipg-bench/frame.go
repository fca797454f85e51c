package main

// The frame every subcommand runs in: which servers it measures (a fresh
// minipg per fsm_policy, and PostgreSQL 15 when a DSN is given), rounds
// with the order of the targets alternating, progress on the terminal, and
// the figures as a table, a JSON file and optionally an HTML page.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// frameFlags are the flags every subcommand shares.
type frameFlags struct {
	server    string
	policies  string
	minipgDSN string
	pgDSN     string
	rounds    int
	first     int // number of the first round (1-based): which way the order of targets starts
	jsonPath  string
	htmlPath  string
	progress  string
	settings  settingList
	vary      settingList // -vary name=v1,v2: one server per value
	dsns      targetFlag  // TPC-C subcommands: -dsn NAME=DSN
}

// settingList collects repeated -c name=value.
type settingList []string

func (s *settingList) String() string { return strings.Join(*s, ",") }
func (s *settingList) Set(v string) error {
	if !strings.Contains(v, "=") {
		return fmt.Errorf("%s: want name=value", v)
	}
	*s = append(*s, v)
	return nil
}

func addFrameFlags(fs *flag.FlagSet, defRounds int) *frameFlags {
	f := &frameFlags{}
	fs.StringVar(&f.server, "server", "", "minipg binary: start a fresh server per fsm_policy on a free port")
	fs.StringVar(&f.policies, "policies", "", "fsm_policy values to run, comma-separated (default: every policy the server registers); an entry POLICY:NAME=VALUE:... gives that target its own settings")
	fs.StringVar(&f.minipgDSN, "minipg", "", "DSN of a running minipg (a target named minipg, instead of -server)")
	fs.StringVar(&f.pgDSN, "pg", os.Getenv("PGBENCH_DSN"), "DSN of a PostgreSQL 15 to run side by side")
	fs.IntVar(&f.rounds, "rounds", defRounds, "rounds on each target, the order of the targets alternating (medians reported)")
	fs.IntVar(&f.first, "first-round", 1, "number the rounds from this one: an even number starts with the targets in reverse order (so -first-round 2 -rounds 1 runs the second round of an alternated series on its own)")
	fs.StringVar(&f.jsonPath, "json", "", "write every figure as JSON here (default bench-results/COMMAND-TIME.json)")
	fs.StringVar(&f.htmlPath, "html", "", "also write a self-contained HTML report here")
	fs.StringVar(&f.progress, "progress", "auto", "auto (a bar on a terminal, lines otherwise), bar, lines or none")
	fs.Var(&f.settings, "c", "setting name=value for every minipg started by -server (repeatable; debug_pprof_addr=HOST:PORT gives the k-th server started, from 0, PORT+k)")
	fs.Var(&f.vary, "vary", "setting name=v1,v2,...: one minipg started by -server per value and policy, named policy/name=value (repeatable: every combination)")
	return f
}

// varied crosses variants (nil: one plain) with every -vary setting: each
// value of each named setting gives a server of its own, named after it.
func (ff *frameFlags) varied(variants []variant) []variant {
	if len(variants) == 0 {
		variants = []variant{{}}
	}
	for _, kv := range ff.vary {
		name, values, _ := strings.Cut(kv, "=")
		var next []variant
		for _, v := range variants {
			for _, val := range strings.Split(values, ",") {
				val = strings.TrimSpace(val)
				settings := map[string]string{name: val}
				for k, x := range v.settings {
					settings[k] = x
				}
				next = append(next, variant{suffix: v.suffix + "/" + name + "=" + val, settings: settings})
			}
		}
		variants = next
	}
	return variants
}

// benchTarget is one server a subcommand measures.
type benchTarget struct {
	TargetInfo
	dsn     string
	pid     int         // server process (VmHWM), 0 if not started here
	dataDir string      // data directory of a server started here
	proc    *serverProc // the process of a server started here
}

func (t *benchTarget) isPG() bool { return t.Kind == "postgresql" }

// variant is one configuration of the minipg servers a subcommand needs
// beyond the policy (smalltables: the small-table threshold).
type variant struct {
	suffix   string
	settings map[string]string
}

// frame is a subcommand's run: its targets, progress and figures.
type frame struct {
	ff      *frameFlags
	run     *Run
	targets []*benchTarget
	prog    *progress
	stops   []func()
	mu      sync.Mutex // what targets measured at once (eachRound) record into run
}

// newFrame starts or names the targets. variants (nil: one plain) are
// started per policy; PostgreSQL runs once.
func newFrame(cmd string, args []string, ff *frameFlags, variants []variant) (*frame, error) {
	if ff.rounds < 1 || ff.first < 1 {
		return nil, fmt.Errorf("-rounds %d -first-round %d: both must be at least 1", ff.rounds, ff.first)
	}
	f := &frame{ff: ff, run: &Run{Command: cmd, Args: redactArgs(args), Started: time.Now().UTC(), Rounds: ff.rounds}}
	variants = ff.varied(variants)
	switch {
	case ff.server != "":
		policies, err := f.policyList()
		if err != nil {
			return nil, err
		}
		for _, entry := range policies {
			pol, own, err := parsePolicyEntry(entry)
			if err != nil {
				f.close()
				return nil, err
			}
			for _, v := range variants {
				settings := map[string]string{"fsm_policy": pol}
				for _, kv := range ff.settings {
					k, val, _ := strings.Cut(kv, "=")
					settings[k] = val
				}
				for k, val := range v.settings {
					settings[k] = val
				}
				for _, kv := range own {
					k, val, _ := strings.Cut(kv, "=")
					settings[k] = val
				}
				if err := spreadPprofAddr(settings, len(f.targets)); err != nil {
					f.close()
					return nil, err
				}
				t, stop, err := startServerWith(ff.server, settings)
				if err != nil {
					f.close()
					return nil, err
				}
				f.stops = append(f.stops, stop)
				name := "minipg-" + pol
				for _, kv := range own {
					name += "/" + kv
				}
				bt := &benchTarget{TargetInfo: TargetInfo{Name: name + v.suffix, Kind: "minipg", Policy: pol,
					Settings: settings}, dsn: t.dsn, pid: t.pid, dataDir: t.dataDir, proc: t.proc}
				f.targets = append(f.targets, bt)
			}
		}
	case ff.minipgDSN != "":
		bt := &benchTarget{TargetInfo: TargetInfo{Name: "minipg", Kind: "minipg"}, dsn: ff.minipgDSN}
		if pol, err := showSetting(ff.minipgDSN, "fsm_policy"); err == nil {
			bt.Policy = pol
		}
		f.targets = append(f.targets, bt)
	}
	if ff.pgDSN != "" {
		f.targets = append(f.targets, &benchTarget{TargetInfo: TargetInfo{Name: "postgresql", Kind: "postgresql"}, dsn: ff.pgDSN})
	}
	for i, d := range ff.dsns {
		name := fmt.Sprintf("db%d", i+1)
		if k, v, ok := strings.Cut(d, "="); ok && !strings.Contains(k, " ") && !strings.Contains(k, "/") {
			name, d = k, v
		}
		t := &benchTarget{TargetInfo: TargetInfo{Name: name, Kind: "minipg"}, dsn: d}
		if pol, err := showSetting(d, "fsm_policy"); err != nil {
			t.Kind = "postgresql" // no fsm_policy setting: not a minipg
		} else {
			t.Policy = pol
		}
		f.targets = append(f.targets, t)
	}
	if len(f.targets) == 0 {
		return nil, errors.New("give -server BINARY (and/or -pg DSN), or -minipg DSN, or -dsn DSN")
	}
	// Versions: "VERSION: target, target", one line per version.
	var versions []string
	byVersion := map[string][]string{}
	for _, t := range f.targets {
		f.run.Targets = append(f.run.Targets, t.TargetInfo)
		v, err := showSetting(t.dsn, "server_version")
		if err != nil {
			v = "unknown (" + err.Error() + ")"
		}
		if byVersion[v] == nil {
			versions = append(versions, v)
		}
		byVersion[v] = append(byVersion[v], t.Name)
	}
	for _, v := range versions {
		f.run.Versions = append(f.run.Versions, "server_version "+v+": "+strings.Join(byVersion[v], ", "))
	}
	f.prog = newProgress(ff.progress, cmd)
	return f, nil
}

// spreadPprofAddr gives the i-th server started by one run (from 0) the
// debug_pprof_addr port of -c plus i, since every target's server runs
// from the start to the end of the run, and logs where each listens.
func spreadPprofAddr(settings map[string]string, i int) error {
	addr := settings["debug_pprof_addr"]
	if addr == "" {
		return nil
	}
	host, port, err := net.SplitHostPort(addr)
	n, perr := strconv.Atoi(port)
	if err != nil || perr != nil || n <= 0 || n+i > 65535 {
		return fmt.Errorf("-c debug_pprof_addr=%s: want HOST:PORT", addr)
	}
	settings["debug_pprof_addr"] = net.JoinHostPort(host, strconv.Itoa(n+i))
	log.Printf("server %d (fsm_policy %s): pprof on %s", i, settings["fsm_policy"], settings["debug_pprof_addr"])
	return nil
}

// parsePolicyEntry splits a -policies entry, POLICY or
// POLICY:NAME=VALUE:..., into the policy and the settings of that target
// alone (which win over -c and -vary).
func parsePolicyEntry(entry string) (pol string, settings []string, err error) {
	parts := strings.Split(strings.TrimSpace(entry), ":")
	if parts[0] == "" {
		return "", nil, fmt.Errorf("-policies %q: an entry without a policy", entry)
	}
	for _, kv := range parts[1:] {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return "", nil, fmt.Errorf("-policies %q: %q is not NAME=VALUE", entry, kv)
		}
	}
	return parts[0], parts[1:], nil
}

// policyList returns -policies, or asks a server started for the purpose
// which policies it registers: CREATE TABLE with an unknown fsm_policy
// fails with the valid values in its detail, as PostgreSQL words a bad enum
// option.
func (f *frame) policyList() ([]string, error) {
	if f.ff.policies != "" {
		return strings.Split(f.ff.policies, ","), nil
	}
	t, stop, err := startServerWith(f.ff.server, nil)
	if err != nil {
		return nil, err
	}
	defer stop()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, t.dsn)
	if err != nil {
		return nil, err
	}
	defer c.Close(ctx)
	_, err = c.Exec(ctx, "CREATE TABLE minipg_bench_policies (a int) WITH (fsm_policy = '-')")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Detail == "" {
		return nil, fmt.Errorf("asking the server for its fsm_policy values: got %v", err)
	}
	return parsePolicyDetail(pe.Detail)
}

var (
	urlPassword = regexp.MustCompile(`(://[^:/@\s]*:)[^@\s]*@`)
	kvPassword  = regexp.MustCompile(`(password=)\S+`)
)

// redactArgs hides the passwords of DSNs in the command line kept in the
// JSON and the report.
func redactArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		a = urlPassword.ReplaceAllString(a, "${1}***@")
		out[i] = kvPassword.ReplaceAllString(a, "${1}***")
	}
	return out
}

var quoted = regexp.MustCompile(`"([^"]+)"`)

// parsePolicyDetail reads `Valid values are "a", "b", and "c".`
func parsePolicyDetail(detail string) ([]string, error) {
	var out []string
	for _, m := range quoted.FindAllStringSubmatch(detail, -1) {
		out = append(out, m[1])
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no fsm_policy values in %q", detail)
	}
	return out, nil
}

func showSetting(dsn, name string) (string, error) {
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return "", err
	}
	defer c.Close(ctx)
	var v string
	err = c.QueryRow(ctx, "SHOW "+name).Scan(&v)
	return v, err
}

// each runs fn for every round and target, the order of the targets
// reversed on odd rounds so that a slow moment of a shared machine hits
// every target alike. desc names the step in the progress output. The
// first error stops the loop.
func (f *frame) each(desc string, fn func(round int, t *benchTarget) error) error {
	return f.eachRound(desc, false, func(round int, t *benchTarget, _ func()) error { return fn(round, t) })
}

// eachRound is each, and with atOnce the targets of a round are measured
// at the same time, one goroutine per target, so that they share the
// machine through the whole measurement rather than take turns on it: fn
// calls ready when its measured part is about to begin, and ready returns
// once every target of the round has called it or returned (in turn,
// ready returns at once). Targets measured at once record under f.mu;
// the failures of a round come back joined after all of it has run.
func (f *frame) eachRound(desc string, atOnce bool, fn func(round int, t *benchTarget, ready func()) error) error {
	for r := range f.ff.rounds {
		order := roundOrder(len(f.targets), f.ff.first+r)
		var started, done sync.WaitGroup
		if atOnce {
			started.Add(len(order)) // before any target can wait on it
		}
		errs := make([]error, len(order))
		for k, ti := range order {
			t := f.targets[ti]
			step := fmt.Sprintf("%s, %s, round %d/%d", desc, t.Name, r+1, f.ff.rounds)
			measure := func(ready func()) {
				if err := fn(r, t, ready); err != nil {
					errs[k] = fmt.Errorf("%s, %s: %w", desc, t.Name, err)
				}
			}
			if !atOnce {
				f.prog.step(step)
				measure(func() {})
				if errs[k] != nil {
					return errs[k]
				}
				continue
			}
			f.prog.step(step + " (targets at once)")
			done.Add(1)
			go func() {
				defer done.Done()
				var once sync.Once
				arrive := func() { once.Do(started.Done) }
				defer arrive()
				measure(func() { arrive(); started.Wait() })
			}()
		}
		done.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
	}
	return nil
}

// roundOrder is the order of n targets in round number round (1-based):
// as given in odd rounds, reversed in even ones.
func roundOrder(n, round int) []int {
	order := make([]int, n)
	for k := range order {
		order[k] = k
		if round%2 == 0 {
			order[k] = n - 1 - k
		}
	}
	return order
}

// steps announces how many calls of each's fn are to come.
func (f *frame) steps(n int) { f.prog.grow(n * f.ff.rounds * len(f.targets)) }

// finish stops the servers, prints the table and writes the JSON (and
// the HTML page when asked).
func (f *frame) finish() error {
	f.prog.done()
	for _, t := range f.targets {
		if t.pid != 0 {
			f.run.note(fmt.Sprintf("%s peak RSS (VmHWM): %s", t.Name, vmHWM(t.pid)))
		}
	}
	f.close()
	f.run.Seconds = time.Since(f.run.Started).Seconds()
	f.run.finish()
	f.run.printTable(os.Stdout)
	path := f.ff.jsonPath
	if path == "" {
		if err := os.MkdirAll("bench-results", 0o755); err != nil {
			return err
		}
		path = filepath.Join("bench-results", f.run.Command+"-"+f.run.Started.Format("20060102-150405")+".json")
	}
	if err := f.run.writeJSON(path); err != nil {
		return err
	}
	fmt.Println("figures written to", path)
	if f.ff.htmlPath != "" {
		if err := writeReport(f.ff.htmlPath, []*Run{f.run}); err != nil {
			return err
		}
		fmt.Println("report written to", f.ff.htmlPath)
	}
	return nil
}

// end finishes the run through finish, also after an error (*err, noted
// in the run), so that the figures measured until then are kept; a failing
// finish sets *err when it is nil.
func (f *frame) end(err *error) {
	if *err != nil {
		f.run.note("stopped early: " + (*err).Error())
	}
	if ferr := f.finish(); ferr != nil && *err == nil {
		*err = ferr
	}
}

func (f *frame) close() {
	for _, stop := range f.stops {
		stop()
	}
	f.stops = nil
}

// progress shows how far a subcommand is: a bar on a terminal, a line per
// step otherwise.
type progress struct {
	mu    sync.Mutex // targets measured at once report together
	mode  string     // bar, lines, none
	cmd   string
	bar   *progressbar.ProgressBar
	total int
	n     int
	start time.Time
}

func newProgress(mode, cmd string) *progress {
	if mode == "auto" {
		mode = "lines"
		if term.IsTerminal(int(os.Stderr.Fd())) {
			mode = "bar"
		}
	}
	if !slices.Contains([]string{"bar", "lines", "none"}, mode) {
		log.Fatalf("-progress %s: want auto, bar, lines or none", mode)
	}
	return &progress{mode: mode, cmd: cmd, start: time.Now()}
}

func (p *progress) grow(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total += n
	if p.mode != "bar" {
		return
	}
	if p.bar == nil {
		p.bar = progressbar.NewOptions(p.total, progressbar.OptionSetWriter(os.Stderr), progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true), progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetDescription(p.cmd), progressbar.OptionFullWidth(),
			progressbar.OptionShowDescriptionAtLineEnd())
		return
	}
	p.bar.ChangeMax(p.total)
}

// step reports that the next step, desc, begins.
func (p *progress) step(desc string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	switch p.mode {
	case "bar":
		if p.bar != nil {
			if p.n > 1 {
				_ = p.bar.Add(1)
			}
			p.bar.Describe(desc)
		}
	case "lines":
		log.Printf("%s [%d/%d %s] %s", p.cmd, p.n, p.total, time.Since(p.start).Round(time.Second), desc)
	}
}

// logf prints a remark without breaking the bar.
func (p *progress) logf(format string, a ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == "bar" && p.bar != nil {
		_ = p.bar.Clear()
	}
	log.Printf(format, a...)
}

func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == "bar" && p.bar != nil {
		_ = p.bar.Finish()
		fmt.Fprintln(os.Stderr)
	}
}

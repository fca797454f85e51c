package crashtest

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"minipg/internal/testutil"
)

var (
	binPath   string
	buildTags string // "invariants" when the tests are built with that tag
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "minipg-crashtest")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "minipg")
	if out, err := exec.Command("go", "build", "-tags", buildTags, "-o", binPath, "minipg/cmd/minipg").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building cmd/minipg: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// syncBuffer collects the server's log.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type server struct {
	cmd  *exec.Cmd
	env  []string // added to the child's environment
	port int
	log  *syncBuffer
	done chan struct{}
	err  error
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startServer starts cmd/minipg on dataDir and waits until it accepts
// connections. The restarted server checks every heap at start-up.
func startServer(t *testing.T, dataDir string, settings ...string) *server {
	t.Helper()
	return startServerEnv(t, dataDir, nil, settings...)
}

// startServerEnv is startServer with env added to the child's environment.
func startServerEnv(t *testing.T, dataDir string, env []string, settings ...string) *server {
	t.Helper()
	s := &server{port: freePort(t), env: env, log: &syncBuffer{}, done: make(chan struct{})}
	// No Unix-domain socket: a killed server would leave its files in /tmp.
	args := []string{"-D", dataDir, "-p", strconv.Itoa(s.port), "-c", "minipg_check_at_start=on",
		"-c", "shared_buffers=512kB", "-c", "unix_socket_directories="}
	args = append(args, testutil.IndexStorageArgs()...)
	for _, kv := range settings {
		args = append(args, "-c", kv)
	}
	s.cmd = exec.Command(binPath, args...)
	s.cmd.Env = append(os.Environ(), env...)
	s.cmd.Stderr = s.log
	s.cmd.Stdout = s.log
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		s.err = s.cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() { s.kill() })
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-s.done:
			t.Fatalf("server exited during start-up: %v\n%s", s.err, s.log)
		default:
		}
		c, err := pgx.Connect(context.Background(), s.dsn())
		if err == nil {
			c.Close(context.Background())
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not start: %v\n%s", err, s.log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *server) dsn() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", s.port)
}

func (s *server) kill() {
	select {
	case <-s.done:
		return
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
}

func (s *server) stop(t *testing.T) {
	t.Helper()
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("server did not stop\n%s", s.log)
	}
}

func connect(t *testing.T, s *server) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(context.Background(), s.dsn())
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, s.log)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// queryInt runs q, which returns one integer.
func queryInt(t *testing.T, c *pgx.Conn, q string) int {
	t.Helper()
	var n int
	if err := c.QueryRow(context.Background(), q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

func exec1(t *testing.T, c *pgx.Conn, sql string, args ...any) {
	t.Helper()
	if _, err := c.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

const nClients = 8

// clientLog is what one client knows about its transactions: seqs whose
// COMMIT was acknowledged, and the one in flight when the server died.
type clientLog struct {
	acked      []int // committed seqs, acknowledged
	inflight   int   // seq of a commit attempt without an answer (0: none)
	copyAcked  []int // COPY batches acknowledged
	copyFlight int
	nextSeq    int // numbers continue across crashes
	nextBatch  int

	// tailClient: batches whose COPY, and whose DELETE, was acknowledged.
	tailIns, tailDel             []int
	tailInsFlight, tailDelFlight int
	nextTail                     int

	// ddlClient: the tables it made, by number.
	ddl       map[int]*ddlTable
	ddlFlight ddlStep
	ddlNext   int
}

const copyRows = 100

func rowID(client, seq int) int { return client*1_000_000 + seq }

// dmlClient runs transactions until the server dies: insert a row, bump
// the client's counter row (its payload changes size, so the new version
// moves between pages or stays, HOT), every 4th delete an older row; one in
// five rolls back.
func dmlClient(dsn string, client int, rng *rand.Rand, lg *clientLog) {
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return
	}
	defer c.Close(ctx)
	for seq := max(lg.nextSeq, 1); ; seq++ {
		lg.nextSeq = seq + 1
		rollback := rng.IntN(5) == 0
		if !rollback {
			lg.inflight = seq
		}
		tx, err := c.Begin(ctx)
		if err != nil {
			return
		}
		_, err = tx.Exec(ctx, "INSERT INTO t (id, client, seq, payload) VALUES ($1, $2, $3, $4)",
			rowID(client, seq), client, seq, strings.Repeat("x", rng.IntN(200)))
		if err == nil {
			_, err = tx.Exec(ctx, "UPDATE counters SET n = n + 1, payload = $2 WHERE client = $1",
				client, strings.Repeat("p", rng.IntN(1500)))
		}
		if err == nil && !rollback && seq%4 == 0 && seq > 3 {
			_, err = tx.Exec(ctx, "DELETE FROM t WHERE id = $1", rowID(client, seq-3))
		}
		if err != nil {
			return
		}
		if rollback {
			if err := tx.Rollback(ctx); err != nil {
				return
			}
			continue
		}
		if err := tx.Commit(ctx); err != nil {
			return
		}
		lg.acked = append(lg.acked, seq)
		lg.inflight = 0
	}
}

// copyClient loads batches of copyRows rows with COPY (one transaction
// each) until the server dies.
func copyClient(dsn string, client int, rng *rand.Rand, lg *clientLog) {
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return
	}
	defer c.Close(ctx)
	for batch := max(lg.nextBatch, 1); ; batch++ {
		lg.nextBatch = batch + 1
		rows := make([][]any, copyRows)
		for i := range rows {
			rows[i] = []any{int32(client), int32(batch), int32(i), strings.Repeat("c", rng.IntN(100))}
		}
		lg.copyFlight = batch
		n, err := c.CopyFrom(ctx, pgx.Identifier{"t2"}, []string{"client", "batch", "i", "payload"}, pgx.CopyFromRows(rows))
		if err != nil {
			return
		}
		if n != copyRows {
			panic(fmt.Sprintf("COPY returned %d", n))
		}
		lg.copyAcked = append(lg.copyAcked, batch)
		lg.copyFlight = 0
	}
}

func setup(t *testing.T, s *server) {
	t.Helper()
	c := connect(t, s)
	exec1(t, c, "CREATE TABLE t (id int PRIMARY KEY, client int NOT NULL, seq int NOT NULL, payload text)")
	exec1(t, c, "CREATE TABLE counters (client int PRIMARY KEY, n int NOT NULL, payload text)")
	exec1(t, c, "CREATE TABLE t2 (client int, batch int, i int, payload text)")
	exec1(t, c, "CREATE TABLE tail (client int, batch int, i int, payload text)")
	for i := 0; i < nClients; i++ {
		exec1(t, c, "INSERT INTO counters VALUES ($1, 0, '')", i)
	}
}

// tally counts what a verification checked: acknowledged commits (and
// acknowledged COPY batches, tail inserts and deletes, DDL steps) found
// as acknowledged, lost ones, and phantoms (changes visible that were
// never acknowledged nor in flight, or half of one).
type tally struct{ checked, lost, phantom int }

func (a *tally) add(b tally) { a.checked += b.checked; a.lost += b.lost; a.phantom += b.phantom }

// problem records one lost or phantom finding: the first few are reported.
func (a *tally) problem(t *testing.T, lost bool, format string, args ...any) {
	t.Helper()
	if lost {
		a.lost++
	} else {
		a.phantom++
	}
	if a.lost+a.phantom <= 10 {
		t.Errorf(format, args...)
	}
}

// verify checks the restarted server against what the clients know, and
// folds in-flight transactions that turned out committed into the logs.
// Lost and phantom changes are test errors; the tally counts them.
//
// With async (synchronous_commit = off) the newest acknowledged commits may
// be lost, but only a suffix: the WAL is replayed in order.
func verify(t *testing.T, s *server, logs []*clientLog, async bool) tally {
	t.Helper()
	ctx := context.Background()
	c := connect(t, s)
	var tl tally
	for client, lg := range logs {
		var n int
		if err := c.QueryRow(ctx, "SELECT n FROM counters WHERE client = $1", client).Scan(&n); err != nil {
			t.Fatalf("counter of client %d: %v", client, err)
		}
		committed := append([]int(nil), lg.acked...)
		switch {
		case n == len(lg.acked):
		case async && n < len(lg.acked):
			committed = committed[:n]
		case n == len(lg.acked)+1 && lg.inflight != 0:
			committed = append(committed, lg.inflight) // committed, the answer was lost
		case n < len(lg.acked):
			tl.problem(t, true, "client %d: counter %d, %d commits acknowledged", client, n, len(lg.acked))
		default:
			tl.problem(t, false, "client %d: counter %d, %d commits acknowledged, in flight %d", client, n, len(lg.acked), lg.inflight)
		}
		tl.checked += len(lg.acked)
		lg.acked, lg.inflight = committed, 0
		want := map[int]bool{}
		for _, seq := range committed {
			want[rowID(client, seq)] = true
			if seq%4 == 0 && seq > 3 {
				delete(want, rowID(client, seq-3))
			}
		}
		rows, err := c.Query(ctx, "SELECT id FROM t WHERE client = $1", client)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int]bool{}
		for rows.Next() {
			var id int
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			if got[id] {
				tl.problem(t, false, "client %d: row %d twice", client, id)
			}
			got[id] = true
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		for id := range want {
			if !got[id] {
				tl.problem(t, true, "client %d: committed row %d (acknowledged) is missing", client, id)
			}
		}
		for id := range got {
			if !want[id] {
				tl.problem(t, false, "client %d: row %d is visible but its transaction was not committed (or it was deleted)", client, id)
			}
		}
		// Index and heap agree (a sample: map order is random).
		sample := 0
		for id := range want {
			if sample++; sample > 100 {
				break
			}
			var x int
			if err := c.QueryRow(ctx, "SELECT seq FROM t WHERE id = $1", id).Scan(&x); err != nil || rowID(client, x) != id {
				t.Fatalf("client %d: primary-key lookup of %d: %v (seq %d)", client, id, err, x)
			}
		}
	}
	// COPY batches: acknowledged ones complete, the one in flight complete
	// or absent, nothing else.
	got := batchCounts(t, c, "t2")
	for client, lg := range logs {
		if async {
			lg.copyAcked = nil // not tracked without durability
			lg.copyFlight = 0
		}
		tl.checked += len(lg.copyAcked)
		for _, b := range lg.copyAcked {
			if got[[2]int{client, b}] != copyRows {
				tl.problem(t, true, "COPY batch %d of client %d: %d rows, want %d (acknowledged)", b, client, got[[2]int{client, b}], copyRows)
			}
			delete(got, [2]int{client, b})
		}
		if f := lg.copyFlight; f != 0 {
			if n, ok := got[[2]int{client, f}]; ok {
				if n != copyRows {
					tl.problem(t, false, "COPY batch %d of client %d in flight: %d rows (partial)", f, client, n)
				}
				lg.copyAcked = append(lg.copyAcked, f)
				delete(got, [2]int{client, f})
			}
			lg.copyFlight = 0
		}
	}
	for k, n := range got {
		if async && n == copyRows {
			continue
		}
		tl.problem(t, false, "COPY batch %d of client %d: %d rows never acknowledged nor in flight", k[1], k[0], n)
	}
	tl.add(verifyTail(t, c, logs))
	tl.add(verifyDDL(t, c, logs))
	return tl
}

// Workload modes. Each runs dmlClient on the clients it gives nothing
// else to:
//
//	dml         every client
//	copy        even clients load COPY batches
//	vacuum      VACUUM t and counters in a loop
//	truncate    client 0 fills and empties the table tail while VACUUM
//	            tail truncates its empty end
//	ddl         clients 0 and 1 create, fill and drop tables
//	checkpoint  CHECKPOINT in a loop
//	async       every client, synchronous_commit = off
var crashModes = []string{"dml", "copy", "vacuum", "truncate", "ddl", "checkpoint", "async"}

// runUntilKill runs the workload of mode against s for a random time, then
// kills the server with SIGKILL while the clients are busy. It returns how
// many times a VACUUM of the loop was seen to shrink tail's file.
func runUntilKill(t *testing.T, s *server, mode string, rng *rand.Rand, logs []*clientLog) (truncations int) {
	t.Helper()
	var wg sync.WaitGroup
	for i := 0; i < nClients; i++ {
		crng := rand.New(rand.NewPCG(rng.Uint64(), uint64(i)))
		lg := logs[i]
		wg.Add(1)
		go func(client int) {
			defer wg.Done()
			switch {
			case mode == "copy" && client%2 == 0:
				copyClient(s.dsn(), client, crng, lg)
			case mode == "truncate" && client == 0:
				tailClient(s.dsn(), client, crng, lg)
			case mode == "ddl" && client < 2:
				ddlClient(s.dsn(), client, lg)
			default:
				dmlClient(s.dsn(), client, crng, lg)
			}
		}(i)
	}
	var loop []string
	switch mode {
	case "vacuum":
		loop = []string{"VACUUM t", "VACUUM counters"}
	case "truncate":
		loop = []string{"VACUUM tail", "VACUUM t"}
	case "checkpoint":
		loop = []string{"CHECKPOINT"}
	}
	stopLoop := make(chan struct{})
	loopDone := make(chan struct{})
	go func() {
		defer close(loopDone)
		if loop == nil {
			return
		}
		c, err := pgx.Connect(context.Background(), s.dsn())
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		size := func() int64 {
			var n int64
			_ = c.QueryRow(context.Background(), "SELECT pg_relation_size('tail')").Scan(&n)
			return n
		}
		for {
			for _, sql := range loop {
				select {
				case <-stopLoop:
					return
				default:
				}
				before := int64(-1)
				if sql == "VACUUM tail" {
					before = size()
				}
				if _, err := c.Exec(context.Background(), sql); err != nil {
					return
				}
				if before >= 0 && size() < before {
					truncations++
				}
			}
		}
	}()
	time.Sleep(time.Duration(300+rng.IntN(900)) * time.Millisecond)
	s.kill()
	close(stopLoop)
	wg.Wait()
	<-loopDone
	return truncations
}

func TestCrashRecovery(t *testing.T) {
	modes := crashModes
	seeds := 2
	if testing.Short() {
		seeds = 1
	}
	// wal_compression rotates over the modes and seeds (every setting
	// is crashed in -short too), and changes at each restart, so that
	// recovery replays images written with another setting than its own.
	compressions := []string{"off", "lz4", "zstd"}
	for mi, mode := range modes {
		for seed := 1; seed <= seeds; seed++ {
			comp := compressions[(mi+seed)%len(compressions)]
			t.Run(fmt.Sprintf("%s/seed=%d/wal_compression=%s", mode, seed, comp), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(seed), uint64(len(mode))))
				dir := t.TempDir()
				base := []string{"checkpoint_timeout=1s", "max_wal_size=4MB"}
				if mode == "async" {
					base = append(base, "synchronous_commit=off")
				}
				withComp := func(cycle int) []string {
					c := compressions[(mi+seed+cycle)%len(compressions)]
					return append(append([]string(nil), base...), "wal_compression="+c)
				}
				settings := withComp(0)
				s := startServer(t, dir, settings...)
				setup(t, s)
				logs := make([]*clientLog, nClients)
				for i := range logs {
					logs[i] = &clientLog{}
				}
				truncations := 0
				for cycle := 0; cycle < 2; cycle++ {
					truncations += runUntilKill(t, s, mode, rng, logs)
					settings = withComp(cycle + 1)
					s = startServer(t, dir, settings...)
					if !strings.Contains(s.log.String(), "heap check passed") {
						t.Fatalf("restarted server did not check the heap:\n%s", s.log)
					}
					if tl := verify(t, s, logs, mode == "async"); tl.lost+tl.phantom > 0 {
						t.Fatalf("%d lost, %d phantom of %d checked", tl.lost, tl.phantom, tl.checked)
					}
				}
				acked := 0
				for _, lg := range logs {
					acked += len(lg.acked) + len(lg.copyAcked) + len(lg.tailIns) + len(lg.tailDel)
					for _, st := range lg.ddl {
						if st.created {
							acked++
						}
					}
				}
				if acked == 0 {
					t.Fatalf("no transaction was acknowledged before the crashes\n%s", s.log)
				}
				t.Logf("%d acknowledged transactions survived two crashes", acked)
				if mode == "truncate" {
					t.Logf("VACUUM shrank tail %d times before the crashes", truncations)
					checkTruncates(t, s)
				}
				s.stop(t)
			})
		}
	}
}

// TestWALCorruptionStopsReplay damages a record in the middle of the last
// WAL segment after a crash: the server must start, saying where and why
// replay stopped, with consistent heaps.
func TestWALCorruptionStopsReplay(t *testing.T) {
	dir := t.TempDir()
	// No checkpoint after start-up: the damage lies after the redo point.
	// A pool large enough that no page is evicted: a data page written
	// after the damaged record would carry an LSN beyond the end of the
	// surviving WAL, and writing it again fails ("xlog flush request ... is
	// not satisfied"), as in PostgreSQL: that is lost data, not a torn tail.
	settings := []string{"checkpoint_timeout=1h", "max_wal_size=1GB", "shared_buffers=128MB"}
	s := startServer(t, dir, settings...)
	setup(t, s)
	logs := make([]*clientLog, nClients)
	for i := range logs {
		logs[i] = &clientLog{}
	}
	runUntilKill(t, s, "dml", rand.New(rand.NewPCG(7, 7)), logs)

	segs, err := filepath.Glob(filepath.Join(dir, "wal", "0*"))
	if err != nil || len(segs) == 0 {
		t.Fatalf("no WAL segments: %v", err)
	}
	sort.Strings(segs)
	var last string
	var data []byte
	for i := len(segs) - 1; i >= 0; i-- {
		b, err := os.ReadFile(segs[i])
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexFunc(b, func(r rune) bool { return r != 0 }) >= 0 {
			last, data = segs[i], b
			break
		}
	}
	end := len(bytes.TrimRight(data, "\x00"))
	if end < 4096 {
		t.Fatalf("last segment %s holds only %d bytes", last, end)
	}
	pos := end / 2
	for i := pos; i < pos+8; i++ {
		data[i] ^= 0xA5
	}
	if err := os.WriteFile(last, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s = startServer(t, dir, settings...)
	out := s.log.String()
	if !strings.Contains(out, "end of WAL") {
		t.Fatalf("no end-of-WAL message after damaging %s at %d:\n%s", filepath.Base(last), pos, out)
	}
	if !strings.Contains(out, "heap check passed") {
		t.Fatalf("heap check did not run:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "end of WAL") {
			t.Logf("server said: %s", line)
		}
	}
	// The server works: new transactions commit and are read back.
	c := connect(t, s)
	exec1(t, c, "INSERT INTO t (id, client, seq) VALUES (-1, -1, -1)")
	var n int
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM t WHERE id = -1").Scan(&n); err != nil || n != 1 {
		t.Fatalf("after recovery: %v (%d rows)", err, n)
	}
	s.stop(t)
}

// TestWALViewsAndSettings: pg_stat_wal, pg_current_wal_lsn(), per-table
// pages dirtied, minipg_check, CHECKPOINT, full_page_writes and
// synchronous_commit through SQL, and a clean shutdown that needs no replay.
func TestWALViewsAndSettings(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := startServer(t, dir)
	c := connect(t, s)
	exec1(t, c, "CREATE TABLE w (id int PRIMARY KEY, v text)")
	walStats := func() (records, fpi int64, bytes string) {
		t.Helper()
		rows, err := c.Query(ctx, "SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		fds := rows.FieldDescriptions()
		if len(fds) != 3 || fds[0].DataTypeOID != 20 || fds[1].DataTypeOID != 20 || fds[2].DataTypeOID != 1700 {
			t.Fatalf("pg_stat_wal columns: %+v", fds)
		}
		if !rows.Next() {
			t.Fatal("pg_stat_wal has no row")
		}
		var b any
		if err := rows.Scan(&records, &fpi, &b); err != nil {
			t.Fatal(err)
		}
		return records, fpi, fmt.Sprint(b)
	}
	lsn := func() string {
		t.Helper()
		var l string
		if err := c.QueryRow(ctx, "SELECT pg_current_wal_lsn()").Scan(&l); err != nil {
			t.Fatal(err)
		}
		if hi, lo, ok := strings.Cut(l, "/"); !ok || hi == "" || lo == "" || strings.ToUpper(l) != l {
			t.Fatalf("pg_current_wal_lsn() = %q, want X/X", l)
		}
		return l
	}
	l0 := lsn()
	r0, _, _ := walStats()
	for i := 0; i < 200; i++ {
		exec1(t, c, "INSERT INTO w VALUES ($1, 'x')", i)
	}
	r1, f1, _ := walStats()
	if r1-r0 < 400 { // an insert and a commit record each
		t.Fatalf("wal_records grew by %d for 200 committed inserts", r1-r0)
	}
	if l1 := lsn(); l1 == l0 {
		t.Fatalf("pg_current_wal_lsn() did not move: %s", l1)
	}
	exec1(t, c, "CHECKPOINT")
	exec1(t, c, "UPDATE w SET v = 'y' WHERE id = 1")
	_, f2, _ := walStats()
	if f2 <= f1 {
		t.Fatalf("no full-page image after CHECKPOINT: wal_fpi %d -> %d", f1, f2)
	}
	exec1(t, c, "SET full_page_writes = off")
	exec1(t, c, "CHECKPOINT")
	exec1(t, c, "UPDATE w SET v = 'z' WHERE id = 2")
	if _, f3, _ := walStats(); f3 != f2 {
		t.Fatalf("full_page_writes = off still logged %d images", f3-f2)
	}
	exec1(t, c, "SET full_page_writes = on")
	// wal_compression: the same change after a checkpoint (one image of
	// the same page) takes fewer WAL bytes with lz4 and zstd than with off.
	imageBytes := func(id int) int64 {
		t.Helper()
		stat := func() (fpi, bytes int64) {
			t.Helper()
			if err := c.QueryRow(ctx, "SELECT wal_fpi, wal_bytes::bigint FROM pg_stat_wal").Scan(&fpi, &bytes); err != nil {
				t.Fatal(err)
			}
			return fpi, bytes
		}
		exec1(t, c, "CHECKPOINT")
		fa, ba := stat()
		exec1(t, c, "UPDATE w SET v = 'c' WHERE id = $1", id)
		fb, bb := stat()
		if fb != fa+1 {
			t.Fatalf("update after CHECKPOINT logged %d images", fb-fa)
		}
		return bb - ba
	}
	off := imageBytes(3)
	for i, m := range []string{"lz4", "zstd", "on"} {
		exec1(t, c, "SET wal_compression = "+m)
		if b := imageBytes(4 + i); b >= off*3/4 {
			t.Fatalf("wal_compression = %s: %d WAL bytes for an update with an image, %d with off", m, b, off)
		}
	}
	exec1(t, c, "RESET wal_compression")
	if b := imageBytes(10); b < off*9/10 {
		t.Fatalf("wal_compression reset: %d WAL bytes, %d with off", b, off)
	}
	// pg_stat_bgwriter: CHECKPOINT is a requested checkpoint that writes
	// the buffers dirtied before it.
	bgw := func() (timed, req, bufs int64) {
		t.Helper()
		if err := c.QueryRow(ctx, "SELECT checkpoints_timed, checkpoints_req, buffers_checkpoint FROM pg_stat_bgwriter").Scan(&timed, &req, &bufs); err != nil {
			t.Fatal(err)
		}
		return
	}
	t0, r0, b0 := bgw()
	exec1(t, c, "UPDATE w SET v = 'b' WHERE id < 100")
	exec1(t, c, "CHECKPOINT")
	if t1, r1, b1 := bgw(); r1 != r0+1 || t1 != t0 || b1 <= b0 {
		t.Fatalf("pg_stat_bgwriter after CHECKPOINT: timed %d -> %d, req %d -> %d, buffers_checkpoint %d -> %d", t0, t1, r0, r1, b0, b1)
	}
	exec1(t, c, "SET synchronous_commit = off")
	exec1(t, c, "INSERT INTO w VALUES (1000, 'async')")
	var dirtied int64
	if err := c.QueryRow(ctx, "SELECT pg_stat_get_blocks_dirtied('w')").Scan(&dirtied); err != nil || dirtied <= 0 {
		t.Fatalf("pg_stat_get_blocks_dirtied('w') = %d, %v", dirtied, err)
	}
	var ok bool
	if err := c.QueryRow(ctx, "SELECT minipg_check('w')").Scan(&ok); err != nil || !ok {
		t.Fatalf("minipg_check('w') = %v, %v", ok, err)
	}
	exec1(t, c, "DROP TABLE w")
	c.Close(ctx)
	s.stop(t)
	if !strings.Contains(s.log.String(), "shutdown") && strings.Contains(s.log.String(), "checkpoint failed") {
		t.Fatalf("shutdown:\n%s", s.log)
	}
	// Clean shutdown: no replay at the next start.
	s = startServer(t, dir)
	if strings.Contains(s.log.String(), "redo starts") {
		t.Fatalf("replay after a clean shutdown:\n%s", s.log)
	}
	s.stop(t)
}

func baseFiles(t *testing.T, dir string) map[string]bool {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, "base"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, e := range ents {
		out[e.Name()] = true
	}
	return out
}

// TestDDLCrash: tables created and dropped since the last checkpoint come
// back as the catalog says after a crash: a created table with its rows
// (replay recreates its file), a dropped one without files.
func TestDDLCrash(t *testing.T) {
	dir := t.TempDir()
	settings := []string{"checkpoint_timeout=1h", "max_wal_size=1GB"}
	s := startServer(t, dir, settings...)
	c := connect(t, s)
	exec1(t, c, "CREATE TABLE keep (id int PRIMARY KEY, v text)")
	exec1(t, c, "CREATE TABLE gone (id int, v text)")
	for i := 0; i < 300; i++ {
		exec1(t, c, "INSERT INTO keep VALUES ($1, $2)", i, strings.Repeat("k", 100))
		exec1(t, c, "INSERT INTO gone VALUES ($1, $2)", i, strings.Repeat("g", 100))
	}
	before := baseFiles(t, dir)
	exec1(t, c, "DROP TABLE gone")
	after := baseFiles(t, dir)
	var goneFiles []string
	for f := range before {
		if !after[f] {
			goneFiles = append(goneFiles, f)
		}
	}
	if len(goneFiles) == 0 {
		t.Fatalf("DROP TABLE removed no file: %v", before)
	}
	s.kill()
	// The crash lost the unflushed pages of keep: its file may even be
	// shorter than its rows need.
	s = startServer(t, dir, settings...)
	if !strings.Contains(s.log.String(), "redo starts") {
		t.Fatalf("no replay after the crash:\n%s", s.log)
	}
	for _, f := range goneFiles {
		if baseFiles(t, dir)[f] {
			t.Fatalf("file %s of the dropped table exists after recovery", f)
		}
	}
	c = connect(t, s)
	var n int
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM keep WHERE v = $1", strings.Repeat("k", 100)).Scan(&n); err != nil || n != 300 {
		t.Fatalf("keep after recovery: %d rows, %v", n, err)
	}
	if _, err := c.Exec(context.Background(), "SELECT * FROM gone"); err == nil {
		t.Fatal("the dropped table is back")
	}
	s.stop(t)
}

// batchCounts returns the rows of each (client, batch) of a COPY workload's
// table.
func batchCounts(t *testing.T, c *pgx.Conn, tbl string) map[[2]int]int {
	t.Helper()
	rows, err := c.Query(context.Background(), "SELECT client, batch, count(*) FROM "+tbl+" GROUP BY client, batch")
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]int]int{}
	for rows.Next() {
		var cl, b, n int
		if err := rows.Scan(&cl, &b, &n); err != nil {
			t.Fatal(err)
		}
		got[[2]int{cl, b}] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

// Package regress runs the SQL scripts in sql/ against a minipg server with
// psql and compares the output with expected/, as PostgreSQL's
// src/test/regress does. The expected files are produced by a real
// PostgreSQL 15 (see mkexpected.sh) wherever minipg must behave like it.
//
// The runner builds cmd/minipg, starts it on a free loopback port with a
// fresh data directory, runs each script named in the schedule with
// `psql -X -a -q` (script on standard input, standard error merged), and
// writes the output of a failing script to results/<name>.out with a diff.
package regress

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"minipg/internal/testutil"
)

// schedule returns the test names in the order the schedule file lists them.
func schedule(t *testing.T) []string {
	f, err := os.Open("schedule")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rest, ok := strings.CutPrefix(line, "test:")
		if !ok {
			t.Fatalf("schedule: bad line %q", line)
		}
		names = append(names, strings.Fields(rest)...)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startServer builds and starts minipg, returning its port.
func startServer(t *testing.T) int {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "minipg")
	build := exec.Command("go", "build", "-o", bin, "../cmd/minipg")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building minipg: %v\n%s", err, out)
	}
	port := freePort(t)
	var logBuf bytes.Buffer
	cmd := exec.Command(bin, append([]string{"-D", filepath.Join(dir, "data"), "-p", fmt.Sprint(port), "-h", "127.0.0.1"},
		testutil.IndexStorageArgs()...)...)
	cmd.Stdout = &logBuf
	cmd.Stderr = &logBuf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("server log:\n%s", logBuf.String())
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
			return port
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not start: %v\n%s", err, logBuf.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// scriptOptions gives the sessions of some scripts settings of their own
// (PGOPTIONS at connection start); the other scripts run with the server's
// defaults and match PostgreSQL as they are. Both settings used are session
// defaults for CREATE TABLE, so the scripts' tables take them.
//
// classicPlacement: the script checks where PostgreSQL's own free space map
// puts rows in cases where the locality policy (the server's default)
// deliberately differs. vacuum_truncate: after VACUUM, PostgreSQL fills the
// last free line pointer of a nearly full page; locality keeps that page
// closed. vacuum_target: the classic policy forgets a session's target
// block when the table is invalidated; locality keeps it.
// walinspect_records: the records of each statement name the blocks and
// offsets rows went to. create_table_as: the ctids of the rows CREATE
// TABLE AS wrote. upsert: the line pointers of a page after DO UPDATE
// (classic does not prune behind, as PostgreSQL does not).
//
// prunedAsPostgres: the script shows a page's line pointers or a table's
// dead tuples soon after an UPDATE or DELETE; under locality a page is
// otherwise pruned in the background some milliseconds after the change
// (heap_prune_behind), where PostgreSQL leaves it to a later reader or
// VACUUM, and the output would depend on timing.
var scriptOptions = map[string]string{
	"vacuum_truncate": classicPlacement, "vacuum_target": classicPlacement,
	"walinspect_records": classicPlacement, "freespace_classic": classicPlacement, "create_table_as": classicPlacement,
	"upsert": classicPlacement, "stats": prunedAsPostgres, "pageinspect": prunedAsPostgres, "pageinspect_arrays": prunedAsPostgres,
	"add_column": prunedAsPostgres, "savepoints": classicPlacement + " " + prunedAsPostgres, "drop_column": prunedAsPostgres,
	"alter_column_type": prunedAsPostgres, "merge": prunedAsPostgres, "vacuum_full": classicPlacement + " " + prunedAsPostgres,
	"cluster": classicPlacement + " " + prunedAsPostgres,
}

const (
	classicPlacement = "-c fsm_policy=classic"
	prunedAsPostgres = "-c heap_prune_behind=off"
)

// psqlBinary is the psql the scripts run with: $PSQL, else Debian's psql 15
// (postgresql-client-15) when it is installed, else psql on PATH.
func psqlBinary() string {
	if p := os.Getenv("PSQL"); p != "" {
		return p
	}
	const debian15 = "/usr/lib/postgresql/15/bin/psql"
	if _, err := os.Stat(debian15); err == nil {
		return debian15
	}
	return "psql"
}

// checkPsql fails the test, with the reason, unless psql is psql 15: the
// expected files hold psql 15's output (its echo, its table formatting, its
// handling of errors in scripts), which other major versions change. It
// returns the version line and the one recorded by mkexpected.sh.
func checkPsql(t *testing.T, psql string) (have, made string) {
	t.Helper()
	if _, err := exec.LookPath(psql); err != nil {
		t.Fatalf("%s is required for the regression tests (apt-get install postgresql-client-15): %v", psql, err)
	}
	out, err := exec.Command(psql, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", psql, err)
	}
	have = strings.TrimSpace(string(out))
	recorded, err := os.ReadFile(filepath.Join("expected", "PSQL_VERSION"))
	if err != nil {
		t.Fatal(err)
	}
	made = strings.TrimSpace(string(recorded))
	if !strings.HasPrefix(have, "psql (PostgreSQL) 15.") {
		t.Fatalf("wrong psql version: the expected files were made with %q and need psql 15, but %s is %q; "+
			"install postgresql-client-15 or set PSQL to a psql 15 binary", made, psql, have)
	}
	return have, made
}

// pointReleaseTrap is what psql 15.18 prints when a script carries in-line
// COPY data after a COPY ... FROM STDIN that the server rejected before
// asking for data: it runs the data as SQL and reaches the "\." line. psql
// 15.20 skips such data instead, so output after that point differs between
// point releases. Scripts send such statements with \copy from a file.
const pointReleaseTrap = `invalid command \.`

func TestRegress(t *testing.T) {
	psql := psqlBinary()
	have, made := checkPsql(t, psql)
	names := schedule(t)
	port := startServer(t)
	if err := os.MkdirAll("results", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			script, err := os.ReadFile(filepath.Join("sql", name+".sql"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("expected", name+".out"))
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(want, []byte(pointReleaseTrap)) {
				t.Fatalf("expected/%s.out holds %q: the script feeds in-line data to a COPY the server "+
					"rejects before asking for data, which psql point releases handle differently; send that "+
					"statement with \\copy from a file", name, pointReleaseTrap)
			}
			cmd := exec.Command(psql, "-X", "-a", "-q", "-h", "127.0.0.1", "-p", fmt.Sprint(port),
				"-U", "postgres", "-d", "regression")
			// Scripts start other sessions with \! "$PSQL" ...: the
			// environment leads them to the same server and database.
			cmd.Env = append(os.Environ(), "PGTZ=UTC", "PGDATESTYLE=ISO, MDY", "PGAPPNAME=pg_regress", "PGCONNECT_TIMEOUT=10",
				"PSQL="+psql, "PGHOST=127.0.0.1", fmt.Sprintf("PGPORT=%d", port), "PGUSER=postgres", "PGDATABASE=regression")
			if o := scriptOptions[name]; o != "" {
				cmd.Env = append(cmd.Env, "PGOPTIONS="+o)
			}
			cmd.Stdin = bytes.NewReader(script)
			got, _ := cmd.CombinedOutput()
			resPath := filepath.Join("results", name+".out")
			if bytes.Equal(got, want) {
				_ = os.Remove(resPath)
				return
			}
			_ = os.WriteFile(resPath, got, 0o644)
			diff, _ := exec.Command("diff", "-u", filepath.Join("expected", name+".out"), resPath).CombinedOutput()
			switch {
			case bytes.Contains(got, []byte(pointReleaseTrap)):
				t.Errorf("%s printed %q: the script feeds in-line data to a COPY that minipg rejected before "+
					"asking for data; psql point releases handle that differently (see pointReleaseTrap)",
					psql, pointReleaseTrap)
			case have != made:
				t.Errorf("note: the expected files were made with %q and this is %q", made, have)
			}
			t.Errorf("output differs from expected/%s.out (got in %s):\n%s", name, resPath, diff)
		})
	}
}

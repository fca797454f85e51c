package server

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPsqlClient connects with libpq (psql): SSLRequest declined, SCRAM,
// a simple query, and a wrong password. Skipped where psql is absent.
func TestPsqlClient(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Skip("psql not installed")
	}
	ts := startTestServer(t, func(cfg *Config) { cfg.Password = "pw" })
	host, port, _ := strings.Cut(ts.addr, ":")
	run := func(password, sql string) (string, error) {
		cmd := exec.Command(psql, "-X", "-A", "-t", "-c", sql,
			"host="+host+" port="+port+" user=bob dbname=db sslmode=prefer gssencmode=prefer password="+password)
		cmd.Env = append(cmd.Environ(), "PGCONNECT_TIMEOUT=10")
		out, err := cmd.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	out, err := run("pw", "rows 2")
	if err != nil || out != "1|row 1\n2|row 2" {
		t.Fatalf("psql: %v\n%s", err, out)
	}
	out, err = run("pw", "fail 22012 division by zero")
	if err == nil || !strings.Contains(out, "ERROR:  division by zero") {
		t.Fatalf("psql error: %v\n%s", err, out)
	}
	out, err = run("nope", "rows 1")
	if err == nil || !strings.Contains(out, `password authentication failed for user "bob"`) {
		t.Fatalf("wrong password: %v\n%s", err, out)
	}
}

package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// serveUnix adds a Unix-domain socket in a new directory to ts's server
// and returns the directory and the port in the socket's name.
func serveUnix(t *testing.T, ts *testServer) (string, int) {
	t.Helper()
	dir := t.TempDir()
	port := 40000 + os.Getpid()%20000
	ln, err := ListenUnix(dir, port, "/data")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ts.srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return dir, port
}

func TestUnixSocketFiles(t *testing.T) {
	dir := t.TempDir()
	ln, err := ListenUnix(dir, 5999, "data")
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, ".s.PGSQL.5999")
	fi, err := os.Stat(sock)
	if err != nil || fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o777 {
		t.Fatalf("socket file: %v %v", fi.Mode(), err)
	}
	b, err := os.ReadFile(sock + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	abs, _ := filepath.Abs("data")
	if len(lines) != 6 || lines[0] != strconv.Itoa(os.Getpid()) || lines[1] != abs || lines[3] != "5999" || lines[4] != dir || lines[5] != "" {
		t.Fatalf("lock file:\n%s", b)
	}
	// A second server on the same socket: the lock names a live process.
	// (This process's own pid would be taken for a stale lock, so the
	// live one is the parent's.)
	if err := os.WriteFile(sock+".lock", []byte(fmt.Sprintf("%d\n", os.Getppid())), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ListenUnix(dir, 5999, "data"); err == nil || !strings.Contains(err.Error(), "is another server") {
		t.Fatalf("second listener: %v", err)
	}
	if err := os.WriteFile(sock+".lock", b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{sock, sock + ".lock"} {
		if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s after Close: %v", f, err)
		}
	}
	// A crashed server's files: a lock whose process is gone, a socket
	// nobody listens on.
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	if err := os.WriteFile(sock+".lock", []byte(fmt.Sprintf("%d\n/old\n0\n5999\n%s\n", cmd.Process.Pid, dir)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sock, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err = ListenUnix(dir, 5999, "data")
	if err != nil {
		t.Fatalf("over stale files: %v", err)
	}
	ln.Close()
	long := filepath.Join(dir, strings.Repeat("d", 100))
	if _, err := ListenUnix(long, 5432, "data"); err == nil || !strings.Contains(err.Error(), "is too long") {
		t.Fatalf("long path: %v", err)
	}
}

// TestUnixSocketClients: pgx with host=<directory>, psql with -h, and the
// "local" rules of an hba file, which TCP clients do not meet.
func TestUnixSocketClients(t *testing.T) {
	h, err := ParseHBA(strings.NewReader("local all mallory reject\nlocal all all trust\nhost all all all scram-sha-256\n"), "test")
	if err != nil {
		t.Fatal(err)
	}
	ts := startTestServer(t, func(c *Config) { c.HBA = h; c.Password = "pw" })
	dir, port := serveUnix(t, ts)
	ctx := context.Background()
	dsn := fmt.Sprintf("host=%s port=%d user=bob dbname=db", dir, port)
	conn, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	res := conn.ExecParams(ctx, "rows 3", nil, nil, nil, nil).Read()
	if res.Err != nil || len(res.Rows) != 3 {
		t.Fatalf("%v %d rows", res.Err, len(res.Rows))
	}
	conn.Close(ctx)
	var pe *pgconn.PgError
	_, err = pgconn.Connect(ctx, fmt.Sprintf("host=%s port=%d user=mallory dbname=db", dir, port))
	if !errors.As(err, &pe) || pe.Code != "28000" ||
		pe.Message != `pg_hba.conf rejects connection for host "[local]", user "mallory", database "db", no encryption` {
		t.Fatalf("mallory: %v", err)
	}
	// Over TCP the same client needs the password.
	if _, err := pgconn.Connect(ctx, "postgres://bob@"+ts.addr+"/db?sslmode=disable"); !isPgCode(err, "28P01") {
		t.Fatalf("TCP without password: %v", err)
	}
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Skip("psql not installed")
	}
	cmd := exec.Command(psql, "-X", "-A", "-t", "-h", dir, "-p", strconv.Itoa(port), "-U", "bob", "-d", "db", "-c", "rows 2")
	cmd.Env = append(cmd.Environ(), "PGCONNECT_TIMEOUT=10", "PGSSLMODE=prefer")
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "1|row 1\n2|row 2" {
		t.Fatalf("psql: %v\n%s", err, out)
	}
}

package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"minipg/internal/testutil"
)

func TestParseArgs(t *testing.T) {
	o, err := parseArgs([]string{"-D", "/x", "-c", "Shared-Buffers=64MB", "-c", "port=7000", "-c", "fsm_policy=classic"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.dataDir != "/x" || o.addr != "127.0.0.1:7000" || o.settings["shared_buffers"] != "64MB" || o.settings["fsm_policy"] != "classic" {
		t.Fatalf("%+v", o)
	}
	o, err = parseArgs([]string{"-p", "5", "-h", "*", "-c", "port=7000"}, io.Discard)
	if err != nil || o.addr != ":5" || o.dataDir != "data" {
		t.Fatalf("%+v %v", o, err)
	}
	o, err = parseArgs([]string{"--shared_buffers=1GB", "--p=7", "-c", "fsm_policy=classic"}, io.Discard)
	if err != nil || o.settings["shared_buffers"] != "1GB" || o.addr != "127.0.0.1:7" || o.settings["fsm_policy"] != "classic" {
		t.Fatalf("%+v %v", o, err)
	}
	if _, err := parseArgs([]string{"-c", "novalue"}, io.Discard); err == nil {
		t.Fatal("accepted -c without =")
	}
}

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{{"128MB", 128 << 20}, {"1GB", 1 << 30}, {"16384", 16384 * 8192}, {"512kB", 512 << 10}, {"100B", 100}} {
		got, err := parseBytes(tc.in, 8192)
		if err != nil || got != tc.want {
			t.Errorf("%s: %d %v", tc.in, got, err)
		}
	}
	for _, bad := range []string{"", "MB", "12XB", "1.5GB"} {
		if _, err := parseBytes(bad, 8192); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestRunServesAndShutsDown starts the server in-process on port 0,
// connects, and stops it as a signal would.
func TestRunServesAndShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	dir := filepath.Join(t.TempDir(), "data")
	go func() {
		done <- run(ctx, []string{"-D", dir, "-p", "0", "-c", "password=pw"}, io.Discard, func(a net.Addr) { addrc <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatal(err)
	}
	cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer ccancel()
	conn, err := pgconn.Connect(cctx, "postgres://postgres:pw@"+addr.String()+"/postgres?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The server said FATAL 57P01 and closed the connection.
	_, err = conn.Exec(cctx, "select 1").ReadAll()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57P01" {
		t.Fatalf("after shutdown: %v", err)
	}
}

// TestRefusesOpenNonLoopback: listening beyond loopback needs a password or
// an hba file; the start-up log lists the rules in force.
func TestRefusesOpenNonLoopback(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	for _, host := range []string{"*", "0.0.0.0", "192.0.2.2"} {
		err := run(context.Background(), []string{"-D", dir, "-p", "0", "-h", host}, io.Discard, nil)
		if err == nil || !strings.Contains(err.Error(), "with no password and no hba_file") {
			t.Fatalf("-h %s: %v", host, err)
		}
	}
	hba := filepath.Join(t.TempDir(), "pg_hba.conf")
	if err := os.WriteFile(hba, []byte("host all all 10.0.0.0/8 bogus\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), []string{"-D", dir, "-p", "0", "-c", "hba_file=" + hba}, io.Discard, nil)
	if err == nil || !strings.Contains(err.Error(), `invalid authentication method "bogus" (line 1 of`) {
		t.Fatalf("bad hba file: %v", err)
	}
	if err := os.WriteFile(hba, []byte("# only trusted loopback\nhost all all 127.0.0.1/32 trust\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var log syncBuf
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-D", dir, "-p", "0", "-h", "*", "-c", "hba_file=" + hba}, &log, func(a net.Addr) { addrc <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatal(err)
	}
	port := addr.(*net.TCPAddr).Port
	conn, err := pgconn.Connect(context.Background(), fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port))
	if err != nil {
		t.Fatal(err)
	}
	conn.Close(context.Background())
	_, err = pgconn.Connect(context.Background(), fmt.Sprintf("postgres://postgres@[::1]:%d/postgres?sslmode=disable", port))
	// ::1 is loopback but the file trusts only 127.0.0.1 (the machine
	// may have no IPv6 loopback: then the dial fails).
	var pe *pgconn.PgError
	if err == nil || errors.As(err, &pe) && pe.Message != `no pg_hba.conf entry for host "::1", user "postgres", database "postgres", no encryption` {
		t.Fatalf("::1: %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), `rules="host all all 127.0.0.1/32 trust"`) {
		t.Fatalf("start-up log does not list the rules:\n%s", log.String())
	}
}

type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSSLSetting: ssl=on with the default file names in the data
// directory serves verify-full clients; a missing key stops the start.
func TestSSLSetting(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	files := testutil.MakeTLSFiles(t, dir) // server.crt, server.key, root.crt
	if err := run(context.Background(), []string{"-D", dir, "-p", "0", "-c", "ssl=on", "-c", "ssl_key_file=nokey"}, io.Discard, nil); err == nil ||
		!strings.Contains(err.Error(), "nokey") {
		t.Fatalf("missing key: %v", err)
	}
	if err := run(context.Background(), []string{"-D", dir, "-p", "0", "-c", "ssl=maybe"}, io.Discard, nil); err == nil {
		t.Fatal("ssl=maybe accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-D", dir, "-p", "0", "-c", "ssl=on", "-c", "password=pw"}, io.Discard, func(a net.Addr) { addrc <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatal(err)
	}
	conn, err := pgconn.Connect(context.Background(), "postgres://postgres:pw@"+addr.String()+"/postgres?sslmode=verify-full&channel_binding=require&sslrootcert="+files.CA)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := conn.Conn().(*tls.Conn); !ok {
		t.Fatal("not TLS")
	}
	conn.Close(context.Background())
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestUnixSocketDirectories: the socket and its lock file are made in each
// directory, serve clients, and are gone after shutdown; empty disables.
func TestUnixSocketDirectories(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), "data")
	d1, d2 := t.TempDir(), t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-D", dataDir, "-p", "0", "-c", "unix_socket_directories=" + d1 + ", " + d2}, io.Discard, func(a net.Addr) { addrc <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatal(err)
	}
	port := addr.(*net.TCPAddr).Port
	for _, d := range []string{d1, d2} {
		conn, err := pgconn.Connect(context.Background(), fmt.Sprintf("host=%s port=%d user=postgres dbname=postgres", d, port))
		if err != nil {
			t.Fatal(err)
		}
		res, err := conn.Exec(context.Background(), "SELECT 41 + 1").ReadAll()
		if err != nil || len(res) != 1 || string(res[0].Rows[0][0]) != "42" {
			t.Fatalf("over %s: %+v %v", d, res, err)
		}
		conn.Close(context.Background())
	}
	if psql, err := exec.LookPath("psql"); err == nil {
		cmd := exec.Command(psql, "-X", "-A", "-t", "-p", strconv.Itoa(port), "-U", "postgres", "-c", "SELECT 'via socket'")
		cmd.Env = append(cmd.Environ(), "PGHOST="+d2, "PGCONNECT_TIMEOUT=10")
		if out, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "via socket" {
			t.Fatalf("psql: %v\n%s", err, out)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{d1, d2} {
		if ents, _ := os.ReadDir(d); len(ents) != 0 {
			t.Fatalf("%s after shutdown: %v", d, ents)
		}
	}
}

// TestHBAFileInDataDir: pg_hba.conf in the data directory is read without
// hba_file, as PostgreSQL reads it.
func TestHBAFileInDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pg_hba.conf"), []byte("host all all all reject\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-D", dir, "-p", "0", "-h", "*", "-c", "unix_socket_directories="}, io.Discard, func(a net.Addr) { addrc <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatal(err)
	}
	_, err := pgconn.Connect(context.Background(), fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", addr.(*net.TCPAddr).Port))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Message != `pg_hba.conf rejects connection for host "127.0.0.1", user "postgres", database "postgres", no encryption` {
		t.Fatalf("got %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

package main

import (
	"context"
	"errors"
	"io"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
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

package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestPprofRefusesNonLoopback: debug_pprof_addr must be a loopback address.
func TestPprofRefusesNonLoopback(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	for _, addr := range []string{":0", "0.0.0.0:0", "192.0.2.2:6060", "[::]:0", "nonsense"} {
		err := run(context.Background(), []string{"-D", dir, "-p", "0", "-c", "debug_pprof_addr=" + addr}, io.Discard, nil)
		if err == nil || !strings.Contains(err.Error(), "debug_pprof_addr") {
			t.Errorf("debug_pprof_addr=%s: %v", addr, err)
		}
	}
}

// TestPprofServes: with debug_pprof_addr on loopback the profile index and
// a heap profile are served while the server runs, and nothing after.
func TestPprofServes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncBuf
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	dir := filepath.Join(t.TempDir(), "data")
	go func() {
		done <- run(ctx, []string{"-D", dir, "-p", "0", "-c", "debug_pprof_addr=127.0.0.1:0"}, &logs, func(a net.Addr) { addrc <- a })
	}()
	select {
	case <-addrc:
	case err := <-done:
		t.Fatal(err)
	}
	m := regexp.MustCompile(`pprof listening" addr=(http://\S+/debug/pprof/)`).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no pprof address in the log:\n%s", logs.String())
	}
	client := &http.Client{Timeout: 30 * time.Second}
	for _, path := range []string{"", "heap?debug=1", "goroutine?debug=1", "mutex?debug=1"} {
		resp, err := client.Get(m[1] + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(body) == 0 {
			t.Fatalf("%s: %s, %d bytes", path, resp.Status, len(body))
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := client.Get(m[1]); err == nil {
		t.Fatal("pprof still served after shutdown")
	}
}

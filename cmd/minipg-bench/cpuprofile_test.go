package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestProfileWindowAndFile(t *testing.T) {
	wait, length := profileWindow(8 * time.Minute)
	if wait != 2*time.Minute || length != 4*time.Minute {
		t.Errorf("8m mix: wait %v, length %v; want 2m0s, 4m0s", wait, length)
	}
	got := profileFile("/p", "minipg-locality/heap_reclaim_behind=off", 3)
	if want := "/p/minipg-locality_heap_reclaim_behind=off-round3.pprof"; got != want {
		t.Errorf("profileFile: %q, want %q", got, want)
	}
}

// The profile is asked for with the window's length in seconds, and what
// the server answers is written as it came; an error status is an error.
func TestFetchCPUProfile(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/debug/pprof/profile" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("seconds=" + r.URL.Query().Get("seconds")))
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	path := filepath.Join(t.TempDir(), "x.pprof")
	if err := fetchCPUProfile(context.Background(), addr, time.Millisecond, 3*time.Second, path); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "seconds=3" {
		t.Errorf("profile file: %q, %v; want seconds=3", b, err)
	}

	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "profiling busy", http.StatusInternalServerError)
	}))
	defer bad.Close()
	err := fetchCPUProfile(context.Background(), strings.TrimPrefix(bad.URL, "http://"), 0, time.Second, filepath.Join(t.TempDir(), "y"))
	if err == nil || !strings.Contains(err.Error(), "profiling busy") {
		t.Errorf("error status: %v, want the server's message", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := fetchCPUProfile(ctx, addr, time.Hour, time.Second, path); err != context.Canceled {
		t.Errorf("cancelled while waiting: %v", err)
	}
}

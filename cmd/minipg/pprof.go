package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
	"time"
)

// debug_pprof_addr: a net/http/pprof listener for CPU, heap, allocation,
// goroutine, mutex and block profiles of the running server
// (go tool pprof http://ADDR/debug/pprof/profile?seconds=30). Off (empty)
// by default; only a loopback address is accepted, since the profiles show
// the server's internals and the endpoint has no authentication. While it
// is on, mutex contention (1 event in mutexProfileFraction) and blocking
// (events of blockProfileRate ns and more) are sampled too, so that locks
// held across I/O and group-commit waits show up.
const (
	mutexProfileFraction = 10
	blockProfileRate     = 10000 // ns
)

// startPprof starts the profile listener on addr (host:port, the host a
// loopback address or a name that resolves only to loopback addresses). It
// returns a function that stops it.
func startPprof(addr string, log *slog.Logger) (func(), error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("debug_pprof_addr: invalid address %q: %v", addr, err)
	}
	if !loopbackHost(host) {
		return nil, fmt.Errorf("debug_pprof_addr: %q is not a loopback address: the profiles are served without authentication; use 127.0.0.1:PORT or localhost:PORT", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("debug_pprof_addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	prevMutex := runtime.SetMutexProfileFraction(mutexProfileFraction)
	runtime.SetBlockProfileRate(blockProfileRate)
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("pprof listener failed", "err", err)
		}
	}()
	log.Info("pprof listening", "addr", "http://"+ln.Addr().String()+"/debug/pprof/")
	return func() {
		_ = srv.Close()
		runtime.SetMutexProfileFraction(prevMutex)
		runtime.SetBlockProfileRate(0)
	}, nil
}

package testutil

import (
	"context"
	"net"
	"testing"
)

// ServeLoopback listens on a free loopback port and runs serve on it in a
// goroutine until stop is called or the test ends, whichever comes first.
// stop cancels serve's context, waits for it to return and reports an
// error it returns; calling it again does nothing. Cleanups registered
// before ServeLoopback run after the server has stopped.
func ServeLoopback(t testing.TB, serve func(ctx context.Context, ln net.Listener) error) (addr string, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}
	t.Cleanup(stop)
	return ln.Addr().String(), stop
}

// Package testserver starts an in-process minipg (engine and wire server)
// on a loopback port for client tests (pgx, the TPC-C driver).
package testserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"testing"

	"minipg/executor"
	"minipg/internal/testutil"
	"minipg/server"
	"minipg/server/execbackend"
)

// Start serves a fresh minipg with a 16 MB buffer pool in a temporary
// data directory until the test ends, and returns its DSN.
func Start(t testing.TB) string {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	eng, err := executor.Open(executor.Config{DataDir: t.TempDir(), SharedBuffers: 16 << 20,
		Settings: testutil.IndexStorageSettings(nil)}, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // after the server has stopped
		if err := eng.Close(); err != nil {
			t.Errorf("Engine.Close: %v", err)
		}
	})
	addr, _ := testutil.ServeLoopback(t, func(ctx context.Context, ln net.Listener) error {
		return server.Serve(ctx, ln, server.Config{Backend: execbackend.New(eng), Logger: log})
	})
	return fmt.Sprintf("postgres://postgres@%s/postgres?sslmode=disable", addr)
}

package server

import (
	"io"
	"log/slog"
	"net"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"minipg/internal/testutil"
)

// testServer runs a Server with a fakeBackend on a loopback port.
type testServer struct {
	t    testing.TB
	srv  *Server
	be   *fakeBackend
	addr string
	stop func() // stops serving (once); also run at cleanup
}

// testQuietReads is Config.quietReads for the tests' servers. By default a
// lone connection switches to blocking reads at once, so that the tests
// run through that mode (connections with company stay on the poller);
// MINIPG_TEST_READS=poller keeps every connection on the poller.
func testQuietReads() int {
	switch os.Getenv("MINIPG_TEST_READS") {
	case "poller":
		return -1
	case "adaptive":
		return defaultQuietReads
	}
	return 1
}

func startTestServer(t testing.TB, mod func(*Config)) *testServer {
	t.Helper()
	be := &fakeBackend{}
	cfg := Config{Backend: be, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), quietReads: testQuietReads()}
	if testing.Verbose() {
		cfg.Logger = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if mod != nil {
		mod(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{t: t, srv: srv, be: be}
	ts.addr, ts.stop = testutil.ServeLoopback(t, srv.Serve)
	return ts
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// client is a raw protocol client: it sends frontend messages and reads
// backend messages summarized as one line each (see testutil.Summarize).
type client struct {
	t  testing.TB
	nc net.Conn
	fe *pgproto3.Frontend
}

func (ts *testServer) dial() *client {
	ts.t.Helper()
	nc, err := net.Dial("tcp", ts.addr)
	if err != nil {
		ts.t.Fatal(err)
	}
	ts.t.Cleanup(func() { nc.Close() })
	_ = nc.SetDeadline(time.Now().Add(30 * time.Second)) // a hung test fails instead of hanging
	return &client{t: ts.t, nc: nc, fe: pgproto3.NewFrontend(nc, nc)}
}

// connect dials and completes the startup as user "alice"; it returns the
// client and the startup replies.
func (ts *testServer) connect() (*client, []string) {
	c := ts.dial()
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "alice", "database": "db", "application_name": "wiretest"}})
	return c, c.untilReady()
}

func (c *client) send(msgs ...pgproto3.FrontendMessage) {
	c.t.Helper()
	for _, m := range msgs {
		c.fe.Send(m)
	}
	if err := c.fe.Flush(); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// sendRaw writes bytes as they are.
func (c *client) sendRaw(b []byte) {
	c.t.Helper()
	if _, err := c.nc.Write(b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *client) recv() (string, error) {
	msg, err := c.fe.Receive()
	if err != nil {
		return "", err
	}
	return testutil.Summarize(msg), nil
}

// untilReady reads messages up to and including ReadyForQuery.
func (c *client) untilReady() []string {
	c.t.Helper()
	var out []string
	for {
		s, err := c.recv()
		if err != nil {
			c.t.Fatalf("receive after %q: %v", out, err)
		}
		out = append(out, s)
		if strings.HasPrefix(s, "ReadyForQuery") || strings.HasPrefix(s, "ErrorResponse FATAL") {
			return out
		}
	}
}

// next reads n messages.
func (c *client) next(n int) []string {
	c.t.Helper()
	var out []string
	for range n {
		s, err := c.recv()
		if err != nil {
			c.t.Fatalf("receive after %q: %v", out, err)
		}
		out = append(out, s)
	}
	return out
}

// untilClosed reads messages until the server closes the connection.
func (c *client) untilClosed() []string {
	c.t.Helper()
	var out []string
	for {
		s, err := c.recv()
		if err != nil {
			return out
		}
		out = append(out, s)
	}
}

func expect(t testing.TB, got []string, want ...string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

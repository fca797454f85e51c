package server

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// serverConn returns the server's side of client c.
func (ts *testServer) serverConn(c *client) *conn {
	ts.t.Helper()
	want := c.nc.LocalAddr().String()
	for range 5000 { // the connection is tracked once accepted
		ts.srv.mu.Lock()
		for sc := range ts.srv.mu.all {
			if sc.nc.RemoteAddr().String() == want {
				ts.srv.mu.Unlock()
				return sc
			}
		}
		ts.srv.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	ts.t.Fatalf("no server connection for %s", want)
	return nil
}

// untilBlocking runs statements on c until its server side sc is (or is
// not) in blocking mode. A connection chooses its mode as it starts waiting
// for the next message, just after its reply went out, from what the
// others are doing at that moment.
func untilBlocking(t *testing.T, c *client, sc *conn, blocking bool) {
	t.Helper()
	for range 200 {
		checkAlive(t, c)
		for range 50 {
			if sc.io.isBlocking() == blocking {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
	t.Fatalf("connection blocking = %v, want %v", !blocking, blocking)
}

// waitRunning waits until sc runs a statement.
func waitRunning(t *testing.T, sc *conn) {
	t.Helper()
	for range 5000 {
		sc.mu.Lock()
		running := sc.mu.cancel != nil
		sc.mu.Unlock()
		if running {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("statement not running")
}

// connectWithKey completes the startup and returns the BackendKeyData.
func (ts *testServer) connectWithKey() (*client, *pgproto3.CancelRequest) {
	c := ts.dial()
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "alice"}})
	var key *pgproto3.CancelRequest
	for {
		msg, err := c.fe.Receive()
		if err != nil {
			ts.t.Fatal(err)
		}
		if k, ok := msg.(*pgproto3.BackendKeyData); ok {
			key = &pgproto3.CancelRequest{ProcessID: k.ProcessID, SecretKey: append([]byte(nil), k.SecretKey...)}
		}
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
			return c, key
		}
	}
}

// TestReadModes takes connections through both modes and back: a lone
// connection reads in blocking mode, one that sees another busy goes back
// to the poller; results, COPY, cancel and shutdown work in each.
func TestReadModes(t *testing.T) {
	ts := startTestServer(t, func(cfg *Config) { cfg.quietReads = 1 })
	a, _ := ts.connect()
	sa := ts.serverConn(a)
	untilBlocking(t, a, sa, true)

	a.send(&pgproto3.Parse{Query: "echo $1"}, &pgproto3.Bind{Parameters: [][]byte{[]byte("7")}}, &pgproto3.Execute{}, &pgproto3.Sync{})
	expect(t, a.untilReady(), "ParseComplete", "BindComplete", "DataRow 7", "CommandComplete SELECT 1", "ReadyForQuery I")
	a.send(&pgproto3.Query{String: "rows 20000"}) // several writes
	got := a.untilReady()
	if len(got) != 20003 || got[20000] != "DataRow 20000|row 20000" {
		t.Fatalf("%d messages, ending %q", len(got), got[len(got)-3:])
	}
	a.send(&pgproto3.Query{String: "copy"})
	expect(t, a.next(1), "CopyInResponse 0 [0 0]")
	a.send(&pgproto3.CopyData{Data: []byte("1\ta\n2\t")}, &pgproto3.CopyData{Data: []byte("b\n")}, &pgproto3.CopyDone{})
	expect(t, a.untilReady(), "CommandComplete COPY 2", "ReadyForQuery I")

	// Another connection busy: a returns to the poller.
	b, key := ts.connectWithKey()
	b.send(&pgproto3.Query{String: "sleep"})
	waitRunning(t, ts.serverConn(b))
	untilBlocking(t, a, sa, false)
	checkAlive(t, a)

	// A cancel request (a connection of its own) reaches b.
	cc := ts.dial()
	cc.send(key)
	expect(t, cc.untilClosed())
	expect(t, b.untilReady(), "ErrorResponse ERROR 57014 canceling statement due to user request", "ReadyForQuery I")

	// Quiet again: blocking mode.
	untilBlocking(t, a, sa, true)
	checkAlive(t, b)

	// Shutdown wakes connections sleeping in read(2) and those running a
	// statement.
	b.send(&pgproto3.Query{String: "sleep"})
	time.Sleep(10 * time.Millisecond) // not needed for correctness: either order ends the same way
	ts.stop()
	ts.stop = nil
	expect(t, a.untilClosed(), "ErrorResponse FATAL 57P01 terminating connection due to administrator command")
	expect(t, b.untilClosed(),
		"ErrorResponse ERROR 57014 canceling statement due to user request",
		"ReadyForQuery I",
		"ErrorResponse FATAL 57P01 terminating connection due to administrator command")
}

// TestBlockingClientVanishes: a client closing its socket (or resetting
// it) while its connection sleeps in read(2), idle or in the middle of a
// COPY, ends that connection; its max_connections slot frees.
func TestBlockingClientVanishes(t *testing.T) {
	for _, tc := range []struct{ reset, midCopy bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		reset := tc.reset
		ts := startTestServer(t, func(cfg *Config) { cfg.quietReads = 1; cfg.MaxConnections = 1 })
		a, _ := ts.connect()
		untilBlocking(t, a, ts.serverConn(a), true)
		if tc.midCopy {
			a.send(&pgproto3.Query{String: "copy"})
			expect(t, a.next(1), "CopyInResponse 0 [0 0]")
			a.send(&pgproto3.CopyData{Data: []byte("1\ta\n")})
		}
		if reset {
			_ = a.nc.(*net.TCPConn).SetLinger(0)
		}
		a.nc.Close()
		for i := 0; ; i++ {
			c := ts.dial()
			c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "alice"}})
			got := c.untilReady()
			if got[len(got)-1] == "ReadyForQuery I" {
				checkAlive(t, c)
				break
			}
			if i == 1000 || !strings.Contains(got[len(got)-1], "53300") {
				t.Fatalf("%+v: no slot after a client left: %q", tc, got)
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// TestShutdownWithBlockedWriter: a connection in blocking mode stuck
// writing to a client that does not read does not keep the server from
// stopping: Serve returns within shutdownWriteTimeout plus a margin, the
// connection is no longer tracked, and the client's stream ends (EOF or
// reset) instead of staying open.
func TestShutdownWithBlockedWriter(t *testing.T) {
	ts := startTestServer(t, func(cfg *Config) { cfg.quietReads = 1 })
	c, _ := ts.connect()
	sc := ts.serverConn(c)
	untilBlocking(t, c, sc, true)
	c.send(&pgproto3.Query{String: "rows 10000000"})
	waitRunning(t, sc)
	// Let the reply fill the socket buffers, so that the writer blocks.
	time.Sleep(100 * time.Millisecond)

	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		ts.stop()
	}()
	const margin = 10 * time.Second
	select {
	case <-stopped:
	case <-time.After(shutdownWriteTimeout + margin):
		t.Fatalf("Serve did not return within %v of shutdown with a writer blocked on a client that does not read",
			shutdownWriteTimeout+margin)
	}
	ts.srv.mu.Lock()
	left := len(ts.srv.mu.all)
	ts.srv.mu.Unlock()
	if left != 0 {
		t.Errorf("%d connections still tracked after Serve returned", left)
	}

	// The client now drains what reached its socket; the stream must end.
	if err := c.nc.SetReadDeadline(time.Now().Add(margin)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1<<16)
	var n int64
	for {
		m, err := c.nc.Read(buf)
		n += int64(m)
		if err == nil {
			continue
		}
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("the client's stream is still open %v after shutdown (%d bytes read)", margin, n)
		}
		break // EOF or connection reset: the server closed its side
	}
}

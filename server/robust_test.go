package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// checkAlive runs a statement on c.
func checkAlive(t *testing.T, c *client) {
	t.Helper()
	c.send(&pgproto3.Query{String: "insert"})
	expect(t, c.untilReady(), "CommandComplete INSERT 0 1", "ReadyForQuery I")
}

func TestMalformedMessagesCloseOnlyThatConnection(t *testing.T) {
	ts := startTestServer(t, func(cfg *Config) { cfg.MaxMessageSize = 1 << 20 })
	other, _ := ts.connect()

	cases := []struct {
		name string
		raw  []byte
		want string
	}{
		{"unknown type", []byte{'?', 0, 0, 0, 4}, "ErrorResponse FATAL 08P01 invalid frontend message type 63"},
		{"negative length", []byte{'Q', 0xff, 0xff, 0xff, 0xff}, "ErrorResponse FATAL 08P01 invalid message format"},
		{"oversize", []byte{'Q', 0x10, 0, 0, 0}, "ErrorResponse FATAL 08P01 invalid message length"},
		{"query without terminator", []byte{'Q', 0, 0, 0, 7, 'a', 'b', 'c'}, "ErrorResponse FATAL 08P01 invalid message format"},
		{"truncated bind", []byte{'B', 0, 0, 0, 6, 0, 0}, "ErrorResponse FATAL 08P01 invalid message format"},
		{"password outside auth", []byte{'p', 0, 0, 0, 6, 'x', 0}, "ErrorResponse FATAL 08P01 invalid frontend message type 112"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := ts.connect()
			c.sendRaw(tc.raw)
			got := c.untilClosed()
			if len(got) != 1 || got[0] != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			checkAlive(t, other)
		})
	}
	// A client that vanishes mid-message.
	c, _ := ts.connect()
	c.sendRaw([]byte{'Q', 0, 0, 0, 100, 'x'})
	c.nc.Close()
	checkAlive(t, other)
}

func TestPanicIsRecovered(t *testing.T) {
	ts := startTestServer(t, nil)
	other, _ := ts.connect()
	c, _ := ts.connect()
	c.send(&pgproto3.Query{String: "panic"})
	expect(t, c.untilClosed(), "ErrorResponse FATAL XX000 internal error: fake backend panic")
	checkAlive(t, other)
	ts.be.mu.Lock()
	closed := ts.be.closed
	ts.be.mu.Unlock()
	if closed != 1 {
		t.Fatalf("%d sessions closed, want 1", closed)
	}
}

func TestShutdownTerminatesConnections(t *testing.T) {
	ts := startTestServer(t, nil)
	idle, _ := ts.connect()
	busy, _ := ts.connect()
	silent := ts.dial() // never sends a startup packet
	silent.sendRaw([]byte{0, 0})
	busy.send(&pgproto3.Query{String: "sleep"})
	time.Sleep(10 * time.Millisecond) // not needed for correctness: either order ends the same way
	ts.stop()
	ts.stop = nil
	expect(t, idle.untilClosed(), "ErrorResponse FATAL 57P01 terminating connection due to administrator command")
	expect(t, busy.untilClosed(),
		"ErrorResponse ERROR 57014 canceling statement due to user request",
		"ReadyForQuery I",
		"ErrorResponse FATAL 57P01 terminating connection due to administrator command")
	expect(t, silent.untilClosed())
	if _, err := net.Dial("tcp", ts.addr); err == nil {
		t.Fatal("server still accepting")
	}
}

func TestAuthentication(t *testing.T) {
	for _, method := range []string{AuthSCRAM, AuthMD5, AuthPassword} {
		t.Run(method, func(t *testing.T) {
			ts := startTestServer(t, func(cfg *Config) { cfg.Password = "s3cret ü"; cfg.AuthMethod = method })
			ctx := context.Background()
			conn, err := pgconn.Connect(ctx, "postgres://bob:s3cret%20%C3%BC@"+ts.addr+"/db?sslmode=prefer")
			if err != nil {
				t.Fatal(err)
			}
			res := conn.ExecParams(ctx, "insert", nil, nil, nil, nil).Read()
			if res.Err != nil || res.CommandTag.String() != "INSERT 0 1" {
				t.Fatalf("%v %v", res.CommandTag, res.Err)
			}
			conn.Close(ctx)

			_, err = pgconn.Connect(ctx, "postgres://bob:wrong@"+ts.addr+"/db?sslmode=disable")
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != "28P01" || pe.Severity != "FATAL" || pe.Message != `password authentication failed for user "bob"` {
				t.Fatalf("wrong password: %v", err)
			}
		})
	}
}

// FuzzMessageLoop feeds arbitrary bytes, after a valid startup, to the
// message loop over an in-memory connection: it must neither panic (a
// recovered panic is reported as XX000, which the fuzzer flags) nor hang.
func FuzzMessageLoop(f *testing.F) {
	var start []byte
	start, _ = (&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "u"}}).Encode(nil)
	seeds := [][]pgproto3.FrontendMessage{
		{&pgproto3.Query{String: "rows 3; insert"}},
		{&pgproto3.Parse{Name: "a", Query: "echo $1"}, &pgproto3.Bind{PreparedStatement: "a", Parameters: [][]byte{[]byte("1")}, ResultFormatCodes: []int16{1}},
			&pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{MaxRows: 1}, &pgproto3.Sync{}},
		{&pgproto3.Query{String: "copy"}, &pgproto3.CopyData{Data: []byte("1\n")}, &pgproto3.CopyDone{}},
		{&pgproto3.Query{String: "copy binary"}, &pgproto3.CopyData{Data: []byte("x")}, &pgproto3.CopyFail{Message: "no"}},
		{&pgproto3.Parse{Query: "fail 22012 x"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Flush{}, &pgproto3.Close{ObjectType: 'S'}, &pgproto3.Sync{}, &pgproto3.Terminate{}},
	}
	for _, msgs := range seeds {
		var b []byte
		for _, m := range msgs {
			b, _ = m.Encode(b)
		}
		f.Add(b)
	}
	f.Add([]byte{'Q', 0, 0, 0, 4})
	f.Add([]byte{'B', 0, 0, 0, 12, 0, 0, 0, 1, 0, 9, 0, 0, 0, 0})
	be := &fakeBackend{}
	srv, err := New(Config{Backend: be, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxMessageSize: 1 << 16})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.Contains(data, []byte("panic")) || bytes.Contains(data, []byte("sleep")) {
			return // the fake backend's deliberate panic and block
		}
		in := append(append([]byte(nil), start...), data...)
		out := &bytes.Buffer{}
		nc := &memConn{r: bytes.NewReader(in), w: out}
		srv.ServeConn(context.Background(), nc)
		if bytes.Contains(out.Bytes(), []byte("CXX000\x00")) {
			t.Fatalf("internal error for input %q: %q", data, out.Bytes())
		}
	})
}

// memConn is a net.Conn reading a fixed input and collecting the output.
type memConn struct {
	r       io.Reader
	w       io.Writer
	written int
}

func (c *memConn) Read(b []byte) (int, error) { return c.r.Read(b) }
func (c *memConn) Write(b []byte) (int, error) {
	// A client that stops reading after a megabyte: bounds fuzz inputs
	// asking for huge results.
	if c.written += len(b); c.written > 1<<20 {
		return 0, io.ErrClosedPipe
	}
	return c.w.Write(b)
}
func (c *memConn) Close() error                       { return nil }
func (c *memConn) LocalAddr() net.Addr                { return &net.TCPAddr{} }
func (c *memConn) RemoteAddr() net.Addr               { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }
func (c *memConn) SetDeadline(t time.Time) error      { return nil }
func (c *memConn) SetReadDeadline(t time.Time) error  { return nil }
func (c *memConn) SetWriteDeadline(t time.Time) error { return nil }

// TestShutdownWithClientNotReading: a client that never reads its results
// (the server blocks writing) does not keep the server from stopping.
func TestShutdownWithClientNotReading(t *testing.T) {
	ts := startTestServer(t, nil)
	c, _ := ts.connect()
	c.send(&pgproto3.Query{String: "rows 10000000"})
	other, _ := ts.connect()
	checkAlive(t, other) // the stuck connection does not block others
	ts.stop()
	ts.stop = nil
}

// FuzzStartup feeds arbitrary bytes as the start-up phase (startup packet,
// SSL/GSS/cancel requests, SASL messages) to a server with trust and to
// one that requires SCRAM.
func FuzzStartup(f *testing.F) {
	start, _ := (&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "u", "database": "d"}}).Encode(nil)
	ssl, _ := (&pgproto3.SSLRequest{}).Encode(nil)
	cancel, _ := (&pgproto3.CancelRequest{ProcessID: 1, SecretKey: []byte{1, 2, 3, 4}}).Encode(nil)
	sasl, _ := (&pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-256", Data: []byte("n,,n=,r=abcdefghijklmnop")}).Encode(nil)
	f.Add(start)
	f.Add(append(append([]byte(nil), ssl...), start...))
	f.Add(cancel)
	f.Add(append(append([]byte(nil), start...), sasl...))
	f.Add([]byte{0, 0, 0, 8, 0, 2, 0, 0})
	discard := slog.New(slog.NewTextHandler(io.Discard, nil))
	var servers []*Server
	for _, pw := range []string{"", "pw"} {
		// A small maximum message size: a claimed length is allocated up front.
		srv, err := New(Config{Backend: &fakeBackend{}, Logger: discard, Password: pw, MaxMessageSize: 1 << 16})
		if err != nil {
			f.Fatal(err)
		}
		servers = append(servers, srv)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, srv := range servers {
			out := &bytes.Buffer{}
			srv.ServeConn(context.Background(), &memConn{r: bytes.NewReader(data), w: out})
			if bytes.Contains(out.Bytes(), []byte("CXX000\x00")) {
				t.Fatalf("internal error for input %q: %q", data, out.Bytes())
			}
		}
	})
}

// TestNegotiateDownFrom32: pgx asking for protocol 3.2 is told 3.0 and
// carries on, as with PostgreSQL 15.
func TestNegotiateDownFrom32(t *testing.T) {
	ts := startTestServer(t, nil)
	ctx := context.Background()
	conn, err := pgconn.Connect(ctx, "postgres://bob@"+ts.addr+"/db?sslmode=disable&max_protocol_version=3.2")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	res := conn.ExecParams(ctx, "echo $1", [][]byte{[]byte("7")}, nil, nil, nil).Read()
	if res.Err != nil || len(res.Rows) != 1 || string(res.Rows[0][0]) != "7" {
		t.Fatalf("%v %v", res.Rows, res.Err)
	}
	if err := conn.CancelRequest(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestMaxConnections(t *testing.T) {
	ts := startTestServer(t, func(cfg *Config) { cfg.MaxConnections = 2 })
	a, _ := ts.connect()
	ts.connect()
	c := ts.dial()
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "alice"}})
	expect(t, c.untilClosed(), "ErrorResponse FATAL 53300 sorry, too many clients already")
	a.send(&pgproto3.Terminate{})
	expect(t, a.untilClosed())
	// The slot frees once the server has seen the Terminate; retry until then.
	for i := 0; ; i++ {
		c := ts.dial()
		c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "alice"}})
		got := c.untilReady()
		if got[len(got)-1] == "ReadyForQuery I" {
			break
		}
		if i == 1000 {
			t.Fatalf("no slot after a client left: %q", got)
		}
		time.Sleep(time.Millisecond)
	}
}

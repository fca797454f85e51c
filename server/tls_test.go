package server

import (
	"context"
	"crypto/tls"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/xdg-go/scram"

	"minipg/internal/testutil"
)

// startTLSServer serves with ssl on, a password and the given hba rules
// (nil: the built-in ones).
func startTLSServer(t *testing.T, hba string, mod func(*Config)) (*testServer, testutil.TLSFiles) {
	t.Helper()
	files := testutil.MakeTLSFiles(t, t.TempDir())
	cfg, err := LoadTLS(files.Cert, files.Key)
	if err != nil {
		t.Fatal(err)
	}
	var h *HBA
	if hba != "" {
		if h, err = ParseHBA(strings.NewReader(hba), "test"); err != nil {
			t.Fatal(err)
		}
	}
	ts := startTestServer(t, func(c *Config) {
		c.TLS, c.Password, c.HBA = cfg, "pw", h
		if mod != nil {
			mod(c)
		}
	})
	return ts, files
}

func tlsDSN(ts *testServer, user, query string) string {
	return "postgres://" + user + ":pw@" + ts.addr + "/db?" + query
}

// usesTLS reports whether conn runs over TLS, and with which version.
func usesTLS(conn *pgconn.PgConn) (bool, uint16) {
	tc, ok := conn.Conn().(*tls.Conn)
	if !ok {
		return false, 0
	}
	return true, tc.ConnectionState().Version
}

// TestTLSPgx: sslmode=require and verify-full from pgx, SCRAM with and
// without channel binding, and a client that will not do TLS with a
// server whose rules accept only hostssl.
func TestTLSPgx(t *testing.T) {
	ts, files := startTLSServer(t, "hostssl all all all scram-sha-256\nhostnossl all all all reject\n", nil)
	ctx := context.Background()
	root := url.QueryEscape(files.CA)
	for _, q := range []string{
		"sslmode=require",
		"sslmode=verify-ca&sslrootcert=" + root,
		"sslmode=verify-full&sslrootcert=" + root,
		"sslmode=verify-full&sslrootcert=" + root + "&channel_binding=require",
		"sslmode=require&channel_binding=disable",
	} {
		conn, err := pgconn.Connect(ctx, tlsDSN(ts, "bob", q))
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if on, v := usesTLS(conn); !on || v < tls.VersionTLS12 {
			t.Fatalf("%s: TLS %v version %x", q, on, v)
		}
		res := conn.ExecParams(ctx, "rows 2", nil, nil, nil, nil).Read()
		if res.Err != nil || len(res.Rows) != 2 {
			t.Fatalf("%s: %v %d rows", q, res.Err, len(res.Rows))
		}
		conn.Close(ctx)
	}
	// The certificate also names localhost.
	_, port, _ := strings.Cut(ts.addr, ":")
	conn, err := pgconn.Connect(ctx, "postgres://bob:pw@localhost:"+port+"/db?sslmode=verify-full&sslrootcert="+root)
	if err != nil {
		t.Fatalf("verify-full to localhost: %v", err)
	}
	conn.Close(ctx)
	// Another CA did not sign it.
	other := testutil.MakeTLSFiles(t, t.TempDir())
	_, err = pgconn.Connect(ctx, tlsDSN(ts, "bob", "sslmode=verify-full&sslrootcert="+url.QueryEscape(other.CA)))
	if err == nil || !strings.Contains(err.Error(), "certificate signed by unknown authority") {
		t.Fatalf("verify-full with another CA: %v", err)
	}
	// A wrong password over TLS, with channel binding.
	_, err = pgconn.Connect(ctx, "postgres://bob:nope@"+ts.addr+"/db?sslmode=require&channel_binding=require")
	if !isPgCode(err, "28P01") {
		t.Fatalf("wrong password: %v", err)
	}
	// hostnossl: the same client without TLS meets the reject rule.
	_, err = pgconn.Connect(ctx, tlsDSN(ts, "bob", "sslmode=disable"))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "28000" ||
		pe.Message != `pg_hba.conf rejects connection for host "127.0.0.1", user "bob", database "db", no encryption` {
		t.Fatalf("without TLS: %v", err)
	}
}

// TestTLSRules: a hostssl-only rule set refuses clients in the clear with
// "no pg_hba.conf entry", and names the encryption when TLS clients miss.
func TestTLSRules(t *testing.T) {
	ts, _ := startTLSServer(t, "hostssl all alice 127.0.0.1/32 trust\n", nil)
	ctx := context.Background()
	conn, err := pgconn.Connect(ctx, "postgres://alice@"+ts.addr+"/db?sslmode=require")
	if err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	var pe *pgconn.PgError
	_, err = pgconn.Connect(ctx, "postgres://alice@"+ts.addr+"/db?sslmode=disable")
	if !errors.As(err, &pe) || pe.Message != `no pg_hba.conf entry for host "127.0.0.1", user "alice", database "db", no encryption` {
		t.Fatalf("in the clear: %v", err)
	}
	_, err = pgconn.Connect(ctx, "postgres://bob@"+ts.addr+"/db?sslmode=require")
	if !errors.As(err, &pe) || pe.Message != `no pg_hba.conf entry for host "127.0.0.1", user "bob", database "db", SSL encryption` {
		t.Fatalf("other user: %v", err)
	}
}

// TestSSLOff: without TLS the server answers SSLRequest 'N', so
// sslmode=require fails and prefer goes on in the clear; channel binding
// cannot be required.
func TestSSLOff(t *testing.T) {
	ts := startTestServer(t, func(c *Config) { c.Password = "pw" })
	ctx := context.Background()
	_, err := pgconn.Connect(ctx, tlsDSN(ts, "bob", "sslmode=require"))
	if err == nil || !strings.Contains(err.Error(), "server refused TLS connection") {
		t.Fatalf("require against ssl=off: %v", err)
	}
	conn, err := pgconn.Connect(ctx, tlsDSN(ts, "bob", "sslmode=prefer"))
	if err != nil {
		t.Fatal(err)
	}
	if on, _ := usesTLS(conn); on {
		t.Fatal("TLS with ssl off")
	}
	conn.Close(ctx)
	if _, err := pgconn.Connect(ctx, tlsDSN(ts, "bob", "sslmode=disable&channel_binding=require")); err == nil {
		t.Fatal("channel binding required without TLS succeeded")
	}
}

// TestLoadTLSKeyPermissions: a key file others can read is refused, as
// PostgreSQL refuses it.
func TestLoadTLSKeyPermissions(t *testing.T) {
	files := testutil.MakeTLSFiles(t, t.TempDir())
	if err := os.Chmod(files.Key, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadTLS(files.Cert, files.Key); err == nil || !strings.Contains(err.Error(), "has group or world access") {
		t.Fatalf("0644 key: %v", err)
	}
	if _, err := LoadTLS(files.Cert, filepath.Join(t.TempDir(), "none.key")); err == nil {
		t.Fatal("missing key accepted")
	}
	if _, err := LoadTLS(files.CA, files.Key+"x"); err == nil {
		t.Fatal("mismatched files accepted")
	}
}

// TestTLSPsql: libpq with sslmode=require, verify-full and
// channel_binding=require.
func TestTLSPsql(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Skip("psql not installed")
	}
	ts, files := startTLSServer(t, "hostssl all all all scram-sha-256\n", nil)
	_, port, _ := strings.Cut(ts.addr, ":")
	for _, conninfo := range []string{
		"host=127.0.0.1 sslmode=require",
		"host=localhost sslmode=verify-full sslrootcert=" + files.CA,
		"host=127.0.0.1 sslmode=verify-full channel_binding=require sslrootcert=" + files.CA,
	} {
		cmd := exec.Command(psql, "-X", "-A", "-t", "-c", "rows 1",
			conninfo+" port="+port+" user=bob dbname=db password=pw gssencmode=prefer")
		cmd.Env = append(cmd.Environ(), "PGCONNECT_TIMEOUT=10", "HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "1|row 1" {
			t.Fatalf("%s: %v\n%s", conninfo, err, out)
		}
	}
	cmd := exec.Command(psql, "-X", "-c", "rows 1", "host=127.0.0.1 port="+port+" user=bob dbname=db password=pw sslmode=disable")
	cmd.Env = append(cmd.Environ(), "PGCONNECT_TIMEOUT=10")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), `no pg_hba.conf entry for host "127.0.0.1", user "bob", database "db", no encryption`) {
		t.Fatalf("psql in the clear: %v\n%s", err, out)
	}
}

// tlsSASLStart dials ts with TLS, sends the startup and returns the
// client and the mechanisms the server offers.
func tlsSASLStart(t *testing.T, ts *testServer) (*client, *tls.Conn, []string) {
	t.Helper()
	c := ts.dial()
	ssl, _ := (&pgproto3.SSLRequest{}).Encode(nil)
	c.sendRaw(ssl)
	var b [1]byte
	if _, err := c.nc.Read(b[:]); err != nil || b[0] != 'S' {
		t.Fatalf("SSLRequest answered %q, %v", b[:], err)
	}
	tc := tls.Client(c.nc, &tls.Config{InsecureSkipVerify: true})
	if err := tc.Handshake(); err != nil {
		t.Fatal(err)
	}
	c.nc, c.fe = tc, pgproto3.NewFrontend(tc, tc)
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "bob", "database": "db"}})
	msg, err := c.fe.Receive()
	if err != nil {
		t.Fatal(err)
	}
	sasl, ok := msg.(*pgproto3.AuthenticationSASL)
	if !ok {
		t.Fatalf("got %T, want AuthenticationSASL", msg)
	}
	return c, tc, sasl.AuthMechanisms
}

// TestSCRAMChannelBinding: over TLS the server offers SCRAM-SHA-256-PLUS
// first; the right tls-server-end-point data authenticates, other data is
// refused, and a client claiming the server cannot bind is a downgrade.
func TestSCRAMChannelBinding(t *testing.T) {
	ts, _ := startTLSServer(t, "", nil)
	run := func(mech string, cb func(*tls.Conn) scram.ChannelBinding, firstOverride string) []string {
		c, tc, mechs := tlsSASLStart(t, ts)
		expect(t, mechs, "SCRAM-SHA-256-PLUS", "SCRAM-SHA-256")
		cl, err := scram.SHA256.NewClient("", "pw", "")
		if err != nil {
			t.Fatal(err)
		}
		conv := cl.NewConversation()
		if cb != nil {
			conv = cl.NewConversationWithChannelBinding(cb(tc))
		}
		first, err := conv.Step("")
		if err != nil {
			t.Fatal(err)
		}
		if firstOverride != "" {
			first = firstOverride
		}
		c.send(&pgproto3.SASLInitialResponse{AuthMechanism: mech, Data: []byte(first)})
		msg, err := c.fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		cont, ok := msg.(*pgproto3.AuthenticationSASLContinue)
		if !ok {
			return append([]string{testutil.Summarize(msg)}, c.untilClosed()...)
		}
		final, err := conv.Step(string(cont.Data))
		if err != nil {
			t.Fatal(err)
		}
		c.send(&pgproto3.SASLResponse{Data: []byte(final)})
		out := c.next(1)
		if out[0] == "AuthenticationSASLFinal" {
			out = append(out, c.untilReady()...)
			return out[:2]
		}
		return out
	}
	good := func(tc *tls.Conn) scram.ChannelBinding {
		st := tc.ConnectionState()
		cb, err := scram.NewTLSServerEndpointBinding(&st)
		if err != nil {
			t.Fatal(err)
		}
		return cb
	}
	expect(t, run("SCRAM-SHA-256-PLUS", good, ""), "AuthenticationSASLFinal", "AuthenticationOk")
	expect(t, run("SCRAM-SHA-256", nil, ""), "AuthenticationSASLFinal", "AuthenticationOk")
	bad := func(tc *tls.Conn) scram.ChannelBinding {
		cb := good(tc)
		cb.Data = append([]byte(nil), cb.Data...)
		cb.Data[0] ^= 1
		return cb
	}
	expect(t, run("SCRAM-SHA-256-PLUS", bad, ""), "ErrorResponse FATAL 08P01 SCRAM channel binding check failed")
	expect(t, run("SCRAM-SHA-256", nil, "y,,n=,r=abcdefghijklmnop"), "ErrorResponse FATAL 08P01 SCRAM channel binding negotiation error")
	expect(t, run("SCRAM-SHA-256-PLUS", nil, ""), "ErrorResponse FATAL 08P01 SCRAM channel binding negotiation error")
}

// TestTLSConnectionEnds: over TLS (no socket-level shutdown to wake the
// reader) the idle-in-transaction timeout and server shutdown still end
// the connection with their FATAL errors.
func TestTLSConnectionEnds(t *testing.T) {
	ts, _ := startTLSServer(t, "", nil)
	ctx := context.Background()
	idle, err := pgconn.Connect(ctx, tlsDSN(ts, "bob", "sslmode=require"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := idle.Exec(ctx, "set idle_in_transaction_session_timeout 100; begin").ReadAll(); err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := idle.ReceiveMessage(rctx); !isPgCode(err, "25P03") {
		t.Fatalf("idle in transaction over TLS: %v", err)
	}
	other, err := pgconn.Connect(ctx, tlsDSN(ts, "bob", "sslmode=require"))
	if err != nil {
		t.Fatal(err)
	}
	ts.stop()
	if _, err := other.ReceiveMessage(rctx); !isPgCode(err, "57P01") {
		t.Fatalf("shutdown over TLS: %v", err)
	}
}

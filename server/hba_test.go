package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

func TestParseHBA(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string // HBARule.String of each rule
		err      string   // substring of the error
	}{
		{name: "empty and comments", in: "# TYPE DATABASE USER ADDRESS METHOD\n\n   \t\n# nothing\n", want: []string{}},
		{name: "postgres default", in: `
# "local" is for Unix domain socket connections only
local   all             all                                     trust
# IPv4 local connections:
host    all             all             127.0.0.1/32            trust
# IPv6 local connections:
host    all             all             ::1/128                 trust
local   replication     all                                     trust
`, want: []string{"local all all trust", "host all all 127.0.0.1/32 trust", "host all all ::1/128 trust", "local replication all trust"}},
		{name: "lists and quotes", in: `hostssl db1,"all",db2 alice, bob 10.0.0.0/8 scram-sha-256 # trailing comment`,
			want: []string{`hostssl db1,"all",db2 alice,bob 10.0.0.0/8 scram-sha-256`}},
		{name: "quoted space", in: `host "my db" "x y" all md5`, want: []string{`host "my db" "x y" all md5`}},
		{name: "address and mask", in: "hostnossl all all 192.168.12.10 255.255.255.0 password",
			want: []string{"hostnossl all all 192.168.12.0/24 password"}},
		{name: "ipv6 mask", in: "host all all fd00::1 ffff:ffff:: reject", want: []string{"host all all fd00::/32 reject"}},
		{name: "sameuser", in: "host sameuser all 0.0.0.0/0 scram-sha-256", want: []string{"host sameuser all 0.0.0.0/0 scram-sha-256"}},
		{name: "bad type", in: "hots all all all trust", err: `invalid connection type "hots" (line 1 of "test")`},
		{name: "bad method", in: "\nhost all all all foo", err: `invalid authentication method "foo" (line 2 of "test")`},
		{name: "peer", in: "local all all peer", err: `authentication method "peer" is not supported`},
		{name: "no method", in: "local all all", err: "end-of-line before authentication method"},
		{name: "no address", in: "host all all", err: "end-of-line before IP address specification"},
		{name: "no user", in: "host all", err: "end-of-line before role specification"},
		{name: "bad cidr", in: "host all all 10.0.0.0/33 trust", err: `invalid IP address/mask "10.0.0.0/33"`},
		{name: "host name", in: "host all all example.com trust", err: "host names are not supported"},
		{name: "no mask", in: "host all all 10.0.0.1", err: "end-of-line before netmask specification"},
		{name: "bad mask", in: "host all all 10.0.0.1 255.0.255.0 trust", err: `invalid IP mask "255.0.255.0"`},
		{name: "mixed mask", in: "host all all 10.0.0.1 ffff:: trust", err: "IP address and mask do not match"},
		{name: "option", in: "hostssl all all all scram-sha-256 clientcert=verify-full", err: `authentication option "clientcert=verify-full" is not supported`},
		{name: "group", in: "host all +admins all trust", err: "group membership (+admins) is not supported"},
		{name: "samehost", in: "host all all samehost trust", err: `address keyword "samehost" is not supported`},
		{name: "unterminated", in: `host "all all all trust`, err: "unterminated quoted string"},
		{name: "gssenc", in: "hostgssenc all all all trust", err: "GSSAPI is not supported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := ParseHBA(strings.NewReader(tc.in), "test")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for i := range h.Rules {
				got = append(got, h.Rules[i].String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}

func TestHBAMatch(t *testing.T) {
	h, err := ParseHBA(strings.NewReader(`
local   all      all                 trust
hostssl all      all   10.1.0.0/16   scram-sha-256
host    "all"    all   10.0.0.0/8    md5
host    sameuser all   10.0.0.0/8    password
host    all      eve   0.0.0.0/0     reject
host    db1,db2  bob   0.0.0.0/0     scram-sha-256
hostnossl all    all   ::1/128       trust
`), "test")
	if err != nil {
		t.Fatal(err)
	}
	ip := net.ParseIP
	for _, tc := range []struct {
		cl   hbaClient
		line int // 0: no rule
	}{
		{hbaClient{local: true, database: "x", user: "y"}, 2},
		{hbaClient{ssl: true, ip: ip("10.1.2.3"), database: "x", user: "y"}, 3},
		{hbaClient{ip: ip("10.1.2.3"), database: "all", user: "y"}, 4}, // quoted "all" is a name
		{hbaClient{ip: ip("10.1.2.3"), database: "x", user: "y"}, 0},
		{hbaClient{ip: ip("10.1.2.3"), database: "y", user: "y"}, 5},
		{hbaClient{ip: ip("192.0.2.1"), database: "db2", user: "eve"}, 6}, // first match wins
		{hbaClient{ip: ip("192.0.2.1"), database: "db2", user: "bob"}, 7},
		{hbaClient{ip: ip("192.0.2.1"), database: "db3", user: "bob"}, 0},
		{hbaClient{ip: ip("::1"), database: "x", user: "y"}, 8},
		{hbaClient{ssl: true, ip: ip("::1"), database: "x", user: "y"}, 0},
	} {
		r := h.match(tc.cl)
		line := 0
		if r != nil {
			line = r.Line
		}
		if line != tc.line {
			t.Errorf("%+v: line %d, want %d", tc.cl, line, tc.line)
		}
	}
}

func TestDefaultHBA(t *testing.T) {
	trust := DefaultHBA("", "")
	if got := trust.Summary(); got != "local all all trust; host all all 127.0.0.0/8 trust; host all all ::1/128 trust" {
		t.Fatalf("without password: %s", got)
	}
	for _, tc := range []struct {
		cl   hbaClient
		want string
	}{
		{hbaClient{local: true}, AuthTrust},
		{hbaClient{ip: net.ParseIP("127.0.0.2").To4()}, AuthTrust},
		{hbaClient{ip: net.ParseIP("::1")}, AuthTrust},
		{hbaClient{ip: net.ParseIP("192.0.2.2").To4()}, ""},
		{hbaClient{ip: net.ParseIP("::ffff:10.0.0.1").To4()}, ""},
	} {
		got := ""
		if r := trust.match(tc.cl); r != nil {
			got = r.Method
		}
		if got != tc.want {
			t.Errorf("%v: %q, want %q", tc.cl.ip, got, tc.want)
		}
	}
	pw := DefaultHBA("pw", AuthMD5)
	if got := pw.Summary(); got != "local all all md5; host all all all md5" {
		t.Fatalf("with password: %s", got)
	}
}

// remoteAs makes every TCP client look as if it came from ip.
func remoteAs(ip string) func(*Config) {
	return func(cfg *Config) { cfg.peerIP = func(net.Conn) net.IP { return net.ParseIP(ip).To4() } }
}

// TestHBARefusesRemote: without a password a client from a non-loopback
// address is refused with PostgreSQL's message; with one it must
// authenticate; an hba file decides otherwise.
func TestHBARefusesRemote(t *testing.T) {
	ts := startTestServer(t, remoteAs("192.0.2.7"))
	c2 := ts.dial()
	c2.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "alice", "database": "db"}})
	expect(t, c2.untilClosed(),
		`ErrorResponse FATAL 28000 no pg_hba.conf entry for host "192.0.2.7", user "alice", database "db", no encryption`)

	// With a password, SCRAM from anywhere.
	ts = startTestServer(t, func(cfg *Config) { remoteAs("192.0.2.7")(cfg); cfg.Password = "pw" })
	ctx := context.Background()
	if _, err := pgconn.Connect(ctx, "postgres://bob@"+ts.addr+"/db?sslmode=disable"); !isPgCode(err, "28P01") {
		t.Fatalf("no password: %v", err)
	}
	conn, err := pgconn.Connect(ctx, "postgres://bob:pw@"+ts.addr+"/db?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)

	// An hba file: reject, a password for one network, trust for another.
	h, err := ParseHBA(strings.NewReader(`
host all mallory all reject
host all all 192.0.2.0/24 scram-sha-256
host all all 198.51.100.0/24 trust
`), "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		from, user, password, code, msg string
	}{
		{"192.0.2.7", "mallory", "pw", "28000", `pg_hba.conf rejects connection for host "192.0.2.7", user "mallory", database "db", no encryption`},
		{"192.0.2.7", "bob", "pw", "", ""},
		{"192.0.2.7", "bob", "nope", "28P01", `password authentication failed for user "bob"`},
		{"198.51.100.3", "bob", "", "", ""},
		{"203.0.113.1", "bob", "pw", "28000", `no pg_hba.conf entry for host "203.0.113.1", user "bob", database "db", no encryption`},
	} {
		ts := startTestServer(t, func(cfg *Config) { remoteAs(tc.from)(cfg); cfg.Password = "pw"; cfg.HBA = h })
		conn, err := pgconn.Connect(ctx, fmt.Sprintf("postgres://%s:%s@%s/db?sslmode=disable", tc.user, tc.password, ts.addr))
		if tc.code == "" {
			if err != nil {
				t.Fatalf("%s from %s: %v", tc.user, tc.from, err)
			}
			conn.Close(ctx)
			continue
		}
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != tc.code || pe.Severity != "FATAL" || pe.Message != tc.msg {
			t.Fatalf("%s from %s: %v, want %s %s", tc.user, tc.from, err, tc.code, tc.msg)
		}
	}
}

func isPgCode(err error, code string) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == code
}

// TestHBARealRemoteAddress connects over a non-loopback interface of this
// machine, so the server sees a non-loopback peer without any override.
func TestHBARealRemoteAddress(t *testing.T) {
	var local net.IP
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Skip(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			local = n.IP.To4()
			break
		}
	}
	if local == nil {
		t.Skip("no non-loopback IPv4 interface")
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(local.String(), "0"))
	if err != nil {
		t.Skip(err)
	}
	ts := startTestServer(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ts.srv.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	_, err = pgconn.Connect(context.Background(), "postgres://alice@"+ln.Addr().String()+"/db?sslmode=disable")
	want := fmt.Sprintf(`no pg_hba.conf entry for host "%s", user "alice", database "db", no encryption`, local)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "28000" || pe.Message != want {
		t.Fatalf("got %v, want 28000 %s", err, want)
	}
}

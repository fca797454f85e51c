package server

import (
	"encoding/binary"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"minipg/types"
)

var startupReplies = []string{
	"AuthenticationOk",
	"ParameterStatus application_name=wiretest",
	"ParameterStatus client_encoding=UTF8",
	"ParameterStatus DateStyle=ISO, MDY",
	"ParameterStatus default_transaction_read_only=off",
	"ParameterStatus in_hot_standby=off",
	"ParameterStatus integer_datetimes=on",
	"ParameterStatus IntervalStyle=postgres",
	"ParameterStatus is_superuser=on",
	"ParameterStatus server_encoding=UTF8",
	"ParameterStatus server_version=" + ServerVersion,
	"ParameterStatus session_authorization=alice",
	"ParameterStatus standard_conforming_strings=on",
	"ParameterStatus TimeZone=Etc/UTC",
	"BackendKeyData",
	"ReadyForQuery I",
}

func TestStartup(t *testing.T) {
	ts := startTestServer(t, nil)
	_, got := ts.connect()
	expect(t, got, startupReplies...)
}

func TestStartupSSLAndGSSDeclined(t *testing.T) {
	ts := startTestServer(t, nil)
	c := ts.dial()
	for _, code := range []uint32{gssEncRequestCode, sslRequestCode} {
		var pkt [8]byte
		binary.BigEndian.PutUint32(pkt[:4], 8)
		binary.BigEndian.PutUint32(pkt[4:], code)
		c.sendRaw(pkt[:])
		var b [1]byte
		if _, err := c.nc.Read(b[:]); err != nil || b[0] != 'N' {
			t.Fatalf("reply to %d: %q %v", code, b, err)
		}
	}
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "alice", "application_name": "wiretest"}})
	expect(t, c.untilReady(), startupReplies...)
}

func TestStartupProtocolVersions(t *testing.T) {
	ts := startTestServer(t, nil)

	// A newer minor version, and protocol options: NegotiateProtocolVersion.
	c := ts.dial()
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion32,
		Parameters: map[string]string{"user": "alice", "application_name": "wiretest", "_pq_.something": "x"}})
	got := c.untilReady()
	expect(t, got[:2], "NegotiateProtocolVersion 0 [_pq_.something]", "AuthenticationOk")

	// Another major version: FATAL 0A000 as PostgreSQL.
	c = ts.dial()
	var pkt [8]byte
	binary.BigEndian.PutUint32(pkt[:4], 8)
	binary.BigEndian.PutUint32(pkt[4:], 2<<16)
	c.sendRaw(pkt[:])
	expect(t, c.untilClosed(), "ErrorResponse FATAL 0A000 unsupported frontend protocol 2.0: server supports 3.0 to 3.0")

	// No user name.
	c = ts.dial()
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"database": "x"}})
	expect(t, c.untilClosed(), "ErrorResponse FATAL 28000 no PostgreSQL user name specified in startup packet")

	// Bad length.
	c = ts.dial()
	c.sendRaw([]byte{0, 0, 0, 2})
	expect(t, c.untilClosed(), "ErrorResponse FATAL 08P01 invalid length of startup packet")
}

func TestSimpleQuery(t *testing.T) {
	ts := startTestServer(t, nil)
	c, _ := ts.connect()

	c.send(&pgproto3.Query{String: "rows 2; insert; notice hello"})
	expect(t, c.untilReady(),
		"RowDescription i:23:0,s:25:0",
		"DataRow 1|row 1",
		"DataRow 2|row 2",
		"CommandComplete SELECT 2",
		"CommandComplete INSERT 0 1",
		"NoticeResponse NOTICE 00000 hello",
		"CommandComplete DO",
		"ReadyForQuery I")

	// The first error ends the message; the implicit transaction ends.
	c.send(&pgproto3.Query{String: "insert; fail 22012 division by zero; insert"})
	expect(t, c.untilReady(),
		"CommandComplete INSERT 0 1",
		"ErrorResponse ERROR 22012 division by zero",
		"ReadyForQuery I")

	// Empty and comment-only queries (pgx's Ping).
	for _, q := range []string{"", "-- ping", " ; "} {
		c.send(&pgproto3.Query{String: q})
		expect(t, c.untilReady(), "EmptyQueryResponse", "ReadyForQuery I")
	}

	// A syntax error anywhere fails the whole message, with its position.
	c.send(&pgproto3.Query{String: "insert; syntax"})
	expect(t, c.untilReady(), "ErrorResponse ERROR 42601 syntax error at or near \"syntax\" @9", "ReadyForQuery I")

	// Transaction status, warnings and failed blocks.
	c.send(&pgproto3.Query{String: "begin; begin"})
	expect(t, c.untilReady(),
		"CommandComplete BEGIN",
		"NoticeResponse WARNING 25001 there is already a transaction in progress",
		"CommandComplete BEGIN",
		"ReadyForQuery T")
	c.send(&pgproto3.Query{String: "fail 23505 duplicate key"})
	expect(t, c.untilReady(), "ErrorResponse ERROR 23505 duplicate key", "ReadyForQuery E")
	c.send(&pgproto3.Query{String: "insert"})
	expect(t, c.untilReady(), "ErrorResponse ERROR 25P02 current transaction is aborted, commands ignored until end of transaction block", "ReadyForQuery E")
	c.send(&pgproto3.Query{String: "commit"})
	expect(t, c.untilReady(), "CommandComplete ROLLBACK", "ReadyForQuery I")
	c.send(&pgproto3.Query{String: "commit"})
	expect(t, c.untilReady(), "NoticeResponse WARNING 25P01 there is no transaction in progress", "CommandComplete COMMIT", "ReadyForQuery I")

	// Changed settings are reported before ReadyForQuery.
	c.send(&pgproto3.Query{String: "set application_name x"})
	expect(t, c.untilReady(), "CommandComplete SET", "ParameterStatus application_name=x", "ReadyForQuery I")

	c.send(&pgproto3.Terminate{})
	expect(t, c.untilClosed())
}

func TestLargeResultStreams(t *testing.T) {
	ts := startTestServer(t, nil)
	c, _ := ts.connect()
	c.send(&pgproto3.Query{String: "rows 20000"})
	got := c.untilReady()
	if len(got) != 20003 || got[20000] != "DataRow 20000|row 20000" || got[20001] != "CommandComplete SELECT 20000" {
		t.Fatalf("got %d messages, tail %q", len(got), got[len(got)-3:])
	}
}

func TestExtended(t *testing.T) {
	ts := startTestServer(t, nil)
	c, _ := ts.connect()

	// Named statement, inferred and given parameter types, Describe S.
	c.send(
		&pgproto3.Parse{Name: "s1", Query: "echo $1 $2", ParameterOIDs: []uint32{0, uint32(types.Text)}},
		&pgproto3.Describe{ObjectType: 'S', Name: "s1"},
		&pgproto3.Sync{})
	expect(t, c.untilReady(),
		"ParseComplete",
		"ParameterDescription [23 25]",
		"RowDescription p1:23:0,p2:25:0",
		"ReadyForQuery I")

	// Text parameters, mixed result formats.
	c.send(
		&pgproto3.Bind{PreparedStatement: "s1", Parameters: [][]byte{[]byte("42"), []byte("hi")}, ResultFormatCodes: []int16{1, 0}},
		&pgproto3.Describe{ObjectType: 'P'},
		&pgproto3.Execute{},
		&pgproto3.Sync{})
	expect(t, c.untilReady(),
		"BindComplete",
		"RowDescription p1:23:1,p2:25:0",
		"DataRow 0x0000002a|hi",
		"CommandComplete SELECT 1",
		"ReadyForQuery I")

	// Binary parameters (one format code for all), all-binary results, NULL.
	c.send(
		&pgproto3.Bind{PreparedStatement: "s1", ParameterFormatCodes: []int16{1}, Parameters: [][]byte{{0, 0, 1, 0}, nil}, ResultFormatCodes: []int16{1}},
		&pgproto3.Execute{},
		&pgproto3.Sync{})
	expect(t, c.untilReady(), "BindComplete", "DataRow 0x00000100|NULL", "CommandComplete SELECT 1", "ReadyForQuery I")

	// Unnamed statement and portal; NoData for a statement without rows.
	c.send(
		&pgproto3.Parse{Query: "insert"},
		&pgproto3.Bind{},
		&pgproto3.Describe{ObjectType: 'P'},
		&pgproto3.Execute{},
		&pgproto3.Sync{})
	expect(t, c.untilReady(), "ParseComplete", "BindComplete", "NoData", "CommandComplete INSERT 0 1", "ReadyForQuery I")

	// Empty statement.
	c.send(&pgproto3.Parse{Query: ""}, &pgproto3.Bind{}, &pgproto3.Describe{ObjectType: 'S'}, &pgproto3.Execute{}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "ParseComplete", "BindComplete", "ParameterDescription []", "NoData", "EmptyQueryResponse", "ReadyForQuery I")

	// Close, then the statement is gone.
	c.send(&pgproto3.Close{ObjectType: 'S', Name: "s1"}, &pgproto3.Close{ObjectType: 'S', Name: "nope"},
		&pgproto3.Describe{ObjectType: 'S', Name: "s1"}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "CloseComplete", "CloseComplete",
		"ErrorResponse ERROR 26000 prepared statement \"s1\" does not exist", "ReadyForQuery I")

	// Flush sends what is pending without ReadyForQuery.
	c.send(&pgproto3.Parse{Name: "f", Query: "insert"}, &pgproto3.Flush{})
	expect(t, c.next(1), "ParseComplete")
	c.send(&pgproto3.Sync{})
	expect(t, c.untilReady(), "ReadyForQuery I")
}

func TestExtendedSuspendedPortal(t *testing.T) {
	ts := startTestServer(t, nil)
	c, _ := ts.connect()
	c.send(&pgproto3.Query{String: "begin"})
	c.untilReady()
	c.send(
		&pgproto3.Parse{Name: "r", Query: "rows 5"},
		&pgproto3.Bind{DestinationPortal: "p", PreparedStatement: "r"},
		&pgproto3.Execute{Portal: "p", MaxRows: 2},
		&pgproto3.Execute{Portal: "p", MaxRows: 2},
		&pgproto3.Sync{})
	expect(t, c.untilReady(), "ParseComplete", "BindComplete",
		"DataRow 1|row 1", "DataRow 2|row 2", "PortalSuspended",
		"DataRow 3|row 3", "DataRow 4|row 4", "PortalSuspended",
		"ReadyForQuery T")
	// The portal survives Sync inside a transaction block.
	c.send(&pgproto3.Execute{Portal: "p", MaxRows: 2}, &pgproto3.Execute{Portal: "p"}, &pgproto3.Sync{})
	// The tag of a resumed portal counts the rows of that Execute (as PostgreSQL).
	expect(t, c.untilReady(), "DataRow 5|row 5", "CommandComplete SELECT 1", "CommandComplete SELECT 0", "ReadyForQuery T")
	// A finished non-SELECT portal cannot run again.
	c.send(&pgproto3.Parse{Query: "insert"}, &pgproto3.Bind{DestinationPortal: "i"}, &pgproto3.Execute{Portal: "i"}, &pgproto3.Execute{Portal: "i"}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "ParseComplete", "BindComplete", "CommandComplete INSERT 0 1",
		"ErrorResponse ERROR 55000 portal \"i\" cannot be run", "ReadyForQuery T")
	// COMMIT ends the transaction and its portals.
	c.send(&pgproto3.Query{String: "commit"})
	expect(t, c.untilReady(), "CommandComplete COMMIT", "ReadyForQuery I")
	c.send(&pgproto3.Execute{Portal: "p"}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "ErrorResponse ERROR 34000 portal \"p\" does not exist", "ReadyForQuery I")
}

func TestExtendedErrorsDiscardUntilSync(t *testing.T) {
	ts := startTestServer(t, nil)
	c, _ := ts.connect()

	// Duplicate name: 42P05, and everything up to Sync is skipped.
	c.send(
		&pgproto3.Parse{Name: "a", Query: "rows 1"},
		&pgproto3.Parse{Name: "a", Query: "rows 1"},
		&pgproto3.Bind{PreparedStatement: "a"},
		&pgproto3.Execute{},
		&pgproto3.Query{String: "insert"},
		&pgproto3.Sync{})
	expect(t, c.untilReady(), "ParseComplete", "ErrorResponse ERROR 42P05 prepared statement \"a\" already exists", "ReadyForQuery I")

	// Unknown statement and portal.
	c.send(&pgproto3.Bind{PreparedStatement: "nope"}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "ErrorResponse ERROR 26000 prepared statement \"nope\" does not exist", "ReadyForQuery I")
	c.send(&pgproto3.Describe{ObjectType: 'P', Name: "nope"}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "ErrorResponse ERROR 34000 portal \"nope\" does not exist", "ReadyForQuery I")
	c.send(&pgproto3.Execute{Portal: "nope"}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "ErrorResponse ERROR 34000 portal \"nope\" does not exist", "ReadyForQuery I")

	// Parameter and format counts.
	c.send(&pgproto3.Parse{Name: "e", Query: "echo $1"}, &pgproto3.Bind{PreparedStatement: "e"}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "ParseComplete",
		"ErrorResponse ERROR 08P01 bind message supplies 0 parameters, but prepared statement \"e\" requires 1", "ReadyForQuery I")
	c.send(&pgproto3.Bind{PreparedStatement: "e", ParameterFormatCodes: []int16{0, 0}, Parameters: [][]byte{[]byte("1")}}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "ErrorResponse ERROR 08P01 bind message has 2 parameter formats but 1 parameters", "ReadyForQuery I")
	c.send(&pgproto3.Bind{PreparedStatement: "e", Parameters: [][]byte{[]byte("1")}, ResultFormatCodes: []int16{0, 0}}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "ErrorResponse ERROR 08P01 bind message has 2 result formats but query has 1 columns", "ReadyForQuery I")
	c.send(&pgproto3.Bind{PreparedStatement: "e", Parameters: [][]byte{[]byte("x")}}, &pgproto3.Sync{})
	got := c.untilReady()
	if len(got) != 2 || !strings.HasPrefix(got[0], "ErrorResponse ERROR 22P02 ") {
		t.Fatalf("bad text parameter: %q", got)
	}

	// An error in Execute inside a block: E until ROLLBACK; Sync does not end it.
	c.send(&pgproto3.Query{String: "begin"})
	c.untilReady()
	c.send(&pgproto3.Parse{Query: "fail 22012 division by zero"}, &pgproto3.Bind{}, &pgproto3.Execute{},
		&pgproto3.Parse{Query: "insert"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "ParseComplete", "BindComplete", "ErrorResponse ERROR 22012 division by zero", "ReadyForQuery E")
	c.send(&pgproto3.Query{String: "rollback"})
	expect(t, c.untilReady(), "CommandComplete ROLLBACK", "ReadyForQuery I")

	// Named statements survive; the connection is fine.
	c.send(&pgproto3.Bind{PreparedStatement: "a"}, &pgproto3.Execute{}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "BindComplete", "DataRow 1|row 1", "CommandComplete SELECT 1", "ReadyForQuery I")
}

func TestCopyIn(t *testing.T) {
	ts := startTestServer(t, nil)
	c, _ := ts.connect()

	c.send(&pgproto3.Query{String: "copy"})
	expect(t, c.next(1), "CopyInResponse 0 [0 0]")
	c.send(&pgproto3.CopyData{Data: []byte("1\ta\n2\t")}, &pgproto3.Flush{}, &pgproto3.CopyData{Data: []byte("b\n")}, &pgproto3.CopyDone{})
	expect(t, c.untilReady(), "CommandComplete COPY 2", "ReadyForQuery I")

	c.send(&pgproto3.Query{String: "copy binary"})
	expect(t, c.next(1), "CopyInResponse 1 [1 1]")
	c.send(&pgproto3.CopyData{Data: []byte("PGCOPY\n\xff\r\n\x00")}, &pgproto3.CopyDone{})
	expect(t, c.untilReady(), "CommandComplete COPY 11", "ReadyForQuery I")

	// CopyFail.
	c.send(&pgproto3.Query{String: "copy"})
	expect(t, c.next(1), "CopyInResponse 0 [0 0]")
	c.send(&pgproto3.CopyData{Data: []byte("1\n")}, &pgproto3.CopyFail{Message: "boom"})
	expect(t, c.untilReady(), "ErrorResponse ERROR 57014 COPY from stdin failed: boom", "ReadyForQuery I")

	// Bad data: the error, and the rest of the stream is ignored.
	c.send(&pgproto3.Query{String: "copy"})
	expect(t, c.next(1), "CopyInResponse 0 [0 0]")
	c.send(&pgproto3.CopyData{Data: []byte("bad\n")}, &pgproto3.CopyDone{}, &pgproto3.CopyData{Data: []byte("late\n")}, &pgproto3.CopyDone{})
	expect(t, c.untilReady(), "ErrorResponse ERROR 22P04 bad copy data", "ReadyForQuery I")

	// Extended protocol: a Sync that arrives during COPY is ignored (as
	// PostgreSQL does); only the one after CopyDone answers.
	c.send(&pgproto3.Parse{Query: "copy"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})
	expect(t, c.next(3), "ParseComplete", "BindComplete", "CopyInResponse 0 [0 0]")
	c.send(&pgproto3.CopyData{Data: []byte("1\n")}, &pgproto3.CopyDone{}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "CommandComplete COPY 1", "ReadyForQuery I")
	c.send(&pgproto3.Query{String: "insert"})
	expect(t, c.untilReady(), "CommandComplete INSERT 0 1", "ReadyForQuery I")

	// Any other message: ERROR, then FATAL, as PostgreSQL.
	c.send(&pgproto3.Query{String: "copy"})
	expect(t, c.next(1), "CopyInResponse 0 [0 0]")
	c.send(&pgproto3.CopyData{Data: []byte("1\n")}, &pgproto3.Query{String: "insert"})
	expect(t, c.untilClosed(),
		"ErrorResponse ERROR 08P01 unexpected message type 0x51 during COPY from stdin",
		"ErrorResponse FATAL 08P01 terminating connection because protocol synchronization was lost")
}

func TestCancel(t *testing.T) {
	ts := startTestServer(t, nil)
	c := ts.dial()
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "alice"}})
	var key *pgproto3.BackendKeyData
	for {
		msg, err := c.fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		if k, ok := msg.(*pgproto3.BackendKeyData); ok {
			key = &pgproto3.BackendKeyData{ProcessID: k.ProcessID, SecretKey: append([]byte(nil), k.SecretKey...)}
		}
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
			break
		}
	}
	c.send(&pgproto3.Query{String: "sleep"})

	cancel := func(secret []byte) {
		cc := ts.dial()
		cc.send(&pgproto3.CancelRequest{ProcessID: key.ProcessID, SecretKey: secret})
		expect(t, cc.untilClosed()) // closed without a reply
	}
	// A wrong key is ignored: the statement keeps running.
	cancel([]byte{^key.SecretKey[0], key.SecretKey[1], key.SecretKey[2], key.SecretKey[3]})
	_ = c.nc.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if _, err := c.fe.Receive(); err == nil {
		t.Fatal("statement ended after a cancel request with a wrong key")
	} else if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
		t.Fatal(err)
	}
	// pgproto3's Frontend is unusable after a read error: read on a fresh one.
	_ = c.nc.SetReadDeadline(time.Now().Add(30 * time.Second))
	c.fe = pgproto3.NewFrontend(c.nc, c.nc)

	cancel(key.SecretKey)
	expect(t, c.untilReady(), "ErrorResponse ERROR 57014 canceling statement due to user request", "ReadyForQuery I")
	c.send(&pgproto3.Query{String: "insert"})
	expect(t, c.untilReady(), "CommandComplete INSERT 0 1", "ReadyForQuery I")
}

func TestStartupOptions(t *testing.T) {
	ts := startTestServer(t, nil)
	c := ts.dial()
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "alice", "options": `-c application_name=from\ options`}})
	got := c.untilReady()
	expect(t, got[1:2], "ParameterStatus application_name=from options")

	c = ts.dial()
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "alice", "options": "-Z"}})
	expect(t, c.untilClosed(), "ErrorResponse FATAL 42601 invalid command-line argument for server process: -Z")
}

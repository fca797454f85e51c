package pgxtest

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"minipg/internal/testutil"
)

// Wire scripts: messages sent and the replies expected, one line per
// reply. They run against minipg and, when a PostgreSQL 15 is reachable
// ($MINIPG_PG_DSN, default postgres://postgres:postgres@127.0.0.1:5432/postgres),
// against it too, which proves the expectations.

type wireStep struct {
	send []pgproto3.FrontendMessage
	want []string // replies up to and including ReadyForQuery
}

var wireSetup = []string{
	"drop table if exists wire_t",
	"create table wire_t (id integer primary key, name text)",
	"insert into wire_t values (1, 'a'), (2, 'b'), (3, 'c')",
}

var wireScript = []wireStep{
	{send: []pgproto3.FrontendMessage{
		&pgproto3.Parse{Name: "s", Query: "select id, name from wire_t where id >= $1 order by id"},
		&pgproto3.Describe{ObjectType: 'S', Name: "s"}, &pgproto3.Sync{}},
		want: []string{"ParseComplete", "ParameterDescription [23]", "RowDescription id:23:0,name:25:0", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{
		&pgproto3.Bind{PreparedStatement: "s", DestinationPortal: "p", Parameters: [][]byte{[]byte("2")}, ResultFormatCodes: []int16{1, 0}},
		&pgproto3.Describe{ObjectType: 'P', Name: "p"},
		&pgproto3.Execute{Portal: "p", MaxRows: 1}, &pgproto3.Execute{Portal: "p", MaxRows: 1}, &pgproto3.Execute{Portal: "p"}, &pgproto3.Sync{}},
		want: []string{"BindComplete", "RowDescription id:23:1,name:25:0",
			"DataRow 0x00000002|b", "PortalSuspended", "DataRow 0x00000003|c", "PortalSuspended", "CommandComplete SELECT 0", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{
		&pgproto3.Parse{Name: "s", Query: "select 1"}, &pgproto3.Bind{PreparedStatement: "s"}, &pgproto3.Execute{}, &pgproto3.Sync{}},
		want: []string{"ErrorResponse ERROR 42P05 prepared statement \"s\" already exists", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{
		&pgproto3.Bind{PreparedStatement: "s", Parameters: [][]byte{{0, 0, 0, 3}}, ParameterFormatCodes: []int16{1}, ResultFormatCodes: []int16{0}},
		&pgproto3.Execute{}, &pgproto3.Sync{}},
		want: []string{"BindComplete", "DataRow 3|c", "CommandComplete SELECT 1", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{
		&pgproto3.Parse{Query: "insert into wire_t values ($1, $2)"}, &pgproto3.Describe{ObjectType: 'S'}, &pgproto3.Sync{}},
		want: []string{"ParseComplete", "ParameterDescription [23 25]", "NoData", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{
		&pgproto3.Parse{Query: "select 1/(id-id) from wire_t where id = 1"}, &pgproto3.Bind{}, &pgproto3.Execute{},
		&pgproto3.Parse{Query: "select 1"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{}},
		want: []string{"ParseComplete", "BindComplete", "ErrorResponse ERROR 22012 division by zero", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "begin; insert into wire_t values (1, 'dup'); select 1"}},
		want: []string{"CommandComplete BEGIN", "ErrorResponse ERROR 23505 duplicate key value violates unique constraint \"wire_t_pkey\"", "ReadyForQuery E"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "select 1"}},
		want: []string{"ErrorResponse ERROR 25P02 current transaction is aborted, commands ignored until end of transaction block", "ReadyForQuery E"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "commit"}},
		want: []string{"CommandComplete ROLLBACK", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "commit"}},
		want: []string{"NoticeResponse WARNING 25P01 there is no transaction in progress", "CommandComplete COMMIT", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "copy wire_t from stdin"}, &pgproto3.CopyData{Data: []byte("10\tx\n")}, &pgproto3.CopyFail{Message: "boom"}},
		want: []string{"CopyInResponse 0 [0 0]", "ErrorResponse ERROR 57014 COPY from stdin failed: boom", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "copy wire_t from stdin"}, &pgproto3.CopyData{Data: []byte("11\ty\n12\t")},
		&pgproto3.CopyData{Data: []byte("\\N\n")}, &pgproto3.CopyDone{}},
		want: []string{"CopyInResponse 0 [0 0]", "CommandComplete COPY 2", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "select count(*), count(name) from wire_t; select 2 as two"}},
		want: []string{"RowDescription count:20:0,count:20:0", "DataRow 5|4", "CommandComplete SELECT 1",
			"RowDescription two:23:0", "DataRow 2", "CommandComplete SELECT 1", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "-- ping"}},
		want: []string{"EmptyQueryResponse", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "select 1; selec 2"}},
		want: []string{"ErrorResponse ERROR 42601 syntax error at or near \"selec\" @11", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "select 1; select * from nosuch_rel"}},
		want: []string{"RowDescription ?column?:23:0", "DataRow 1", "CommandComplete SELECT 1",
			"ErrorResponse ERROR 42P01 relation \"nosuch_rel\" does not exist @25", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "update wire_t set name = name || '!' where id > 10"}},
		want: []string{"CommandComplete UPDATE 2", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "delete from wire_t where id > 10"}},
		want: []string{"CommandComplete DELETE 2", "ReadyForQuery I"}},
	// Bad and odd input.
	{send: []pgproto3.FrontendMessage{&pgproto3.Parse{Query: "select $2::int"}, &pgproto3.Describe{ObjectType: 'S'}, &pgproto3.Sync{}},
		want: []string{"ErrorResponse ERROR 42P18 could not determine data type of parameter $1", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Parse{Query: "select $2::int", ParameterOIDs: []uint32{25}}, &pgproto3.Describe{ObjectType: 'S'}, &pgproto3.Sync{}},
		want: []string{"ParseComplete", "ParameterDescription [25 23]", "RowDescription int4:23:0", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "select"}},
		want: []string{"RowDescription ", "DataRow ", "CommandComplete SELECT 1", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "select 'a\xffb'"}},
		want: []string{"ErrorResponse ERROR 22021 invalid byte sequence for encoding \"UTF8\": 0xff", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "select 1 as \"\xe6\x97\""}},
		want: []string{"ErrorResponse ERROR 22021 invalid byte sequence for encoding \"UTF8\": 0xe6 0x97 0x22", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "begin; select 1 where '$1' = $2"}},
		want: []string{"CommandComplete BEGIN", "ErrorResponse ERROR 42P02 there is no parameter $2 @30", "ReadyForQuery E"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "rollback; begin read only; insert into wire_t values (20, 'x')"}},
		want: []string{"CommandComplete ROLLBACK", "CommandComplete BEGIN",
			"ErrorResponse ERROR 25006 cannot execute INSERT in a read-only transaction", "ReadyForQuery E"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "rollback; set statement_timeout = 'abc'"}},
		want: []string{"CommandComplete ROLLBACK",
			"ErrorResponse ERROR 22023 invalid value for parameter \"statement_timeout\": \"abc\"", "ReadyForQuery I"}},
	{send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "select 1 as " + strings.Repeat("x", 70)}},
		want: []string{"NoticeResponse NOTICE 42622 identifier \"" + strings.Repeat("x", 70) + "\" will be truncated to \"" + strings.Repeat("x", 63) + "\"",
			"RowDescription " + strings.Repeat("x", 63) + ":23:0", "DataRow 1", "CommandComplete SELECT 1", "ReadyForQuery I"}},
}

// runWireScript connects to dsn, runs the setup with pgconn, hijacks the
// connection and plays the script, failing on the first difference.
func runWireScript(t *testing.T, dsn string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pc, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	for _, sql := range wireSetup {
		if _, err := pc.Exec(ctx, sql).ReadAll(); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	hc, err := pc.Hijack()
	if err != nil {
		t.Fatal(err)
	}
	defer hc.Conn.Close()
	_ = hc.Conn.SetDeadline(time.Now().Add(60 * time.Second))
	fe := hc.Frontend
	for i, step := range wireScript {
		for _, m := range step.send {
			fe.Send(m)
		}
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
		var got []string
		for {
			msg, err := fe.Receive()
			if err != nil {
				t.Fatalf("step %d: receive after %q: %v", i, got, err)
			}
			got = append(got, testutil.Summarize(msg))
			if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
				break
			}
		}
		if !reflect.DeepEqual(got, step.want) {
			t.Fatalf("step %d:\ngot:\n\t%s\nwant:\n\t%s", i, strings.Join(got, "\n\t"), strings.Join(step.want, "\n\t"))
		}
	}
	fe.Send(&pgproto3.Query{String: "drop table wire_t"})
	fe.Send(&pgproto3.Terminate{})
	_ = fe.Flush()
}

func TestWireScript(t *testing.T) {
	runWireScript(t, startServer(t))
}

// TestWireScriptPostgres proves the script's expectations on PostgreSQL.
func TestWireScriptPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	dsn := testutil.ReferencePostgres(t, "MINIPG_PG_DSN")
	runWireScript(t, dsn)
}

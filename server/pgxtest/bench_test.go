package pgxtest

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
)

// Round trips through pgx against the in-process server (real executor):
// the same operations cmd/minipg-bench measures, here for profiling.

func benchConn(b *testing.B) *pgx.Conn {
	dsn := startServer(b)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		b.Fatal(err)
	}
	conn, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close(context.Background()) })
	if _, err := conn.Exec(context.Background(), "create table bench (id integer primary key, v text)"); err != nil {
		b.Fatal(err)
	}
	return conn
}

func BenchmarkPgxInsert(b *testing.B) {
	conn := benchConn(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		if _, err := conn.Exec(ctx, "insert into bench values ($1, $2)", i, "value"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPgxSelectPK(b *testing.B) {
	conn := benchConn(b)
	ctx := context.Background()
	for i := range 1000 {
		if _, err := conn.Exec(ctx, "insert into bench values ($1, $2)", i, fmt.Sprint("v", i)); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	var v string
	for i := range b.N {
		if err := conn.QueryRow(ctx, "select v from bench where id = $1", i%1000).Scan(&v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPgxCopy loads rows with pgx's binary CopyFrom in COPYs of
// 200,000, the shape minipg-bench rt uses; one op is one row.
func BenchmarkPgxCopy(b *testing.B) {
	conn := benchConn(b)
	ctx := context.Background()
	if _, err := conn.Exec(ctx, "create table bench_copy (id int, v int, t text)"); err != nil {
		b.Fatal(err)
	}
	const n = 200000
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = []any{int32(i), int32(i * 3), "some text of a row"}
	}
	b.ResetTimer()
	for done := 0; done < b.N; done += n {
		if _, err := conn.CopyFrom(ctx, pgx.Identifier{"bench_copy"}, []string{"id", "v", "t"}, pgx.CopyFromRows(rows)); err != nil {
			b.Fatal(err)
		}
	}
}

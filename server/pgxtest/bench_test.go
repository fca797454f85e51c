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

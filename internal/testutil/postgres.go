package testutil

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// DefaultPostgresDSN is the PostgreSQL 15 of the development machine.
const DefaultPostgresDSN = "postgres://postgres:postgres@127.0.0.1:5432/postgres?sslmode=disable"

// ReferencePostgres returns the DSN of the reference PostgreSQL ($env, or
// DefaultPostgresDSN when unset) after checking that it answers; the test
// is skipped when it does not (CI has none). The setup statements run on
// that first connection, their errors ignored (for example dropping a
// table an interrupted run left behind).
func ReferencePostgres(t testing.TB, env string, setup ...string) string {
	t.Helper()
	dsn := os.Getenv(env)
	if dsn == "" {
		dsn = DefaultPostgresDSN
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	pc, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		t.Skipf("no PostgreSQL at %s: %v", dsn, err)
	}
	for _, sql := range setup {
		_, _ = pc.Exec(ctx, sql).ReadAll()
	}
	pc.Close(ctx)
	return dsn
}

package pgxtest

import (
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestCheckConstraintPaths: a CHECK constraint holds on the paths psql's
// regression script does not take: binary COPY (pgx's CopyFrom), UPDATE
// ... FROM, and a prepared INSERT with parameters.
func TestCheckConstraintPaths(t *testing.T) {
	dsn := startServer(t)
	c := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	ctx := testCtx(t)
	for _, q := range []string{
		"create table ckp (id int primary key, qty int check (qty >= 0), cap int, check (qty <= cap))",
		"insert into ckp values (1, 5, 10), (2, 0, 3)",
		"create table ckp_delta (id int, d int)",
		"insert into ckp_delta values (1, -6), (2, 1)",
	} {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	_, err := c.CopyFrom(ctx, pgx.Identifier{"ckp"}, []string{"id", "qty", "cap"}, pgx.CopyFromRows([][]any{{3, 1, 2}, {4, 7, 2}}))
	if pgCode(err) != "23514" {
		t.Fatalf("binary COPY of a row the check refuses: %v, want 23514", err)
	}
	if _, err := c.Exec(ctx, "update ckp set qty = qty + d from ckp_delta where ckp.id = ckp_delta.id"); pgCode(err) != "23514" {
		t.Fatalf("UPDATE ... FROM that makes qty negative: %v, want 23514", err)
	}
	if _, err := c.Exec(ctx, "insert into ckp values ($1, $2, $3)", 5, 4, 3); pgCode(err) != "23514" {
		t.Fatalf("prepared INSERT over the cap: %v, want 23514", err)
	}
	var n int
	if err := c.QueryRow(ctx, "select count(*) from ckp where qty < 0 or qty > cap").Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d rows break the checks (%v)", n, err)
	}
	if err := c.QueryRow(ctx, "select count(*) from ckp").Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d rows, want the 2 first ones (%v)", n, err)
	}
}

package pgxtest

import (
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestPrepareSQLExtended: a statement prepared with SQL's PREPARE runs
// through EXECUTE in the extended protocol too, with the protocol's own
// parameters as EXECUTE's arguments, and describes the statement's
// columns; DEALLOCATE ends it.
func TestPrepareSQLExtended(t *testing.T) {
	dsn := startServer(t)
	ctx := testCtx(t)
	setup := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	for _, q := range []string{"create table pst (id int primary key, v text)", "insert into pst select g, 'v' || g from generate_series(1, 5) g"} {
		if _, err := setup.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeDescribeExec, pgx.QueryExecModeExec} {
		c := connect(t, dsn, mode)
		if _, err := c.Exec(ctx, "prepare byid (int) as select id, v from pst where id >= $1 order by id"); err != nil {
			t.Fatalf("%v: %v", mode, err)
		}
		rows, err := c.Query(ctx, "execute byid($1)", 4)
		if err != nil {
			t.Fatalf("%v: %v", mode, err)
		}
		var got []string
		for rows.Next() {
			var id int
			var v string
			if err := rows.Scan(&id, &v); err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
		}
		if rows.Err() != nil || len(got) != 2 || got[0] != "v4" || got[1] != "v5" {
			t.Fatalf("%v: execute byid(4): %v, %v", mode, got, rows.Err())
		}
		if fd := rows.FieldDescriptions(); len(fd) != 2 || fd[1].Name != "v" {
			t.Fatalf("%v: columns %v", mode, fd)
		}
		if _, err := c.Exec(ctx, "deallocate byid"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Exec(ctx, "execute byid(1)"); pgCode(err) != "26000" {
			t.Fatalf("%v: after DEALLOCATE: %v, want 26000", mode, err)
		}
	}
}

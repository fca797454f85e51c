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

// TestCursorRefusals: what minipg's forward-only cursors refuse, and that
// a cursor reads the rows as of its DECLARE and ends with its transaction.
func TestCursorRefusals(t *testing.T) {
	dsn := startServer(t)
	c := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	exec := func(q string) { t.Helper(); mustExecOn(t, ctx, c, q) }
	exec("create table curr (id int)")
	exec("insert into curr select generate_series(1, 5)")
	for _, q := range []string{"declare s scroll cursor for select 1", "declare w cursor with hold for select 1",
		"declare b binary cursor for select 1"} {
		exec("begin")
		if _, err := c.Exec(ctx, q); pgCode(err) != "0A000" {
			t.Errorf("%s: %v, want 0A000", q, err)
		}
		exec("rollback")
	}
	for _, q := range []string{"fetch backward 1 from k", "fetch prior from k", "fetch absolute 2 from k", "fetch forward 0 from k"} {
		exec("begin")
		exec("declare k cursor for select id from curr order by id")
		if _, err := c.Exec(ctx, q); pgCode(err) != "0A000" {
			t.Errorf("%s: %v, want 0A000", q, err)
		}
		exec("rollback")
	}
	exec("begin")
	exec("declare k cursor for select count(*) from curr")
	exec("insert into curr values (6)")
	var n int
	if err := c.QueryRow(ctx, "fetch k").Scan(&n); err != nil || n != 5 {
		t.Fatalf("the cursor's count: %d, %v; want 5, the rows as of the DECLARE", n, err)
	}
	exec("commit")
	if _, err := c.Exec(ctx, "fetch k"); pgCode(err) != "34000" {
		t.Fatalf("fetch after the commit: %v, want 34000", err)
	}
}

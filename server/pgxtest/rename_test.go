package pgxtest

import (
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestRenameRefusals: the renames that would break text minipg keeps (a
// view's query, a column's DEFAULT) are refused with 0A000 and change
// nothing; a table rename rewrites the views that read it.
func TestRenameRefusals(t *testing.T) {
	dsn := startServer(t)
	c := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	exec := func(q string) { t.Helper(); mustExecOn(t, ctx, c, q) }
	exec("create table rr (id serial primary key, v text)")
	exec("insert into rr (v) values ('a'), ('b')")
	exec("create view rrv as select rr.v, x.n from rr, (select count(*) as n from rr) x")
	exec("create view rr_cte as with rr as (select 1 as one) select one from rr, rrv")
	exec("create view rr_shadow as select v from rr where id in (with rr as (select 1 as id) select id from rr)")
	for _, q := range []string{
		"alter table rr rename column v to w",
		"alter sequence rr_id_seq rename to rr_seq",
		"alter table rr rename to rr2", // rr_shadow has a WITH query named rr too
	} {
		if _, err := c.Exec(ctx, q); pgCode(err) != "0A000" {
			t.Errorf("%s: %v, want 0A000", q, err)
		}
	}
	// rr_cte reads rrv and a WITH query named rr, not the table: renaming
	// the table rewrites rrv only.
	exec("drop view rr_shadow")
	exec("alter table rr rename to rr2")
	var n int
	if err := c.QueryRow(ctx, "select count(*) from rr_cte").Scan(&n); err != nil || n != 2 {
		t.Fatalf("rr_cte after the rename: %d, %v; want 2", n, err)
	}
	var def string
	if err := c.QueryRow(ctx, "select pg_get_viewdef('rrv')").Scan(&def); err != nil {
		t.Fatal(err)
	}
	exec("insert into rr2 (v) values ('c')")
	if err := c.QueryRow(ctx, "select max(n) from rrv").Scan(&n); err != nil || n != 3 {
		t.Fatalf("rrv after the rename: %d, %v; want 3 (definition %q)", n, err, def)
	}
}

package pgxtest

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestViews: what the regression script (regress/sql/views.sql) cannot
// compare with PostgreSQL: a grouped view refuses writes and a simple one
// takes them through the extended protocol, another session does not find a view whose creating transaction has not committed, a view
// made to read itself fails when used, and the definition pg_get_viewdef
// gives recreates the view, through the extended protocol too.
func TestViews(t *testing.T) {
	dsn := startServer(t)
	a := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	b := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	ctx := testCtx(t)
	exec := func(c *pgx.Conn, q string) { t.Helper(); mustExecOn(t, ctx, c, q) }
	exec(a, "create table vt (id int primary key, grp int, v text)")
	exec(a, "insert into vt select g, g % 3, 'v' || g from generate_series(1, 30) g")
	exec(a, "create view vgrp as select grp, count(*) as n, max(v) as top from vt where id > $$5$$::int group by grp")

	for _, q := range []string{"insert into vgrp values (1, 2, 'x')", "update vgrp set n = 0", "delete from vgrp"} {
		if _, err := a.Exec(ctx, q); pgCode(err) != "55000" {
			t.Fatalf("%s: %v, want 55000 (not automatically updatable)", q, err)
		}
	}
	exec(a, "create view vsimple as select id, v as label from vt where grp = 1")
	tag, err := b.Exec(ctx, "update vsimple set label = $1 where id < $2", "low", 10)
	if err != nil || tag.String() != "UPDATE 3" {
		t.Fatalf("update through a simple view: %q %v, want UPDATE 3", tag, err)
	}
	var low int
	if err := b.QueryRow(ctx, "select count(*) from vt where v = $1", "low").Scan(&low); err != nil || low != 3 {
		t.Fatalf("rows changed through the view: %d %v, want 3", low, err)
	}

	// Through the extended protocol, with a parameter outside the view.
	var n int
	if err := b.QueryRow(ctx, "select n from vgrp where grp = $1", 2).Scan(&n); err != nil || n != 8 {
		t.Fatalf("vgrp's group 2: %d, %v; want 8", n, err)
	}

	// The stored definition recreates the view.
	var def string
	if err := b.QueryRow(ctx, "select pg_get_viewdef('vgrp'::regclass)").Scan(&def); err != nil {
		t.Fatal(err)
	}
	exec(a, "create view vgrp2 as "+strings.TrimSuffix(strings.TrimSpace(def), ";"))
	rows := func(v string) string {
		var s string
		if err := a.QueryRow(ctx, "select string_agg(grp || ':' || n || ':' || top, ',' order by grp) from "+v).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if x, y := rows("vgrp"), rows("vgrp2"); x != y || x == "" {
		t.Fatalf("the recreated view gives %q, the view %q (definition %q)", y, x, def)
	}

	// A view another session created is not found until its creator commits.
	exec(a, "begin")
	exec(a, "create view vnew as select 1 as one")
	if _, err := b.Exec(ctx, "select * from vnew"); pgCode(err) != "42P01" {
		t.Fatalf("another session reading the uncommitted view: %v, want 42P01", err)
	}
	exec(a, "commit")
	if err := b.QueryRow(ctx, "select one from vnew").Scan(&n); err != nil || n != 1 {
		t.Fatalf("after the commit: %d, %v", n, err)
	}

	// A view replaced to read itself fails when used, as in PostgreSQL.
	exec(a, "create view vself as select 1 as a")
	exec(a, "create or replace view vself as select a from vself")
	if _, err := a.Exec(ctx, "select * from vself"); pgCode(err) != "42P17" {
		t.Fatalf("reading a view that reads itself: %v, want 42P17", err)
	}
	exec(a, "drop view vself")
}

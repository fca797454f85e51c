package pgxtest

import (
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestAddColumnRefusals: the ADD COLUMN forms that need the table
// rewritten, an index built or the rows checked with the column are
// refused with 0A000 and leave the table as it was (a CHECK on the new
// column was once ignored); so is a column added to a table a view reads
// with "*", whose text would then return another row shape.
func TestAddColumnRefusals(t *testing.T) {
	dsn := startServer(t)
	c := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	exec := func(q string) { t.Helper(); mustExecOn(t, ctx, c, q) }
	exec("create table acr (id int primary key)")
	exec("insert into acr select generate_series(1, 10)")
	for _, q := range []string{
		"alter table acr add column r float8 default random()",
		"alter table acr add column s serial",
		"alter table acr add column i int generated always as identity",
		"alter table acr add column u int unique",
		"alter table acr add column p int primary key",
		"alter table acr add column f int references acr (id)",
		"alter table acr add column c int check (c < 10)",
		"alter table acr add column d int default 20 constraint d_small check (d < 10)",
		"alter table acr add column ok int, set (fillfactor = 50)",
	} {
		if _, err := c.Exec(ctx, q); pgCode(err) != "0A000" {
			t.Errorf("%s: %v, want 0A000", q, err)
		}
	}
	var n int
	if err := c.QueryRow(ctx, "select count(*) from pg_attribute where attrelid = 'acr'::regclass and attnum > 0").Scan(&n); err != nil || n != 1 {
		t.Fatalf("acr has %d columns (%v), want 1", n, err)
	}

	exec("create view acr_named as select id from acr")
	exec("alter table acr add column a int default 3")
	exec("create view acr_star as select * from acr where a = 3")
	if _, err := c.Exec(ctx, "alter table acr add column b int"); pgCode(err) != "0A000" {
		t.Fatalf("adding a column under a view with *: %v, want 0A000", err)
	}
	exec("drop view acr_star")
	exec("alter table acr add column b int")
	if err := c.QueryRow(ctx, "select count(*) from acr_named join acr using (id) where a = 3 and b is null").Scan(&n); err != nil || n != 10 {
		t.Fatalf("rows through the view after ADD COLUMN: %d, %v; want 10", n, err)
	}
}

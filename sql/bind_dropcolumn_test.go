package sql

import (
	"testing"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// droppedCat has table d (a int, a dropped text column, c bigint) and
// views over it.
type droppedCat struct{ fakeCat }

func (droppedCat) View(name string) (*catalog.View, bool) {
	col := func(name string, t types.OID) catalog.Column {
		return catalog.Column{Name: name, TypeOID: uint32(t), Typmod: -1}
	}
	v, ok := map[string]*catalog.View{
		"v_star": {OID: 17001, Name: "v_star", Query: "SELECT * FROM d", Columns: []catalog.Column{col("a", types.Int4), col("c", types.Int8)}},
		"v_c":    {OID: 17002, Name: "v_c", Query: "SELECT 1 AS one FROM d x WHERE x.c > 0", Columns: []catalog.Column{col("one", types.Int4)}},
		"v_v":    {OID: 17003, Name: "v_v", Query: "SELECT a FROM v_star", Columns: []catalog.Column{col("a", types.Int4)}},
		"v_join": {OID: 17004, Name: "v_join", Query: "SELECT count(*) FROM d JOIN d e USING (a)", Columns: []catalog.Column{col("count", types.Int8)}},
	}[name]
	return v, ok
}

var dropCat = droppedCat{fakeCat{
	"d": {OID: 16500, Name: "d", Columns: []catalog.Column{
		{Name: "a", TypeOID: uint32(types.Int4), Typmod: -1},
		{Name: catalog.DroppedColumnName(2), TypeOID: uint32(types.Text), Typmod: -1, Dropped: true},
		{Name: "c", TypeOID: uint32(types.Int8), Typmod: -1},
	}},
}}

// TestDroppedColumnScope: a dropped column keeps its slot in the row (so
// ctid stays after every attribute) but * does not expand it, a name does
// not reach it, INSERT without a column list skips it and an alias list
// names the live columns.
func TestDroppedColumnScope(t *testing.T) {
	b, err := Prepare(dropCat, "SELECT *, ctid FROM d", nil)
	if err != nil {
		t.Fatal(err)
	}
	sel := b.Stmt.(*Select)
	var idx []int
	for _, e := range sel.Targets[:sel.NVisible] {
		idx = append(idx, e.(*ColRef).Idx)
	}
	if len(idx) != 3 || idx[0] != 0 || idx[1] != 2 || idx[2] != 3 {
		t.Fatalf("SELECT *, ctid reads slots %v, want [0 2 3]", idx)
	}
	if b.Columns[1].Name != "c" || b.Columns[1].AttNum != 3 {
		t.Fatalf("second column %+v", b.Columns[1])
	}
	b, err = Prepare(dropCat, "SELECT * FROM d x(p, q)", nil)
	if err != nil || b.Columns[0].Name != "p" || b.Columns[1].Name != "q" {
		t.Fatalf("alias list: %+v %v", b, err)
	}
	b, err = Prepare(dropCat, "INSERT INTO d VALUES (1, 2) RETURNING *", nil)
	if err != nil {
		t.Fatal(err)
	}
	if ins := b.Stmt.(*Insert); len(ins.Cols) != 2 || ins.Cols[0] != 0 || ins.Cols[1] != 2 || len(ins.Returning) != 2 {
		t.Fatalf("INSERT columns %v, returning %d", ins.Cols, len(ins.Returning))
	}
	checkBindErrors(t, dropCat, []bindErrCase{
		{`SELECT "........pg.dropped.2........" FROM d`, pgerr.UndefinedColumn, 0},
		{`SELECT d."........pg.dropped.2........" FROM d`, pgerr.UndefinedColumn, 0},
		{`INSERT INTO d ("........pg.dropped.2........") VALUES ('x')`, pgerr.UndefinedColumn, 0},
		{`UPDATE d SET "........pg.dropped.2........" = 'x'`, pgerr.UndefinedColumn, 0},
		{"INSERT INTO d VALUES (1, 2, 3)", pgerr.SyntaxError, 0},
		{"SELECT * FROM d x(p, q, r)", pgerr.InvalidColumnReference, 0},
	})
}

// TestViewColumnDeps: a view depends on the table columns its own query
// reads, by name, through * or JOIN ... USING; not on those a view it
// reads reads.
func TestViewColumnDeps(t *testing.T) {
	for _, tc := range []struct {
		view string
		want []int16
	}{
		{"v_star", []int16{1, 3}},
		{"v_c", []int16{3}},
		{"v_v", nil},
		{"v_join", []int16{1}},
	} {
		v, _ := dropCat.View(tc.view)
		deps, err := ViewColumnDeps(dropCat, v)
		if err != nil {
			t.Fatalf("%s: %v", tc.view, err)
		}
		if len(deps) != len(tc.want) {
			t.Errorf("%s: %v, want columns %v", tc.view, deps, tc.want)
			continue
		}
		for _, a := range tc.want {
			if !deps[ColumnDep{Table: 16500, AttNum: a}] {
				t.Errorf("%s: %v, want columns %v", tc.view, deps, tc.want)
			}
		}
	}
}

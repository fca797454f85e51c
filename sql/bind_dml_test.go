package sql

import "testing"

// TestMultiAssignSubquery: SET (a, b) = (SELECT ...) binds its subquery
// once, as a SubPlan of Kind "row" shared by the columns it assigns, each
// column reading its column of the subquery's row.
func TestMultiAssignSubquery(t *testing.T) {
	b, err := Prepare(testCat, "UPDATE t SET (n, s) = (SELECT id, 'x' FROM t u WHERE u.id = t.id), amt = 1, (id) = (SELECT 4)", nil)
	if err != nil {
		t.Fatal(err)
	}
	up := b.Stmt.(*Update)
	if len(up.Multi) != 2 || up.Multi[0].Kind != "row" || !up.Multi[0].Correlated || up.Multi[1].Correlated {
		t.Fatalf("subqueries %+v", up.Multi)
	}
	want := []struct{ col, multi, idx int }{{1, 1, 0}, {2, 1, 1}, {3, 0, -1}, {0, 2, 0}}
	if len(up.Set) != len(want) {
		t.Fatalf("%d SET items", len(up.Set))
	}
	for i, w := range want {
		it := up.Set[i]
		if it.Col != w.col || it.Multi != w.multi {
			t.Errorf("item %d: column %d multi %d, want %d %d", i, it.Col, it.Multi, w.col, w.multi)
			continue
		}
		if w.idx < 0 {
			continue
		}
		var refs []int
		Walk(it.E, func(e Expr) {
			if r, ok := e.(*ColRef); ok {
				refs = append(refs, r.Idx)
			}
		})
		if len(refs) != 1 || refs[0] != w.idx {
			t.Errorf("item %d reads %v, want [%d]", i, refs, w.idx)
		}
	}
	// The int4 column of the subquery is assigned to the int8 column n.
	if uint32(up.Set[0].E.Type().OID) != testCat["t"].Columns[1].TypeOID {
		t.Errorf("n assigned %v", up.Set[0].E.Type())
	}
}

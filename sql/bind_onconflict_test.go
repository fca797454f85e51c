package sql

import (
	"slices"
	"testing"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// upsertCat has a table with a primary key, a unique constraint over two
// columns, a plain unique index, a non-unique index and a CHECK
// constraint.
var upsertCat = fakeCat{
	"u": {OID: 16400, Name: "u", Columns: []catalog.Column{
		{Name: "a", TypeOID: uint32(types.Int4), Typmod: -1, NotNull: true},
		{Name: "b", TypeOID: uint32(types.Text), Typmod: -1},
		{Name: "c", TypeOID: uint32(types.Int4), Typmod: -1},
	}, Indexes: []catalog.Index{
		{Name: "u_pkey", OID: 16402, Columns: []int16{1}, Unique: true, Primary: true, Constraint: true},
		{Name: "u_b_c_key", OID: 16404, Columns: []int16{2, 3}, Unique: true, Constraint: true},
		{Name: "u_c_b_idx", OID: 16406, Columns: []int16{3, 2}, Unique: true},
		{Name: "u_c_idx", OID: 16408, Columns: []int16{3}},
	}, Checks: []catalog.Check{{Name: "u_c_check", Expr: "c > 0"}}},
}

// TestOnConflictArbiters: the arbiter indexes a conflict target infers
// (every unique index whose columns are exactly the target's, in OID
// order), and the conflict row DO UPDATE reads (the existing row's slots,
// then EXCLUDED's).
func TestOnConflictArbiters(t *testing.T) {
	tests := []struct {
		q        string
		update   bool
		arbiters []uint32
	}{
		{"INSERT INTO u VALUES (1) ON CONFLICT DO NOTHING", false, nil},
		{"INSERT INTO u VALUES (1) ON CONFLICT (a) DO NOTHING", false, []uint32{16402}},
		{"INSERT INTO u VALUES (1) ON CONFLICT ((a), a) WHERE c > 0 DO NOTHING", false, []uint32{16402}},
		{"INSERT INTO u VALUES (1) ON CONFLICT (c, b) DO UPDATE SET b = excluded.b", true, []uint32{16404, 16406}},
		{"INSERT INTO u VALUES (1) ON CONFLICT ON CONSTRAINT u_b_c_key DO UPDATE SET c = u.c + 1", true, []uint32{16404}},
	}
	for _, tc := range tests {
		b, err := Prepare(upsertCat, tc.q, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		oc := b.Stmt.(*Insert).OnConflict
		if oc == nil || oc.Update != tc.update || !slices.Equal(oc.Arbiters, tc.arbiters) {
			t.Errorf("%s: %+v, want update %v arbiters %v", tc.q, oc, tc.update, tc.arbiters)
		}
	}
	b, err := Prepare(upsertCat, "INSERT INTO u AS x VALUES (1, 'y') ON CONFLICT (a) DO UPDATE SET c = x.c + excluded.c, b = excluded.b WHERE x.b <> excluded.b RETURNING x.a, ctid", nil)
	if err != nil {
		t.Fatal(err)
	}
	ins := b.Stmt.(*Insert)
	oc := ins.OnConflict
	var refs []string
	for _, e := range []Expr{oc.Set[0].E, oc.Set[1].E, oc.Where} {
		Walk(e, func(e Expr) {
			if r, ok := e.(*ColRef); ok {
				refs = append(refs, r.Name+"@"+string(rune('0'+r.Idx)))
			}
		})
	}
	want := []string{"x.c@2", "excluded.c@6", "excluded.b@5", "x.b@1", "excluded.b@5"}
	if !slices.Equal(refs, want) {
		t.Errorf("conflict row references %v, want %v", refs, want)
	}
	if ins.Alias != "x" || len(ins.Returning) != 2 {
		t.Errorf("alias %q, %d RETURNING items", ins.Alias, len(ins.Returning))
	}
}

// TestOnConflictErrors: PostgreSQL's errors, positions included.
func TestOnConflictErrors(t *testing.T) {
	checkBindErrors(t, upsertCat, []bindErrCase{
		{"INSERT INTO u VALUES (1) ON CONFLICT DO UPDATE SET b = 'x'", pgerr.SyntaxError, 26},
		{"INSERT INTO u VALUES (1) ON CONFLICT (b) DO NOTHING", pgerr.InvalidColumnReference, 0},
		{"INSERT INTO u VALUES (1) ON CONFLICT (c) DO NOTHING", pgerr.InvalidColumnReference, 0},
		{"INSERT INTO u VALUES (1) ON CONFLICT ((a + 1)) DO NOTHING", pgerr.InvalidColumnReference, 0},
		{"INSERT INTO u VALUES (1) ON CONFLICT (zz) DO NOTHING", pgerr.UndefinedColumn, 38},
		{"INSERT INTO u VALUES (1) ON CONFLICT (a DESC) DO NOTHING", pgerr.InvalidColumnReference, 38},
		{"INSERT INTO u VALUES (1) ON CONFLICT (a) WHERE (SELECT true) DO NOTHING", pgerr.FeatureNotSupported, 48},
		{"INSERT INTO u VALUES (1) ON CONFLICT ON CONSTRAINT nope DO NOTHING", pgerr.UndefinedObject, 0},
		{"INSERT INTO u VALUES (1) ON CONFLICT ON CONSTRAINT u_c_idx DO NOTHING", pgerr.UndefinedObject, 0},
		{"INSERT INTO u VALUES (1) ON CONFLICT ON CONSTRAINT u_c_check DO NOTHING", pgerr.WrongObjectType, 0},
		{"INSERT INTO u VALUES (1) ON CONFLICT (a) DO UPDATE SET b = b", pgerr.AmbiguousColumn, 60},
		{"INSERT INTO u VALUES (1) ON CONFLICT (a) DO UPDATE SET b = excluded.ctid::text", pgerr.UndefinedColumn, 60},
		{"INSERT INTO u VALUES (1) ON CONFLICT (a) DO UPDATE SET b = 'x' RETURNING excluded.b", pgerr.UndefinedTable, 74},
		{"INSERT INTO u VALUES (1) ON CONFLICT DO NOTHING RETURNING excluded.b", pgerr.UndefinedTable, 59},
		{"INSERT INTO u AS x VALUES (1) ON CONFLICT (a) DO UPDATE SET b = u.b", pgerr.UndefinedTable, 65},
		{"INSERT INTO u VALUES (1) ON CONFLICT (a) DO UPDATE SET b = 'x' WHERE count(*) > 0", pgerr.GroupingError, 0},
		// The arbiters are inferred last: an error in SET comes first.
		{"INSERT INTO u VALUES (1) ON CONFLICT (b) DO UPDATE SET nosuch = 1", pgerr.UndefinedColumn, 0},
	})
}

package sql

import (
	"testing"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

var coerceCat = fakeCat{
	"ct": {OID: 16390, Name: "ct", Columns: []catalog.Column{
		{Name: "id", TypeOID: uint32(types.Int4), Typmod: -1},
		{Name: "ts", TypeOID: uint32(types.Timestamp), Typmod: -1},
		{Name: "c", TypeOID: uint32(types.Bpchar), Typmod: 3 + types.VarHdrSz},
		{Name: "amt", TypeOID: uint32(types.Numeric), Typmod: (6<<16 | 2) + types.VarHdrSz},
		{Name: "b", TypeOID: uint32(types.Bool), Typmod: -1},
	}},
}

// TestAssignErrors checks the assignment-coercion errors of INSERT and
// UPDATE against what PostgreSQL 15 reports: 42804 (never 42846), both
// types named without modifiers, the hint, and the position of the
// expression's leftmost token.
func TestAssignErrors(t *testing.T) {
	const hint = "You will need to rewrite or cast the expression."
	tests := []struct {
		q    string
		code pgerr.Code
		msg  string
		pos  int32
	}{
		{"INSERT INTO ct (id, ts) VALUES (11, true)", pgerr.DatatypeMismatch,
			`column "ts" is of type timestamp without time zone but expression is of type boolean`, 37},
		{"INSERT INTO ct (amt) VALUES ('7'::char(3))", pgerr.DatatypeMismatch,
			`column "amt" is of type numeric but expression is of type character`, 30},
		{"INSERT INTO ct (id) VALUES (1 + 2.5::float8::bool::int)", pgerr.DatatypeMismatch,
			"", 0}, // float8 -> bool has no cast at all: the explicit cast fails first
		{"INSERT INTO ct (b) SELECT id + 1 FROM ct", pgerr.DatatypeMismatch,
			`column "b" is of type boolean but expression is of type integer`, 27},
		{"INSERT INTO ct (ts, id, c, amt, b) SELECT * FROM ct", pgerr.DatatypeMismatch,
			`column "ts" is of type timestamp without time zone but expression is of type integer`, 43},
		{"UPDATE ct SET c = 1, id = ts", pgerr.DatatypeMismatch,
			`column "id" is of type integer but expression is of type timestamp without time zone`, 27},
		{"UPDATE ct SET b = (id)", pgerr.DatatypeMismatch,
			`column "b" is of type boolean but expression is of type integer`, 20},
		{"INSERT INTO ct (id) SELECT 'x'", pgerr.InvalidTextRepresentation,
			`invalid input syntax for type integer: "x"`, 28},
	}
	for _, tc := range tests {
		_, err := Prepare(coerceCat, tc.q, nil)
		if tc.msg == "" {
			if pgerr.CodeOf(err) != pgerr.CannotCoerce {
				t.Errorf("%s: %v (%s), want 42846 from the explicit cast", tc.q, err, pgerr.CodeOf(err))
			}
			continue
		}
		pe, ok := err.(*pgerr.Error)
		if !ok {
			t.Errorf("%s: error %v, want %s", tc.q, err, tc.code)
			continue
		}
		if pe.Code != tc.code || pe.Message != tc.msg || pe.Position != tc.pos {
			t.Errorf("%s:\n got %s %q at %d\nwant %s %q at %d", tc.q, pe.Code, pe.Message, pe.Position, tc.code, tc.msg, tc.pos)
		}
		if tc.code == pgerr.DatatypeMismatch && pe.Hint != hint {
			t.Errorf("%s: hint %q", tc.q, pe.Hint)
		}
	}
}

// TestAssignNeverCannotCoerce assigns a value of every supported type to a
// column of every supported type: a missing cast is 42804 in assignment,
// never 42846 (which only an explicit CAST reports).
func TestAssignNeverCannotCoerce(t *testing.T) {
	vals := []string{"'7'::int2", "7", "7::int8", "7.5", "'7'::real", "'7'::float8", "'7'::text",
		"'7'::varchar", "'7'::char", "true", "'2024-01-02'::date", "'2024-01-02'::timestamp"}
	cols := []string{"id", "ts", "c", "amt", "b"}
	for _, c := range cols {
		for _, v := range vals {
			for _, q := range []string{
				"INSERT INTO ct (" + c + ") VALUES (" + v + ")",
				"INSERT INTO ct (" + c + ") SELECT " + v,
				"UPDATE ct SET " + c + " = " + v,
			} {
				_, err := Prepare(coerceCat, q, nil)
				if err != nil && pgerr.CodeOf(err) != pgerr.DatatypeMismatch {
					t.Errorf("%s: %v (%s)", q, err, pgerr.CodeOf(err))
				}
			}
		}
	}
}

// TestAssignParam: a parameter the client typed is assigned like any other
// expression (42804 at the $n), one it left untyped takes the column's type.
func TestAssignParam(t *testing.T) {
	_, err := Prepare(coerceCat, "INSERT INTO ct (id, ts) VALUES (1, $1)", []types.OID{types.Bool})
	pe, ok := err.(*pgerr.Error)
	if !ok || pe.Code != pgerr.DatatypeMismatch || pe.Position != 36 ||
		pe.Message != `column "ts" is of type timestamp without time zone but expression is of type boolean` {
		t.Fatalf("typed parameter: %v", err)
	}
	b, err := Prepare(coerceCat, "UPDATE ct SET ts = $1, c = $2", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.ParamTypes) != 2 || b.ParamTypes[0] != types.Timestamp || b.ParamTypes[1] != types.Bpchar {
		t.Fatalf("inferred parameter types %v", b.ParamTypes)
	}
}

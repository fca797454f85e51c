package sql

import (
	"errors"
	"testing"

	"minipg/pgerr"
	"minipg/types"
)

// Overload sets shaped like pg_proc's, registered under names of their own
// so that the test does not depend on the executor's families.
func init() {
	reg := func(name string, res types.OID, args ...types.OID) {
		RegisterBuiltin(Builtin{Name: name, Args: args, Result: res, Volatility: Immutable, Strict: true})
	}
	// round: float8 and numeric, numeric with a scale.
	reg("test_round", types.Float8, types.Float8)
	reg("test_round", types.Numeric, types.Numeric)
	reg("test_round", types.Numeric, types.Numeric, types.Int4)
	// repeat(text, int4) only.
	reg("test_repeat", types.Text, types.Text, types.Int4)
	// length over text and bpchar.
	reg("test_length", types.Int4, types.Text)
	reg("test_length", types.Int4, types.Bpchar)
	// Two equally good candidates for an int2 argument.
	reg("test_amb", types.Int4, types.Int4)
	reg("test_amb", types.Int8, types.Int8)
	// Unknown against a string and a numeric candidate: the string one wins.
	reg("test_cat", types.Text, types.Text)
	reg("test_cat", types.Int8, types.Int8)
	RegisterBuiltin(Builtin{Name: "test_concat", Args: []types.OID{AnyOID}, Variadic: true, Result: types.Text, Volatility: Stable})
}

func TestResolveBuiltin(t *testing.T) {
	tests := []struct {
		q    string
		want types.OID // result type
		args []types.OID
	}{
		{"SELECT test_round(1)", types.Float8, []types.OID{types.Float8}},     // float8 is the preferred numeric type
		{"SELECT test_round(1.5)", types.Numeric, []types.OID{types.Numeric}}, // exact match
		{"SELECT test_round('2.5')", types.Float8, []types.OID{types.Float8}}, // unknown: the preferred type of the one category
		{"SELECT test_round(1.5, 2::int2)", types.Numeric, []types.OID{types.Numeric, types.Int4}},
		{"SELECT test_repeat('x', 100)", types.Text, []types.OID{types.Text, types.Int4}},
		{"SELECT test_length(s) FROM t", types.Int4, []types.OID{types.Text}},        // varchar: text is preferred
		{"SELECT test_length('ab'::char(3))", types.Int4, []types.OID{types.Bpchar}}, // exact
		{"SELECT test_cat('7')", types.Text, []types.OID{types.Text}},                // string category first
		{"SELECT test_concat(1, 'a', 2.5)", types.Text, []types.OID{types.Int4, types.Text, types.Numeric}},
	}
	for _, tc := range tests {
		b, err := Prepare(testCat, tc.q, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		sel := b.Stmt.(*Select)
		f, ok := sel.Targets[0].(*Func)
		if !ok || f.Builtin == nil {
			t.Errorf("%s: target is %T, want a built-in call", tc.q, sel.Targets[0])
			continue
		}
		if f.T.OID != tc.want {
			t.Errorf("%s: result type %d, want %d", tc.q, f.T.OID, tc.want)
		}
		for i, a := range f.Args {
			if a.Type().OID != tc.args[i] {
				t.Errorf("%s: argument %d of type %d, want %d", tc.q, i+1, a.Type().OID, tc.args[i])
			}
		}
	}
}

func TestResolveBuiltinErrors(t *testing.T) {
	tests := []struct {
		q    string
		code pgerr.Code
		msg  string
	}{
		{"SELECT test_amb(1::int2)", pgerr.AmbiguousFunction, "function test_amb(smallint) is not unique"},
		{"SELECT test_repeat(1, 2)", pgerr.UndefinedFunction, "function test_repeat(integer, integer) does not exist"},
		{"SELECT test_round(1, 2, 3)", pgerr.UndefinedFunction, "function test_round(integer, integer, integer) does not exist"},
		{"SELECT test_round(true)", pgerr.UndefinedFunction, "function test_round(boolean) does not exist"},
		{"SELECT test_concat()", pgerr.UndefinedFunction, "function test_concat() does not exist"},
		{"SELECT test_round('x')", pgerr.InvalidTextRepresentation, `invalid input syntax for type double precision: "x"`},
	}
	for _, tc := range tests {
		_, err := Prepare(testCat, tc.q, nil)
		var pe *pgerr.Error
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want %s", tc.q, err, tc.code)
			continue
		}
		if pe.Code != tc.code || pe.Message != tc.msg {
			t.Errorf("%s: %s %q, want %s %q", tc.q, pe.Code, pe.Message, tc.code, tc.msg)
		}
	}
}

func TestRegisterBuiltinTwicePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("registering test_repeat(text, integer) again did not panic")
		}
	}()
	RegisterBuiltin(Builtin{Name: "test_repeat", Args: []types.OID{types.Text, types.Int4}, Result: types.Text})
}

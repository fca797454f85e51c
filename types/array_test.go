package types

import (
	"testing"

	"minipg/pgerr"
)

// TestArrayCodecs sends arrays of several element types through the text,
// binary and on-disk forms and back.
func TestArrayCodecs(t *testing.T) {
	cases := []struct {
		typ  T
		in   string
		want string
	}{
		{ArrayOf(TInt4), "{1,NULL,3}", "{1,NULL,3}"},
		{ArrayOf(TInt4), " { 1 , 2 } ", "{1,2}"},
		{ArrayOf(TText), `{a,"b c",NULL,"",NULL,"NULL","x\"y","{}", e\\f }`, `{a,"b c",NULL,"",NULL,"NULL","x\"y","{}","e\\f"}`},
		{ArrayOf(TInt8), "[0:1]={7,8}", "[0:1]={7,8}"},
		{ArrayOf(TInt2), "{{1,2},{3,4}}", "{{1,2},{3,4}}"},
		{ArrayOf(TNumeric), "{1.50,NULL,-2}", "{1.50,NULL,-2}"},
		{ArrayOf(TFloat8), "{0.1,NaN,-Infinity}", "{0.1,NaN,-Infinity}"},
		{ArrayOf(TBool), "{t,f,NULL}", "{t,f,NULL}"},
		{ArrayOf(TDate), "{2024-02-29}", "{2024-02-29}"},
		{ArrayOf(TTimestamp), `{"2024-02-29 10:00:00"}`, `{"2024-02-29 10:00:00"}`},
		{ArrayOf(TPoint), `{"(1,2)",NULL}`, `{"(1,2)",NULL}`},
		{ArrayOf(TText), "{}", "{}"},
	}
	for _, c := range cases {
		d, err := ParseText(c.typ, c.in)
		if err != nil {
			t.Fatalf("%s %q: %v", c.typ, c.in, err)
		}
		if got := FormatText(c.typ, d); got != c.want {
			t.Errorf("%s %q: text %q, want %q", c.typ, c.in, got, c.want)
		}
		bin, err := EncodeBinary(c.typ, d)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeBinary(c.typ, bin)
		if err != nil {
			t.Fatalf("%s %q: binary: %v", c.typ, c.in, err)
		}
		if Compare(c.typ, d, back) != 0 || FormatText(c.typ, back) != c.want {
			t.Errorf("%s %q: binary round trip gave %s", c.typ, c.in, FormatText(c.typ, back))
		}
		disk, err := EncodeDisk(c.typ, d)
		if err != nil {
			t.Fatal(err)
		}
		back, err = DecodeDisk(c.typ, disk)
		if err != nil {
			t.Fatalf("%s %q: disk: %v", c.typ, c.in, err)
		}
		if FormatText(c.typ, back) != c.want {
			t.Errorf("%s %q: disk round trip gave %s", c.typ, c.in, FormatText(c.typ, back))
		}
		if string(AppendKey(nil, c.typ, d)) != string(AppendKey(nil, c.typ, back)) {
			t.Errorf("%s %q: keys differ after the round trip", c.typ, c.in)
		}
	}
}

// TestArrayInputErrors checks array_in's errors and their SQLSTATEs.
func TestArrayInputErrors(t *testing.T) {
	cases := []struct {
		in     string
		code   pgerr.Code
		detail string
	}{
		{"{1,2", pgerr.InvalidTextRepresentation, "Unexpected end of input."},
		{"1,2", pgerr.InvalidTextRepresentation, `Array value must start with "{" or dimension information.`},
		{"{{1},2}", pgerr.InvalidTextRepresentation, "Unexpected array element."},
		{"{{1,2},{3}}", pgerr.InvalidTextRepresentation, "Multidimensional arrays must have sub-arrays with matching dimensions."},
		{"{1,2}}", pgerr.InvalidTextRepresentation, "Junk after closing right brace."},
		{"{1,,2}", pgerr.InvalidTextRepresentation, `Unexpected "," character.`},
		{"[1:3]={1,2}", pgerr.InvalidTextRepresentation, "Specified array dimensions do not match array contents."},
		{"{1,a}", pgerr.InvalidTextRepresentation, ""},
		{"{99999999999}", pgerr.NumericValueOutOfRange, ""},
		{"{{{{{{{1}}}}}}}", pgerr.ProgramLimitExceeded, ""},
	}
	for _, c := range cases {
		_, err := ParseText(ArrayOf(TInt4), c.in)
		pe, ok := err.(*pgerr.Error)
		if !ok {
			t.Errorf("%q: error %v, want %s", c.in, err, c.code)
			continue
		}
		if pe.Code != c.code || (c.detail != "" && pe.Detail != c.detail) {
			t.Errorf("%q: %s %q (%q), want %s %q", c.in, pe.Code, pe.Message, pe.Detail, c.code, c.detail)
		}
	}
	// Binary input: a wrong element type and a short message.
	bin, _ := EncodeBinary(ArrayOf(TInt4), NewArray([]Datum{int64(1)}))
	if _, err := DecodeBinary(ArrayOf(TInt8), bin); pgerr.CodeOf(err) != pgerr.DatatypeMismatch {
		t.Errorf("int4[] bytes as int8[]: %v", err)
	}
	if _, err := DecodeBinary(ArrayOf(TInt4), bin[:len(bin)-1]); pgerr.CodeOf(err) != pgerr.InvalidBinaryRepresentation {
		t.Errorf("short array: %v", err)
	}
}

// TestArrayOrder checks btarraycmp's order: elements first, NULL after
// any value, then length.
func TestArrayOrder(t *testing.T) {
	at := ArrayOf(TInt4)
	in := []string{"{}", "{1}", "{1,2}", "{1,NULL}", "{2}"}
	for i := 1; i < len(in); i++ {
		a, _ := ParseText(at, in[i-1])
		b, _ := ParseText(at, in[i])
		if Compare(at, a, b) >= 0 {
			t.Errorf("%s should sort before %s", in[i-1], in[i])
		}
		if string(AppendKey(nil, at, a)) >= string(AppendKey(nil, at, b)) {
			t.Errorf("key of %s should sort before %s's", in[i-1], in[i])
		}
	}
}

func TestPointCodecs(t *testing.T) {
	for in, want := range map[string]string{"(1,2)": "(1,2)", " 1.5 , -2e3 ": "(1.5,-2000)", "(nan,-inf)": "(NaN,-Infinity)"} {
		d, err := ParseText(TPoint, in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if got := FormatText(TPoint, d); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
		disk, _ := EncodeDisk(TPoint, d)
		if len(disk) != 16 {
			t.Errorf("%q: %d bytes on disk", in, len(disk))
		}
	}
	for _, in := range []string{"(1,2", "1,2,3", "abc", "(1,2)x", ""} {
		if _, err := ParseText(TPoint, in); pgerr.CodeOf(err) != pgerr.InvalidTextRepresentation {
			t.Errorf("%q: %v, want 22P02", in, err)
		}
	}
}

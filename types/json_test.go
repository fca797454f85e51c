package types

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"minipg/pgerr"
)

// TestJSONInput checks json_in and jsonb_in against what PostgreSQL 15.18
// answered for the same inputs (testdata/json_input.json): the output, or
// the error's SQLSTATE, message, DETAIL and CONTEXT.
func TestJSONInput(t *testing.T) {
	raw, err := os.ReadFile("testdata/json_input.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		In, Type, Out, Code, Msg, Detail, Context string
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		typ := TJSON
		if c.Type == "jsonb" {
			typ = TJSONB
		}
		d, err := ParseText(typ, c.In)
		if c.Code == "" {
			if err != nil {
				t.Errorf("%s %q: %v, want %q", c.Type, c.In, err, c.Out)
				continue
			}
			if got := FormatText(typ, d); got != c.Out {
				t.Errorf("%s %q: got %q, want %q", c.Type, c.In, got, c.Out)
			}
			continue
		}
		pe, ok := err.(*pgerr.Error)
		if !ok {
			t.Errorf("%s %q: got %v, want error %s", c.Type, c.In, err, c.Code)
			continue
		}
		if string(pe.Code) != c.Code || pe.Message != c.Msg || pe.Detail != c.Detail || pe.Where != c.Context {
			t.Errorf("%s %q:\n got %s %q %q %q\nwant %s %q %q %q", c.Type, c.In, pe.Code, pe.Message, pe.Detail, pe.Where,
				c.Code, c.Msg, c.Detail, c.Context)
		}
	}
}

// TestJSONContextLines checks the line number and line start of the
// CONTEXT of an error on a later line.
func TestJSONContextLines(t *testing.T) {
	_, err := ParseText(TJSON, "{\"a\":\n 1,\n \"b\": xyz}")
	pe, _ := err.(*pgerr.Error)
	if pe == nil || pe.Where != `JSON data, line 3:  "b": xyz...` {
		t.Fatalf("got %v", err)
	}
}

// TestJsonbOrder checks CompareJsonb and the key encoding against the
// order PostgreSQL 15.18 sorted the values of testdata/jsonb_order.json in
// (ties are broken by the text, as the query did).
func TestJsonbOrder(t *testing.T) {
	raw, err := os.ReadFile("testdata/jsonb_order.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Sorted []string }
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	vals := make([]*JsonValue, len(f.Sorted))
	for i, s := range f.Sorted {
		if vals[i], err = ParseJSONB(s); err != nil {
			t.Fatal(s, err)
		}
	}
	for i := range vals {
		for j := range vals {
			c := CompareJsonb(vals[i], vals[j])
			k := bytes.Compare(AppendKey(nil, TJSONB, vals[i]), AppendKey(nil, TJSONB, vals[j]))
			if c != k {
				t.Errorf("%s vs %s: compare %d, keys %d", f.Sorted[i], f.Sorted[j], c, k)
			}
			if i < j && c > 0 || i > j && c < 0 {
				t.Errorf("%s vs %s: compare %d, PostgreSQL sorts them %d, %d", f.Sorted[i], f.Sorted[j], c, i, j)
			}
		}
	}
}

// TestJsonbNormalize checks jsonb_out's normalization: duplicate keys
// (the last wins), key order, numbers and string escapes.
func TestJsonbNormalize(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{`{"b":1,"a":2,"b":3,"aa":{"z":[],"y":{}}}`, `{"a": 2, "b": 3, "aa": {"y": {}, "z": []}}`},
		{`[1.50, -0, 1e2, 1E-2]`, `[1.50, 0, 100, 0.01]`},
		{`"a\"\\\/\b\f\n\r\t\u0001\u00e9\ud83d\ude00"`, `"a\"\\/\b\f\n\r\t\u0001é😀"`},
		{` true `, `true`},
	} {
		v, err := ParseJSONB(c.in)
		if err != nil {
			t.Fatal(c.in, err)
		}
		if got := JsonbString(v); got != c.out {
			t.Errorf("%s: got %s, want %s", c.in, got, c.out)
		}
		// The on-disk and binary forms read back as the same value.
		disk, err := EncodeDisk(TJSONB, v)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeDisk(TJSONB, disk)
		if err != nil || CompareJsonb(back.(*JsonValue), v) != 0 {
			t.Errorf("%s: disk round trip gave %v, %v", c.in, back, err)
		}
		bin, err := EncodeBinary(TJSONB, v)
		if err != nil || bin[0] != 1 {
			t.Fatalf("%s: binary %q, %v", c.in, bin, err)
		}
		back, err = DecodeBinary(TJSONB, bin)
		if err != nil || CompareJsonb(back.(*JsonValue), v) != 0 {
			t.Errorf("%s: binary round trip gave %v, %v", c.in, back, err)
		}
	}
	if _, err := DecodeBinary(TJSONB, []byte("2{}")); err == nil {
		t.Error("jsonb_recv accepted version 2")
	}
}

// TestJsonbCasts checks the casts of jsonb to the scalar types and their
// errors.
func TestJsonbCasts(t *testing.T) {
	v, _ := ParseJSONB(`"a"`)
	if _, err := Coerce(v, TJSONB, TInt4, true); err == nil || err.Error() != "cannot cast jsonb string to type integer" {
		t.Errorf("got %v", err)
	}
	n, _ := ParseJSONB(`12.5`)
	if d, err := Coerce(n, TJSONB, TInt4, true); err != nil || d != int64(13) {
		t.Errorf("got %v %v", d, err)
	}
	if _, err := Coerce(n, TJSONB, TInt4, false); err == nil {
		t.Error("jsonb to integer is an explicit cast")
	}
	j, err := Coerce("[1, 2]", TJSON, TJSONB, false)
	if err != nil || JsonbString(j.(*JsonValue)) != "[1, 2]" {
		t.Errorf("got %v %v", j, err)
	}
}

// TestJsonbDisk checks jsonb's on-disk bytes against the tuples
// PostgreSQL 15.18 wrote for the same values (testdata/jsonb_disk.tsv:
// the value's text, then heap_page_items' t_data of a row (int4, jsonb)),
// and that they read back.
func TestJsonbDisk(t *testing.T) {
	raw, err := os.ReadFile("testdata/jsonb_disk.tsv")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		text, hexData, _ := strings.Cut(line, "\t")
		data, err := hex.DecodeString(hexData)
		if err != nil {
			t.Fatal(err)
		}
		data = data[4:] // the int4 column
		if data[0]&1 == 1 {
			data = data[1:] // a 1-byte varlena header
		} else {
			data = data[4:]
		}
		v, err := ParseJSONB(text)
		if err != nil {
			t.Fatal(text, err)
		}
		got, err := EncodeDisk(TJSONB, v)
		if err != nil {
			t.Fatal(text, err)
		}
		if !bytes.Equal(got, data) {
			t.Errorf("%.40s: got\n%x\nwant\n%x", text, got, data)
		}
		back, err := DecodeDisk(TJSONB, data)
		if err != nil || JsonbString(back.(*JsonValue)) != text {
			t.Errorf("%.40s: read back %v, %v", text, back, err)
		}
		// Truncated bytes are reported, never a panic.
		for n := 0; n < len(data); n += 3 {
			_, _ = DecodeDisk(TJSONB, data[:n])
		}
	}
}

// TestJSONDepth: nesting deeper than maxJSONDepth is 54001, as PostgreSQL's
// stack depth check reports it, not a crash; 10,000 levels pass as they do
// in PostgreSQL.
func TestJSONDepth(t *testing.T) {
	ok := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	for _, typ := range []T{TJSON, TJSONB} {
		if _, err := ParseText(typ, ok); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
		_, err := ParseText(typ, strings.Repeat(`{"a":[`, 200000))
		if pe, _ := err.(*pgerr.Error); pe == nil || pe.Code != pgerr.StatementTooComplex {
			t.Errorf("%s: got %v", typ, err)
		}
	}
}

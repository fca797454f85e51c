package types

import (
	"bytes"
	"sort"
	"strings"
	"testing"
)

// TestPGCast checks Coerce against testdata/cast.txt (explicit casts and
// assignment casts as PostgreSQL 15 performs them).
func TestPGCast(t *testing.T) {
	const path = "testdata/cast.txt"
	if *rewrite {
		rewriteFile(t, path, func(c tcase) string {
			mode, from, to, in := c.fields[0], c.fields[1], c.fields[2], c.fields[3]
			if mode == "explicit" {
				return "SELECT " + sqlLit(in) + "::" + from + "::" + to
			}
			return "DROP TABLE IF EXISTS minipg_types_cast; CREATE TABLE minipg_types_cast(x " + to + "); " +
				"INSERT INTO minipg_types_cast SELECT " + sqlLit(in) + "::" + from + "; SELECT x FROM minipg_types_cast"
		}, nil)
	}
	_, cases := readCases(t, path)
	for _, c := range cases {
		from, to := typeFromSQL(t, c.fields[1]), typeFromSQL(t, c.fields[2])
		d, err := ParseText(from, c.fields[3])
		if err != nil {
			t.Errorf("%v: input: %v", c, err)
			continue
		}
		out, err := Coerce(d, from, to, c.fields[0] == "explicit")
		got := ""
		if err == nil {
			got = FormatText(to, out)
		}
		checkResult(t, c, got, err)
	}
}

// TestPGArith checks Arith against testdata/arith.txt.
func TestPGArith(t *testing.T) {
	const path = "testdata/arith.txt"
	if *rewrite {
		rewriteFile(t, path, func(c tcase) string {
			typ, op, a, b := c.fields[0], c.fields[1], c.fields[2], c.fields[3]
			return "SELECT " + sqlLit(a) + "::" + typ + " " + op + " " + sqlLit(b) + "::" + typ
		}, nil)
	}
	_, cases := readCases(t, path)
	for _, c := range cases {
		typ := typeFromSQL(t, c.fields[0])
		a, err1 := ParseText(typ, c.fields[2])
		b, err2 := ParseText(typ, c.fields[3])
		if err1 != nil || err2 != nil { // the literal itself is rejected
			if err1 == nil {
				err1 = err2
			}
			checkResult(t, c, "", err1)
			continue
		}
		if rt, ok := ArithResultType(c.fields[1][0], typ.OID, typ.OID); !ok || rt != typ.OID {
			t.Errorf("%v: ArithResultType = %v %v", c, rt, ok)
		}
		r, err := Arith(c.fields[1][0], typ, a, b)
		got := ""
		if err == nil {
			got = FormatText(typ, r)
		}
		checkResult(t, c, got, err)
	}
}

// TestPGOrder checks Compare and AppendKey against PostgreSQL's ORDER BY
// (testdata/order.txt), and that Equal values have equal keys and hashes.
func TestPGOrder(t *testing.T) {
	const path = "testdata/order.txt"
	if *rewrite {
		rewriteFile(t, path, func(c tcase) string {
			var lits []string
			for _, v := range strings.Split(c.fields[1], "|") {
				lits = append(lits, sqlLit(v))
			}
			return "SELECT x FROM unnest(ARRAY[" + strings.Join(lits, ",") + "]::" + c.fields[0] + "[]) x ORDER BY x"
		}, nil)
	}
	_, cases := readCases(t, path)
	for _, c := range cases {
		typ := typeFromSQL(t, c.fields[0])
		var vals []Datum
		for _, s := range strings.Split(c.fields[1], "|") {
			d, err := ParseText(typ, s)
			if err != nil {
				t.Fatalf("%v: %v", c, err)
			}
			vals = append(vals, d)
		}
		format := func(vs []Datum) string {
			var out []string
			for _, v := range vs {
				out = append(out, FormatText(typ, v))
			}
			return strings.Join(out, "|")
		}
		byCompare := append([]Datum(nil), vals...)
		sort.SliceStable(byCompare, func(i, j int) bool { return Compare(typ, byCompare[i], byCompare[j]) < 0 })
		checkResult(t, c, format(byCompare), nil)
		byKey := append([]Datum(nil), vals...)
		sort.SliceStable(byKey, func(i, j int) bool {
			return bytes.Compare(AppendKey(nil, typ, byKey[i]), AppendKey(nil, typ, byKey[j])) < 0
		})
		if got := format(byKey); got != c.out {
			t.Errorf("%v: key order %q, want %q", c, got, c.out)
		}
		for _, a := range vals {
			for _, b := range vals {
				ck := bytes.Compare(AppendKey(nil, typ, a), AppendKey(nil, typ, b))
				if cmp := Compare(typ, a, b); cmp != ck {
					t.Errorf("%v: Compare(%v, %v) = %d but keys compare %d", c, a, b, cmp, ck)
				}
				if Equal(typ, a, b) && Hash(typ, a) != Hash(typ, b) {
					t.Errorf("%v: equal values %v %v hash differently", c, a, b)
				}
			}
		}
	}
}

// TestEqualValuesEqualKeys: values PostgreSQL considers equal (checked with
// SELECT '1.0'::numeric = '1.00'::numeric and so on, all true) are Equal and
// share a key and a hash.
func TestEqualValuesEqualKeys(t *testing.T) {
	for _, c := range []struct{ typ, a, b string }{
		{"numeric", "1.0", "1.00"}, {"numeric", "0", "-0.000"}, {"numeric", "100", "1e2"},
		{"numeric", "NaN", "nan"}, {"float8", "0", "-0"}, {"float8", "NaN", "nan"},
		{"bpchar", "a", "a  "}, {"char(3)", "ab", "ab "}, {"timestamp", "2024-03-05", "2024-03-05 00:00:00.000"},
		{"float4", "-0", "0"},
	} {
		typ := typeFromSQL(t, c.typ)
		a, err1 := ParseText(typ, c.a)
		b, err2 := ParseText(typ, c.b)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !Equal(typ, a, b) || !bytes.Equal(AppendKey(nil, typ, a), AppendKey(nil, typ, b)) || Hash(typ, a) != Hash(typ, b) {
			t.Errorf("%s %q and %q: not equal, or keys/hashes differ", c.typ, c.a, c.b)
		}
	}
	// NULL sorts after every value; multi-column keys concatenate.
	k1 := AppendKey(AppendKey(nil, TText, "a"), TInt4, int64(5))
	k2 := AppendKey(AppendKey(nil, TText, "a"), TInt4, nil)
	k3 := AppendKey(AppendKey(nil, TText, "ab"), TInt4, int64(-1))
	if !(bytes.Compare(k1, k2) < 0 && bytes.Compare(k2, k3) < 0) {
		t.Errorf("multi-column key order wrong: %x %x %x", k1, k2, k3)
	}
}

package types

import (
	"strconv"
	"strings"
	"testing"
)

// TestPGNames checks TypeByName and Name against testdata/names.txt.
func TestPGNames(t *testing.T) {
	const path = "testdata/names.txt"
	if *rewrite {
		rewriteFile(t, path, func(c tcase) string {
			return "DROP TABLE IF EXISTS minipg_types_name; CREATE TABLE minipg_types_name(x " + c.fields[0] + "); " +
				"SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'minipg_types_name'::regclass AND attnum = 1"
		}, nil)
	}
	_, cases := readCases(t, path)
	for _, c := range cases {
		name, mods := c.fields[0], []int32(nil)
		if i := strings.IndexByte(name, '('); i > 0 {
			for _, m := range strings.Split(name[i+1:len(name)-1], ",") {
				v, _ := strconv.Atoi(m)
				mods = append(mods, int32(v))
			}
			name = name[:i]
		}
		typ, err := TypeByName(name, mods)
		got := ""
		if err == nil {
			got = typ.Name()
		}
		checkResult(t, c, got, err)
	}
}

// TestTypeAttributes pins pg_type.typlen/typalign/typbyval
// (SELECT typname, typlen, typalign, typbyval FROM pg_type WHERE oid IN (...)).
func TestTypeAttributes(t *testing.T) {
	for _, c := range []struct {
		oid   OID
		len   int16
		align byte
		byval bool
	}{
		{Bool, 1, 'c', true}, {Int2, 2, 's', true}, {Int4, 4, 'i', true}, {Int8, 8, 'd', true},
		{Float4, 4, 'i', true}, {Float8, 8, 'd', true}, {Numeric, -1, 'i', false}, {Text, -1, 'i', false},
		{Varchar, -1, 'i', false}, {Bpchar, -1, 'i', false}, {Timestamp, 8, 'd', true}, {Date, 4, 'i', true},
		{TID, 6, 's', false}, {Unknown, -2, 'c', false}, {Void, 4, 'i', true},
	} {
		typ := T{c.oid, -1}
		if typ.Len() != c.len || typ.Align() != c.align || TypByVal(c.oid) != c.byval || TypLen(c.oid) != c.len {
			t.Errorf("%s: len %d align %c byval %v", TypName(c.oid), typ.Len(), typ.Align(), TypByVal(c.oid))
		}
	}
	if p, s, ok := NumericT(12, 2).NumericPrecScale(); !ok || p != 12 || s != 2 || NumericT(12, 2).Typmod != 786438 {
		t.Errorf("numeric(12,2) typmod: %d %d %v", p, s, ok)
	}
	if p, s, _ := NumericT(5, -3).NumericPrecScale(); p != 5 || s != -3 {
		t.Errorf("numeric(5,-3): %d %d", p, s)
	}
	if n, ok := VarcharT(10).CharLen(); !ok || n != 10 || VarcharT(10).Typmod != 14 {
		t.Errorf("varchar(10)")
	}
}

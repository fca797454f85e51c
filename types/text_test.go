package types

import (
	"testing"
)

// TestPGText checks ParseText and FormatText against testdata/text.txt
// (PostgreSQL 15's output of SELECT '<input>'::<type>), and that the output
// reads back to an equal value.
func TestPGText(t *testing.T) {
	for _, path := range []string{"testdata/text.txt", "testdata/float.txt"} {
		t.Run(path, func(t *testing.T) { testTextFile(t, path) })
	}
}

func testTextFile(t *testing.T, path string) {
	if *rewrite {
		rewriteFile(t, path, func(c tcase) string {
			return "SELECT " + sqlLit(c.fields[1]) + "::" + c.fields[0]
		}, nil)
	}
	_, cases := readCases(t, path)
	for _, c := range cases {
		typ := typeFromSQL(t, c.fields[0])
		var d Datum
		var err error
		if _, ok := typ.CharLen(); ok {
			// '...'::varchar(3) is an explicit cast: input, then length coercion.
			base := T{typ.OID, -1}
			if d, err = ParseText(base, c.fields[1]); err == nil {
				d, err = Coerce(d, base, typ, true)
			}
		} else {
			d, err = ParseText(typ, c.fields[1])
		}
		got := ""
		if err == nil {
			got = FormatText(typ, d)
		}
		checkResult(t, c, got, err)
		if err != nil || c.isErr {
			continue
		}
		back, err := ParseText(typ, got)
		if err != nil {
			t.Errorf("%v: output %q does not read back: %v", c, got, err)
			continue
		}
		if Compare(typ, d, back) != 0 {
			t.Errorf("%v: %q reads back as a different value", c, got)
		}
	}
}

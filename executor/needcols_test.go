package executor

import "testing"

// TestGroupedNeededColumns: a grouped query's scan decodes only the
// columns its GROUP BY and aggregate arguments read (its targets and HAVING
// read the group row), and a query that reads no column is answered from
// the TIDs alone; either way the answers are whole.
func TestGroupedNeededColumns(t *testing.T) {
	s := openTestEngine(t, "").NewSession(nil)
	for _, q := range []string{
		"CREATE TABLE g (a int, b int, c text)",
		"INSERT INTO g VALUES (1, 10, 'x'), (1, 20, 'y'), (2, 30, 'z'), (3, NULL, 'w')",
	} {
		if out := runSimple(s, q, ""); out == "" {
			t.Fatalf("%s: no output", q)
		}
	}
	for q, want := range map[string]string{
		"SELECT count(*) FROM g":                                                           "count\n4\nSELECT 1\n",
		"SELECT 1 AS one FROM g WHERE false":                                               "one\nSELECT 0\n",
		"SELECT c, count(*) FROM g GROUP BY c ORDER BY c":                                  "c|count\nw|1\nx|1\ny|1\nz|1\nSELECT 4\n",
		"SELECT a, sum(b), max(c) FROM g GROUP BY a ORDER BY a":                            "a|sum|max\n1|30|y\n2|30|z\n3|NULL|w\nSELECT 3\n",
		"SELECT a FROM g GROUP BY a HAVING count(b) > 0 ORDER BY a":                        "a\n1\n2\nSELECT 2\n",
		"SELECT a + 1 AS n, count(*) FROM g GROUP BY a + 1 HAVING min(c) < 'z' ORDER BY n": "n|count\n2|2\n4|1\nSELECT 2\n",
	} {
		if got := runSimple(s, q, ""); got != want {
			t.Errorf("%s:\n got %q\nwant %q", q, got, want)
		}
	}
}

package executor

import (
	"fmt"
	"testing"
)

// TestScanColumnsNotInherited: a read-only scan decodes only the columns its
// SELECT reads; a subquery evaluated while the outer scan opens (here for an
// index key) scans with its own columns, also when it joins the same table.
func TestScanColumnsNotInherited(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE sq (id int PRIMARY KEY, a int, b text, c int)")
	mustExec(t, s, "INSERT INTO sq VALUES (1, 10, 'x', 100), (2, 20, 'y', 200), (3, 30, 'z', 300)")
	cases := []struct{ q, want string }{
		{"SELECT id, c FROM sq WHERE id = (SELECT max(s1.id) FROM sq s1, sq s2 WHERE s1.a = s2.a AND s2.b = 'y')", "[[2 200]]"},
		{"SELECT c FROM sq WHERE id = (SELECT id FROM sq WHERE b = 'z')", "[[300]]"},
		{"SELECT count(*) FROM sq WHERE id IN (SELECT s1.id FROM sq s1, sq s2 WHERE s1.id = s2.id AND s2.c > 150)", "[[2]]"},
		{"SELECT b, ctid FROM sq WHERE c > 250", "[[z (0,3)]]"},
		{"SELECT count(*), max(b) FROM sq", "[[3 z]]"},
	}
	for _, tc := range cases {
		rows, _ := mustExec(t, s, tc.q)
		if got := fmt.Sprint(rowsText(rows)); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.q, got, tc.want)
		}
	}
}

func rowsText(rows [][]any) [][]string {
	var out [][]string
	for _, r := range rows {
		var vals []string
		for _, v := range r {
			vals = append(vals, fmt.Sprint(v))
		}
		out = append(out, vals)
	}
	return out
}

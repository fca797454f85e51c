package executor

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"minipg/pgerr"
	"minipg/types"
)

// indexKeyFormat returns the key format the catalog records for index
// name of table.
func indexKeyFormat(t *testing.T, e *Engine, table, name string) types.KeyFormat {
	t.Helper()
	return types.KeyFormat(relIndexOf(t, e, table, name).def.KeyFormat)
}

// TestIndexKeyFormats: disk indexes made in the wide integer format (as
// before the compact one) keep it across a restart, answer lookups, range
// scans and unique checks, take new entries and pass bt_index_check, next
// to an index made in the current format; and integer keys in the current
// format make a four-column integer index less than 60% of the wide one.
func TestIndexKeyFormats(t *testing.T) {
	dir := t.TempDir()
	e := openIndexEngine(t, dir, "disk")
	s := e.NewSession(nil)
	newKeyFormat = types.KeyFormatWideInts
	t.Cleanup(func() { newKeyFormat = types.CurrentKeyFormat })
	mustExec(t, s, "CREATE EXTENSION amcheck")
	mustExec(t, s, "CREATE TABLE kf (a int, b int8, c text, PRIMARY KEY (a, b))")
	mustExec(t, s, "CREATE INDEX kf_ca ON kf (c, a)")
	mustExec(t, s, "CREATE TABLE w4 (a int, b int, c int, d int)")
	mustExec(t, s, "CREATE INDEX w4_wide ON w4 (a, b, c, d)")
	newKeyFormat = types.CurrentKeyFormat
	mustExec(t, s, "CREATE INDEX w4_compact ON w4 (a, b, c, d)")
	mustExec(t, s, "INSERT INTO kf SELECT i, i::int8 * 1000003 - 5000000000, 'v' || i FROM generate_series(-300, 300) i")
	mustExec(t, s, "CREATE INDEX kf_b ON kf (b)")
	mustExec(t, s, "INSERT INTO w4 SELECT i % 4, i % 10, i / 10, i % 15 FROM generate_series(1, 20000) i")
	for _, c := range []struct {
		table, name string
		want        types.KeyFormat
	}{{"kf", "kf_pkey", types.KeyFormatWideInts}, {"kf", "kf_ca", types.KeyFormatWideInts},
		{"kf", "kf_b", types.KeyFormatCompactInts}, {"w4", "w4_wide", types.KeyFormatWideInts},
		{"w4", "w4_compact", types.KeyFormatCompactInts}} {
		if f := indexKeyFormat(t, e, c.table, c.name); f != c.want {
			t.Errorf("%s: key format %d, want %d", c.name, f, c.want)
		}
	}
	wide, _ := strconv.Atoi(one(t, s, "SELECT pg_relation_size('w4_wide')"))
	compact, _ := strconv.Atoi(one(t, s, "SELECT pg_relation_size('w4_compact')"))
	t.Logf("four int columns, 20,000 rows: %d bytes wide, %d compact", wide, compact)
	if compact*10 > wide*6 {
		t.Errorf("compact index %d bytes, wide %d: want under 60%%", compact, wide)
	}
	e.Close()

	e = openIndexEngine(t, dir, "")
	s = e.NewSession(nil)
	if f := indexKeyFormat(t, e, "kf", "kf_pkey"); f != types.KeyFormatWideInts {
		t.Fatalf("kf_pkey after the restart: key format %d, want the wide one", f)
	}
	mustExec(t, s, "INSERT INTO kf VALUES (301, 9000000000, 'x'), (-301, -9000000000, 'x')")
	mustExec(t, s, "SET enable_seqscan = off")
	for _, c := range []struct{ q, want, index string }{
		{"SELECT c FROM kf WHERE a = -7 AND b = -7 * 1000003 - 5000000000", "v-7", "kf_pkey"},
		{"SELECT count(*) FROM kf WHERE a BETWEEN -5 AND 5", "11", "kf_pkey"},
		{"SELECT count(*) FROM kf WHERE a > 250", "51", "kf_pkey"},
		{"SELECT a FROM kf WHERE c = 'v42' AND a = 42", "42", "kf_ca"},
		{"SELECT count(*) FROM kf WHERE c = 'x'", "2", "kf_ca"},
		{"SELECT a FROM kf WHERE b = 9000000000", "301", "kf_b"},
		{"SELECT count(*) FROM kf WHERE b < -5000000000", "301", "kf_b"},
		{"SELECT count(*) FROM w4 WHERE a = 3 AND b = 3 AND c = 2", "1", "w4_"},
	} {
		if plan := explainText(t, s, "EXPLAIN "+c.q); !strings.Contains(plan, "using "+c.index) {
			t.Errorf("%s: not a scan of %s:\n%s", c.q, c.index, plan)
		}
		if got := one(t, s, c.q); got != c.want {
			t.Errorf("%s: %s, want %s", c.q, got, c.want)
		}
	}
	if code := failCode(t, s, "INSERT INTO kf VALUES (42, 42 * 1000003 - 5000000000, 'dup')"); code != pgerr.UniqueViolation {
		t.Errorf("duplicate key in the wide primary key: %s, want 23505", code)
	}
	for _, idx := range []string{"kf_pkey", "kf_ca", "kf_b", "w4_wide", "w4_compact"} {
		mustExec(t, s, fmt.Sprintf("SELECT bt_index_check('%s', true)", idx))
	}
}

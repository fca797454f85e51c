package crashtest

import (
	"fmt"
	"testing"
)

// TestVacuumFullCrash: the pages VACUUM FULL writes are WAL-logged as full
// images, so a kill -9 after it (the new pages perhaps never written to
// their files) loses no row: recovery rebuilds the new heap, and the
// rebuilt index finds every row.
func TestVacuumFullCrash(t *testing.T) {
	dir := t.TempDir()
	settings := []string{"checkpoint_timeout=1h", "max_wal_size=1GB"}
	s := startServer(t, dir, settings...)
	c := connect(t, s)
	for _, q := range []string{
		"CREATE TABLE vfc (id int PRIMARY KEY, v text) WITH (fillfactor = 60)",
		"INSERT INTO vfc SELECT g, repeat('v', 200) FROM generate_series(1, 3000) g",
		"CHECKPOINT",
		"DELETE FROM vfc WHERE id % 4 <> 0",
		"VACUUM FULL vfc",
		"INSERT INTO vfc VALUES (5001, 'after')",
	} {
		exec1(t, c, q)
	}
	s.kill()

	s = startServer(t, dir, settings...)
	c = connect(t, s)
	if n := queryInt(t, c, "SELECT count(*) FROM vfc"); n != 751 {
		t.Fatalf("%d rows after the crash, want 751", n)
	}
	if n := queryInt(t, c, "SELECT sum(id) FROM vfc WHERE id % 4 = 0"); n != 4*(750*751/2) {
		t.Fatalf("sum of ids %d after the crash", n)
	}
	for _, id := range []int{4, 1500, 3000, 5001} {
		if n := queryInt(t, c, fmt.Sprintf("SELECT count(*) FROM vfc WHERE id = %d", id)); n != 1 {
			t.Fatalf("id %d found %d times through the index after the crash", id, n)
		}
	}
	if n := queryInt(t, c, "SELECT pg_relation_size('vfc') / 8192"); n > 60 {
		t.Fatalf("vfc has %d pages after the crash; VACUUM FULL packed it into about 38 (from about 150)", n)
	}
	s.stop(t)
}

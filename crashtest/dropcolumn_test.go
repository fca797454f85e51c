package crashtest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestDropColumnCrash: ALTER TABLE ... DROP COLUMN since the last
// checkpoint, and rows written before and after it, come back after a
// crash as they were acknowledged: the catalog has the column dropped
// (its index and the view over it gone with it), the WAL's replay puts the
// old tuples back with the dropped attribute's bytes and the new ones with
// NULL there, and the heap checks pass on both kinds. A DROP COLUMN of a
// transaction open at the crash stays done, as minipg's ALTER TABLE does
// on a rollback. Each index storage is run.
func TestDropColumnCrash(t *testing.T) {
	for _, storage := range []string{"disk", "memory"} {
		t.Run(storage, func(t *testing.T) { dropColumnCrash(t, storage) })
	}
}

func dropColumnCrash(t *testing.T, storage string) {
	dir := t.TempDir()
	settings := []string{"checkpoint_timeout=1h", "max_wal_size=1GB", "index_storage=" + storage, "minipg_check_at_start=on"}
	s := startServer(t, dir, settings...)
	c := connect(t, s)
	ctx := context.Background()
	exec1(t, c, "CREATE EXTENSION pageinspect")
	exec1(t, c, "CREATE TABLE dc (id int PRIMARY KEY, gone text, v int, w int)")
	exec1(t, c, "CREATE INDEX dc_gone ON dc (gone)")
	exec1(t, c, "CREATE INDEX dc_w ON dc (w)")
	exec1(t, c, "CREATE VIEW dc_view AS SELECT id, gone FROM dc")
	exec1(t, c, "CHECKPOINT")
	exec1(t, c, "INSERT INTO dc SELECT g, 'gone ' || g, g, g * 10 FROM generate_series(1, 200) g")
	exec1(t, c, "ALTER TABLE dc DROP COLUMN gone CASCADE")
	exec1(t, c, "INSERT INTO dc SELECT g, g, g * 10 FROM generate_series(201, 300) g")
	exec1(t, c, "UPDATE dc SET v = -v WHERE id % 50 = 0") // HOT: no indexed column changes
	exec1(t, c, "CREATE TABLE dc_open (a int, b int)")
	exec1(t, c, "INSERT INTO dc_open VALUES (1, 2)")
	c2 := connect(t, s)
	exec1(t, c2, "BEGIN")
	exec1(t, c2, "ALTER TABLE dc_open DROP COLUMN a")
	s.kill()

	s = startServer(t, dir, settings...)
	if !strings.Contains(s.log.String(), "redo starts") {
		t.Fatalf("no replay after the crash:\n%s", s.log)
	}
	c = connect(t, s)
	if n := queryInt(t, c, "SELECT count(*) FROM dc WHERE v = id OR v = -id AND id % 50 = 0"); n != 300 {
		t.Fatalf("dc after recovery: %d rows as written, want 300", n)
	}
	if n := queryInt(t, c, "SELECT count(*) FROM pg_attribute WHERE attrelid = 'dc'::regclass AND attisdropped AND atttypid = 0 AND attnum = 2"); n != 1 {
		t.Fatal("the dropped column is not dropped in pg_attribute after recovery")
	}
	if n := queryInt(t, c, "SELECT count(*) FROM pg_class WHERE relname IN ('dc_gone', 'dc_view')"); n != 0 {
		t.Fatal("the index or the view over the dropped column is back after recovery")
	}
	exec1(t, c, "SET enable_seqscan = off")
	for _, id := range []int{50, 100, 250, 300} {
		if n := queryInt(t, c, fmt.Sprintf("SELECT v FROM dc WHERE w = %d", id*10)); n != -id {
			t.Fatalf("dc_w probe for id %d after recovery: v = %d", id, n)
		}
	}
	exec1(t, c, "RESET enable_seqscan")
	// Old tuples keep the dropped attribute's bytes, new ones have NULL.
	var attrs string
	if err := c.QueryRow(ctx, "SELECT t_attrs::text FROM heap_page_item_attrs(get_raw_page('dc', 0), 'dc'::regclass) WHERE lp = 1").Scan(&attrs); err != nil {
		t.Fatal(err)
	}
	if want := `\\x0f676f6e652031`; !strings.Contains(attrs, want) { // varlena 'gone 1'
		t.Fatalf("first tuple after recovery: %s, want the dropped value %s", attrs, want)
	}
	if n := queryInt(t, c, "SELECT count(*) FROM heap_page_items(get_raw_page('dc', 1)) WHERE t_bits LIKE '10%'"); n == 0 {
		t.Fatal("no tuple with a NULL dropped attribute on block 1 after recovery")
	}
	// The open transaction's drop stayed done.
	var cols string
	if err := c.QueryRow(ctx, "SELECT string_agg(column_name, ',') FROM information_schema.columns WHERE table_name = 'dc_open'").Scan(&cols); err != nil || cols != "b" {
		t.Fatalf("dc_open columns after recovery: %q, %v", cols, err)
	}
	exec1(t, c, "INSERT INTO dc VALUES (301, 301, 3010)")
	exec1(t, c, "ALTER TABLE dc DROP COLUMN v")
	if n := queryInt(t, c, "SELECT w FROM dc WHERE id = 301"); n != 3010 {
		t.Fatalf("dc after a second drop: w = %d", n)
	}
	s.stop(t)
}

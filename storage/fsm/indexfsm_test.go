package fsm

import (
	"slices"
	"testing"
)

// TestIndexFreePages: pages recorded free are shown as all free (8160, as
// PostgreSQL 15's pg_freespace shows a free index page), are found only
// after IndexFreeSpaceMapVacuum, and each is handed out once: taking it
// records it as used. A map on the same files in a new pool (a restart)
// still has the pages not taken.
func TestIndexFreePages(t *testing.T) {
	dir := t.TempDir()
	pool := newPool(t, dir, 32)
	if err := pool.CreateRel(testRel); err != nil {
		t.Fatal(err)
	}
	m := OpenMap(pool, testRel)
	if blk := m.GetFreeIndexPage(); blk != InvalidBlock {
		t.Fatalf("empty map handed out page %d", blk)
	}
	free := []uint32{3, 17, 4068, 4069, 9000}
	for _, blk := range free {
		if err := m.RecordFreeIndexPage(blk); err != nil {
			t.Fatal(err)
		}
	}
	for _, blk := range free {
		if got := m.GetRecordedFreeSpace(blk); got != 8160 {
			t.Fatalf("free index page %d recorded with %d bytes, want 8160", blk, got)
		}
	}
	if got := m.GetRecordedFreeSpace(5); got != 0 {
		t.Fatalf("page 5 recorded with %d bytes", got)
	}
	if blk := m.GetFreeIndexPage(); blk != InvalidBlock {
		t.Fatalf("page %d handed out before the upper levels were vacuumed", blk)
	}
	if err := m.IndexFreeSpaceMapVacuum(); err != nil {
		t.Fatal(err)
	}
	var got []uint32
	for range 2 {
		blk := m.GetFreeIndexPage()
		if blk == InvalidBlock || m.GetRecordedFreeSpace(blk) != 0 {
			t.Fatalf("took page %d, recorded %d after", blk, m.GetRecordedFreeSpace(blk))
		}
		got = append(got, blk)
	}
	if err := pool.FlushAll(); err != nil {
		t.Fatal(err)
	}
	pool.Close()

	m = OpenMap(newPool(t, dir, 32), testRel)
	for blk := m.GetFreeIndexPage(); blk != InvalidBlock; blk = m.GetFreeIndexPage() {
		if slices.Contains(got, blk) {
			t.Fatalf("page %d handed out twice", blk)
		}
		got = append(got, blk)
	}
	slices.Sort(got)
	if !slices.Equal(got, free) {
		t.Fatalf("pages handed out %v, recorded free %v", got, free)
	}
	if err := m.RecordUsedIndexPage(17); err != nil {
		t.Fatal(err)
	}
	for _, blk := range free {
		if got := m.GetRecordedFreeSpace(blk); got != 0 {
			t.Fatalf("page %d still recorded with %d bytes after it was taken", blk, got)
		}
	}
}

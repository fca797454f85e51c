package nbtree

import (
	"testing"

	"minipg/storage/page"
)

// TestCachedRoot: descents start at the cached root without reading the
// metapage; a root split makes the cached root fail its check, and the
// next descent reads the metapage again and finds every entry.
func TestCachedRoot(t *testing.T) {
	e := newEnv(t, 256, Options{pageBytes: 600})
	ix := e.ix
	tid := func(k uint64) page.TID { return page.TID{Block: uint32(k/100 + 1), Offset: uint16(k%100 + 1)} }
	lookup := func(k uint64) {
		t.Helper()
		got, err := ix.Lookup(mkKey(k, "x"))
		if err != nil || len(got) != 1 || got[0] != tid(k) {
			t.Fatalf("Lookup(%d) = %v, %v; want [%v]", k, got, err, tid(k))
		}
	}
	if err := ix.Insert(mkEntry(0, "x", tid(0))); err != nil {
		t.Fatal(err)
	}
	lookup(0)
	before := ix.st.metaReads.Load()
	for range 100 {
		lookup(0)
	}
	if n := ix.st.metaReads.Load() - before; n != 0 {
		t.Fatalf("100 lookups read the metapage %d times, want 0 (cached root)", n)
	}
	// Grow the tree through several root splits, looking up as it grows.
	var splits int
	level := uint32(0)
	var k uint64
	for k = 1; level < 3; k++ {
		if err := ix.Insert(mkEntry(k, "x", tid(k))); err != nil {
			t.Fatal(err)
		}
		m, err := ix.readMeta()
		if err != nil {
			t.Fatal(err)
		}
		if m.level != level {
			splits++
			level = m.level
			lookup(k)
			lookup(0)
			if c, ok := ix.st.cachedMeta(); !ok || c != m {
				t.Fatalf("after the root split to level %d: cached %+v (%v), metapage %+v", level, c, ok, m)
			}
		}
	}
	for i := range k {
		lookup(i)
	}
	mustCheck(t, ix)
	// A stale copy (the first root, now an inner page's left sibling) is
	// checked and dropped: every entry is still found.
	ix.st.rememberMeta(meta{root: 1, level: 0})
	for i := range k {
		lookup(i)
	}
	m, _ := ix.readMeta()
	if c, ok := ix.st.cachedMeta(); !ok || c != m {
		t.Fatalf("after a stale copy: cached %+v (%v), metapage %+v", c, ok, m)
	}
	if splits < 3 {
		t.Fatalf("%d root splits, want 3", splits)
	}
}

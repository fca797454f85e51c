package index

import (
	"cmp"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"sync"
	"testing"

	"minipg/storage/page"
)

func intCmp(a, b any) int             { return cmp.Compare(a.(int64), b.(int64)) }
func strCmp(a, b any) int             { return cmp.Compare(a.(string), b.(string)) }
func tid(b uint32, o uint16) page.TID { return page.TID{Block: b, Offset: o} }

func k(vals ...any) Key { return vals }

// model is a sorted slice of entries, the reference for the tree.
type model struct {
	cmp     CompareFunc
	entries []entry
}

func (m *model) less(a, b entry) int {
	n := min(len(a.key), len(b.key))
	if c := m.cmp(a.key[:n], b.key[:n]); c != 0 {
		return c
	}
	switch {
	case tidLess(a.tid, b.tid):
		return -1
	case tidLess(b.tid, a.tid):
		return 1
	}
	return 0
}

func (m *model) insert(e entry) {
	i, found := slices.BinarySearchFunc(m.entries, e, m.less)
	if !found {
		m.entries = slices.Insert(m.entries, i, e)
	}
}

func (m *model) delete(e entry) bool {
	i, found := slices.BinarySearchFunc(m.entries, e, m.less)
	if found {
		m.entries = slices.Delete(m.entries, i, i+1)
	}
	return found
}

func (m *model) scan(lo, hi Bound, reverse bool) []entry {
	var out []entry
	for _, e := range m.entries {
		if lo.Key != nil {
			c := m.cmp(e.key[:len(lo.Key)], lo.Key)
			if c < 0 || (c == 0 && !lo.Inclusive) {
				continue
			}
		}
		if hi.Key != nil {
			c := m.cmp(e.key[:len(hi.Key)], hi.Key)
			if c > 0 || (c == 0 && !hi.Inclusive) {
				continue
			}
		}
		out = append(out, e)
	}
	if reverse {
		slices.Reverse(out)
	}
	return out
}

func collect(it *Iterator) []entry {
	var out []entry
	for {
		k, t, ok := it.Next()
		if !ok {
			return out
		}
		out = append(out, entry{k, t})
	}
}

func fmtEntries(es []entry) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%v%v ", e.key, e.tid)
	}
	return b.String()
}

func sameEntries(a, b []entry) bool {
	return slices.EqualFunc(a, b, func(x, y entry) bool {
		return x.tid == y.tid && slices.Equal(x.key, y.key)
	})
}

func TestBasic(t *testing.T) {
	ix := New(KeyCompare(intCmp), true)
	if !ix.Unique() {
		t.Fatal("Unique() = false")
	}
	ix.Insert(k(int64(5)), tid(0, 1))
	ix.Insert(k(int64(3)), tid(0, 2))
	ix.Insert(k(int64(5)), tid(1, 1)) // dead + live version of key 5
	ix.Insert(k(int64(5)), tid(0, 1)) // duplicate entry: no-op
	ix.Insert(k(nil), tid(2, 1))      // NULL sorts last
	if got := ix.Len(); got != 4 {
		t.Fatalf("Len = %d, want 4", got)
	}
	if got := ix.Lookup(k(int64(5))); !slices.Equal(got, []page.TID{tid(0, 1), tid(1, 1)}) {
		t.Fatalf("Lookup(5) = %v", got)
	}
	if got := ix.Lookup(k(int64(4))); len(got) != 0 {
		t.Fatalf("Lookup(4) = %v", got)
	}
	var order []page.TID
	ix.Scan(Unbounded, Unbounded, func(_ Key, t page.TID) bool { order = append(order, t); return true })
	if want := []page.TID{tid(0, 2), tid(0, 1), tid(1, 1), tid(2, 1)}; !slices.Equal(order, want) {
		t.Fatalf("scan order %v, want %v", order, want)
	}
	if !ix.Delete(k(int64(5)), tid(0, 1)) || ix.Delete(k(int64(5)), tid(0, 1)) {
		t.Fatal("Delete: want true then false")
	}
	if got := ix.Lookup(k(int64(5))); !slices.Equal(got, []page.TID{tid(1, 1)}) {
		t.Fatalf("Lookup(5) after delete = %v", got)
	}
	ix.Clear()
	if ix.Len() != 0 {
		t.Fatal("Clear left entries")
	}
}

// TestRanges checks bounds, prefixes and direction against the model on a
// two-column (int, text) index.
func TestRanges(t *testing.T) {
	c := KeyCompare(intCmp, strCmp)
	ix := New(c, false)
	m := &model{cmp: c}
	words := []string{"a", "b", "c"}
	n := 0
	for i := int64(0); i < 50; i++ {
		for j, w := range words {
			for d := 0; d < 2; d++ { // two versions per key
				n++
				e := entry{k(i, w), tid(uint32(n/7), uint16(n%7+1))}
				if (i+int64(j)+int64(d))%5 == 0 {
					e.key = k(i, nil)
				}
				ix.Insert(e.key, e.tid)
				m.insert(e)
			}
		}
	}
	if ix.Len() != len(m.entries) {
		t.Fatalf("Len = %d, model %d", ix.Len(), len(m.entries))
	}
	cases := []struct{ lo, hi Bound }{
		{Unbounded, Unbounded},
		{Incl(k(int64(10))), Incl(k(int64(12)))},
		{Excl(k(int64(10))), Excl(k(int64(12)))},
		{Incl(k(int64(10))), Excl(k(int64(10)))},
		{Incl(k(int64(10), "b")), Incl(k(int64(11), "a"))},
		{Excl(k(int64(10), "b")), Unbounded},
		{Unbounded, Excl(k(int64(3), "c"))},
		{Incl(k(int64(49))), Unbounded},
		{Incl(k(int64(60))), Unbounded},
		{Unbounded, Excl(k(int64(0)))},
		{Incl(k(int64(20))), Incl(k(int64(10)))},
		{Incl(k(int64(7), nil)), Incl(k(int64(8), "a"))},
	}
	for _, tc := range cases {
		for _, rev := range []bool{false, true} {
			name := fmt.Sprintf("%v..%v rev=%v", tc.lo, tc.hi, rev)
			got := collect(ix.NewIterator(tc.lo, tc.hi, rev))
			want := m.scan(tc.lo, tc.hi, rev)
			if fmtEntries(got) != fmtEntries(want) {
				t.Errorf("%s:\n got  %s\n want %s", name, fmtEntries(got), fmtEntries(want))
			}
		}
	}
	// Lookup on a prefix and on a full key.
	if got, want := len(ix.Lookup(k(int64(10)))), len(m.scan(Incl(k(int64(10))), Incl(k(int64(10))), false)); got != want || got == 0 {
		t.Errorf("prefix Lookup: %d entries, want %d", got, want)
	}
}

// TestRandomOps runs random inserts, deletes and scans against the model,
// with ranges long enough to span several iterator batches.
func TestRandomOps(t *testing.T) {
	c := KeyCompare(intCmp)
	ix := New(c, false)
	m := &model{cmp: c}
	rng := rand.New(rand.NewSource(1))
	steps := 8000
	if testing.Short() {
		steps = 3000
	}
	for step := 0; step < steps; step++ {
		e := entry{k(int64(rng.Intn(1000))), tid(uint32(rng.Intn(50)), uint16(rng.Intn(5)+1))}
		switch r := rng.Intn(10); {
		case r < 6:
			ix.Insert(e.key, e.tid)
			m.insert(e)
		case r < 9:
			if got, want := ix.Delete(e.key, e.tid), m.delete(e); got != want {
				t.Fatalf("step %d: Delete = %v, model %v", step, got, want)
			}
		default:
			a, b := int64(rng.Intn(1000)), int64(rng.Intn(1000))
			lo, hi := Bound{k(min(a, b)), rng.Intn(2) == 0}, Bound{k(max(a, b)), rng.Intn(2) == 0}
			rev := rng.Intn(2) == 0
			if got, want := collect(ix.NewIterator(lo, hi, rev)), m.scan(lo, hi, rev); !sameEntries(got, want) {
				t.Fatalf("step %d: scan %v..%v rev=%v:\n got  %s\n want %s", step, lo, hi, rev, fmtEntries(got), fmtEntries(want))
			}
		}
	}
	if ix.Len() != len(m.entries) {
		t.Fatalf("Len = %d, model %d", ix.Len(), len(m.entries))
	}
}

// TestModifyWhileIterating inserts new versions of every row into the index
// while scanning it (what an UPDATE does) and deletes others: nothing is
// returned twice and the scan does not deadlock. (The new versions may be
// returned: the executor skips them by visibility, as PostgreSQL does.)
func TestModifyWhileIterating(t *testing.T) {
	for _, rev := range []bool{false, true} {
		ix := New(KeyCompare(intCmp), false)
		const n = 1000
		for i := 0; i < n; i++ {
			ix.Insert(k(int64(i)), tid(0, 1))
		}
		type seenKey struct {
			k int64
			t page.TID
		}
		seen := map[seenKey]bool{}
		it := ix.NewIterator(Unbounded, Unbounded, rev)
		for {
			key, tt, ok := it.Next()
			if !ok {
				break
			}
			ek := seenKey{key[0].(int64), tt}
			if seen[ek] {
				t.Fatalf("rev=%v: %v returned twice", rev, ek)
			}
			seen[ek] = true
			if tt.Block == 0 {
				ix.Insert(key, tid(1, 1)) // the new version, right after
			}
			ix.Delete(k(int64(n-1-key[0].(int64)%n)), tid(0, 1))
		}
		if len(seen) < n/2 {
			t.Fatalf("rev=%v: saw %d entries", rev, len(seen))
		}
	}
}

// TestConcurrent runs writers and scanners at once (run with -race): each
// writer owns a key range and checks its own entries.
func TestConcurrent(t *testing.T) {
	ix := New(KeyCompare(intCmp), true)
	const writers, per = 4, 2000
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			base := int64(w * per)
			for i := int64(0); i < per; i++ {
				ix.Insert(k(base+i), tid(uint32(w), uint16(i%100+1)))
				if i%3 == 0 {
					if !ix.Delete(k(base+i), tid(uint32(w), uint16(i%100+1))) {
						t.Errorf("writer %d: lost key %d", w, base+i)
						return
					}
				}
			}
		}(w)
	}
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				var prev Key
				ix.Scan(Unbounded, Unbounded, func(key Key, _ page.TID) bool {
					if prev != nil && intCmp(prev[0], key[0]) > 0 {
						t.Errorf("scan out of order: %v after %v", key, prev)
						return false
					}
					prev = key
					return true
				})
			}
		}()
	}
	wg.Wait()
	want := writers * (per - (per+2)/3)
	if ix.Len() != want {
		t.Fatalf("Len = %d, want %d", ix.Len(), want)
	}
}

func BenchmarkInsert(b *testing.B) {
	ix := New(KeyCompare(intCmp), true)
	rng := rand.New(rand.NewSource(1))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ix.Insert(k(rng.Int63()), tid(uint32(i/100), uint16(i%100+1)))
	}
}

func BenchmarkLookup(b *testing.B) {
	ix := New(KeyCompare(intCmp), true)
	const n = 1 << 20
	for i := 0; i < n; i++ {
		ix.Insert(k(int64(i)), tid(uint32(i/100), uint16(i%100+1)))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if len(ix.Lookup(k(int64(i%n)))) != 1 {
			b.Fatal("miss")
		}
	}
}

func BenchmarkLookupParallel(b *testing.B) {
	ix := New(KeyCompare(intCmp), true)
	const n = 1 << 20
	for i := 0; i < n; i++ {
		ix.Insert(k(int64(i)), tid(uint32(i/100), uint16(i%100+1)))
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			if len(ix.Lookup(k(int64(i*7919%n)))) != 1 {
				b.Fatal("miss")
			}
		}
	})
}

func BenchmarkRangeScan100(b *testing.B) {
	ix := New(KeyCompare(intCmp), false)
	const n = 1 << 18
	for i := 0; i < n; i++ {
		ix.Insert(k(int64(i)), tid(uint32(i/100), uint16(i%100+1)))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lo := int64(i*31) % (n - 100)
		cnt := 0
		ix.Scan(Incl(k(lo)), Excl(k(lo+100)), func(Key, page.TID) bool { cnt++; return true })
		if cnt != 100 {
			b.Fatalf("cnt %d", cnt)
		}
	}
}

// TestDeleteLast: an iterator removes the entries it chooses as it goes,
// in both directions and both kinds of index, and goes on after each.
func TestDeleteLast(t *testing.T) {
	const n = 600 // several batches
	for _, encoded := range []bool{false, true} {
		for _, rev := range []bool{false, true} {
			var ix *Index
			if encoded {
				ix = NewEncoded(intTextEnc, false)
			} else {
				ix = New(KeyCompare(intCmp), false)
			}
			for i := 0; i < n; i++ {
				ix.Insert(k(int64(i)), tid(uint32(i), 1))
			}
			it := ix.NewIterator(Unbounded, Unbounded, rev)
			if it.DeleteLast() {
				t.Fatal("DeleteLast before Next removed something")
			}
			seen := 0
			for {
				_, tt, ok := it.Next()
				if !ok {
					break
				}
				seen++
				if tt.Block%3 == 0 && !it.DeleteLast() {
					t.Fatalf("encoded=%v rev=%v: entry of block %d not removed", encoded, rev, tt.Block)
				}
			}
			if seen != n || ix.Len() != n-n/3 {
				t.Fatalf("encoded=%v rev=%v: saw %d of %d, %d left, want %d", encoded, rev, seen, n, ix.Len(), n-n/3)
			}
			ix.Scan(Unbounded, Unbounded, func(_ Key, tt page.TID) bool {
				if tt.Block%3 == 0 {
					t.Fatalf("encoded=%v rev=%v: removed entry of block %d still there", encoded, rev, tt.Block)
				}
				return true
			})
		}
	}
}

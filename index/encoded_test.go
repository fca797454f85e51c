package index

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"minipg/storage/page"
	"minipg/types"
)

// intTextEnc encodes (int8, text) keys (or a prefix) as the executor does.
func intTextEnc(dst []byte, k Key) []byte {
	ts := []types.T{types.TInt8, types.TText}
	for i, v := range k {
		dst = types.AppendKey(dst, ts[i], v)
	}
	return dst
}

func collectTIDs(it *Iterator) []page.TID {
	var out []page.TID
	for {
		k, t, ok := it.Next()
		if !ok {
			return out
		}
		if k != nil {
			panic("encoded index returned a key")
		}
		out = append(out, t)
	}
}

func entryTIDs(es []entry) []page.TID {
	var out []page.TID
	for _, e := range es {
		out = append(out, e.tid)
	}
	return out
}

// TestEncodedMatchesModel runs the range cases and random operations of
// the CompareFunc index against an encoded one, half loaded by a Builder.
func TestEncodedMatchesModel(t *testing.T) {
	c := KeyCompare(intCmp, strCmp)
	m := &model{cmp: c}
	ix := NewEncoded(intTextEnc, false)
	bld := ix.NewBuilder()
	words := []string{"a", "b", "", "b\x00c"[:1]}
	n := 0
	for i := int64(-30); i < 50; i++ {
		for j, w := range words {
			for d := 0; d < 2; d++ {
				n++
				e := entry{k(i, w), tid(uint32(n/7), uint16(n%7+1))}
				if (i+int64(j)+int64(d))%5 == 0 {
					e.key = k(i, nil)
				}
				if n%2 == 0 {
					bld.Add(e.key, e.tid)
				} else {
					ix.Insert(e.key, e.tid)
				}
				m.insert(e)
			}
		}
	}
	bld.Finish()
	if ix.Len() != len(m.entries) {
		t.Fatalf("Len = %d, model %d", ix.Len(), len(m.entries))
	}
	rng := rand.New(rand.NewSource(2))
	randKey := func() Key {
		key := k(int64(rng.Intn(90) - 35))
		switch rng.Intn(3) {
		case 1:
			key = append(key, words[rng.Intn(len(words))])
		case 2:
			key = append(key, nil)
		}
		return key
	}
	for step := 0; step < 4000; step++ {
		switch r := rng.Intn(10); {
		case r < 4:
			key := randKey()
			if len(key) == 1 {
				key = append(key, "b")
			}
			e := entry{key, tid(uint32(rng.Intn(20)), uint16(rng.Intn(5)+1))}
			ix.Insert(e.key, e.tid)
			m.insert(e)
		case r < 6:
			if len(m.entries) == 0 {
				continue
			}
			e := m.entries[rng.Intn(len(m.entries))]
			if got, want := ix.Delete(e.key, e.tid), m.delete(e); got != want {
				t.Fatalf("step %d: Delete = %v, model %v", step, got, want)
			}
		case r < 7:
			key := randKey()
			if got, want := ix.Lookup(key), entryTIDs(m.scan(Incl(key), Incl(key), false)); !slices.Equal(got, want) {
				t.Fatalf("step %d: Lookup(%v) = %v, want %v", step, key, got, want)
			}
		default:
			lo, hi := Unbounded, Unbounded
			if rng.Intn(4) != 0 {
				lo = Bound{randKey(), rng.Intn(2) == 0}
			}
			if rng.Intn(4) != 0 {
				hi = Bound{randKey(), rng.Intn(2) == 0}
			}
			rev := rng.Intn(2) == 0
			got := collectTIDs(ix.NewIterator(lo, hi, rev))
			want := entryTIDs(m.scan(lo, hi, rev))
			if !slices.Equal(got, want) {
				t.Fatalf("step %d: scan %v..%v rev=%v:\n got  %v\n want %v", step, lo, hi, rev, got, want)
			}
		}
	}
	// DeleteTIDs removes every entry of the given versions.
	set := map[page.TID]struct{}{tid(1, 1): {}, tid(2, 3): {}}
	want := 0
	for _, e := range m.entries {
		if _, ok := set[e.tid]; ok {
			want++
		}
	}
	if got := ix.DeleteTIDs(set); got != want || ix.Len() != len(m.entries)-want {
		t.Fatalf("DeleteTIDs = %d (Len %d), want %d (Len %d)", got, ix.Len(), want, len(m.entries)-want)
	}
}

// TestEncodedModifyWhileIterating is TestModifyWhileIterating on an encoded
// index: entries inserted and deleted during a scan, none returned twice.
func TestEncodedModifyWhileIterating(t *testing.T) {
	for _, rev := range []bool{false, true} {
		ix := NewEncoded(intTextEnc, false)
		const n = 1000
		for i := 0; i < n; i++ {
			ix.Insert(k(int64(i)), tid(uint32(i), 1))
		}
		seen := map[page.TID]bool{}
		it := ix.NewIterator(Unbounded, Unbounded, rev)
		for {
			_, tt, ok := it.Next()
			if !ok {
				break
			}
			if seen[tt] {
				t.Fatalf("rev=%v: %v returned twice", rev, tt)
			}
			seen[tt] = true
			if tt.Offset == 1 {
				ix.Insert(k(int64(tt.Block)), tid(tt.Block, 2))
			}
			victim := n - 1 - int(tt.Block)%n
			ix.Delete(k(int64(victim)), tid(uint32(victim), 1))
		}
		if len(seen) < n/2 {
			t.Fatalf("rev=%v: saw %d entries", rev, len(seen))
		}
	}
}

func BenchmarkEncodedInsert(b *testing.B) {
	ix := NewEncoded(intTextEnc, true)
	for i := 0; i < b.N; i++ {
		ix.Insert(k(int64(i%1000), fmt.Sprint(i)), tid(uint32(i), 1))
	}
}

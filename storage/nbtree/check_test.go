package nbtree

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/page"
)

// corruptBlock changes block blk of the index in the pool under its lock.
func corruptBlock(t *testing.T, e *env, blk uint32, fn func(p page.Page)) {
	t.Helper()
	b, err := e.pool.ReadBuffer(testRel, buffer.MainFork, blk)
	if err != nil {
		t.Fatal(err)
	}
	b.Lock()
	fn(b.Page())
	b.MarkDirty()
	b.Unlock()
	b.Release()
}

// findPage returns the first block (from 1) whose page satisfies pred.
func findPage(t *testing.T, e *env, pred func(p page.Page) bool) uint32 {
	t.Helper()
	for blk, p := range e.pages(t) {
		if blk > 0 && pred(p) {
			return uint32(blk)
		}
	}
	t.Fatal("no such page")
	return 0
}

// TestCheckFindsCorruption: each kind of damage is reported as XX002 with
// the damaged block named.
func TestCheckFindsCorruption(t *testing.T) {
	notRightmostLeaf := func(p page.Page) bool { return isLeaf(p) && !isRightmost(p) && page.MaxOffset(p) > 4 }
	internal := func(p page.Page) bool { return !isLeaf(p) && !isRightmost(p) && page.MaxOffset(p) > 3 }
	swap := func(p page.Page, a, b uint16) {
		ia, _, la := page.ItemID(p, a)
		ib, _, lb := page.ItemID(p, b)
		page.SetItemID(p, a, ib, page.LPNormal, lb)
		page.SetItemID(p, b, ia, page.LPNormal, la)
	}
	for _, tc := range []struct {
		name  string
		pick  func(p page.Page) bool
		hurt  func(p page.Page)
		error string
	}{
		{"items out of order", notRightmostLeaf, func(p page.Page) { swap(p, 2, 3) }, "is not above item"},
		{"item above the high key", notRightmostLeaf, func(p page.Page) { swap(p, 1, page.MaxOffset(p)) }, ""},
		{"bad right link", notRightmostLeaf, func(p page.Page) { setNext(p, btNext(p)+1000) }, ""},
		{"bad left link", notRightmostLeaf, func(p page.Page) { setPrev(p, btPrev(p)+1) }, "left link"},
		{"wrong level", notRightmostLeaf, func(p page.Page) { setLevel(p, 3) }, "level"},
		{"leaf flag lost", notRightmostLeaf, func(p page.Page) { setFlags(p, btFlags(p)&^flagLeaf) }, "leaf flag"},
		{"downlink to the wrong child", internal, func(p page.Page) {
			t := page.Item(p, 3)
			binary.LittleEndian.PutUint32(t, downlink(t)+1)
		}, ""},
		{"separator changed", internal, func(p page.Page) {
			t := page.Item(p, 3)
			t[len(t)-1]++
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 64, Options{pageBytes: 500})
			rng := rand.New(rand.NewPCG(1, 2))
			for range 1500 {
				if err := e.ix.Insert(randEntry(rng, 1000, 20)); err != nil {
					t.Fatal(err)
				}
			}
			mustCheck(t, e.ix)
			blk := findPage(t, e, tc.pick)
			corruptBlock(t, e, blk, tc.hurt)
			_, err := e.ix.Check()
			if pgerr.CodeOf(err) != pgerr.IndexCorrupted {
				t.Fatalf("Check after damage to block %d: %v, want XX002", blk, err)
			}
			if !strings.Contains(err.Error(), "block ") || !strings.Contains(err.Error(), tc.error) {
				t.Fatalf("Check: %v; want a block named and %q", err, tc.error)
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("block %d", blk)) {
				t.Fatalf("Check: %v; want block %d named", err, blk)
			}
		})
	}
}

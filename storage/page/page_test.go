package page

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"minipg/pgerr"
)

func newPage(t testing.TB) Page {
	t.Helper()
	p := make(Page, BlockSize)
	Init(p, 0)
	return p
}

func item(n int, fill byte) []byte { return bytes.Repeat([]byte{fill}, n) }

func TestInitHeader(t *testing.T) {
	p := make(Page, BlockSize)
	if !IsNew(p) || Verify(p) != nil {
		t.Fatal("zero page must be new and verify")
	}
	Init(p, 0)
	// Bytes as pageinspect's get_raw_page shows a fresh heap page.
	want := []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 24, 0, 0, 0x20, 0, 0x20, 4, 0x20, 0, 0, 0, 0}
	if !bytes.Equal(p[:HeaderSize], want) {
		t.Fatalf("header % x, want % x", p[:HeaderSize], want)
	}
	if IsNew(p) || Lower(p) != 24 || Upper(p) != 8192 || Special(p) != 8192 || MaxOffset(p) != 0 {
		t.Fatal("bad init")
	}
	if FreeSpace(p) != 8164 || ExactFreeSpace(p) != 8168 || HeapFreeSpace(p) != 8164 {
		t.Fatalf("free %d %d %d", FreeSpace(p), ExactFreeSpace(p), HeapFreeSpace(p))
	}
	Init(p, 13) // special space is MAXALIGNed
	if Special(p) != 8192-16 || Upper(p) != 8192-16 {
		t.Fatalf("special %d", Special(p))
	}
	SetLSN(p, 0x0000000100000028)
	if LSN(p) != 0x0000000100000028 || p[3] != 0 || p[0] != 1 || p[4] != 0x28 {
		t.Fatalf("lsn bytes % x", p[:8])
	}
	SetPruneXid(p, 77)
	if PruneXid(p) != 77 {
		t.Fatal("prune xid")
	}
}

func TestAddItemAppendAndLinePointerBytes(t *testing.T) {
	p := newPage(t)
	if off := AddItem(p, item(28, 1), 0, false, true); off != 1 {
		t.Fatalf("off %d", off)
	}
	if off := AddItem(p, item(31, 2), 0, false, true); off != 2 {
		t.Fatalf("off %d", off)
	}
	// lp 1: lp_off 8160, LP_NORMAL, lp_len 28 -> 0x0038 9fe0 little-endian.
	if got := p[24:28]; !bytes.Equal(got, []byte{0xe0, 0x9f, 0x38, 0x00}) {
		t.Fatalf("lp1 % x", got)
	}
	lpOff, flags, lpLen := ItemID(p, 2)
	if lpOff != 8160-32 || flags != LPNormal || lpLen != 31 {
		t.Fatalf("lp2 %d %d %d", lpOff, flags, lpLen)
	}
	if !bytes.Equal(Item(p, 2), item(31, 2)) || Lower(p) != 32 || Upper(p) != 8128 {
		t.Fatal("item 2")
	}
	if Item(p, 3) != nil || Item(p, 0) != nil {
		t.Fatal("item beyond max offset")
	}
}

func TestAddItemHeapLimitAndNoRoom(t *testing.T) {
	p := newPage(t)
	n := 0
	for AddItem(p, item(1, 9), 0, false, true) != 0 {
		n++
	}
	// 8-byte items: the MaxHeapTuplesPerPage limit binds first.
	if n != MaxHeapTuplesPerPage || HeapFreeSpace(p) != 0 || FreeSpace(p) == 0 {
		t.Fatalf("n %d heapfree %d free %d", n, HeapFreeSpace(p), FreeSpace(p))
	}
	// Non-heap pages are limited by space only.
	for AddItem(p, item(1, 9), 0, false, false) != 0 {
		n++
	}
	if n != (BlockSize-HeaderSize)/12 || ExactFreeSpace(p) >= 12 {
		t.Fatalf("n %d", n)
	}
	// A big item that does not fit.
	q := newPage(t)
	if AddItem(q, item(8161, 1), 0, false, true) != 0 {
		t.Fatal("8161 bytes (8168 aligned) must not fit")
	}
	if AddItem(q, item(8160, 1), 0, false, true) != 1 || FreeSpace(q) != 0 {
		t.Fatal("8160 bytes must fit exactly")
	}
}

func TestAddItemReusesFreeLines(t *testing.T) {
	p := newPage(t)
	for i := 1; i <= 4; i++ {
		AddItem(p, item(16, byte(i)), 0, false, true)
	}
	SetItemID(p, 2, 0, LPUnused, 0)
	SetItemID(p, 3, 0, LPDead, 0)
	// Without the hint, a new line pointer is appended.
	if off := AddItem(p, item(8, 5), 0, false, true); off != 5 {
		t.Fatalf("off %d", off)
	}
	SetFlags(p, PDHasFreeLines)
	lower := Lower(p)
	if off := AddItem(p, item(8, 6), 0, false, true); off != 2 || Lower(p) != lower {
		t.Fatalf("off %d lower %d", off, Lower(p))
	}
	// Hint still set (PostgreSQL clears it only when it finds it wrong).
	if Flags(p)&PDHasFreeLines == 0 {
		t.Fatal("hint cleared early")
	}
	if off := AddItem(p, item(8, 7), 0, false, true); off != 6 || Flags(p)&PDHasFreeLines != 0 {
		t.Fatalf("off %d flags %d", off, Flags(p))
	}
}

func TestAddItemExplicitOffset(t *testing.T) {
	p := newPage(t)
	for i := 1; i <= 3; i++ {
		AddItem(p, item(8, byte(i)), 0, false, false)
	}
	if AddItem(p, item(8, 9), 5, false, false) != 0 {
		t.Fatal("offset beyond limit accepted")
	}
	if AddItem(p, item(8, 9), 2, true, false) != 0 {
		t.Fatal("overwrote a used line pointer")
	}
	if off := AddItem(p, item(8, 4), 2, false, false); off != 2 || MaxOffset(p) != 4 {
		t.Fatal("shuffle insert")
	}
	for off, want := range []byte{1, 4, 2, 3} {
		if Item(p, uint16(off+1))[0] != want {
			t.Fatalf("order after shuffle at %d", off+1)
		}
	}
	SetItemID(p, 3, 0, LPUnused, 0)
	if off := AddItem(p, item(8, 7), 3, true, false); off != 3 || MaxOffset(p) != 4 || Item(p, 3)[0] != 7 {
		t.Fatal("overwrite unused")
	}
	if off := AddItem(p, item(8, 8), 5, true, false); off != 5 {
		t.Fatal("overwrite at limit appends")
	}
}

func TestHeapFreeSpaceMaxTuplesRule(t *testing.T) {
	p := newPage(t)
	for i := 0; i < MaxHeapTuplesPerPage; i++ {
		AddItem(p, item(1, 1), 0, false, true)
	}
	if HeapFreeSpace(p) != 0 || FreeSpace(p) <= 0 {
		t.Fatal("full line pointer array must leave no heap free space")
	}
	SetItemID(p, 10, 0, LPUnused, 0)
	if HeapFreeSpace(p) != 0 {
		t.Fatal("without the hint an unused slot is not believed")
	}
	SetFlags(p, PDHasFreeLines)
	if HeapFreeSpace(p) != FreeSpace(p) {
		t.Fatal("hint + unused slot: space available")
	}
	SetItemID(p, 10, 0, LPDead, 0)
	if HeapFreeSpace(p) != 0 {
		t.Fatal("wrong hint must be detected")
	}
}

func TestRepairFragmentation(t *testing.T) {
	p := newPage(t)
	for i := 1; i <= 6; i++ {
		AddItem(p, item(10*i, byte(i)), 0, false, true)
	}
	SetItemID(p, 2, 0, LPUnused, 0) // pruned heap-only tuple
	SetItemID(p, 3, 5, LPRedirect, 0)
	lpOff, _, _ := ItemID(p, 4)
	SetItemID(p, 4, lpOff, LPDead, 0) // dead, storage dropped
	SetItemID(p, 6, 0, LPUnused, 0)   // trailing unused: cut off
	RepairFragmentation(p)
	if MaxOffset(p) != 5 || Flags(p)&PDHasFreeLines == 0 {
		t.Fatalf("maxoff %d flags %d", MaxOffset(p), Flags(p))
	}
	// Remaining storage packed from the end in line pointer order: 1, 5.
	if o, _, _ := ItemID(p, 1); o != 8192-16 {
		t.Fatalf("item 1 at %d", o)
	}
	if o, _, l := ItemID(p, 5); o != 8192-16-56 || l != 50 || !bytes.Equal(Item(p, 5), item(50, 5)) {
		t.Fatalf("item 5 at %d", o)
	}
	if Upper(p) != 8192-16-56 {
		t.Fatalf("upper %d", Upper(p))
	}
	if o, f, _ := ItemID(p, 3); o != 5 || f != LPRedirect {
		t.Fatal("redirect changed")
	}

	// Out-of-order storage is repacked in line pointer order too.
	q := newPage(t)
	AddItem(q, item(8, 1), 0, false, true)
	AddItem(q, item(8, 2), 0, false, true)
	SetItemID(q, 1, 0, LPUnused, 0)
	SetFlags(q, PDHasFreeLines)
	AddItem(q, item(8, 3), 0, false, true) // reuses lp 1 below lp 2's tuple
	SetItemID(q, 2, 0, LPUnused, 0)
	RepairFragmentation(q)
	if o, _, _ := ItemID(q, 1); o != 8184 || MaxOffset(q) != 1 || Flags(q)&PDHasFreeLines != 0 || Item(q, 1)[0] != 3 {
		t.Fatalf("off %d maxoff %d", o, MaxOffset(q))
	}

	// A line pointer outside tuple space is corruption, and the page is untouched.
	r := newPage(t)
	AddItem(r, item(8, 1), 0, false, true)
	SetItemID(r, 1, 100, LPNormal, 8)
	before := append(Page(nil), r...)
	if err := RepairFragmentationChecked(r); !pgerr.IsCorruption(err) || !bytes.Equal(before, r) {
		t.Fatalf("err %v", err)
	}
}

func TestTruncateLinePointerArray(t *testing.T) {
	p := newPage(t)
	for i := 0; i < 5; i++ {
		AddItem(p, item(8, 1), 0, false, true)
	}
	SetItemID(p, 2, 0, LPUnused, 0)
	SetItemID(p, 4, 0, LPUnused, 0)
	SetItemID(p, 5, 0, LPUnused, 0)
	TruncateLinePointerArray(p)
	if MaxOffset(p) != 3 || Flags(p)&PDHasFreeLines == 0 {
		t.Fatalf("maxoff %d", MaxOffset(p))
	}
	for off := uint16(1); off <= 3; off++ {
		SetItemID(p, off, 0, LPUnused, 0)
	}
	TruncateLinePointerArray(p) // never down to zero line pointers
	if MaxOffset(p) != 1 || Flags(p)&PDHasFreeLines == 0 {
		t.Fatalf("maxoff %d", MaxOffset(p))
	}
}

func TestVerify(t *testing.T) {
	p := newPage(t)
	AddItem(p, item(40, 1), 0, false, true)
	if err := Verify(p); err != nil {
		t.Fatal(err)
	}
	bad := []func(Page){
		func(p Page) { SetFlags(p, 8) },
		func(p Page) { setLower(p, 8000); setUpper(p, 7000) },
		func(p Page) { put16(p, offSpecial, 8000+4) },
		func(p Page) { put16(p, offSpecial, 9000) },
		func(p Page) { setLower(p, 10) },
		func(p Page) { put16(p, offSizeVersion, 8192|3) },
		func(p Page) { setUpper(p, 0) }, // looks new but is not zero
	}
	for i, f := range bad {
		q := append(Page(nil), p...)
		f(q)
		if err := Verify(q); !pgerr.IsCorruption(err) {
			t.Errorf("case %d: err %v", i, err)
		}
	}
	if err := Verify(p[:100]); !pgerr.IsCorruption(err) {
		t.Error("short page accepted")
	}
}

func TestTIDText(t *testing.T) {
	// Expected values from PostgreSQL 15: SELECT '<input>'::tid.
	for _, c := range []struct {
		in, out string
	}{
		{"(1,2)", "(1,2)"}, {"(-1,2)", "(4294967295,2)"}, {"x(1,2)", "(1,2)"}, {"(1,2)x", "(1,2)"},
		{"(+1,+2)", "(1,2)"}, {"(,2)", "(0,2)"}, {"(1,)", "(1,0)"}, {"( 7,\t8)", "(7,8)"},
		{"(4294967295,65535)", "(4294967295,65535)"}, {"(-2147483648,0)", "(2147483648,0)"},
		{" ( 3 , 4 ) ", ""}, {"(1,65536)", ""}, {"(4294967296,1)", ""}, {"(1,-1)", ""},
		{"(1,2,3)", ""}, {"(1 ,2)", ""}, {"", ""}, {"(1,2", ""}, {"(-2147483649,0)", ""},
		{"(99999999999999999999999,1)", ""},
	} {
		tid, err := ParseTID(c.in)
		if c.out == "" {
			if pgerr.CodeOf(err) != pgerr.InvalidTextRepresentation {
				t.Errorf("%q: got %v, %v; want 22P02", c.in, tid, err)
			}
			continue
		}
		if err != nil || tid.String() != c.out {
			t.Errorf("%q: got %v, %v; want %s", c.in, tid, err, c.out)
		}
	}
}

// FuzzPage runs every page function on arbitrary bytes: none may panic.
func FuzzPage(f *testing.F) {
	p := newPage(f)
	AddItem(p, item(40, 1), 0, false, true)
	AddItem(p, item(20, 2), 0, false, true)
	f.Add([]byte(p[:64]), uint16(1))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0xff, 0x1f, 0, 0x1f, 0, 0x20}, uint16(3))
	f.Fuzz(func(t *testing.T, head []byte, off uint16) {
		q := append(Page(nil), p...)
		copy(q, head)
		_ = Verify(q)
		for o := uint16(0); o <= MaxOffset(q)+1; o++ {
			ItemID(q, o)
			Item(q, o)
		}
		FreeSpace(q)
		HeapFreeSpace(q)
		AddItem(q, item(int(off%200), 3), off%8, off&1 == 0, off&2 == 0)
		_ = RepairFragmentationChecked(q)
		TruncateLinePointerArray(q)
		_, _ = ParseTID(string(head))
	})
}

// TestRepairFragmentationPostgreSQL15 replays a prune measured on
// PostgreSQL 15 with pageinspect:
//
//	CREATE TABLE tprune(a int, b text) WITH (fillfactor=10, autovacuum_enabled=off);
//	INSERT INTO tprune VALUES (1, repeat('x',300));
//	BEGIN; UPDATE tprune SET a=2; UPDATE tprune SET a=3; DELETE FROM tprune; COMMIT;
//	-- lp 1..3: lp_off 7856, 7520, 7184, lp_len 332; pd_lower 36, pd_upper 7184
//	SELECT count(*) FROM tprune;  -- prunes: lp 1 LP_DEAD, lp 2 and 3 removed
//	-- pd_lower 28, pd_upper 8192, pd_flags 0; one line pointer (lp_flags 3, lp_len 0)
func TestRepairFragmentationPostgreSQL15(t *testing.T) {
	p := newPage(t)
	for i := 0; i < 3; i++ {
		AddItem(p, item(332, byte(i)), 0, false, true)
	}
	if o, _, _ := ItemID(p, 3); o != 7184 || Lower(p) != 36 {
		t.Fatalf("before: lp 3 at %d, lower %d", o, Lower(p))
	}
	SetItemID(p, 1, 0, LPDead, 0) // heap_page_prune's decisions
	SetItemID(p, 2, 0, LPUnused, 0)
	SetItemID(p, 3, 0, LPUnused, 0)
	RepairFragmentation(p)
	if Lower(p) != 28 || Upper(p) != 8192 || Flags(p) != 0 {
		t.Fatalf("after: lower %d upper %d flags %d", Lower(p), Upper(p), Flags(p))
	}
	if o, f, l := ItemID(p, 1); o != 0 || f != LPDead || l != 0 {
		t.Fatalf("lp 1: %d %d %d", o, f, l)
	}
}

// IndexTupleDelete removes one item in place: the others keep their order
// and bytes, the page stays compact (pd_upper moves up by the item's
// MAXALIGNed length, pd_lower down by a line pointer), and a bad offset
// changes nothing.
func TestIndexTupleDelete(t *testing.T) {
	p := make(Page, BlockSize)
	Init(p, 16) // an index page's special space
	var want [][]byte
	for i := range 9 {
		it := item(13+5*i, byte('a'+i)) // unaligned lengths
		if AddItem(p, it, InvalidOffset, false, false) == InvalidOffset {
			t.Fatal("add")
		}
		want = append(want, it)
	}
	// Out of order on the page too: an item inserted at offset 2.
	mid := item(40, 'z')
	if AddItem(p, mid, 2, false, false) != 2 {
		t.Fatal("add at 2")
	}
	want = append(want[:1], append([][]byte{mid}, want[1:]...)...)
	check := func(step string) {
		t.Helper()
		if err := Verify(p); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if int(MaxOffset(p)) != len(want) {
			t.Fatalf("%s: %d items, want %d", step, MaxOffset(p), len(want))
		}
		used := 0
		for i, w := range want {
			if got := Item(p, uint16(i+1)); !bytes.Equal(got, w) {
				t.Fatalf("%s: item %d is %q, want %q", step, i+1, got, w)
			}
			used += MaxAlignLen(len(w))
		}
		if hole := p[Lower(p):Upper(p)]; !bytes.Equal(hole, make([]byte, len(hole))) {
			t.Fatalf("%s: the hole between pd_lower and pd_upper is not zeroed", step)
		}
		if Upper(p) != Special(p)-used || Lower(p) != HeaderSize+len(want)*ItemIDSize {
			t.Fatalf("%s: upper %d lower %d, want %d and %d (compact)", step, Upper(p), Lower(p), Special(p)-used, HeaderSize+len(want)*ItemIDSize)
		}
	}
	check("before")
	for _, off := range []uint16{5, 1, 8, 2} { // 8: the last, after two deletes
		free := ExactFreeSpace(p)
		size := MaxAlignLen(len(want[off-1]))
		if !IndexTupleDelete(p, off) {
			t.Fatalf("delete %d refused", off)
		}
		want = append(want[:off-1], want[off:]...)
		check(fmt.Sprintf("after deleting %d", off))
		if got := ExactFreeSpace(p); got != free+size+ItemIDSize {
			t.Fatalf("free space %d after deleting %d, want %d", got, off, free+size+ItemIDSize)
		}
	}
	before := bytes.Clone(p)
	for _, off := range []uint16{0, uint16(len(want) + 1)} {
		if IndexTupleDelete(p, off) || !bytes.Equal(p, before) {
			t.Fatalf("delete of offset %d accepted or changed the page", off)
		}
	}
	SetItemID(p, 1, 100, LPNormal, 8) // storage below pd_upper: damaged
	before = bytes.Clone(p)
	if IndexTupleDelete(p, 1) || !bytes.Equal(p, before) {
		t.Fatal("delete of a damaged line pointer accepted or changed the page")
	}
}

// RepairFragmentation packs the tuples left in line pointer order from
// pd_special, whether their offsets descended in that order (PostgreSQL's
// presorted path, in place: a page whose updates put each new version
// below the old ones) or not (through a copy), keeping every tuple's bytes.
func TestRepairFragmentationPacks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for round := range 200 {
		p := newPage(t)
		presorted := round%2 == 0
		var items [][]byte
		for i := 0; ; i++ {
			n := 100 // one length, so that two tuples can swap places
			if presorted {
				n = 20 + rng.IntN(300)
			}
			it := item(n, byte(i))
			if AddItem(p, it, InvalidOffset, false, true) == InvalidOffset {
				break
			}
			items = append(items, it)
		}
		if !presorted {
			// Swap two tuples' storage: offsets no longer descend.
			a := uint16(1 + rng.IntN(len(items)-1))
			b := a + 1
			ao, af, al := ItemID(p, a)
			bo, bf, bl := ItemID(p, b)
			SetItemID(p, a, bo, af, al)
			SetItemID(p, b, ao, bf, bl)
			items[a-1], items[b-1] = items[b-1], items[a-1]
		}
		keep := make([]bool, len(items))
		for i := range items {
			switch keep[i] = rng.IntN(3) > 0; {
			case keep[i]:
			case rng.IntN(2) == 0:
				SetItemID(p, uint16(i+1), 0, LPDead, 0)
			default:
				SetItemID(p, uint16(i+1), 0, LPUnused, 0)
			}
		}
		if err := RepairFragmentationChecked(p); err != nil {
			t.Fatal(err)
		}
		dst := Special(p)
		for i, it := range items {
			if !keep[i] {
				continue
			}
			dst -= MaxAlignLen(len(it))
			if o, _, _ := ItemID(p, uint16(i+1)); o != dst || !bytes.Equal(Item(p, uint16(i+1)), it) {
				t.Fatalf("round %d (presorted %v): item %d at %d, want %d with its bytes", round, presorted, i+1, o, dst)
			}
		}
		if Upper(p) != dst {
			t.Fatalf("round %d: pd_upper %d, want %d", round, Upper(p), dst)
		}
	}
}

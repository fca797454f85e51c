package heap

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"minipg/reloptions"
	"minipg/storage/buffer"
	"minipg/storage/fsm"
	"minipg/storage/page"
)

// With fsm_keep_runs on, locality starts each transaction's rows on a page
// where as many rows as its recent transactions inserted fit: one session
// inserting orders of 8 rows each puts (after the first few, which teach
// the average) no order on two pages, where without it about one in
// six straddles a page boundary. The pages it leaves keep what they
// have left (for updates of their own rows), and the table grows by at
// most one order's room per page.
func TestKeepRunsTogether(t *testing.T) {
	if testPolicyName != "locality" {
		t.Skip("fsm_keep_runs is a locality parameter")
	}
	const orders, lines = 300, 8
	payload := strings.Repeat("l", 150)
	// place inserts the orders and returns how many straddle a page
	// boundary and each page's free space at the end.
	place := func(keep string) (straddling int, free []int) {
		pol, err := fsm.NewPolicy(reloptions.Layers(map[string]string{"fsm_policy": "locality", "fsm_keep_runs": keep}))
		if err != nil {
			t.Fatal(err)
		}
		e := newEnv(t, 256, Options{Policy: pol})
		var st InsertState
		for o := range orders {
			xid := e.o.Begin()
			first := uint32(0)
			for l := range lines {
				tid, err := e.rel.Insert(mkRow(t, int32(o*lines+l), payload), xid, 0, &st)
				if err != nil {
					t.Fatal(err)
				}
				if l == 0 {
					first = tid.Block
				} else if tid.Block != first && o >= 4 {
					straddling++
					break
				}
			}
			e.o.Commit(xid)
		}
		n, err := e.rel.NBlocks()
		if err != nil {
			t.Fatal(err)
		}
		mustCheck(t, e.rel)
		for blk := range n {
			b, err := e.pool.ReadBuffer(testRel, buffer.MainFork, blk)
			if err != nil {
				t.Fatal(err)
			}
			b.RLock()
			free = append(free, page.HeapFreeSpace(b.Page()))
			b.RUnlock()
			b.Release()
		}
		return straddling, free
	}
	offStraddle, _ := place("off")
	onStraddle, onFree := place("on")
	if offStraddle < orders/20 {
		t.Fatalf("without fsm_keep_runs only %d of %d orders straddle a page boundary: the test shows nothing", offStraddle, orders)
	}
	if onStraddle != 0 {
		t.Fatalf("with fsm_keep_runs %d orders straddle a page boundary (%d without)", onStraddle, offStraddle)
	}
	// A page left behind keeps less than one order's room.
	order := lines * (page.MaxAlignLen(len(mkRow(t, 0, payload))) + page.ItemIDSize)
	for blk, free := range onFree[:len(onFree)-1] {
		if free >= order {
			t.Fatalf("block %d of %d left with %d bytes free, room for an order of %d", blk, len(onFree), free, order)
		}
	}
}

// Two sessions load two tables at once the way a TPC-C loader does, one
// group of rows after another in each table (a district's customers, then
// their history rows), their inserts interleaved row by row. Locality
// gives each session's burst into a table a run of its own, sized by the
// session's last burst there (fsm.Request.NewBatch): every group after a
// session's first sits on consecutive blocks, where runs of doubling size
// cut groups and let the other session's pages in between.
func TestBurstsKeepTheirRuns(t *testing.T) {
	if testPolicyName != "locality" {
		t.Skip("runs are locality's")
	}
	e := newEnv(t, 512, Options{})
	other := otherRelation(t, e)
	const groups, perOther = 5, 40
	perGroup := 7 * (BatchPages + 6) // 1,000-byte rows, 7 a page
	payload := strings.Repeat("c", 1000)
	type session struct {
		st  InsertState
		xid uint32
	}
	ss := []*session{{xid: e.o.Begin()}, {xid: e.o.Begin()}}
	for i, s := range ss {
		s.st.SetOwner(int32(i + 1))
	}
	// blocks[session][group] are the blocks the group's rows went to.
	blocks := make([][]map[uint32]bool, len(ss))
	for g := range groups {
		for i := range ss {
			blocks[i] = append(blocks[i], map[uint32]bool{})
		}
		for n := range perGroup {
			for i, s := range ss {
				tid, err := e.rel.Insert(mkRow(t, int32(g*perGroup+n), payload), s.xid, 0, &s.st)
				if err != nil {
					t.Fatal(err)
				}
				blocks[i][g][tid.Block] = true
			}
		}
		for n := range perOther {
			for _, s := range ss {
				if _, err := other.Insert(mkRow(t, int32(n), payload), s.xid, 0, &s.st); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, s := range ss {
		e.o.Commit(s.xid)
	}
	for i := range ss {
		for g := 1; g < groups; g++ {
			lo, hi := uint32(1<<32-1), uint32(0)
			for b := range blocks[i][g] {
				lo, hi = min(lo, b), max(hi, b)
			}
			if span := int(hi - lo + 1); span != len(blocks[i][g]) {
				t.Errorf("session %d, group %d: %d blocks spread over %d (%d..%d)", i+1, g+1, len(blocks[i][g]), span, lo, hi)
			}
		}
	}
	mustCheck(t, e.rel)
	mustCheck(t, other)
}

// A session's burst into a relation (its consecutive inserts there) that
// moved through BulkPages pages or more is the size expected of its next
// burst there, which starts when it comes back from another relation or
// in its next transaction; in a transaction that has loaded in bulk it
// starts on a run of its own (a new batch) when it is of BatchPages or
// more. A smaller burst forgets it.
func TestBurstSizes(t *testing.T) {
	e := newEnv(t, 256, Options{})
	other := otherRelation(t, e)
	payload := strings.Repeat("b", 1000) // 7 rows a page
	var st InsertState
	xid := e.o.Begin()
	insert := func(r *Relation, n int) {
		t.Helper()
		for i := range n {
			if _, err := r.Insert(mkRow(t, int32(i), payload), xid, 0, &st); err != nil {
				t.Fatal(err)
			}
		}
	}
	note := func() (newBatch bool, left int) {
		n := st.noteInsert(e.rel, 0)
		return n.newBatch, n.pagesLeft
	}
	insert(e.rel, 7*(BatchPages+3))
	burst := int(st.find(e.rel).burst)
	if burst < BatchPages {
		t.Fatalf("burst of %d pages after %d pages' worth of rows", burst, BatchPages+3)
	}
	if nb, left := note(); nb || left != 0 {
		t.Fatalf("within the burst: a new batch (%v), or %d pages left", nb, left)
	}
	insert(other, 1)
	if nb, left := note(); !nb || left != burst {
		t.Fatalf("back from another relation: pages left %d (new batch %v), want a new batch of %d", left, nb, burst)
	}
	insert(e.rel, 7*(BatchPages+3))
	st.ResetMoves() // the transaction ends
	e.o.Commit(xid)
	xid = e.o.Begin()
	// The next transaction has loaded nothing yet: the burst's size is
	// known, but it is no batch of a loader (it may be a few rows).
	if nb, left := note(); nb || left < BatchPages {
		t.Fatalf("next transaction: pages left %d (new batch %v), want them and no new batch", left, nb)
	}
	insert(e.rel, 7) // a small burst
	insert(other, 1)
	if nb, left := note(); nb || left != 0 {
		t.Fatalf("after a burst of one page: a new batch (%v), or %d pages left", nb, left)
	}
	insert(e.rel, 7*(BulkPages+3)) // a bulk burst, smaller than a batch
	insert(other, 1)
	if nb, left := note(); nb || left < BulkPages {
		t.Fatalf("after a burst of %d pages: pages left %d (new batch %v), want %d and no new batch", BulkPages+3, left, nb, BulkPages+3)
	}
	e.o.Commit(xid)
}

// A transaction that began a batch gives its run back at its end however
// few rows it inserted (BulkRelations): a loader whose transaction loaded
// one table in bulk and then inserts one row into a table whose last bulk
// burst was large must not keep a batch's run reserved and empty.
func TestBatchOfOneRowIsReleased(t *testing.T) {
	e := newEnv(t, 256, Options{})
	other := otherRelation(t, e)
	payload := strings.Repeat("b", 1000) // 7 rows a page
	var st InsertState
	insert := func(r *Relation, xid uint32, n int) {
		t.Helper()
		for i := range n {
			if _, err := r.Insert(mkRow(t, int32(i), payload), xid, 0, &st); err != nil {
				t.Fatal(err)
			}
		}
	}
	xid := e.o.Begin()
	insert(e.rel, xid, 7*(BatchPages+3)) // the relation's last bulk burst
	st.ResetMoves()
	e.o.Commit(xid)
	xid = e.o.Begin()
	insert(other, xid, 7*(BulkPages+3)) // the transaction loads in bulk
	insert(e.rel, xid, 1)
	rels := st.BulkRelations(BulkPages)
	if !slices.Contains(rels, e.rel) {
		t.Fatalf("after one row that began a batch: bulk relations %v, want the relation among them", rels)
	}
	st.ResetMoves()
	e.o.Commit(xid)
	if rels := st.BulkRelations(BulkPages); len(rels) != 0 {
		t.Fatalf("after the transaction: %d bulk relations, want none", len(rels))
	}
}

// otherRelation creates and opens a second relation in e's pool, with the
// policy under test.
func otherRelation(t *testing.T, e *testEnv) *Relation {
	t.Helper()
	const otherRel buffer.RelFileNode = testRel + 1
	if err := e.pool.CreateRel(otherRel); err != nil {
		t.Fatal(err)
	}
	return Open(e.pool, otherRel, testDesc, Options{Policy: testPolicy()})
}

// Two sessions load one table at once, each in one transaction, in groups
// of 3 rows that share their leading column (a TPC-C loader's orders
// and their lines: the session's first burst, of unknown size, whose runs
// grow as it fills them). Told which rows share what with the row before
// (RowShares), locality starts a group on the session's next run when the
// last page of its run cannot hold the largest group so far, and no group
// straddles two runs; without, some do.
func TestGroupsStayOffRunSeams(t *testing.T) {
	if testPolicyName != "locality" {
		t.Skip("runs are locality's")
	}
	payload := strings.Repeat("g", 180) // 36 rows a page
	// load returns how many groups sit on non-adjacent blocks, and the
	// relation's blocks.
	load := func(tell bool) (split int, blocks uint32) {
		e := newEnv(t, 512, Options{})
		ss := newGroupSessions(e, 2)
		const groups = 900
		for range groups * 6 {
			for _, s := range ss {
				s.insert(t, e.rel, tell, payload, 0, 1) // a new group: a different leading column
				if s.endRow(3) && s.split() {
					split++
				}
			}
		}
		for _, s := range ss {
			e.o.Commit(s.xid)
		}
		mustCheck(t, e.rel)
		n, err := e.rel.NBlocks()
		if err != nil {
			t.Fatal(err)
		}
		return split, n
	}
	without, blocksWithout := load(false)
	with, blocksWith := load(true)
	if without == 0 {
		t.Fatalf("without RowShares no group straddles two runs: the test shows nothing")
	}
	if with != 0 {
		t.Fatalf("%d groups on non-adjacent blocks (%d without RowShares)", with, without)
	}
	// The room left at each run's end is less than a group's.
	if blocksWith > blocksWithout+blocksWithout/50 {
		t.Fatalf("%d blocks, %d without RowShares", blocksWith, blocksWithout)
	}
	t.Logf("groups split: %d without, %d with; blocks %d / %d", without, with, blocksWithout, blocksWith)
}

// groupBytes finds a burst's groups from what RowShares says of each row:
// a row sharing fewer leading columns than the most the burst has seen
// starts a group and is told the largest group ended so far; a burst whose
// rows all share as many has none, nor one whose groups are too large,
// and a new burst starts over.
func TestGroupBytes(t *testing.T) {
	e := newEnv(t, 64, Options{})
	other := otherRelation(t, e)
	var st InsertState
	xid := e.o.Begin()
	if _, err := e.rel.Insert(mkRow(t, 0, "x"), xid, 0, &st); err != nil {
		t.Fatal(err)
	}
	const need = 100
	row := need + page.ItemIDSize
	// feed gives groupBytes rows sharing shares[i] leading columns with the
	// row before, and returns what it says of each.
	feed := func(shares ...int) []int {
		var got []int
		for _, n := range shares {
			st.RowShares(n)
			got = append(got, st.noteInsert(e.rel, need).groupBytes)
		}
		return got
	}
	// Orders of 3, 2 and 4 lines: 3 columns shared within, 2 between.
	// The burst has ended fewer than fewGroups groups: twice the largest.
	got := feed(-1, 3, 3, 2, 3, 2, 3, 3, 3, 2)
	want := []int{0, 0, 0, 2 * 3 * row, 0, 2 * 3 * row, 0, 0, 0, 2 * 4 * row}
	if !slices.Equal(got, want) {
		t.Fatalf("orders: %v, want %v", got, want)
	}
	// Past fewGroups groups, the largest itself.
	for range fewGroups {
		feed(3, 2)
	}
	if got := feed(3, 3, 2); !slices.Equal(got, []int{0, 0, 4 * row}) {
		t.Fatalf("orders after %d groups: %v, want [0 0 %d]", fewGroups+3, got, 4*row)
	}
	// Not told: no group is started or reported.
	if got := feed(-1, -1); !slices.Equal(got, []int{0, 0}) {
		t.Fatalf("rows not told: %v", got)
	}
	// A burst into another relation ends this one: the next starts over.
	if _, err := other.Insert(mkRow(t, 0, "x"), xid, 0, &st); err != nil {
		t.Fatal(err)
	}
	st.noteInsert(e.rel, 0)
	if got := feed(-1, 3, 2); !slices.Equal(got, []int{0, 0, 2 * 2 * row}) {
		t.Fatalf("the next burst: %v", got)
	}
	st.noteInsert(other, 0)
	st.noteInsert(e.rel, 0)
	// Customers: every row shares warehouse and district, no more.
	if got := feed(-1, 2, 2, 2, 2); !slices.Equal(got, []int{0, 0, 0, 0, 0}) {
		t.Fatalf("customers: %v", got)
	}
	st.noteInsert(other, 0)
	st.noteInsert(e.rel, 0)
	// Groups of more than maxGroupBytes are not reported.
	big := make([]int, 0, 64)
	big = append(big, -1)
	for range maxGroupBytes/row + 1 {
		big = append(big, 1)
	}
	big = append(big, 0, 1, 0)
	for _, b := range feed(big...) {
		if b != 0 {
			t.Fatalf("a group of %d bytes reported: %v", (maxGroupBytes/row+2)*row, b)
		}
	}
	e.o.Commit(xid)
}

// A lone session loading groups of rows gets one page at a time, the next
// one adjacent: no group start leaves a page's tail for the next page, and
// the table is no larger than when the rows are not told apart.
func TestLoneSessionGroupsLeaveNoTails(t *testing.T) {
	payload := strings.Repeat("g", 180)
	load := func(tell bool) uint32 {
		e := newEnv(t, 512, Options{})
		var st InsertState
		xid := e.o.Begin()
		for g := range 3000 {
			for row := range 3 + (g*7)%7 {
				switch {
				case !tell:
					st.RowShares(-1)
				case row == 0:
					st.RowShares(0)
				default:
					st.RowShares(1)
				}
				if _, err := e.rel.Insert(mkRow(t, int32(g), payload), xid, 0, &st); err != nil {
					t.Fatal(err)
				}
			}
		}
		e.o.Commit(xid)
		mustCheck(t, e.rel)
		n, err := e.rel.NBlocks()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if with, without := load(true), load(false); with != without {
		t.Fatalf("%d blocks with RowShares, %d without", with, without)
	}
}

// Two sessions load a table at once the way a TPC-C loader writes order
// lines: bursts of about 70 pages (a district's), each of groups of 3 to 9
// rows (an order's lines), a burst into another table between two, in one
// transaction each. A batch whose rows are told apart into groups
// (RowShares) goes on in the rest of the session's run, where the margin
// of a batch run and the rest of a doubling run would be left empty, and
// still keeps every group on adjacent blocks; without, each batch starts
// a run of its own and leaves the rest of the last one empty.
func TestGroupedBatchesFillTheirRuns(t *testing.T) {
	if testPolicyName != "locality" {
		t.Skip("runs are locality's")
	}
	payload := strings.Repeat("g", 180) // 36 rows a page
	// load returns how many groups sit on non-adjacent blocks, how many of
	// the relation's blocks hold no row, and how many blocks it has.
	load := func(tell bool) (split, empty int, blocks uint32) {
		e := newEnv(t, 512, Options{})
		lastLo := uint32(1<<32 - 1) // the first block of the last batches
		other := otherRelation(t, e)
		ss := newGroupSessions(e, 2)
		for burst := range 5 {
			groups := 400 + (burst*13)%40 // 2,400 to 2,640 rows: 67 to 74 pages
			for _, s := range ss {
				s.g, s.row = 0, 0
			}
			for done := 0; done < len(ss); {
				done = 0
				for _, s := range ss {
					if s.g == groups {
						done++
						continue
					}
					blk := s.insert(t, e.rel, tell, payload, 1, 2) // a new order: the district only
					if burst == 4 {
						lastLo = min(lastLo, blk)
					}
					if s.endRow(3+(s.g*5)%7) && s.split() {
						split++
					}
				}
			}
			for range 40 {
				for _, s := range ss {
					s.st.RowShares(-1)
					if _, err := other.Insert(mkRow(t, 0, payload), s.xid, 0, &s.st); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		for _, s := range ss {
			e.o.Commit(s.xid)
			s.st.ResetMoves()
		}
		mustCheck(t, e.rel)
		n, err := e.rel.NBlocks()
		if err != nil {
			t.Fatal(err)
		}
		for blk := range n {
			b, err := e.pool.ReadBuffer(testRel, buffer.MainFork, blk)
			if err != nil {
				t.Fatal(err)
			}
			b.RLock()
			if p := b.Page(); page.IsNew(p) || page.MaxOffset(p) == 0 {
				empty++
				if tell && blk < lastLo {
					t.Errorf("block %d left empty before the last batches (from block %d)", blk, lastLo)
				}
			}
			b.RUnlock()
			b.Release()
		}
		return split, empty, n
	}
	splitWithout, emptyWithout, blocksWithout := load(false)
	split, empty, blocks := load(true)
	t.Logf("groups split %d / %d, empty blocks %d / %d, blocks %d / %d (told / not told)",
		split, splitWithout, empty, emptyWithout, blocks, blocksWithout)
	if split != 0 {
		t.Fatalf("%d groups on non-adjacent blocks", split)
	}
	if emptyWithout < 2*5 {
		t.Fatalf("batches not told their groups leave %d empty blocks: the test shows nothing", emptyWithout)
	}
	// What is left empty is the rest of each session's last run (load
	// checks): what its last batch was expected to fill and did not.
	if empty > emptyWithout/4 {
		t.Fatalf("%d blocks left empty (%d when the groups are not told)", empty, emptyWithout)
	}
	if blocks >= blocksWithout {
		t.Fatalf("%d blocks, %d when the groups are not told", blocks, blocksWithout)
	}
}

// A batch whose last one formed groups carries that one's largest group on
// its first row (fsm.Request.GroupBytes), and its next group starts are
// told no less, even before a group as large has ended in it.
func TestBatchCarriesItsGroups(t *testing.T) {
	e := newEnv(t, 256, Options{})
	other := otherRelation(t, e)
	payload := strings.Repeat("b", 100)
	row := page.MaxAlignLen(len(mkRow(t, 0, payload))) + page.ItemIDSize
	var st InsertState
	xid := e.o.Begin()
	// A bulk burst of orders of 2 lines, every tenth of 5.
	for g := 0; st.find(e.rel) == nil || st.find(e.rel).burst < BatchPages+2; g++ {
		lines := 2
		if g%10 == 9 {
			lines = 5
		}
		for l := range lines {
			st.RowShares(min(l, 1) + 1)
			if _, err := e.rel.Insert(mkRow(t, int32(g), payload), xid, 0, &st); err != nil {
				t.Fatal(err)
			}
		}
	}
	st.RowShares(-1)
	if _, err := other.Insert(mkRow(t, 0, payload), xid, 0, &st); err != nil {
		t.Fatal(err)
	}
	// The next batch: an order of 2 lines, then the start of the next.
	var got []int
	for _, shares := range []int{-1, 2, 1} {
		st.RowShares(shares)
		n := st.noteInsert(e.rel, row-page.ItemIDSize)
		if len(got) == 0 && !n.newBatch {
			t.Fatalf("the next burst is no new batch")
		}
		got = append(got, n.groupBytes)
	}
	if want := []int{5 * row, 0, 5 * row}; !slices.Equal(got, want) {
		t.Fatalf("group sizes told %v, want %v", got, want)
	}
	// A burst of rows not told apart carries none.
	st.RowShares(-1)
	if _, err := other.Insert(mkRow(t, 0, payload), xid, 0, &st); err != nil {
		t.Fatal(err)
	}
	for range 7 * (BatchPages + 2) * 10 {
		st.RowShares(-1)
		if _, err := e.rel.Insert(mkRow(t, 0, payload), xid, 0, &st); err != nil {
			t.Fatal(err)
		}
	}
	st.RowShares(-1)
	if _, err := other.Insert(mkRow(t, 0, payload), xid, 0, &st); err != nil {
		t.Fatal(err)
	}
	st.RowShares(-1)
	if n := st.noteInsert(e.rel, row-page.ItemIDSize); !n.newBatch || n.groupBytes != 0 {
		t.Fatalf("after a burst without groups: new batch %v, group %d; want a new batch and none", n.newBatch, n.groupBytes)
	}
	e.o.Commit(xid)
}

// groupSession is one of a test's loading sessions inserting groups of
// rows, group g's rows carrying g.
type groupSession struct {
	st     InsertState
	xid    uint32
	g, row int // group, row in it
	blks   map[uint32]bool
}

// newGroupSessions begins n sessions' transactions in e.
func newGroupSessions(e *testEnv, n int) []*groupSession {
	ss := make([]*groupSession, n)
	for i := range ss {
		ss[i] = &groupSession{xid: e.o.Begin()}
		ss[i].st.SetOwner(int32(i + 1))
	}
	return ss
}

// insert inserts the next row of s's group into rel and returns its block.
// With tell, RowShares says the row shares first leading columns with the
// row before when it starts the group, within more; else -1 (not known).
func (s *groupSession) insert(t *testing.T, rel *Relation, tell bool, payload string, first, within int) uint32 {
	t.Helper()
	switch {
	case !tell:
		s.st.RowShares(-1)
	case s.row == 0:
		s.st.RowShares(first)
	default:
		s.st.RowShares(within)
	}
	tid, err := rel.Insert(mkRow(t, int32(s.g), payload), s.xid, 0, &s.st)
	if err != nil {
		t.Fatal(err)
	}
	if s.row == 0 {
		s.blks = map[uint32]bool{}
	}
	s.blks[tid.Block] = true
	return tid.Block
}

// endRow counts the row insert added and reports whether it ended the
// group, of size rows; the next row starts the next group.
func (s *groupSession) endRow(size int) bool {
	if s.row++; s.row < size {
		return false
	}
	s.g, s.row = s.g+1, 0
	return true
}

// split reports whether the group just ended sits on blocks that are not
// adjacent.
func (s *groupSession) split() bool {
	lo, hi := uint32(1<<32-1), uint32(0)
	for b := range s.blks {
		lo, hi = min(lo, b), max(hi, b)
	}
	return int(hi-lo+1) != len(s.blks)
}

// A loading session's rows vary in size (a TPC-C customer's c_data is 300
// to 500 characters): the page it leaves because one row did not fit
// there may take a later, smaller one. Locality puts such a row on the
// page the session left last, its target staying where it is, so that no
// row the session placed on a page would have fitted the page before it.
// A bulk insert (COPY) and a transaction loading in bulk alike.
func TestLoaderFillsThePageItLeft(t *testing.T) {
	if testPolicyName != "locality" {
		t.Skip("the page left last is offered by locality")
	}
	for _, bulk := range []bool{true, false} {
		e := newEnv(t, 512, Options{})
		st := &InsertState{}
		if bulk {
			st = NewBulkInsertState()
		}
		xid := e.o.Begin()
		if !bulk {
			// A first burst of BulkPages into another relation makes
			// the transaction a loader's.
			other := otherRelation(t, e)
			for i := range BulkPages * 40 {
				if _, err := other.Insert(mkRow(t, int32(i), strings.Repeat("o", 180)), xid, 0, st); err != nil {
					t.Fatal(err)
				}
			}
		}
		rnd := rand.New(rand.NewPCG(1, 2))
		need := map[page.TID]int{}
		for i := range 2000 {
			row := mkRow(t, int32(i), strings.Repeat("c", 300+rnd.IntN(201)))
			tid, err := e.rel.Insert(row, xid, 0, st)
			if err != nil {
				t.Fatal(err)
			}
			need[tid] = page.MaxAlignLen(len(row))
		}
		e.o.Commit(xid)
		mustCheck(t, e.rel)
		n, err := e.rel.NBlocks()
		if err != nil {
			t.Fatal(err)
		}
		free := make([]int, n)
		for blk := range n {
			e.withPage(t, blk, func(p page.Page) { free[blk] = page.HeapFreeSpace(p) })
		}
		fitted := 0
		for tid, sz := range need {
			if b := tid.Block; b > 0 && b < n-1 && sz <= free[b-1] {
				fitted++
			}
		}
		if fitted > 0 {
			t.Errorf("bulk %v: %d rows on a page whose block before has room for them (%d blocks)", bulk, fitted, n)
		}
		s := e.rel.Policy().Stats().Own
		if s["back_hits"] == 0 {
			t.Errorf("bulk %v: no row went to the page left last: %v", bulk, s)
		}
		t.Logf("bulk %v: %d blocks, back tries %d, hits %d", bulk, n, s["back_tries"], s["back_hits"])
	}
}

package heap

import (
	"slices"
	"sync"
	"sync/atomic"

	"minipg/storage/buffer"
	"minipg/storage/fsm"
	"minipg/storage/page"
	"minipg/storage/wal"
)

// MaxHeapTupleSize is PostgreSQL's MaxHeapTupleSize: the largest tuple that
// fits on an empty page, BLCKSZ - MAXALIGN(SizeOfPageHeaderData +
// sizeof(ItemIdData)) = 8160.
const MaxHeapTupleSize = page.BlockSize - (page.HeaderSize+page.ItemIDSize+page.MaxAlign-1)&^(page.MaxAlign-1)

// DefaultFillFactor is HEAP_DEFAULT_FILLFACTOR.
const DefaultFillFactor = 100

// Options configure a Relation.
type Options struct {
	// FillFactor is the table's fillfactor, 10..100 (0 means 100). An insert
	// leaves BLCKSZ*(100-FillFactor)/100 bytes free on a page; an update may
	// use them for a new version of a row already on the page.
	FillFactor int
	// Policy places new tuples (fsm.NewClassic() when nil). A Policy keeps
	// per-relation counters, so each Relation needs its own instance.
	Policy fsm.Policy
	// WAL logs every page change (nil: changes are not logged, as in
	// storage-only tests). See wal.go.
	WAL *wal.Log
	// OnPrune, when not nil, is told how many dead row versions each
	// opportunistic prune removed without leaving an LP_DEAD line pointer
	// for VACUUM (PostgreSQL's pgstat_update_heap_dead_tuples with
	// ndeleted - nnewlpdead). It is called holding a buffer's content lock
	// and must not block.
	OnPrune func(removed int)
	// Pruner, when not nil, prunes the pages of the relation's updates
	// and deletes behind them (heap_prune_behind; prunebehind.go).
	Pruner *Pruner
	// Reclaim, when not nil, lets the Pruner make the LP_DEAD line
	// pointers its prunes leave unused at once (reclaimBehind; Reclaimer).
	Reclaim *Reclaimer
}

// Relation is one table's heap (main fork plus free space map), shared by
// all sessions. All methods are safe for concurrent use.
//
// Locking, in the order it may be taken: at most two buffer content locks,
// in increasing block order; the relation extension lock (inside
// Policy.Extend) only while holding no content lock. Pins are taken before
// locks and may be held across extension.
type Relation struct {
	pool     *buffer.Pool
	rel      buffer.RelFileNode
	desc     TupleDesc
	fill     int // fillfactor
	saveFree int // RelationGetTargetPageFreeSpace: bytes an insert leaves free
	policy   fsm.Policy
	fsm      *fsm.Map
	wal      *wal.Log // nil: changes are not logged
	stats    relCounters
	place    placementCounters
	onPrune  func(removed int) // Options.OnPrune
	pruner   *Pruner           // Options.Pruner
	reclaim  *Reclaimer        // Options.Reclaim

	retire  sync.RWMutex // held shared by the pruner's prunes, exclusively by Retire
	retired bool         // under retire: the relation's files are being dropped

	indexAttrs atomic.Pointer[IndexAttrs] // set by SetIndexAttrs; nil = no indexes
	// inval counts InvalidateTargets calls. A session's remembered target
	// block is current only while it equals the count at which the target
	// was set, on this Relation (a reopened table is a new Relation).
	inval atomic.Uint64
	// runAvg is the number of rows the transactions that inserted into r
	// inserted each, a moving average in sixteenths (foldRun): what the
	// next one is expected to insert (fsm.Request.RunBytes).
	runAvg atomic.Uint32
	// lastBulkBurst is the pages the last bulk burst of inserts into r
	// moved through, whichever session made it (endBurst): what a
	// session's first bulk burst into r is expected to fill.
	lastBulkBurst atomic.Uint32
	// lastBulkGroup is the largest group of rows of that burst
	// (relTarget.lastGroup), 0 if it had none.
	lastBulkGroup atomic.Uint32
}

// InvalidateTargets marks every session's remembered target block of r as
// out of date, as a relcache invalidation does in PostgreSQL: VACUUM (which
// updates the relation's statistics) and any DDL on the table make each
// backend rebuild its relcache entry and so forget rd_targblock. The next
// insert of each session then tells its policy (fsm.Request.Invalidated),
// which decides whether to ask the map afresh (classic, as PostgreSQL does)
// or to keep its page. Safe to call concurrently with inserts.
func (r *Relation) InvalidateTargets() { r.inval.Add(1) }

// Stats are a relation's heap-level counters since Open.
type Stats struct {
	Inserts          int64 // tuples inserted (Insert and MultiInsert)
	UpdatesSamePage  int64 // updates whose new version went on the old version's page
	UpdatesOtherPage int64 // updates that had to go through the insert path
	UpdatesHot       int64 // same-page updates that made a heap-only tuple (HOT)
	Deletes          int64
	Locks            int64 // FOR UPDATE locks taken
	PagesPruned      int64 // opportunistic prunes that removed something (heap_page_prune_opt and the pruner's)
	TuplesPruned     int64 // versions those prunes removed
	HintPagesDirtied int64 // hint-bit-only page changes (MarkBufferDirtyHint calls)

	PagesPrunedBehind  int64 // of PagesPruned, the Pruner's
	PruneBehindImage   int64 // pages the Pruner left because pruning them would log an image
	PruneBehindDropped int64 // notes the Pruner dropped: queue full, or the page stayed locked or the change running
	ReclaimedBehind    int64 // LP_DEAD line pointers the Pruner made unused (Options.Reclaim)
	ReclaimRefused     int64 // pages whose LP_DEAD line pointers the Pruner left to VACUUM: one ran (or DDL), or an image was due
}

type relCounters struct {
	inserts, updSame, updOther, updHot, deletes, locks, pagesPruned, tuplesPruned, hintDirty atomic.Int64
	prunedBehind, pruneBehindImage, pruneBehindDropped, reclaimedBehind, reclaimRefused      atomic.Int64
}

// Stats returns the relation's counters.
func (r *Relation) Stats() Stats {
	c := &r.stats
	return Stats{
		Inserts: c.inserts.Load(), UpdatesSamePage: c.updSame.Load(), UpdatesOtherPage: c.updOther.Load(),
		UpdatesHot: c.updHot.Load(),
		Deletes:    c.deletes.Load(), Locks: c.locks.Load(), PagesPruned: c.pagesPruned.Load(),
		TuplesPruned: c.tuplesPruned.Load(), HintPagesDirtied: c.hintDirty.Load(),
		PagesPrunedBehind: c.prunedBehind.Load(), PruneBehindImage: c.pruneBehindImage.Load(),
		PruneBehindDropped: c.pruneBehindDropped.Load(), ReclaimedBehind: c.reclaimedBehind.Load(),
		ReclaimRefused: c.reclaimRefused.Load(),
	}
}

// Open returns the access handle of relation rel, whose main fork must have
// been created (buffer.Pool.CreateRel). desc describes the rows (used by
// Check). Call it once per table and share the result.
func Open(pool *buffer.Pool, rel buffer.RelFileNode, desc TupleDesc, opts Options) *Relation {
	ff := opts.FillFactor
	if ff <= 0 || ff > 100 {
		ff = DefaultFillFactor
	}
	pol := opts.Policy
	if pol == nil {
		pol = fsm.NewClassic()
	}
	return &Relation{
		pool:     pool,
		rel:      rel,
		desc:     desc,
		fill:     ff,
		saveFree: page.BlockSize * (100 - ff) / 100,
		policy:   pol,
		fsm:      fsm.OpenMap(pool, rel),
		wal:      opts.WAL,
		onPrune:  opts.OnPrune,
		pruner:   opts.Pruner,
		reclaim:  opts.Reclaim,
	}
}

// RelFileNode is the relation's file number.
func (r *Relation) RelFileNode() buffer.RelFileNode { return r.rel }

// Desc is the tuple descriptor the relation was opened with.
func (r *Relation) Desc() TupleDesc { return r.desc }

// FillFactor is the relation's fillfactor.
func (r *Relation) FillFactor() int { return r.fill }

// Policy is the relation's placement policy (for its counters).
func (r *Relation) Policy() fsm.Policy { return r.policy }

// splitTargets reports whether r's policy keeps the target of updates that
// leave their page apart from the insert target (fsm.TargetSplitter).
func (r *Relation) splitTargets() bool {
	s, ok := r.policy.(fsm.TargetSplitter)
	return ok && s.SplitTargets()
}

// FSM is the relation's free space map.
func (r *Relation) FSM() *fsm.Map { return r.fsm }

// NBlocks is the number of blocks in the main fork.
func (r *Relation) NBlocks() (uint32, error) {
	return r.pool.NBlocks(r.rel, buffer.MainFork)
}

// InsertState is a session's insert state for one or more relations: the
// target block last inserted into (PostgreSQL's rd_targblock, which lives
// in each backend's relcache) and, for COPY and multi-row inserts, the bulk
// flag (BulkInsertState). The zero value is ready to use; a nil *InsertState
// means "no remembered target". An InsertState must not be used by two
// goroutines at once.
type InsertState struct {
	bulk bool
	// ignoreTarget makes target report no remembered block, so that every
	// insert asks the free-space policy (a developer setting for measuring
	// the policy's look-ups; PostgreSQL always uses rd_targblock).
	ignoreTarget bool
	// usage counts the buffer accesses of inserts through this state
	// (SetUsage); nil: not counted.
	usage *buffer.Usage
	// owner is the backend pid of the session inserting through this
	// state (fsm.Request.Owner), 0 when none was set.
	owner int32
	// lastIns is the relation of the last insert through this state in
	// the running transaction (noteInsert), nil at its start.
	lastIns *Relation
	// shares is RowShares' count for the next insert + 1; 0: not known.
	shares int16
	// bulkTxn is set once a burst of the running transaction moved
	// through BulkPages pages: the transaction is loading in bulk.
	bulkTxn bool
	// related remembers, for the transaction updating through this state,
	// the blocks of one relation holding rows related to the one being
	// updated (fsm.Request.Related), most recent last.
	related relatedState
	// targets is a small LRU. PostgreSQL keeps rd_targblock for every
	// relation a backend has open; a TPC-C loader fills eight tables in
	// turn, and with fewer entries it would lose its target at every turn
	// and start a new page.
	targets [16]relTarget
}

type relTarget struct {
	rel buffer.RelFileNode
	blk uint32 // target block + 1; 0 = none (keeps the zero value valid)
	// upd is the target of updates that leave their page + 1 (0 = none),
	// kept apart from blk for a policy that splits the two
	// (fsm.TargetSplitter).
	upd   uint32
	stamp uint64
	// moves counts the pages the insert target moved to since the last
	// ResetMoves (saturating).
	moves uint16
	// burst counts the pages the insert target moved to in the session's
	// current burst of inserts into the relation (noteInsert), and
	// lastBurst is burst of the last burst that loaded the relation in
	// bulk (at least BulkPages), 0 if the last one did not: what the
	// session's next burst is expected to fill (fsm.Request.PagesLeft).
	burst, lastBurst uint16
	// batch is set when an insert of the running transaction began a
	// batch (fsm.Request.NewBatch): its run is given back at the end of
	// the transaction however few pages the batch filled (BulkRelations).
	batch bool
	// The burst's groups of rows (groupBytes): share is the most leading
	// columns a row of the burst shared with the one before it, + 1 (0:
	// none seen), grp the bytes of the group being inserted and grpMax
	// those of the largest group the burst has ended, and grpN how many
	// groups it has ended (up to fewGroups; fewGroups when it carries
	// the last batch's largest group).
	share       int16
	grpN        uint16
	grp, grpMax int32
	// lastGroup is the largest group of the last burst that loaded the
	// relation in bulk, 0 if it had none (or none small enough to keep on
	// a page): a batch of groups (noteInsert) carries it on its first row.
	lastGroup int32
	// back is the page the insert target left in the current burst
	// because a row did not fit there, + 1 (0: none), and backFree its
	// free space as last found, less the rows placed there since
	// (fsm.Request.Back): kept only while the burst has no groups.
	back     uint32
	backFree int32
	// runXid is the transaction whose inserts runRows counts (0: none).
	runXid  uint32
	runRows uint16
	owner   *Relation // the Relation the target was set through
	inval   uint64    // owner.inval when it was set
}

// NewBulkInsertState returns an InsertState for COPY and INSERT ... SELECT
// style loads (PostgreSQL's GetBulkInsertState).
func NewBulkInsertState() *InsertState { return &InsertState{bulk: true} }

// Bulk reports whether st is a bulk insert state.
func (st *InsertState) Bulk() bool { return st != nil && st.bulk }

// SetBulk makes st a bulk insert state or a plain one. A session keeps one
// InsertState and sets it bulk for the length of a COPY: PostgreSQL's
// BulkInsertState comes and goes with the statement, but rd_targblock stays
// in the backend's relcache, so the next COPY or INSERT of the session
// continues on the page the last one stopped at instead of leaving it
// partly filled.
func (st *InsertState) SetBulk(bulk bool) { st.bulk = bulk }

// SetOwner names the session inserting through st by its backend pid. The
// free-space policy decides nothing by it; it shows whose pages a loading
// session's are (fsm.PageState.Owner, minipg_page_state).
func (st *InsertState) SetOwner(pid int32) { st.owner = pid }

// Owner is the backend pid SetOwner set, 0 for none (and for a nil st).
func (st *InsertState) Owner() int32 {
	if st == nil {
		return 0
	}
	return st.owner
}

// SetUsage makes inserts through st count their buffer accesses in u (the
// session's counters; nil: none).
func (st *InsertState) SetUsage(u *buffer.Usage) { st.usage = u }

// Usage is the counter SetUsage set (nil for a nil st).
func (st *InsertState) Usage() *buffer.Usage {
	if st == nil {
		return nil
	}
	return st.usage
}

// SetIgnoreTarget, while ignore is set, makes st report no target block for
// any relation (the remembered ones are kept): each insert then goes to the
// policy's Choose as if the session had never inserted. Off by default.
func (st *InsertState) SetIgnoreTarget(ignore bool) { st.ignoreTarget = ignore }

// target returns the remembered target block for r, or InvalidBlock, and
// whether r was invalidated (InvalidateTargets, or reopened) since the
// target was set. upd asks for the target of updates that leave their
// page, which is the insert target unless r's policy splits them
// (fsm.TargetSplitter).
func (st *InsertState) target(r *Relation, upd bool) (blk uint32, invalidated bool) {
	if st == nil || st.ignoreTarget {
		return page.InvalidBlock, false
	}
	for i := range st.targets {
		if t := &st.targets[i]; t.rel == r.rel && (t.blk != 0 || t.upd != 0) {
			b := t.blk
			if upd && r.splitTargets() {
				b = t.upd
			}
			if b == 0 {
				return page.InvalidBlock, false
			}
			return b - 1, t.owner != r || t.inval != r.inval.Load()
		}
	}
	return page.InvalidBlock, false
}

// setTarget remembers blk as r's target (RelationSetTargetBlock), or as
// the target of its updates that leave their page (upd) when r's policy
// keeps that apart.
func (st *InsertState) setTarget(r *Relation, blk uint32, upd bool) {
	if st == nil {
		return
	}
	rel := r.rel
	victim := 0
	for i := range st.targets {
		t := &st.targets[i]
		if t.rel == rel && (t.blk != 0 || t.upd != 0) {
			victim = i
			break
		}
		if (t.blk == 0 && t.upd == 0) || t.stamp < st.targets[victim].stamp {
			victim = i
		}
	}
	var stamp uint64
	for i := range st.targets {
		stamp = max(stamp, st.targets[i].stamp)
	}
	t := st.targets[victim]
	if t.rel != rel || t.owner != r {
		t = relTarget{}
	}
	if upd && r.splitTargets() {
		t.upd = blk + 1
	} else {
		if t.blk != blk+1 && t.moves < ^uint16(0) {
			t.moves++
		}
		if t.blk != blk+1 && t.burst < ^uint16(0) {
			t.burst++
		}
		t.blk = blk + 1
	}
	t.rel, t.stamp, t.owner, t.inval = rel, stamp+1, r, r.inval.Load()
	st.targets[victim] = t
}

// ReleaseRun gives back the pages r's policy still holds reserved for this
// session after its insert target in r (fsm.RunReleaser; a no-op for a
// policy that reserves none): the session's bulk load of r has ended. The
// policy is told how many pages the load moved through since the counts
// were last reset (ResetMoves). The caller must hold a lock on r that
// keeps it from being dropped.
func (st *InsertState) ReleaseRun(r *Relation) {
	rr, ok := r.policy.(fsm.RunReleaser)
	if st == nil || !ok {
		return
	}
	if t := st.find(r); t != nil && t.blk != 0 {
		rr.ReleaseRun(r.fsm, t.blk-1, int(t.moves))
	}
}

// BulkPages is the pages a burst of inserts (or a transaction's inserts)
// into a relation must move through to count as a bulk load: a run's
// worth (storage/fsm's first run is 16 pages). A New-Order's few rows fill
// part of one page.
const BulkPages = 16

// BatchPages is the size a session's burst into a relation is expected to
// have for it to start on a run of its own (fsm.Request.NewBatch): a
// district's customers (255 pages) or order lines (460), not its orders
// (30). Leaving the page the last burst ended on leaves that page partly
// empty, and later inserts fill it next to the rows of the last burst; a
// burst of a few dozen pages, which crosses one run end at most, gains
// less than that costs.
const BatchPages = 64

// ResetMoves starts anew the count of pages each insert target moved to
// (BulkRelations, ReleaseRun): at the end of a transaction, which ends the
// session's bursts of inserts too (noteInsert, endBurst).
func (st *InsertState) ResetMoves() {
	if st == nil {
		return
	}
	for i := range st.targets {
		t := &st.targets[i]
		t.endBurst()
		t.moves, t.batch = 0, false
	}
	st.lastIns, st.bulkTxn = nil, false
}

// endBurst ends the session's burst of inserts into t's relation: a burst
// that moved through BulkPages or more is the size expected of the next,
// the session's and (Relation.lastBulkBurst) any session's first.
func (t *relTarget) endBurst() {
	if t.burst > 0 || t.lastBurst > 0 {
		t.lastBurst, t.lastGroup = 0, 0
		if t.burst >= BulkPages {
			t.lastBurst = t.burst
			if t.groups() {
				// The burst's last group ended too.
				if g := max(t.grpMax, t.grp); g <= maxGroupBytes {
					t.lastGroup = g
				}
			}
			if t.owner != nil {
				t.owner.lastBulkBurst.Store(uint32(t.burst))
				t.owner.lastBulkGroup.Store(uint32(t.lastGroup))
			}
		}
	}
	t.burst = 0
	t.share, t.grp, t.grpMax, t.grpN = 0, 0, 0, 0
	t.back, t.backFree = 0, 0
}

// groups reports whether the current burst into t's relation has formed
// groups told by RowShares (rows of unknown shares each start one, and
// form none).
func (t *relTarget) groups() bool { return t.grpMax > 0 && t.share > 0 }

// setBack notes, after an insert into r moved st's target off blk, that
// blk was left with free bytes (page.HeapFreeSpace); after an insert placed
// on the back page itself, what that page has left.
func (st *InsertState) setBack(r *Relation, blk uint32, free int) {
	if st == nil {
		return
	}
	if t := st.find(r); t != nil {
		t.back, t.backFree = blk+1, int32(max(free, 0))
	}
}

// RowShares tells st, before an insert through it, how many leading
// columns the row shares with the row the session inserted into the same
// relation just before it, in the same transaction; n < 0: not known (the
// insert before was into another relation, or the caller does not
// compare). It holds for the next insert only (groupBytes).
func (st *InsertState) RowShares(n int) {
	if st != nil {
		st.shares = int16(min(max(n, -1), 1<<14) + 1)
	}
}

// maxGroupBytes is the largest group of rows (groupBytes) kept from
// straddling two runs: a quarter of a page. Leaving the rest of a run's
// last page to start a larger one would waste too much of it.
const maxGroupBytes = (page.BlockSize - page.HeaderSize) / 4

// fewGroups is how many groups a burst must have ended before the largest
// of them is taken for the size of the next (groupBytes); before, twice
// that is.
const fewGroups = 32

// groupBytes is fsm.Request.GroupBytes for an insert of need bytes through
// st into the relation of t (st's entry for it, nil if none), given what
// RowShares said of the row. A burst's rows form
// groups when some share more leading columns with the row before them
// than others do (a TPC-C loader's order lines share warehouse, district
// and order with the lines of their order, only warehouse and district
// with the line before a new order); a row sharing fewer than the most
// the burst has seen starts a group, and gets the size of the largest
// group the burst has ended, when that is at most maxGroupBytes. A burst
// whose rows all share as many (a district's customers) has no groups.
func (st *InsertState) groupBytes(t *relTarget, need int) int {
	s := st.shares
	st.shares = 0
	if t == nil {
		return 0
	}
	size := int32(need + page.ItemIDSize)
	if s > 0 && s >= t.share {
		t.share = s
		t.grp = min(t.grp+size, maxGroupBytes+1) // past it, too large anyway
		return 0
	}
	t.grpMax = max(t.grpMax, t.grp)
	t.grp = size
	if s == 0 || t.grpMax > maxGroupBytes {
		return 0
	}
	if t.grpN < fewGroups {
		t.grpN++
		// The largest of a few groups may well be smaller than the
		// next one (an order has 5 to 15 lines: after 12 orders, one
		// time in three none had 15): allow for twice as much.
		return int(min(2*t.grpMax, maxGroupBytes))
	}
	return int(t.grpMax)
}

// noteInsert is called for each insert into r through st, before its
// page is chosen, and returns what the insert of need bytes tells the
// policy of its burst (fsm.Request's NewBatch, PagesLeft, BurstPages and,
// from groupBytes, GroupBytes). A burst is
// the session's consecutive inserts into one relation in one transaction:
// a loader that writes a district's customers, then their history rows,
// then the customers of the next district, makes a burst of each, and the
// session's previous burst into a relation is the best guess of its next
// one there (pagesLeft: that burst's pages less those this one has moved
// through). noteInsert ends the burst into the relation the session
// inserted into before when that is another one.
//
// Only a transaction that has loaded a relation in bulk (a burst of
// BulkPages or more ended: bulkTxn) is a loader; a session whose last
// transaction was one may well insert a few rows now. In a loader's
// transaction, an insert tells how many pages its burst has moved through
// (burstPages), a first burst into a relation is expected to be as large
// as the last bulk burst into it of any session (Relation.lastBulkBurst),
// and a burst expected to fill BatchPages or more starts a batch
// (newBatch): the policy starts it on fresh pages with room for all of
// it, so that no group of rows the burst writes together straddles the
// end of a run. The first row of a batch whose last one formed groups
// carries that one's largest group (groupBytes): such a batch may go on
// where the session's run is, its groups kept whole.
func (st *InsertState) noteInsert(r *Relation, need int) (n burstNote) {
	if st == nil {
		return n
	}
	if st.lastIns != r && st.lastIns != nil {
		if t := st.find(st.lastIns); t != nil {
			st.bulkTxn = st.bulkTxn || t.burst >= BulkPages
			t.endBurst()
		}
	}
	starts := st.lastIns != r
	st.lastIns = r
	last, burst := 0, 0
	t := st.find(r)
	if t != nil {
		last, burst = int(t.lastBurst), int(t.burst)
	}
	n.groupBytes = st.groupBytes(t, need)
	if t != nil && t.back != 0 && !t.groups() {
		// The page the burst left last; a group's rows are kept
		// together on the target.
		n.back, n.backFree = t.back-1, int(t.backFree)
	}
	if !st.bulkTxn {
		n.pagesLeft = max(0, last-burst)
		return n
	}
	group := 0
	if t != nil {
		group = int(t.lastGroup)
	}
	if last == 0 {
		last, group = int(r.lastBulkBurst.Load()), int(r.lastBulkGroup.Load())
	}
	n.newBatch = starts && burst == 0 && last >= BatchPages
	n.pagesLeft, n.burstPages, n.loader, n.sized = max(0, last-burst), burst, true, last > 0
	if n.newBatch && group > 0 {
		// A batch of groups (a district's order lines) carries the size of
		// the last one's largest group on its first row: its first group
		// starts a group as well, and the policy keeps it from straddling
		// two runs as it keeps the others. Its next groups are told no
		// less: it may reach the end of its run before a group as large
		// has ended in it.
		n.groupBytes = group
		if t != nil {
			t.grpMax = max(t.grpMax, int32(group))
			t.grpN = fewGroups
		}
	}
	return n
}

// burstNote is what noteInsert finds an insert tells the policy:
// fsm.Request's NewBatch, PagesLeft, BurstPages, GroupBytes, Back,
// BackFree, LoadingTxn (loader) and BurstSized (sized).
type burstNote struct {
	newBatch, loader, sized           bool
	pagesLeft, burstPages, groupBytes int
	back                              uint32
	backFree                          int
}

// markBatch notes that an insert into r through st began a batch
// (BulkRelations); st's entry for r exists, setTarget having just set it.
func (st *InsertState) markBatch(r *Relation) {
	if t := st.find(r); t != nil {
		t.batch = true
	}
}

// find returns st's entry for r, nil when it has none.
func (st *InsertState) find(r *Relation) *relTarget {
	for i := range st.targets {
		if t := &st.targets[i]; t.rel == r.rel && t.owner == r && (t.blk != 0 || t.upd != 0) {
			return t
		}
	}
	return nil
}

// runBytes is fsm.Request.RunBytes for an insert of need bytes by xid
// into r through st: when r's policy keeps transactions' rows together
// (fsm.RunKeeper) and this is xid's first insert into r through st, the
// space r's recent transactions' rows took each (rows x (need + a line
// pointer)); 0 for later inserts, bulk loads, and transactions expected
// to insert one row or more than half a page. Starting a transaction's
// rows, it folds the session's previous transaction's count into r's
// average.
func (st *InsertState) runBytes(r *Relation, xid uint32, need int) int {
	if st == nil || st.bulk || !r.keepsRuns() {
		return 0
	}
	if t := st.find(r); t != nil {
		if t.runXid == xid {
			return 0
		}
		if t.runXid != 0 {
			r.foldRun(t.runRows)
			t.runXid, t.runRows = 0, 0
		}
	}
	avg := int(r.runAvg.Load())
	if avg < 2*16 {
		return 0
	}
	bytes := avg * (need + page.ItemIDSize) / 16
	if bytes > (page.BlockSize-page.HeaderSize-r.saveFree)/2 {
		return 0
	}
	return bytes
}

// keepsRuns reports whether r's policy keeps transactions' rows together
// (fsm.RunKeeper), so that inserts count their transaction's rows.
func (r *Relation) keepsRuns() bool {
	rk, ok := r.policy.(fsm.RunKeeper)
	return ok && rk.KeepRuns()
}

// countRun counts an insert by xid into r through st (runBytes), when r's
// policy keeps runs; st's entry for r exists, setTarget having just set it.
func (st *InsertState) countRun(r *Relation, xid uint32) {
	if st == nil || !r.keepsRuns() {
		return
	}
	t := st.find(r)
	if t == nil {
		return
	}
	if t.runXid != xid {
		t.runXid, t.runRows = xid, 0
	}
	if t.runRows < ^uint16(0) {
		t.runRows++
	}
}

// foldRun adds a transaction that inserted rows rows into r to r's
// average: avg = 7/8 avg + 1/8 rows (the first one sets it).
func (r *Relation) foldRun(rows uint16) {
	for {
		old := r.runAvg.Load()
		next := uint32(rows) * 16
		if old != 0 {
			next = old - old/8 + uint32(rows)*2
		}
		if r.runAvg.CompareAndSwap(old, next) {
			return
		}
	}
}

// BulkRelations returns the relations whose insert target moved to at
// least pages pages since the counts were last reset (ResetMoves): at the
// end of a transaction, the relations it loaded in bulk (a run's worth of
// pages) rather than a few rows, or began a batch in (markBatch), whose
// runs the session gives back (ReleaseRun).
func (st *InsertState) BulkRelations(pages int) []*Relation {
	if st == nil {
		return nil
	}
	var rels []*Relation
	for i := range st.targets {
		if t := &st.targets[i]; (int(t.moves) >= pages || t.batch) && t.blk != 0 && t.owner != nil {
			rels = append(rels, t.owner)
		}
	}
	return rels
}

// Relations returns the relations st remembers a target in, for a session
// that ends and releases their runs (ReleaseRun).
func (st *InsertState) Relations() []*Relation {
	if st == nil {
		return nil
	}
	var rels []*Relation
	for i := range st.targets {
		if t := &st.targets[i]; t.blk != 0 && t.owner != nil {
			rels = append(rels, t.owner)
		}
	}
	return rels
}

// relatedState is an InsertState's memory of the blocks related to one
// transaction's updates of one relation.
type relatedState struct {
	rel    buffer.RelFileNode
	xid    uint32
	blocks []uint32 // most recent last
	// statement, if not nil, tells the blocks of the rows the running
	// statement will update (SetStatementBlocks); it is asked only when an
	// update has to leave its page, and then once.
	statement func() []uint32
	// single is set while the running statement changes one row found by
	// a unique key (SetStatementSingleRow): its row has no siblings.
	single bool
}

// maxRelatedBlocks bounds the related blocks an InsertState remembers.
const maxRelatedBlocks = 16

// noteRelated remembers that transaction xid updated a row on blk of rel,
// or put a moved version there. A new relation or transaction starts a new
// list.
func (st *InsertState) noteRelated(rel buffer.RelFileNode, xid, blk uint32) {
	if st == nil {
		return
	}
	x := st.relatedFor(rel, xid)
	if i := slices.Index(x.blocks, blk); i >= 0 {
		x.blocks = slices.Delete(x.blocks, i, i+1)
	} else if len(x.blocks) == maxRelatedBlocks {
		x.blocks = slices.Delete(x.blocks, 0, 1)
	}
	x.blocks = append(x.blocks, blk)
}

// relatedFor returns st's related list, emptied first if it belonged to
// another relation or transaction.
func (st *InsertState) relatedFor(rel buffer.RelFileNode, xid uint32) *relatedState {
	x := &st.related
	if x.rel != rel || x.xid != xid {
		x.rel, x.xid, x.blocks, x.statement, x.single = rel, xid, x.blocks[:0], nil, false
	}
	return x
}

// relatedBlocks returns the blocks of rel related to an update by xid, most
// recent first (a copy): those it touched, then those of the rows its
// statement will update (asked now, the first time it is needed).
func (st *InsertState) relatedBlocks(rel buffer.RelFileNode, xid uint32) []uint32 {
	if st == nil || st.related.rel != rel || st.related.xid != xid {
		return nil
	}
	x := &st.related
	if x.statement != nil {
		// The statement's blocks rank below the ones it has touched: put
		// them first (oldest), in the statement's order from the back.
		ahead := x.statement()
		x.statement = nil
		var merged []uint32
		for i := len(ahead) - 1; i >= 0; i-- {
			if b := ahead[i]; !slices.Contains(x.blocks, b) && !slices.Contains(merged, b) {
				merged = append(merged, b)
			}
		}
		merged = append(merged, x.blocks...)
		if len(merged) > maxRelatedBlocks {
			merged = merged[len(merged)-maxRelatedBlocks:]
		}
		x.blocks = merged
	}
	if len(x.blocks) == 0 {
		return nil
	}
	out := slices.Clone(x.blocks)
	slices.Reverse(out)
	return out
}

// SetStatementBlocks tells st how to learn the blocks of the rows a
// statement of transaction xid is about to update in r, in the order it
// will update them (an index range scan can tell; nil: the statement
// cannot). It is asked only if one of the statement's updates has to leave
// its page, which then counts them among its related blocks, so that it
// can join siblings the statement has not reached yet (the order lines of
// one order that continue on the next page). The caller sets nil when the
// statement ends.
func (st *InsertState) SetStatementBlocks(r *Relation, xid uint32, blocks func() []uint32) {
	if st == nil {
		return
	}
	st.relatedFor(r.rel, xid).statement = blocks
}

// SetStatementSingleRow tells st, while single is set, that the statement
// of transaction xid updating r changes one row found by a unique key
// (fsm.Request.SingleRow). The caller clears it when the statement ends.
func (st *InsertState) SetStatementSingleRow(r *Relation, xid uint32, single bool) {
	if st == nil {
		return
	}
	st.relatedFor(r.rel, xid).single = single
}

// singleRow reports whether the running statement of xid on rel changes
// one row (SetStatementSingleRow).
func (st *InsertState) singleRow(rel buffer.RelFileNode, xid uint32) bool {
	return st != nil && st.related.rel == rel && st.related.xid == xid && st.related.single
}

package fsm

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"minipg/pgerr"
	"minipg/reloptions"
	"minipg/storage/page"
)

// Request describes where one tuple (or one batch of a multi-insert) is to
// go. The heap fills it once per placement and passes the same value to
// every Policy call of that placement, but for BackFree, which it clears
// after the first Retry: the page left last is offered once.
type Request struct {
	// Need is the MAXALIGNed tuple length. The line pointer is not
	// included: page.HeapFreeSpace already reserves room for one.
	Need int
	// SaveFree is the fillfactor reserve in bytes
	// (RelationGetTargetPageFreeSpace: BLCKSZ*(100-fillfactor)/100).
	SaveFree int
	// Target is the session's (or BulkInsertState's) current target block,
	// or InvalidBlock. The zero value means block 0: set InvalidBlock
	// explicitly when there is no target.
	Target uint32
	// Invalidated says that the relation's cached state was invalidated
	// (VACUUM, DDL) since the session remembered Target. PostgreSQL forgets
	// rd_targblock with the relcache entry then, so the classic policy
	// treats Target as absent; other policies may keep it.
	Invalidated bool
	// OldBlock is, for an UPDATE that does not fit on the old version's
	// page, that page's block; InvalidBlock otherwise. The classic policy
	// ignores it (as PostgreSQL does); locality uses it.
	OldBlock uint32
	// Related are, for such an UPDATE, the blocks of rows related to this
	// one, most recent first: the blocks of the rows its transaction has
	// updated in this relation (OldBlock among them), of the rows its
	// statement is about to update, and of the pages it put moved versions
	// on. Nil for inserts; policies other than locality ignore it.
	Related []uint32
	// SingleRow is set, for such an UPDATE, when its statement changes
	// one row found by a unique key (a TPC-C stock or customer update):
	// the row has no siblings to join, and the free space its neighbours
	// got back from pruning is what their own rows need to update in
	// place. Related is then nil.
	SingleRow bool
	// UpperLogged is set, for such an UPDATE, when the old block's upper
	// neighbour has been changed since the last checkpoint's redo point
	// and its lower neighbour has not (a hint: pages found in the buffer
	// pool only). A change of the upper one then costs no full-page
	// image, of the lower one one more.
	UpperLogged bool
	// Bulk is set for COPY / multi-insert with a BulkInsertState.
	Bulk bool
	// NumPages is how many pages the caller expects to fill when it has to
	// extend (heap_multi_insert's num_pages); 0 means 1. Extension adds at
	// least this many pages.
	NumPages int
	// PagesLeft is, for an insert of a session that loads in batches (its
	// last transaction filled a run's worth of pages in this relation), how
	// many pages this batch is expected still to fill: the last batch's
	// pages less those this one has moved through; 0 when not known. A
	// policy that reserves runs for loading sessions sizes the next one by
	// it, so that a batch ends at the end of its run and a session that
	// stops leaves few pages reserved and unused.
	PagesLeft int
	// NewBatch is set on the first insert of a session's burst into the
	// relation (its consecutive inserts there, in one transaction) when
	// it is expected to fill many pages (the heap's BatchPages: the
	// session's last burst there did, or, in a transaction loading in
	// bulk, the relation's last bulk burst did): PagesLeft is then that
	// burst's size. A policy that reserves runs starts the
	// burst on fresh pages with room for all of it rather than on the
	// session's target, so that the burst does not cross the end of a
	// run and its rows stay on consecutive blocks. A batch whose rows form
	// groups (GroupBytes is set on its first row) may go on where the
	// session's last batch ended: keeping each group whole is enough.
	NewBatch bool
	// BurstPages is, for an insert of a transaction that has loaded some
	// relation in bulk, how many pages the session's current burst into
	// this relation has moved through (0 otherwise): a session that has
	// loaded that many is expected to load as many more.
	BurstPages int
	// LoadingTxn is set for an insert of such a transaction (a loader's),
	// even before its burst into this relation has filled a page.
	LoadingTxn bool
	// BurstSized is set, with LoadingTxn, when the burst's size was
	// expected from an earlier burst into the relation (the session's
	// last, or any session's last bulk burst there): PagesLeft is what
	// it has left, 0 when it has gone past that. Without it the burst is
	// a batch of unknown size.
	BurstSized bool
	// RunBytes is, for the first row a transaction inserts into the
	// relation, when the policy keeps a transaction's rows together
	// (RunKeeper), the space the transaction's rows are expected to take,
	// tuples and line pointers (from the relation's recent transactions);
	// 0 otherwise. TargetFreeSpace then asks for room for all of them, so
	// that they start on a page where they fit together.
	RunBytes int
	// GroupBytes is, for an insert that starts a group of rows (the
	// session's consecutive rows in its burst that share more leading
	// columns with each other than with the rows around them: an order's
	// lines), the room the largest group of the burst so far took, tuples
	// and line pointers; 0 otherwise, and when no group has ended yet or
	// the groups are too large to keep on one page. A policy whose
	// session's next page is not the next block (the end of a run) asks
	// the last page for room for the whole group, so that the group
	// starts on the next run instead of straddling the two.
	GroupBytes int
	// Back is, for an insert of a session whose burst of rows without
	// groups has moved its target off a page that was too full for a row
	// (a loader's last page but one), that page, and BackFree the free
	// space (page.HeapFreeSpace) it was left with, less the rows placed
	// there since; BackFree 0: none. The rows of such a burst vary in
	// size (a TPC-C customer's c_data is 300 to 500 characters), so a
	// page left when one row did not fit may well take a later, smaller
	// one. A policy may place the row there, next to the burst's rows
	// before it, instead of on Target; locality does for a loading
	// session, as classic's FSM search would give it the page, and
	// returns to Target when the page proves too full (Retry).
	Back     uint32
	BackFree int
	// Owner is the backend pid of the session placing the tuple, 0 when
	// unknown. It decides nothing: the locality policy keeps it with a
	// loading session's run so that PageStates can say whose pages they
	// are.
	Owner int32
}

// TargetFreeSpace is the free space (as page.HeapFreeSpace reports it) a
// page must have to take this tuple: Need + SaveFree, except that a tuple
// too big to respect the fillfactor anywhere only asks for a nearly empty
// page (PostgreSQL 16's nearlyEmptyFreeSpace rule in
// RelationGetBufferForTuple). The first row of a transaction's run
// (RunBytes) asks for the whole run's room instead of Need (the first
// line pointer is in HeapFreeSpace's reserve already), up to a nearly
// empty page. The heap uses it for its fit test, the policy for its FSM
// searches.
func (r Request) TargetFreeSpace() int {
	// A page with no tuples may still hold line pointers; treat it as empty
	// when the unusable space is small.
	const nearlyEmpty = MaxRequestSize - (page.MaxHeapTuplesPerPage/8)*page.ItemIDSize
	if r.Need+r.SaveFree > nearlyEmpty {
		return max(r.Need, nearlyEmpty)
	}
	need := r.Need
	if run := r.RunBytes - page.ItemIDSize; run > need {
		need = min(run, nearlyEmpty-r.SaveFree)
	}
	return need + r.SaveFree
}

// groupFreeSpace is the free space a page must have to take r and the
// rest of the group r starts (GroupBytes): TargetFreeSpace's rule for a
// run of rows, for the group.
func (r Request) groupFreeSpace() int {
	r.RunBytes = max(r.RunBytes, r.GroupBytes)
	return r.TargetFreeSpace()
}

func (r Request) numPages() int { return max(r.NumPages, 1) }

// backFits reports whether r, an insert, fits on its session's Back page
// by what the session found there.
func (r Request) backFits() bool {
	return r.BackFree > 0 && r.OldBlock == InvalidBlock && r.Back != r.Target && r.TargetFreeSpace() <= r.BackFree
}

// ownRun reports whether r starts a batch that wants a run of its own
// (Fit, leave): a batch of groups goes on in its session's run instead.
func (r Request) ownRun() bool { return r.NewBatch && r.GroupBytes == 0 }

// TargetSplitter is implemented by a policy that gives a session's updates
// that leave their page a target block of their own, so that they do not
// move the session's insert target. PostgreSQL keeps one rd_targblock for
// both: an UPDATE whose new version goes to another page makes that page
// the target of the session's next INSERT, which then starts filling a page
// far from the pages it was filling. The heap then passes the update target
// as Request.Target for such an update, and the insert target for inserts.
type TargetSplitter interface {
	SplitTargets() bool
}

// RunReleaser is implemented by a policy that reserves pages for a
// loading session beyond the block it is filling (locality's runs). The
// heap calls ReleaseRun with a session's target block when the session's
// bulk load ends (the end of a COPY) and when the session ends: the
// pages still reserved after blk go into the map as empty, so that other
// sessions fill them instead of extending past them and leaving them
// unused. The session keeps blk as its target; when it leaves it, it
// takes fresh pages as before, the nearest first (usually the ones it
// released, if nobody took them meanwhile). filled is how many pages the
// load that ended moved through (0: not known): a session that loads in
// repeated batches (a COPY or a transaction of many INSERTs each) gets
// runs of its batches' size, so that what it leaves unused when it stops
// is small.
type RunReleaser interface {
	ReleaseRun(m *Map, blk uint32, filled int)
}

// RunKeeper is implemented by a policy that may start the rows one
// transaction inserts into a relation on a page where they all fit: when
// KeepRuns says so, the heap sets Request.RunBytes on each transaction's
// first insert into the relation.
type RunKeeper interface {
	KeepRuns() bool
}

// PruneBehinder is implemented by a policy whose relations have their
// pages pruned soon after their updates and deletes unless the table or
// server says otherwise (heap_prune_behind = auto, storage/heap). A policy
// that does not implement it, or says false, leaves pruning to readers and
// VACUUM, as PostgreSQL does.
type PruneBehinder interface {
	PruneBehind() bool
}

// Fitter is implemented by a policy whose fit rule depends on the page: it
// returns the free space blk must have to take the request. A policy that
// does not implement it asks every page for r.TargetFreeSpace(). free is
// the page's free space as the caller found it (-1: not known): a rule
// asking for more than free or for no more than free than another gives
// the same answer to the fit test, and the policy may skip what deciding
// between them costs.
type Fitter interface {
	Fit(m *Map, r Request, blk uint32, free int) int
}

// Fit is the free space (page.HeapFreeSpace) blk must have for p to place
// r there: the heap's fit test. m is the relation's map, free the page's
// free space (-1: not known).
func Fit(p Policy, m *Map, r Request, blk uint32, free int) int {
	if f, ok := p.(Fitter); ok {
		return f.Fit(m, r, blk, free)
	}
	return r.TargetFreeSpace()
}

// Policy decides where a new tuple goes. The heap's insert path drives it
// (PostgreSQL's RelationGetBufferForTuple, with the decisions moved here):
//
//	blk := pol.Choose(m, r)
//	for {
//		if blk == fsm.InvalidBlock {
//			blk, err = pol.Extend(m, r)          // never InvalidBlock without an error
//		}
//		pin and exclusive-lock blk (with the old version's page, in block order, for UPDATE);
//		if page.IsNew(p) { page.Init(p, 0) }
//		free := page.HeapFreeSpace(p)
//		if r.TargetFreeSpace() <= free { insert; remember blk as the target; break }
//		unlock and unpin blk
//		blk = pol.Retry(m, r, blk, free)
//	}
//
// Every block a Policy returns is a candidate, never a promise: the heap
// always checks the page under its lock. The caller must hold no heap buffer
// content lock while calling a Policy method (they read and extend the FSM
// fork and take the relation's extension lock).
//
// One Policy value per relation: Stats counts the decisions of that value.
// Implementations are safe for concurrent use by all sessions of the
// relation.
type Policy interface {
	// Name is the policy's fsm_policy value ("classic", "locality", ...).
	Name() string
	// Choose returns the first block to try, or InvalidBlock to extend.
	Choose(m *Map, r Request) uint32
	// Retry is called when tried proved too full, with the free space the
	// heap measured on it (page.HeapFreeSpace). It records that figure and
	// returns the next block to try, or InvalidBlock to extend.
	Retry(m *Map, r Request, tried uint32, avail int) uint32
	// Extend makes room at the end of the relation and returns a block to
	// try: normally the first of the new pages (an all-zero page the heap
	// PageInits), which is not recorded in the FSM. Under the relation's
	// extension lock it adds one page, or more when other sessions wait
	// for the lock (PostgreSQL 16's RelationAddBlocks: extend_by =
	// NumPages * (1 + waiters), at most 64), and records the extra pages as
	// empty in the FSM, upper levels included, before releasing the lock.
	// A session that had to wait for the lock first searches the FSM again
	// (PostgreSQL 9.6-15) and returns a page found there instead of
	// extending. Either way the block is a candidate: another session may
	// have filled it, and the heap's loop handles that with Retry.
	Extend(m *Map, r Request) (uint32, error)
	// Stats returns the decision counters so far.
	Stats() PolicyStats
	// PageStates returns the policy's own view of blocks 0 .. nblocks-1
	// of the relation (pagestate.go; minipg_page_state): why it does or
	// does not hand each page out, with what the map records. It reads
	// the map's bottom level and the policy's in-memory state under the
	// locks placements take, so it may run while they do; the answer is
	// a snapshot of hints. The caller holds no heap buffer lock.
	PageStates(m *Map, nblocks uint32) []PageState
}

// PolicyStats are a policy's decision counters: those every policy keeps
// (the fields), and its own (Own, by the names it declared in its
// PolicyDef's Counters).
type PolicyStats struct {
	TargetTries    int64 // Choose returned the session's target block
	TargetHits     int64 // ... and it had room (TargetTries minus Retry calls for the target)
	FSMAnswers     int64 // blocks handed out by an FSM search (Choose, Retry, Extend's recheck)
	LastBlockTries int64 // Choose fell back to the relation's last block (the FSM knew nothing)
	// FSMHits counts FSM answers and last-block tries that had room:
	// FSMAnswers + LastBlockTries - (Retries for blocks other than the
	// target). A fresh page taken by another session before its extender
	// locked it counts as an FSM miss; that is rare.
	FSMHits        int64
	Retries        int64 // blocks that proved too full
	Extensions     int64 // relation extensions
	BlocksExtended int64 // pages they added
	MaxExtendBy    int64 // largest single extension
	ExtendRechecks int64 // extensions avoided: after waiting for the lock the FSM had a page

	// Own holds the policy's own counters by name (nil for a policy that
	// declares none).
	Own map[string]int64
}

// BlocksPerExtension is BlocksExtended / Extensions (0 if none).
func (s PolicyStats) BlocksPerExtension() float64 {
	if s.Extensions == 0 {
		return 0
	}
	return float64(s.BlocksExtended) / float64(s.Extensions)
}

// counters are the live form of PolicyStats.
type counters struct {
	targetTries, targetMisses, fsmAnswers, lastBlockTries, retries atomic.Int64
	extensions, blocksExtended, maxExtendBy, extendRechecks        atomic.Int64
}

// noteExtension counts one extension by `by` pages.
func (c *counters) noteExtension(by int) {
	c.extensions.Add(1)
	c.blocksExtended.Add(int64(by))
	for {
		cur := c.maxExtendBy.Load()
		if int64(by) <= cur || c.maxExtendBy.CompareAndSwap(cur, int64(by)) {
			break
		}
	}
}

// VacuumRecorder is implemented by a policy that decides what VACUUM
// advertises in the FSM. Heap VACUUM calls RecordVacuumed, instead of
// Map.RecordPageWithFreeSpace, with each page's real free space (as
// page.HeapFreeSpace reports it, or EmptyPageFree for a page never
// initialized) and the relation's fillfactor reserve. The locality policy
// uses it to keep closed pages closed until they have emptied enough, and
// to keep pages reserved for a loading session out of the map.
//
// BeginVacuum is called once before a VACUUM records its first page: the
// locality policy then gives back what sessions that have not moved since
// reserved.
type VacuumRecorder interface {
	BeginVacuum(m *Map)
	RecordVacuumed(m *Map, blk uint32, avail, saveFree int) error
}

func (c *counters) snapshot() PolicyStats {
	s := PolicyStats{
		TargetTries:    c.targetTries.Load(),
		FSMAnswers:     c.fsmAnswers.Load(),
		LastBlockTries: c.lastBlockTries.Load(),
		Retries:        c.retries.Load(),
		Extensions:     c.extensions.Load(),
		BlocksExtended: c.blocksExtended.Load(),
		MaxExtendBy:    c.maxExtendBy.Load(),
		ExtendRechecks: c.extendRechecks.Load(),
	}
	tm := c.targetMisses.Load()
	s.TargetHits = s.TargetTries - tm
	s.FSMHits = max(0, s.FSMAnswers+s.LastBlockTries-(s.Retries-tm))
	return s
}

// PolicyParam is the fsm_policy parameter: a table's placement policy
// (WITH (fsm_policy = ...)), and the server's and the session's default
// for new tables. Its values are the registered policies.
var PolicyParam = reloptions.Declare(reloptions.Param{
	Name:           "fsm_policy",
	Kind:           reloptions.Enum,
	Desc:           "free-space placement policy of a table",
	Default:        "locality",
	Values:         PolicyNames,
	Table:          true,
	Setting:        reloptions.UserSet,
	SessionDefault: true,
})

// PolicyDef declares a policy: its fsm_policy value, its constructor and
// its own counters. Its own parameters it declares with reloptions.Declare
// and reads in New from the Source it is given.
type PolicyDef struct {
	Name string
	// New returns a policy value for one relation, with its parameters
	// read from src (a table's options over the server's settings; nil:
	// the defaults).
	New func(src reloptions.Source) Policy
	// Counters are the policy's own decision counters, in the order of
	// their columns in minipg_stat_fsm; Stats reports them in Own.
	Counters []Counter
}

// Counter declares one of a policy's own counters.
type Counter struct {
	Name string // the minipg_stat_fsm column
	Desc string
}

// registry maps fsm_policy names to their definitions.
var registry = struct {
	sync.RWMutex // protects m
	m            map[string]PolicyDef
}{m: map[string]PolicyDef{}}

// RegisterPolicy makes a policy available to NewPolicy and PolicyByName,
// to fsm_policy, and its counters to StatColumns. Call it from an init
// function. It panics if the name is taken (a programming error).
func RegisterPolicy(d PolicyDef) {
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.m[d.Name]; dup {
		panic("fsm: policy " + d.Name + " registered twice")
	}
	registry.m[d.Name] = d
}

// PolicyNames returns the registered policy names, sorted.
func PolicyNames() []string {
	registry.RLock()
	defer registry.RUnlock()
	return sortedKeys(registry.m)
}

// PolicyByName returns a new policy value with default parameters for an
// fsm_policy value (matched case-insensitively, as PostgreSQL matches enum
// reloptions). An unknown name is a 22023 error worded like PostgreSQL's
// for a bad enum option.
func PolicyByName(name string) (Policy, error) {
	return newPolicy(name, nil)
}

// NewPolicy returns a new policy value for one relation: the policy that
// src's fsm_policy names (the default when src does not set it), with its
// parameters read from src. A name no policy has is PolicyByName's error.
func NewPolicy(src reloptions.Source) (Policy, error) {
	name, ok := "", false
	if src != nil {
		name, ok = src(PolicyParam.Name)
	}
	if !ok {
		name = PolicyParam.Default
	}
	return newPolicy(name, src)
}

func newPolicy(name string, src reloptions.Source) (Policy, error) {
	registry.RLock()
	d, ok := registry.m[strings.ToLower(name)]
	registry.RUnlock()
	if !ok {
		e := &pgerr.Error{
			Code:    ErrUnknownPolicy.Code,
			Message: fmt.Sprintf("invalid value for enum option %q: %s", PolicyParam.Name, name),
			Cause:   ErrUnknownPolicy,
		}
		return nil, e.WithDetail("Valid values are %s.", reloptions.QuotedList(PolicyNames()))
	}
	return d.New(src), nil
}

// A StatColumn is one column of minipg_stat_fsm after relname and policy.
type StatColumn struct {
	Name  string
	Desc  string
	Float bool // float8; else int8
	value func(PolicyStats) any
}

// Value is the column's value in s: an int64, or a float64 for a Float
// column. A policy's own counter reads 0 in the row of a policy that does
// not keep it.
func (c StatColumn) Value(s PolicyStats) any { return c.value(s) }

// commonColumns are the counters every policy keeps.
var commonColumns = []StatColumn{
	{Name: "target_tries", Desc: "Choose returned the session's target block", value: func(s PolicyStats) any { return s.TargetTries }},
	{Name: "target_hits", Desc: "the target had room", value: func(s PolicyStats) any { return s.TargetHits }},
	{Name: "fsm_answers", Desc: "blocks handed out by an FSM search", value: func(s PolicyStats) any { return s.FSMAnswers }},
	{Name: "fsm_hits", Desc: "FSM answers and last-block tries that had room", value: func(s PolicyStats) any { return s.FSMHits }},
	{Name: "last_block_tries", Desc: "tries of the relation's last block", value: func(s PolicyStats) any { return s.LastBlockTries }},
	{Name: "retries", Desc: "blocks that proved too full", value: func(s PolicyStats) any { return s.Retries }},
	{Name: "extensions", Desc: "relation extensions", value: func(s PolicyStats) any { return s.Extensions }},
	{Name: "blocks_extended", Desc: "pages the extensions added", value: func(s PolicyStats) any { return s.BlocksExtended }},
	{Name: "max_extend_by", Desc: "largest single extension", value: func(s PolicyStats) any { return s.MaxExtendBy }},
	{Name: "extend_rechecks", Desc: "extensions avoided by the FSM recheck", value: func(s PolicyStats) any { return s.ExtendRechecks }},
}

// derivedColumns come after every policy's own counters.
var derivedColumns = []StatColumn{
	{Name: "blocks_per_extension", Desc: "blocks_extended / extensions", Float: true,
		value: func(s PolicyStats) any { return s.BlocksPerExtension() }},
}

// StatColumns are minipg_stat_fsm's columns after relname and policy: the
// counters every policy keeps, then each registered policy's own (in
// policy name order, a name shared by two policies once), then the derived
// figures.
func StatColumns() []StatColumn {
	out := slices.Clone(commonColumns)
	seen := map[string]bool{}
	for _, c := range out {
		seen[c.Name] = true
	}
	registry.RLock()
	defer registry.RUnlock()
	for _, name := range sortedKeys(registry.m) {
		for _, c := range registry.m[name].Counters {
			if seen[c.Name] {
				continue
			}
			seen[c.Name] = true
			cn := c.Name
			out = append(out, StatColumn{Name: cn, Desc: c.Desc, value: func(s PolicyStats) any { return s.Own[cn] }})
		}
	}
	return append(out, derivedColumns...)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

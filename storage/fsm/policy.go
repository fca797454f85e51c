package fsm

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"minipg/pgerr"
	"minipg/storage/page"
)

// Request describes where one tuple (or one batch of a multi-insert) is to
// go. The heap fills it once per placement and passes the same value to
// every Policy call of that placement.
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
	// Bulk is set for COPY / multi-insert with a BulkInsertState.
	Bulk bool
	// NumPages is how many pages the caller expects to fill when it has to
	// extend (heap_multi_insert's num_pages); 0 means 1. Extension adds at
	// least this many pages.
	NumPages int
}

// TargetFreeSpace is the free space (as page.HeapFreeSpace reports it) a
// page must have to take this tuple: Need + SaveFree, except that a tuple
// too big to respect the fillfactor anywhere only asks for a nearly empty
// page (PostgreSQL 16's nearlyEmptyFreeSpace rule in
// RelationGetBufferForTuple). The heap uses it for its fit test, the policy
// for its FSM searches.
func (r Request) TargetFreeSpace() int {
	// A page with no tuples may still hold line pointers; treat it as empty
	// when the unusable space is small.
	const nearlyEmpty = MaxRequestSize - (page.MaxHeapTuplesPerPage/8)*page.ItemIDSize
	if r.Need+r.SaveFree > nearlyEmpty {
		return max(r.Need, nearlyEmpty)
	}
	return r.Need + r.SaveFree
}

func (r Request) numPages() int { return max(r.NumPages, 1) }

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
	// Name is the policy's fsm_policy value: "classic" or "locality".
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
}

// PolicyStats are a policy's decision counters.
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

	// The locality policy's decisions (zero for classic). Each "hits"
	// figure is the answers of that kind that had room.
	NearbyAnswers int64 // blocks found near the target or the old version's block
	NearbyHits    int64
	FarAnswers    int64 // blocks found anywhere in the FSM (nothing near had room)
	FarHits       int64
	FreshPages    int64 // whole fresh pages handed to a session (its run, the FSM's empty pages, extension)
	ClosedPages   int64 // pages closed: left at or past the reopen threshold and not advertised
	ReopenedPages int64 // closed pages VACUUM found below the threshold and advertised again
	ReservedPages int64 // pages now reserved for loading sessions and not yet handed out
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

// Tunable is implemented by a policy that has settings of its own (the
// locality policy's fsm_nearby_window and fsm_reopen_percent). SetOption
// returns a 22023 error for a bad value and ignores names it does not know.
type Tunable interface {
	SetOption(name, value string) error
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

// registry maps fsm_policy names to constructors.
var registry = struct {
	sync.RWMutex // protects m
	m            map[string]func() Policy
}{m: map[string]func() Policy{"classic": NewClassic}}

// RegisterPolicy makes a policy available to PolicyByName. It panics if the
// name is taken (a programming error).
func RegisterPolicy(name string, newPolicy func() Policy) {
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.m[name]; dup {
		panic("fsm: policy " + name + " registered twice")
	}
	registry.m[name] = newPolicy
}

// PolicyNames returns the registered policy names, sorted.
func PolicyNames() []string {
	registry.RLock()
	defer registry.RUnlock()
	names := make([]string, 0, len(registry.m))
	for n := range registry.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// PolicyByName returns a new policy value for an fsm_policy setting (matched
// case-insensitively, as PostgreSQL matches enum reloptions). An unknown name
// is a 22023 error worded like PostgreSQL's for a bad enum option.
func PolicyByName(name string) (Policy, error) {
	registry.RLock()
	f, ok := registry.m[strings.ToLower(name)]
	registry.RUnlock()
	if !ok {
		e := &pgerr.Error{
			Code:    ErrUnknownPolicy.Code,
			Message: fmt.Sprintf("invalid value for enum option %q: %s", "fsm_policy", name),
			Cause:   ErrUnknownPolicy,
		}
		return nil, e.WithDetail("Valid values are %s.", quotedList(PolicyNames()))
	}
	return f(), nil
}

// quotedList renders "a", "a" and "b", or "a", "b", and "c".
func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = `"` + n + `"`
	}
	switch len(q) {
	case 0:
		return "none"
	case 1:
		return q[0]
	case 2:
		return q[0] + " and " + q[1]
	}
	return strings.Join(q[:len(q)-1], ", ") + ", and " + q[len(q)-1]
}

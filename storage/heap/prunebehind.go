package heap

// Prune-behind: a page whose rows an UPDATE or DELETE changed is pruned in
// the background once its changes are dead to every transaction, while the
// page's last change is still later than the WAL's redo point. The prune's
// record then carries no full-page image: the change that made the
// versions dead logged the page already in this checkpoint cycle. The
// changes a page takes within a second of the first are gathered into one
// prune (and one reclaim), and a checkpoint has every page noted pruned
// before it moves the redo point (Flush).
//
// PostgreSQL prunes such a page when a reader next finds it short of space
// (heap_page_prune_opt) or when VACUUM reaches it. A page that no one reads
// again soon (an order's lines once Delivery has updated them, a queue
// page whose rows were deleted) is pruned by VACUUM, minutes and
// checkpoints later, and that prune logs the whole page once more. The
// pages the locality policy closes are exactly such pages: no insert comes
// back to them to prune them on the way.
//
// A page the prune would have to log in full (a checkpoint began since its
// last change), one not in the buffer pool, and one another backend holds
// locked when its turn comes are left alone: VACUUM and readers prune them
// as before. The setting is heap_prune_behind: auto (the default) turns
// the pruner on for the tables whose placement policy asks for it
// (fsm.PruneBehinder: locality), and leaves classic and append tables to
// prune as PostgreSQL does; on and off decide for every policy.

import (
	"sync"
	"sync/atomic"
	"time"

	"minipg/reloptions"
	"minipg/storage/buffer"
	"minipg/storage/fsm"
	"minipg/storage/page"
)

// PruneBehindParam is heap_prune_behind: a table option and server setting
// that gives the table's heap the engine's Pruner.
var PruneBehindParam = reloptions.Declare(reloptions.Param{
	Name:    "heap_prune_behind",
	Kind:    reloptions.Enum,
	Desc:    "Prunes pages soon after their rows are updated or deleted, while the pages are already in this checkpoint's WAL (auto: for the tables of policies that ask for it)",
	Default: "auto",
	Values:  func() []string { return []string{"auto", "on", "off"} },
	Table:   true,
	Setting: reloptions.UserSet,
	// SET heap_prune_behind = off before CREATE TABLE makes a table whose
	// pages stay as PostgreSQL leaves them until a reader or VACUUM prunes.
	SessionDefault: true,
})

// ReclaimBehindParam is heap_reclaim_behind: whether the pruner of a table
// pruned behind also makes the LP_DEAD line pointers its prunes leave
// unused at once, deleting their index entries (reclaimBehind), instead of
// leaving them to VACUUM. Off, the table's line pointers wait for VACUUM as
// they do in PostgreSQL.
var ReclaimBehindParam = reloptions.Declare(reloptions.Param{
	Name:           "heap_reclaim_behind",
	Kind:           reloptions.Bool,
	Desc:           "Frees the line pointers of the versions a prune behind removes at once, deleting their index entries, instead of in VACUUM's second heap pass",
	Default:        "on",
	Table:          true,
	Setting:        reloptions.UserSet,
	SessionDefault: true,
})

// PrunesBehind reports whether a table whose options and settings are src
// and whose placement policy is pol has its pages pruned behind its
// updates and deletes (heap_prune_behind; auto asks pol).
func PrunesBehind(src reloptions.Source, pol fsm.Policy) bool {
	switch PruneBehindParam.Get(src) {
	case "on":
		return true
	case "off":
		return false
	}
	pb, ok := pol.(fsm.PruneBehinder)
	return ok && pb.PruneBehind()
}

const (
	// pruneBehindTick is how often the pruner looks at its notes while it
	// has any.
	pruneBehindTick = 20 * time.Millisecond
	// pruneBehindGather is how long the note of a page with room waits
	// before the page is pruned: the changes that come to the page
	// meanwhile (a queue page's deletes, one after another) are pruned,
	// and their line pointers reclaimed, by one prune, one record each,
	// rather than one per change. A page short of space is pruned at the
	// next tick instead: a reader would prune it first (maybePrune),
	// leaving its LP_DEAD line pointers to VACUUM. A checkpoint does not
	// wait for either (Flush).
	pruneBehindGather = time.Second
	// pruneBehindMaxWaits is how many rounds a note waits for its
	// transaction to fall behind the horizon (or for its page to be
	// unlocked) before it is dropped.
	pruneBehindMaxWaits = 50
	// pruneBehindMaxNotes bounds the notes kept; more are dropped (VACUUM
	// prunes those pages as it would without the pruner).
	pruneBehindMaxNotes = 1 << 16
)

// Pruner prunes the pages of the relations opened with it (Options.Pruner)
// behind their updates and deletes. One Pruner serves a server; it runs one
// goroutine from NewPruner to Close.
type Pruner struct {
	o      Oracle
	h      Horizon       // o's horizon; nil: the pruner never prunes
	gather time.Duration // pruneBehindGather (tests: less)

	mu sync.Mutex
	// pending has a note per page changed since its last prune was
	// looked at; queue has them in the order they were first made, soon
	// the notes of pages short of space (a note may be in both; the first
	// to come takes it).
	pending map[pageKey]*pruneNote
	queue   []*pruneNote
	soon    []*pruneNote
	kick    chan struct{}      // a note arrived while none were pending
	flush   chan chan struct{} // Flush's requests
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
	passes  atomic.Uint64 // passes over the notes so far
	waiting atomic.Int64  // notes the last pass kept to try again
}

// pageKey is a page of a relation.
type pageKey struct {
	r   *Relation
	blk uint32
}

// pruneNote is one page changed by transactions up to xid, first at at.
type pruneNote struct {
	pageKey
	xid   uint32
	at    time.Time
	waits uint8
	soon  bool // in Pruner.soon
	taken bool // out of pending, in a pass
}

// NewPruner starts a pruner that judges versions dead with o, which must
// implement Horizon for anything to be pruned.
func NewPruner(o Oracle) *Pruner { return newPruner(o, pruneBehindGather) }

func newPruner(o Oracle, gather time.Duration) *Pruner {
	pr := &Pruner{o: o, gather: gather, pending: map[pageKey]*pruneNote{}, kick: make(chan struct{}, 1),
		flush: make(chan chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	pr.h, _ = o.(Horizon)
	go pr.run()
	return pr
}

// Close stops the pruner and waits for its goroutine; notes still pending
// are dropped. Safe to call more than once.
func (pr *Pruner) Close() {
	pr.once.Do(func() { close(pr.stop) })
	<-pr.done
}

// Flush prunes at once the pages of every note made so far, however
// recent, whose changes are dead to every transaction, and returns when it
// is done (at once after Close). A checkpoint calls it before it moves the
// redo point, past which those prunes would log their pages in full.
func (pr *Pruner) Flush() {
	reply := make(chan struct{})
	select {
	case pr.flush <- reply:
		<-reply
	case <-pr.done:
	}
}

// note records that xid changed a row on blk of r, and soon that the page
// is short of space (pruneSpaceLow): it is pruned at the next tick rather
// than after gathering. The caller may hold the page's content lock.
func (pr *Pruner) note(r *Relation, blk, xid uint32, soon bool) {
	k := pageKey{r, blk}
	pr.mu.Lock()
	n := len(pr.pending)
	nt, ok := pr.pending[k]
	switch {
	case ok:
		if XidPrecedes(nt.xid, xid) { // the same page again: wait for the later change
			nt.xid = xid
		}
	case n >= pruneBehindMaxNotes:
		r.stats.pruneBehindDropped.Add(1)
	default:
		nt = &pruneNote{pageKey: k, xid: xid, at: time.Now()}
		pr.pending[k] = nt
		pr.queue = append(pr.queue, nt)
	}
	if nt != nil && soon && !nt.soon {
		nt.soon = true
		pr.soon = append(pr.soon, nt)
	}
	pr.mu.Unlock()
	if n == 0 {
		select {
		case pr.kick <- struct{}{}:
		default:
		}
	}
}

func (pr *Pruner) run() {
	defer close(pr.done)
	var work, retry []pruneNote
	tick := time.NewTicker(pruneBehindTick)
	defer tick.Stop()
	for {
		var reply chan struct{}
		select {
		case <-pr.stop:
			return
		case <-pr.kick:
		case reply = <-pr.flush:
		}
		for {
			if reply == nil {
				select {
				case <-pr.stop:
					return
				case <-tick.C:
				case reply = <-pr.flush:
				}
			}
			var left int
			work, left = pr.take(work[:0], reply != nil)
			if len(work) > 0 || len(retry) > 0 {
				retry = pr.pass(work, retry)
				pr.waiting.Store(int64(len(retry)))
			}
			if reply != nil {
				close(reply)
				reply = nil
			}
			if len(work) == 0 && len(retry) == 0 && left == 0 {
				break
			}
		}
	}
}

// take appends to work the notes of pages short of space and those that
// have gathered long enough (all of them when all), removing them from
// pending, and returns it with how many notes are left pending.
func (pr *Pruner) take(work []pruneNote, all bool) ([]pruneNote, int) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	now := time.Now()
	next := func(q []*pruneNote, ready func(*pruneNote) bool) []*pruneNote {
		i := 0
		for ; i < len(q) && ready(q[i]); i++ {
			if nt := q[i]; !nt.taken {
				nt.taken = true
				delete(pr.pending, nt.pageKey)
				work = append(work, *nt)
			}
			q[i] = nil
		}
		if i == len(q) {
			return nil // let the array go
		}
		return q[i:]
	}
	pr.soon = next(pr.soon, func(*pruneNote) bool { return true })
	pr.queue = next(pr.queue, func(nt *pruneNote) bool { return all || nt.taken || now.Sub(nt.at) >= pr.gather })
	return work, len(pr.pending)
}

// pass prunes what it can of work and of the notes retried from the last
// pass, and returns the notes to try again.
func (pr *Pruner) pass(work, retry []pruneNote) []pruneNote {
	defer pr.passes.Add(1)
	if pr.h == nil {
		return retry[:0]
	}
	horizon := pr.h.OldestXmin()
	next := retry[:0]
	for _, list := range [][]pruneNote{retry, work} {
		for _, n := range list {
			if XidPrecedes(n.xid, horizon) && pr.prune(n, horizon) {
				continue
			}
			if n.waits++; n.waits < pruneBehindMaxWaits {
				next = append(next, n)
			} else {
				n.r.stats.pruneBehindDropped.Add(1)
			}
		}
	}
	return next
}

// prune prunes n's page with the pass's horizon if it is in the pool,
// unlocked and changed since the redo point; it reports false when the
// page was locked, so that the note is tried again.
func (pr *Pruner) prune(n pruneNote, horizon uint32) bool {
	r := n.r
	r.retire.RLock()
	defer r.retire.RUnlock()
	if r.retired {
		return true
	}
	buf := r.pool.ResidentBuffer(r.rel, buffer.MainFork, n.blk)
	if buf == nil {
		return true
	}
	defer buf.Release()
	if !buf.TryLock() {
		return false
	}
	dead, release := pr.pruneIfLogged(r, buf, horizon)
	buf.Unlock()
	if release != nil {
		defer release()
	}
	switch {
	case len(dead) == 0:
	case release == nil:
		r.stats.reclaimRefused.Add(1)
	default:
		// Index entries are deleted with no heap page locked, as every
		// index access is made (an index page's lock comes first).
		r.reclaimBehind(buf, dead)
	}
	return true
}

// pruneIfLogged prunes the exclusively locked page of buf if it has
// versions dead by horizon and pruning would log no image, and returns
// the versions it left LP_DEAD line pointers for when r reclaims them,
// with the release of what Reclaimer.Begin took before the prune (nil:
// nothing taken, or refused).
func (pr *Pruner) pruneIfLogged(r *Relation, buf *buffer.Buffer, horizon uint32) (dead []DeadVersion, release func()) {
	p := buf.Page()
	if px := page.PruneXid(p); page.IsNew(p) || px == InvalidXid || !XidPrecedes(px, horizon) {
		return nil, nil
	}
	if r.wal != nil && r.wal.NeedsFPI(page.LSN(p)) {
		r.stats.pruneBehindImage.Add(1)
		return nil, nil
	}
	var keep *[]DeadVersion
	if r.reclaim != nil {
		keep = &dead
		// VACUUM is kept off the table from before the prune to after
		// the reclaim.
		release, _ = r.reclaim.Begin()
	}
	if r.pruneAt(buf, horizon, pr.o, nil, keep) {
		r.stats.prunedBehind.Add(1)
	}
	return dead, release
}

// DeadVersion is a row version a prune removed, leaving its root line
// pointer LP_DEAD: the TID index entries point at and a copy of the
// version (whose indexed columns are those of every entry for the TID).
type DeadVersion struct {
	TID   page.TID
	Tuple []byte
}

// A Reclaimer deletes the index entries of dead versions, so that their
// line pointers can be made unused without waiting for VACUUM
// (Options.Reclaim). Both are called from the Pruner's goroutine.
type Reclaimer struct {
	// Begin is called before a prune whose LP_DEAD line pointers are to
	// be reclaimed, holding the page's exclusive content lock: it must
	// not wait. It refuses (ok false) while a VACUUM of the table runs,
	// and else keeps any VACUUM of the table from starting until release: a VACUUM that ran between the prune and the deletion of
	// the entries could free a line pointer, and a new row with the same
	// key take it, whose entry the deletion would then remove.
	Begin func() (release func(), ok bool)
	// Delete deletes every index entry pointing at the TID of each of
	// dead, whose indexed columns are those of its tuple, and returns the
	// TIDs whose entries are all gone. It is called between Begin and its
	// release, holding a buffer pin and no content lock.
	Delete func(dead []DeadVersion) (gone []page.TID)
}

// reclaimBehind is the second half of a prune behind: the LP_DEAD line
// pointers it left become LP_UNUSED at once, while the page is still in
// this checkpoint's WAL, instead of in VACUUM's second heap pass, whose
// record logs the page in full once a checkpoint has passed (it nearly
// always has by the time VACUUM comes back to a table). r.reclaim deletes
// the index entries of dead; then the line pointers whose entries are gone
// are freed and logged as VACUUM's second pass logs them. A page a
// checkpoint has begun to need in full since the prune is left: its line
// pointers stay LP_DEAD, without index entries, and VACUUM frees them as
// before. The caller holds buf's pin, r.retire shared and what
// Reclaimer.Begin took, and no content lock.
func (r *Relation) reclaimBehind(buf *buffer.Buffer, dead []DeadVersion) {
	gone := r.reclaim.Delete(dead)
	if len(gone) == 0 {
		return
	}
	// Waiting for the page is safe here: its holders take no table lock,
	// vacuum slot or index lock after a heap page's lock.
	buf.Lock()
	defer buf.Unlock()
	if r.wal != nil && r.wal.NeedsFPI(page.LSN(buf.Page())) {
		r.stats.reclaimRefused.Add(1)
		return
	}
	offs := make([]uint16, len(gone))
	for i, t := range gone {
		offs[i] = t.Offset
	}
	n := r.setDeadUnused(buf, offs)
	r.stats.reclaimedBehind.Add(int64(n))
	if r.onPrune != nil && n > 0 {
		r.onPrune(n) // no longer dead tuples for autovacuum to come for
	}
}

// Retire stops the pruner from touching r's pages, waiting for a prune in
// progress: DROP TABLE and TRUNCATE call it before they log the drop of the
// relation's files, so that no prune record follows the drop in the WAL.
func (r *Relation) Retire() {
	r.retire.Lock()
	r.retired = true
	r.retire.Unlock()
}

// notePrunable tells r's pruner, if it has one, that xid changed a row on
// blk, and whether the page is short of space (pruneSpaceLow), so that a
// reader would prune it before the pruner's gathering ends.
func (r *Relation) notePrunable(blk, xid uint32, short bool) {
	if r.pruner != nil {
		r.pruner.note(r, blk, xid, short)
	}
}

package heap

import (
	"fmt"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// walKind names the heap change a page modification belongs to; it decides
// the WAL record type (walrecords.go).
type walKind uint8

const (
	walInsert      walKind = iota + 1 // XLOG_HEAP_INSERT (offs: the new tuple)
	walMultiInsert                    // XLOG_HEAP2_MULTI_INSERT (offs: the new tuples)
	walUpdate                         // XLOG_HEAP_UPDATE, new version on another page (offs: old, new)
	walSameUpdate                     // XLOG_HEAP_(HOT_)UPDATE on one page (offs: old, new)
	walDelete                         // XLOG_HEAP_DELETE (offs: the tuple)
	walLock                           // XLOG_HEAP_LOCK (offs: the tuple)
	walPrune                          // XLOG_HEAP2_PRUNE (derived from the page)
	walVacuum                         // XLOG_HEAP2_VACUUM (derived from the page)
	walInitPage                       // a new page initialized by the insert path
	walConfirm                        // XLOG_HEAP_CONFIRM (offs: the speculatively inserted tuple)
	walSuperDelete                    // XLOG_HEAP_DELETE with XLH_DELETE_IS_SUPER (offs: the tuple)
)

var walKindNames = [...]string{"", "insert", "multi-insert", "update", "same-page update", "delete", "lock", "prune", "vacuum", "init",
	"confirm", "super-delete"}

func (k walKind) String() string {
	if int(k) < len(walKindNames) {
		return walKindNames[k]
	}
	return fmt.Sprintf("walKind(%d)", k)
}

// clearsAllVisible reports whether a change of kind may leave a tuple that
// not every transaction sees, so that the page loses PD_ALL_VISIBLE and
// its visibility map bit (a lock, a prune and a vacuum do not).
func (k walKind) clearsAllVisible() bool {
	switch k {
	case walLock, walPrune, walVacuum, walConfirm:
		return false
	}
	return true
}

// logChange is the one place where a heap page change is finished: every
// operation calls it exactly once per change, while it still holds the
// exclusive content lock on b1 (and b2, the second page of an update, or
// nil), after the page bytes are final. It marks the buffers dirty, logs the
// change when the relation has a WAL (XLogInsert with a full-page image of
// each page on its first change after the checkpoint's redo point, decided
// by wal.Insert) and sets pd_lsn of b1 and b2 to the record's end LSN before
// the caller releases the locks. With the invariants build tag it verifies
// the pages.
//
// offs are the line pointers the change is about, as listed on each kind
// (update: the old version's offset on b1, then the new version's on b2 or
// b1); prune and vacuum records need the plan (logChangeX). A change
// logChange cannot describe (an unknown kind, offsets missing) is logged as
// forced full-page images, which is always correct, only bigger.
//
// A page turned from clean to dirty is counted in u (nil: not counted).
// Hint-bit changes do not come here (MarkBufferDirtyHint, not WAL-logged).
func (r *Relation) logChange(u *buffer.Usage, kind walKind, b1, b2 *buffer.Buffer, offs ...uint16) {
	r.logChangeX(u, kind, b1, b2, nil, offs...)
}

// walExtra is what a change's record needs beyond the pages and offsets.
type walExtra struct {
	lastInMulti      bool       // multi-insert: the last page of the call
	plan             *prunePlan // prune: the plan carried out; vacuum: nowUnused, the offsets freed
	latestRemovedXid uint32     // prune: the newest xmax of the versions removed
	speculative      bool       // insert: a speculative insertion (XLH_INSERT_IS_SPECULATIVE)
	xid              uint32     // super-delete: the inserting transaction (the tuple's xmin is gone)
}

// logChangeX is logChange for the kinds whose record needs x: prune and
// vacuum (the plan), multi-insert (whether it is the last page), a
// speculative insert and a super-delete.
func (r *Relation) logChangeX(u *buffer.Usage, kind walKind, b1, b2 *buffer.Buffer, x *walExtra, offs ...uint16) {
	var cleared visibleCleared
	if kind.clearsAllVisible() {
		if r.clearAllVisible(b1) {
			cleared |= clearedFirst
		}
		if b2 != nil && b2 != b1 && r.clearAllVisible(b2) {
			cleared |= clearedSecond
		}
	}
	b1.MarkDirtyUsage(u)
	if b2 != nil && b2 != b1 {
		b2.MarkDirtyUsage(u)
	}
	if r.wal != nil {
		r.writeWAL(kind, b1, b2, x, offs, cleared)
	}
	if invariants {
		r.assertPage(b1, kind)
		if b2 != nil && b2 != b1 {
			r.assertPage(b2, kind)
		}
	}
}

// assertPage panics if the locked page of b is inconsistent (invariants
// builds only): an operation broke the page. Changes that only append a
// tuple or rewrite header fields get the cheap header check plus a full
// check every 32nd line pointer; the others a full check.
func (r *Relation) assertPage(b *buffer.Buffer, kind walKind) {
	p := b.Page()
	var err error
	switch kind {
	case walInsert, walMultiInsert, walLock, walDelete, walConfirm, walSuperDelete:
		lower, upper, special := page.Lower(p), page.Upper(p), page.Special(p)
		if lower < page.HeaderSize || lower > upper || upper > special || special != page.BlockSize {
			err = errCorrupt(b.Block(), "bad page bounds: pd_lower %d, pd_upper %d, pd_special %d", lower, upper, special)
		} else if page.MaxOffset(p)%32 == 0 {
			err = r.checkPage(p, b.Block(), page.InvalidBlock)
		}
	default:
		err = r.checkPage(p, b.Block(), page.InvalidBlock)
	}
	if err != nil {
		panic(fmt.Sprintf("heap: %s left block %d of relation %d inconsistent: %v", kind, b.Block(), r.rel, err))
	}
}

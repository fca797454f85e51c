package heap

import (
	"fmt"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// walKind names the heap change a page modification belongs to; it becomes
// the WAL record type (XLOG_HEAP_*) once storage/wal exists.
type walKind uint8

const (
	walInsert      walKind = iota + 1 // XLOG_HEAP_INSERT
	walMultiInsert                    // XLOG_HEAP2_MULTI_INSERT
	walUpdate                         // XLOG_HEAP_UPDATE (new version on another page)
	walSameUpdate                     // XLOG_HEAP_UPDATE with old and new on one page
	walDelete                         // XLOG_HEAP_DELETE
	walLock                           // XLOG_HEAP_LOCK
	walPrune                          // XLOG_HEAP2_PRUNE
	walVacuum                         // XLOG_HEAP2_VACUUM
	walInitPage                       // a new page initialized by the insert path
)

var walKindNames = [...]string{"", "insert", "multi-insert", "update", "same-page update", "delete", "lock", "prune", "vacuum", "init"}

func (k walKind) String() string {
	if int(k) < len(walKindNames) {
		return walKindNames[k]
	}
	return fmt.Sprintf("walKind(%d)", k)
}

// logChange is the one place where a heap page change is finished: every
// operation calls it exactly once per change, while it still holds the
// exclusive content lock on b1 (and b2, the second page of an update, or
// nil), after the page bytes are final. It marks the buffers dirty and, with
// the invariants build tag, verifies the pages.
//
// TODO(wal): build the record for kind here (XLogInsert, with a full-page
// image of each page on its first change after the checkpoint's redo point)
// and set pd_lsn on b1 and b2 to its end LSN before the locks are released.
// Hint-bit changes do not come here (MarkBufferDirtyHint, not WAL-logged).
func (r *Relation) logChange(kind walKind, b1, b2 *buffer.Buffer) {
	b1.MarkDirty()
	if b2 != nil && b2 != b1 {
		b2.MarkDirty()
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
	case walInsert, walMultiInsert, walLock, walDelete:
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

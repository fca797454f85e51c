package nbtree

// LP_DEAD hints (nbtree README, "kill_prior_tuple"; nbtutils.c's
// _bt_killitems, nbtinsert.c's simple deletion): a scan whose caller found
// an entry's heap tuples dead to every transaction remembers it
// (Iterator.DeleteLast), and when the scan leaves the leaf, ends or is
// closed, it marks those items LP_DEAD on the page, if the page has not
// changed since it was read. Scans skip LP_DEAD items without returning
// them; a unique check does not count them as conflicts. Before a leaf
// splits, its LP_DEAD items are deleted (one DELETE record, as
// _bt_delete_or_dedup_one_page's simple deletion pass) and the insertion
// is tried on the page again; VACUUM removes them with the entries it is
// given.
//
// Setting LP_DEAD is a hint: not WAL-logged, no full-page image (minipg
// computes no page checksums and has no wal_log_hints), the buffer marked
// dirty as the heap's hint bits are (MarkBufferDirtyHint). A crash may
// lose it; the next scan that finds the tuples dead sets it again. As the
// heap does for its hint bits, the item is marked under the page's
// exclusive lock (PostgreSQL marks it under a share lock, which Go's
// memory model does not allow beside concurrent readers of the same
// bytes). BTP_HAS_GARBAGE is set with it and cleared when the page's
// items are deleted, as in PostgreSQL 15.
//
// Why the page is checked: the scan holds no pin between pages, so between
// its read and the marking VACUUM could remove the entry, let the heap
// reuse its line pointer and an insertion add the same key with the same
// TID, byte for byte the same entry, now for a live row. If the page's
// LSN is the one the scan read, nothing changed on it, and the items are
// at the offsets the scan saw (PostgreSQL's _bt_killitems compares the
// LSN when it dropped its pin). If the LSN moved (an insertion, a split,
// a deletion), the entries are looked for on the page by their bytes, but
// only if no VACUUM pass (DeleteTIDs) over the index, and no DeleteFreeing,
// ran at any time since the scan read the page: only those remove an entry
// whose TID the heap may then reuse (the heap frees a line pointer an index
// entry may name only after every index's pass, or after the heap's reclaim
// behind a prune deleted every entry of it with DeleteFreeing; other single
// deletions and LP_DEAD deletions remove entries whose TIDs stay dead until
// then). PostgreSQL
// searches by heap TID while its pin keeps VACUUM out. An entry that moved
// to another page (a split) is not marked. An index without WAL (tests)
// has no LSN to compare: its scans mark nothing.

import (
	"bytes"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// itemDead is ItemIdIsDead.
func itemDead(p page.Page, off uint16) bool {
	_, flags, _ := page.ItemID(p, off)
	return flags == page.LPDead
}

// markItemDead is ItemIdMarkDead: the item keeps its storage.
func markItemDead(p page.Page, off uint16) {
	lpOff, _, lpLen := page.ItemID(p, off)
	page.SetItemID(p, off, lpOff, page.LPDead, lpLen)
}

// deadItems returns the offsets of leaf p's LP_DEAD data items, ascending.
func deadItems(p page.Page) []uint16 {
	var out []uint16
	for off := firstData(p); off <= page.MaxOffset(p); off++ {
		if itemDead(p, off) {
			out = append(out, off)
		}
	}
	return out
}

// killed is an entry a scan found dead: its offset on the page the scan
// read and the entry itself.
type killed struct {
	off   uint16
	entry []byte
}

// DeleteLast remembers the entry Next returned last as dead to every
// transaction (kill_prior_tuple): the caller found no heap tuple of its
// chain that any transaction can still see. The scan marks it LP_DEAD when
// it leaves the entry's page (or ends, or is closed), so that later scans
// skip it; it does not wait for a lock and may run under a heap page's
// lock.
func (it *Iterator) DeleteLast() {
	if it.cur == nil || it.pos == 0 || it.pos > len(it.offs) || it.ix.wal == nil {
		return
	}
	off := it.offs[it.pos-1]
	if n := len(it.kills); n > 0 && it.kills[n-1].off == off {
		return
	}
	it.kills = append(it.kills, killed{off: off, entry: it.cur})
}

// Close ends the scan: the entries DeleteLast remembered on the current
// page are marked. Next returns nothing after it.
func (it *Iterator) Close() {
	it.applyKills()
	it.done, it.buf, it.offs, it.pos, it.cur = true, nil, nil, 0, nil
}

// applyKills marks the remembered entries LP_DEAD on the page the scan read
// them from (_bt_killitems), at the offsets the scan saw if the page's LSN
// is unchanged, else where they are now if no VACUUM pass ran meanwhile,
// and forgets them. It locks the page exclusively and holds no other lock.
// Failures are not the scan's: the hint is simply not set.
func (it *Iterator) applyKills() {
	if len(it.kills) == 0 {
		return
	}
	kills := it.kills
	it.kills = it.kills[:0]
	b, err := it.ix.getBuf(it.blk, true)
	if err != nil {
		return
	}
	defer relBuf(b, true)
	p := b.Page()
	same := page.LSN(p) == it.lsn
	if !same && (it.passes%2 == 1 || it.ix.st.passes.Load() != it.passes) {
		return
	}
	if !isLeaf(p) || isIgnored(p) {
		return
	}
	marked := false
	for _, k := range kills {
		off := k.off
		if !same {
			off = leafSearch(p, k.entry, false)
		}
		if off > page.MaxOffset(p) || off < firstData(p) || itemDead(p, off) || !bytes.Equal(page.Item(p, off), k.entry) {
			continue
		}
		markItemDead(p, off)
		marked = true
	}
	if marked {
		setFlags(p, btFlags(p)|flagHasGarbage)
		b.MarkDirty() // a hint: no WAL record, pd_lsn unchanged
	}
}

// deleteDead removes the LP_DEAD items of the exclusively locked leaf b
// (_bt_simpledel_pass) with one DELETE record, and reports whether there
// were any. The items are dead to every transaction, so no snapshot can
// need them; minipg has no standby to tell (PostgreSQL's record carries
// the newest xid removed, for recovery conflicts).
func (ix *Index) deleteDead(b *buffer.Buffer) bool {
	offs := deadItems(b.Page())
	if len(offs) == 0 {
		return false
	}
	ix.deleteItems(b, offs, xlDelete)
	return true
}

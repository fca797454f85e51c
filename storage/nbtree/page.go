package nbtree

// Page layout: the special area (BTPageOpaqueData), the metapage
// (BTMetaPageData), pivot tuples, and the page-level searches. Pure
// functions on page images; the caller holds the buffer's content lock.

import (
	"bytes"
	"encoding/binary"

	"minipg/storage/page"
)

// Special area (BTPageOpaqueData), 16 bytes at pd_special, little-endian:
//
//	0          4          8           12         14          16
//	+----------+----------+-----------+----------+-----------+
//	| btpo_prev| btpo_next| btpo_level| btpo_flags| btpo_cycleid|
//	| u32      | u32      | u32       | u16      | u16       |
//	+----------+----------+-----------+----------+-----------+
const specialSize = 16

// pNone is P_NONE: no sibling. Block 0 is the metapage, so no page links to it.
const pNone uint32 = 0

// metaBlock is BTREE_METAPAGE.
const metaBlock uint32 = 0

// btpo_flags bits, as nbtree.h numbers them.
const (
	flagLeaf            uint16 = 1 << 0 // BTP_LEAF
	flagRoot            uint16 = 1 << 1 // BTP_ROOT
	flagDeleted         uint16 = 1 << 2 // BTP_DELETED: unlinked, btpo_level holds its safexid (pagedel.go)
	flagMeta            uint16 = 1 << 3 // BTP_META
	flagHalfDead        uint16 = 1 << 4 // BTP_HALF_DEAD: empty leaf without downlink, to be unlinked
	flagHasGarbage      uint16 = 1 << 6 // BTP_HAS_GARBAGE: a leaf with LP_DEAD items (a hint, killitems.go)
	flagIncompleteSplit uint16 = 1 << 7 // BTP_INCOMPLETE_SPLIT: the right sibling has no downlink yet
)

func special(p page.Page) []byte { return p[page.Special(p):] }

func btPrev(p page.Page) uint32      { return binary.LittleEndian.Uint32(special(p)) }
func btNext(p page.Page) uint32      { return binary.LittleEndian.Uint32(special(p)[4:]) }
func btLevel(p page.Page) uint32     { return binary.LittleEndian.Uint32(special(p)[8:]) }
func btFlags(p page.Page) uint16     { return binary.LittleEndian.Uint16(special(p)[12:]) }
func setPrev(p page.Page, v uint32)  { binary.LittleEndian.PutUint32(special(p), v) }
func setNext(p page.Page, v uint32)  { binary.LittleEndian.PutUint32(special(p)[4:], v) }
func setLevel(p page.Page, v uint32) { binary.LittleEndian.PutUint32(special(p)[8:], v) }
func setFlags(p page.Page, v uint16) { binary.LittleEndian.PutUint16(special(p)[12:], v) }
func btCycle(p page.Page) uint16     { return binary.LittleEndian.Uint16(special(p)[14:]) }
func setCycle(p page.Page, v uint16) { binary.LittleEndian.PutUint16(special(p)[14:], v) }

func isLeaf(p page.Page) bool      { return btFlags(p)&flagLeaf != 0 }
func isRightmost(p page.Page) bool { return btNext(p) == pNone }
func isIgnored(p page.Page) bool   { return btFlags(p)&(flagDeleted|flagHalfDead) != 0 }

// hasSpecial reports whether p's special area is a btree one (a damaged or
// foreign page is refused before its opaque data is read).
func hasSpecial(p page.Page) bool {
	return !page.IsNew(p) && page.Special(p) == page.BlockSize-specialSize
}

// firstData is P_FIRSTDATAKEY: on a page that is not rightmost offset 1
// holds the high key and data items start at 2.
func firstData(p page.Page) uint16 {
	if isRightmost(p) {
		return page.FirstOffset
	}
	return page.FirstOffset + 1
}

// initPage formats p as an empty btree page.
func initPage(p page.Page, level uint32, flags uint16, prev, next uint32) {
	page.Init(p, specialSize)
	setPrev(p, prev)
	setNext(p, next)
	setLevel(p, level)
	setFlags(p, flags)
}

// A pivot tuple (every item of an internal page, and the high key of any
// page) is a downlink and a separator:
//
//	0          4
//	+----------+--------------------------------+
//	| downlink | separator (0..n bytes)          |
//	| u32 LE   | a prefix of an entry, compared  |
//	|          | byte-wise with entries          |
//	+----------+--------------------------------+
//
// A high key's downlink is InvalidBlock. The first data item of an
// internal page has an empty separator: it stands for minus infinity (its
// real lower bound is the page's). A leaf data item is an entry as it is:
// the key's encoding followed by the heap TID.
const pivotHeader = 4

func makePivot(down uint32, sep []byte) []byte {
	t := make([]byte, pivotHeader+len(sep))
	binary.LittleEndian.PutUint32(t, down)
	copy(t[pivotHeader:], sep)
	return t
}

func downlink(t []byte) uint32 { return binary.LittleEndian.Uint32(t) }
func pivotKey(t []byte) []byte { return t[pivotHeader:] }

// highKey returns the high key's separator, nil on a rightmost page.
func highKey(p page.Page) []byte {
	if isRightmost(p) {
		return nil
	}
	t := page.Item(p, page.FirstOffset)
	if len(t) < pivotHeader {
		return nil
	}
	return pivotKey(t)
}

// itemKey returns the bytes item off is ordered by: the entry on a leaf,
// the separator on an internal page.
func itemKey(p page.Page, leaf bool, off uint16) []byte {
	t := page.Item(p, off)
	if leaf || len(t) < pivotHeader {
		return t
	}
	return pivotKey(t)
}

// beyondHighKey reports whether key lies right of p's key space: key >= the
// high key (strict: key > the high key). A rightmost page holds everything.
func beyondHighKey(p page.Page, key []byte, strict bool) bool {
	if isRightmost(p) {
		return false
	}
	c := bytes.Compare(key, highKey(p))
	return c > 0 || (c == 0 && !strict)
}

// leafSearch returns the first data offset on leaf p whose entry is >= key
// (> key when strict), or MaxOffset+1.
func leafSearch(p page.Page, key []byte, strict bool) uint16 {
	lo, hi := firstData(p), page.MaxOffset(p)+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		c := bytes.Compare(page.Item(p, mid), key)
		if c < 0 || (c == 0 && strict) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// childSearch returns the offset of the downlink to follow on internal page
// p for key: the last item whose separator is <= key (< key when strict).
// The first data item counts as minus infinity.
func childSearch(p page.Page, key []byte, strict bool) uint16 {
	first := firstData(p)
	lo, hi := first+1, page.MaxOffset(p)+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		c := bytes.Compare(pivotKey(page.Item(p, mid)), key)
		if c < 0 || (c == 0 && !strict) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo - 1
}

// itemSize is the space an item takes on a page: its MAXALIGNed length and
// its line pointer.
func itemSize(n int) int { return page.MaxAlignLen(n) + page.ItemIDSize }

// usedSpace is the space taken by line pointers and items.
func usedSpace(p page.Page) int {
	return page.Lower(p) - page.HeaderSize + page.Special(p) - page.Upper(p)
}

// pageItems returns copies of p's items from offset from on.
func pageItems(p page.Page, from uint16) [][]byte {
	n := page.MaxOffset(p)
	out := make([][]byte, 0, max(int(n)-int(from)+1, 0))
	for off := from; off <= n; off++ {
		out = append(out, bytes.Clone(page.Item(p, off)))
	}
	return out
}

// rebuildPage rewrites p with the same special area and pd_lsn but holding
// exactly items (high key first, if any), packed from the end. It is how
// items are deleted (PageIndexMultiDelete's effect) and how a split's left
// half is written.
func rebuildPage(p page.Page, items [][]byte) {
	var tmp [page.BlockSize]byte
	q := page.Page(tmp[:])
	lsn := page.LSN(p)
	var sp [specialSize]byte
	copy(sp[:], special(p))
	page.Init(q, specialSize)
	copy(special(q), sp[:])
	for _, it := range items {
		if page.AddItem(q, it, page.InvalidOffset, false, false) == page.InvalidOffset {
			panic("nbtree: rebuildPage: items do not fit on a page")
		}
	}
	page.SetLSN(q, lsn)
	copy(p, q)
}

// Metapage (BTMetaPageData) at the start of block 0's contents (offset
// 24, MAXALIGN(SizeOfPageHeaderData)), little-endian; pd_lower points past
// it, so that a full-page image leaves out the rest of the page:
//
//	24        28          32       36        40          44          48                52    56                      64     65
//	+---------+-----------+--------+---------+-----------+-----------+-----------------+-----+-----------------------+------+
//	| magic   | version   | root   | level   | fastroot  | fastlevel | last_cleanup_   | pad | last_cleanup_num_     | all- |
//	| 0x053162| 4         | u32    | u32     | u32       | u32       | num_delpages u32|     | heap_tuples f64       | equal|
//	+---------+-----------+--------+---------+-----------+-----------+-----------------+-----+-----------------------+------+
//
// minipg keeps fastroot = root (no fast root yet).
const (
	metaMagic   = 0x053162 // BTREE_MAGIC
	metaVersion = 4        // BTREE_VERSION
	metaOff     = page.HeaderSize
	metaSize    = 41
)

// meta is the metapage's content.
type meta struct {
	root, level uint32
}

func initMetaPage(p page.Page, m meta) {
	initPage(p, 0, flagMeta, pNone, pNone)
	putMeta(p, m)
}

func putMeta(p page.Page, m meta) {
	d := p[metaOff:]
	binary.LittleEndian.PutUint32(d[0:], metaMagic)
	binary.LittleEndian.PutUint32(d[4:], metaVersion)
	binary.LittleEndian.PutUint32(d[8:], m.root)
	binary.LittleEndian.PutUint32(d[12:], m.level)
	binary.LittleEndian.PutUint32(d[16:], m.root)
	binary.LittleEndian.PutUint32(d[20:], m.level)
	d[40] = 1                                                       // btm_allequalimage: entries are compared as bytes
	binary.LittleEndian.PutUint16(p[12:], uint16(metaOff+metaSize)) // pd_lower
}

// readMeta decodes the metapage; ok is false if p is not one.
func readMeta(p page.Page) (meta, bool) {
	if !hasSpecial(p) || btFlags(p)&flagMeta == 0 {
		return meta{}, false
	}
	d := p[metaOff:]
	if binary.LittleEndian.Uint32(d) != metaMagic || binary.LittleEndian.Uint32(d[4:]) != metaVersion {
		return meta{}, false
	}
	return meta{root: binary.LittleEndian.Uint32(d[8:]), level: binary.LittleEndian.Uint32(d[12:])}, true
}

// separator returns the shortest prefix of right that is greater than left
// (suffix truncation: left < separator <= right). left < right.
func separator(left, right []byte) []byte {
	i := 0
	for i < len(left) && i < len(right) && left[i] == right[i] {
		i++
	}
	return bytes.Clone(right[:min(i+1, len(right))])
}

package nbtree

// Page decoding for pageinspect's bt_page_items (executor/pageinspect_btree.go).

import (
	"minipg/pgerr"
	"minipg/storage/page"
)

// PageItem is one item of an index page as bt_page_items shows it.
type PageItem struct {
	Offset uint16
	Len    int  // lp_len
	Dead   bool // LP_DEAD (only ever set on a leaf entry)
	// Pivot: a high key or an internal page's item (a downlink and a
	// separator); otherwise a leaf entry.
	Pivot bool
	Down  uint32 // a pivot's downlink (InvalidBlock for a high key)
	// Key is a leaf entry's key encoding (the entry without its TID) or
	// a pivot's separator (possibly cut inside a TID).
	Key []byte
	TID page.TID // a leaf entry's heap TID
}

// PageItems decodes the items of an index page image (a copy: the caller
// holds no lock). It refuses the metapage and pages that are not btree
// pages, as bt_page_items does.
func PageItems(raw []byte) ([]PageItem, error) {
	p := page.Page(raw)
	if len(p) != page.BlockSize || !hasSpecial(p) || page.Verify(p) != nil {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "input page is not a valid btree page")
	}
	if btFlags(p)&flagMeta != 0 {
		return nil, ErrMetaPage
	}
	leaf := isLeaf(p)
	var out []PageItem
	for off := page.FirstOffset; off <= page.MaxOffset(p); off++ {
		t := page.Item(p, off)
		if t == nil {
			continue
		}
		it := PageItem{Offset: off, Len: len(t), Dead: itemDead(p, off)}
		switch {
		case (!leaf || off < firstData(p)) && len(t) >= pivotHeader:
			it.Pivot, it.Down, it.Key = true, downlink(t), pivotKey(t)
		case leaf && len(t) > tidLen:
			it.Key, it.TID = t[:len(t)-tidLen], entryTID(t)
		default:
			it.Key = t
		}
		out = append(out, it)
	}
	return out, nil
}

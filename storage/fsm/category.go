package fsm

import "minipg/storage/page"

// Free space is stored as a 1-byte category per heap block, as in
// PostgreSQL's freespace.c:
//
//	Range     Category
//	0    - 31   0
//	32   - 63   1
//	...    ...  ...
//	8096 - 8127 253
//	8128 - 8159 254
//	8160 - 8191 255
//
// Category 255 is special: it means "at least MaxRequestSize bytes", so that a
// request for exactly MaxRequestSize (the largest tuple that fits on an empty
// page) can be satisfied by a page that has room for it, even though its
// free space does not reach 255*32+31. Categories are rounded down when
// recording and requests are rounded up when searching, so a page found by a
// search has at least the requested space as far as the map knows.
const (
	// Categories is FSM_CATEGORIES.
	Categories = 256
	// CategoryStep is FSM_CAT_STEP: bytes per category.
	CategoryStep = page.BlockSize / Categories
	// MaxRequestSize is MaxFSMRequestSize, equal to MaxHeapTupleSize:
	// BLCKSZ - MAXALIGN(SizeOfPageHeaderData + sizeof(ItemIdData)) = 8160.
	MaxRequestSize = page.BlockSize - (page.HeaderSize+page.ItemIDSize+page.MaxAlign-1)&^(page.MaxAlign-1)
	// EmptyPageFree is what relation extension records for a new page
	// (BLCKSZ - SizeOfPageHeaderData, as PostgreSQL 16's RelationAddBlocks).
	EmptyPageFree = page.BlockSize - page.HeaderSize
)

// AvailToCategory is fsm_space_avail_to_cat: the category to record for a
// page with avail free bytes (rounded down; 255 from MaxRequestSize up).
func AvailToCategory(avail int) uint8 {
	if avail < 0 {
		return 0
	}
	if avail >= MaxRequestSize {
		return 255
	}
	cat := avail / CategoryStep
	// The highest category, 255, is reserved for MaxRequestSize bytes or
	// more.
	if cat > 254 {
		cat = 254
	}
	return uint8(cat)
}

// CategoryToAvail is fsm_space_cat_to_avail: the lower bound of a
// category's range, which is what GetRecordedFreeSpace reports.
func CategoryToAvail(cat uint8) int {
	if cat == 255 {
		return MaxRequestSize
	}
	return int(cat) * CategoryStep
}

// NeededToCategory is fsm_space_needed_to_cat: the smallest category that
// guarantees needed bytes (rounded up). A request of 0 bytes asks for
// category 1, so that pages known to be full are never returned. ok is false
// for a request above MaxRequestSize, which no page can satisfy
// (PostgreSQL raises "invalid FSM request size").
func NeededToCategory(needed int) (cat uint8, ok bool) {
	if needed > MaxRequestSize {
		return 0, false
	}
	if needed <= 0 {
		return 1, true
	}
	c := (needed + CategoryStep - 1) / CategoryStep
	if c > 255 {
		c = 255
	}
	return uint8(c), true
}

package nbtree

import (
	"minipg/pgerr"
)

// MaxEntrySize is the longest entry an index accepts: a third of a page
// less the pivot header, so that a page always holds a high key and two
// items (PostgreSQL's BTMaxItemSize, 2704 bytes for version 4).
const MaxEntrySize = 2704 - pivotHeader

// Sentinel errors.
var (
	// ErrNotSorted: a Builder was given an entry not above the previous one.
	ErrNotSorted = pgerr.New(pgerr.InternalError, "nbtree: index build input is not sorted")
	// ErrBadEntry: an entry is too short to hold a TID.
	ErrBadEntry = pgerr.New(pgerr.InternalError, "nbtree: entry shorter than a TID")
	// ErrMetaPage: PageItems was given the metapage (bt_page_items' error).
	ErrMetaPage = pgerr.New(pgerr.InvalidParameterValue, "block is a meta page")
)

// errEntryTooBig is PostgreSQL's "index row size exceeds btree maximum" (54000).
func errEntryTooBig(rel uint32, n int) error {
	return pgerr.New(pgerr.ProgramLimitExceeded, "index row size %d exceeds btree version 4 maximum %d for index %d",
		n, MaxEntrySize, rel).WithHint("Values larger than 1/3 of a buffer page cannot be indexed.")
}

// errCorrupt reports a damaged index page (XX002, index_corrupted), naming
// the block.
func errCorrupt(rel uint32, blk uint32, format string, args ...any) error {
	return pgerr.New(pgerr.IndexCorrupted, "index %d: block %d: "+format, append([]any{rel, blk}, args...)...)
}

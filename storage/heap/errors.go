package heap

import (
	"minipg/pgerr"
	"minipg/storage/page"
)

// Sentinel errors. Each is a *pgerr.Error carrying the SQLSTATE a client
// sees; corruption is marked with pgerr.DataCorrupted so that
// pgerr.IsCorruption finds it through any wrapping.
var (
	// ErrTupleTooShort: a tuple passed to Insert/Update is shorter than its
	// header.
	ErrTupleTooShort = pgerr.New(pgerr.InternalError, "heap: tuple shorter than its header")
	// ErrBadTuple: a tuple passed to Insert/Update has an impossible t_hoff.
	ErrBadTuple = pgerr.New(pgerr.InternalError, "heap: malformed tuple header")
	// ErrTIDOutOfRange: Update/Delete/Lock named a block past the end of the
	// relation.
	ErrTIDOutOfRange = pgerr.New(pgerr.InternalError, "heap: TID beyond the end of the relation")
	// ErrNoOracle: an operation that needs commit status got none.
	ErrNoOracle = pgerr.New(pgerr.InternalError, "heap: no commit-status oracle given")
	// ErrTooManyCommands: a transaction modified a row it had itself
	// inserted after more than 65535 commands (see comboCid).
	ErrTooManyCommands = pgerr.New(pgerr.ProgramLimitExceeded,
		"heap: cannot modify a row inserted by the same transaction after more than 65535 commands")
	// ErrBadSpecToken: InsertSpeculative was given token 0, which marks no
	// speculative insertion.
	ErrBadSpecToken = pgerr.New(pgerr.InternalError, "heap: speculative insertion token 0")
)

// errRowTooBig is PostgreSQL's "row is too big" (54000), raised by
// RelationGetBufferForTuple when a tuple cannot fit on an empty page.
func errRowTooBig(size int) error {
	return pgerr.New(pgerr.ProgramLimitExceeded, "row is too big: size %d, maximum size %d", size, MaxHeapTupleSize)
}

// errCorrupt reports a damaged heap page or tuple.
func errCorrupt(blk uint32, format string, args ...any) error {
	e := pgerr.New(pgerr.DataCorrupted, "heap: block %d: "+format, append([]any{blk}, args...)...)
	return e
}

// errCorruptTID reports a damaged tuple at tid.
func errCorruptTID(tid page.TID, format string, args ...any) error {
	return pgerr.New(pgerr.DataCorrupted, "heap: tuple %s: "+format, append([]any{tid}, args...)...)
}

package buffer

import (
	"errors"

	"minipg/pgerr"
)

// Sentinels. Errors returned by the pool wrap one of these (errors.Is works)
// and carry its SQLSTATE (pgerr.CodeOf finds it); pgerr.FromSentinel builds
// them, with the OS error underneath as Detail.
var (
	// ErrNoUnpinnedBuffers: every frame is pinned (PostgreSQL's
	// "no unpinned buffers available", 53000).
	ErrNoUnpinnedBuffers = pgerr.New(pgerr.InsufficientResources, "buffer: no unpinned buffers available")
	// ErrCorruptPage: a block read from disk failed the page header check.
	ErrCorruptPage = pgerr.New(pgerr.DataCorrupted, "buffer: invalid page")
	// ErrBlockOutOfRange: ReadBuffer of a block at or beyond the end of the fork.
	ErrBlockOutOfRange = pgerr.New(pgerr.InternalError, "buffer: block out of range")
	// ErrNoFile: the fork's file does not exist.
	ErrNoFile = pgerr.New(pgerr.UndefinedFile, "buffer: relation file does not exist")
	// ErrIO: a read, write, fsync or truncate failed.
	ErrIO = pgerr.New(pgerr.IOError, "buffer: I/O error")
	// ErrBufferPinned: DropRel/TruncateRel found a buffer of the relation
	// that stayed pinned (the caller must hold the relation exclusively).
	ErrBufferPinned = pgerr.New(pgerr.ObjectNotInPrerequisiteState, "buffer: buffer is pinned")
	// ErrClosed: the pool was closed.
	ErrClosed = pgerr.New(pgerr.ObjectNotInPrerequisiteState, "buffer: pool is closed")
)

// errRetry tells ReadBuffer to look the tag up again (see loadBuffer); it
// never leaves the package.
var errRetry = errors.New("retry")

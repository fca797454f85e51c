package wal

import (
	"errors"
	"fmt"

	"minipg/pgerr"
)

// Sentinels. Errors returned by the package wrap one of these, so that
// errors.Is works and pgerr.CodeOf finds the SQLSTATE; pgerr.FromSentinel
// builds them, with the error underneath as Detail.
var (
	// ErrCorrupt: a record, the control file or a checkpoint is damaged.
	ErrCorrupt = pgerr.New(pgerr.DataCorrupted, "wal: corrupt")
	// ErrIO: reading, writing or fsyncing WAL or the control file failed.
	ErrIO = pgerr.New(pgerr.IOError, "wal: I/O error")
	// ErrRecordTooBig: a record exceeds MaxRecordSize or MaxBlockRefs.
	ErrRecordTooBig = pgerr.New(pgerr.ProgramLimitExceeded, "wal: record too big")
	// ErrFlushBeyondInsert: Flush asked for an LSN that was never inserted.
	ErrFlushBeyondInsert = pgerr.New(pgerr.InternalError, "wal: flush request beyond end of WAL")
	// ErrNoRedo: replay met a record of a resource manager with no redo function.
	ErrNoRedo = pgerr.New(pgerr.InternalError, "wal: no redo function")
	// ErrClosed: the log was closed, or failed an fsync and refuses further work.
	ErrClosed = pgerr.New(pgerr.ObjectNotInPrerequisiteState, "wal: log is closed")
)

// errEnd marks the end of valid WAL inside readAt.
var errEnd = errors.New("end of WAL")

// InvalidLSN is InvalidXLogRecPtr: no record starts or ends at 0.
const InvalidLSN uint64 = 0

// FormatLSN prints an LSN as PostgreSQL does: %X/%X of its high and low halves.
func FormatLSN(lsn uint64) string { return fmt.Sprintf("%X/%X", uint32(lsn>>32), uint32(lsn)) }

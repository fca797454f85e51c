package txn

import "minipg/pgerr"

// Errors are built fresh on every use, because callers may add detail or
// position to a *pgerr.Error.

func errCorrupt(file string) error {
	return pgerr.New(pgerr.DataCorrupted, "txn: file %q is corrupt", file)
}

// errXidExhausted is PostgreSQL's refusal near wraparound (minipg does not
// freeze tuples, so it stops before the xid space wraps).
func errXidExhausted() error {
	return pgerr.New(pgerr.ProgramLimitExceeded,
		"database is not accepting commands to avoid wraparound data loss")
}

func errTooManyCommands() error {
	return pgerr.New(pgerr.ProgramLimitExceeded, "cannot have more than 2^32-2 commands in a transaction")
}

func errDeadlock(waiter, holder uint32) error {
	return pgerr.New(pgerr.DeadlockDetected, "deadlock detected").
		WithDetail("Transaction %d waits for transaction %d, which waits (directly or through others) for transaction %d.",
			waiter, holder, waiter).
		WithHint("See server log for query details.")
}

func errCommitFailed(err error, xid uint32) error {
	return pgerr.Wrapf(err, pgerr.IOError, "could not commit transaction %d", xid)
}

func errTxnEnded() error {
	return pgerr.New(pgerr.InternalError, "txn: transaction has already ended")
}

package wal

import (
	"errors"
	"io"
	"minipg/pgerr"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// RedoFunc replays one record (a resource manager's rm_redo). It runs during
// Recover, alone: no other goroutine uses the buffer pool or the log. It
// uses ReadBufferForRedo for each block and must leave no buffer pinned or
// locked.
type RedoFunc func(rec *DecodedRecord) error

// RegisterRedo sets the redo function of a resource manager. Call it before
// Recover. RmgrXLOG's checkpoint records need none; its full-page-image
// records (InfoFPI) are replayed by the function registered for RmgrXLOG,
// which is XLOGRedo(pool).
func (l *Log) RegisterRedo(rmgr RmgrID, fn RedoFunc) {
	l.redoFuncs[rmgr] = fn
}

// NeedsRecovery reports whether the cluster was not shut down cleanly (or
// WAL follows its last checkpoint), i.e. Recover has records to replay.
func (l *Log) NeedsRecovery() bool { return l.recov.crashed }

// RecoveryStats describe a Recover run.
type RecoveryStats struct {
	From, To uint64 // redo point and end of valid WAL
	Records  int
	FPI      int
}

// Recover replays the WAL from the last checkpoint's redo point to the end
// of valid WAL found by Open, calling the registered redo function of each
// record's resource manager (StartupXLOG's redo loop). Checkpoint records
// are skipped. A record of a resource manager with no redo function is an
// error. Run it once, after Open and before any Insert; then write the
// pages out with a checkpoint.
func (l *Log) Recover() (RecoveryStats, error) {
	st := RecoveryStats{From: l.recov.from, To: l.recov.to}
	if !l.recov.crashed {
		return st, nil
	}
	l.log.Info("redo starts", "lsn", FormatLSN(st.From))
	rd := NewReader(l.walDir, l.segSize, st.From, 0, l.log)
	defer rd.Close()
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return st, err
		}
		if rec.LSN >= st.To {
			break
		}
		st.Records++
		for i := range rec.Blocks {
			if rec.Blocks[i].HasImage {
				st.FPI++
			}
		}
		if rec.Rmgr == RmgrXLOG && rec.Info != InfoFPI {
			continue
		}
		fn := l.redoFuncs[rec.Rmgr]
		if fn == nil {
			return st, pgerr.FromSentinel(ErrNoRedo, nil, "no redo function for resource manager %d (record at %s)",
				rec.Rmgr, FormatLSN(rec.LSN))
		}
		if err := fn(rec); err != nil {
			return st, pgerr.FromSentinel(ErrCorrupt, err, "redo of record at %s (resource manager %d, info %#x) failed",
				FormatLSN(rec.LSN), rec.Rmgr, rec.Info)
		}
	}
	l.log.Info("redo done", "lsn", FormatLSN(rd.EndLSN()), "records", st.Records, "fpi", st.FPI)
	l.recov.crashed = false
	return st, nil
}

// RedoAction is what ReadBufferForRedo found (XLogRedoAction).
type RedoAction int

const (
	// BlockNeedsRedo: the page is older than the record; apply the change,
	// set pd_lsn to rec.EndLSN, MarkDirty.
	BlockNeedsRedo RedoAction = iota
	// BlockDone: the page already has the change (pd_lsn >= rec.EndLSN).
	BlockDone
	// BlockRestored: the page was restored from the record's full-page
	// image (and its pd_lsn set, and marked dirty); nothing more to do.
	BlockRestored
)

// ReadBufferForRedo returns block i of rec pinned and exclusively locked,
// and what to do with it (XLogReadBufferForRedo). The fork is created and
// extended with zero pages up to the block if needed (its extension may not
// have reached disk before the crash). A block with an image is restored
// without reading the page on disk, so a torn page does not matter. A block
// marked WillInit comes back zeroed-or-current with BlockNeedsRedo: redo
// initializes it. The caller must Unlock and Release the buffer.
func ReadBufferForRedo(pool *buffer.Pool, rec *DecodedRecord, i int) (*buffer.Buffer, RedoAction, error) {
	b := &rec.Blocks[i]
	if _, err := pool.ExtendTo(b.Rel, b.Fork, b.Block+1); err != nil {
		return nil, 0, err
	}
	if b.HasImage || b.WillInit {
		buf, err := pool.ReadBufferZeroed(b.Rel, b.Fork, b.Block)
		if err != nil {
			return nil, 0, err
		}
		buf.Lock()
		if !b.HasImage {
			return buf, BlockNeedsRedo, nil
		}
		rec.RestoreImage(i, buf.Page())
		page.SetLSN(buf.Page(), rec.EndLSN)
		buf.MarkDirty()
		return buf, BlockRestored, nil
	}
	buf, err := pool.ReadBuffer(b.Rel, b.Fork, b.Block)
	if err != nil {
		return nil, 0, err
	}
	buf.Lock()
	if page.LSN(buf.Page()) >= rec.EndLSN {
		return buf, BlockDone, nil
	}
	return buf, BlockNeedsRedo, nil
}

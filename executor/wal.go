package executor

// The engine's write-ahead log: opening it before the buffer pool, crash
// recovery at start-up (heap, storage and transaction records), commit and
// abort records through the transaction manager's hooks, checkpoints (the
// background checkpointer, CHECKPOINT, the shutdown checkpoint) and the
// WAL-related settings. The log itself is storage/wal; the heap's records
// are storage/heap's.
//
// Start-up order (Open): wal.Open -> buffer pool (FlushWAL = log.Flush) ->
// transaction manager -> recoverWAL (replay; commit status rebuilt) ->
// relations opened and indexes rebuilt from the recovered heap -> startWAL
// (files of dropped tables removed, optional heap checks, end-of-recovery
// checkpoint, checkpointer).

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/heap"
	"minipg/storage/wal"
)

// RmgrXact info values (xact.h).
const (
	xlXactCommit uint8 = 0x00 // XLOG_XACT_COMMIT
	xlXactAbort  uint8 = 0x20 // XLOG_XACT_ABORT
)

// Xact record main data (commit and abort): xact_time i64, unix
// microseconds (xl_xact_commit/xl_xact_abort without subtransactions,
// relations to drop or invalidations). The xid is the record header's.

func init() {
	RegisterSetting("minipg_check_at_start", "off", roPostmaster, false)
	RegisterSetting("fsync", "on", roPostmaster, false)
}

// engineWAL is the engine's WAL state.
type engineWAL struct {
	log  *wal.Log
	ckpt *wal.Checkpointer
	// async holds xids committing with synchronous_commit = off: their
	// commit record is not waited for (the WAL writer flushes it).
	async sync.Map
	// asyncEnd is the end of the newest asynchronous commit record. Every
	// data page write flushes the WAL at least that far: a page may carry
	// hint bits saying such a transaction committed, and must not reach
	// disk before its commit record (PostgreSQL instead skips setting the
	// hint until the record is flushed; minipg's heap does not know commit
	// LSNs).
	asyncEnd atomic.Uint64
	// recovery: what replay saw.
	seen      map[uint32]bool // xids of heap records
	ended     map[uint32]bool // xids with a commit or abort record
	committed int
	aborted   int
	maxXid    uint32
}

// openWAL opens (or creates) the WAL of the data directory. It runs before
// the buffer pool exists.
func (e *Engine) openWAL() error {
	l, err := wal.Open(e.cfg.DataDir, wal.Options{
		DisableFullPageWrites: e.settings["full_page_writes"] == "off",
		NoSync:                e.settings["fsync"] == "off",
		Logger:                e.log,
	})
	if err != nil {
		return err
	}
	e.wal = &engineWAL{log: l, seen: map[uint32]bool{}, ended: map[uint32]bool{}}
	return nil
}

// walLog is the log, for heap.Options.WAL.
func (e *Engine) walLog() *wal.Log { return e.wal.log }

// flushWAL is buffer.Options.FlushWAL: the WAL rule, plus the asynchronous
// commits inserted so far (see engineWAL.asyncEnd).
func (e *Engine) flushWAL(lsn uint64) error {
	return e.wal.log.Flush(max(lsn, e.wal.asyncEnd.Load()))
}

func (w *engineWAL) note(xid uint32) {
	if xid >= 3 {
		w.seen[xid] = true
		w.maxXid = max(w.maxXid, xid)
	}
}

// recoverWAL replays the WAL (if the cluster was not shut down cleanly) into
// the pool and rebuilds commit status: a commit record marks its xid
// committed, every other xid seen in the WAL is aborted, and the next xid
// moves past all of them. It also installs the commit and abort hooks. It
// runs before anything reads heap pages.
func (e *Engine) recoverWAL() error {
	w, l := e.wal, e.wal.log
	h, h2 := heap.RedoFuncs(e.pool)
	wrap := func(fn wal.RedoFunc) wal.RedoFunc {
		return func(rec *wal.DecodedRecord) error {
			w.note(rec.Xid)
			return fn(rec)
		}
	}
	l.RegisterRedo(wal.RmgrHeap, wrap(h))
	l.RegisterRedo(wal.RmgrHeap2, wrap(h2))
	l.RegisterRedo(wal.RmgrStorage, wal.StorageRedo(e.pool))
	l.RegisterRedo(wal.RmgrXact, func(rec *wal.DecodedRecord) error {
		w.note(rec.Xid)
		w.ended[rec.Xid] = true
		switch rec.Info {
		case xlXactCommit:
			e.txns.RecoverCommitted(rec.Xid)
			w.committed++
		case xlXactAbort:
			e.txns.RecoverAborted(rec.Xid)
			w.aborted++
		default:
			return pgerr.New(pgerr.DataCorrupted, "unknown transaction record type %#x at %s", rec.Info, wal.FormatLSN(rec.LSN))
		}
		return nil
	})
	if extra := l.LastCheckpoint().Extra; len(extra) >= 4 {
		e.txns.AdvanceNextXid(binary.LittleEndian.Uint32(extra))
	}
	crashed := l.NeedsRecovery()
	st, err := l.Recover()
	if err != nil {
		return err
	}
	if crashed {
		for xid := range w.seen {
			if !w.ended[xid] {
				e.txns.RecoverAborted(xid)
				w.aborted++
			}
		}
		if w.maxXid != 0 {
			e.txns.AdvanceNextXid(w.maxXid + 1)
		}
		e.log.Info("recovery complete", "from", wal.FormatLSN(st.From), "to", wal.FormatLSN(st.To),
			"records", st.Records, "fpi", st.FPI, "committed", w.committed, "aborted", w.aborted)
	}
	w.seen, w.ended = nil, nil
	e.txns.SetCommitHook(e.commitRecord)
	e.txns.SetAbortHook(e.abortRecord)
	return nil
}

// startWAL finishes start-up once relations are open and indexes rebuilt:
// it removes the files of tables the catalog no longer has (a drop whose
// unlink a crash prevented, or files replay recreated), runs the heap checks
// if minipg_check_at_start is on, writes the end-of-recovery checkpoint and
// starts the checkpointer.
func (e *Engine) startWAL() error {
	if err := e.removeOrphanFiles(); err != nil {
		return err
	}
	if v, _ := parseBool(e.settings["minipg_check_at_start"]); v {
		if err := e.checkAllHeaps(); err != nil {
			return err
		}
	}
	if _, err := e.wal.log.Checkpoint(e.checkpointOptions()); err != nil {
		return err
	}
	timeout, err := parseDuration(e.settings["checkpoint_timeout"], time.Second)
	if err != nil {
		return err
	}
	maxWAL, err := parseWALSize(e.settings["max_wal_size"])
	if err != nil {
		return err
	}
	e.wal.ckpt = e.wal.log.StartCheckpointer(wal.CheckpointerOptions{
		Timeout: timeout,
		MaxWAL:  maxWAL,
		Prepare: e.checkpointOptions,
		OnError: func(err error) { e.log.Error("checkpoint failed", "err", err) },
	})
	e.SetCheckpointHook(e.wal.ckpt.Request)
	return nil
}

// checkpointOptions: write every dirty buffer and fsync, save the commit log
// (after the redo point is fixed, as txn.Save requires), and keep the next
// xid in the checkpoint record.
func (e *Engine) checkpointOptions() wal.CheckpointOptions {
	extra := binary.LittleEndian.AppendUint32(nil, e.txns.NextXid())
	return wal.CheckpointOptions{
		FlushBuffers: func(uint64) error {
			if err := e.pool.FlushAll(); err != nil {
				return err
			}
			if err := e.pool.Sync(); err != nil {
				return err
			}
			return e.txns.Save()
		},
		Extra: extra,
	}
}

// shutdownWAL stops the checkpointer and writes the shutdown checkpoint
// (clean shutdown: the next start needs no recovery).
func (e *Engine) shutdownWAL() error {
	if e.wal == nil {
		return nil
	}
	if e.wal.ckpt != nil {
		e.wal.ckpt.Stop()
		e.wal.ckpt = nil
		o := e.checkpointOptions()
		o.Shutdown = true
		if _, err := e.wal.log.Checkpoint(o); err != nil {
			return err
		}
	}
	return nil
}

// closeWAL closes the log files (after the pool is closed).
func (e *Engine) closeWAL() error {
	if e.wal == nil {
		return nil
	}
	return e.wal.log.Close()
}

func xactData() []byte {
	return binary.LittleEndian.AppendUint64(nil, uint64(time.Now().UnixMicro()))
}

// commitRecord is the commit hook: log the commit record and, unless the
// transaction commits asynchronously, wait until it is durable (group
// commit: concurrent committers share one fsync in wal.Flush).
func (e *Engine) commitRecord(xid uint32) error {
	end, err := e.wal.log.Insert(&wal.Record{Rmgr: wal.RmgrXact, Info: xlXactCommit, Xid: xid, MainData: xactData()})
	if err != nil {
		e.wal.async.Delete(xid)
		return err
	}
	if _, async := e.wal.async.LoadAndDelete(xid); async {
		for {
			old := e.wal.asyncEnd.Load()
			if old >= end || e.wal.asyncEnd.CompareAndSwap(old, end) {
				return nil
			}
		}
	}
	return e.wal.log.Flush(end)
}

// abortRecord is the abort hook: an abort record, not flushed (a lost abort
// record means the same: no commit record, so aborted).
func (e *Engine) abortRecord(xid uint32) error {
	e.wal.async.Delete(xid)
	_, err := e.wal.log.Insert(&wal.Record{Rmgr: wal.RmgrXact, Info: xlXactAbort, Xid: xid, MainData: xactData()})
	return err
}

// noteCommitMode is called by a session right before it commits: with
// synchronous_commit = off the commit hook does not wait for the flush.
func (e *Engine) noteCommitMode(xid uint32, synchronousCommit string) {
	if xid != 0 && synchronousCommit == "off" && e.wal != nil {
		e.wal.async.Store(xid, struct{}{})
	}
}

// walSettingChanged applies a SET of a WAL setting. full_page_writes is
// server-wide (PostgreSQL reloads it from the configuration; minipg lets
// SET change it for everyone).
func (e *Engine) walSettingChanged(name, v string) {
	if name == "full_page_writes" && e.wal != nil {
		e.wal.log.SetFullPageWrites(v != "off")
	}
}

// walLogCreate logs the creation of a relation's main fork (before the file
// is created).
func (e *Engine) walLogCreate(relfilenode uint32) error {
	_, err := e.wal.log.LogCreate(buffer.RelFileNode(relfilenode), buffer.MainFork)
	return err
}

// walLogDrop logs the removal of a relation's files and makes the record
// durable; the caller unlinks the files afterwards (and only after the
// catalog change is committed).
func (e *Engine) walLogDrop(relfilenode uint32) error {
	end, err := e.wal.log.LogDrop(buffer.RelFileNode(relfilenode))
	if err != nil {
		return err
	}
	return e.wal.log.Flush(end)
}

// removeOrphanFiles removes base/ files whose relfilenode no table has.
func (e *Engine) removeOrphanFiles() error {
	keep := map[uint64]bool{}
	for _, t := range e.cat.Tables() {
		keep[uint64(t.RelFileNode)] = true
	}
	dir := filepath.Join(e.cfg.DataDir, "base")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not read directory \"%s\"", dir)
	}
	dropped := map[uint64]bool{}
	for _, ent := range ents {
		name, _, _ := strings.Cut(ent.Name(), "_")
		n, err := strconv.ParseUint(name, 10, 32)
		if err != nil || keep[n] || dropped[n] {
			continue
		}
		dropped[n] = true
		e.log.Info("removing files of a dropped relation", "relfilenode", n)
		if err := e.pool.DropRel(buffer.RelFileNode(n)); err != nil {
			return err
		}
	}
	return nil
}

// checkAllHeaps runs heap.CheckPages on every table (minipg_check_at_start).
func (e *Engine) checkAllHeaps() error {
	e.mu.RLock()
	defer e.mu.RUnlock()
	for _, r := range e.mu.rels {
		if err := heap.CheckPages(r.heap); err != nil {
			e.log.Error("heap check failed", "table", r.def.Name, "err", err)
			return err
		}
	}
	e.log.Info("heap check passed", "tables", len(e.mu.rels))
	return nil
}

// parseDuration parses a time setting with PostgreSQL units (us, ms, s,
// min, h, d); a bare number is in unit.
func parseDuration(v string, unit time.Duration) (time.Duration, error) {
	n, suffix, err := splitUnit(v)
	if err != nil {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid value for a time parameter: \"%s\"", v)
	}
	units := map[string]time.Duration{"": unit, "us": time.Microsecond, "ms": time.Millisecond, "s": time.Second,
		"min": time.Minute, "h": time.Hour, "d": 24 * time.Hour}
	u, ok := units[suffix]
	if !ok {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid value for a time parameter: \"%s\"", v).
			WithHint("Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".")
	}
	return time.Duration(n) * u, nil
}

// parseWALSize parses max_wal_size (a bare number is in MB).
func parseWALSize(v string) (int64, error) {
	s := strings.TrimSpace(v)
	if s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9' {
		s += "MB"
	}
	return parseMemory(s)
}

// WALStats are the pg_stat_wal counters.
func (e *Engine) WALStats() wal.Stats { return e.wal.log.Stats() }

// CurrentWALLSN is pg_current_wal_lsn(): the current insert position.
func (e *Engine) CurrentWALLSN() uint64 { return e.wal.log.InsertLSN() }

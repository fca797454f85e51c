package executor

// The engine's use of the write-ahead log: opening it with the server's
// settings before the buffer pool, start-up after recovery, checkpoints (the
// background checkpointer, CHECKPOINT, the shutdown checkpoint), the logging
// of relation creation and removal, and the WAL-related settings. The log
// itself is storage/wal; the heap's records are storage/heap's; commit and
// abort records, asynchronous commit and the recovery of commit status are
// txn.XactLog's.
//
// Start-up order (Open): wal.Open and txn.NewXactLog -> buffer pool
// (FlushWAL = XactLog.Flush) -> transaction manager -> recoverWAL
// (XactLog.Recover: replay, commit status rebuilt, commit and abort hooks
// attached) -> relations opened and indexes rebuilt from the recovered heap
// -> startWAL (files of dropped tables removed, optional heap checks,
// end-of-recovery checkpoint, checkpointer).

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/heap"
	"minipg/storage/wal"
	"minipg/txn"
)

func init() {
	RegisterSetting("minipg_check_at_start", "off", roPostmaster, false)
	RegisterSetting("fsync", "on", roPostmaster, false)
}

// engineWAL is the engine's WAL state: the log, its transaction side (commit
// and abort records, recovery of commit status; txn.XactLog) and the
// checkpointer.
type engineWAL struct {
	log  *wal.Log
	xact *txn.XactLog
	ckpt *wal.Checkpointer
}

// openWAL opens (or creates) the WAL of the data directory. It runs before
// the buffer pool exists.
func (e *Engine) openWAL() error {
	comp, _ := wal.ParseCompression(e.settings["wal_compression"]) // checked by checkGUC
	minWAL, err := parseWALSize(e.settings["min_wal_size"])
	if err != nil {
		return err
	}
	maxWAL, err := parseWALSize(e.settings["max_wal_size"])
	if err != nil {
		return err
	}
	target := e.completionTarget()
	l, err := wal.Open(e.cfg.DataDir, wal.Options{
		DisableFullPageWrites: e.settings["full_page_writes"] == "off",
		Compression:           comp,
		MinWALSize:            minWAL,
		MaxWALSize:            maxWAL,
		CompletionTarget:      target,
		NoSync:                e.settings["fsync"] == "off",
		Logger:                e.log,
	})
	if err != nil {
		return err
	}
	e.wal = &engineWAL{log: l, xact: txn.NewXactLog(l)}
	return nil
}

// completionTarget is checkpoint_completion_target as package wal takes it
// (0 there means the default, a negative value 0).
func (e *Engine) completionTarget() float64 {
	t, _ := strconv.ParseFloat(e.settings["checkpoint_completion_target"], 64) // checked by checkGUC
	if t == 0 {
		return -1
	}
	return t
}

// walLog is the log, for heap.Options.WAL.
func (e *Engine) walLog() *wal.Log { return e.wal.log }

// flushWAL is buffer.Options.FlushWAL (txn.XactLog.Flush).
func (e *Engine) flushWAL(lsn uint64) error { return e.wal.xact.Flush(lsn) }

// recoverWAL replays the WAL (if the cluster was not shut down cleanly) into
// the pool, rebuilds commit status and installs the commit and abort hooks
// (txn.XactLog.Recover). It runs before anything reads heap pages.
func (e *Engine) recoverWAL() error {
	_, err := e.wal.xact.Recover(e.txns, e.pool, e.log)
	return err
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
	target := e.completionTarget()
	e.wal.ckpt = e.wal.log.StartCheckpointer(wal.CheckpointerOptions{
		Timeout:          timeout,
		MaxWAL:           maxWAL,
		CompletionTarget: target,
		Prepare:          e.checkpointOptions,
		OnError:          func(err error) { e.log.Error("checkpoint failed", "err", err) },
	})
	e.SetCheckpointHook(e.wal.ckpt.Request)
	e.bgw.mu.Lock()
	e.bgw.reset = time.Now().UTC()
	e.bgw.mu.Unlock()
	return nil
}

// checkpointOptions: prune behind first what is waiting to be (while those
// prunes log no images), write every dirty buffer and fsync, save the
// commit log and keep the next xid in the checkpoint record (txn.XactLog).
func (e *Engine) checkpointOptions() wal.CheckpointOptions {
	o := e.wal.xact.CheckpointOptions()
	if e.pruner != nil {
		o.BeforeRedo = e.pruner.Flush
	}
	return o
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

// noteCommitMode is called by a session right before it commits: with
// synchronous_commit = off the commit hook does not wait for the flush.
func (e *Engine) noteCommitMode(xid uint32, synchronousCommit string) {
	if synchronousCommit == "off" && e.wal != nil {
		e.wal.xact.SetAsyncCommit(xid)
	}
}

// walSettingChanged applies a SET of a WAL setting. full_page_writes is
// server-wide (PostgreSQL reloads it from the configuration; minipg lets
// SET change it for everyone). wal_compression is a superuser setting that
// PostgreSQL applies to the session's own records; minipg's heap logs
// without knowing the session, so a SET changes the method of every
// session's images from then on (and SHOW in other sessions still shows
// their own value). Every minipg user is a superuser (is_superuser = on).
func (e *Engine) walSettingChanged(name, v string) {
	if e.wal == nil {
		return
	}
	switch name {
	case "full_page_writes":
		e.wal.log.SetFullPageWrites(v != "off")
	case "wal_compression":
		if c, ok := wal.ParseCompression(v); ok {
			e.wal.log.SetCompression(c)
		}
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

// removeOrphanFiles removes base/ files whose relfilenode no table or
// disk index has.
func (e *Engine) removeOrphanFiles() error {
	keep := map[uint64]bool{}
	for _, t := range e.cat.Tables() {
		keep[uint64(t.RelFileNode)] = true
		for _, idx := range t.Indexes {
			if idx.OnDisk() {
				keep[uint64(idx.RelFileNode)] = true
			}
		}
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

// checkAllHeaps runs heap.CheckPages on every table, and nbtree's checker
// on every disk index (minipg_check_at_start).
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
	n := 0
	for _, r := range e.mu.rels {
		for _, ri := range r.indexes {
			if d, ok := ri.ix.(*diskStore); ok {
				if _, err := d.Check(); err != nil {
					e.log.Error("index check failed", "index", ri.def.Name, "err", err)
					return err
				}
				n++
			}
		}
	}
	if n > 0 {
		e.log.Info("index check passed", "indexes", n)
	}
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

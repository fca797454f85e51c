package wal

import (
	"encoding/binary"
	"fmt"
	"time"

	"minipg/pgerr"
)

// CheckpointOptions say what a checkpoint does besides logging.
type CheckpointOptions struct {
	// Shutdown logs a shutdown checkpoint (XLOG_CHECKPOINT_SHUTDOWN) and
	// records the cluster as cleanly shut down; no record may be inserted
	// after it.
	Shutdown bool
	// BeforeRedo, when set, is called before the checkpoint takes its turn
	// and fixes the redo point, with no lock of the log held: work that
	// would log pages in full once the redo point moves is done first (the
	// heap's prune behind, heap.Pruner.Flush).
	BeforeRedo func()
	// FlushBuffers is called once the redo point is fixed. It must write
	// every page dirtied before redo and make it durable (buffer.Pool
	// FlushAllPaced + Sync), and persist whatever else the checkpoint
	// covers (commit status). Pages it writes go through the WAL rule as
	// usual. It reports to p (never nil) as it goes: p.WriteDelay after
	// each buffer (which may sleep, to spread a checkpoint's writes),
	// p.Written with the number of buffers written, p.SyncStarting when
	// the writes are done and the fsyncs begin.
	FlushBuffers func(redo uint64, p *CheckpointProgress) error
	// Extra is stored in the checkpoint record (e.g. the next xid) and
	// returned by LastCheckpoint after a restart.
	Extra []byte

	// pace, set by the Checkpointer for a timed or WAL-triggered
	// checkpoint, is CheckpointWriteDelay: given the share of the buffers
	// processed, it sleeps while the checkpoint is ahead of its schedule.
	// nil: an immediate checkpoint, written as fast as possible.
	pace func(progress float64)
}

// CheckpointProgress is what FlushBuffers reports to its checkpoint.
type CheckpointProgress struct {
	pace      func(progress float64)
	written   int
	syncStart time.Time
}

// WriteDelay is called after each buffer of the checkpoint is processed
// (processed of total): a paced checkpoint sleeps here while it is ahead of
// its schedule (PostgreSQL's CheckpointWriteDelay).
func (p *CheckpointProgress) WriteDelay(processed, total int) {
	if p.pace != nil && total > 0 {
		p.pace(float64(processed) / float64(total))
	}
}

// Written adds n to the buffers the checkpoint wrote (buffers_checkpoint).
func (p *CheckpointProgress) Written(n int) { p.written += n }

// SyncStarting marks the end of the write phase: what follows (the fsyncs)
// counts as checkpoint_sync_time.
func (p *CheckpointProgress) SyncStarting() { p.syncStart = time.Now() }

// CheckpointInfo is what a checkpoint record holds (CheckPoint).
//
//	main data:  0          8            16       17
//	            +----------+------------+--------+------------------+
//	            | redo u64 | time i64   | fpw u8 | extra (caller's) |
//	            |          | unix nanos |        |                  |
//	            +----------+------------+--------+------------------+
//
// fpw is 1 when full_page_writes was on (CheckPoint.fullPageWrites).
type CheckpointInfo struct {
	LSN      uint64 // where the checkpoint record starts
	Redo     uint64 // replay starts here
	Time     time.Time
	Shutdown bool
	FPW      bool // full_page_writes was on
	Extra    []byte
}

const checkpointHeaderSize = 17

func decodeCheckpoint(rec *DecodedRecord) (CheckpointInfo, error) {
	if len(rec.MainData) < checkpointHeaderSize {
		return CheckpointInfo{}, pgerr.FromSentinel(ErrCorrupt, nil, "checkpoint record at %s is too short", FormatLSN(rec.LSN))
	}
	d := rec.MainData
	return CheckpointInfo{
		LSN:      rec.LSN,
		Redo:     binary.LittleEndian.Uint64(d[0:]),
		Time:     time.Unix(0, int64(binary.LittleEndian.Uint64(d[8:]))),
		Shutdown: rec.Info == InfoCheckpointShutdown,
		FPW:      d[16] == 1,
		Extra:    append([]byte(nil), d[checkpointHeaderSize:]...),
	}, nil
}

// Checkpoint performs a checkpoint (CreateCheckPoint): it fixes the redo
// point at the current insert position (from now on the first change to a
// page logs a full-page image), calls FlushBuffers, logs the checkpoint
// record, flushes it, rewrites the control file atomically, and recycles or
// removes the segments wholly before the redo point. Checkpoints are
// serialized; inserts and flushes go on meanwhile.
func (l *Log) Checkpoint(o CheckpointOptions) (CheckpointInfo, error) {
	if o.BeforeRedo != nil {
		o.BeforeRedo()
	}
	l.ckptMu.Lock()
	defer l.ckptMu.Unlock()
	if err := l.failed(); err != nil {
		return CheckpointInfo{}, err
	}
	l.mu.Lock()
	redo := l.mu.insertLSN
	l.redo.Store(redo)
	l.mu.Unlock()

	if o.FlushBuffers != nil {
		prog := &CheckpointProgress{pace: o.pace}
		start := time.Now()
		err := o.FlushBuffers(redo, prog)
		end := time.Now()
		if prog.syncStart.IsZero() {
			prog.syncStart = end
		}
		l.stats.ckptWriteTime.Add(int64(prog.syncStart.Sub(start)))
		l.stats.ckptSyncTime.Add(int64(end.Sub(prog.syncStart)))
		l.stats.buffersCheckpoint.Add(int64(prog.written))
		if err != nil {
			return CheckpointInfo{}, err
		}
	}
	now := time.Now()
	data := make([]byte, checkpointHeaderSize+len(o.Extra))
	binary.LittleEndian.PutUint64(data[0:], redo)
	binary.LittleEndian.PutUint64(data[8:], uint64(now.UnixNano()))
	fpw := l.fpw.Load()
	if fpw {
		data[16] = 1
	}
	copy(data[checkpointHeaderSize:], o.Extra)
	info := InfoCheckpointOnline
	if o.Shutdown {
		info = InfoCheckpointShutdown
	}
	lsn, end, err := l.insert(&Record{Rmgr: RmgrXLOG, Info: info, MainData: data})
	if err != nil {
		return CheckpointInfo{}, err
	}
	if err := l.Flush(end); err != nil {
		return CheckpointInfo{}, err
	}
	ctl := l.control
	ctl.Checkpoint, ctl.Redo, ctl.Time = lsn, redo, now.Unix()
	ctl.State = StateInProduction
	if o.Shutdown {
		ctl.State = StateShutdown
	}
	if err := writeControl(l.controlPath, &ctl); err != nil {
		return CheckpointInfo{}, err
	}
	l.updateDistanceEstimate(redo)
	l.control = ctl
	l.ckptEnd.Store(end)
	l.stats.checkpoints.Add(1)
	removed, recycled, err := l.removeOldSegments(redo)
	if err != nil {
		// The checkpoint itself is done; old segments stay for the next one.
		l.log.Warn("could not remove old WAL segments", "err", err)
	}
	info2 := CheckpointInfo{LSN: lsn, Redo: redo, Time: now, Shutdown: o.Shutdown, FPW: fpw, Extra: o.Extra}
	l.log.Debug("checkpoint complete", "lsn", FormatLSN(lsn), "redo", FormatLSN(redo),
		"removed", removed, "recycled", recycled)
	return info2, nil
}

// LastCheckpoint returns the checkpoint found by Open (or the bootstrap
// checkpoint of a new cluster), with the Extra its creator stored.
func (l *Log) LastCheckpoint() CheckpointInfo { return l.recov.ckpt }

// Control returns the control file's content as last written.
func (l *Log) Control() ControlData {
	l.ckptMu.Lock()
	defer l.ckptMu.Unlock()
	return l.control
}

// lastCheckpointEnd returns the end LSN of the last checkpoint record written
// by this process (0 if none).
func (l *Log) lastCheckpointEnd() uint64 { return l.ckptEnd.Load() }

// xlogDesc is xlog_desc for the records this package writes. A checkpoint
// is described in PostgreSQL's words; what minipg does not keep (a second
// timeline, OIDs, multixacts, the oldest xids) shows as PostgreSQL shows
// it on a fresh cluster's defaults or 0. The next xid comes from the
// caller's Extra when it starts with one (txn's u32).
func xlogDesc(rec *DecodedRecord) string {
	switch rec.Info {
	case InfoCheckpointOnline, InfoCheckpointShutdown:
		c, err := decodeCheckpoint(rec)
		if err != nil {
			return ""
		}
		var next uint32
		if len(c.Extra) >= 4 {
			next = binary.LittleEndian.Uint32(c.Extra)
		}
		kind := "online"
		if c.Shutdown {
			kind = "shutdown"
		}
		return fmt.Sprintf("redo %s; tli 1; prev tli 1; fpw %t; xid 0:%d; oid 0; multi 1; offset 0; "+
			"oldest xid 0 in DB 0; oldest multi 1 in DB 0; oldest/newest commit timestamp xid: 0/0; "+
			"oldest running xid 0; %s", FormatLSN(c.Redo), c.FPW, next, kind)
	}
	return "" // NOOP, FPI: no further information
}

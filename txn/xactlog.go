package txn

import (
	"encoding/binary"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/heap"
	"minipg/storage/nbtree"
	"minipg/storage/wal"
)

// RmgrXact info values and xinfo flags (xact.h).
const (
	xlXactCommit  uint8 = 0x00 // XLOG_XACT_COMMIT
	xlXactAbort   uint8 = 0x20 // XLOG_XACT_ABORT
	xlXactOpMask  uint8 = 0x70 // XLOG_XACT_OPMASK
	xlXactHasInfo uint8 = 0x80 // XLOG_XACT_HAS_INFO: an xl_xact_xinfo follows xact_time

	xinfoHasSubxacts uint32 = 1 << 1 // XACT_XINFO_HAS_SUBXACTS
)

// XactLog is the transaction manager's side of the write-ahead log: it
// writes commit and abort records (RmgrXact), tracks asynchronous commits,
// keeps the next xid in checkpoint records and, at start-up, drives crash
// recovery and rebuilds commit status from what replay saw. The record
// formats are drawn in the package comment.
//
// Order of use (the server's start-up): NewXactLog right after wal.Open, so
// that Flush can be the buffer pool's FlushWAL; then the pool and the
// Manager; then Recover, which replays the log and attaches the commit and
// abort hooks to the Manager. CheckpointOptions may be used after Recover.
type XactLog struct {
	log  *wal.Log
	m    *Manager     // set by Recover
	pool *buffer.Pool // set by Recover
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
}

// NewXactLog returns the transaction side of l. It runs before the buffer
// pool exists.
func NewXactLog(l *wal.Log) *XactLog { return &XactLog{log: l} }

// Log returns the write-ahead log.
func (x *XactLog) Log() *wal.Log { return x.log }

// Flush is buffer.Options.FlushWAL: the WAL rule (flush up to lsn before a
// page with that LSN is written), plus the asynchronous commits inserted so
// far (see asyncEnd).
func (x *XactLog) Flush(lsn uint64) error {
	return x.log.Flush(max(lsn, x.asyncEnd.Load()))
}

// SetAsyncCommit marks xid as committing with synchronous_commit = off: its
// commit does not wait for the commit record's flush. Call it right before
// Txn.Commit; xid 0 (no xid assigned) is ignored.
func (x *XactLog) SetAsyncCommit(xid uint32) {
	if xid != InvalidXid {
		x.async.Store(xid, struct{}{})
	}
}

// RecoveryStats describe a Recover run. Crashed is false when the cluster
// was shut down cleanly and nothing was replayed.
type RecoveryStats struct {
	wal.RecoveryStats
	Crashed   bool
	Committed int // commit records replayed
	Aborted   int // abort records replayed plus xids seen without either
}

// recovery is what replay saw of transactions.
type recovery struct {
	m         *Manager
	seen      map[uint32]bool // xids of heap records
	ended     map[uint32]bool // xids with a commit or abort record
	committed int
	aborted   int
	maxXid    uint32
}

func (r *recovery) note(xid uint32) {
	if xid >= FirstNormalXid {
		r.seen[xid] = true
		r.maxXid = max(r.maxXid, xid)
	}
}

// noting wraps a redo function so that the record's xid is noted.
func (r *recovery) noting(fn wal.RedoFunc) wal.RedoFunc {
	return func(rec *wal.DecodedRecord) error {
		r.note(rec.Xid)
		return fn(rec)
	}
}

// xactRedo replays a commit or abort record into the commit log: the
// record's xid and the subtransactions it lists.
func (r *recovery) xactRedo(rec *wal.DecodedRecord) error {
	subxids, ok := parseXact(rec)
	if !ok {
		return pgerr.New(pgerr.DataCorrupted, "invalid transaction record at %s", wal.FormatLSN(rec.LSN))
	}
	xids := append([]uint32{rec.Xid}, subxids...)
	for _, x := range xids {
		r.note(x)
		r.ended[x] = true
	}
	switch rec.Info & xlXactOpMask {
	case xlXactCommit:
		for _, x := range xids {
			r.m.RecoverCommitted(x)
		}
		r.committed++
	case xlXactAbort:
		for _, x := range xids {
			r.m.RecoverAborted(x)
		}
		r.aborted++
	default:
		return pgerr.New(pgerr.DataCorrupted, "unknown transaction record type %#x at %s", rec.Info, wal.FormatLSN(rec.LSN))
	}
	return nil
}

// Recover replays the WAL into pool if the cluster was not shut down
// cleanly, registering the redo functions of the heap (RmgrHeap,
// RmgrHeap2), btree indexes (RmgrBtree), full-page images (RmgrXLOG),
// relation storage (RmgrStorage) and transactions (RmgrXact),
// and rebuilds m's commit status: a commit record marks its xid committed,
// every other xid seen in the WAL is aborted, and the next xid moves past
// all of them and past the one the last checkpoint kept. It then attaches
// the commit and abort hooks to m. Call it once, before anything reads heap
// pages and before m's first Begin; logger gets the "recovery complete"
// line.
func (x *XactLog) Recover(m *Manager, pool *buffer.Pool, logger *slog.Logger) (RecoveryStats, error) {
	x.m, x.pool = m, pool
	l := x.log
	r := &recovery{m: m, seen: map[uint32]bool{}, ended: map[uint32]bool{}}
	h, h2 := heap.RedoFuncs(pool)
	l.RegisterRedo(wal.RmgrHeap, r.noting(h))
	l.RegisterRedo(wal.RmgrHeap2, r.noting(h2))
	l.RegisterRedo(wal.RmgrStorage, wal.StorageRedo(pool))
	nbtree.RegisterRedo(l, pool) // RmgrBtree, and RmgrXLOG's full-page images
	l.RegisterRedo(wal.RmgrXact, r.xactRedo)
	if next, ok := checkpointNextXid(l.LastCheckpoint().Extra); ok {
		m.AdvanceNextXid(next)
	}
	st := RecoveryStats{Crashed: l.NeedsRecovery()}
	var err error
	if st.RecoveryStats, err = l.Recover(); err != nil {
		return st, err
	}
	if st.Crashed {
		for xid := range r.seen {
			if !r.ended[xid] {
				m.RecoverAborted(xid)
				r.aborted++
			}
		}
		if r.maxXid != 0 {
			m.AdvanceNextXid(r.maxXid + 1)
		}
		st.Committed, st.Aborted = r.committed, r.aborted
		logger.Info("recovery complete", "from", wal.FormatLSN(st.From), "to", wal.FormatLSN(st.To),
			"records", st.Records, "fpi", st.FPI, "committed", st.Committed, "aborted", st.Aborted)
	}
	m.SetCommitHook(x.commit)
	m.SetAbortHook(x.abort)
	return st, nil
}

// CheckpointOptions are what a checkpoint does besides logging: write every
// dirty buffer of the pool and fsync, save the commit log (after the redo
// point is fixed, as Manager.Save requires), and keep the next xid in the
// checkpoint record. Call it after Recover.
func (x *XactLog) CheckpointOptions() wal.CheckpointOptions {
	return wal.CheckpointOptions{
		FlushBuffers: func(_ uint64, p *wal.CheckpointProgress) error {
			n, err := x.pool.FlushAllPaced(p.WriteDelay)
			p.Written(n)
			if err != nil {
				return err
			}
			p.SyncStarting()
			if err := x.pool.Sync(); err != nil {
				return err
			}
			return x.m.Save()
		},
		Extra: binary.LittleEndian.AppendUint32(nil, x.m.NextXid()),
	}
}

// checkpointNextXid decodes the next xid kept in a checkpoint record's
// Extra; ok is false if there is none (a checkpoint written without it).
func checkpointNextXid(extra []byte) (next uint32, ok bool) {
	if len(extra) < 4 {
		return 0, false
	}
	return binary.LittleEndian.Uint32(extra), true
}

// pgEpoch is the origin of a TimestampTz: 2000-01-01 00:00 UTC.
var pgEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// xactRecord is a commit or abort record of xid (op xlXactCommit or
// xlXactAbort). Its main data is xact_time, a TimestampTz, and when the
// transaction had subtransactions, as PostgreSQL's XactLogCommitRecord
// writes them: XLOG_XACT_HAS_INFO in the info byte, an xl_xact_xinfo with
// XACT_XINFO_HAS_SUBXACTS, and xl_xact_subxacts (their number, then their
// xids).
func xactRecord(op uint8, xid uint32, subxids []uint32) *wal.Record {
	d := binary.LittleEndian.AppendUint64(nil, uint64(time.Now().UnixMicro()-pgEpoch.UnixMicro()))
	if len(subxids) > 0 {
		op |= xlXactHasInfo
		d = binary.LittleEndian.AppendUint32(d, xinfoHasSubxacts)
		d = binary.LittleEndian.AppendUint32(d, uint32(len(subxids)))
		for _, x := range subxids {
			d = binary.LittleEndian.AppendUint32(d, x)
		}
	}
	return &wal.Record{Rmgr: wal.RmgrXact, Info: op, Xid: xid, MainData: d}
}

// parseXact returns the subtransactions a commit or abort record lists;
// ok is false for a malformed record.
func parseXact(rec *wal.DecodedRecord) (subxids []uint32, ok bool) {
	d := rec.MainData
	if len(d) < 8 {
		return nil, false
	}
	if rec.Info&xlXactHasInfo == 0 {
		return nil, true
	}
	if len(d) < 12 {
		return nil, false
	}
	xinfo := binary.LittleEndian.Uint32(d[8:])
	if xinfo&^xinfoHasSubxacts != 0 {
		return nil, false // parts minipg never writes
	}
	if xinfo&xinfoHasSubxacts == 0 {
		return nil, true
	}
	if len(d) < 16 {
		return nil, false
	}
	n := binary.LittleEndian.Uint32(d[12:])
	if uint64(len(d)) != 16+4*uint64(n) {
		return nil, false
	}
	subxids = make([]uint32, n)
	for i := range subxids {
		subxids[i] = binary.LittleEndian.Uint32(d[16+4*i:])
	}
	return subxids, true
}

// xactDesc is xact_desc for commit and abort records: the xact_time, as
// timestamptz_to_str prints it (ISO, UTC), then "; subxacts:" and their
// xids if there are any.
func xactDesc(rec *wal.DecodedRecord) string {
	subxids, ok := parseXact(rec)
	if !ok {
		return ""
	}
	us := int64(binary.LittleEndian.Uint64(rec.MainData))
	t := pgEpoch.Add(time.Duration(us) * time.Microsecond)
	desc := t.Format("2006-01-02 15:04:05.999999") + "+00"
	if len(subxids) > 0 {
		desc += "; subxacts:"
		for _, x := range subxids {
			desc += " " + strconv.FormatUint(uint64(x), 10)
		}
	}
	return desc
}

func init() { wal.RegisterRecordDesc(wal.RmgrXact, xactDesc) }

// commit is the commit hook: log the commit record and, unless the
// transaction commits asynchronously, wait until it is durable (group
// commit: concurrent committers share one fsync in wal.Flush).
func (x *XactLog) commit(xid uint32, subxids []uint32) error {
	end, err := x.log.Insert(xactRecord(xlXactCommit, xid, subxids))
	if err != nil {
		x.async.Delete(xid)
		return err
	}
	if _, async := x.async.LoadAndDelete(xid); async {
		for {
			old := x.asyncEnd.Load()
			if old >= end || x.asyncEnd.CompareAndSwap(old, end) {
				return nil
			}
		}
	}
	return x.log.Flush(end)
}

// abort is the abort hook, for a transaction or a subtransaction: an abort
// record, not flushed (a lost abort record means the same: no commit
// record, so aborted).
func (x *XactLog) abort(xid uint32, subxids []uint32) error {
	x.async.Delete(xid)
	_, err := x.log.Insert(xactRecord(xlXactAbort, xid, subxids))
	return err
}

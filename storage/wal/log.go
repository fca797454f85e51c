package wal

import (
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"minipg/internal/fault"
	"minipg/pgerr"
	"minipg/storage/page"
)

// Options configure a Log. The zero value is PostgreSQL's defaults.
type Options struct {
	// SegmentSize is wal_segment_size: a power of two >= 64 KiB; 0 means
	// 16 MiB. An existing cluster keeps the size in its control file.
	SegmentSize int64
	// DisableFullPageWrites turns full_page_writes off (SetFullPageWrites
	// changes it at run time).
	DisableFullPageWrites bool
	// RecycleSegments, if > 0, is how many segments before the redo point
	// are kept (renamed to future names) instead of removed; < 0 none; 0
	// (the default) means as PostgreSQL's XLOGfileslop decides from
	// MinWALSize, MaxWALSize, CompletionTarget and the WAL distance
	// between checkpoints (segment.go).
	RecycleSegments int
	// MinWALSize and MaxWALSize are min_wal_size and max_wal_size in
	// bytes (0: 80 MB and 1 GB); CompletionTarget is
	// checkpoint_completion_target (0: 0.9; negative: 0). The Checkpointer has its own
	// copies for its triggers and pacing.
	MinWALSize, MaxWALSize int64
	CompletionTarget       float64
	// WriterDelay is wal_writer_delay: how often a background goroutine
	// flushes WAL inserted but not flushed (asynchronous commits); 0 means
	// 200ms, < 0 disables it.
	WriterDelay time.Duration
	// BufferSize is wal_buffers: inserted bytes beyond it are written out
	// (not fsynced) by the inserter; 0 means 4 MiB.
	BufferSize int
	// Compression is wal_compression for full-page images (SetCompression
	// changes it at run time).
	Compression Compression
	// NoSync is fsync=off: Flush writes but does not fsync (tests, benchmarks).
	NoSync bool
	// Logger receives recovery and end-of-WAL messages; nil means slog.Default().
	Logger *slog.Logger
}

// Stats are the pg_stat_wal counters since Open.
type Stats struct {
	Records int64 // wal_records
	FPI     int64 // wal_fpi
	Bytes   int64 // wal_bytes
	Write   int64 // wal_write: write-outs of WAL buffers
	Sync    int64 // wal_sync: fsyncs of segment files (one per segment per flush)
	Flushes int64 // group flushes (leader write+fsync rounds); commits/Flushes is the group size
	// Checkpoints completed.
	Checkpoints int64
	// pg_stat_bgwriter: checkpoints started because checkpoint_timeout
	// passed (skipped ones included, as PostgreSQL counts them) and on
	// request (CHECKPOINT, WAL volume); time spent writing and syncing
	// their buffers; buffers they wrote.
	CheckpointsTimed, CheckpointsReq int64
	CheckpointWriteTime              time.Duration
	CheckpointSyncTime               time.Duration
	BuffersCheckpoint                int64
}

// Log is the write-ahead log of one data directory. All methods are safe for
// concurrent use, except Recover, which must run alone before any Insert.
//
// Lock order (outermost first): ckptMu -> w (writer) -> mu (insert);
// fl (flush state) is taken alone or innermost (writeOut records a failed
// write under w). No lock is held across an fsync except w.
type Log struct {
	dir, walDir, controlPath string
	opts                     Options
	segSize                  int64
	log                      *slog.Logger

	// mu is the WAL insert lock (WALInsertLock): it orders records and
	// appends them to the in-memory WAL buffer.
	mu struct {
		sync.Mutex
		insertLSN    uint64 // where the next record starts
		prevLSN      uint64 // start of the last record
		pending      []byte // bytes [pendingStart, insertLSN) not yet written
		pendingStart uint64
		spare        []byte // a drained pending buffer to reuse
	}
	insertPos atomic.Uint64 // mirror of mu.insertLSN for lock-free readers
	redo      atomic.Uint64 // RedoRecPtr; changed only with mu held
	fpw       atomic.Bool   // full_page_writes; changed only with mu held
	// compression is wal_compression (a Compression), read once per record.
	compression atomic.Uint32

	// w serializes writing the WAL buffer to segment files and fsyncing them.
	w struct {
		sync.Mutex
		files    map[uint64]*os.File // open segments
		unsynced map[uint64]bool     // segments written since their last fsync
		written  uint64              // everything before this LSN is written
		newFile  bool                // a segment was created: fsync the directory
	}

	// fl is the group-commit state: one leader writes and fsyncs while
	// others wait on cond for flushed to pass their LSN.
	fl struct {
		sync.Mutex
		cond     *sync.Cond
		flushing bool
		flushed  uint64
		err      error // a failed write/fsync: the log refuses further work
	}
	flushedPos atomic.Uint64 // mirror of fl.flushed
	broken     atomic.Bool   // fl.err is set

	// prealloc wakes the WAL writer to create the segment after the one
	// being filled, so that inserts crossing into it find it ready;
	// preallocated is the highest segment known to exist.
	prealloc     chan struct{}
	preallocated atomic.Uint64

	ckptEnd atomic.Uint64 // end of the last checkpoint record written
	ckptMu  sync.Mutex    // one checkpoint at a time; protects control
	control ControlData   // as last written
	recov   recoveryInfo  // set by Open, used by Recover

	redoFuncs [MaxRmgrID + 1]RedoFunc

	stats struct {
		records, fpi, bytes, write, sync, flushes, checkpoints atomic.Int64
		// pg_stat_bgwriter's checkpoint counters (times in nanoseconds)
		ckptTimed, ckptReq, ckptWriteTime, ckptSyncTime, buffersCheckpoint atomic.Int64
	}
	// ckptDistance is CheckPointDistanceEstimate (bytes of WAL between
	// checkpoints' redo points) and prevRedo the last redo point; both
	// under ckptMu.
	ckptDistance float64
	prevRedo     uint64
	relStats     relStats // per-relation counters (relstats.go)

	closed  atomic.Bool
	stop    chan struct{}
	stopped chan struct{}
	cleaner sync.WaitGroup // removes the segments cutTail set aside (Close waits)
}

// Open opens (or, for an empty directory, creates) the WAL of datadir:
// segments in <datadir>/wal/, the control file at <datadir>/global/pg_control.
//
// On an existing cluster Open reads the last checkpoint, scans the WAL from
// its redo point to the end of valid WAL (a torn or corrupt tail ends the
// scan, with a log message), cuts off whatever follows (zeroing the rest of
// the last segment and setting later ones aside, to be removed in the
// background, so that stale bytes are never mistaken for records), and
// positions the insert point there. The caller
// then registers redo functions and calls Recover before inserting.
func Open(datadir string, opts Options) (*Log, error) {
	if opts.MinWALSize <= 0 {
		opts.MinWALSize = 80 << 20
	}
	if opts.MaxWALSize <= 0 {
		opts.MaxWALSize = 1 << 30
	}
	switch {
	case opts.CompletionTarget == 0 || opts.CompletionTarget > 1:
		opts.CompletionTarget = 0.9
	case opts.CompletionTarget < 0:
		opts.CompletionTarget = 0
	}
	if opts.WriterDelay == 0 {
		opts.WriterDelay = 200 * time.Millisecond
	}
	if opts.BufferSize <= 0 {
		opts.BufferSize = 4 << 20
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	l := &Log{
		dir:         datadir,
		walDir:      filepath.Join(datadir, "wal"),
		controlPath: filepath.Join(datadir, "global", controlName),
		opts:        opts,
		log:         opts.Logger,
		stop:        make(chan struct{}),
		stopped:     make(chan struct{}),
		prealloc:    make(chan struct{}, 1),
	}
	l.fl.cond = sync.NewCond(&l.fl.Mutex)
	l.w.files = map[uint64]*os.File{}
	l.w.unsynced = map[uint64]bool{}
	l.fpw.Store(!opts.DisableFullPageWrites)
	l.compression.Store(uint32(opts.Compression))
	for _, d := range []string{l.walDir, filepath.Dir(l.controlPath)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, pgerr.FromSentinel(ErrIO, err, "could not create directory %q", d)
		}
	}
	ctl, err := readControl(l.controlPath)
	if err != nil {
		return nil, err
	}
	if ctl == nil {
		err = l.bootstrap()
	} else {
		err = l.startup(ctl)
	}
	if err != nil {
		l.closeFiles()
		return nil, err
	}
	if opts.WriterDelay > 0 {
		go l.writer()
		l.cleaner.Add(1)
		go func() {
			defer l.cleaner.Done()
			l.removeSetAside()
		}()
	} else {
		close(l.stopped)
		l.removeSetAside()
	}
	return l, nil
}

func checkSegmentSize(n int64) bool {
	return n >= MinSegmentSize && n <= 1<<30 && n&(n-1) == 0
}

// bootstrap creates a new WAL: the first record, a shutdown checkpoint, goes
// at the start of segment 1 (LSN 0 is InvalidXLogRecPtr).
func (l *Log) bootstrap() error {
	l.segSize = l.opts.SegmentSize
	if l.segSize == 0 {
		l.segSize = DefaultSegmentSize
	}
	if !checkSegmentSize(l.segSize) {
		return pgerr.FromSentinel(ErrIO, nil, "invalid WAL segment size %d: a power of two between 64 KiB and 1 GiB", l.segSize)
	}
	segs, err := listSegments(l.walDir, l.segSize)
	if err != nil {
		return err
	}
	if len(segs) > 0 {
		return pgerr.FromSentinel(ErrCorrupt, nil, "control file %q is missing but WAL segments exist", l.controlPath).WithHint("If this data directory was never started successfully, remove %q to initialize it.", l.walDir)
	}
	start := uint64(l.segSize)
	l.setPosition(start, 0)
	l.redo.Store(start)
	l.control = ControlData{State: StateInProduction, SegmentSize: l.segSize}
	ck, err := l.Checkpoint(CheckpointOptions{Shutdown: true})
	if err != nil {
		return err
	}
	l.recov = recoveryInfo{from: ck.Redo, to: l.InsertLSN(), checkpoint: ck.LSN, ckpt: ck}
	return nil
}

// setPosition sets the insert point (and everything before it as written and
// flushed). Used only while opening.
func (l *Log) setPosition(end, prev uint64) {
	l.mu.insertLSN, l.mu.prevLSN, l.mu.pendingStart = end, prev, end
	if l.mu.pending == nil {
		l.mu.pending = make([]byte, 0, l.opts.BufferSize+l.opts.BufferSize/4)
	}
	l.insertPos.Store(end)
	l.w.written = end
	l.fl.flushed = end
	l.flushedPos.Store(end)
}

type recoveryInfo struct {
	from, to   uint64 // redo point and end of valid WAL
	checkpoint uint64 // LSN of the last checkpoint record
	crashed    bool   // the control file did not say "shut down", or WAL follows the checkpoint
	ckpt       CheckpointInfo
}

// startup finds the end of WAL of an existing cluster.
func (l *Log) startup(ctl *ControlData) error {
	l.segSize = ctl.SegmentSize
	if !checkSegmentSize(l.segSize) {
		return pgerr.FromSentinel(ErrCorrupt, nil, "control file has invalid WAL segment size %d", l.segSize)
	}
	if l.opts.SegmentSize != 0 && l.opts.SegmentSize != l.segSize {
		l.log.Warn("WAL segment size differs from the cluster's; keeping the cluster's",
			"requested", l.opts.SegmentSize, "cluster", l.segSize)
	}
	l.control = *ctl

	// The checkpoint record must be readable.
	rd := NewReader(l.walDir, l.segSize, ctl.Checkpoint, 0, l.log)
	rec, err := rd.Next()
	var ckpt CheckpointInfo
	if err == nil && rec.Rmgr == RmgrXLOG && (rec.Info == InfoCheckpointOnline || rec.Info == InfoCheckpointShutdown) {
		ckpt, err = decodeCheckpoint(rec)
	} else if err == nil {
		err = pgerr.FromSentinel(ErrCorrupt, nil, "record at %s is not a checkpoint", FormatLSN(ctl.Checkpoint))
	}
	rd.Close()
	if err != nil {
		return pgerr.FromSentinel(ErrCorrupt, err, "could not locate a valid checkpoint record at %s", FormatLSN(ctl.Checkpoint))
	}
	if ckpt.Redo != ctl.Redo {
		return pgerr.FromSentinel(ErrCorrupt, nil, "checkpoint record at %s has redo %s, control file says %s",
			FormatLSN(ctl.Checkpoint), FormatLSN(ckpt.Redo), FormatLSN(ctl.Redo))
	}

	// Scan from the redo point to the end of valid WAL.
	rd = NewReader(l.walDir, l.segSize, ctl.Redo, 0, l.log)
	defer rd.Close()
	var n int
	for {
		if _, err := rd.Next(); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return err
		}
		n++
	}
	end, last := rd.EndLSN(), rd.LastLSN()
	if end <= ctl.Checkpoint {
		return pgerr.FromSentinel(ErrCorrupt, nil, "end of WAL %s is before the checkpoint record at %s (%s)",
			FormatLSN(end), FormatLSN(ctl.Checkpoint), rd.EndReason)
	}
	l.log.Info("WAL end located", "redo", FormatLSN(ctl.Redo), "end", FormatLSN(end), "records", n,
		"reason", rd.EndReason)
	crashed := ctl.State != StateShutdown || last != ctl.Checkpoint
	if err := l.cutTail(end, !crashed); err != nil {
		return err
	}
	l.setPosition(end, last)
	l.redo.Store(ctl.Redo)
	l.recov = recoveryInfo{from: ctl.Redo, to: end, checkpoint: ctl.Checkpoint, crashed: crashed, ckpt: ckpt}
	l.control.State = StateInProduction
	return writeControl(l.controlPath, &l.control)
}

// cutTail zeroes the segment holding end from end on and sets later
// segments aside, so nothing after the end of valid WAL can pass for a
// record once new records are written there. A later segment may hold
// records written at their own positions before a crash (valid, had the
// WAL not been cut before them), so it must not keep its name; renaming
// it out of the segment names is enough, and removing the files, 16 MB
// each (up to max_wal_size of recycled segments after a checkpoint that
// recycled many), is left to removeSetAside, off the start-up path.
//
// After a clean shutdown (clean: the shutdown checkpoint is the last
// record) the later segments are kept: none was written under its name
// since the checkpoint, they are the ones it recycled or preallocated
// (their stale records are invalid at their new positions, the CRC covering
// each record's LSN), ready for the WAL to run into without zero-filling
// new files, as PostgreSQL keeps them.
func (l *Log) cutTail(end uint64, clean bool) error {
	segs, err := listSegments(l.walDir, l.segSize)
	if err != nil {
		return err
	}
	endSeg := end / uint64(l.segSize)
	for _, s := range segs {
		path := l.segPath(s)
		switch {
		case s == endSeg:
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				return pgerr.FromSentinel(ErrIO, err, "could not open WAL segment %q", path)
			}
			off := int64(end % uint64(l.segSize))
			err = zeroFill(f, off, l.segSize)
			if err == nil {
				err = f.Sync()
			}
			f.Close()
			if err != nil {
				return pgerr.FromSentinel(ErrIO, err, "could not zero the tail of WAL segment %q", path)
			}
		case s > endSeg && !clean:
			aside := filepath.Join(l.walDir, setAsidePrefix+SegmentName(s, l.segSize))
			if err := os.Rename(path, aside); err != nil {
				return pgerr.FromSentinel(ErrIO, err, "could not rename WAL segment %q", path)
			}
		}
	}
	return syncDir(l.walDir)
}

// setAsidePrefix names the segments cutTail took out of the WAL.
const setAsidePrefix = "xlogtemp.cut."

// removeSetAside removes the segments cutTail set aside, at this start or
// at one a crash interrupted before they were all gone.
func (l *Log) removeSetAside() {
	ents, err := os.ReadDir(l.walDir)
	if err != nil {
		l.log.Warn("could not read WAL directory", "dir", l.walDir, "err", err)
		return
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), setAsidePrefix) {
			if err := os.Remove(filepath.Join(l.walDir, e.Name())); err != nil {
				l.log.Warn("could not remove WAL segment set aside", "file", e.Name(), "err", err)
			}
		}
	}
}

// InsertLSN returns the current insert position (pg_current_wal_insert_lsn).
func (l *Log) InsertLSN() uint64 { return l.insertPos.Load() }

// FlushedLSN returns the position up to which WAL is durable (pg_current_wal_flush_lsn).
func (l *Log) FlushedLSN() uint64 { return l.flushedPos.Load() }

// RedoLSN returns the current redo pointer (RedoRecPtr).
func (l *Log) RedoLSN() uint64 { return l.redo.Load() }

// SegmentSize returns the cluster's WAL segment size.
func (l *Log) SegmentSize() int64 { return l.segSize }

// Dir returns the WAL directory (<datadir>/wal).
func (l *Log) Dir() string { return l.walDir }

// SetFullPageWrites changes full_page_writes.
func (l *Log) SetFullPageWrites(on bool) {
	l.mu.Lock()
	l.fpw.Store(on)
	l.mu.Unlock()
}

// SetCompression changes wal_compression for records inserted from now on.
func (l *Log) SetCompression(c Compression) { l.compression.Store(uint32(c)) }

// Compression returns the current wal_compression.
func (l *Log) Compression() Compression { return Compression(l.compression.Load()) }

// NeedsFPI reports whether a change to a page whose pd_lsn is pageLSN must
// log a full-page image: full_page_writes is on and the page was last
// changed before the current redo point. It is advisory — a checkpoint may
// move the redo point right after — so pass BlockRef.Page and let Insert
// decide under its lock.
func (l *Log) NeedsFPI(pageLSN uint64) bool {
	return l.fpw.Load() && pageLSN <= l.redo.Load()
}

// encodeBufs holds scratch buffers for Insert's record assembly, so that
// a record (up to a few full-page images) costs no allocation.
var encodeBufs = sync.Pool{New: func() any { return new(encodeScratch) }}

// maxPooledEncodeBuf: larger scratch buffers (huge records) are not kept.
const maxPooledEncodeBuf = 4 * page.BlockSize

// Insert appends rec to the log and returns its end LSN (XLogInsert's
// EndRecPtr): set the changed pages' pd_lsn to it (under their exclusive
// content locks, before unlocking), and Flush to it to make the record
// durable. For each block whose Page is given, Insert logs a full-page image
// as BlockRef describes. The record is in the WAL buffer, not yet on disk.
func (l *Log) Insert(rec *Record) (uint64, error) {
	_, end, err := l.insert(rec)
	return end, err
}

// insert returns the record's start and end LSNs.
func (l *Log) insert(rec *Record) (uint64, uint64, error) {
	if err := l.failed(); err != nil {
		return 0, 0, err
	}
	hasPages := false
	for i := range rec.Blocks {
		hasPages = hasPages || rec.Blocks[i].Page != nil
	}
	// The record is assembled in a reused buffer and copied into the WAL
	// buffer under l.mu; the scratch goes back to the pool afterwards.
	sc := encodeBufs.Get().(*encodeScratch)
	defer func() {
		if cap(sc.rec) <= maxPooledEncodeBuf && cap(sc.comp) <= maxPooledEncodeBuf {
			encodeBufs.Put(sc)
		}
	}()
	comp := Compression(l.compression.Load())
	for {
		redo, fpw := l.redo.Load(), l.fpw.Load()
		needImage := func(b *BlockRef) bool {
			return b.ForceImage || (fpw && !b.WillInit && page.LSN(b.Page) <= redo)
		}
		buf, crc, nimg, err := encode(rec, needImage, comp, sc)
		if err != nil {
			return 0, 0, err
		}
		l.mu.Lock()
		if hasPages && (l.redo.Load() != redo || l.fpw.Load() != fpw) {
			// A checkpoint started (or full_page_writes changed) while we
			// assembled: decide the images again.
			l.mu.Unlock()
			continue
		}
		lsn := l.mu.insertLSN
		finish(buf, crc, lsn, l.mu.prevLSN)
		l.mu.pending = append(l.mu.pending, buf...)
		l.mu.prevLSN = lsn
		l.mu.insertLSN += uint64(len(buf))
		end := l.mu.insertLSN
		l.insertPos.Store(end)
		over := len(l.mu.pending) >= l.opts.BufferSize
		l.mu.Unlock()

		if seg := end / uint64(l.segSize); seg+1 > l.preallocated.Load() && end%uint64(l.segSize) >= uint64(l.segSize)/2 {
			select {
			case l.prealloc <- struct{}{}:
			default:
			}
		}

		l.stats.records.Add(1)
		l.stats.fpi.Add(int64(nimg))
		l.stats.bytes.Add(int64(len(buf)))
		l.countRel(rec, len(buf), needImage)
		if over {
			if _, err := l.writeOut(false); err != nil {
				return 0, 0, err
			}
		}
		return lsn, end, nil
	}
}

// Flush makes the WAL durable up to at least lsn (XLogFlush) and returns
// when it is. Concurrent callers share the work: one of them writes and
// fsyncs everything inserted so far while the others wait, and all whose
// LSN that covers return together (group commit).
func (l *Log) Flush(lsn uint64) error {
	if lsn <= l.flushedPos.Load() {
		return nil
	}
	if lsn > l.InsertLSN() {
		return pgerr.FromSentinel(ErrFlushBeyondInsert, nil, "xlog flush request %s is not satisfied --- flushed only to %s",
			FormatLSN(lsn), FormatLSN(l.InsertLSN()))
	}
	l.fl.Lock()
	for {
		if l.fl.err != nil {
			err := l.fl.err
			l.fl.Unlock()
			return err
		}
		if l.fl.flushed >= lsn {
			l.fl.Unlock()
			return nil
		}
		if !l.fl.flushing {
			break
		}
		l.fl.cond.Wait()
	}
	l.fl.flushing = true
	l.fl.Unlock()

	end, err := l.writeOut(!l.opts.NoSync)
	l.stats.flushes.Add(1)

	l.fl.Lock()
	l.fl.flushing = false
	if err != nil {
		l.fl.err = err
		l.broken.Store(true)
	} else if end > l.fl.flushed {
		l.fl.flushed = end
		l.flushedPos.Store(end)
	}
	l.fl.cond.Broadcast()
	l.fl.Unlock()
	return err
}

// FlushAll flushes everything inserted so far.
func (l *Log) FlushAll() error { return l.Flush(l.InsertLSN()) }

func (l *Log) failed() error {
	if l.closed.Load() {
		return ErrClosed
	}
	if !l.broken.Load() {
		return nil
	}
	l.fl.Lock()
	defer l.fl.Unlock()
	return l.fl.err
}

// writeOut writes the WAL buffer to the segment files and, with sync,
// fsyncs every segment written since its last fsync. It returns the LSN up
// to which WAL is now written (and, with sync, durable).
func (l *Log) writeOut(sync bool) (uint64, error) {
	l.w.Lock()
	defer l.w.Unlock()
	l.mu.Lock()
	data, start := l.mu.pending, l.mu.pendingStart
	end := start + uint64(len(data))
	next := l.mu.spare
	if next == nil {
		// The first swap, or the last buffer grew too big to keep: a new
		// one with room for a buffer's worth and the record that crosses it.
		next = make([]byte, 0, l.opts.BufferSize+l.opts.BufferSize/4)
	}
	l.mu.pending, l.mu.spare = next[:0], nil
	l.mu.pendingStart = end
	l.mu.Unlock()

	err := l.writeLocked(start, data)
	if err == nil && sync {
		err = l.syncLocked()
	}
	if err != nil {
		// The bytes are gone from the buffer: the log cannot go on (PostgreSQL PANICs).
		l.fl.Lock()
		first := l.fl.err == nil
		if first {
			l.fl.err = err
			l.broken.Store(true)
		}
		l.fl.Unlock()
		if first {
			l.panic(err)
		}
		return 0, err
	}
	if cap(data) <= 4*l.opts.BufferSize {
		l.mu.Lock()
		if l.mu.spare == nil {
			l.mu.spare = data[:0]
		}
		l.mu.Unlock()
	}
	return end, nil
}

// writeLocked pwrites data at LSN start, across segments; l.w is held.
func (l *Log) writeLocked(start uint64, data []byte) error {
	if len(data) > 0 {
		l.stats.write.Add(1)
	}
	for len(data) > 0 {
		segno := start / uint64(l.segSize)
		off := int64(start % uint64(l.segSize))
		n := min(int64(len(data)), l.segSize-off)
		f, err := l.segFileLocked(segno)
		if err != nil {
			return err
		}
		err = fault.Check(fault.WALWrite, "write", f.Name())
		if err == nil {
			_, err = f.WriteAt(data[:n], off)
		}
		if err != nil {
			return pgerr.FromSentinel(ErrIO, err, "could not write to WAL segment %s at offset %d", SegmentName(segno, l.segSize), off)
		}
		l.w.unsynced[segno] = true
		data = data[n:]
		start += uint64(n)
	}
	l.w.written = start
	return nil
}

// syncLocked fsyncs the segments written since their last fsync and closes
// segments the writer has moved past; l.w is held.
func (l *Log) syncLocked() error {
	cur := l.w.written / uint64(l.segSize)
	for segno := range l.w.unsynced {
		f := l.w.files[segno]
		err := fault.Check(fault.WALFsync, "fsync", f.Name())
		if err == nil {
			err = fdatasync(f)
		}
		if err != nil {
			return pgerr.FromSentinel(ErrIO, err, "could not fsync WAL segment %s", SegmentName(segno, l.segSize))
		}
		l.stats.sync.Add(1)
		delete(l.w.unsynced, segno)
	}
	if l.w.newFile {
		if err := syncDir(l.walDir); err != nil {
			return err
		}
		l.w.newFile = false
	}
	for segno, f := range l.w.files {
		if segno < cur && !l.w.unsynced[segno] {
			f.Close()
			delete(l.w.files, segno)
		}
	}
	return nil
}

// writer is the WAL writer: it flushes asynchronously committed WAL.
func (l *Log) writer() {
	defer close(l.stopped)
	t := time.NewTicker(l.opts.WriterDelay)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-l.prealloc:
			if err := l.preallocNext(); err != nil {
				l.log.Warn("could not preallocate the next WAL segment", "err", err)
			}
		case <-t.C:
			if ins := l.InsertLSN(); ins > l.FlushedLSN() {
				if err := l.Flush(ins); err != nil {
					l.log.Error("WAL writer could not flush", "err", err)
				}
			}
		}
	}
}

// Stats returns the counters.
func (l *Log) Stats() Stats {
	return Stats{
		Records: l.stats.records.Load(), FPI: l.stats.fpi.Load(), Bytes: l.stats.bytes.Load(),
		Write: l.stats.write.Load(), Sync: l.stats.sync.Load(), Flushes: l.stats.flushes.Load(),
		Checkpoints:      l.stats.checkpoints.Load(),
		CheckpointsTimed: l.stats.ckptTimed.Load(), CheckpointsReq: l.stats.ckptReq.Load(),
		CheckpointWriteTime: time.Duration(l.stats.ckptWriteTime.Load()),
		CheckpointSyncTime:  time.Duration(l.stats.ckptSyncTime.Load()),
		BuffersCheckpoint:   l.stats.buffersCheckpoint.Load(),
	}
}

// Close flushes the WAL and closes the segment files. It does not
// checkpoint: a clean shutdown calls Checkpoint(Shutdown: true) first.
func (l *Log) Close() error {
	if l.closed.Load() {
		return nil
	}
	err := l.FlushAll()
	if l.closed.Swap(true) {
		return nil
	}
	close(l.stop)
	<-l.stopped
	l.cleaner.Wait()
	l.closeFiles()
	return err
}

func (l *Log) closeFiles() {
	l.w.Lock()
	defer l.w.Unlock()
	for segno, f := range l.w.files {
		f.Close()
		delete(l.w.files, segno)
	}
}

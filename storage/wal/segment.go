package wal

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"minipg/internal/durable"
	"minipg/internal/fault"
	"minipg/pgerr"
)

// Segment sizes.
const (
	DefaultSegmentSize = 16 << 20 // wal_segment_size
	MinSegmentSize     = 64 << 10
	timeline           = 1 // minipg has one timeline; kept in the name for PostgreSQL's look
)

// SegmentName returns the file name of segment segno, as PostgreSQL's
// XLogFileName: timeline, then the segment number split in "log" and "seg"
// parts of 32 bits of LSN space each, 8 hex digits apiece.
func SegmentName(segno uint64, segSize int64) string {
	perID := uint64(1<<32) / uint64(segSize)
	return fmt.Sprintf("%08X%08X%08X", timeline, segno/perID, segno%perID)
}

// parseSegmentName is the inverse of SegmentName.
func parseSegmentName(name string, segSize int64) (uint64, bool) {
	if len(name) != 24 {
		return 0, false
	}
	tli, err1 := strconv.ParseUint(name[0:8], 16, 32)
	hi, err2 := strconv.ParseUint(name[8:16], 16, 32)
	lo, err3 := strconv.ParseUint(name[16:24], 16, 32)
	perID := uint64(1<<32) / uint64(segSize)
	if err1 != nil || err2 != nil || err3 != nil || tli != timeline || lo >= perID {
		return 0, false
	}
	return hi*perID + lo, true
}

// listSegments returns the segment numbers present in dir, ascending.
func listSegments(dir string, segSize int64) ([]uint64, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, pgerr.FromSentinel(ErrIO, err, "could not read WAL directory %q", dir)
	}
	var segs []uint64
	for _, e := range ents {
		if n, ok := parseSegmentName(e.Name(), segSize); ok && e.Type().IsRegular() {
			segs = append(segs, n)
		}
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i] < segs[j] })
	return segs, nil
}

func (l *Log) segPath(segno uint64) string {
	return filepath.Join(l.walDir, SegmentName(segno, l.segSize))
}

// segFileLocked returns segment segno open for writing, creating it (full
// size, zero-filled: a sparse file) if absent. l.w is held.
func (l *Log) segFileLocked(segno uint64) (*os.File, error) {
	if f := l.w.files[segno]; f != nil {
		return f, nil
	}
	path := l.segPath(segno)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, pgerr.FromSentinel(ErrIO, err, "could not open WAL segment %q", path)
	}
	st, err := f.Stat()
	if err == nil && st.Size() < l.segSize {
		// New segment: zero-fill it to its full size (XLogFileInit), so
		// later writes need no block allocation, fsync it, and make the
		// directory entry durable at the next flush.
		err = fault.Check(fault.WALWrite, "write", path)
		if err == nil {
			err = zeroFill(f, st.Size(), l.segSize)
		}
		if err == nil {
			err = f.Sync()
		}
		l.w.newFile = true
	}
	if err != nil {
		f.Close()
		return nil, pgerr.FromSentinel(ErrIO, err, "could not initialize WAL segment %q", path)
	}
	l.w.files[segno] = f
	return f, nil
}

// removeOldSegments recycles or removes the segments wholly before redo
// (RemoveOldXlogFiles). Recycled segments are renamed to future segment
// numbers, as many as keepRecycled allows (PostgreSQL's XLOGfileslop, or
// Options.RecycleSegments); their stale contents are harmless because
// every record's CRC covers its own LSN.
func (l *Log) removeOldSegments(redo uint64) (removed, recycled int, err error) {
	l.w.Lock()
	defer l.w.Unlock()
	segs, err := listSegments(l.walDir, l.segSize)
	if err != nil {
		return 0, 0, err
	}
	keepFrom := redo / uint64(l.segSize)
	l.mu.Lock()
	cur := l.mu.insertLSN / uint64(l.segSize)
	l.mu.Unlock()
	if w := l.w.written / uint64(l.segSize); w > cur {
		cur = w
	}
	highest, future := cur, 0
	for _, s := range segs {
		if s > highest {
			highest = s
		}
		if s > cur {
			future++
		}
	}
	for _, s := range segs {
		if s >= keepFrom {
			break
		}
		if f := l.w.files[s]; f != nil {
			f.Close()
			delete(l.w.files, s)
		}
		if l.keepRecycled(future, highest, redo) {
			highest++
			if err := os.Rename(l.segPath(s), l.segPath(highest)); err != nil {
				return removed, recycled, pgerr.FromSentinel(ErrIO, err, "could not recycle WAL segment %q", l.segPath(s))
			}
			future++
			recycled++
			continue
		}
		if err := os.Remove(l.segPath(s)); err != nil {
			return removed, recycled, pgerr.FromSentinel(ErrIO, err, "could not remove WAL segment %q", l.segPath(s))
		}
		removed++
	}
	// PreallocXlogFiles: have the next segment ready so that a commit does
	// not wait for it to be zero-filled.
	if _, err := os.Stat(l.segPath(cur + 1)); err != nil {
		if _, err := l.segFileLocked(cur + 1); err != nil {
			return removed, recycled, err
		}
	}
	return removed, recycled, syncDir(l.walDir)
}

// keepRecycled reports whether an old segment is renamed to the next future
// name (highest+1) rather than removed, with future segments already ahead
// of the insert position. With RecycleSegments > 0 it keeps that many; by
// default PostgreSQL's XLOGfileslop: future segments up to the redo point
// plus (1 + checkpoint_completion_target) x the estimated WAL between
// checkpoints (+10%), but at least to redo + min_wal_size and at most to
// redo + max_wal_size. l.w and ckptMu are held.
func (l *Log) keepRecycled(future int, highest, redo uint64) bool {
	switch {
	case l.opts.RecycleSegments < 0:
		return false
	case l.opts.RecycleSegments > 0:
		return future < l.opts.RecycleSegments
	}
	return highest+1 <= l.recycleSegNo(redo)
}

// recycleSegNo is XLOGfileslop: the highest segment number worth keeping
// ready after a checkpoint whose redo point is redo.
func (l *Log) recycleSegNo(redo uint64) uint64 {
	seg := uint64(l.segSize)
	minSeg := redo/seg + uint64(l.opts.MinWALSize)/seg - 1
	maxSeg := redo/seg + uint64(l.opts.MaxWALSize)/seg - 1
	distance := (1 + l.opts.CompletionTarget) * l.ckptDistance * 1.10
	n := uint64(math.Ceil((float64(redo) + distance) / float64(seg)))
	return min(max(n, minSeg), maxSeg)
}

// updateDistanceEstimate is UpdateCheckPointDistanceEstimate: the WAL
// between two checkpoints' redo points, rising at once and decaying slowly
// (90% old, 10% new). ckptMu is held.
func (l *Log) updateDistanceEstimate(redo uint64) {
	if l.prevRedo != 0 && redo > l.prevRedo {
		n := float64(redo - l.prevRedo)
		if l.ckptDistance < n {
			l.ckptDistance = n
		} else {
			l.ckptDistance = 0.9*l.ckptDistance + 0.1*n
		}
	}
	l.prevRedo = redo
}

func syncDir(dir string) error {
	if err := durable.SyncDir(dir); err != nil {
		return pgerr.FromSentinel(ErrIO, err, "could not fsync directory %q", dir)
	}
	return nil
}

var zeroes = make([]byte, 64<<10)

// zeroFill writes zeroes to f from off to size.
func zeroFill(f *os.File, off, size int64) error {
	for off < size {
		n := min(int64(len(zeroes)), size-off)
		if _, err := f.WriteAt(zeroes[:n], off); err != nil {
			return err
		}
		off += n
	}
	return nil
}

// preallocNext creates, zero-filled, the segment after the one being
// filled, if it does not exist yet (the WAL writer's part of PostgreSQL's
// PreallocXlogFiles). The file is filled under a temporary name without
// any lock, then renamed into place under l.w, as XLogFileInit does, so
// that segFileLocked never sees a partly filled segment; if a writer made
// the segment meanwhile, the temporary file is dropped.
func (l *Log) preallocNext() error {
	next := l.InsertLSN()/uint64(l.segSize) + 1
	if next <= l.preallocated.Load() {
		return nil
	}
	path := l.segPath(next)
	if _, err := os.Stat(path); err == nil {
		l.notePreallocated(next)
		return nil
	}
	tmp := filepath.Join(l.walDir, "xlogtemp.prealloc")
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return pgerr.FromSentinel(ErrIO, err, "could not create file %q", tmp)
	}
	err = zeroFill(f, 0, l.segSize)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return pgerr.FromSentinel(ErrIO, err, "could not initialize WAL segment %q", tmp)
	}
	l.w.Lock()
	defer l.w.Unlock()
	if _, err := os.Stat(path); err == nil {
		os.Remove(tmp)
		l.notePreallocated(next)
		return nil
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return pgerr.FromSentinel(ErrIO, err, "could not rename file %q to %q", tmp, path)
	}
	l.w.newFile = true // the directory entry becomes durable at the next flush
	l.notePreallocated(next)
	return nil
}

func (l *Log) notePreallocated(segno uint64) {
	for {
		cur := l.preallocated.Load()
		if segno <= cur || l.preallocated.CompareAndSwap(cur, segno) {
			return
		}
	}
}

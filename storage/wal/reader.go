package wal

import (
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"minipg/pgerr"
	"os"
	"path/filepath"
	"strconv"
)

// Reader iterates over the records on disk from a start LSN. It stops at
// the end of valid WAL: a zero length (never-written space), a length out
// of range, a checksum mismatch (torn or damaged record, or stale bytes of
// a recycled segment), a wrong prev-link, or a missing segment. Next then
// returns io.EOF, EndReason says why, and the reason is logged once at Info
// level, as PostgreSQL logs "invalid record length at 0/1634F10: wanted 24,
// got 0". Only what was written to the segment files is seen: Flush first.
//
// A Reader is not safe for concurrent use.
type Reader struct {
	dir     string
	segSize int64
	log     *slog.Logger

	next      uint64 // where the next record starts
	prev      uint64 // LSN of the last record returned; 0 before the first
	checkPrev bool

	files map[uint64]*os.File
	buf   []byte

	// The read-ahead window: bytes [winOff, winOff+len(win)) of segment
	// winSeg (empty before the first read).
	win    []byte
	winSeg uint64
	winOff int64
	reads  int // segment reads so far

	rec  DecodedRecord
	done bool

	// EndReason describes why iteration stopped ("" until it has).
	EndReason string
}

// NewReader returns a Reader over the segments in walDir starting at lsn,
// which must be the start of a record. If prev is non-zero, the first
// record's prev-link must equal it.
func NewReader(walDir string, segSize int64, lsn, prev uint64, log *slog.Logger) *Reader {
	if log == nil {
		log = slog.Default()
	}
	return &Reader{dir: walDir, segSize: segSize, log: log, next: lsn, prev: prev, checkPrev: prev != 0,
		files: map[uint64]*os.File{}}
}

// NewReader returns a Reader over this log's segments from lsn.
func (l *Log) NewReader(lsn uint64) *Reader {
	return NewReader(l.walDir, l.segSize, lsn, 0, l.log)
}

// EndLSN returns the position after the last valid record returned (where
// the next record would go).
func (r *Reader) EndLSN() uint64 { return r.next }

// LastLSN returns the start of the last record returned, 0 if none.
func (r *Reader) LastLSN() uint64 { return r.prev }

// Close closes the segment files.
func (r *Reader) Close() {
	for _, f := range r.files {
		f.Close()
	}
	r.files = map[uint64]*os.File{}
}

// readAhead is how much of a segment one read brings in: records are
// decoded from it, so a redo pass costs a read system call per quarter
// megabyte rather than two per record.
const readAhead = 256 << 10

// readAt fills buf from the logical WAL stream at lsn, across segments,
// through the read-ahead window (a copy of what a segment held when it was
// read: a Reader sees what was written before it got there, as the doc
// comment says).
func (r *Reader) readAt(lsn uint64, buf []byte) error {
	for len(buf) > 0 {
		segno := lsn / uint64(r.segSize)
		off := int64(lsn % uint64(r.segSize))
		if r.winSeg != segno || off < r.winOff || off >= r.winOff+int64(len(r.win)) {
			if err := r.fill(segno, off); err != nil {
				return err
			}
		}
		n := copy(buf, r.win[off-r.winOff:])
		buf = buf[n:]
		lsn += uint64(n)
	}
	return nil
}

// fill reads the window from segment segno at off: up to readAhead bytes,
// never past the segment's end.
func (r *Reader) fill(segno uint64, off int64) error {
	f := r.files[segno]
	if f == nil {
		var err error
		f, err = os.Open(filepath.Join(r.dir, SegmentName(segno, r.segSize)))
		if errors.Is(err, fs.ErrNotExist) {
			r.EndReason = "WAL segment " + SegmentName(segno, r.segSize) + " does not exist"
			return errEnd
		}
		if err != nil {
			return pgerr.FromSentinel(ErrIO, err, "could not open WAL segment %s", SegmentName(segno, r.segSize))
		}
		r.files[segno] = f
	}
	if cap(r.win) < readAhead {
		r.win = make([]byte, readAhead)
	}
	n := min(int64(readAhead), r.segSize-off)
	got, err := f.ReadAt(r.win[:n], off)
	r.reads++
	r.win, r.winSeg, r.winOff = r.win[:got], segno, off
	if got == 0 {
		if err == nil || errors.Is(err, io.EOF) {
			r.EndReason = "WAL segment " + SegmentName(segno, r.segSize) + " is short"
			return errEnd
		}
		return pgerr.FromSentinel(ErrIO, err, "could not read WAL segment %s at offset %d", SegmentName(segno, r.segSize), off)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return pgerr.FromSentinel(ErrIO, err, "could not read WAL segment %s at offset %d", SegmentName(segno, r.segSize), off)
	}
	return nil
}

// Next returns the next record, or io.EOF at the end of valid WAL. Other
// errors are I/O errors. The record and its slices are valid until the next
// call.
func (r *Reader) Next() (*DecodedRecord, error) {
	if r.done {
		return nil, io.EOF
	}
	lsn := r.next
	var hdr [RecordHeaderSize]byte
	if err := r.readAt(lsn, hdr[:]); err != nil {
		return nil, r.end(err)
	}
	total := int(binary.LittleEndian.Uint32(hdr[0:]))
	if total < RecordHeaderSize || total > MaxRecordSize {
		r.EndReason = "invalid record length at " + FormatLSN(lsn) + ": wanted " +
			strconv.Itoa(RecordHeaderSize) + ", got " + strconv.Itoa(total)
		return nil, r.end(errEnd)
	}
	if cap(r.buf) < total {
		r.buf = make([]byte, total)
	}
	buf := r.buf[:total]
	copy(buf, hdr[:])
	if err := r.readAt(lsn+RecordHeaderSize, buf[RecordHeaderSize:]); err != nil {
		if err == errEnd {
			r.EndReason = "record at " + FormatLSN(lsn) + " runs past the end of WAL (" + r.EndReason + ")"
		}
		return nil, r.end(err)
	}
	if why := decode(buf, lsn, &r.rec); why != "" {
		r.EndReason = why + " in record at " + FormatLSN(lsn)
		return nil, r.end(errEnd)
	}
	if r.checkPrev && r.rec.Prev != r.prev {
		r.EndReason = "record with incorrect prev-link " + FormatLSN(r.rec.Prev) + " at " + FormatLSN(lsn)
		return nil, r.end(errEnd)
	}
	r.checkPrev = true
	r.prev = lsn
	r.next = r.rec.EndLSN
	return &r.rec, nil
}

func (r *Reader) end(err error) error {
	if err != errEnd {
		return err
	}
	r.done = true
	r.log.Info("end of WAL", "lsn", FormatLSN(r.next), "reason", r.EndReason)
	return io.EOF
}

// FindRecord is XLogFindNextRecord: the start of the first record that
// begins at or after lsn and before the flushed end of the log, and false
// when there is none. minipg's segments carry no page headers that would
// let a reader find a record boundary in the middle of the stream, so the
// search walks from a record known to start before lsn: lsn itself when a
// valid record starts there, else the last checkpoint's redo point. WAL
// before the redo point is found only from an exact record start.
func (l *Log) FindRecord(lsn uint64) (uint64, bool, error) {
	end := l.FlushedLSN()
	if lsn >= end {
		return 0, false, nil
	}
	r := l.NewReader(lsn)
	r.log = discardLogger
	rec, err := r.Next()
	r.Close()
	if err == nil && rec.LSN == lsn {
		return lsn, true, nil
	}
	redo := l.RedoLSN()
	if lsn < redo {
		return 0, false, nil
	}
	r = l.NewReader(redo)
	r.log = discardLogger
	defer r.Close()
	for {
		rec, err := r.Next()
		if err == io.EOF || (err == nil && rec.LSN >= end) {
			return 0, false, nil
		}
		if err != nil {
			return 0, false, err
		}
		if rec.LSN >= lsn {
			return rec.LSN, true, nil
		}
	}
}

// discardLogger drops the end-of-WAL message of the readers of FindRecord.
var discardLogger = slog.New(slog.DiscardHandler)

package executor

// Sort runs on disk: what sortIter writes when its rows pass work_mem, and
// the merge that reads them back in order (PostgreSQL's tuplesort with
// tapes, simplified: every run is merged at once, runs beyond
// maxMergeRuns are first merged into one).
//
// A run file holds rows one after another; each column is one byte (0:
// NULL, 1: a value) and, for a value, its length as a uvarint and the
// type's binary (send) form:
//
//	+------+-----------+-----------------+------+-----
//	| 0x01 | uvarint n | n bytes (send)  | 0x00 | ...   (one row: a value, a NULL, ...)
//	+------+-----------+-----------------+------+-----
//
// Files live in the data directory's base/pgsql_tmp, as PostgreSQL's
// temporary files do, and are unlinked as soon as they are created: a
// crash or a kill leaves nothing behind.

import (
	"bufio"
	"container/heap"
	"context"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// maxMergeRuns is the most runs merged at once (open files per sort).
var maxMergeRuns = 128

// onSpillRun, when set (by tests), is told of every run written.
var onSpillRun func(rows int)

// newSortIter sorts in's rows (of types typs) by keys, spilling runs to
// disk past the session's work_mem.
func (x *execCtx) newSortIter(in rowIter, keys []sql.SortKey, typs []types.T) *sortIter {
	return &sortIter{in: in, keys: keys, typs: typs, workMem: x.s.workMem(),
		tmpDir: filepath.Join(x.s.e.cfg.DataDir, "base", "pgsql_tmp")}
}

// rowSize estimates the memory a materialized row holds.
func rowSize(row []types.Datum) int64 {
	n := int64(24 + 16*len(row))
	for _, d := range row {
		switch v := d.(type) {
		case string:
			n += int64(len(v))
		case []byte:
			n += int64(24 + len(v))
		case nil:
		default:
			n += 16
		}
	}
	return n
}

// spillSet is one sort's runs on disk and, once the input is read, the
// merge over them.
type spillSet struct {
	dir  string
	typs []types.T
	keys []sql.SortKey
	runs []*os.File
	buf  []byte

	merge *runHeap
}

func newSpillSet(dir string, typs []types.T, keys []sql.SortKey) *spillSet {
	return &spillSet{dir: dir, typs: typs, keys: keys}
}

func (s *spillSet) tempFile() (*os.File, error) { return createTempFile(s.dir) }

// createTempFile creates a temporary file in dir (created if absent) and
// unlinks it at once: it lives until closed, and a crash leaves nothing.
func createTempFile(dir string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, pgerr.Wrapf(err, pgerr.IOError, "could not create directory \"%s\"", dir)
	}
	f, err := os.CreateTemp(dir, "pgsql_tmp")
	if err != nil {
		return nil, pgerr.Wrapf(err, pgerr.IOError, "could not create temporary file")
	}
	_ = os.Remove(f.Name())
	return f, nil
}

// writeRun writes rows (sorted) as a new run and returns its size.
func (s *spillSet) writeRun(rows [][]types.Datum) (int64, error) {
	if len(s.runs) >= maxMergeRuns {
		if err := s.mergeRuns(); err != nil {
			return 0, err
		}
	}
	f, err := s.tempFile()
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	for _, row := range rows {
		if err := s.writeRow(w, row); err != nil {
			f.Close()
			return 0, err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, pgerr.Wrapf(err, pgerr.IOError, "could not write to temporary file")
	}
	size, _ := f.Seek(0, io.SeekCurrent)
	s.runs = append(s.runs, f)
	if onSpillRun != nil {
		onSpillRun(len(rows))
	}
	return size, nil
}

func (s *spillSet) writeRow(w *bufio.Writer, row []types.Datum) error {
	b := s.buf[:0]
	for i, d := range row {
		if d == nil {
			b = append(b, 0)
			continue
		}
		v, err := types.EncodeBinary(s.typs[i], d)
		if err != nil {
			return err
		}
		b = append(b, 1)
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	s.buf = b
	if _, err := w.Write(b); err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not write to temporary file")
	}
	return nil
}

// runReader reads a run back.
type runReader struct {
	f    *os.File
	r    *bufio.Reader
	typs []types.T
	buf  []byte
}

func (s *spillSet) openRun(f *os.File) (*runReader, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, pgerr.Wrapf(err, pgerr.IOError, "could not seek in temporary file")
	}
	return &runReader{f: f, r: bufio.NewReaderSize(f, 64<<10), typs: s.typs}, nil
}

// next returns the run's next row, or nil at its end.
func (rr *runReader) next() ([]types.Datum, error) {
	row := make([]types.Datum, len(rr.typs))
	for i := range rr.typs {
		tag, err := rr.r.ReadByte()
		if err == io.EOF && i == 0 {
			return nil, nil
		}
		if err != nil {
			return nil, pgerr.Wrapf(err, pgerr.IOError, "could not read from temporary file")
		}
		if tag == 0 {
			continue
		}
		n, err := binary.ReadUvarint(rr.r)
		if err != nil {
			return nil, pgerr.Wrapf(err, pgerr.IOError, "could not read from temporary file")
		}
		if uint64(cap(rr.buf)) < n {
			rr.buf = make([]byte, n)
		}
		b := rr.buf[:n]
		if _, err := io.ReadFull(rr.r, b); err != nil {
			return nil, pgerr.Wrapf(err, pgerr.IOError, "could not read from temporary file")
		}
		if row[i], err = types.DecodeBinary(rr.typs[i], b); err != nil {
			return nil, err
		}
	}
	return row, nil
}

// source is one input of a merge: a run on disk, or the rows left in
// memory (which came last: ties go to the earlier runs, keeping the sort
// stable).
type source struct {
	run  *runReader
	rows [][]types.Datum
	i    int
	cur  []types.Datum
	idx  int
}

func (src *source) advance() error {
	if src.run != nil {
		row, err := src.run.next()
		src.cur = row
		return err
	}
	src.cur = nil
	if src.i < len(src.rows) {
		src.cur = src.rows[src.i]
		src.rows[src.i] = nil
		src.i++
	}
	return nil
}

type runHeap struct {
	keys []sql.SortKey
	srcs []*source
}

func (h *runHeap) Len() int { return len(h.srcs) }
func (h *runHeap) Less(i, j int) bool {
	if c := compareRows(h.keys, h.srcs[i].cur, h.srcs[j].cur); c != 0 {
		return c < 0
	}
	return h.srcs[i].idx < h.srcs[j].idx
}
func (h *runHeap) Swap(i, j int) { h.srcs[i], h.srcs[j] = h.srcs[j], h.srcs[i] }
func (h *runHeap) Push(x any)    { h.srcs = append(h.srcs, x.(*source)) }
func (h *runHeap) Pop() any {
	x := h.srcs[len(h.srcs)-1]
	h.srcs = h.srcs[:len(h.srcs)-1]
	return x
}

// newMerge opens every run, plus rest (sorted, in memory) as the last
// source.
func (s *spillSet) newMerge(rest [][]types.Datum) (*runHeap, error) {
	h := &runHeap{keys: s.keys}
	for i, f := range s.runs {
		rr, err := s.openRun(f)
		if err != nil {
			return nil, err
		}
		h.srcs = append(h.srcs, &source{run: rr, idx: i})
	}
	if len(rest) > 0 {
		h.srcs = append(h.srcs, &source{rows: rest, idx: len(s.runs)})
	}
	live := h.srcs[:0]
	for _, src := range h.srcs {
		if err := src.advance(); err != nil {
			return nil, err
		}
		if src.cur != nil {
			live = append(live, src)
		}
	}
	h.srcs = live
	heap.Init(h)
	return h, nil
}

// pop returns the smallest row of the merge, or nil at its end.
func (h *runHeap) pop() ([]types.Datum, error) {
	if len(h.srcs) == 0 {
		return nil, nil
	}
	src := h.srcs[0]
	row := src.cur
	if err := src.advance(); err != nil {
		return nil, err
	}
	if src.cur == nil {
		heap.Pop(h)
	} else {
		heap.Fix(h, 0)
	}
	return row, nil
}

// mergeRuns merges every run into one, so that a sort never holds more than
// maxMergeRuns files open.
func (s *spillSet) mergeRuns() error {
	h, err := s.newMerge(nil)
	if err != nil {
		return err
	}
	f, err := s.tempFile()
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	for {
		row, err := h.pop()
		if err == nil && row != nil {
			err = s.writeRow(w, row)
		}
		if err != nil {
			f.Close()
			return err
		}
		if row == nil {
			break
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return pgerr.Wrapf(err, pgerr.IOError, "could not write to temporary file")
	}
	for _, r := range s.runs {
		r.Close()
	}
	s.runs = []*os.File{f}
	return nil
}

// startMerge begins handing out the rows of every run and of rest in
// order.
func (s *spillSet) startMerge(rest [][]types.Datum) error {
	h, err := s.newMerge(rest)
	if err != nil {
		return err
	}
	s.merge = h
	return nil
}

func (s *spillSet) next(ctx context.Context) ([]types.Datum, bool, error) {
	row, err := s.merge.pop()
	if err != nil || row == nil {
		return nil, false, err
	}
	return row, true, nil
}

// close closes (and so frees) every run.
func (s *spillSet) close() {
	for _, f := range s.runs {
		f.Close()
	}
	s.runs = nil
}

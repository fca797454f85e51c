package executor

// The sort of a disk index build (PostgreSQL's tuplesort for CREATE
// INDEX): entries are collected in memory up to maintenance_work_mem, then
// sorted and written out as a run to a temporary file, and Finish merges
// the runs (and what is left in memory) into the nbtree.Builder.
//
// A run file holds entries one after another, each as its length (a
// uvarint) and its bytes. A unique build's entries carry 7 bytes more,
// which never reach the index: whether the duplicate check counts the
// entry (a live version without NULLs) and the TID of the version itself
// (the entry's is its HOT chain's root), to name the key of a duplicate.
// The check is made as the merge emits the entries (PostgreSQL's
// tuplesort does it as it sorts): two counted entries with one key in a
// row are a unique violation, reported by Finish as a *dupKeyError. Files live in the data directory's
// base/pgsql_tmp, as PostgreSQL's temporary files do, and are unlinked as
// soon as they are created (as the ORDER BY spill does, spill.go): a crash
// leaves nothing behind, and Close (after Finish or an error) closes them,
// which frees their space.

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/binary"
	"io"
	"os"
	"slices"
	"unsafe"

	"minipg/index"
	"minipg/pgerr"
	"minipg/storage/nbtree"
	"minipg/storage/page"
)

// diskBuilder collects a build's entries, packed into shared blocks, sorts
// them and writes the index bottom-up (nbtree.Builder) at Finish; the WAL
// is flushed then, so that the catalog entry that will own the file never
// outlives its contents in a crash. Past mem bytes of entries it spills a
// sorted run to disk.
type diskBuilder struct {
	d       *diskStore
	mem     int64  // maintenance_work_mem
	tmpDir  string // base/pgsql_tmp
	err     error  // the first entry too big, or a spill's failure, reported by Finish
	es      []string
	used    int64  // memory es holds
	chunk   []byte // current block; entries point into it and are never rewritten
	scratch []byte
	runs    []*os.File
	suffix  int // bytes after each entry: uniqueSuffix for AddUnique, else 0
}

// uniqueSuffix is what AddUnique appends to an entry: the flag byte and
// the version's TID.
const uniqueSuffix = 1 + tidBytes

// dupKeyError is a unique build's duplicate, found by Finish: at is the
// TID of one of the two live versions with the key.
type dupKeyError struct{ at page.TID }

func (e *dupKeyError) Error() string { return "duplicate key in a unique index build" }

// diskBuildChunk is the size of the blocks a diskBuilder packs entries in.
const diskBuildChunk = 64 << 10

// tidBytes is the length of the TID at the end of an entry
// (nbtree.AppendTID).
const tidBytes = 6

// entryOverhead is what an entry costs in memory besides its bytes (its
// string header in es).
const entryOverhead = 16

// onIndexSpillRun, when set (by tests), is told of every run an index
// build writes, with its entries.
var onIndexSpillRun func(entries int)

func (b *diskBuilder) Add(key index.Key, tid page.TID) string {
	b.scratch = nbtree.AppendTID(b.d.ri.appendKey(b.scratch[:0], key), tid)
	return b.add(tid, 0)
}

// AddUnique adds the entry of a unique build's version at (whose HOT
// chain's root is tid); checked says whether it takes part in the
// duplicate check (a live version without NULLs in the key). Finish makes
// the check.
func (b *diskBuilder) AddUnique(key index.Key, tid, at page.TID, checked bool) {
	b.suffix = uniqueSuffix
	b.scratch = nbtree.AppendTID(b.d.ri.appendKey(b.scratch[:0], key), tid)
	n := len(b.scratch)
	flag := byte(0)
	if checked {
		flag = 1
	}
	b.scratch = nbtree.AppendTID(append(b.scratch, flag), at)
	b.add(tid, len(b.scratch)-n)
}

// add keeps scratch (an entry and sfx bytes after it) and returns the
// entry's key.
func (b *diskBuilder) add(tid page.TID, sfx int) string {
	n := len(b.scratch)
	if b.err == nil {
		b.err = b.d.checkSize(b.scratch[:n-sfx], tid)
	}
	if cap(b.chunk)-len(b.chunk) < n {
		b.chunk = make([]byte, 0, max(diskBuildChunk, n))
	}
	start := len(b.chunk)
	b.chunk = append(b.chunk, b.scratch...)
	// The bytes at chunk[start:start+n] are never written again: the
	// caller may keep the returned key (a unique build's duplicate check).
	e := unsafe.String(&b.chunk[start], n)
	b.es = append(b.es, e)
	b.used += int64(n) + entryOverhead
	if b.mem > 0 && b.used >= b.mem && b.err == nil {
		b.err = b.spill()
	}
	return e[:n-sfx-tidBytes]
}

// spill sorts the entries in memory and writes them as a new run; the
// memory is let go (entries a caller kept stay valid: they are not reused).
func (b *diskBuilder) spill() error {
	slices.Sort(b.es)
	if len(b.runs) >= maxMergeRuns {
		// Too many files: merge those written so far into one.
		f, err := b.mergeToRun()
		if err != nil {
			return err
		}
		b.runs = []*os.File{f}
	}
	f, err := b.tempFile()
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	var lenBuf [binary.MaxVarintLen64]byte
	for _, e := range b.es {
		w.Write(lenBuf[:binary.PutUvarint(lenBuf[:], uint64(len(e)))])
		w.WriteString(e)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return pgerr.Wrapf(err, pgerr.IOError, "could not write to temporary file")
	}
	b.runs = append(b.runs, f)
	if onIndexSpillRun != nil {
		onIndexSpillRun(len(b.es))
	}
	b.es, b.chunk, b.used = nil, nil, 0
	return nil
}

func (b *diskBuilder) tempFile() (*os.File, error) { return createTempFile(b.tmpDir) }

// mergeToRun merges every run written so far into a new one.
func (b *diskBuilder) mergeToRun() (*os.File, error) {
	f, err := b.tempFile()
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	var lenBuf [binary.MaxVarintLen64]byte
	err = b.merge(nil, func(e []byte) error {
		w.Write(lenBuf[:binary.PutUvarint(lenBuf[:], uint64(len(e)))])
		_, err := w.Write(e)
		return err
	})
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		f.Close()
		return nil, pgerr.Wrapf(err, pgerr.IOError, "could not write to temporary file")
	}
	b.closeRuns()
	return f, nil
}

// runSource is one sorted input of the merge: a run file or the entries
// left in memory.
type runSource struct {
	r   *bufio.Reader
	mem []string
	cur []byte
}

func (s *runSource) advance() (bool, error) {
	if s.r == nil {
		if len(s.mem) == 0 {
			return false, nil
		}
		s.cur = unsafe.Slice(unsafe.StringData(s.mem[0]), len(s.mem[0]))
		s.mem = s.mem[1:]
		return true, nil
	}
	n, err := binary.ReadUvarint(s.r)
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, pgerr.Wrapf(err, pgerr.IOError, "could not read from temporary file")
	}
	s.cur = slices.Grow(s.cur[:0], int(n))[:n]
	if _, err := io.ReadFull(s.r, s.cur); err != nil {
		return false, pgerr.Wrapf(err, pgerr.IOError, "could not read from temporary file")
	}
	return true, nil
}

type runSources []*runSource

func (h runSources) Len() int           { return len(h) }
func (h runSources) Less(i, j int) bool { return bytes.Compare(h[i].cur, h[j].cur) < 0 }
func (h runSources) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runSources) Push(x any)        { *h = append(*h, x.(*runSource)) }
func (h *runSources) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// merge feeds emit every record (an entry and its suffix) of the runs and
// of mem (sorted), in order, once each (a record given twice is emitted
// once).
func (b *diskBuilder) merge(mem []string, emit func([]byte) error) error {
	var h runSources
	for _, f := range b.runs {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return pgerr.Wrapf(err, pgerr.IOError, "could not seek in temporary file")
		}
		h = append(h, &runSource{r: bufio.NewReaderSize(f, 64<<10)})
	}
	if len(mem) > 0 {
		h = append(h, &runSource{mem: mem})
	}
	live := h[:0]
	for _, s := range h {
		ok, err := s.advance()
		if err != nil {
			return err
		}
		if ok {
			live = append(live, s)
		}
	}
	h = live
	heap.Init(&h)
	var last []byte
	for len(h) > 0 {
		s := h[0]
		if last == nil || !bytes.Equal(s.cur, last) {
			if err := emit(s.cur); err != nil {
				return err
			}
			last = append(last[:0], s.cur...)
		}
		ok, err := s.advance()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	return nil
}

func (b *diskBuilder) Finish() error {
	if b.err != nil {
		return b.err
	}
	slices.Sort(b.es)
	e := b.d.e
	bld, err := nbtree.NewBuilder(e.pool, b.d.rel, e.nbtreeOptions(b.d.ri.def))
	if err != nil {
		return err
	}
	var group, last []byte               // a unique build's current key; the last entry added
	counted, lastCounted := false, false // an entry of group, or last itself, took part in the check
	err = b.merge(b.es, func(rec []byte) error {
		entry := rec[:len(rec)-b.suffix]
		// The same entry twice: versions of one HOT chain (one of them
		// at most live), or the same version reached twice.
		same := last != nil && bytes.Equal(entry, last)
		if !same {
			lastCounted = false
		}
		if b.suffix > 0 {
			key := entry[:len(entry)-tidBytes]
			if !bytes.Equal(key, group) {
				group, counted = append(group[:0], key...), false
			}
			if rec[len(entry)] == 1 && !lastCounted {
				if counted {
					return &dupKeyError{at: entryTID(rec[len(entry)+1:])}
				}
				counted, lastCounted = true, true
			}
		}
		if same {
			return nil
		}
		last = append(last[:0], entry...)
		return bld.Add(entry)
	})
	if err != nil {
		return err
	}
	b.es, b.chunk, b.scratch = nil, nil, nil
	b.closeRuns()
	if _, err := bld.Finish(); err != nil {
		return err
	}
	return e.walLog().FlushAll()
}

// Close releases the runs' files (Finish does; a build that fails before
// Finish must call it).
func (b *diskBuilder) Close() {
	b.closeRuns()
	b.es, b.chunk, b.scratch = nil, nil, nil
}

func (b *diskBuilder) closeRuns() {
	for _, f := range b.runs {
		f.Close()
	}
	b.runs = nil
}

// entryTID decodes the 6 bytes of nbtree.AppendTID.
func entryTID(t []byte) page.TID {
	return page.TID{Block: binary.BigEndian.Uint32(t), Offset: binary.BigEndian.Uint16(t[4:])}
}

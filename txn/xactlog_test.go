package txn

import (
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/fsm"
	"minipg/storage/heap"
	"minipg/storage/wal"
)

const xactTestRel buffer.RelFileNode = 16384

var xactTestDesc = heap.TupleDesc{{Len: 4, Align: 'i'}}

// walServer is a data directory with a WAL, a buffer pool and a transaction
// manager started as the server starts them (NewXactLog, pool, Manager,
// Recover). Dropping it without a shutdown checkpoint is a crash.
type walServer struct {
	log  *wal.Log
	x    *XactLog
	pool *buffer.Pool
	m    *Manager
	rel  *heap.Relation
	st   RecoveryStats
}

func startWALServer(t *testing.T, dir string) (*walServer, error) {
	t.Helper()
	l, err := wal.Open(dir, wal.Options{SegmentSize: 1 << 20, NoSync: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	x := NewXactLog(l)
	pool, err := buffer.NewPool(buffer.Options{Dir: filepath.Join(dir, "base"), NBuffers: 32, FlushWAL: x.Flush})
	if err != nil {
		t.Fatal(err)
	}
	m := open(t, filepath.Join(dir, "pg_xact"))
	s := &walServer{log: l, x: x, pool: pool, m: m}
	if s.st, err = x.Recover(m, pool, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		return s, err
	}
	if !pool.Exists(xactTestRel, buffer.MainFork) {
		if _, err := l.LogCreate(xactTestRel, buffer.MainFork); err != nil {
			t.Fatal(err)
		}
		if err := pool.CreateRel(xactTestRel); err != nil {
			t.Fatal(err)
		}
	}
	s.rel = heap.Open(pool, xactTestRel, xactTestDesc, heap.Options{Policy: fsm.NewClassic(), WAL: l})
	return s, nil
}

// insert writes one row as tx (a heap record carrying tx's xid).
func (s *walServer) insert(t *testing.T, tx *Txn, v int32) uint32 {
	t.Helper()
	xid := mustXid(t, tx)
	tup, err := heap.FormTuple(xactTestDesc, [][]byte{binary.LittleEndian.AppendUint32(nil, uint32(v))}, []bool{false})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.rel.Insert(tup, xid, tx.UseCommandID(), nil); err != nil {
		t.Fatal(err)
	}
	return xid
}

// TestXactLogRecovery: commit status after a crash comes from the commit
// and abort records, an xid with heap records and neither is aborted, and
// the next xid moves past every xid in the WAL.
func TestXactLogRecovery(t *testing.T) {
	dir := t.TempDir()
	s, err := startWALServer(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.st.Crashed {
		t.Fatal("a new cluster reports a crash")
	}
	if _, err := s.log.Checkpoint(s.x.CheckpointOptions()); err != nil {
		t.Fatal(err)
	}

	unended := s.insert(t, s.m.Begin(), 1) // never commits nor aborts
	tx1 := s.m.Begin()
	x1 := s.insert(t, tx1, 2)
	if err := tx1.Commit(); err != nil {
		t.Fatal(err)
	}
	tx2 := s.m.Begin()
	x2 := s.insert(t, tx2, 3)
	s.x.SetAsyncCommit(x2)
	if err := tx2.Commit(); err != nil {
		t.Fatal(err)
	}
	asyncEnd := s.log.InsertLSN()
	// A page write after an asynchronous commit flushes its commit record.
	if err := s.x.Flush(0); err != nil {
		t.Fatal(err)
	}
	if got := s.log.FlushedLSN(); got < asyncEnd {
		t.Errorf("Flush(0) after an asynchronous commit flushed to %s, want at least %s",
			wal.FormatLSN(got), wal.FormatLSN(asyncEnd))
	}
	tx3 := s.m.Begin()
	x3 := s.insert(t, tx3, 4)
	if err := tx3.Abort(); err != nil {
		t.Fatal(err)
	}
	tx4 := s.m.Begin()
	x4 := s.insert(t, tx4, 5) // running at the crash
	if err := s.log.Close(); err != nil {
		t.Fatal(err)
	}

	r, err := startWALServer(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !r.st.Crashed || r.st.Records == 0 {
		t.Fatalf("recovery stats %+v: want a crash with records replayed", r.st)
	}
	if r.st.Committed != 2 || r.st.Aborted != 3 {
		t.Errorf("replayed %d commits and %d aborts, want 2 and 3", r.st.Committed, r.st.Aborted)
	}
	for _, c := range []struct {
		name string
		xid  uint32
		want heap.XidStatus
	}{
		{"never ended", unended, heap.XidAborted},
		{"committed", x1, heap.XidCommitted},
		{"committed asynchronously", x2, heap.XidCommitted},
		{"aborted", x3, heap.XidAborted},
		{"running at the crash", x4, heap.XidAborted},
	} {
		if got := r.m.Status(c.xid); got != c.want {
			t.Errorf("%s: Status(%d) = %v, want %v", c.name, c.xid, got, c.want)
		}
	}
	if next := r.m.NextXid(); next <= x4 {
		t.Errorf("NextXid() = %d after recovery, want past %d", next, x4)
	}

	// The hooks are attached: a commit after recovery writes its record,
	// and a clean shutdown leaves nothing to replay.
	tx := r.m.Begin()
	x5 := r.insert(t, tx, 6)
	before := r.log.InsertLSN()
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if r.log.InsertLSN() == before || r.log.FlushedLSN() < r.log.InsertLSN() {
		t.Errorf("commit after recovery: insert %s -> %s, flushed %s; want a flushed commit record",
			wal.FormatLSN(before), wal.FormatLSN(r.log.InsertLSN()), wal.FormatLSN(r.log.FlushedLSN()))
	}
	o := r.x.CheckpointOptions()
	o.Shutdown = true
	if _, err := r.log.Checkpoint(o); err != nil {
		t.Fatal(err)
	}
	if err := r.log.Close(); err != nil {
		t.Fatal(err)
	}
	c, err := startWALServer(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.st.Crashed {
		t.Errorf("recovery after a shutdown checkpoint: %+v, want nothing replayed", c.st)
	}
	if got := c.m.Status(x5); got != heap.XidCommitted {
		t.Errorf("after a clean restart Status(%d) = %v, want committed", x5, got)
	}
	if next := c.m.NextXid(); next <= x5 {
		t.Errorf("NextXid() = %d after a clean restart, want past %d", next, x5)
	}
}

// TestXactLogRecoveryBadRecord: an RmgrXact record of unknown type fails
// recovery with XX001.
func TestXactLogRecoveryBadRecord(t *testing.T) {
	dir := t.TempDir()
	s, err := startWALServer(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.log.Insert(&wal.Record{Rmgr: wal.RmgrXact, Info: 0x70, Xid: 5, MainData: xactRecord(xlXactCommit, 5, nil).MainData}); err != nil {
		t.Fatal(err)
	}
	if err := s.log.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = startWALServer(t, dir)
	var pe *pgerr.Error
	if !errors.As(err, &pe) || pe.Code != pgerr.DataCorrupted {
		t.Fatalf("recovery of an unknown transaction record: %v, want %s", err, pgerr.DataCorrupted)
	}
}

// TestXactLogRecoverySubxacts: after a crash, a subtransaction's rows count
// as its commit record says: committed with its top level when the commit
// record lists it, aborted when it was rolled back to (its own abort record)
// or its top level never committed.
func TestXactLogRecoverySubxacts(t *testing.T) {
	dir := t.TempDir()
	s, err := startWALServer(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	tx := s.m.Begin()
	top := s.insert(t, tx, 1)
	tx.BeginSub()
	released := s.insert(t, tx, 2)
	tx.ReleaseSub()
	tx.BeginSub()
	rolledBack := s.insert(t, tx, 3)
	if err := tx.RollbackSub(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	open := s.m.Begin()
	openTop := s.insert(t, open, 4)
	open.BeginSub()
	openSub := s.insert(t, open, 5)
	open.ReleaseSub()
	if err := s.log.Flush(s.log.InsertLSN()); err != nil {
		t.Fatal(err)
	}
	if err := s.log.Close(); err != nil {
		t.Fatal(err)
	}

	r, err := startWALServer(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	for xid, want := range map[uint32]heap.XidStatus{top: heap.XidCommitted, released: heap.XidCommitted,
		rolledBack: heap.XidAborted, openTop: heap.XidAborted, openSub: heap.XidAborted} {
		if got := r.m.Status(xid); got != want {
			t.Errorf("xid %d after recovery: %v, want %v", xid, got, want)
		}
	}
	if next := r.m.NextXid(); next <= openSub {
		t.Errorf("next xid %d not past %d", next, openSub)
	}
}

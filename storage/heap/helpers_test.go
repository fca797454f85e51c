package heap

import (
	"encoding/binary"
	"testing"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// testDesc is (id int4, payload text).
var testDesc = TupleDesc{{Len: 4, Align: 'i'}, {Len: -1, Align: 'i'}}

const testRel buffer.RelFileNode = 16384

// mkRow forms an (id, payload) tuple.
// tb may be nil (from a goroutine); then a failure panics.
func mkRow(tb testing.TB, id int32, payload string) []byte {
	if tb != nil {
		tb.Helper()
	}
	v := make([]byte, 4)
	binary.LittleEndian.PutUint32(v, uint32(id))
	tup, err := FormTuple(testDesc, [][]byte{v, []byte(payload)}, []bool{false, false})
	if err != nil {
		if tb == nil {
			panic(err)
		}
		tb.Fatal(err)
	}
	return tup
}

// rowOf decodes an (id, payload) tuple.
// tb may be nil (from a goroutine); then a failure panics.
func rowOf(tb testing.TB, tup []byte) (int32, string) {
	vals := make([][]byte, 2)
	nulls := make([]bool, 2)
	if err := DeformTuple(testDesc, tup, vals, nulls); err != nil {
		if tb == nil {
			panic(err)
		}
		tb.Fatal(err)
	}
	return int32(binary.LittleEndian.Uint32(vals[0])), string(vals[1])
}

type testEnv struct {
	pool *buffer.Pool
	rel  *Relation
	o    *MapOracle
	dir  string
}

// newEnv makes a pool of nbuf frames in a temporary directory with one
// empty relation.
func newEnv(tb testing.TB, nbuf int, opts Options) *testEnv {
	tb.Helper()
	dir := tb.TempDir()
	pool, err := buffer.NewPool(buffer.Options{Dir: dir, NBuffers: nbuf})
	if err != nil {
		tb.Fatal(err)
	}
	if err := pool.CreateRel(testRel); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		// Every operation must have released its pins. The pool is not
		// closed: after a panic a content lock may still be held, and
		// Close would wait for it forever; its files go with TempDir.
		if err := pool.Check(false); err != nil {
			tb.Errorf("buffer pool after the test: %v", err)
		}
	})
	if opts.Policy == nil {
		opts.Policy = testPolicy()
	}
	return &testEnv{pool: pool, rel: Open(pool, testRel, testDesc, opts), o: NewMapOracle(), dir: dir}
}

// snap is a fresh snapshot for xid at command cid.
func (e *testEnv) snap(xid, cid uint32) *Snapshot { return e.o.Snapshot(xid, cid) }

// insertCommitted inserts rows id0..id0+n-1 in one committed transaction.
func (e *testEnv) insertCommitted(tb testing.TB, id0, n int, payload string) []page.TID {
	tb.Helper()
	xid := e.o.Begin()
	var st InsertState
	tids := make([]page.TID, n)
	for i := range n {
		tid, err := e.rel.Insert(mkRow(tb, int32(id0+i), payload), xid, 0, &st)
		if err != nil {
			tb.Fatal(err)
		}
		tids[i] = tid
	}
	e.o.Commit(xid)
	return tids
}

// scanAll returns the visible rows id -> (tid, payload).
func (e *testEnv) scanAll(tb testing.TB, snap *Snapshot) map[int32]scanned {
	tb.Helper()
	out := map[int32]scanned{}
	s := e.rel.NewScan(snap)
	defer s.Close()
	for {
		tid, tup, ok, err := s.Next()
		if err != nil {
			tb.Fatal(err)
		}
		if !ok {
			return out
		}
		id, p := rowOf(tb, tup)
		if prev, dup := out[id]; dup {
			tb.Fatalf("row %d seen twice: %s and %s", id, prev.tid, tid)
		}
		out[id] = scanned{tid, p}
	}
}

type scanned struct {
	tid     page.TID
	payload string
}

// mustCheck runs Check (exact FSM) and fails the test on error.
func mustCheck(tb testing.TB, r *Relation) {
	tb.Helper()
	if err := Check(r); err != nil {
		tb.Fatalf("Check: %v", err)
	}
}

// mustCheckPages runs CheckPages and fails the test on error.
func mustCheckPages(tb testing.TB, r *Relation) {
	tb.Helper()
	if err := CheckPages(r); err != nil {
		tb.Fatalf("CheckPages: %v", err)
	}
}

// withPage runs f on the share-locked page blk.
func (e *testEnv) withPage(tb testing.TB, blk uint32, f func(p page.Page)) {
	tb.Helper()
	buf, err := e.pool.ReadBuffer(testRel, buffer.MainFork, blk)
	if err != nil {
		tb.Fatal(err)
	}
	buf.RLock()
	f(buf.Page())
	buf.RUnlock()
	buf.Release()
}

// lpFlags returns the line pointer state of tid.
func (e *testEnv) lpFlags(tb testing.TB, tid page.TID) int {
	var flags int
	e.withPage(tb, tid.Block, func(p page.Page) {
		if tid.Offset > page.MaxOffset(p) {
			flags = -1
			return
		}
		_, flags, _ = page.ItemID(p, tid.Offset)
	})
	return flags
}

// rawTuple returns a copy of the tuple at tid, whatever its visibility.
func (e *testEnv) rawTuple(tb testing.TB, tid page.TID) []byte {
	tb.Helper()
	tup, ok, err := e.rel.FetchAny(tid)
	if err != nil || !ok {
		tb.Fatalf("FetchAny(%s): ok=%v err=%v", tid, ok, err)
	}
	return tup
}

// targetBlock returns st's remembered target block for rel, or InvalidBlock.
func (st *InsertState) targetBlock(rel buffer.RelFileNode) uint32 {
	for i := range st.targets {
		if t := &st.targets[i]; t.blk != 0 && t.rel == rel {
			return t.blk - 1
		}
	}
	return page.InvalidBlock
}

package heap

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"minipg/storage/buffer"
	"minipg/storage/fsm"
	"minipg/storage/page"
	"minipg/storage/wal"
)

// walEnv is a relation with a WAL in a data directory that can "crash":
// drop the buffer pool without writing it and replay the log into a new one.
type walEnv struct {
	dir  string
	log  *wal.Log
	pool *buffer.Pool
	rel  *Relation
	o    *MapOracle
}

func openWALEnv(t testing.TB, dir string, fpw bool) *walEnv {
	t.Helper()
	l, err := wal.Open(dir, wal.Options{SegmentSize: 1 << 20, NoSync: true, DisableFullPageWrites: !fpw,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	// The log's writer may preallocate a segment at any time: it stops
	// before the test's directory is removed (cleanups run last first).
	t.Cleanup(func() { l.Close() })
	pool, err := buffer.NewPool(buffer.Options{Dir: filepath.Join(dir, "base"), NBuffers: 64, FlushWAL: l.Flush})
	if err != nil {
		t.Fatal(err)
	}
	RegisterRedo(l, pool)
	l.RegisterRedo(wal.RmgrStorage, wal.StorageRedo(pool))
	if _, err := l.Recover(); err != nil {
		t.Fatal(err)
	}
	if !pool.Exists(testRel, buffer.MainFork) {
		if _, err := l.LogCreate(testRel, buffer.MainFork); err != nil {
			t.Fatal(err)
		}
		if err := pool.CreateRel(testRel); err != nil {
			t.Fatal(err)
		}
	}
	rel := Open(pool, testRel, testDesc, Options{Policy: fsm.NewClassic(), WAL: l})
	rel.SetIndexAttrs(IndexAttrs{Indexed: []int{0}, Key: []int{0}})
	return &walEnv{dir: dir, log: l, pool: pool, rel: rel, o: NewMapOracle()}
}

func (e *walEnv) checkpoint(t *testing.T) {
	t.Helper()
	if _, err := e.log.Checkpoint(wal.CheckpointOptions{FlushBuffers: func(uint64, *wal.CheckpointProgress) error {
		if err := e.pool.FlushAll(); err != nil {
			return err
		}
		return e.pool.Sync()
	}}); err != nil {
		t.Fatal(err)
	}
}

// pages returns copies of every page of the relation as the pool has them.
func (e *walEnv) pages(t *testing.T) [][]byte {
	t.Helper()
	n, err := e.rel.NBlocks()
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]byte, n)
	for blk := uint32(0); blk < n; blk++ {
		buf, err := e.pool.ReadBuffer(testRel, buffer.MainFork, blk)
		if err != nil {
			t.Fatal(err)
		}
		buf.RLock()
		out[blk] = bytes.Clone(buf.Page())
		buf.RUnlock()
		buf.Release()
	}
	return out
}

// maskPage hides what redo does not reproduce, as PostgreSQL's heap_mask
// does: t_cid (redo sets FirstCommandId), the visibility bits of
// t_infomask (HEAP_XACT_MASK; only the xmax hints once xmin is frozen), the
// pd_prune_xid/PD_PAGE_FULL hints set without WAL, and the free space
// between pd_lower and pd_upper (a full-page image restores it as zeroes),
// and the token in the t_ctid of an undecided speculative insertion (redo
// gives it the tuple's own TID). blk is the page's block number.
func maskPage(p []byte, blk uint32) []byte {
	q := bytes.Clone(p)
	if page.IsNew(q) {
		return q
	}
	page.SetPruneXid(q, 0)
	page.SetFlags(q, page.Flags(q)&^page.PDPageFull)
	if lo, up := page.Lower(q), page.Upper(q); lo <= up && up <= page.BlockSize {
		clear(q[lo:up])
	}
	for off := uint16(1); off <= page.MaxOffset(q); off++ {
		if _, flags, n := page.ItemID(q, off); flags == page.LPNormal && n >= TupleHeaderSize {
			t := page.Item(q, off)
			if _, ok := SpeculativeToken(t); ok {
				SetCtid(t, page.TID{Block: blk, Offset: off})
			}
			if im := Infomask(t); im&HeapXminFrozen != HeapXminFrozen {
				SetInfomask(t, im&^HeapXactMask)
			} else {
				SetInfomask(t, im&^(HeapXmaxCommitted|HeapXmaxInvalid))
			}
			SetCid(t, 0)
		}
	}
	return q
}

// workload runs inserts, multi-inserts, same-page (HOT and not) and
// other-page updates, deletes, row locks, aborted transactions, pruning
// and VACUUM; every step's changes are logged.
func (e *walEnv) workload(t *testing.T, rng *rand.Rand, rounds int) {
	t.Helper()
	r := e.rel
	var live []page.TID
	for round := 0; round < rounds; round++ {
		// Single inserts and a multi-insert.
		xid := e.o.Begin()
		var st InsertState
		for i := 0; i < 40; i++ {
			tid, err := r.Insert(mkRow(t, int32(rng.IntN(1000)), strings.Repeat("i", rng.IntN(120))), xid, uint32(i), &st)
			if err != nil {
				t.Fatal(err)
			}
			live = append(live, tid)
		}
		var tups [][]byte
		for i := 0; i < 60; i++ {
			tups = append(tups, mkRow(t, int32(i), strings.Repeat("m", rng.IntN(300))))
		}
		tids, err := r.MultiInsert(tups, xid, 40, NewBulkInsertState())
		if err != nil {
			t.Fatal(err)
		}
		live = append(live, tids...)
		e.o.Commit(xid)

		// Updates (growing rows move to other pages; id unchanged = HOT),
		// deletes and locks; some transactions abort.
		for k := 0; k < 6; k++ {
			xid := e.o.Begin()
			for i := 0; i < 20 && len(live) > 0; i++ {
				j := rng.IntN(len(live))
				snap := e.o.Snapshot(xid, uint32(i))
				tup, ok, err := r.FetchAny(live[j])
				if err != nil || !ok {
					live = append(live[:j], live[j+1:]...)
					continue
				}
				id, payload := rowOf(t, tup)
				switch rng.IntN(4) {
				case 0, 1:
					if rng.IntN(2) == 0 {
						id++ // not HOT
					}
					n := len(payload) + rng.IntN(200) - 50
					ntid, res, _, err := r.Update(snap, live[j], mkRow(t, id, strings.Repeat("u", max(n, 0))), xid, uint32(i), nil)
					if err != nil {
						t.Fatal(err)
					}
					if res == TMOk {
						live[j] = ntid
					}
				case 2:
					if res, _, err := r.Delete(snap, live[j], xid, uint32(i)); err != nil {
						t.Fatal(err)
					} else if res == TMOk {
						live = append(live[:j], live[j+1:]...)
					}
				case 3:
					if _, _, err := r.Lock(snap, live[j], xid, uint32(i)); err != nil {
						t.Fatal(err)
					}
				}
			}
			if rng.IntN(4) == 0 {
				e.o.Abort(xid)
			} else {
				e.o.Commit(xid)
			}
		}
		// Scans prune pages opportunistically; VACUUM now and then.
		sc := r.NewScan(e.o.Snapshot(0, 0))
		for {
			_, _, ok, err := sc.Next()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
		}
		sc.Close()
		if round%2 == 1 {
			if _, err := r.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
				t.Fatal(err)
			}
		}
		if round == rounds/2 {
			e.checkpoint(t) // later first changes log images
		}
	}
}

// crashAndRecover drops the pool unwritten (the WAL is flushed, as by a
// commit), optionally lets tear damage the files, replays the WAL into a new
// pool and returns the recovered environment.
func (e *walEnv) crashAndRecover(t *testing.T, fpw bool, tear func()) *walEnv {
	t.Helper()
	if err := e.log.Close(); err != nil {
		t.Fatal(err)
	}
	if tear != nil {
		tear()
	}
	return openWALEnv(t, e.dir, fpw)
}

func comparePages(t *testing.T, want, got [][]byte) {
	t.Helper()
	if len(got) < len(want) {
		t.Fatalf("recovered relation has %d blocks, want %d", len(got), len(want))
	}
	for blk := range want {
		w, g := maskPage(want[blk], uint32(blk)), maskPage(got[blk], uint32(blk))
		if page.IsNew(want[blk]) || page.LSN(want[blk]) == 0 {
			continue // initialized by the insert path but never logged into
		}
		if !bytes.Equal(w, g) {
			for i := range w {
				if w[i] != g[i] {
					t.Fatalf("block %d differs after recovery at byte %d: want %x got %x (lsn want %s got %s)",
						blk, i, w[i:min(i+16, len(w))], g[i:min(i+16, len(g))],
						wal.FormatLSN(page.LSN(want[blk])), wal.FormatLSN(page.LSN(got[blk])))
				}
			}
		}
	}
}

// TestRedoReproducesPages: after a crash that loses every data page written
// since the start (or since a checkpoint), replaying the WAL gives pages
// equal to the originals up to unlogged hints, and Check passes.
func TestRedoReproducesPages(t *testing.T) {
	for _, fpw := range []bool{true, false} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("fpw=%v/seed=%d", fpw, seed), func(t *testing.T) {
				e := openWALEnv(t, t.TempDir(), fpw)
				rng := rand.New(rand.NewPCG(seed, 42))
				e.workload(t, rng, 6)
				if seed == 2 {
					// Some pages reach disk before the crash.
					if err := e.pool.FlushAll(); err != nil {
						t.Fatal(err)
					}
					e.workload(t, rng, 2)
				}
				want := e.pages(t)
				if seed == 1 {
					e.requireAllRecordKinds(t)
				}
				stats := e.log.Stats()
				if stats.Records == 0 || (fpw && stats.FPI == 0) || (!fpw && stats.FPI != 0) {
					t.Fatalf("wal stats %+v with full_page_writes=%v", stats, fpw)
				}
				r := e.crashAndRecover(t, fpw, nil)
				comparePages(t, want, r.pages(t))
				mustCheckPages(t, r.rel)
			})
		}
	}
}

// TestTornPageRestoredFromFPI: a page whose on-disk copy is half old, half
// a newer version (a torn 8 KiB write) is rebuilt from the full-page image
// logged at its first change after the checkpoint.
func TestTornPageRestoredFromFPI(t *testing.T) {
	e := openWALEnv(t, t.TempDir(), true)
	rng := rand.New(rand.NewPCG(9, 9))
	e.workload(t, rng, 2)
	e.checkpoint(t)
	onDisk := e.pages(t) // == the files after the checkpoint
	e.workload(t, rng, 2)
	want := e.pages(t)
	// The torn block: one changed since the checkpoint.
	torn := -1
	for blk := range onDisk {
		if !bytes.Equal(onDisk[blk], want[blk]) {
			torn = blk
			break
		}
	}
	if torn < 0 {
		t.Fatal("no page changed after the checkpoint")
	}
	r := e.crashAndRecover(t, true, func() {
		f, err := os.OpenFile(filepath.Join(e.dir, "base", fmt.Sprint(testRel)), os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		// First half from the newer version, second half stays old.
		if _, err := f.WriteAt(want[torn][:page.BlockSize/2], int64(torn)*page.BlockSize); err != nil {
			t.Fatal(err)
		}
	})
	got := r.pages(t)
	comparePages(t, want, got)
	if page.LSN(got[torn]) != page.LSN(want[torn]) {
		t.Fatalf("torn block %d: lsn %s, want %s", torn, wal.FormatLSN(page.LSN(got[torn])), wal.FormatLSN(page.LSN(want[torn])))
	}
	mustCheckPages(t, r.rel)
}

// requireAllRecordKinds reads the whole WAL and fails unless the workload
// produced every heap record type, prunes with redirects among them.
func (e *walEnv) requireAllRecordKinds(t *testing.T) {
	t.Helper()
	if err := e.log.FlushAll(); err != nil {
		t.Fatal(err)
	}
	rd := e.log.NewReader(uint64(e.log.SegmentSize()))
	defer rd.Close()
	seen := map[string]int{}
	for {
		rec, err := rd.Next()
		if err != nil {
			break
		}
		switch {
		case rec.Rmgr == wal.RmgrHeap && rec.Info&xlHeapInitPage != 0:
			seen["init"]++
			fallthrough
		case rec.Rmgr == wal.RmgrHeap:
			seen[map[uint8]string{xlHeapInsert: "insert", xlHeapDelete: "delete", xlHeapUpdate: "update",
				xlHeapHotUpdate: "hot", xlHeapLock: "lock"}[rec.Info&xlHeapOpMask]]++
			op := rec.Info & xlHeapOpMask
			if (op == xlHeapUpdate || op == xlHeapHotUpdate) && len(rec.Blocks) == 2 {
				seen["update-other-page"]++
			}
			switch {
			case op == xlHeapInsert && rec.MainData[2]&xlhInsertAllVisibleCleared != 0,
				op == xlHeapDelete && rec.MainData[7]&xlhDeleteAllVisibleCleared != 0,
				(op == xlHeapUpdate || op == xlHeapHotUpdate) && rec.MainData[7]&(xlhUpdateOldAllVisibleCleared|xlhUpdateNewAllVisibleCleared) != 0:
				seen["all-visible-cleared"]++
			}
		case rec.Rmgr == wal.RmgrHeap2:
			seen[map[uint8]string{xl2PageImage: "image", xl2Prune: "prune", xl2Vacuum: "vacuum",
				xl2MultiInsert: "multi", xl2Visible: "visible"}[rec.Info&^xlHeapInitPage]]++
			if rec.Info == xl2Prune && binary.LittleEndian.Uint16(rec.MainData[4:]) > 0 {
				seen["redirect"]++
			}
		}
	}
	for _, k := range []string{"insert", "multi", "init", "update", "update-other-page", "hot", "delete", "lock", "prune", "redirect", "vacuum", "visible", "all-visible-cleared"} {
		if seen[k] == 0 {
			t.Errorf("the workload logged no %s record: %v", k, seen)
		}
	}
	if seen["image"] != 0 {
		t.Errorf("%d changes fell back to page-image records", seen["image"])
	}
}

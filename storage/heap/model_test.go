package heap

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"

	"minipg/storage/page"
)

// TestRandomModel runs random interleavings of a few transactions
// (insert, update, delete, FOR UPDATE, commit, abort), VACUUM and scans in
// one goroutine against a model, and checks after every step that each
// open transaction and an outside reader see exactly what the model says.
func TestRandomModel(t *testing.T) {
	seeds, steps := 6, 1500
	if testing.Short() || raceEnabled {
		seeds, steps = 3, 600
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { runModel(t, uint64(seed), steps) })
	}
}

type modelTxn struct {
	xid     uint32
	cid     uint32
	pending map[int32]*string // nil: deleted
	locked  map[int32]bool    // rows it updated, deleted or locked
}

func runModel(t *testing.T, seed uint64, steps int) {
	rng := rand.New(rand.NewPCG(seed, 7))
	e := newEnv(t, 24, Options{FillFactor: 10 + rng.IntN(91)})
	committed := map[int32]string{}
	var open []*modelTxn
	nextID := int32(0)

	view := func(tx *modelTxn) map[int32]string {
		v := maps.Clone(committed)
		if tx != nil {
			for id, p := range tx.pending {
				if p == nil {
					delete(v, id)
				} else {
					v[id] = *p
				}
			}
		}
		return v
	}
	// find returns the TID of id as tx's next command sees it.
	find := func(tx *modelTxn, id int32) (page.TID, bool) {
		rows := e.scanAll(t, e.o.Snapshot(tx.xid, tx.cid))
		r, ok := rows[id]
		return r.tid, ok
	}
	payload := func() string { return strings.Repeat(string(rune('a'+rng.IntN(26))), rng.IntN(300)) }

	for step := range steps {
		switch op := rng.IntN(100); {
		case op < 10 && len(open) < 3:
			open = append(open, &modelTxn{xid: e.o.Begin(), pending: map[int32]*string{}, locked: map[int32]bool{}})
		case op < 20 && len(open) > 0: // end a transaction
			i := rng.IntN(len(open))
			tx := open[i]
			open = append(open[:i], open[i+1:]...)
			if rng.IntN(3) > 0 {
				e.o.Commit(tx.xid)
				committed = view(tx)
			} else {
				e.o.Abort(tx.xid)
			}
		case op < 25:
			if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
				t.Fatal(err)
			}
		case len(open) > 0:
			tx := open[rng.IntN(len(open))]
			v := view(tx)
			snap := e.o.Snapshot(tx.xid, tx.cid)
			switch {
			case op < 55 || len(v) == 0:
				p := payload()
				if _, err := e.rel.Insert(mkRow(t, nextID, p), tx.xid, tx.cid, nil); err != nil {
					t.Fatal(err)
				}
				tx.pending[nextID] = &p
				nextID++
			default:
				ids := make([]int32, 0, len(v))
				for id := range v {
					ids = append(ids, id)
				}
				id := ids[rng.IntN(len(ids))]
				tid, ok := find(tx, id)
				if !ok {
					t.Fatalf("step %d: txn %d cannot find row %d", step, tx.xid, id)
				}
				var res Result
				var err error
				switch {
				case op < 80:
					p := payload()
					_, res, _, err = e.rel.Update(snap, tid, mkRow(t, id, p), tx.xid, tx.cid, nil)
					if res == TMOk {
						tx.pending[id] = &p
					}
				case op < 92:
					res, _, err = e.rel.Delete(snap, tid, tx.xid, tx.cid)
					if res == TMOk {
						tx.pending[id] = nil
					}
				default:
					res, _, err = e.rel.Lock(snap, tid, tx.xid, tx.cid)
				}
				if err != nil {
					t.Fatal(err)
				}
				if res == TMOk {
					tx.locked[id] = true
				} else {
					// Another open transaction changing or locking the
					// row is the only legitimate failure here.
					held := false
					for _, o := range open {
						if _, ok := o.pending[id]; o != tx && (ok || o.locked[id]) {
							held = true
						}
					}
					if res != TMBeingModified || !held {
						t.Fatalf("step %d: txn %d, row %d at %s: %v (held by another: %v)", step, tx.xid, id, tid, res, held)
					}
				}
			}
			tx.cid++
		}
		// Everyone sees what the model says.
		readers := append([]*modelTxn{nil}, open...)
		for _, tx := range readers {
			snap := e.o.Snapshot(0, 0)
			if tx != nil {
				snap = e.o.Snapshot(tx.xid, tx.cid)
			}
			got := e.scanAll(t, snap)
			want := view(tx)
			if len(got) != len(want) {
				t.Fatalf("step %d: reader %v sees %d rows, want %d", step, tx, len(got), len(want))
			}
			for id, p := range want {
				if got[id].payload != p {
					t.Fatalf("step %d: reader %v: row %d = %.10q, want %.10q", step, tx, id, got[id].payload, p)
				}
			}
		}
		if step%100 == 0 {
			mustCheckPages(t, e.rel)
		}
	}
	for _, tx := range open {
		e.o.Commit(tx.xid)
	}
	if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, e.rel)
}

package heap

import (
	"strings"
	"testing"

	"minipg/storage/fsm"
)

// hotTableBlocks updates the rows of a small table (rows rows of about 536
// bytes, 15 to a page) updates times, perTx updates to a transaction, under
// the named policy, and VACUUMs after every vacuumEvery transactions. It
// returns the table's size in blocks at the end, after a last VACUUM.
func hotTableBlocks(t *testing.T, policy string, rows, updates, perTx, vacuumEvery int) uint32 {
	t.Helper()
	pol, err := fsm.PolicyByName(policy)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, 64, Options{Policy: pol})
	e.rel.SetIndexAttrs(IndexAttrs{Indexed: []int{1}})
	payload := func(i int) string { return strings.Repeat(string(rune('a'+i%26)), 500) }
	tids := e.insertCommitted(t, 1, rows, payload(0))
	var st InsertState
	vacuum := func() {
		if _, err := e.rel.Vacuum(e.o.OldestXmin(), e.o, nil); err != nil {
			t.Fatal(err)
		}
	}
	for done, tx := 0, 0; done < updates; tx++ {
		x := e.o.Begin()
		for i := 0; i < perTx && done < updates; i, done = i+1, done+1 {
			row := done % rows
			// UPDATE reads the row first (which may prune its page).
			snap := e.snap(x, uint32(i))
			if _, ok, err := e.rel.Fetch(snap, tids[row]); err != nil || !ok {
				t.Fatalf("update %d: fetch %s: %v %v", done, tids[row], ok, err)
			}
			ntid, res, _, err := e.rel.Update(snap, tids[row], mkRow(t, int32(row+1), payload(done)), x, uint32(i), &st)
			if err != nil || res != TMOk {
				t.Fatalf("update %d: %v %v", done, res, err)
			}
			tids[row] = ntid
		}
		e.o.Commit(x)
		if (tx+1)%vacuumEvery == 0 {
			vacuum()
		}
	}
	vacuum()
	mustCheckPages(t, e.rel)
	if got := len(e.scanAll(t, e.snap(e.o.Begin(), 0))); got != rows {
		t.Fatalf("%d rows visible, want %d", got, rows)
	}
	n, err := e.rel.NBlocks()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A small hot table under each policy. Updated one row per transaction, a
// table stays on its first page whatever the policy: pruning makes room on
// the page for the next version. When a transaction updates its rows
// several times (each version stays until it commits, so some have to
// leave their page), append, which never reuses the space VACUUM frees,
// grows without bound, while the policies with a map keep the table small.
func TestSmallHotTableBloat(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 updates per policy and case")
	}
	if !firstPass {
		t.Skip("compares every policy; runs in the first pass")
	}
	type key struct{ policy, name string }
	got := map[key]uint32{}
	cases := []struct {
		name                              string
		rows, updates, perTx, vacuumEvery int
	}{
		{"1 row, 1 update per transaction, VACUUM every 100", 1, 10000, 1, 100},
		{"1 row, 50 updates per transaction, VACUUM after each", 1, 10000, 50, 1},
		{"10 rows, 50 updates per transaction, VACUUM every 10", 10, 10000, 50, 10},
	}
	for _, c := range cases {
		for _, policy := range fsm.PolicyNames() {
			n := hotTableBlocks(t, policy, c.rows, c.updates, c.perTx, c.vacuumEvery)
			got[key{policy, c.name}] = n
			t.Logf("%-55s %-9s %5d blocks", c.name, policy, n)
		}
	}
	for _, policy := range fsm.PolicyNames() {
		if n := got[key{policy, cases[0].name}]; n != 1 {
			t.Errorf("%s: %s: %d blocks, want 1 (pruning keeps the row on its page)", policy, cases[0].name, n)
		}
	}
	for _, c := range cases[1:] {
		app, cls := got[key{"append", c.name}], got[key{"classic", c.name}]
		// A 50-update transaction fills more than three pages with versions;
		// without reuse each transaction leaves about that many behind.
		if app < 100 || app < 10*cls {
			t.Errorf("%s: append %d blocks, classic %d: append should bloat", c.name, app, cls)
		}
		// A policy with a map needs about the pages the versions made
		// between two VACUUMs fill (15 to a page), and reuses them.
		bound := uint32(2 * (c.perTx*c.vacuumEvery/15 + 1))
		for _, policy := range fsm.PolicyNames() {
			if n := got[key{policy, c.name}]; policy != "append" && n > bound {
				t.Errorf("%s: %s %d blocks, more than %d: the space VACUUM frees is not reused", c.name, policy, n, bound)
			}
		}
	}
}

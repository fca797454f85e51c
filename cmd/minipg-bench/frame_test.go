package main

import (
	"errors"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestParsePolicyDetail(t *testing.T) {
	for _, tc := range []struct {
		detail string
		want   []string
	}{
		{`Valid values are "classic" and "locality".`, []string{"classic", "locality"}},
		{`Valid values are "append", "classic", and "locality".`, []string{"append", "classic", "locality"}},
		{`Valid values are "classic".`, []string{"classic"}},
	} {
		got, err := parsePolicyDetail(tc.detail)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parsePolicyDetail(%q) = %v, %v; want %v", tc.detail, got, err, tc.want)
		}
	}
	if _, err := parsePolicyDetail("no values"); err == nil {
		t.Error("a detail without values gave no error")
	}
}

func TestRedactArgs(t *testing.T) {
	got := redactArgs([]string{"-pg", "postgres://postgres:secret@127.0.0.1:5432/db", "-dsn", "x=host=h password=pw user=u", "-w", "2",
		"postgres://u@h/db"})
	want := []string{"-pg", "postgres://postgres:***@127.0.0.1:5432/db", "-dsn", "x=host=h password=*** user=u", "-w", "2",
		"postgres://u@h/db"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("redactArgs = %q, want %q", got, want)
	}
}

// rowsPerPage agrees with PostgreSQL 15: 226 int4 rows and 7 rows of a
// 1 KiB text fill a page.
func TestRowsPerPage(t *testing.T) {
	for _, tc := range []struct {
		w    extendWorkload
		want int
	}{
		{extendWorkloads[0], 226},
		{extendWorkloads[1], 7},
		{extendWorkload{col: "text", payload: 10}, 185}, // 24 + 11 -> 40 bytes + 4
	} {
		if got := rowsPerPage(rowDataLen(tc.w)); got != tc.want {
			t.Errorf("rowsPerPage(%s, %d bytes) = %d, want %d", tc.w.col, tc.w.payload, got, tc.want)
		}
	}
	if rowsPerPage(4) != smallRowsPerBlock {
		t.Errorf("smallRowsPerBlock %d, rowsPerPage(4) %d", smallRowsPerBlock, rowsPerPage(4))
	}
}

func TestParseLSN(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want uint64
		ok   bool
	}{
		{"0/1000071", 0x1000071, true},
		{"1/0", 1 << 32, true},
		{"A/FF", 0xA<<32 | 0xFF, true},
		{"123", 0, false},
		{"x/1", 0, false},
	} {
		got, err := parseLSN(tc.s)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseLSN(%q) = %x, %v", tc.s, got, err)
		}
	}
}

func TestSummaries(t *testing.T) {
	med, lo, hi := summarize([]float64{3, math.NaN(), 1, 2, 10})
	if med != 2.5 || lo != 1 || hi != 10 {
		t.Errorf("summarize = %v %v %v", med, lo, hi)
	}
	if m, _, _ := summarize([]float64{math.NaN()}); !math.IsNaN(m) {
		t.Errorf("summarize of NaN alone = %v", m)
	}
	// 10 runs: the lowest and highest are dropped.
	if got := trimmedMean([]float64{100, 1, 2, 2, 2, 2, 2, 2, 2, 2}); got != 2 {
		t.Errorf("trimmedMean = %v, want 2", got)
	}
	if got := trimmedMean([]float64{1, 5}); got != 3 {
		t.Errorf("trimmedMean of two = %v, want 3", got)
	}
}

func TestFoldCells(t *testing.T) {
	cells := make([]int, maxCells*2+1)
	for i := range cells {
		cells[i] = i / 4 // each group 4 blocks: pairs of blocks never mix
	}
	cells[2*maxCells] = -1
	got, k := foldCells(cells)
	if k != 3 || len(got) != (2*maxCells+1+2)/3 {
		t.Fatalf("foldCells: %d cells of %d blocks", len(got), k)
	}
	// Cell 0 holds blocks 0-2 (group 0), cell 1 blocks 3-5 (groups 0 and 1).
	if got[0] != 0 || got[1] != -2 {
		t.Errorf("folded cells start %v", got[:4])
	}
	// The last cell holds one empty block: its district is that of none.
	if last := got[len(got)-1]; last != -1 {
		t.Errorf("last folded cell %d, want -1", last)
	}
	if small, k := foldCells([]int{1, -1, 2}); k != 1 || !reflect.DeepEqual(small, []int{1, -1, 2}) {
		t.Errorf("small map folded: %v, %d", small, k)
	}
}

func TestVaried(t *testing.T) {
	ff := &frameFlags{vary: settingList{"autovacuum=on,off", "index_storage=memory, disk"}}
	got := ff.varied([]variant{{suffix: "/small=0", settings: map[string]string{"small": "0"}}})
	want := []string{"/small=0/autovacuum=on/index_storage=memory", "/small=0/autovacuum=on/index_storage=disk",
		"/small=0/autovacuum=off/index_storage=memory", "/small=0/autovacuum=off/index_storage=disk"}
	if len(got) != len(want) {
		t.Fatalf("%d variants, want %d: %+v", len(got), len(want), got)
	}
	for i, v := range got {
		av, st, _ := strings.Cut(strings.TrimPrefix(want[i], "/small=0/autovacuum="), "/index_storage=")
		if v.suffix != want[i] || v.settings["small"] != "0" || v.settings["autovacuum"] != av || v.settings["index_storage"] != st {
			t.Errorf("variant %d = %+v, want %s", i, v, want[i])
		}
	}
	if got := (&frameFlags{}).varied(nil); len(got) != 1 || got[0].suffix != "" || len(got[0].settings) != 0 {
		t.Errorf("no -vary: %+v, want one plain variant", got)
	}
}

// A -policies entry may carry settings of its own.
func TestParsePolicyEntry(t *testing.T) {
	pol, own, err := parsePolicyEntry("locality:fsm_keep_runs=on:heap_prune_behind=on")
	if err != nil || pol != "locality" || strings.Join(own, ",") != "fsm_keep_runs=on,heap_prune_behind=on" {
		t.Errorf("got %q %q %v", pol, own, err)
	}
	if pol, own, err := parsePolicyEntry(" classic"); err != nil || pol != "classic" || len(own) != 0 {
		t.Errorf("plain entry: %q %q %v", pol, own, err)
	}
	for _, bad := range []string{"", ":a=b", "locality:on", "locality:=on"} {
		if _, _, err := parsePolicyEntry(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Each server a run starts gets its own pprof port; a bad address is an
// error, and no address leaves the settings alone.
func TestSpreadPprofAddr(t *testing.T) {
	for i, want := range []string{"127.0.0.1:6061", "127.0.0.1:6062", "127.0.0.1:6063"} {
		s := map[string]string{"debug_pprof_addr": "127.0.0.1:6061", "fsm_policy": "locality"}
		if err := spreadPprofAddr(s, i); err != nil || s["debug_pprof_addr"] != want {
			t.Errorf("server %d: %q, %v; want %q", i, s["debug_pprof_addr"], err, want)
		}
	}
	s := map[string]string{"debug_pprof_addr": "localhost:6061"}
	if err := spreadPprofAddr(s, 1); err != nil || s["debug_pprof_addr"] != "localhost:6062" {
		t.Errorf("localhost: %q, %v", s["debug_pprof_addr"], err)
	}
	for _, bad := range []string{"6061", "127.0.0.1:", "127.0.0.1:x", "127.0.0.1:65535"} {
		if err := spreadPprofAddr(map[string]string{"debug_pprof_addr": bad}, 1); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	s = map[string]string{"fsm_policy": "classic"}
	if err := spreadPprofAddr(s, 2); err != nil || len(s) != 1 {
		t.Errorf("no address: %v, %v", s, err)
	}
}

func TestRoundOrder(t *testing.T) {
	for _, c := range []struct {
		n, round int
		want     []int
	}{
		{4, 1, []int{0, 1, 2, 3}},
		{4, 2, []int{3, 2, 1, 0}},
		{4, 3, []int{0, 1, 2, 3}},
		{3, 4, []int{2, 1, 0}},
		{1, 2, []int{0}},
	} {
		if got := roundOrder(c.n, c.round); !slices.Equal(got, c.want) {
			t.Errorf("roundOrder(%d, %d) = %v, want %v", c.n, c.round, got, c.want)
		}
	}
}

// TestEachRoundAtOnce: the targets of a round run at once, ready returns only
// when every target of the round has reached it or returned (a target
// failing before its measurement does not hold the others), and the
// failures of a round come back joined after the whole round has run.
func TestEachRoundAtOnce(t *testing.T) {
	f := &frame{ff: &frameFlags{rounds: 2, first: 1}, prog: newProgress("none", "test")}
	for _, n := range []string{"a", "b", "c"} {
		f.targets = append(f.targets, &benchTarget{TargetInfo: TargetInfo{Name: n}})
	}
	wantArrivals := [2]int32{3, 2}
	var arrived [2]atomic.Int32
	measured := map[string]int{}
	err := f.eachRound("test", true, func(round int, bt *benchTarget, ready func()) error {
		if bt.Name == "c" && round == 1 {
			time.Sleep(30 * time.Millisecond)
			return errors.New("no server")
		}
		// a arrives first and waits longest.
		time.Sleep(time.Duration(bt.Name[0]-'a') * 20 * time.Millisecond)
		arrived[round].Add(1)
		ready()
		if got := arrived[round].Load(); got != wantArrivals[round] {
			t.Errorf("round %d: %s's ready returned after %d arrivals, want %d", round, bt.Name, got, wantArrivals[round])
		}
		f.mu.Lock()
		measured[bt.Name]++
		f.mu.Unlock()
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "test, c: no server") {
		t.Errorf("eachRound error = %v, want c's failure", err)
	}
	if want := map[string]int{"a": 2, "b": 2, "c": 1}; !maps.Equal(measured, want) {
		t.Errorf("measured %v, want %v", measured, want)
	}
}

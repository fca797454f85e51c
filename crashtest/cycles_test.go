package crashtest

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCrashCycles is the long durability run (make crash): one data
// directory, MINIPG_CRASH_CYCLES cycles of a workload killed with SIGKILL
// and a restart that must bring back every acknowledged change and nothing
// else. The modes take turns (all but async, whose newest commits may be
// lost by design); checkpoints run every second and at max_wal_size 4MB.
// It logs the figures: cycles, acknowledged changes checked, lost, phantom.
func TestCrashCycles(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("MINIPG_CRASH_CYCLES"))
	if n <= 0 {
		t.Skip("set MINIPG_CRASH_CYCLES (make crash)")
	}
	var modes []string
	for _, m := range crashModes {
		if m != "async" {
			modes = append(modes, m)
		}
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("MINIPG_CRASH_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	t.Logf("seed %d (MINIPG_CRASH_SEED=%d repeats the modes and kill times)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	dir := t.TempDir()
	settings := []string{"checkpoint_timeout=1s", "max_wal_size=4MB"}
	s := startServer(t, dir, settings...)
	setup(t, s)
	logs := make([]*clientLog, nClients)
	for i := range logs {
		logs[i] = &clientLog{}
	}
	var total tally
	last := tally{}
	perMode := map[string]int{}
	truncations := 0
	start := time.Now()
	for cycle := 1; cycle <= n; cycle++ {
		mode := modes[rng.IntN(len(modes))]
		perMode[mode]++
		truncations += runUntilKill(t, s, mode, rng, logs)
		s = startServer(t, dir, settings...)
		if !strings.Contains(s.log.String(), "heap check passed") {
			t.Fatalf("cycle %d: restarted server did not check the heap:\n%s", cycle, s.log)
		}
		last = verify(t, s, logs, false)
		total.add(last)
		if last.lost+last.phantom > 0 {
			t.Fatalf("cycle %d (%s): %d lost, %d phantom of %d checked", cycle, mode, last.lost, last.phantom, last.checked)
		}
		if cycle%10 == 0 {
			t.Logf("cycle %d: %d acknowledged changes checked, %v", cycle, last.checked, time.Since(start).Round(time.Second))
		}
	}
	s.stop(t)
	t.Logf("crash cycles: %d (%v), by mode %v; VACUUM seen shrinking tail %d times", n, time.Since(start).Round(time.Second), perMode, truncations)
	t.Logf("acknowledged changes: %d distinct, each checked after every later crash (%d checks in all); lost: %d, phantom: %d",
		last.checked, total.checked, total.lost, total.phantom)
}

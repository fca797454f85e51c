package tpcc

import (
	"context"
	"testing"
	"time"
)

// The pacer spaces a terminal's starts by the interval, spreads the
// terminals' first starts over one interval, and does not burst to make up
// for time lost in slow transactions.
func TestPacer(t *testing.T) {
	if p := newPacer(0, 4, 0); !p.wait(context.Background()) || p.interval != 0 {
		t.Fatal("rate 0: no limit")
	}
	p := newPacer(600, 2, 1) // 600/min over 2 terminals: one start per 200ms each
	if p.interval != 200*time.Millisecond {
		t.Fatalf("interval %v, want 200ms", p.interval)
	}
	if d := time.Until(p.next); d < 30*time.Millisecond || d > 100*time.Millisecond {
		t.Fatalf("terminal 1 of 2 starts in %v, want half an interval", d)
	}
	// Fell behind by three intervals: one start at once, the next a whole
	// interval later (no burst).
	p.next = time.Now().Add(-3 * p.interval)
	if !p.wait(context.Background()) {
		t.Fatal("wait failed")
	}
	if d := time.Until(p.next); d <= 0 {
		t.Fatalf("after falling behind the next start is %v away, want about one interval", d)
	}
	// A deadline that comes first ends the wait.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if p.wait(ctx) {
		t.Fatal("wait outlived its context")
	}
}

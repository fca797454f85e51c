package server

import (
	"testing"
	"time"
)

func TestParseMillis(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"0": 0, "250": 250 * time.Millisecond, "250ms": 250 * time.Millisecond, "5s": 5 * time.Second,
		"2min": 2 * time.Minute, "1h": time.Hour, "1d": 24 * time.Hour, "x": 0, "5 s": 5 * time.Second, "5y": 0,
	} {
		if got := ParseMillis(in); got != want {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
}

package main

import (
	"bufio"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseStatPPID(t *testing.T) {
	for _, tc := range []struct {
		stat string
		want int
		ok   bool
	}{
		{"1234 (postgres) S 1000 1234 1234 0 -1", 1000, true},
		{"77 (a (b) c) R 12 77 77 0", 12, true}, // a command name with spaces and parentheses
		{"77 no name", 0, false},
		{"77 (x) S", 0, false},
	} {
		got, err := parseStatPPID(tc.stat)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseStatPPID(%q) = %d, %v", tc.stat, got, err)
		}
	}
}

func TestParseStatCPU(t *testing.T) {
	// pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
	got, err := parseStatCPU("4242 (mini pg) S 1 4242 4242 0 -1 4194560 900 0 3 0 12345 678 0 0 20 0 9")
	if err != nil || got != 130.23 {
		t.Errorf("parseStatCPU = %v, %v; want 130.23 (13023 ticks)", got, err)
	}
	for _, bad := range []string{"4242 (x) S 1 4242", "4242 (x) S 1 2 3 4 5 6 7 8 9 10 u 5", "no name"} {
		if _, err := parseStatCPU(bad); err == nil {
			t.Errorf("parseStatCPU(%q) gave no error", bad)
		}
	}
	// This process's CPU time grows as it works (in 10 ms ticks: spin
	// until one more has passed).
	s0, err := processCPU(os.Getpid())
	if err != nil || s0 < 0 {
		t.Fatalf("processCPU(self) = %v, %v", s0, err)
	}
	for deadline, x := time.Now().Add(5*time.Second), 0; ; x++ {
		s, err := processCPU(os.Getpid())
		if err != nil {
			t.Fatal(err)
		}
		if s > s0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processCPU(self) stayed at %v for 5 s of spinning (%d rounds)", s, x)
		}
	}
}

func TestParsePss(t *testing.T) {
	rollup := "55d0-7ffd ---p 00000000 00:00 0 [rollup]\nRss:               50344 kB\nPss:               20931 kB\nPss_Anon:          12000 kB\n"
	got, err := parsePss(bufio.NewScanner(strings.NewReader(rollup)))
	if err != nil || got != 20931 {
		t.Errorf("parsePss = %d, %v; want 20931", got, err)
	}
	if _, err := parsePss(bufio.NewScanner(strings.NewReader("Rss: 1 kB\n"))); err == nil {
		t.Error("parsePss without a Pss line gave no error")
	}
}

// processTree finds a child of this process, and the memory of this
// process is read.
func TestProcessTree(t *testing.T) {
	cmd := exec.Command("sleep", "10")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	tree := processTree(os.Getpid())
	if tree[0] != os.Getpid() || !slices.Contains(tree, cmd.Process.Pid) {
		t.Errorf("processTree(%d) = %v, want it and child %d", os.Getpid(), tree, cmd.Process.Pid)
	}
	if kb, err := pssKB(os.Getpid()); err != nil || kb <= 0 {
		t.Errorf("pssKB of this process = %d, %v", kb, err)
	}
	if kb, err := pssKB(1 << 30); err != nil || kb != 0 {
		t.Errorf("pssKB of a process that does not exist = %d, %v; want 0, nil", kb, err)
	}
}

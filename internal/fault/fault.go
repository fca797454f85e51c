// Package fault injects I/O errors at named points of the storage layer,
// so that tests can show how the server meets a full disk or a failing
// fsync without filling a disk. It costs one atomic load per point when
// nothing is injected.
//
// A child server process takes its faults from the environment:
//
//	MINIPG_FAULT=wal-fsync=EIO,data-extend=ENOSPC
//	MINIPG_FAULT_ARM=/path/to/file
//
// names the points and the errno each fails with; with MINIPG_FAULT_ARM
// set, a point fails only while that file exists, so a test can arm the
// fault once its tables are made and disarm it to let the server go on. An
// in-process test calls Set and Clear instead.
//
// Points:
//
//	wal-write    writing WAL to a segment file (also creating a segment)
//	wal-fsync    fsyncing a WAL segment
//	data-extend  extending a relation file with zeroed pages
//	data-write   writing a page of a relation file
//	btree-unlink reading the pages of an unlink step of a btree page
//	             deletion, before each (storage/nbtree: the half-dead
//	             leaf and the part of its chain still linked stay, for
//	             the next VACUUM to unlink)
package fault

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// Points.
const (
	WALWrite    = "wal-write"
	WALFsync    = "wal-fsync"
	DataExtend  = "data-extend"
	DataWrite   = "data-write"
	BtreeUnlink = "btree-unlink"
)

var (
	enabled atomic.Bool
	mu      sync.Mutex // guards points and armFile
	points  map[string]syscall.Errno
	armFile string
)

func init() {
	spec := os.Getenv("MINIPG_FAULT")
	if spec == "" {
		return
	}
	m, err := parse(spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, "MINIPG_FAULT:", err)
		os.Exit(2)
	}
	points, armFile = m, os.Getenv("MINIPG_FAULT_ARM")
	enabled.Store(true)
}

var errnos = map[string]syscall.Errno{"ENOSPC": syscall.ENOSPC, "EIO": syscall.EIO, "EDQUOT": syscall.EDQUOT}

func parse(spec string) (map[string]syscall.Errno, error) {
	m := map[string]syscall.Errno{}
	for _, item := range strings.Split(spec, ",") {
		point, name, ok := strings.Cut(strings.TrimSpace(item), "=")
		errno, known := errnos[name]
		if !ok || !known {
			return nil, fmt.Errorf("bad item %q: want point=ENOSPC|EIO|EDQUOT", item)
		}
		switch point {
		case WALWrite, WALFsync, DataExtend, DataWrite, BtreeUnlink:
		default:
			return nil, fmt.Errorf("unknown point %q", point)
		}
		m[point] = errno
	}
	return m, nil
}

// Check returns the error injected at point for an operation op ("write",
// "fsync") on file path, or nil.
func Check(point, op, path string) error {
	if !enabled.Load() {
		return nil
	}
	mu.Lock()
	errno, ok := points[point]
	arm := armFile
	mu.Unlock()
	if !ok {
		return nil
	}
	if arm != "" {
		if _, err := os.Stat(arm); err != nil {
			return nil
		}
	}
	return &os.PathError{Op: op, Path: path, Err: errno}
}

// Set makes point fail with errno from now on (in-process tests).
func Set(point string, errno syscall.Errno) {
	mu.Lock()
	defer mu.Unlock()
	if points == nil {
		points = map[string]syscall.Errno{}
	}
	points[point] = errno
	enabled.Store(true)
}

// Clear removes every injected fault.
func Clear() {
	mu.Lock()
	defer mu.Unlock()
	points, armFile = nil, ""
	enabled.Store(false)
}

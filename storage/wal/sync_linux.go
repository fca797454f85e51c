package wal

import (
	"os"
	"syscall"
)

// fdatasync is wal_sync_method=fdatasync, PostgreSQL's default on Linux:
// segments are zero-filled when created, so a write into them changes no
// metadata that fdatasync would have to flush.
func fdatasync(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }

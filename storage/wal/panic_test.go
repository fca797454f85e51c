package wal

import (
	"errors"
	"syscall"
	"testing"

	"minipg/internal/fault"
)

// TestPanicOnFailedFsync: the first failed fsync calls the panic handler
// once; every later flush fails with the same error and never fsyncs
// again, even once fsync would work.
func TestPanicOnFailedFsync(t *testing.T) {
	for _, point := range []string{fault.WALFsync, fault.WALWrite} {
		t.Run(point, func(t *testing.T) {
			var calls []error
			SetPanicHandler(func(err error) { calls = append(calls, err) })
			defer SetPanicHandler(nil)
			defer fault.Clear()
			l := openTest(t, t.TempDir(), testOptions(nil))
			if _, err := l.Insert(&Record{Rmgr: RmgrHeap, MainData: []byte("durable")}); err != nil {
				t.Fatal(err)
			}
			if err := l.FlushAll(); err != nil {
				t.Fatal(err)
			}
			fault.Set(point, syscall.EIO)
			lsn, err := l.Insert(&Record{Rmgr: RmgrHeap, MainData: []byte("lost")})
			if err != nil {
				t.Fatal(err)
			}
			err1 := l.Flush(lsn)
			if !errors.Is(err1, ErrIO) || len(calls) != 1 {
				t.Fatalf("first flush: %v, handler called %d times", err1, len(calls))
			}
			fault.Clear()
			syncs := l.Stats().Sync
			if err := l.Flush(lsn); err == nil || err.Error() != err1.Error() {
				t.Fatalf("second flush: %v", err)
			}
			if _, err := l.Insert(&Record{Rmgr: RmgrHeap}); err == nil {
				t.Fatal("insert into a failed log")
			}
			if l.Stats().Sync != syncs || len(calls) != 1 {
				t.Fatalf("retried: %d fsyncs, handler called %d times", l.Stats().Sync-syncs, len(calls))
			}
			_ = l.Close()
		})
	}
}

package wal

import (
	"sync/atomic"

	"minipg/pgerr"
)

// A WAL write or fsync that fails leaves the log unusable: the bytes have
// left the WAL buffer, and after a failed fsync the kernel may have dropped
// the dirty pages and report the next fsync as a success, so retrying
// could lose committed data silently. PostgreSQL PANICs (since 12 also on
// an fsync failure); crash recovery then starts again from the WAL that is
// known durable. The Log refuses every flush from then on (ErrIO with the
// first failure), logs the failure at error level with "PANIC", and calls
// the panic handler, which a server sets to end the process.

var panicHandler atomic.Pointer[func(error)]

// SetPanicHandler sets the function called, once per Log, when a WAL write
// or fsync fails; nil removes it. It is called from the goroutine that met
// the failure, with no lock held; it may exit the process.
func SetPanicHandler(f func(err error)) {
	if f == nil {
		panicHandler.Store(nil)
		return
	}
	panicHandler.Store(&f)
}

// panic reports the first failed write or fsync of l.
func (l *Log) panic(err error) {
	l.log.Error("PANIC: the write-ahead log cannot be written; every further flush fails",
		"err", err, "detail", pgerr.Flatten(err).Detail)
	if h := panicHandler.Load(); h != nil {
		(*h)(err)
	}
}

package server

import (
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Socket I/O after the start-up phase.
//
// A connection that waits for its next message through Go's network poller
// parks its goroutine; when the message arrives, the kernel wakes the
// thread sleeping in epoll_wait, which finds the goroutine and runs it,
// often after handing it to another thread. With one client doing round
// trips, that costs a failed read, one or two epoll_wait calls and an extra
// thread switch per round trip, which is a good part of a primary-key
// SELECT. PostgreSQL's backend, a process of its own, is woken directly.
//
// So a connection that is the only one at work reads in blocking mode: its
// socket is taken out of the poller and the goroutine's thread sleeps in
// read(2) until the kernel wakes it with the data. That holds an OS thread
// (and for a while the scheduler's P) per waiting connection, which is
// cheap when one client is busy but slows many busy clients sharing a few
// CPUs: the scheduler cannot run another goroutine on a P whose thread is
// asleep in a system call until its monitor takes the P away. A connection
// therefore goes back to the poller as soon as it sees another connection
// busy when it starts to wait, and returns to blocking mode only after
// defaultQuietReads waits in a row with no other connection busy, so that
// a server under concurrent load stays on the poller and a connection does
// not flap between the modes (a switch costs a few system calls).
//
// Either way the socket is written by the connection's goroutine only, so
// writes need no poller in blocking mode: write(2) sleeps until the client
// has taken enough of the data. Deadlines do not apply in blocking mode;
// Server.Shutdown wakes a sleeping reader or writer with shutdown(2), which
// works in both modes.

// defaultQuietReads is how many waits for input in a row must find no
// other connection busy before a connection switches to blocking reads.
const defaultQuietReads = 32

// yieldInterval is how often a connection in blocking mode yields to the
// scheduler (see Read): under the runtime's 10ms limit for a goroutine
// that runs without a break.
const yieldInterval = 5 * time.Millisecond

// connIO is the byte stream under a connection's pgproto3.Backend. Read,
// Write and Close are called from the connection's goroutine only;
// shutdown may be called from any goroutine. mu is a leaf lock; it keeps a
// descriptor from being closed (and its number reused) while shutdown uses
// it.
type connIO struct {
	nc         net.Conn
	busy       *atomic.Int32 // the server's count of connections not waiting for input
	quietReads int           // Config.quietReads

	// The stream is in one of three states: the start-up phase or a
	// connection that is not a socket (pollable == nil, fd < 0: nc is
	// used as it is); poller mode (pollable != nil: nc itself or an
	// *os.File on the same socket, non-blocking); blocking mode (fd >= 0,
	// not registered with the poller).
	pollable  io.ReadWriteCloser
	fd        int
	quiet     int       // consecutive waits with no other connection busy
	reads     int       // blocking reads
	lastYield time.Time // see Read
	isBusy    bool      // counted in *busy

	mu struct {
		sync.Mutex
		fd       int  // the socket's descriptor after the start-up phase; -1 before and after Close
		closed   bool // Close was called
		blocking bool // in blocking mode (for tests)
	}
}

func newConnIO(nc net.Conn, busy *atomic.Int32, quietReads int) *connIO {
	c := &connIO{nc: nc, busy: busy, quietReads: quietReads, fd: -1}
	c.mu.fd = -1
	return c
}

// startMessages is called once the start-up phase is over. From then on
// the socket (if nc is one) switches between poller and blocking mode.
func (c *connIO) startMessages() {
	c.setBusy(true)
	fd := -1
	if !withFD(c.nc, func(s int) { fd = s }) || fd < 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mu.closed {
		return
	}
	c.pollable = c.nc
	c.mu.fd = fd
}

// withFD runs f with the descriptor under conn, a socket; false when conn
// has none.
func withFD(conn any, f func(fd int)) bool {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	return rc.Control(func(s uintptr) { f(int(s)) }) == nil
}

func (c *connIO) setBusy(b bool) {
	if c.isBusy == b {
		return
	}
	c.isBusy = b
	if b {
		c.busy.Add(1)
	} else {
		c.busy.Add(-1)
	}
}

// chooseMode is called before each wait for input.
func (c *connIO) chooseMode() {
	c.setBusy(false)
	others := c.busy.Load() > 0
	switch {
	case c.fd >= 0:
		if others {
			c.quiet = 0
			c.toPoller()
		}
	case c.pollable != nil:
		if others {
			c.quiet = 0
			return
		}
		if c.quiet++; c.quietReads > 0 && c.quiet >= c.quietReads {
			c.toBlocking()
		}
	}
}

// toBlocking takes the socket out of the poller: a duplicate descriptor is
// made blocking and the pollable one closed, which deregisters it. Were the
// socket left registered, every message would also wake the thread in
// epoll_wait for nothing. On failure the connection stays in poller mode.
func (c *connIO) toBlocking() {
	fd := -1
	var derr error
	if !withFD(c.pollable, func(s int) { fd, derr = dupCloexec(s) }) || derr != nil {
		return
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		_ = syscall.Close(fd)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_ = c.pollable.Close()
	c.pollable, c.fd, c.mu.fd = nil, fd, fd
	c.mu.blocking = true
}

// toPoller registers the socket with the poller again. On failure the
// connection stays in blocking mode.
func (c *connIO) toPoller() {
	if err := syscall.SetNonblock(c.fd, true); err != nil {
		return
	}
	// A non-blocking descriptor makes a pollable os.File.
	f := os.NewFile(uintptr(c.fd), "socket")
	if f == nil {
		return
	}
	c.pollable, c.fd = f, -1
	c.mu.Lock()
	c.mu.blocking = false
	c.mu.Unlock()
}

// isBlocking reports whether the connection is in blocking mode.
func (c *connIO) isBlocking() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mu.blocking
}

func dupCloexec(fd int) (int, error) {
	r, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_DUPFD_CLOEXEC, 0)
	if e != 0 {
		return -1, e
	}
	return int(r), nil
}

func (c *connIO) Read(p []byte) (int, error) {
	if c.pollable == nil && c.fd < 0 {
		return c.nc.Read(p)
	}
	c.chooseMode()
	defer c.setBusy(true)
	if c.fd < 0 {
		n, err := c.pollable.Read(p)
		return n, streamError("read", err)
	}
	// A goroutine that never parks looks to the runtime's monitor like one
	// that has run for too long: every 10ms it would take the P away while
	// the goroutine sleeps in read(2), and then poll every 20µs again for
	// a while. Yielding more often than that lets the monitor stay in its
	// slow rhythm. A yield wakes an idle thread for a moment, and the clock
	// is not free either, so both happen only now and then.
	if c.reads++; c.reads%8 == 0 {
		if now := time.Now(); now.Sub(c.lastYield) >= yieldInterval {
			c.lastYield = now
			runtime.Gosched()
		}
	}
	for {
		n, err := syscall.Read(c.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, streamError("read", err)
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (c *connIO) Write(p []byte) (int, error) {
	if c.fd < 0 {
		if c.pollable != nil {
			n, err := c.pollable.Write(p)
			return n, streamError("write", err)
		}
		return c.nc.Write(p)
	}
	written := 0
	for written < len(p) {
		n, err := syscall.Write(c.fd, p[written:])
		if n > 0 {
			written += n
		}
		switch {
		case err == syscall.EINTR:
		case err != nil:
			return written, streamError("write", err)
		case n == 0:
			return written, streamError("write", io.ErrShortWrite)
		}
	}
	return written, nil
}

// streamError makes err, unless it is nil or io.EOF, a net.Error, which is
// what the connection treats as a broken connection (see receiveError).
func streamError(op string, err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return err
	}
	if errno, ok := err.(syscall.Errno); ok {
		err = os.NewSyscallError(op, errno)
	}
	return &net.OpError{Op: op, Net: "tcp", Err: err}
}

// shutdown shuts the socket down (how: syscall.SHUT_RD, SHUT_RDWR), which
// wakes the connection's goroutine if it sleeps reading (or, for SHUT_RDWR,
// writing) in either mode. It does nothing before the start-up phase is
// over or after Close. Safe from any goroutine.
func (c *connIO) shutdown(how int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mu.fd < 0 {
		return false
	}
	_ = syscall.Shutdown(c.mu.fd, how)
	return true
}

func (c *connIO) Close() error {
	c.setBusy(false)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mu.closed = true
	c.mu.fd = -1
	switch {
	case c.fd >= 0:
		err := syscall.Close(c.fd)
		c.fd = -1
		return err
	case c.pollable != nil && c.pollable != io.ReadWriteCloser(c.nc):
		err := c.pollable.Close()
		c.pollable = nil
		return err
	}
	return c.nc.Close()
}

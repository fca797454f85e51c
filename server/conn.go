package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"minipg/pgerr"
)

// flushThreshold is how many bytes of DataRows are buffered before they are
// written, so that a large result streams instead of piling up in memory.
const flushThreshold = 64 << 10

// authenticationTimeout bounds the start-up phase (authentication_timeout).
const authenticationTimeout = time.Minute

// shutdownWriteTimeout bounds how long Server.Shutdown waits for a client
// to take what its connection is writing.
const shutdownWriteTimeout = 2 * time.Second

// conn is one client connection. Everything but the fields under mu and
// terminating is used by the connection's own goroutine only.
type conn struct {
	srv  *Server
	nc   net.Conn // the socket, or the TLS connection over it once started
	raw  net.Conn // the socket (read by terminate from any goroutine)
	io   *connIO
	be   *pgproto3.Backend
	log  *slog.Logger
	pid  uint32
	key  []byte // BackendKeyData secret (4 bytes, as PostgreSQL 15)
	user string
	sess Session
	act  ActivitySession // sess, when it shows its activity; else nil

	ssl         bool   // the connection runs over TLS
	tlsEndPoint []byte // tls-server-end-point channel binding data when ssl

	stmts   map[string]*prepStmt // "" is the unnamed statement
	portals map[string]*portal   // "" is the unnamed portal

	ignoreTillSync bool   // an extended-protocol message failed: skip to Sync
	sentReady      bool   // ReadyForQuery was the last message sent (see idleTimer)
	unflushed      int    // approximate bytes sent since the last Flush
	wbuf           []byte // messages queued by send, written by flush
	encodeErr      error  // a message send could not encode; reported by flush

	row  rowEncoder
	sink rowSink

	// Reused for every statement: Backend.Send encodes a message at once.
	tagBuf []byte
	ccMsg  pgproto3.CommandComplete
	rfqMsg pgproto3.ReadyForQuery

	terminating atomic.Bool // Server.Shutdown asked this connection to end

	// The statements' context (see startStatement) and its cancel function.
	stmtCtx    context.Context
	stmtCancel context.CancelFunc

	mu struct {
		sync.Mutex
		cancel context.CancelFunc // stmtCancel while a statement runs; nil when idle
	}
}

// prepStmt is a prepared statement; st is nil for an empty query.
type prepStmt struct {
	name string
	sql  string // the text Parse gave (pg_stat_activity.query)
	st   *Statement
}

// portal is a bound statement. p is nil for an empty query.
type portal struct {
	name      string
	stmt      *prepStmt
	p         Portal
	cols      []Column
	formats   []int16 // result format codes as in Bind (see formatOf)
	done      bool    // ran to completion
	suspended bool    // an Execute stopped at its row limit
	failed    bool    // an Execute failed: it cannot run again
	tag       string  // its CommandComplete tag
}

// ServeConn runs the protocol on nc until the client terminates, a FATAL
// error or a connection failure; it closes nc. A panic in the connection
// is recovered, logged and reported as FATAL XX000: other connections and
// the server are unaffected.
func (s *Server) ServeConn(ctx context.Context, nc net.Conn) {
	cio := newConnIO(nc, &s.busy, s.cfg.quietReads)
	c := &conn{
		srv:     s,
		nc:      nc,
		raw:     nc,
		io:      cio,
		be:      pgproto3.NewBackend(cio, cio),
		log:     s.log.With("remote", nc.RemoteAddr().String()),
		stmts:   make(map[string]*prepStmt),
		portals: make(map[string]*portal),
	}
	c.sink.init(c)
	defer cio.Close()
	if !s.track(c) {
		c.sendError(fatal(codeCannotConnectNow, "the database system is shutting down"))
		_ = c.flush()
		return
	}
	defer s.untrack(c)
	defer s.unregister(c) // no-op unless the start-up registered c
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("panic in connection", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			c.sendError(fatal(pgerr.InternalError, "internal error: %v", r))
			_ = c.flush()
		}
		c.closeSession()
	}()
	// Start-up must finish within authenticationTimeout, as PostgreSQL's
	// authentication_timeout, so that silent clients do not pile up.
	_ = nc.SetDeadline(time.Now().Add(authenticationTimeout))
	if !c.handshake() {
		return
	}
	if !c.terminating.Load() {
		_ = nc.SetDeadline(time.Time{})
	}
	cio.startMessages()
	c.log = c.log.With("pid", c.pid, "user", c.user)
	c.log.Debug("connection ready")
	// Statements derive their contexts from the connection's own, so that
	// they do not all register with (and contend on) the server's.
	connCtx, cancelConn := context.WithCancel(ctx)
	defer cancelConn()
	err := c.messageLoop(connCtx)
	switch {
	case err == nil:
		c.log.Debug("connection terminated by client")
	case isIOError(err):
		if c.terminating.Load() {
			c.sendError(fatal(pgerr.AdminShutdown, "terminating connection due to administrator command"))
			_ = c.flush()
		} else {
			c.log.Debug("connection lost", "err", err)
		}
	default:
		c.log.Info("closing connection", "err", err)
		c.sendError(err)
		_ = c.flush()
	}
}

// closeSession closes the portals and the session (which aborts an open
// transaction); a panic there is logged, not propagated.
func (c *conn) closeSession() {
	if c.sess == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("panic closing session", "panic", fmt.Sprint(r))
		}
	}()
	c.closeAllPortals()
	c.sess.Close()
	c.sess = nil
}

// messageLoop reads and dispatches messages. It returns nil on Terminate,
// an *ioError when the connection broke, or a FATAL error to be sent.
func (c *conn) messageLoop(ctx context.Context) error {
	c.be.SetMaxBodyLen(c.srv.cfg.MaxMessageSize)
	for {
		if c.terminating.Load() {
			return &ioError{net.ErrClosed}
		}
		idle := c.idleTimer()
		msg, err := c.be.Receive()
		if idle() {
			return errIdleInTransaction()
		}
		if err != nil {
			return receiveError(err)
		}
		if c.ignoreTillSync {
			switch msg.(type) {
			case *pgproto3.Sync, *pgproto3.Terminate:
			default:
				continue
			}
		}
		extended := false
		switch m := msg.(type) {
		case *pgproto3.Query:
			err = c.simpleQuery(ctx, m.String)
		case *pgproto3.Parse:
			extended = true
			err = c.parse(m)
		case *pgproto3.Bind:
			extended = true
			err = c.bind(m)
		case *pgproto3.Describe:
			extended = true
			err = c.describe(m)
		case *pgproto3.Execute:
			extended = true
			err = c.execute(ctx, m)
		case *pgproto3.Close:
			extended = true
			err = c.closeMsg(m)
		case *pgproto3.Sync:
			c.ignoreTillSync = false
			err = c.syncAndReady()
		case *pgproto3.Flush:
			err = c.flush()
		case *pgproto3.Terminate:
			return nil
		case *pgproto3.CopyData, *pgproto3.CopyDone, *pgproto3.CopyFail:
			// Accepted and ignored, as PostgreSQL does: a COPY failed and
			// the client is still sending its data.
		case *pgproto3.FunctionCall:
			c.sendError(pgerr.Unimplemented("fastpath function calls"))
			err = c.readyForQuery()
		default:
			return fatal(pgerr.ProtocolViolation, "invalid frontend message type %d", messageType(msg))
		}
		if err == nil {
			continue
		}
		if isIOError(err) || isFatal(err) {
			return err
		}
		c.sendError(err)
		if extended {
			c.ignoreTillSync = true
		}
		if err := c.maybeFlush(); err != nil {
			return err
		}
	}
}

// messageType returns the type byte of a frontend message for error texts.
func messageType(msg pgproto3.FrontendMessage) byte {
	b, err := msg.Encode(nil)
	if err != nil || len(b) == 0 {
		return 0
	}
	return b[0]
}

// maxKeptWriteBuf is the largest output buffer a connection keeps between
// flushes; a bigger one (a row larger than flushThreshold) is dropped.
const maxKeptWriteBuf = 256 << 10

// send queues msg; nothing is written until flush. The connection encodes
// into its own buffer rather than pgproto3.Backend's, which Flush
// replaces by a fresh 1 kB one whenever it held more: most replies of a
// busy connection are bigger than that, and regrowing it was a tenth of
// the bytes allocated per statement.
func (c *conn) send(msg pgproto3.BackendMessage) {
	if c.encodeErr != nil {
		return
	}
	b, err := msg.Encode(c.wbuf)
	if err != nil {
		c.encodeErr = err
		return
	}
	c.wbuf = b
}

// flush writes what send queued. If a message could not be encoded, what
// was queued is dropped and the error returned.
func (c *conn) flush() error {
	c.unflushed = 0
	var err error
	if c.encodeErr != nil {
		err, c.encodeErr = c.encodeErr, nil
	} else if len(c.wbuf) > 0 {
		_, err = c.io.Write(c.wbuf)
	}
	if cap(c.wbuf) > maxKeptWriteBuf {
		c.wbuf = nil
	} else {
		c.wbuf = c.wbuf[:0]
	}
	if err != nil {
		return &ioError{err}
	}
	return nil
}

// maybeFlush flushes once enough bytes are queued.
func (c *conn) maybeFlush() error {
	if c.unflushed >= flushThreshold {
		return c.flush()
	}
	return nil
}

// sendError queues an ErrorResponse for err (after pending notices).
func (c *conn) sendError(err error) {
	c.sendNotices()
	resp := errorResponse(err)
	if resp.Code == string(pgerr.InternalError) {
		c.log.Warn("internal error", "err", err)
	}
	c.send(resp)
	c.unflushed += len(resp.Message) + 64
}

// sendNotices queues the session's pending notices.
func (c *conn) sendNotices() {
	if c.sess == nil {
		return
	}
	for _, n := range c.sess.TakeNotices() {
		c.send(noticeResponse(n))
	}
}

// readyForQuery sends pending notices, changed settings and ReadyForQuery,
// and flushes. When no transaction is open any more, portals are gone, as
// PostgreSQL drops non-holdable portals at transaction end.
func (c *conn) readyForQuery() error {
	c.sendNotices()
	for name, val := range c.sess.ParamStatusChanges() {
		c.send(&pgproto3.ParameterStatus{Name: name, Value: val})
	}
	status := c.sess.TxStatus()
	if status == 'I' {
		c.closeAllPortals()
	}
	c.reportIdle()
	c.rfqMsg.TxStatus = status
	c.send(&c.rfqMsg)
	c.sentReady = true
	return c.flush()
}

// sendCommandComplete queues CommandComplete with tag.
func (c *conn) sendCommandComplete(tag string) {
	c.tagBuf = append(c.tagBuf[:0], tag...)
	c.ccMsg.CommandTag = c.tagBuf
	c.send(&c.ccMsg)
}

// syncAndReady ends the implicit transaction and sends ReadyForQuery.
func (c *conn) syncAndReady() error {
	if err := c.sess.Sync(); err != nil {
		if isIOError(err) || isFatal(err) {
			return err
		}
		c.sendError(err)
	}
	return c.readyForQuery()
}

func (c *conn) closeAllPortals() {
	for name, p := range c.portals {
		if p.p != nil {
			p.p.Close()
		}
		delete(c.portals, name)
	}
}

// terminate is called by Server.Shutdown from another goroutine: it cancels
// the running statement and makes the connection's next read fail.
func (c *conn) terminate() {
	c.terminating.Store(true)
	c.cancelStatement()
	c.wakeReader()
}

// wakeReader makes the connection's read fail, now and from then on. Safe
// from any goroutine.
func (c *conn) wakeReader() {
	// Past the start-up phase the socket may be in blocking mode, where
	// deadlines do not apply; shutting it down wakes the goroutine in
	// either mode (see sockio.go).
	if c.io.shutdown(syscall.SHUT_RD) {
		// A client that does not read its results must not hold up shutdown.
		time.AfterFunc(shutdownWriteTimeout, func() { c.io.shutdown(syscall.SHUT_RDWR) })
		return
	}
	_ = c.raw.SetReadDeadline(time.Now())
	_ = c.raw.SetWriteDeadline(time.Now().Add(shutdownWriteTimeout))
}

// reportQuery tells the session that it runs query from now on.
func (c *conn) reportQuery(query string) {
	if c.act != nil {
		c.act.ReportQuery(query)
	}
}

// reportIdle tells the session that it waits for the client.
func (c *conn) reportIdle() {
	if c.act != nil {
		c.act.ReportIdle()
	}
}

// attachActivity hands the session the connection's pid and the client's
// address.
func (c *conn) attachActivity() {
	act, ok := c.sess.(ActivitySession)
	if !ok {
		return
	}
	c.act = act
	addr, port := "", -1
	if !isUnixConn(c.raw) {
		if ip := c.srv.peerIP(c.raw); ip != nil {
			addr = ip.String()
		}
		port = 0
		if a, ok := c.raw.RemoteAddr().(*net.TCPAddr); ok {
			port = a.Port
		}
	}
	act.Attach(c.pid, addr, port)
}

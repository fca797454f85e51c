package server

import (
	"context"
	"crypto/subtle"
)

// Cancellation. A client cancels a running statement by opening a new
// connection and sending CancelRequest with the process id and secret key
// it got in BackendKeyData. The server looks the target connection up and
// cancels the context of the statement it is running, if any; the executor
// then fails that statement with 57014. The cancelling connection is closed
// without a reply, as in PostgreSQL. A request with a wrong key is ignored.

// startStatement returns the context of one unit of work (a simple-query
// message or an Execute) that a CancelRequest may cancel; call endStatement
// when it ends. Statements share one context until one is cancelled, which
// saves a context per round trip: it is cancelled only while a statement
// runs (cancelStatement holds mu, so a late request cannot reach the next
// statement), and a cancelled one is replaced here. The engine only waits
// on the context; it derives none of its own that could pile up in it.
func (c *conn) startStatement(parent context.Context) context.Context {
	if c.stmtCtx == nil || c.stmtCtx.Err() != nil {
		c.stmtCtx, c.stmtCancel = context.WithCancel(parent)
	}
	c.mu.Lock()
	c.mu.cancel = c.stmtCancel
	c.mu.Unlock()
	if c.terminating.Load() {
		c.cancelStatement()
	}
	return c.stmtCtx
}

// endStatement ends what startStatement started: a CancelRequest from now
// on finds no statement to cancel.
func (c *conn) endStatement() {
	c.mu.Lock()
	c.mu.cancel = nil
	c.mu.Unlock()
}

// cancelStatement cancels the running statement, if any. Safe from any
// goroutine.
func (c *conn) cancelStatement() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mu.cancel != nil {
		c.mu.cancel()
	}
}

// handleCancel serves a CancelRequest.
func (s *Server) handleCancel(pid uint32, key []byte) {
	target := s.lookup(pid)
	if target == nil || subtle.ConstantTimeCompare(target.key, key) != 1 {
		s.log.Debug("ignoring cancel request", "pid", pid)
		return
	}
	s.log.Debug("cancel request", "pid", pid)
	target.cancelStatement()
}

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

// startStatement derives the context of one unit of work (a simple-query
// message or an Execute) that a CancelRequest may cancel. Call the returned
// function when it ends.
func (c *conn) startStatement(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	c.mu.Lock()
	c.mu.cancel = cancel
	c.mu.Unlock()
	if c.terminating.Load() {
		cancel()
	}
	return ctx, func() {
		c.mu.Lock()
		c.mu.cancel = nil
		c.mu.Unlock()
		cancel()
	}
}

// cancelStatement cancels the running statement, if any. Safe from any
// goroutine.
func (c *conn) cancelStatement() {
	c.mu.Lock()
	cancel := c.mu.cancel
	c.mu.Unlock()
	if cancel != nil {
		cancel()
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

package server

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"minipg/pgerr"
)

// Timeouts that PostgreSQL's traffic cop (postgres.c) enforces around
// statements and between messages:
//
//   - statement_timeout: each statement of a simple query, and each
//     Execute, runs under a context that ends after the session's value;
//     the statement fails with 57014 "canceling statement due to statement
//     timeout" (the engine fails it as a cancelled one; the cause of the
//     context says which cancellation it was).
//   - idle_in_transaction_session_timeout: while the connection waits for
//     a message inside a transaction block ('T' or 'E'), a timer wakes the
//     reader after the session's value and the connection ends with FATAL
//     25P03 "terminating connection due to idle-in-transaction timeout".
//   - lock_timeout is the engine's (it knows when it waits for a lock);
//     see txn.WithLockTimeout.
//
// The values are read from the session (a Session that has a Setting
// method) when needed, so SET takes effect from the next statement.

// settingSession is a Session that reports its settings.
type settingSession interface {
	Setting(name string) (string, bool)
}

// errStatementTimeout is the cause of a statement context that ran out.
var errStatementTimeout = errors.New("statement timeout")

// ParseMillis reads a time setting as SHOW prints it ("0", "250ms", "5s",
// "2min", "1h", "1d"; a bare number is milliseconds). Anything else is 0.
func ParseMillis(v string) time.Duration {
	v = strings.TrimSpace(v)
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(v[:i], 10, 64)
	if err != nil {
		return 0
	}
	unit := map[string]time.Duration{"": time.Millisecond, "ms": time.Millisecond, "s": time.Second,
		"min": time.Minute, "h": time.Hour, "d": 24 * time.Hour}
	u, ok := unit[strings.TrimSpace(v[i:])]
	if !ok {
		return 0
	}
	return time.Duration(n) * u
}

// sessionTimeout is the session's value of a time setting (0: none).
func (c *conn) sessionTimeout(name string) time.Duration {
	ss, ok := c.sess.(settingSession)
	if !ok {
		return 0
	}
	v, ok := ss.Setting(name)
	if !ok || v == "0" || v == "" {
		return 0
	}
	return ParseMillis(v)
}

// runStatement runs fn, one statement, under statement_timeout.
func (c *conn) runStatement(ctx context.Context, fn func(context.Context) error) error {
	d := c.sessionTimeout("statement_timeout")
	if d <= 0 {
		return fn(ctx)
	}
	tctx, cancel := context.WithTimeoutCause(ctx, d, errStatementTimeout)
	defer cancel()
	err := fn(tctx)
	if err != nil && ctx.Err() == nil && context.Cause(tctx) == errStatementTimeout &&
		(pgerr.CodeOf(err) == pgerr.QueryCanceled || errors.Is(err, context.DeadlineExceeded)) {
		return pgerr.New(pgerr.QueryCanceled, "canceling statement due to statement timeout")
	}
	return err
}

// idleTimer arms idle_in_transaction_session_timeout before a wait for a
// message that follows ReadyForQuery, as PostgreSQL arms it (not between
// the messages of an extended-protocol batch); the returned function
// disarms it and reports whether it fired, after which the connection must
// end (its reader has been woken for good).
func (c *conn) idleTimer() func() bool {
	ready := c.sentReady
	c.sentReady = false
	if c.sess == nil || !ready {
		return func() bool { return false }
	}
	if st := c.sess.TxStatus(); st != 'T' && st != 'E' {
		return func() bool { return false }
	}
	d := c.sessionTimeout("idle_in_transaction_session_timeout")
	if d <= 0 {
		return func() bool { return false }
	}
	fired := make(chan struct{})
	t := time.AfterFunc(d, func() {
		close(fired)
		c.wakeReader()
	})
	return func() bool {
		if t.Stop() {
			return false
		}
		<-fired
		return true
	}
}

func errIdleInTransaction() error {
	return fatal(pgerr.IdleInTransactionSessionTimeout, "terminating connection due to idle-in-transaction timeout")
}

package txn

import (
	"context"
	"time"

	"minipg/pgerr"
)

// lock_timeout. A caller that should not wait longer than some time for
// any one lock (a transaction to end, a relation lock) says so on the
// context it passes; a wait that takes longer fails with 55P03, as
// PostgreSQL's lock_timeout. The wait gives up the way a cancelled one
// does.

type lockTimeoutKey struct{}

// WithLockTimeout returns ctx carrying lock timeout d (none if d <= 0).
func WithLockTimeout(ctx context.Context, d time.Duration) context.Context {
	if d <= 0 {
		return ctx
	}
	return context.WithValue(ctx, lockTimeoutKey{}, d)
}

// lockTimer returns a channel that receives once ctx's lock timeout has
// passed (nil, which never receives, when ctx has none) and the function
// that releases the timer.
func lockTimer(ctx context.Context) (<-chan time.Time, func()) {
	d, _ := ctx.Value(lockTimeoutKey{}).(time.Duration)
	if d <= 0 {
		return nil, func() {}
	}
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}

func errLockTimeout() error {
	return pgerr.New(pgerr.LockNotAvailable, "canceling statement due to lock timeout")
}

type waitReporterKey struct{}

// WithWaitReporter returns ctx carrying report, which a wait for another
// transaction to end calls with true when it begins to block and with false
// when it stops (pg_stat_activity's wait event Lock / transactionid).
func WithWaitReporter(ctx context.Context, report func(waiting bool)) context.Context {
	return context.WithValue(ctx, waitReporterKey{}, report)
}

// reportWait tells ctx's reporter that a wait begins and returns the
// function that tells it the wait ended.
func reportWait(ctx context.Context) func() {
	report, _ := ctx.Value(waitReporterKey{}).(func(bool))
	if report == nil {
		return func() {}
	}
	report(true)
	return func() { report(false) }
}

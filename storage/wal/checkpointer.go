package wal

import (
	"sync"
	"sync/atomic"
	"time"
)

// The checkpointer (PostgreSQL's checkpointer.c). One goroutine owns it.
// A checkpoint starts:
//
//   - timed: checkpoint_timeout has passed since the last one started
//     (counted in checkpoints_timed even when it is then skipped because no
//     WAL was written since, as PostgreSQL counts it);
//   - on WAL volume: the WAL since the redo point exceeds
//     max_wal_size / (1 + checkpoint_completion_target), PostgreSQL's
//     CheckPointSegments (counted in checkpoints_req);
//   - on request: Request (the CHECKPOINT command; checkpoints_req).
//
// Timed and WAL-triggered checkpoints are paced, as CheckpointWriteDelay
// paces them: after each buffer written the checkpointer compares its
// progress (the share of the checkpoint's buffers processed, times
// checkpoint_completion_target) with the time elapsed as a share of
// checkpoint_timeout and with the WAL written since the redo point as a
// share of CheckPointSegments; while it is ahead of both it sleeps
// (PaceSleep, 100ms as in PostgreSQL). So a checkpoint's writes end after
// about completion_target x checkpoint_timeout, or sooner if WAL comes
// fast enough to call for the next checkpoint earlier. A requested
// checkpoint is immediate (CHECKPOINT_IMMEDIATE): no sleeps; a request or
// Stop arriving during a paced checkpoint makes the rest of it immediate.

// CheckpointerOptions configure the background checkpointer.
type CheckpointerOptions struct {
	// Timeout is checkpoint_timeout: a checkpoint starts when this long has
	// passed since the last one began; 0 means 5 minutes.
	Timeout time.Duration
	// MaxWAL is max_wal_size in bytes: a checkpoint starts when the WAL
	// since the redo point exceeds MaxWAL / (1 + CompletionTarget);
	// 0 means 1 GiB.
	MaxWAL int64
	// CompletionTarget is checkpoint_completion_target; 0 means 0.9, a
	// negative value 0 (no spreading).
	CompletionTarget float64
	// PaceSleep is how long a paced checkpoint sleeps after a buffer
	// while ahead of schedule; 0 means 100ms.
	PaceSleep time.Duration
	// Poll is how often the WAL volume is looked at; 0 means 1 second.
	Poll time.Duration
	// Prepare returns the options of each checkpoint (FlushBuffers, Extra).
	Prepare func() CheckpointOptions
	// OnError is told about a failed checkpoint; nil means log it.
	OnError func(error)
}

// Checkpointer runs checkpoints in the background (the checkpointer
// process): on time, on WAL volume, and on request.
type Checkpointer struct {
	l       *Log
	o       CheckpointerOptions
	request chan chan error
	// pending counts Requests waiting: while there are any, or once Stop
	// is called, a paced checkpoint in progress stops sleeping
	// (ImmediateCheckpointRequested).
	pending atomic.Int32
	wake    chan struct{} // interrupts a pacing sleep
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// StartCheckpointer starts the background checkpointer. Stop it before
// the final shutdown checkpoint.
func (l *Log) StartCheckpointer(o CheckpointerOptions) *Checkpointer {
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Minute
	}
	if o.MaxWAL <= 0 {
		o.MaxWAL = 1 << 30
	}
	switch {
	case o.CompletionTarget == 0 || o.CompletionTarget > 1:
		o.CompletionTarget = 0.9
	case o.CompletionTarget < 0:
		o.CompletionTarget = 0
	}
	if o.PaceSleep <= 0 {
		o.PaceSleep = 100 * time.Millisecond
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.Prepare == nil {
		o.Prepare = func() CheckpointOptions { return CheckpointOptions{} }
	}
	if o.OnError == nil {
		o.OnError = func(err error) { l.log.Error("checkpoint failed", "err", err) }
	}
	c := &Checkpointer{l: l, o: o, request: make(chan chan error), wake: make(chan struct{}, 1),
		stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

// segmentsBytes is CheckPointSegments in bytes: the WAL after which the
// next checkpoint is due.
func (c *Checkpointer) segmentsBytes() float64 {
	return float64(c.o.MaxWAL) / (1 + c.o.CompletionTarget)
}

func (c *Checkpointer) run() {
	defer close(c.done)
	t := time.NewTicker(min(c.o.Poll, c.o.Timeout))
	defer t.Stop()
	last := time.Now()
	for {
		var reply chan error
		select {
		case <-c.stop:
			return
		case reply = <-c.request:
			c.l.stats.ckptReq.Add(1)
		case now := <-t.C:
			due := now.Sub(last) >= c.o.Timeout
			volume := float64(c.l.InsertLSN()-c.l.RedoLSN()) > c.segmentsBytes()
			switch {
			case volume:
				c.l.stats.ckptReq.Add(1)
			case due:
				c.l.stats.ckptTimed.Add(1)
				if c.l.InsertLSN() == c.l.lastCheckpointEnd() {
					// Nothing happened since the last checkpoint (CHECKPOINT_FORCE unset).
					last = now
					continue
				}
			default:
				continue
			}
		}
		last = time.Now()
		o := c.o.Prepare()
		if reply == nil {
			start, redo := last, c.l.InsertLSN()
			o.pace = func(progress float64) { c.writeDelay(progress, start, redo) }
		}
		_, err := c.l.Checkpoint(o)
		if reply != nil {
			c.pending.Add(-1) // counted until done: a paced checkpoint run by someone else may still hold ckptMu
			reply <- err
		} else if err != nil {
			c.o.OnError(err)
		}
	}
}

// writeDelay is CheckpointWriteDelay: sleep while the checkpoint that
// started at start with redo point about redo is ahead of schedule.
func (c *Checkpointer) writeDelay(progress float64, start time.Time, redo uint64) {
	select {
	case <-c.stop:
		return
	default:
	}
	if c.pending.Load() > 0 || !c.onSchedule(progress, start, redo) {
		return
	}
	t := time.NewTimer(c.o.PaceSleep)
	defer t.Stop()
	select {
	case <-t.C:
	case <-c.wake:
	case <-c.stop:
	}
}

// onSchedule is IsCheckpointOnSchedule: progress (the share of buffers
// processed) scaled by the completion target must be ahead of both the WAL
// written since the checkpoint started, as a share of CheckPointSegments,
// and the time elapsed, as a share of checkpoint_timeout.
func (c *Checkpointer) onSchedule(progress float64, start time.Time, redo uint64) bool {
	progress *= c.o.CompletionTarget
	if ins := c.l.InsertLSN(); ins > redo && float64(ins-redo)/c.segmentsBytes() > progress {
		return false
	}
	return float64(time.Since(start))/float64(c.o.Timeout) <= progress
}

// Request runs a checkpoint now (the CHECKPOINT command) and waits for it.
// A paced checkpoint in progress finishes without further sleeps first.
func (c *Checkpointer) Request() error {
	reply := make(chan error, 1)
	c.pending.Add(1)
	c.hurry()
	select {
	case c.request <- reply:
		return <-reply
	case <-c.done:
		c.pending.Add(-1)
		return ErrClosed
	}
}

// hurry wakes a pacing sleep.
func (c *Checkpointer) hurry() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// Stop stops the checkpointer and waits for a running checkpoint to end
// (without further pacing sleeps).
func (c *Checkpointer) Stop() {
	c.once.Do(func() { close(c.stop) })
	<-c.done
}

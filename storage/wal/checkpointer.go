package wal

import (
	"sync"
	"time"
)

// CheckpointerOptions configure the background checkpointer.
type CheckpointerOptions struct {
	// Timeout is checkpoint_timeout: a checkpoint starts when this long has
	// passed since the last one began; 0 means 5 minutes.
	Timeout time.Duration
	// MaxWAL is max_wal_size in bytes: a checkpoint starts when the WAL
	// since the redo point exceeds half of it (PostgreSQL spreads it over
	// checkpoint_completion_target; minipg checkpoints at once); 0 means 1 GiB.
	MaxWAL int64
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
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.Prepare == nil {
		o.Prepare = func() CheckpointOptions { return CheckpointOptions{} }
	}
	if o.OnError == nil {
		o.OnError = func(err error) { l.log.Error("checkpoint failed", "err", err) }
	}
	c := &Checkpointer{l: l, o: o, request: make(chan chan error), stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

func (c *Checkpointer) run() {
	defer close(c.done)
	t := time.NewTicker(c.o.Poll)
	defer t.Stop()
	last := time.Now()
	for {
		var reply chan error
		select {
		case <-c.stop:
			return
		case reply = <-c.request:
		case now := <-t.C:
			due := now.Sub(last) >= c.o.Timeout
			volume := int64(c.l.InsertLSN()-c.l.RedoLSN()) > c.o.MaxWAL/2
			if !due && !volume {
				continue
			}
			if !volume && c.l.InsertLSN() == c.l.lastCheckpointEnd() {
				// Nothing happened since the last checkpoint (CHECKPOINT_FORCE unset).
				last = now
				continue
			}
		}
		last = time.Now()
		_, err := c.l.Checkpoint(c.o.Prepare())
		if reply != nil {
			reply <- err
		} else if err != nil {
			c.o.OnError(err)
		}
	}
}

// Request runs a checkpoint now (the CHECKPOINT command) and waits for it.
func (c *Checkpointer) Request() error {
	reply := make(chan error, 1)
	select {
	case c.request <- reply:
		return <-reply
	case <-c.done:
		return ErrClosed
	}
}

// Stop stops the checkpointer and waits for a running checkpoint to end.
func (c *Checkpointer) Stop() {
	c.once.Do(func() { close(c.stop) })
	<-c.done
}

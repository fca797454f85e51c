package pgstat

import "minipg/storage/heap"

// Progress is one running VACUUM in pg_stat_progress_vacuum: the backend
// (or autovacuum worker) running it, the table, and the counters the heap
// updates as it goes.
type Progress struct {
	PID   int32
	RelID uint32
	heap.VacuumProgress
}

// StartProgress lists a vacuum of relid by pid until EndProgress.
func (c *Collector) StartProgress(pid int32, relid uint32) *Progress {
	p := &Progress{PID: pid, RelID: relid}
	c.mu.Lock()
	c.mu.running[p] = struct{}{}
	c.mu.Unlock()
	return p
}

// EndProgress removes p from the list.
func (c *Collector) EndProgress(p *Progress) {
	c.mu.Lock()
	delete(c.mu.running, p)
	c.mu.Unlock()
}

// Running returns the vacuums in progress.
func (c *Collector) Running() []*Progress {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]*Progress, 0, len(c.mu.running))
	for p := range c.mu.running {
		out = append(out, p)
	}
	return out
}

package executor

// EXPLAIN (BUFFERS): the session counts its shared buffer accesses in
// Session.bufUsage (PostgreSQL's pgBufferUsage), which its snapshots and
// insert state carry to the heap (heap.Snapshot.Usage,
// heap.InsertState.SetUsage). With ANALYZE each node's instrIter adds the
// counters' change across every Next call to the node's figures, so a node
// includes what its children did, as PostgreSQL's InstrStartNode and
// InstrStopNode do; an UPDATE's or DELETE's node has the whole run and its
// source the reading of its rows (Session.explainSource). minipg plans
// while it binds and builds the pipeline, and looks only at its catalog
// and the in-memory indexes then: what building the pipeline reads (an IN
// subquery that an index scan looks up, evaluated as the scan opens) is
// execution in PostgreSQL's terms, counted in the top node with ANALYZE
// and not at all without. So the "Planning:" section, which PostgreSQL
// prints when planning touched a buffer (and BUFFERS without ANALYZE
// prints nothing else), is kept for that case but does not appear.
//
// What is counted: heap pages, as a hit or a read, a page a change or a
// hint bit turned dirty, a dirty page written to free a frame, and a block
// added to the table (written, as PostgreSQL 15 counts an extension).
// Index scans read in-memory indexes, which have no pages, and the free
// space map's pages are not counted; sorts that spill do not show temp
// buffers.

import (
	"fmt"
	"strings"
	"time"

	"minipg/storage/buffer"
)

// execRun is what an EXPLAIN's statement took: to plan (the buffers
// planning used) and, with ANALYZE, to run.
type execRun struct {
	plan buffer.Usage
	took time.Duration
}

// bufferLine is show_buffer_usage's text line for u: only the non-zero
// counters, "" when all are zero.
func bufferLine(u buffer.Usage) string {
	if u.IsZero() {
		return ""
	}
	var b strings.Builder
	b.WriteString("Buffers: shared")
	for _, c := range []struct {
		name string
		n    int64
	}{{"hit", u.Hit}, {"read", u.Read}, {"dirtied", u.Dirtied}, {"written", u.Written}} {
		if c.n > 0 {
			fmt.Fprintf(&b, " %s=%d", c.name, c.n)
		}
	}
	return b.String()
}

// appendPlanningBuffers adds the "Planning:" section for the buffers
// planning used, when it used any.
func appendPlanningBuffers(lines []string, u buffer.Usage) []string {
	l := bufferLine(u)
	if l == "" {
		return lines
	}
	return append(lines, "Planning:", "  "+l)
}

// explainedSource hands src to the EXPLAIN ANALYZE that runs the statement,
// if one is waiting for it (Session.explainSource): the returned iterator
// counts the buffer accesses of reading rows. Only the statement's own
// source is taken; statements it sets off (foreign-key actions) find none.
func (x *execCtx) explainedSource(src rowIter) rowIter {
	st := x.s.explainSource
	if st == nil {
		return src
	}
	x.s.explainSource = nil
	return newInstr(src, st, false, &x.s.bufUsage)
}

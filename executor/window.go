package executor

// The window stage (PostgreSQL's WindowAgg): it runs after WHERE, GROUP BY
// and HAVING and before the select list's set-returning functions,
// DISTINCT, ORDER BY and LIMIT. It keeps every input row, then for each
// window in turn (sql.Select.Windows, in the order the binder chose as
// PostgreSQL's planner does) sorts the rows by the window's PARTITION BY
// and ORDER BY (with PostgreSQL's quicksort or, when the rows are in the
// order of a first part of the keys, its incremental sort, window_sort.go,
// so that ties come out in PostgreSQL's order; not at all when they are in
// the window's order) and fills the slots of that window's functions,
// one partition at a time. The rows leave in the last window's order.
//
// Memory: the rows are held until the statement's rows are handed out and
// are counted against session_memory_limit like DISTINCT's and GROUP BY's
// (memory.go); unlike ORDER BY the stage does not spill to disk.
//
// Frames (window_frame.go) are computed per row as a half-open range of
// the partition's rows less the EXCLUDE clause's rows. A window aggregate
// without EXCLUDE follows its frame: the rows entering it are added, and
// the rows leaving it taken out where that is exact (count, and sum and
// avg of integers), else it is computed again from the frame's first row;
// with EXCLUDE it is computed over each row's frame. A row whose frame is
// the previous row's takes its value.

import (
	"context"
	"reflect"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// windowIter is the window stage of st.
type windowIter struct {
	in   rowIter
	ev   *evalCtx
	st   *sql.Select
	mem  *memAccount
	rows [][]types.Datum
	i    int
	done bool
}

func (it *windowIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	if !it.done {
		it.done = true
		if err := it.build(ctx); err != nil {
			return nil, false, err
		}
	}
	if it.i >= len(it.rows) {
		return nil, false, nil
	}
	it.i++
	return it.rows[it.i-1], true, nil
}

func (it *windowIter) Close() { it.in.Close() }

// build reads the input and computes every window function.
func (it *windowIter) build(ctx context.Context) error {
	st := it.st
	width := st.WinBase + len(st.WinFuncs)
	for {
		row, ok, err := it.in.Next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		r := make([]types.Datum, width)
		copy(r, row[:min(len(row), st.WinBase)])
		if err := it.mem.charge(rowSize(r) + 24); err != nil {
			return err
		}
		it.rows = append(it.rows, r)
	}
	steps := windowSortSteps(st)
	for wi, w := range st.Windows {
		if err := canceled(ctx); err != nil {
			return err
		}
		var fns []int
		for i, f := range st.WinFuncs {
			if f.Win == wi {
				fns = append(fns, i)
			}
		}
		if err := it.runWindow(w, steps[wi], fns); err != nil {
			return err
		}
	}
	return nil
}

// windowSortKeys are the sort keys of window w over its key values (the
// PARTITION BY values, ascending, then the ORDER BY values).
func windowSortKeys(w *sql.WindowDef) (part, order []sql.SortKey) {
	for i, p := range w.Partition {
		part = append(part, sql.SortKey{Idx: i, T: p.Type()})
	}
	for i, o := range w.Order {
		order = append(order, sql.SortKey{Idx: len(w.Partition) + i, Desc: o.Desc, NullsFirst: o.NullsFirst, T: o.X.Type()})
	}
	return part, order
}

// runWindow sorts the rows for window w and computes the functions fns
// (indexes in st.WinFuncs) partition by partition.
func (it *windowIter) runWindow(w *sql.WindowDef, step winSortStep, fns []int) error {
	n := len(it.rows)
	keys := make([][]types.Datum, n)
	for r, row := range it.rows {
		k := make([]types.Datum, 0, len(w.Partition)+len(w.Order))
		for _, p := range w.Partition {
			v, err := it.ev.eval(p, row)
			if err != nil {
				return err
			}
			k = append(k, v)
		}
		for _, o := range w.Order {
			v, err := it.ev.eval(o.X, row)
			if err != nil {
				return err
			}
			k = append(k, v)
		}
		keys[r] = k
	}
	part, order := windowSortKeys(w)
	if step.sort {
		perm := make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		all := step.sortKeys()
		cmp := func(a, b int) int { return compareRows(all, keys[a], keys[b]) }
		if step.presorted == 0 {
			pgQsort(perm, cmp)
		} else {
			pre, suffix := all[:step.presorted], all[step.presorted:]
			perm = pgIncrementalSort(perm, cmp,
				func(a, b int) int { return compareRows(suffix, keys[a], keys[b]) },
				func(a, b int) bool { return compareRows(pre, keys[a], keys[b]) == 0 })
		}
		rows := make([][]types.Datum, n)
		ks := make([][]types.Datum, n)
		for i, j := range perm {
			rows[i], ks[i] = it.rows[j], keys[j]
		}
		it.rows, keys = rows, ks
	}
	for start := 0; start < n; {
		end := start + 1
		for end < n && compareRows(part, keys[start], keys[end]) == 0 {
			end++
		}
		p := newWinPartition(it, w, it.rows[start:end], keys[start:end], order)
		// The frame's offsets are checked whether a function uses the
		// frame or not.
		if err := p.offsets(); err != nil {
			return err
		}
		for _, fi := range fns {
			if err := p.compute(it.st.WinFuncs[fi], it.st.WinBase+fi); err != nil {
				return err
			}
		}
		start = end
	}
	return nil
}

// winPartition is one partition of a window: its rows in the window's
// order and their peer groups.
type winPartition struct {
	it    *windowIter
	w     *sql.WindowDef
	rows  [][]types.Datum
	keys  [][]types.Datum
	order []sql.SortKey
	// group is each row's peer group (rows equal on ORDER BY; all rows
	// without it); groupStart[g] is group g's first row, and
	// groupStart[len-1] is len(rows).
	group      []int
	groupStart []int
	// The frame offsets, evaluated once per partition (offsetsSet).
	startOff, endOff types.Datum
	offsetsSet       bool
	// nn is the range of rows whose ORDER BY value is not NULL (RANGE
	// with an offset: the NULLs are at one end).
	nnStart, nnEnd int
}

func newWinPartition(it *windowIter, w *sql.WindowDef, rows, keys [][]types.Datum, order []sql.SortKey) *winPartition {
	p := &winPartition{it: it, w: w, rows: rows, keys: keys, order: order, group: make([]int, len(rows))}
	g := 0
	p.groupStart = append(p.groupStart, 0)
	for i := 1; i < len(rows); i++ {
		if compareRows(order, keys[i-1], keys[i]) != 0 {
			g++
			p.groupStart = append(p.groupStart, i)
		}
		p.group[i] = g
	}
	p.groupStart = append(p.groupStart, len(rows))
	return p
}

// peers is row i's peer group as a range of rows.
func (p *winPartition) peers(i int) (int, int) {
	g := p.group[i]
	return p.groupStart[g], p.groupStart[g+1]
}

// compute fills slot of every row with f's value.
func (p *winPartition) compute(f *sql.WinFunc, slot int) error {
	if f.Agg != nil {
		return p.aggregate(f, slot)
	}
	n := len(p.rows)
	ev := p.it.ev
	switch f.Name {
	case "row_number", "rank", "dense_rank", "percent_rank", "cume_dist":
		for i, row := range p.rows {
			ps, pe := p.peers(i)
			switch f.Name {
			case "row_number":
				row[slot] = int64(i + 1)
			case "rank":
				row[slot] = int64(ps + 1)
			case "dense_rank":
				row[slot] = int64(p.group[i] + 1)
			case "percent_rank":
				row[slot] = 0.0
				if n > 1 {
					row[slot] = float64(ps) / float64(n-1)
				}
			case "cume_dist":
				row[slot] = float64(pe) / float64(n)
			}
		}
		return nil
	case "ntile":
		return p.ntile(f, slot)
	case "lag", "lead":
		for i, row := range p.rows {
			off := int64(1)
			if len(f.Args) >= 2 {
				v, err := ev.eval(f.Args[1], row)
				if err != nil {
					return err
				}
				if v == nil {
					row[slot] = nil
					continue
				}
				off = v.(int64)
			}
			if f.Name == "lag" {
				off = -off
			}
			var v types.Datum
			var err error
			if j := int64(i) + off; j >= 0 && j < int64(n) {
				v, err = ev.eval(f.Args[0], p.rows[j])
			} else if len(f.Args) == 3 {
				v, err = ev.eval(f.Args[2], row)
			}
			if err != nil {
				return err
			}
			row[slot] = v
		}
		return nil
	}
	// first_value, last_value, nth_value: a row of the frame.
	for i, row := range p.rows {
		nth := int64(1)
		if f.Name == "nth_value" {
			v, err := ev.eval(f.Args[1], row)
			if err != nil {
				return err
			}
			if v == nil {
				row[slot] = nil
				continue
			}
			if nth = v.(int64); nth <= 0 {
				return pgerr.New(pgerr.InvalidArgumentForNthValueFunction, "argument of nth_value must be greater than zero")
			}
		}
		fr, err := p.frame(i)
		if err != nil {
			return err
		}
		j := -1
		if f.Name == "last_value" {
			j = fr.last()
		} else {
			j = fr.nth(int(min(nth, int64(n+1))))
		}
		row[slot] = nil
		if j >= 0 {
			if row[slot], err = ev.eval(f.Args[0], p.rows[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

// ntile is window_ntile: the argument is read at the first row where it
// is not NULL (the rows before get NULL); the rows are split into that
// many buckets, the first ones one row larger when they do not divide.
func (p *winPartition) ntile(f *sql.WinFunc, slot int) error {
	total := int64(len(p.rows))
	var tile, perBucket, boundary, remainder int64
	for _, row := range p.rows {
		if tile == 0 {
			v, err := p.it.ev.eval(f.Args[0], row)
			if err != nil {
				return err
			}
			if v == nil {
				row[slot] = nil
				continue
			}
			buckets := v.(int64)
			if buckets <= 0 {
				return pgerr.New(pgerr.InvalidArgumentForNtileFunction, "argument of ntile must be greater than zero")
			}
			tile, perBucket = 1, 0
			boundary = total / buckets
			if boundary <= 0 {
				boundary = 1
			} else if remainder = total % buckets; remainder != 0 {
				boundary++
			}
		}
		perBucket++
		if boundary < perBucket {
			if remainder != 0 && tile == remainder {
				remainder = 0
				boundary--
			}
			tile++
			perBucket = 1
		}
		row[slot] = tile
	}
	return nil
}

// aggregate computes window aggregate f over each row's frame.
func (p *winPartition) aggregate(f *sql.WinFunc, slot int) error {
	a := f.Agg
	ev := p.it.ev
	args := make([][]types.Datum, len(p.rows))
	pass := make([]bool, len(p.rows))
	for j, row := range p.rows {
		pass[j] = true
		if f.Filter != nil {
			ok, err := ev.evalBool(f.Filter, row)
			if err != nil {
				return err
			}
			pass[j] = ok
		}
		if !pass[j] {
			continue
		}
		vs := make([]types.Datum, len(f.Args))
		for k, x := range f.Args {
			v, err := ev.eval(x, row)
			if err != nil {
				return err
			}
			vs[k] = v
		}
		args[j] = vs
	}
	// Without EXCLUDE the aggregate follows the frame as it moves: rows
	// that enter it are added, and rows that leave it are taken out when
	// the aggregate can take one out exactly (aggRemovable); otherwise it
	// starts again from the frame's first row, as PostgreSQL restarts an
	// aggregate without an inverse transition function.
	moving := p.w.Frame.Exclude == sql.ExcludeNoOthers
	removable := aggRemovable(a)
	var st aggState
	lo, hi := 0, 0 // the rows st holds
	var prev winFrame
	var prevVal types.Datum
	for i, row := range p.rows {
		fr, err := p.frame(i)
		if err != nil {
			return err
		}
		if i > 0 && fr == prev {
			row[slot] = prevVal
			continue
		}
		if !moving || fr.start < lo || fr.end < hi || fr.start >= hi || (fr.start > lo && !removable) {
			st, lo, hi = aggState{}, fr.start, fr.start
		}
		for ; lo < fr.start; lo++ {
			if pass[lo] {
				st.remove(a, args[lo])
			}
		}
		for ; hi < fr.end; hi++ {
			if pass[hi] && !fr.excluded(hi) {
				if err := st.add(a, args[hi]); err != nil {
					return err
				}
			}
		}
		cv := p.it.ev.conv()
		st.cv = &cv
		v, err := st.result(a)
		if err != nil {
			return err
		}
		if d, ok := v.(*apd.Decimal); ok {
			// The running sum goes on changing in place.
			v = new(apd.Decimal).Set(d)
		}
		row[slot], prev, prevVal = v, fr, v
	}
	return nil
}

// windowSorted reports whether the rows leave the window stage already in
// the order the query's ORDER BY asks (its keys lead the last window's
// sort), so that no sort is needed after it, as PostgreSQL's planner finds
// the WindowAgg's output sorted.
func windowSorted(st *sql.Select) bool {
	if len(st.Windows) == 0 || len(st.Sort) == 0 {
		return false
	}
	w := st.Windows[len(st.Windows)-1]
	type key struct {
		x                sql.Expr
		desc, nullsFirst bool
	}
	var keys []key
	for _, p := range w.Partition {
		keys = append(keys, key{x: p})
	}
	for _, o := range w.Order {
		keys = append(keys, key{o.X, o.Desc, o.NullsFirst})
	}
	if len(st.Sort) > len(keys) {
		return false
	}
	for i, k := range st.Sort {
		t := st.Targets[k.Idx]
		if c, ok := t.(*sql.ColRef); !ok || c.Idx >= st.WinBase {
			return false // a window function's result, or an expression
		}
		if !reflect.DeepEqual(t, keys[i].x) || k.Desc != keys[i].desc || k.NullsFirst != keys[i].nullsFirst {
			return false
		}
	}
	return true
}

// aggRemovable reports whether aggregate a can take an input out again
// exactly (PostgreSQL's moving-aggregate inverse transition): count, and
// sum and avg over integers, whose state is a count and an exact sum.
func aggRemovable(a *sql.Agg) bool {
	if a.Distinct || len(a.Order) > 0 {
		return false
	}
	switch a.Name {
	case "count":
		return true
	case "sum", "avg":
		switch a.Arg.Type().OID {
		case types.Int2, types.Int4, types.Int8:
			return true
		}
	}
	return false
}

// remove takes out an input added before (aggRemovable aggregates only).
func (st *aggState) remove(a *sql.Agg, args []types.Datum) {
	if a.Arg != nil && args[0] == nil {
		return // strict: never added
	}
	st.count--
	if a.Name == "count" {
		return
	}
	if a.Name == "sum" && a.Arg.Type().OID != types.Int8 {
		st.isum -= args[0].(int64)
		return
	}
	_, _ = decCtx.Sub(st.dsum, st.dsum, apd.New(args[0].(int64), 0))
}

package executor

// The SELECT planner: one statement's pipeline of iterators, built bottom-up
// from an access path (path.go) or a join (join.go) through filter,
// aggregation, projection, DISTINCT, sort and LIMIT. Each iterator lives in
// the file of its concept: scan.go, filter.go, agg.go, sort.go, limit.go,
// subquery.go.

import (
	"context"

	"minipg/sql"
	"minipg/types"
)

// startSelect builds the SELECT pipeline:
// source -> filter -> [lock] -> [aggregate -> having] -> [window] -> project -> [distinct] -> [sort] -> [limit] -> trim.
func (pt *Portal) startSelect(ctx context.Context, st *sql.Select) error {
	var oid uint32
	if st.Table != nil {
		oid = st.Table.OID
	}
	x, err := pt.newExecCtx(ctx, oid, st.ForUpdate)
	if err != nil {
		return err
	}
	it, err := x.buildSelect(st)
	if err != nil {
		return err
	}
	reuseOutputRow(it)
	pt.rows = it
	pt.tagFn = func(n int64) string { return "SELECT " + itoa(n) }
	return nil
}

// buildSelect builds st's pipeline over x.rel.
func (x *execCtx) buildSelect(st *sql.Select) (rowIter, error) {
	var it rowIter
	var err error
	sorted := false
	if st.Join != nil {
		if it, err = x.fromSource(st); err != nil {
			return nil, err
		}
	} else if x.rel != nil {
		// Sort keys that are plain columns may be served by index order.
		var scanSort []sql.SortKey
		if !st.Grouped && !st.Distinct && len(st.WinFuncs) == 0 {
			for _, k := range st.Sort {
				c, ok := st.Targets[k.Idx].(*sql.ColRef)
				if !ok || c.Idx >= len(x.rel.types) {
					scanSort = nil
					break
				}
				k.Idx = c.Idx
				scanSort = append(scanSort, k)
			}
		}
		if !st.ForUpdate && !selectHasCorrelated(st) {
			x.need = neededColumns(st, len(x.rel.types))
			x.reuseRows, x.needOwner = true, x
		}
		var mm bool
		if it, mm, err = x.minMaxSource(st); err == nil && !mm {
			it, sorted, err = x.orderedSource(st.Where, scanSort, true)
		}
		x.need, x.reuseRows, x.needOwner = nil, false, nil
		if err != nil {
			return nil, err
		}
		if st.ForUpdate {
			it = &lockIter{in: it, x: x, where: st.Where}
		}
	} else {
		it = &oneRow{}
		if st.Where != nil {
			it = &filterIter{in: it, ev: x.ev, pred: st.Where}
		}
	}
	if st.Grouped {
		it = &aggIter{in: it, ev: x.ev, st: st, mem: &x.s.mem}
		if st.Having != nil {
			it = &filterIter{in: it, ev: x.ev, pred: st.Having}
		}
	}
	if len(st.WinFuncs) > 0 {
		it = &windowIter{in: it, ev: x.ev, st: st, mem: &x.s.mem}
		sorted = windowSorted(st)
	}
	if len(st.SRFs) > 0 {
		it = &projectSetIter{in: it, ev: x.ev, srfs: st.SRFs}
	}
	it = &projectIter{in: it, ev: x.ev, targets: st.Targets}
	if st.Distinct {
		typs := make([]types.T, st.NVisible)
		for i := range typs {
			typs[i] = st.Targets[i].Type()
		}
		it = &distinctIter{in: it, mem: &x.s.mem, n: st.NVisible, typs: typs, seen: map[string]struct{}{}}
	}
	if len(st.Sort) > 0 && !sorted {
		typs := make([]types.T, len(st.Targets))
		for i, t := range st.Targets {
			typs[i] = t.Type()
		}
		it = x.newSortIter(it, st.Sort, typs)
	}
	if len(st.DistinctOn) > 0 {
		typs := make([]types.T, len(st.DistinctOn))
		for i, idx := range st.DistinctOn {
			typs[i] = st.Targets[idx].Type()
		}
		it = &uniqueOnIter{in: it, cols: st.DistinctOn, typs: typs}
	}
	if st.Limit != nil || st.Offset != nil {
		lim, err := x.evalLimit(st.Limit, "LIMIT")
		if err != nil {
			it.Close()
			return nil, err
		}
		off, err := x.evalLimit(st.Offset, "OFFSET")
		if err != nil {
			it.Close()
			return nil, err
		}
		if off < 0 {
			off = 0
		}
		it = &limitIter{in: it, offset: off, limit: lim}
	}
	if len(st.Targets) > st.NVisible {
		it = &trimIter{in: it, n: st.NVisible}
	}
	return it, nil
}

// reuseOutputRow lets the projection at the top of a statement's pipeline
// (under LIMIT and trim, which pass rows on) hand out one row slice over and
// over: Portal.Run's emit and COPY TO encode each row before asking for the
// next. Inside a pipeline, sort, DISTINCT and subqueries keep rows.
func reuseOutputRow(it rowIter) {
	for {
		switch x := it.(type) {
		case *limitIter:
			it = x.in
		case *trimIter:
			it = x.in
		case *projectIter:
			x.reuse = true
			return
		default:
			return
		}
	}
}

// subSelect builds the pipeline of a subquery, opening its table.
func (x *execCtx) subSelect(st *sql.Select) (rowIter, error) {
	if len(st.Union) > 0 {
		switch st.SetOp {
		case sql.SetOpRecursive:
			return x.recursiveUnion(st)
		case sql.SetOpIntersect, sql.SetOpExcept:
			return x.intersectExcept(st)
		}
		return x.unionArms(st)
	}
	sx := *x
	sx.emitReturning, sx.rel = nil, nil
	sx.need, sx.reuseRows, sx.needOwner = nil, false, nil
	if st.Table != nil && st.Join == nil {
		rel, err := sx.openRel(st.Table.OID)
		if err != nil {
			return nil, err
		}
		sx.rel = rel
	}
	return sx.buildSelect(st)
}

// selectHasCorrelated reports whether an expression of st holds a
// correlated subquery, whose outer references may read any column of the
// scan row.
func selectHasCorrelated(st *sql.Select) bool {
	if hasCorrelated(st.Where) || hasCorrelated(st.Having) {
		return true
	}
	for _, e := range st.Targets {
		if hasCorrelated(e) {
			return true
		}
	}
	for _, e := range st.Group {
		if hasCorrelated(e) {
			return true
		}
	}
	for _, a := range st.Aggs {
		if hasCorrelated(a) {
			return true
		}
	}
	for _, e := range st.WindowExprs() {
		if hasCorrelated(e) {
			return true
		}
	}
	return false
}

// neededColumns returns the columns of a single-table SELECT's scan row
// (ncols table columns, then ctid at ncols) that st reads, or nil when it
// reads all of them.
func neededColumns(st *sql.Select, ncols int) []bool {
	need := make([]bool, ncols+1)
	all := true
	mark := func(e sql.Expr) {
		sql.Walk(e, func(x sql.Expr) {
			if c, ok := x.(*sql.ColRef); ok && c.Idx <= ncols {
				need[c.Idx] = true
			}
		})
	}
	mark(st.Where)
	for _, e := range st.Group {
		mark(e)
	}
	for _, a := range st.Aggs {
		mark(a)
	}
	// A grouped query's targets and HAVING read the group row (the Group
	// values, then the aggregates), not the scan row: what they need from
	// the scan comes through Group and Aggs.
	if !st.Grouped {
		mark(st.Having)
		for _, e := range st.Targets {
			mark(e)
		}
		for _, e := range st.WindowExprs() {
			mark(e)
		}
	}
	for _, f := range st.SRFs {
		// The select list's set-returning functions read the scan row.
		for _, a := range f.Args {
			mark(a)
		}
	}
	for _, n := range need {
		all = all && n
	}
	if all {
		return nil
	}
	return need
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// unionArms builds the arms of a UNION, which an appendIter reads one
// after the other (PostgreSQL's Append): nothing runs before the first
// Next, so EXPLAIN describes the arms without running them, and a LIMIT
// stops reading.
func (x *execCtx) unionArms(st *sql.Select) (rowIter, error) {
	it := &appendIter{n: st.NVisible}
	for _, arm := range st.Union {
		in, err := x.subSelect(arm)
		if err != nil {
			it.Close()
			return nil, err
		}
		it.arms = append(it.arms, in)
	}
	return it, nil
}

// appendIter hands out the visible columns of its arms' rows, arm after
// arm.
type appendIter struct {
	arms []rowIter
	n    int // visible columns
	i    int // the arm being read
}

func (it *appendIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	for it.i < len(it.arms) {
		row, ok, err := it.arms[it.i].Next(ctx)
		if err != nil {
			return nil, false, err
		}
		if ok {
			return row[:it.n:it.n], true, nil
		}
		it.arms[it.i].Close()
		it.arms[it.i] = nil
		it.i++
	}
	return nil, false, nil
}

func (it *appendIter) Close() {
	for i, a := range it.arms {
		if a != nil {
			a.Close()
			it.arms[i] = nil
		}
	}
}

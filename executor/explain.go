package executor

// EXPLAIN and EXPLAIN ANALYZE: the plan is the pipeline of iterators the
// statement really runs (plan.go, path.go, join.go), built as for
// execution and described node by node in PostgreSQL's text format and
// node names: Seq Scan, Index Scan [Backward] using ... with Index Cond and
// Filter, Tid Scan, Function Scan, Nested Loop [Left Join], Aggregate,
// HashAggregate with Group Key, Sort with Sort Key, Limit, LockRows,
// ProjectSet, WindowAgg over its Sort (explain_window.go), Result, and
// Insert/Update/Delete on top of their scan.
// minipg chooses plans by rule and has no cost model, so no node carries
// cost estimates (as with COSTS OFF). With ANALYZE the pipeline runs to its
// end and each node shows its actual rows and loops (and times with
// TIMING), Rows Removed by Filter, and a sort's method and space; with
// BUFFERS, the shared buffers each node hit, read, dirtied and wrote
// (explain_buffers.go).

import (
	"context"
	"fmt"
	"strings"
	"time"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/buffer"
	"minipg/types"
)

// planNode is one node of the printed plan.
type planNode struct {
	name     string
	props    []string
	children []*planNode
	st       *instrStats // actual figures (ANALYZE); nil: none
	removed  *instrStats // rows the node's filter read (Rows Removed by Filter)
	sort     *sortIter   // Sort Method and space (ANALYZE)
	subplans []subplanLine
	// sumsChildren: a node that only passes on its children's rows (a
	// set operation's Append); its figures are their sum.
	sumsChildren bool
}

type subplanLine struct {
	label string
	node  *planNode
}

// instrStats are a node's actual figures.
type instrStats struct {
	loops, rows  int64
	first, total time.Duration // summed over loops
	untimed      bool          // figures known, times not (a DML's nodes)
	buf          buffer.Usage  // buffer accesses, the node's children's included (BUFFERS)
}

// instrIter counts what in hands out.
type instrIter struct {
	in      rowIter
	st      *instrStats
	started time.Time
	gotRow  bool
	timing  bool
	u       *buffer.Usage // the session's buffer counters (BUFFERS); nil: not counted
}

func newInstr(in rowIter, st *instrStats, timing bool, u *buffer.Usage) *instrIter {
	st.loops++
	return &instrIter{in: in, st: st, timing: timing, u: u}
}

func (it *instrIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	var t0 time.Time
	if it.timing {
		t0 = time.Now()
		if it.started.IsZero() {
			it.started = t0
		}
	}
	var u0 buffer.Usage
	if it.u != nil {
		u0 = *it.u
	}
	row, ok, err := it.in.Next(ctx)
	if it.u != nil {
		it.st.buf.Add(it.u.Sub(u0))
	}
	if it.timing {
		now := time.Now()
		if !it.gotRow && ok {
			it.st.first += now.Sub(it.started)
		}
		it.st.total += now.Sub(t0)
	}
	if ok {
		it.gotRow = true
		it.st.rows++
	}
	return row, ok, err
}

func (it *instrIter) Close() { it.in.Close() }

// instrPlan counts the rows of a join's inner side over all its opens.
type instrPlan struct {
	fromPlan
	st     *instrStats
	timing bool
	u      *buffer.Usage
}

func (p *instrPlan) open(outer []types.Datum) (rowIter, error) {
	in, err := p.fromPlan.open(outer)
	if err != nil {
		return nil, err
	}
	return newInstr(in, p.st, p.timing, p.u), nil
}

// explainer describes one statement's pipeline.
type explainer struct {
	x       *execCtx
	analyze bool
	timing  bool
	buffers *buffer.Usage // the session's counters with BUFFERS, else nil
	nsub    int
	subNo   map[*sql.SubPlan]int
}

// startExplain runs EXPLAIN: the plan's lines become the portal's rows.
func (pt *Portal) startExplain(ctx context.Context, ex *sql.Explain) error {
	start := time.Now()
	var root *planNode
	var err error
	var run execRun
	// The data-modifying WITH queries first (ANALYZE runs them, and the
	// statement reads their RETURNING rows), each a "CTE name" section
	// ahead of the top node's other subplans, as PostgreSQL shows its CTE
	// InitPlans.
	var ctes []subplanLine
	var cteTook time.Duration
	if len(pt.p.bound.With) > 0 {
		pt.withRows = map[int][][]types.Datum{} // they run here, not again
	}
	for i, w := range pt.p.bound.With {
		var rows [][]types.Datum
		n, crun, err := pt.explainDML(ctx, w.Stmt, ex, &rows)
		cteTook += crun.took
		if err != nil {
			return err
		}
		ctes = append(ctes, subplanLine{label: "CTE " + w.Name, node: n})
		pt.withRows[i+1] = rows
	}
	switch st := ex.Stmt.(type) {
	case *sql.Select:
		root, run, err = pt.explainSelect(ctx, st, ex)
	case *sql.CreateTableAs:
		root, run, err = pt.explainCreateAs(ctx, st, ex)
		if err == nil && root == nil {
			// IF NOT EXISTS found the table: no plan.
			pt.rows = &sliceIter{}
			pt.tagFn = func(int64) string { return "EXPLAIN" }
			return nil
		}
	case *sql.ExecuteSQL:
		// EXPLAIN EXECUTE: the prepared statement's plan for these arguments.
		inner, vals, err := pt.s.bindExecuteArgs(st, pt.params)
		if err != nil {
			return err
		}
		e2 := *ex
		e2.Stmt = inner.p.bound.Stmt
		pt.params = vals
		return pt.startExplain(ctx, &e2)
	case *sql.Insert, *sql.Update, *sql.Delete, *sql.Merge:
		if ex.Analyze {
			if err := pt.s.checkReadOnly(readOnlyName(st)); err != nil {
				return err
			}
		}
		root, run, err = pt.explainDML(ctx, st, ex, nil)
	default:
		return pgerr.Unimplemented(fmt.Sprintf("EXPLAIN of %T", ex.Stmt))
	}
	if err != nil {
		return err
	}
	root.subplans = append(ctes, root.subplans...)
	var lines []string
	root.render(&lines, 0, ex)
	if ex.Buffers {
		lines = appendPlanningBuffers(lines, run.plan)
	}
	execTime := run.took + cteTook
	if ex.Summary {
		plan := time.Since(start) - execTime
		lines = append(lines, fmt.Sprintf("Planning Time: %.3f ms", msOf(plan)))
		if ex.Analyze {
			lines = append(lines, fmt.Sprintf("Execution Time: %.3f ms", msOf(execTime)))
		}
	}
	rows := make([][]types.Datum, len(lines))
	for i, l := range lines {
		rows[i] = []types.Datum{l}
	}
	pt.rows = &sliceIter{rows: rows}
	pt.tagFn = func(int64) string { return "EXPLAIN" }
	return nil
}

func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (pt *Portal) explainSelect(ctx context.Context, st *sql.Select, ex *sql.Explain) (*planNode, execRun, error) {
	return pt.explainQuery(ctx, st, ex, nil, false)
}

// explainQuery describes a SELECT's pipeline and, with ANALYZE, runs it,
// handing each row to sink when it is not nil (CREATE TABLE AS); with
// noRun (CREATE TABLE AS ... WITH NO DATA) the pipeline is described as
// ANALYZE describes it, but never run.
func (pt *Portal) explainQuery(ctx context.Context, st *sql.Select, ex *sql.Explain, sink func([]types.Datum) error, noRun bool) (*planNode, execRun, error) {
	var oid uint32
	if st.Table != nil {
		oid = st.Table.OID
	}
	u0 := pt.s.bufUsage
	x, err := pt.newExecCtx(ctx, oid, st.ForUpdate)
	if err != nil {
		return nil, execRun{}, err
	}
	var run execRun
	run.plan = pt.s.bufUsage.Sub(u0)
	uBuild := pt.s.bufUsage
	it, err := x.buildSelect(st)
	if err != nil {
		return nil, execRun{}, err
	}
	e := &explainer{x: x, analyze: ex.Analyze && !noRun, timing: ex.Timing}
	if ex.Analyze && ex.Buffers {
		e.buffers = &pt.s.bufUsage
	}
	root := e.describe(&it)
	if ex.Analyze && !noRun {
		// Building the pipeline already ran what PostgreSQL runs in the
		// executor (an IN subquery an index scan looks up): the top
		// node's figures include it, as PostgreSQL's include their
		// subplans.
		built := pt.s.bufUsage.Sub(uBuild)
		if root.st != nil {
			root.st.buf.Add(built)
		}
		t0 := time.Now()
		for {
			row, ok, err := it.Next(ctx)
			if err != nil {
				it.Close()
				return nil, execRun{}, err
			}
			if !ok {
				break
			}
			if sink != nil {
				if err := sink(row); err != nil {
					it.Close()
					return nil, execRun{}, err
				}
			}
		}
		it.Close()
		run.took = time.Since(t0)
		return root, run, nil
	}
	it.Close()
	return root, run, nil
}

// explainDML describes an INSERT, UPDATE or DELETE: the statement's node
// over the rows it reads. With ANALYZE the statement runs, and its scan
// shows the rows it changed.
// With ANALYZE, returned (when not nil) receives the rows its RETURNING
// gave, for a data-modifying WITH query's readers.
func (pt *Portal) explainDML(ctx context.Context, st sql.Stmt, ex *sql.Explain, returned *[][]types.Datum) (*planNode, execRun, error) {
	var t0 time.Time
	var name string
	var child *planNode
	var changed int64
	// Nothing before the statement's description touches a buffer; what
	// describing it does (building its source) is not the run's.
	run := execRun{plan: buffer.Usage{}}
	// describeScan describes the rows an UPDATE or DELETE reads; set are
	// the expressions computing an UPDATE's new values, whose subqueries
	// are shown under that node.
	describeScan := func(table uint32, where sql.Expr, from *sql.DMLFrom, set ...sql.Expr) error {
		x, err := pt.newExecCtx(ctx, table, true)
		if err != nil {
			return err
		}
		var it rowIter
		if from != nil {
			it, err = x.fromSource(from.Source)
		} else {
			it, err = x.source(where)
		}
		if err != nil {
			return err
		}
		e := &explainer{x: x}
		child = e.describe(&it)
		it.Close()
		e.subplans(child, set...)
		return nil
	}
	var upsert *upsertCounts
	var merge *mergeCounts
	var conflictProps []string
	switch st := st.(type) {
	case *sql.Insert:
		name = "Insert on " + st.Table.Name
		if st.Alias != "" {
			name += " " + st.Alias
		}
		if oc := st.OnConflict; oc != nil {
			conflictProps = explainOnConflict(st.Table, oc)
			upsert = &upsertCounts{}
		}
		switch {
		case st.Source != nil:
			x, err := pt.newExecCtx(ctx, tableOf(st.Source), false)
			if err != nil {
				return nil, execRun{}, err
			}
			it, err := x.buildSelect(st.Source)
			if err != nil {
				return nil, execRun{}, err
			}
			child = (&explainer{x: x}).describe(&it)
			it.Close()
		case len(st.Values) == 1:
			child = &planNode{name: "Result"}
		default:
			child = &planNode{name: `Values Scan on "*VALUES*"`}
		}
	case *sql.Update:
		name = "Update on " + st.Table.Name
		var set []sql.Expr
		for _, sp := range st.Multi {
			set = append(set, sp)
		}
		for _, it := range st.Set {
			if it.Multi == 0 {
				set = append(set, it.E)
			}
		}
		if err := describeScan(st.Table.OID, st.Where, st.From, set...); err != nil {
			return nil, execRun{}, err
		}
	case *sql.Delete:
		name = "Delete on " + st.Table.Name
		if err := describeScan(st.Table.OID, st.Where, st.From); err != nil {
			return nil, execRun{}, err
		}
	case *sql.Merge:
		name = "Merge on " + st.Table.Name
		if st.Alias != "" {
			name += " " + st.Alias
		}
		if err := describeScan(st.Table.OID, nil, &sql.DMLFrom{Source: st.Source, Target: st.Target}); err != nil {
			return nil, execRun{}, err
		}
		merge = &mergeCounts{}
	}
	root := &planNode{name: name, children: []*planNode{child}}
	if st, ok := st.(*sql.Insert); ok && st.OnConflict != nil {
		// The subqueries of DO UPDATE's SET and WHERE belong to the
		// Insert node, numbered before the filter is printed.
		oc := st.OnConflict
		root.props = conflictProps
		var exprs []sql.Expr
		for _, sp := range oc.Multi {
			exprs = append(exprs, sp)
		}
		for _, it := range oc.Set {
			if it.Multi == 0 {
				exprs = append(exprs, it.E)
			}
		}
		if oc.Where != nil {
			exprs = append(exprs, oc.Where)
		}
		e := &explainer{}
		if hasSubPlan(exprs) {
			x, err := pt.newExecCtx(ctx, st.Table.OID, false)
			if err != nil {
				return nil, execRun{}, err
			}
			e.x = x
			e.subplans(root, exprs...)
		}
		if oc.Where != nil {
			root.props = append(root.props, "Conflict Filter: "+e.deparse(oc.Where))
		}
	}
	if ex.Analyze {
		t0 = time.Now()
		u0 := pt.s.bufUsage
		inner := *pt
		// The statement's data-modifying WITH queries have run (their
		// rows are in withRows); it reads them as the statement would.
		inner.p = &Prepared{bound: &sql.Bound{Stmt: st, With: pt.p.bound.With}}
		inner.rows, inner.tagFn = nil, nil
		// The locks the run takes (and its place in Session.active) are
		// the portal's, released when the EXPLAIN ends, however the run
		// ends.
		defer func() { pt.release, pt.shared, pt.active = inner.release, inner.shared, inner.active }()
		// The statement's row source reports its buffer accesses here
		// (execCtx.explainSource).
		src := &instrStats{}
		if ex.Buffers {
			pt.s.explainSource = src
		}
		pt.s.explainUpsert, pt.s.explainMerge = upsert, merge
		tag, err := inner.start(ctx)
		pt.s.explainSource, pt.s.explainUpsert, pt.s.explainMerge = nil, nil, nil
		if err != nil {
			return nil, execRun{}, err
		}
		if tag == "" && inner.tagFn != nil {
			tag = inner.tagFn(0) // RETURNING: the tag waits with the rows
		}
		var nret int64
		if inner.rows != nil {
			if rows, ok := inner.rows.(*sliceIter); ok {
				// RETURNING's rows: the node's output, and a data-modifying
				// WITH query's rows for the statement (returned).
				nret = int64(len(rows.rows))
				if returned != nil {
					*returned = rows.rows
				}
			}
			inner.rows.Close()
		}
		if i := strings.LastIndexByte(tag, ' '); i >= 0 {
			fmt.Sscan(tag[i+1:], &changed)
		}
		run.took = time.Since(t0)
		all := pt.s.bufUsage.Sub(u0)
		// The statement ran as it runs outside EXPLAIN: its own node hands
		// out no rows, its source the rows it changed; neither is timed.
		// The statement's node has every buffer access of the run, its
		// source those made while reading rows.
		root.st = &instrStats{loops: 1, rows: nret, untimed: true, buf: all}
		child.st = &instrStats{loops: 1, rows: changed, untimed: true, buf: src.buf}
		if upsert != nil {
			// The source handed out every row proposed; PostgreSQL shows
			// what became of them (show_modifytable_info).
			child.st.rows = upsert.inserted + upsert.conflicting
			if upsert.filtered > 0 {
				root.props = append(root.props, fmt.Sprintf("Rows Removed by Conflict Filter: %d", upsert.filtered))
			}
			root.props = append(root.props, fmt.Sprintf("Tuples Inserted: %d", upsert.inserted),
				fmt.Sprintf("Conflicting Tuples: %d", upsert.conflicting))
		}
		if merge != nil {
			// Every source row the join gave, and what became of them
			// (show_modifytable_info's "Tuples:", zero counts left out).
			child.st.rows = merge.inserted + merge.updated + merge.deleted + merge.skipped
			line := "Tuples:"
			for _, c := range []struct {
				what string
				n    int64
			}{{"inserted", merge.inserted}, {"updated", merge.updated}, {"deleted", merge.deleted}, {"skipped", merge.skipped}} {
				if c.n > 0 {
					line += fmt.Sprintf(" %s=%d", c.what, c.n)
				}
			}
			if line != "Tuples:" {
				root.props = append(root.props, line)
			}
		}
	}
	return root, run, nil
}

// hasSubPlan reports whether one of exprs holds a subquery.
func hasSubPlan(exprs []sql.Expr) bool {
	found := false
	for _, x := range exprs {
		sql.Walk(x, func(y sql.Expr) {
			_, ok := y.(*sql.SubPlan)
			found = found || ok
		})
	}
	return found
}

// explainOnConflict is the description of an ON CONFLICT clause under
// Insert: Conflict Resolution, and the arbiter indexes when the statement
// named them (DO NOTHING without a conflict target shows none).
func explainOnConflict(t *catalog.Table, oc *sql.OnConflict) []string {
	res := "NOTHING"
	if oc.Update {
		res = "UPDATE"
	}
	props := []string{"Conflict Resolution: " + res}
	var names []string
	for _, oid := range oc.Arbiters {
		for _, idx := range t.Indexes {
			if idx.OID == oid {
				names = append(names, idx.Name)
			}
		}
	}
	if len(names) > 0 {
		props = append(props, "Conflict Arbiter Indexes: "+strings.Join(names, ", "))
	}
	return props
}

func tableOf(st *sql.Select) uint32 {
	if st.Table != nil {
		return st.Table.OID
	}
	return 0
}

// describe returns the node for *itp and, with ANALYZE, replaces *itp with
// an instrumented iterator feeding that node's figures.
func (e *explainer) describe(itp *rowIter) *planNode {
	n := e.node(*itp)
	if e.analyze && n.st == nil {
		n.st = &instrStats{}
		*itp = newInstr(*itp, n.st, e.timing, e.buffers)
	}
	return n
}

// node builds the node for it (and its children).
func (e *explainer) node(it rowIter) *planNode {
	switch it := it.(type) {
	case *trimIter:
		return e.describe(&it.in)
	case *projectIter:
		if _, ok := it.in.(*oneRow); ok {
			n := &planNode{name: "Result"}
			e.subplans(n, it.targets...)
			return n
		}
		n := e.describe(&it.in)
		e.subplans(n, it.targets...)
		return n
	case *filterIter:
		n := e.describe(&it.in)
		pred := it.pred
		if p := indexPlanOf(it.in); p != nil {
			pred = withoutIndexConds(pred, p)
		}
		if pred != nil {
			e.subplans(n, pred)
			n.props = append(n.props, "Filter: "+e.deparse(pred))
			if e.analyze {
				// The child's count (before the filter) is what it read.
				n.removed = n.st
				n.st = nil
			}
		}
		return n
	case *instrIter:
		return e.node(it.in)
	case *seqScan:
		return &planNode{name: "Seq Scan on " + it.x.rel.def.Name}
	case *indexScan:
		return e.indexNode(it.x, it.plan, it.reverse, nil)
	case *multiIter:
		if len(it.its) > 0 {
			if is, ok := it.its[0].(*indexScan); ok {
				return e.indexNode(is.x, is.plan, is.reverse, it)
			}
		}
		return &planNode{name: "Append"}
	case *tidScan:
		return &planNode{name: "Tid Scan on " + it.x.rel.def.Name,
			props: []string{fmt.Sprintf("TID Cond: (ctid = '%s'::tid)", types.FormatText(types.TTID, it.tid))}}
	case *sliceIter, *keptRows:
		return &planNode{name: "Function Scan"}
	case *cteScanIter:
		return &planNode{name: "CTE Scan on " + it.name}
	case *appendIter:
		n := &planNode{name: "Append"}
		for i := range it.arms {
			n.children = append(n.children, e.describe(&it.arms[i]))
		}
		return n
	case *recursiveIter:
		// The terms are built round by round; their plans are not kept.
		return &planNode{name: "Recursive Union"}
	case *setOpIter:
		// The arms run when the node is first read, under an Append as
		// PostgreSQL's, each in a Subquery Scan named "*SELECT* n".
		name := "HashSetOp Intersect"
		if it.op == sql.SetOpExcept {
			name = "HashSetOp Except"
		}
		if it.all {
			name += " All"
		}
		app := &planNode{name: "Append", sumsChildren: true}
		for i := range it.arms {
			if it.arms[i] == nil {
				continue
			}
			arm := e.describe(&it.arms[i])
			// The Subquery Scan passes its arm's rows on: the same figures.
			app.children = append(app.children, &planNode{name: fmt.Sprintf("Subquery Scan on \"*SELECT* %d\"", i+1),
				children: []*planNode{arm}, st: arm.st})
		}
		return &planNode{name: name, children: []*planNode{app}}
	case *oneRow:
		return &planNode{name: "Result"}
	case *emptyIter, emptyIter:
		return &planNode{name: "Result", props: []string{"One-Time Filter: false"}}
	case *aggIter:
		var n *planNode
		if sets := it.st.GroupingSets; sets != nil {
			// Every set is hashed; the sets without keys have their one
			// group from the start, as PostgreSQL's MixedAggregate
			// computes them without hashing.
			var hashed, plain []string
			for _, set := range sets {
				if len(set) == 0 {
					plain = append(plain, "Group Key: ()")
					continue
				}
				keys := make([]string, len(set))
				for i, k := range set {
					keys[i] = e.deparse(it.st.Group[k])
				}
				hashed = append(hashed, "Hash Key: "+strings.Join(keys, ", "))
			}
			switch {
			case len(plain) == 0:
				n = &planNode{name: "HashAggregate", props: hashed}
			case len(hashed) == 0:
				n = &planNode{name: "Aggregate", props: plain}
			default:
				n = &planNode{name: "MixedAggregate", props: append(hashed, plain...)}
			}
		} else if len(it.st.Group) == 0 {
			n = &planNode{name: "Aggregate"}
		} else {
			keys := make([]string, len(it.st.Group))
			for i, g := range it.st.Group {
				keys[i] = e.deparse(g)
			}
			n = &planNode{name: "HashAggregate", props: []string{"Group Key: " + strings.Join(keys, ", ")}}
		}
		n.children = []*planNode{e.describe(&it.in)}
		return n
	case *distinctIter:
		n := &planNode{name: "HashAggregate"}
		if targets := targetsBelow(it.in); targets != nil {
			keys := make([]string, it.n)
			for i := 0; i < it.n && i < len(targets); i++ {
				keys[i] = e.deparse(targets[i])
			}
			n.props = []string{"Group Key: " + strings.Join(keys, ", ")}
		}
		n.children = []*planNode{e.describe(&it.in)}
		return n
	case *sortIter:
		n := &planNode{name: "Sort", sort: it}
		if targets := targetsBelow(it.in); targets != nil {
			keys := make([]string, len(it.keys))
			for i, k := range it.keys {
				keys[i] = e.deparse(targets[k.Idx]) + sortSuffix(k)
			}
			n.props = []string{"Sort Key: " + strings.Join(keys, ", ")}
		}
		n.children = []*planNode{e.describe(&it.in)}
		return n
	case *limitIter:
		return &planNode{name: "Limit", children: []*planNode{e.describe(&it.in)}}
	case *uniqueOnIter:
		return &planNode{name: "Unique", children: []*planNode{e.describe(&it.in)}}
	case *lockIter:
		return &planNode{name: "LockRows", children: []*planNode{e.describe(&it.in)}}
	case *projectSetIter:
		return &planNode{name: "ProjectSet", children: []*planNode{e.describe(&it.in)}}
	case *windowIter:
		return e.windowNode(it)
	case *placeIter:
		return e.node(it.in)
	case *seqIter:
		return &planNode{name: "Function Scan on generate_series"}
	case *loopIter:
		name := "Nested Loop"
		if it.keep {
			name = "Nested Loop Left Join"
		}
		n := &planNode{name: name}
		if it.on != nil {
			n.props = append(n.props, "Join Filter: "+e.deparse(it.on))
		}
		outer := e.describe(&it.outer)
		inner := e.planOf(it.inner)
		if e.analyze {
			inner.st = &instrStats{}
			it.inner = &instrPlan{fromPlan: it.inner, st: inner.st, timing: e.timing, u: e.buffers}
		}
		n.children = []*planNode{outer, inner}
		return n
	case *fullJoinIter:
		n := &planNode{name: "Nested Loop Full Join"}
		n.children = []*planNode{e.describe(&it.outer), {name: "Materialize"}}
		return n
	}
	return &planNode{name: strings.TrimPrefix(fmt.Sprintf("%T", it), "*executor.")}
}

// planOf describes a join's inner side without opening it: the access
// path its table would get for one outer row (values of the outer row
// shown by name).
func (e *explainer) planOf(p fromPlan) *planNode {
	switch p := p.(type) {
	case *instrPlan:
		return e.planOf(p.fromPlan)
	case *joinNode:
		name := "Nested Loop"
		switch p.kind {
		case sql.JoinLeft, sql.JoinRight:
			name = "Nested Loop Left Join"
		case sql.JoinFull:
			name = "Nested Loop Full Join"
		}
		n := &planNode{name: name, children: []*planNode{e.planOf(p.l), e.planOf(p.r)}}
		if p.on != nil {
			n.props = append(n.props, "Join Filter: "+e.deparse(p.on))
		}
		return n
	case *fromLeaf:
		switch {
		case p.rel != nil:
			var outerNames []sql.Expr
			pred := sql.AndAll(p.conds)
			if pred != nil {
				// The leaf's conditions over its own row, outer values as
				// named placeholders.
				pred = sql.Rewrite(pred, func(x sql.Expr) (sql.Expr, bool) {
					r, ok := x.(*sql.ColRef)
					if !ok {
						return nil, false
					}
					if r.Idx >= p.f.Base && r.Idx < p.f.Base+p.f.Width {
						return &sql.ColRef{Idx: r.Idx - p.f.Base, T: r.T, Name: r.Name}, true
					}
					c := &sql.Const{T: r.T, Val: outerName(r.Name)}
					outerNames = append(outerNames, c)
					return c, true
				})
			}
			lx := *p.x
			lx.rel = p.rel
			var n *planNode
			if ip := lx.indexPlanFor(pred, false); ip != nil {
				n = e.indexNode(&lx, ip, false, nil)
				pred = withoutIndexConds(pred, ip)
			} else {
				n = &planNode{name: "Seq Scan on " + p.rel.def.Name}
			}
			if pred != nil {
				n.props = append(n.props, "Filter: "+e.deparse(pred))
			}
			return n
		case p.f.Sub != nil:
			n := &planNode{name: "Subquery Scan"}
			if it, err := p.x.subSelect(p.f.Sub); err == nil {
				sub := &explainer{x: p.x, nsub: e.nsub}
				n.children = []*planNode{sub.describe(&it)}
				it.Close()
			}
			if len(p.conds) > 0 {
				n.props = append(n.props, "Filter: "+e.deparse(sql.AndAll(p.conds)))
			}
			return n
		case p.f.WithRows != 0:
			n := &planNode{name: "CTE Scan"}
			if pt := p.x.pt; pt != nil && p.f.WithRows <= len(pt.p.bound.With) {
				n.name += " on " + pt.p.bound.With[p.f.WithRows-1].Name
			}
			if len(p.conds) > 0 {
				n.props = append(n.props, "Filter: "+e.deparse(sql.AndAll(p.conds)))
			}
			return n
		case p.f.WorkTable != 0:
			n := &planNode{name: "WorkTable Scan"}
			if len(p.conds) > 0 {
				n.props = append(n.props, "Filter: "+e.deparse(sql.AndAll(p.conds)))
			}
			return n
		default:
			name := "Function Scan"
			if p.f.Func != nil {
				name += " on " + p.f.Func.Name
			}
			n := &planNode{name: name}
			if len(p.conds) > 0 {
				n.props = append(n.props, "Filter: "+e.deparse(sql.AndAll(p.conds)))
			}
			return n
		}
	}
	return &planNode{name: "Nested Loop"}
}

// outerName is a placeholder for a value of a join's outer row in a
// described condition.
type outerName string

// indexNode is an index scan's node: Index Scan [Backward] using idx on t,
// and its Index Cond.
func (e *explainer) indexNode(x *execCtx, p *indexPlan, reverse bool, multi *multiIter) *planNode {
	if p == nil {
		return &planNode{name: "Index Scan on " + x.rel.def.Name}
	}
	name := "Index Scan using "
	if reverse {
		name = "Index Scan Backward using "
	}
	n := &planNode{name: name + p.ri.def.Name + " on " + x.rel.def.Name}
	var sub []sql.Expr
	for _, v := range append(append([]sql.Expr{}, p.eq...), p.lo, p.hi) {
		if v != nil {
			sub = append(sub, v)
		}
	}
	if p.inSub != nil {
		sub = append(sub, p.inSub)
	}
	e.subplans(n, sub...)
	var conds []string
	for i, v := range p.eq {
		col := x.rel.def.Columns[p.ri.cols[i]].Name
		if p.inSub != nil && i == p.inPos {
			conds = append(conds, fmt.Sprintf("(%s = ANY (SubPlan %d))", col, e.subNo[p.inSub]))
			continue
		}
		if p.inList != nil && i == p.inPos {
			vals := make([]string, len(p.inList))
			for j, l := range p.inList {
				if c, ok := l.(*sql.Const); ok && c.Val != nil {
					vals[j] = types.FormatText(c.T, c.Val)
				} else {
					vals[j] = e.deparse(l)
				}
			}
			conds = append(conds, fmt.Sprintf("(%s = ANY ('{%s}'::%s[]))", col, strings.Join(vals, ","), x.rel.types[p.ri.cols[i]].Name()))
			continue
		}
		conds = append(conds, fmt.Sprintf("(%s = %s)", col, e.deparse(v)))
	}
	if len(p.eq) < len(p.ri.cols) {
		col := x.rel.def.Columns[p.ri.cols[len(p.eq)]].Name
		if p.lo != nil {
			op := ">"
			if p.loIncl {
				op = ">="
			}
			conds = append(conds, fmt.Sprintf("(%s %s %s)", col, op, e.deparse(p.lo)))
		}
		if p.hi != nil {
			op := "<"
			if p.hiIncl {
				op = "<="
			}
			conds = append(conds, fmt.Sprintf("(%s %s %s)", col, op, e.deparse(p.hi)))
		}
	}
	switch len(conds) {
	case 0:
	case 1:
		n.props = append(n.props, "Index Cond: "+conds[0])
	default:
		n.props = append(n.props, "Index Cond: ("+strings.Join(conds, " AND ")+")")
	}
	return n
}

// indexPlanOf is the index plan of an index scan source, if it is one.
func indexPlanOf(it rowIter) *indexPlan {
	switch it := it.(type) {
	case *instrIter:
		return indexPlanOf(it.in)
	case *indexScan:
		return it.plan
	case *multiIter:
		if len(it.its) > 0 {
			return indexPlanOf(it.its[0])
		}
	}
	return nil
}

// withoutIndexConds drops from pred the conjuncts the index plan applies
// (the Filter PostgreSQL prints holds only the others).
func withoutIndexConds(pred sql.Expr, p *indexPlan) sql.Expr {
	used := map[sql.Expr]bool{}
	for _, v := range p.eq {
		if v != nil {
			used[v] = true
		}
	}
	if p.lo != nil {
		used[p.lo] = true
	}
	if p.hi != nil {
		used[p.hi] = true
	}
	var rest []sql.Expr
	for _, c := range conjuncts(pred, nil) {
		if cmp, ok := c.(*sql.Cmp); ok && (used[cmp.L] || used[cmp.R]) {
			if isIndexCol(cmp.L, p) || isIndexCol(cmp.R, p) {
				continue
			}
		}
		if in, ok := c.(*sql.InList); ok && p.inList != nil && len(in.List) == len(p.inList) && len(in.List) > 0 && in.List[0] == p.inList[0] {
			continue
		}
		if sp, ok := c.(*sql.SubPlan); ok && p.inSub == sp {
			continue
		}
		rest = append(rest, c)
	}
	return sql.AndAll(rest)
}

func isIndexCol(x sql.Expr, p *indexPlan) bool {
	c, ok := x.(*sql.ColRef)
	if !ok {
		return false
	}
	for _, ic := range p.ri.cols {
		if ic == c.Idx {
			return true
		}
	}
	return false
}

// targetsBelow finds the select list a sort or DISTINCT reads (the
// projection under it).
func targetsBelow(it rowIter) []sql.Expr {
	for {
		switch x := it.(type) {
		case *projectIter:
			return x.targets
		case *distinctIter:
			it = x.in
		case *instrIter:
			it = x.in
		default:
			return nil
		}
	}
}

// subplans adds a SubPlan or InitPlan section for each subquery in exprs.
func (e *explainer) subplans(n *planNode, exprs ...sql.Expr) {
	for _, x := range exprs {
		sql.Walk(x, func(y sql.Expr) {
			sp, ok := y.(*sql.SubPlan)
			if !ok {
				return
			}
			e.nsub++
			if e.subNo == nil {
				e.subNo = map[*sql.SubPlan]int{}
			}
			e.subNo[sp] = e.nsub
			label := fmt.Sprintf("SubPlan %d", e.nsub)
			if !sp.Correlated && sp.Kind != "in" {
				label = fmt.Sprintf("InitPlan %d (returns $%d)", e.nsub, e.nsub-1)
			}
			if sp.Kind == "row" {
				// SET (a, b) = (SELECT ...): one value per column.
				params := make([]string, sp.Select.NVisible)
				for i := range params {
					params[i] = fmt.Sprintf("$%d", e.nsub-1+i)
				}
				label = fmt.Sprintf("SubPlan %d (returns %s)", e.nsub, strings.Join(params, ","))
				if !sp.Correlated {
					label = "Init" + label[len("Sub"):]
				}
			}
			it, err := e.x.subSelect(sp.Select)
			if err != nil {
				return
			}
			sub := &explainer{x: e.x, nsub: e.nsub}
			n.subplans = append(n.subplans, subplanLine{label: label, node: sub.describe(&it)})
			e.nsub = sub.nsub
			it.Close()
		})
	}
}

// render appends the node's lines at depth (0: the top node).
func (n *planNode) render(lines *[]string, depth int, ex *sql.Explain) {
	n.renderPad(lines, depth, 0, ex)
}

// renderPad is render with pad more spaces before every line: a subplan's
// tree sits two further right than a child's, under its label, as
// PostgreSQL's ExplainSubPlans indents it.
func (n *planNode) renderPad(lines *[]string, depth, pad int, ex *sql.Explain) {
	var head, prop string
	if depth == 0 {
		head, prop = "", "  "
	} else {
		ind := strings.Repeat(" ", 2+6*(depth-1))
		head, prop = ind+"->  ", strings.Repeat(" ", 6*depth+2)
	}
	head, prop = strings.Repeat(" ", pad)+head, strings.Repeat(" ", pad)+prop
	line := head + n.name
	if ex.Analyze && n.st == nil && n.sumsChildren {
		n.st = &instrStats{}
		for _, c := range n.children {
			if c.st == nil {
				continue
			}
			n.st.loops = max(n.st.loops, c.st.loops)
			n.st.rows += c.st.rows
			n.st.total += c.st.total
			n.st.untimed = n.st.untimed || c.st.untimed
			if n.st.first == 0 {
				n.st.first = c.st.first
			}
		}
	}
	if ex.Analyze {
		st := n.st
		switch {
		case st == nil || st.loops == 0:
			line += " (never executed)"
		default:
			rows := n.rowsOut(st)
			if ex.Timing && !st.untimed {
				line += fmt.Sprintf(" (actual time=%.3f..%.3f rows=%d loops=%d)",
					msOf(st.first)/float64(st.loops), msOf(st.total)/float64(st.loops), rows, st.loops)
			} else {
				line += fmt.Sprintf(" (actual rows=%d loops=%d)", rows, st.loops)
			}
		}
	}
	*lines = append(*lines, line)
	for _, p := range n.props {
		*lines = append(*lines, prop+p)
		if ex.Analyze && strings.HasPrefix(p, "Filter: ") && n.removed != nil && n.st != nil {
			// Printed only when some were (show_instrumentation_count).
			if removed := (n.removed.rows - n.st.rows) / max(n.st.loops, 1); removed > 0 {
				*lines = append(*lines, fmt.Sprintf("%sRows Removed by Filter: %d", prop, removed))
			}
		}
	}
	if ex.Analyze && n.sort != nil {
		if n.sort.spilled > 0 {
			*lines = append(*lines, fmt.Sprintf("%sSort Method: external merge  Disk: %dkB", prop, max(n.sort.spilled>>10, 1)))
		} else {
			*lines = append(*lines, fmt.Sprintf("%sSort Method: quicksort  Memory: %dkB", prop, max(n.sort.peak>>10, 1)))
		}
	}
	if ex.Analyze && ex.Buffers && n.st != nil {
		if l := bufferLine(n.st.buf); l != "" {
			*lines = append(*lines, prop+l)
		}
	}
	for _, s := range n.subplans {
		*lines = append(*lines, prop+s.label)
		s.node.renderPad(lines, depth+1, pad+2, ex)
	}
	for _, c := range n.children {
		c.renderPad(lines, depth+1, pad, ex)
	}
}

// rowsOut is the rows per loop the node handed out.
func (n *planNode) rowsOut(st *instrStats) int64 {
	return st.rows / max(st.loops, 1)
}

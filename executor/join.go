package executor

// The FROM tree: joins of tables, subqueries and set-returning functions.
//
// Every node produces rows of the full joined width (sql.Select.From gives
// each item its slots); a node is opened with an outer row, copies it and
// fills its own items' slots, so the slots of items opened before it (its
// left side, the items before it in FROM) are there to read. Joins are
// nested loops: the right side is opened again for each row of the left
// side (RIGHT JOIN swaps the roles, FULL JOIN reads the right side once
// into memory and remembers which of its rows matched).
//
// Conditions are applied as early as they can be:
//   - a WHERE conjunct whose items are never NULL-extended runs at the last
//     of those items in FROM order;
//   - the ON conjuncts of an inner or LEFT join whose right side is a single
//     item run at that item (for RIGHT JOIN, at its left item);
//   - the rest runs on the joined rows (ON at its join, WHERE at the top).
//
// At a table the outer row's values are substituted as constants, so a
// condition like inner.k = outer.k becomes inner.k = <value> and can use an
// index of the inner table. Conjuncts with a correlated subquery always run
// on the full row, which its outer references index.

import (
	"context"
	"slices"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// fromPlan is a node of the FROM tree.
type fromPlan interface {
	// open returns the node's rows for one outer row (of full width).
	open(outer []types.Datum) (rowIter, error)
	// leaves appends the items under the node.
	leaves(out []int) []int
}

// fromLeaf is one FROM item.
type fromLeaf struct {
	x     *execCtx
	item  int
	f     sql.FromTable
	rel   *relation // tables
	conds []sql.Expr
	once  bool // opened once only: a subquery streams instead of being kept
	rows  [][]types.Datum
	kept  bool // rows holds the subquery's rows

	// hash, over kept rows: the rows by the values of the leaf's columns
	// that conditions compare for equality with outer values (hashCols),
	// the outer expressions giving those values (hashOuter), compared in
	// hashTypes.
	hash      map[string][]int
	hashCols  []int
	hashOuter []sql.Expr
	hashTypes []types.T
}

func (l *fromLeaf) leaves(out []int) []int { return append(out, l.item) }

// pred is the leaf's conditions over its table's own row, the outer row's
// values substituted.
func (l *fromLeaf) pred(outer []types.Datum) sql.Expr {
	var conds []sql.Expr
	for _, c := range l.conds {
		conds = append(conds, sql.Rewrite(c, func(e sql.Expr) (sql.Expr, bool) {
			r, ok := e.(*sql.ColRef)
			if !ok {
				return nil, false
			}
			if r.Idx >= l.f.Base && r.Idx < l.f.Base+l.f.Width {
				return &sql.ColRef{Idx: r.Idx - l.f.Base, T: r.T, Name: r.Name}, true
			}
			return &sql.Const{T: r.T, Val: outer[r.Idx]}, true
		}))
	}
	return sql.AndAll(conds)
}

func (l *fromLeaf) open(outer []types.Datum) (rowIter, error) {
	var in rowIter
	var err error
	switch {
	case l.rel != nil:
		lx := *l.x
		lx.rel = l.rel
		if in, err = lx.source(l.pred(outer)); err != nil {
			return nil, err
		}
		return &placeIter{in: in, outer: outer, base: l.f.Base}, nil
	case l.f.Sub != nil && l.f.Lateral:
		// The joined row so far is the subquery's outer row while it runs.
		l.x.ev.outer = append(l.x.ev.outer, outer)
		in, err = l.x.subSelect(l.f.Sub)
		var rows [][]types.Datum
		if err == nil {
			rows, err = drain(l.x.ctx, in)
		}
		l.x.ev.outer = l.x.ev.outer[:len(l.x.ev.outer)-1]
		if err != nil {
			return nil, err
		}
		in = &placeIter{in: &sliceIter{rows: rows}, outer: outer, base: l.f.Base}
	case l.f.Sub != nil:
		if in, err = l.subRows(outer); err != nil {
			return nil, err
		}
		in = &placeIter{in: in, outer: outer, base: l.f.Base}
	case l.f.WorkTable != 0:
		in = &placeIter{in: &sliceIter{rows: l.x.work[l.f.WorkTable]}, outer: outer, base: l.f.Base}
	case l.f.WithRows != 0:
		if l.x.pt == nil {
			return nil, pgerr.New(pgerr.InternalError, "WITH query rows read outside their statement")
		}
		cte := &cteScanIter{sliceIter: sliceIter{rows: l.x.pt.withRows[l.f.WithRows]}, name: l.x.pt.p.bound.With[l.f.WithRows-1].Name}
		in = &placeIter{in: cte, outer: outer, base: l.f.Base}
	default:
		if in, err = l.x.ev.openSRF(l.f.Func, outer, l.f.Ordinality); err != nil {
			return nil, err
		}
		in = &placeIter{in: in, outer: outer, base: l.f.Base}
	}
	if len(l.conds) > 0 {
		in = &filterIter{in: in, ev: l.x.ev, pred: sql.AndAll(l.conds)}
	}
	return in, nil
}

// buildHash indexes the kept rows of a subquery by the columns its
// conditions compare with values of the outer row (leafCol = outer
// expression), so each outer row reads only the rows that can match: the
// hash join of a derived table. It reports whether there were such
// conditions.
func (l *fromLeaf) buildHash() bool {
	inLeaf := func(idx int) bool { return idx >= l.f.Base && idx < l.f.Base+l.f.Width }
	for _, c := range l.conds {
		cmp, ok := c.(*sql.Cmp)
		if !ok || cmp.Op != "=" || hasCorrelated(c) {
			continue
		}
		for _, pair := range [][2]sql.Expr{{cmp.L, cmp.R}, {cmp.R, cmp.L}} {
			col, isCol := pair[0].(*sql.ColRef)
			if !isCol || !inLeaf(col.Idx) {
				continue
			}
			outerOnly := true
			sql.Walk(pair[1], func(e sql.Expr) {
				if r, ok := e.(*sql.ColRef); ok && inLeaf(r.Idx) {
					outerOnly = false
				}
			})
			if outerOnly {
				l.hashCols = append(l.hashCols, col.Idx-l.f.Base)
				l.hashOuter = append(l.hashOuter, pair[1])
				l.hashTypes = append(l.hashTypes, cmp.CT)
				break
			}
		}
	}
	if len(l.hashCols) == 0 {
		return false
	}
	l.hash = map[string][]int{}
	for i, row := range l.rows {
		var key []byte
		null := false
		for k, c := range l.hashCols {
			if row[c] == nil {
				null = true
				break
			}
			key = types.AppendKey(key, l.hashTypes[k], row[c])
		}
		if !null {
			l.hash[string(key)] = append(l.hash[string(key)], i)
		}
	}
	return true
}

// bucket returns the kept rows whose hashed columns equal the outer
// row's values (none if one of those is NULL).
func (l *fromLeaf) bucket(outer []types.Datum) ([][]types.Datum, error) {
	var key []byte
	for k, e := range l.hashOuter {
		v, err := l.x.ev.eval(e, outer)
		if err != nil || v == nil {
			return nil, err
		}
		key = types.AppendKey(key, l.hashTypes[k], v)
	}
	idx := l.hash[string(key)]
	rows := make([][]types.Datum, len(idx))
	for i, j := range idx {
		rows[i] = l.rows[j]
	}
	return rows, nil
}

// placeIter puts each input row into a copy of outer at slot base.
type placeIter struct {
	in    rowIter
	outer []types.Datum
	base  int
}

func (it *placeIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	row, ok, err := it.in.Next(ctx)
	if err != nil || !ok {
		return nil, false, err
	}
	out := make([]types.Datum, len(it.outer))
	copy(out, it.outer)
	copy(out[it.base:], row)
	return out, true, nil
}

func (it *placeIter) Close() { it.in.Close() }

// joinNode is a nested-loop join of two subtrees.
type joinNode struct {
	x      *execCtx
	kind   sql.JoinKind
	l, r   fromPlan
	on     sql.Expr // what remains of ON after pushing conjuncts to a leaf
	rSlots []span   // slots of the right side (FULL JOIN merges them in)
}

// span is a range of slots [lo, hi).
type span struct{ lo, hi int }

func (j *joinNode) leaves(out []int) []int { return j.r.leaves(j.l.leaves(out)) }

func (j *joinNode) open(outer []types.Datum) (rowIter, error) {
	switch j.kind {
	case sql.JoinRight:
		return j.openLoop(j.r, j.l, true, outer)
	case sql.JoinFull:
		rin, err := j.r.open(outer)
		if err != nil {
			return nil, err
		}
		rows, err := drain(j.x.ctx, rin)
		if err != nil {
			return nil, err
		}
		held, err := j.x.s.mem.chargeRows(rows)
		if err != nil {
			return nil, err
		}
		lin, err := j.l.open(outer)
		if err != nil {
			return nil, err
		}
		return &fullJoinIter{j: j, outer: lin, rows: rows, matched: make([]bool, len(rows)), held: held}, nil
	}
	return j.openLoop(j.l, j.r, j.kind == sql.JoinLeft, outer)
}

// openLoop runs inner once per row of outerPlan; keep: an outer row without
// a match is returned as it is (its inner slots NULL).
func (j *joinNode) openLoop(outerPlan, inner fromPlan, keep bool, outer []types.Datum) (rowIter, error) {
	in, err := outerPlan.open(outer)
	if err != nil {
		return nil, err
	}
	return &loopIter{outer: in, inner: inner, ev: j.x.ev, on: j.on, keep: keep}, nil
}

// loopIter pairs each outer row with the matching rows of the inner side.
type loopIter struct {
	outer   rowIter
	inner   fromPlan
	ev      *evalCtx
	on      sql.Expr
	keep    bool
	cur     []types.Datum
	in      rowIter
	matched bool
}

func (it *loopIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	for {
		if it.in == nil {
			row, ok, err := it.outer.Next(ctx)
			if err != nil || !ok {
				return nil, false, err
			}
			if err := canceled(ctx); err != nil {
				return nil, false, err
			}
			it.cur, it.matched = row, false
			if it.in, err = it.inner.open(row); err != nil {
				return nil, false, err
			}
		}
		row, ok, err := it.in.Next(ctx)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			it.in.Close()
			it.in = nil
			if it.keep && !it.matched {
				return it.cur, true, nil
			}
			continue
		}
		pass, err := it.ev.evalBool(it.on, row)
		if err != nil {
			return nil, false, err
		}
		if pass {
			it.matched = true
			return row, true, nil
		}
	}
}

func (it *loopIter) Close() {
	if it.in != nil {
		it.in.Close()
	}
	it.outer.Close()
}

// fullJoinIter is FULL JOIN: each left row against the right side's rows,
// then the right rows no left row matched.
type fullJoinIter struct {
	j       *joinNode
	outer   rowIter
	rows    [][]types.Datum
	matched []bool
	cur     []types.Datum
	i       int   // next right row for cur
	curHit  bool  // cur matched a right row
	tail    int   // unmatched right rows emitted so far (after the left side)
	held    int64 // bytes of rows counted in the session's memAccount
	done    bool  // left side exhausted
}

func (it *fullJoinIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	for !it.done {
		if it.cur == nil {
			row, ok, err := it.outer.Next(ctx)
			if err != nil {
				return nil, false, err
			}
			if !ok {
				it.done = true
				break
			}
			it.cur, it.i, it.curHit = row, 0, false
		}
		for it.i < len(it.rows) {
			k := it.i
			it.i++
			row := append([]types.Datum(nil), it.cur...)
			for _, s := range it.j.rSlots {
				copy(row[s.lo:s.hi], it.rows[k][s.lo:s.hi])
			}
			pass, err := it.j.x.ev.evalBool(it.j.on, row)
			if err != nil {
				return nil, false, err
			}
			if pass {
				it.matched[k], it.curHit = true, true
				return row, true, nil
			}
		}
		cur := it.cur
		it.cur = nil
		if !it.curHit {
			return cur, true, nil
		}
	}
	for it.tail < len(it.rows) {
		k := it.tail
		it.tail++
		if !it.matched[k] {
			return it.rows[k], true, nil
		}
	}
	return nil, false, nil
}

func (it *fullJoinIter) Close() {
	it.outer.Close()
	it.j.x.s.mem.release(it.held)
	it.held = 0
}

// drain reads an iterator to its end and closes it.
func drain(ctx context.Context, it rowIter) ([][]types.Datum, error) {
	defer it.Close()
	var rows [][]types.Datum
	for {
		row, ok, err := it.Next(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return rows, nil
		}
		rows = append(rows, row)
	}
}

// hasCorrelated reports whether e holds a correlated subquery.
func hasCorrelated(e sql.Expr) bool {
	found := false
	sql.Walk(e, func(x sql.Expr) {
		if sp, ok := x.(*sql.SubPlan); ok && sp.Correlated {
			found = true
		}
	})
	return found
}

// fromBuilder plans one SELECT's FROM tree.
type fromBuilder struct {
	x        *execCtx
	st       *sql.Select
	leafs    []*fromLeaf
	nullable []bool // item may be NULL-extended by an outer join
}

// fromSource returns the joined rows of st's FROM tree that satisfy WHERE.
func (x *execCtx) fromSource(st *sql.Select) (rowIter, error) {
	fb := &fromBuilder{x: x, st: st, leafs: make([]*fromLeaf, len(st.From)), nullable: make([]bool, len(st.From))}
	fb.markNullable(st.Join, false)
	root, err := fb.plan(st.Join, true)
	if err != nil {
		return nil, err
	}
	var rest []sql.Expr
	for _, c := range conjuncts(st.Where, nil) {
		if !fb.push(c) {
			rest = append(rest, c)
		}
	}
	width := 0
	if n := len(st.From); n > 0 {
		width = st.From[n-1].Base + st.From[n-1].Width
	}
	it, err := root.open(make([]types.Datum, width))
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		it = &filterIter{in: it, ev: x.ev, pred: sql.AndAll(rest)}
	}
	return it, nil
}

// markNullable marks the items an outer join may NULL-extend.
func (fb *fromBuilder) markNullable(j *sql.JoinNode, null bool) {
	if j.L == nil {
		fb.nullable[j.Item] = null
		return
	}
	fb.markNullable(j.L, null || j.Kind == sql.JoinRight || j.Kind == sql.JoinFull)
	fb.markNullable(j.R, null || j.Kind == sql.JoinLeft || j.Kind == sql.JoinFull)
}

// plan builds the iterator tree; once: the node is opened only once.
func (fb *fromBuilder) plan(j *sql.JoinNode, once bool) (fromPlan, error) {
	if j.L == nil {
		f := fb.st.From[j.Item]
		l := &fromLeaf{x: fb.x, item: j.Item, f: f, once: once}
		if f.Table != nil {
			rel, err := fb.x.openRel(f.Table.OID)
			if err != nil {
				return nil, err
			}
			l.rel = rel
		}
		fb.leafs[j.Item] = l
		return l, nil
	}
	lOnce, rOnce := once, false
	if j.Kind == sql.JoinRight {
		lOnce, rOnce = false, once
	}
	if j.Kind == sql.JoinFull {
		rOnce = once
	}
	l, err := fb.plan(j.L, lOnce)
	if err != nil {
		return nil, err
	}
	r, err := fb.plan(j.R, rOnce)
	if err != nil {
		return nil, err
	}
	node := &joinNode{x: fb.x, kind: j.Kind, l: l, r: r}
	var target *fromLeaf
	switch j.Kind {
	case sql.JoinInner, sql.JoinLeft:
		target, _ = r.(*fromLeaf)
	case sql.JoinRight:
		target, _ = l.(*fromLeaf)
	}
	var rest []sql.Expr
	for _, c := range conjuncts(j.On, nil) {
		if target != nil && !hasCorrelated(c) {
			target.conds = append(target.conds, c)
		} else {
			rest = append(rest, c)
		}
	}
	node.on = sql.AndAll(rest)
	for _, it := range r.leaves(nil) {
		f := fb.st.From[it]
		node.rSlots = append(node.rSlots, span{f.Base, f.Base + f.Width})
	}
	return node, nil
}

// push places a WHERE conjunct at the last item it reads, if none of the
// items it reads is NULL-extended; false: it runs on the joined rows.
func (fb *fromBuilder) push(c sql.Expr) bool {
	if hasCorrelated(c) {
		return false
	}
	last, ok := -1, true
	sql.Walk(c, func(e sql.Expr) {
		r, isCol := e.(*sql.ColRef)
		if !isCol {
			return
		}
		for i, f := range fb.st.From {
			if r.Idx >= f.Base && r.Idx < f.Base+f.Width {
				if fb.nullable[i] {
					ok = false
				}
				if i > last {
					last = i
				}
			}
		}
	})
	if !ok || last < 0 {
		return false
	}
	fb.leafs[last].conds = append(fb.leafs[last].conds, c)
	return true
}

// subRows reads the leaf's subquery for one outer row. A subquery read
// once streams; otherwise its rows are kept after the first read, and
// hashed when the leaf's conditions compare them with the outer row.
func (l *fromLeaf) subRows(outer []types.Datum) (rowIter, error) {
	if l.once && !l.kept && l.f.Shared == 0 {
		return l.x.subSelect(l.f.Sub)
	}
	if !l.kept {
		// The rows are made when first read, so that a plan only described
		// (EXPLAIN) does not run the subquery.
		return &keptRows{l: l, outer: slices.Clone(outer)}, nil
	}
	return l.keptIter(outer)
}

// keep evaluates the leaf's subquery into its kept rows (and their hash).
func (l *fromLeaf) keep() error {
	rows, err := l.materialize()
	if err != nil {
		return err
	}
	l.rows, l.kept = rows, true
	l.buildHash()
	return nil
}

// keptRows reads a leaf's kept rows for an outer row, keeping them at its
// first Next.
type keptRows struct {
	l     *fromLeaf
	outer []types.Datum
	in    rowIter
}

func (it *keptRows) Next(ctx context.Context) ([]types.Datum, bool, error) {
	if it.in == nil {
		if !it.l.kept {
			if err := it.l.keep(); err != nil {
				return nil, false, err
			}
		}
		in, err := it.l.keptIter(it.outer)
		if err != nil {
			return nil, false, err
		}
		it.in = in
	}
	return it.in.Next(ctx)
}

func (it *keptRows) Close() {
	if it.in != nil {
		it.in.Close()
	}
}

// keptIter reads the kept rows that can match outer.
func (l *fromLeaf) keptIter(outer []types.Datum) (rowIter, error) {
	if l.hash == nil {
		return &sliceIter{rows: l.rows}, nil
	}
	rows, err := l.bucket(outer)
	if err != nil {
		return nil, err
	}
	return &sliceIter{rows: rows}, nil
}

// materialize evaluates the leaf's subquery into rows charged to the
// session's memory. A CTE referenced more than once (sql.FromTable.Shared)
// is evaluated by the first of its references in the statement; the others
// read the same rows.
func (l *fromLeaf) materialize() ([][]types.Datum, error) {
	pt := l.x.pt
	if pt != nil && l.f.Shared != 0 {
		if rows, ok := pt.cteRows[l.f.Shared]; ok {
			return rows, nil
		}
	}
	in, err := l.x.subSelect(l.f.Sub)
	if err != nil {
		return nil, err
	}
	rows, err := drain(l.x.ctx, in)
	if err != nil {
		return nil, err
	}
	if _, err := l.x.s.mem.chargeRows(rows); err != nil {
		return nil, err
	}
	if pt != nil && l.f.Shared != 0 {
		if pt.cteRows == nil {
			pt.cteRows = map[int][][]types.Datum{}
		}
		pt.cteRows[l.f.Shared] = rows
	}
	return rows, nil
}

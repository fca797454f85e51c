package executor

// Access paths: which scan serves a statement's WHERE over one table (a
// virtual table's rows, one ctid, an index range or IN list, else a
// sequential scan), the qualifiers that decide it, and whether an index
// range already yields the ORDER BY order.

import (
	"slices"

	"minipg/sql"
	"minipg/types"
)

// conjuncts splits an AND tree.
func conjuncts(e sql.Expr, out []sql.Expr) []sql.Expr {
	if b, ok := e.(*sql.BoolOp); ok && b.Op == "AND" {
		for _, a := range b.Args {
			out = conjuncts(a, out)
		}
		return out
	}
	if e != nil {
		out = append(out, e)
	}
	return out
}

// isConstExpr reports whether e reads no column and calls no volatile
// function.
func isConstExpr(e sql.Expr) bool {
	ok := true
	sql.Walk(e, func(x sql.Expr) {
		switch x.(type) {
		case *sql.ColRef, *sql.Agg:
			ok = false
		case *sql.Func:
			// A volatile function (random(), clock_timestamp()) is
			// evaluated for each row, never once as an index key.
			if f := x.(*sql.Func); f.Builtin != nil && f.Builtin.Volatility == sql.Volatile {
				ok = false
			}
		}
	})
	return ok
}

// colBound is a comparison of column Col with a constant expression.
type colBound struct {
	col  int
	op   string // = < <= > >= in
	val  sql.Expr
	src  sql.Expr     // the conjunct
	list []sql.Expr   // op "in"
	sub  *sql.SubPlan // op "in" from IN (SELECT ...): its values, not list
}

var flipOp = map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

// indexable extracts col-op-const comparisons usable with an index on a
// column of type colT.
func indexable(conj []sql.Expr, types_ []types.T) []colBound {
	var out []colBound
	typeOK := func(ct, vt types.OID) bool {
		return ct == vt || (intKind(ct) && intKind(vt)) || (strKind(ct) && strKind(vt))
	}
	for _, c := range conj {
		if sp, ok := c.(*sql.SubPlan); ok && sp.Kind == "in" && !sp.Not && !sp.Correlated {
			// col IN (SELECT ...): one index lookup per value it returns.
			if col, isCol := sp.X.(*sql.ColRef); isCol && col.Idx < len(types_) && typeOK(types_[col.Idx].OID, sp.CT.OID) {
				out = append(out, colBound{col: col.Idx, op: "in", list: []sql.Expr{}, sub: sp})
			}
			continue
		}
		if in, ok := c.(*sql.InList); ok && !in.Not {
			col, isCol := in.X.(*sql.ColRef)
			if !isCol || col.Idx >= len(types_) {
				continue
			}
			usable := len(in.List) > 0
			for _, v := range in.List {
				if !isConstExpr(v) || !typeOK(types_[col.Idx].OID, v.Type().OID) {
					usable = false
				}
			}
			if usable {
				out = append(out, colBound{col: col.Idx, op: "in", list: in.List})
			}
			continue
		}
		cmp, ok := c.(*sql.Cmp)
		if !ok || cmp.Op == "<>" {
			continue
		}
		l, r, op := cmp.L, cmp.R, cmp.Op
		col, isCol := l.(*sql.ColRef)
		if !isCol {
			col, isCol = r.(*sql.ColRef)
			if !isCol {
				continue
			}
			l, r, op = r, l, flipOp[op]
		}
		if col.Idx >= len(types_) || !isConstExpr(r) {
			continue
		}
		ct, vt := types_[col.Idx].OID, r.Type().OID
		if ct != vt && !(intKind(ct) && intKind(vt)) && !(strKind(ct) && strKind(vt) && ct != types.Bpchar && vt != types.Bpchar) {
			continue
		}
		_ = l
		out = append(out, colBound{col: col.Idx, op: op, val: r, src: c})
	}
	return out
}

func intKind(o types.OID) bool { return o == types.Int2 || o == types.Int4 || o == types.Int8 }

func strKind(o types.OID) bool { return o == types.Text || o == types.Varchar }

// indexPlan is a chosen index range.
type indexPlan struct {
	ri     *relIndex
	eq     []sql.Expr   // equality values for the leading columns
	inPos  int          // with inList: the leading column given by a list
	inList []sql.Expr   // col IN (list): one lookup per distinct value
	inSub  *sql.SubPlan // col IN (SELECT ...): the values come from the subquery
	lo, hi sql.Expr     // range on the next column (nil: open)
	loIncl bool
	hiIncl bool
	// exact are the conjuncts col = value of eq that the index range
	// applies exactly (see exactEq): every row it yields satisfies them.
	exact []sql.Expr
}

// exactEq reports whether an index range for col = val, col of type ct,
// yields exactly the rows for which the comparison is true, so that a scan
// need not evaluate it again, as PostgreSQL does not recheck btree quals:
// val has col's own type, and equality of that type is equality of the
// stored values (integers, and text and varchar, which compare bytewise).
// Each entry names the root of a HOT chain whose members share the indexed
// columns, so the version a fetch returns has the entry's key.
func exactEq(ct types.T, val sql.Expr) bool {
	vt := val.Type().OID
	return ct.OID == vt && (intKind(vt) || strKind(vt))
}

// chooseIndex picks the index matching the most leading columns.
func chooseIndex(r *relation, where sql.Expr) *indexPlan {
	if where == nil || len(r.indexes) == 0 {
		return nil
	}
	bounds := indexable(conjuncts(where, nil), r.types)
	if len(bounds) == 0 {
		return nil
	}
	var best *indexPlan
	bestScore := 0
	for _, ri := range r.indexes {
		p := &indexPlan{ri: ri}
		score := 0
		for _, c := range ri.cols {
			var eq sql.Expr
			for _, b := range bounds {
				if b.col == c && b.op == "=" {
					eq = b.val
					if exactEq(r.types[c], b.val) {
						p.exact = append(p.exact, b.src)
					}
					break
				}
			}
			if eq == nil && p.inList == nil {
				for _, b := range bounds {
					if b.col == c && b.op == "in" {
						p.inPos, p.inList, p.inSub = len(p.eq), b.list, b.sub
						break
					}
				}
				if p.inList != nil && p.inPos == len(p.eq) {
					p.eq = append(p.eq, nil)
					score += 2
					continue
				}
			}
			if eq == nil {
				for _, b := range bounds {
					if b.col != c {
						continue
					}
					switch b.op {
					case ">", ">=":
						if p.lo == nil {
							p.lo, p.loIncl = b.val, b.op == ">="
						}
					case "<", "<=":
						if p.hi == nil {
							p.hi, p.hiIncl = b.val, b.op == "<="
						}
					}
				}
				if p.lo != nil || p.hi != nil {
					score++
				}
				break
			}
			p.eq = append(p.eq, eq)
			score += 2
		}
		if score == 0 {
			continue
		}
		// A unique index fully matched by equalities is best.
		if ri.def.Unique && len(p.eq) == len(ri.cols) {
			score += 100
		}
		if score > bestScore {
			best, bestScore = p, score
		}
	}
	return best
}

// onSeqScan, when set (by tests), is told the name of every table a
// sequential scan is opened on.
var onSeqScan func(table string)

// source returns the rows of x.rel that satisfy where (an index range when
// one applies, else a sequential scan), filtered by where.
func (x *execCtx) source(where sql.Expr) (rowIter, error) {
	it, _, err := x.orderedSource(where, nil, false)
	return it, err
}

// stmtSource is source for the WHERE clause of a statement, whose access
// path the session's plan cache keeps (see planCache).
func (x *execCtx) stmtSource(where sql.Expr) (rowIter, error) {
	it, _, err := x.orderedSource(where, nil, true)
	return it, err
}

// planCache keeps chooseIndex's answers for the WHERE clauses of a
// session's statements, as PostgreSQL keeps a prepared statement's plan: a
// bound statement runs the same tree every time, and DDL that changes a
// table's indexes installs a new relation (replaceRel), which a cached
// answer is checked against. A statement bound again (after DDL, or each
// simple query) has a new tree; the cache forgets everything when full.
type planCache struct {
	m map[sql.Expr]cachedPlan
}

type cachedPlan struct {
	r    *relation
	plan *indexPlan // nil: no index applies
}

// maxCachedPlans bounds a session's plan cache.
const maxCachedPlans = 256

// choose returns chooseIndex(r, where), from the cache when it can. The
// plan is shared: its users must not modify it.
func (c *planCache) choose(r *relation, where sql.Expr) *indexPlan {
	if cp, ok := c.m[where]; ok && cp.r == r {
		return cp.plan
	}
	p := chooseIndex(r, where)
	if c.m == nil || len(c.m) >= maxCachedPlans {
		c.m = make(map[sql.Expr]cachedPlan)
	}
	c.m[where] = cachedPlan{r: r, plan: p}
	return p
}

// indexPlanFor is chooseIndex for x.rel, through the session's plan cache
// when where is a statement's (the same tree each time it runs).
//
// With enable_indexscan and enable_bitmapscan both off no index is used,
// as PostgreSQL's planner then scans the table (planner_settings.go).
func (x *execCtx) indexPlanFor(where sql.Expr, stmt bool) *indexPlan {
	if !x.planOn(enableIndexScan) && !x.planOn(enableBitmapScan) {
		return nil
	}
	if !stmt || where == nil {
		return chooseIndex(x.rel, where)
	}
	return x.s.plans.choose(x.rel, where)
}

// orderedSource is source that also tries to return rows in the order of
// sort (keys over the scan row's columns); sorted reports success, in which
// case the caller need not sort.
//
// stmt says where is a statement's WHERE clause (see indexPlanFor).
func (x *execCtx) orderedSource(where sql.Expr, sort []sql.SortKey, stmt bool) (it rowIter, sorted bool, err error) {
	var in rowIter
	if v := x.rel.virtual; v != nil {
		env := any(x.s.e)
		if v.Session {
			env = x.s
		}
		rows, err := v.Rows(env)
		if err != nil {
			return nil, false, err
		}
		for i, r := range rows {
			rows[i] = append(r[:len(x.rel.types):len(x.rel.types)], nil) // no ctid
		}
		in = &sliceIter{rows: rows}
	} else if e, conj := x.tidQualFor(where); e != nil {
		// ctid = const: fetch that one version, which has that ctid.
		where = residual(where, []sql.Expr{conj})
		v, err := x.ev.eval(e, nil)
		if err != nil {
			return nil, false, err
		}
		in = &tidScan{x: x, tid: v}
	} else if p := x.indexPlanFor(where, stmt); p != nil {
		reverse, ok := indexOrder(p, sort)
		if !x.planOn(enableIndexScan) {
			// Only an index scan yields the index's order (a bitmap
			// scan does not): the rows are sorted after.
			reverse, ok = false, false
		}
		it, err := x.openIndexScan(p, reverse)
		if err != nil {
			return nil, false, err
		}
		in, sorted = it, ok
		where = residual(where, p.exact)
	} else {
		x.countSeqScan()
		sc := &seqScan{x: x, sc: x.rel.heap.NewScan(x.snap), dec: x.scanDecoder()}
		if !sc.dec.readsColumns() {
			sc.sc.SkipTupleData()
		}
		in = sc
	}
	if _, seq := in.(*seqScan); seq && onSeqScan != nil {
		onSeqScan(x.rel.def.Name)
	}
	if where == nil {
		return in, sorted, nil
	}
	return &filterIter{in: in, ev: x.ev, pred: where}, sorted, nil
}

// residual is where without the conjuncts in done (nil when none is left).
func residual(where sql.Expr, done []sql.Expr) sql.Expr {
	if len(done) == 0 {
		return where
	}
	var rest []sql.Expr
	for _, c := range conjuncts(where, nil) {
		if !slices.Contains(done, c) {
			rest = append(rest, c)
		}
	}
	if len(rest) == 0 {
		return nil
	}
	return sql.AndAll(rest)
}

// indexOrder reports whether scanning p forward (or backward) yields rows
// ordered by sort, whose Idx here are scan-row column positions. Columns
// bound by equality may appear anywhere; the others must follow the index
// columns after the equality prefix. The index orders NULL last, which is
// ASC NULLS LAST or, backward, DESC NULLS FIRST.
func indexOrder(p *indexPlan, sort []sql.SortKey) (reverse, ok bool) {
	if len(sort) == 0 || p.inList != nil {
		return false, false
	}
	next := len(p.eq)
	dirSet := false
	for _, k := range sort {
		bound := false
		for i := range p.eq {
			if p.ri.cols[i] == k.Idx {
				bound = true
			}
		}
		if bound {
			continue
		}
		if next >= len(p.ri.cols) || p.ri.cols[next] != k.Idx {
			return false, false
		}
		next++
		desc := k.Desc
		if desc != k.NullsFirst {
			return false, false
		}
		if dirSet && desc != reverse {
			return false, false
		}
		reverse, dirSet = desc, true
	}
	return reverse, true
}

// tidQualFor is tidQual for x.rel's scan, nil with enable_tidscan off.
func (x *execCtx) tidQualFor(where sql.Expr) (val, conj sql.Expr) {
	if !x.planOn(enableTidScan) {
		return nil, nil
	}
	return tidQual(where, len(x.rel.types))
}

// tidQual finds a "ctid = constant" conjunct (ctid is slot ctidIdx) and
// returns the constant and the conjunct.
func tidQual(where sql.Expr, ctidIdx int) (val, conj sql.Expr) {
	for _, c := range conjuncts(where, nil) {
		cmp, ok := c.(*sql.Cmp)
		if !ok || cmp.Op != "=" {
			continue
		}
		for _, pair := range [][2]sql.Expr{{cmp.L, cmp.R}, {cmp.R, cmp.L}} {
			if col, ok := pair[0].(*sql.ColRef); ok && col.Idx == ctidIdx && pair[1].Type().OID == types.TID && isConstExpr(pair[1]) {
				return pair[1], c
			}
		}
	}
	return nil, nil
}

// minMaxSource is PostgreSQL's min/max optimization (planagg.c) for a
// query whose only output is one min(col) or max(col) over x.rel with no
// GROUP BY or HAVING: when an index yields col in order after the WHERE's
// equalities (or leads with col), the aggregate needs only the first row of
// an index scan, forward for min and backward for max, that passes the
// WHERE and has col NOT NULL. It returns that one-row source, or false when
// no index serves the query.
func (x *execCtx) minMaxSource(st *sql.Select) (rowIter, bool, error) {
	if !st.Grouped || len(st.Group) > 0 || st.Having != nil || len(st.Aggs) != 1 || st.ForUpdate ||
		x.rel == nil || x.rel.virtual != nil {
		return nil, false, nil
	}
	agg := st.Aggs[0]
	if (agg.Name != "min" && agg.Name != "max") || agg.Distinct {
		return nil, false, nil
	}
	col, ok := agg.Arg.(*sql.ColRef)
	if !ok || col.Idx >= len(x.rel.types) {
		return nil, false, nil
	}
	if e, _ := x.tidQualFor(st.Where); e != nil {
		return nil, false, nil // ctid = const is one fetch already
	}
	if !x.planOn(enableIndexScan) {
		return nil, false, nil // only an index scan yields col in order
	}
	desc := agg.Name == "max"
	sort := []sql.SortKey{{Idx: col.Idx, Desc: desc, NullsFirst: desc, T: col.T}}
	p := x.indexPlanFor(st.Where, true)
	if p == nil || !orderServed(p, sort) {
		p = nil
		for _, ri := range x.rel.indexes {
			if len(ri.cols) > 0 && ri.cols[0] == col.Idx {
				p = &indexPlan{ri: ri}
				break
			}
		}
		if p == nil {
			return nil, false, nil
		}
	}
	reverse, ok := indexOrder(p, sort)
	if !ok {
		return nil, false, nil
	}
	in, err := x.openIndexScan(p, reverse)
	if err != nil {
		return nil, false, err
	}
	pred := sql.Expr(&sql.IsNull{X: col, Not: true})
	if st.Where != nil {
		pred = &sql.BoolOp{Op: "AND", Args: []sql.Expr{st.Where, pred}}
	}
	return &limitIter{in: &filterIter{in: in, ev: x.ev, pred: pred}, limit: 1}, true, nil
}

// orderServed reports whether scanning p yields rows in sort's order.
func orderServed(p *indexPlan, sort []sql.SortKey) bool {
	_, ok := indexOrder(p, sort)
	return ok
}

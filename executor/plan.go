package executor

import (
	"context"
	"sort"

	"minipg/catalog"
	"minipg/index"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/txn"
	"minipg/types"
)

// execCtx is one statement's execution state.
type execCtx struct {
	ctx  context.Context
	s    *Session
	ev   *evalCtx
	tx   *txn.Txn
	snap *heap.Snapshot
	rel  *relation // nil for SELECT without FROM

	// need, when set, lists the columns of rel a read-only scan must
	// decode (see neededColumns); the others are left NULL in its rows.
	need []bool
	// reuseRows, when set, lets such a scan hand out one row slice over and
	// over: its consumer (filter, then aggregate or projection) keeps
	// values, never the row.
	reuseRows bool
	// needOwner is x itself while need and reuseRows apply: a copy of x
	// (a subquery evaluated while the scan opens) does not inherit them.
	needOwner *execCtx

	xid, cid      uint32 // writes only
	emitReturning func(row []types.Datum)
	pt            *Portal // owner of the relation locks
}

// openRel takes a shared lock on table oid for the rest of the statement
// and returns its open relation.
func (x *execCtx) openRel(oid uint32) (*relation, error) {
	if oid < catalog.FirstNormalObjectID {
		if v := sql.VirtualTableByOID(oid); v != nil {
			return &relation{def: v.Table, types: colTypes(v.Table), virtual: v}, nil
		}
	}
	release, err := x.s.e.txns.LockRelation(x.ctx, oid, false)
	if err != nil {
		return nil, mapCtxErr(x.ctx, err)
	}
	x.pt.release = append(x.pt.release, release)
	return x.s.e.rel(oid)
}

func (pt *Portal) newExecCtx(ctx context.Context, tableOID uint32, write bool) (*execCtx, error) {
	s := pt.s
	tx := s.ensureTx()
	x := &execCtx{ctx: ctx, s: s, tx: tx, ev: &evalCtx{s: s, params: pt.params}, pt: pt}
	x.ev.x = x
	if tableOID != 0 {
		var err error
		if x.rel, err = x.openRel(tableOID); err != nil {
			return nil, err
		}
	}
	x.snap = tx.Snapshot()
	if !pt.active {
		pt.active = true
		s.active++
	}
	if write {
		xid, err := tx.Xid()
		if err != nil {
			return nil, err
		}
		x.xid, x.cid = xid, tx.UseCommandID()
		x.snap.CurXid = xid
	}
	return x, nil
}

// checkEvery is how many rows pass between cancellation checks.
const checkEvery = 256

// seqScan reads every row the snapshot sees.
type seqScan struct {
	x   *execCtx
	sc  *heap.Scan
	dec *decoder
	n   int
}

func (it *seqScan) Next(ctx context.Context) ([]types.Datum, bool, error) {
	it.n++
	if it.n%checkEvery == 0 {
		if err := canceled(ctx); err != nil {
			return nil, false, err
		}
	}
	tid, tup, ok, err := it.sc.Next()
	if err != nil || !ok {
		return nil, false, err
	}
	it.x.countRead(true)
	row, err := it.dec.decode(tup, tid)
	return row, err == nil, err
}

func (it *seqScan) Close() { it.sc.Close() }

// indexScan fetches the rows an index range points to.
type indexScan struct {
	x   *execCtx
	it  *index.Iterator
	dec *decoder
	n   int
}

func (it *indexScan) Next(ctx context.Context) ([]types.Datum, bool, error) {
	for {
		it.n++
		if it.n%checkEvery == 0 {
			if err := canceled(ctx); err != nil {
				return nil, false, err
			}
		}
		_, tid, ok := it.it.Next()
		if !ok {
			return nil, false, nil
		}
		// The entry names the root of a HOT chain; the visible member
		// may be a later version on the same page.
		vtid, tup, ok, err := it.x.rel.heap.FetchHot(it.x.snap, tid)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			continue
		}
		it.x.countRead(false)
		row, err := it.dec.decode(tup, vtid)
		return row, err == nil, err
	}
}

func (it *indexScan) Close() {}

// emptyIter produces nothing.
type emptyIter struct{}

func (emptyIter) Next(context.Context) ([]types.Datum, bool, error) { return nil, false, nil }
func (emptyIter) Close()                                            {}

// filterIter passes rows for which pred is true.
type filterIter struct {
	in   rowIter
	ev   *evalCtx
	pred sql.Expr
}

func (it *filterIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	for {
		row, ok, err := it.in.Next(ctx)
		if err != nil || !ok {
			return nil, false, err
		}
		pass, err := it.ev.evalBool(it.pred, row)
		if err != nil {
			return nil, false, err
		}
		if pass {
			return row, true, nil
		}
	}
}

func (it *filterIter) Close() { it.in.Close() }

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

// isConstExpr reports whether e reads no column.
func isConstExpr(e sql.Expr) bool {
	ok := true
	sql.Walk(e, func(x sql.Expr) {
		switch x.(type) {
		case *sql.ColRef, *sql.Agg:
			ok = false
		case *sql.Func:
			if x.(*sql.Func).Name == "now" {
				return
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
	list []sql.Expr // op "in"
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
		out = append(out, colBound{col: col.Idx, op: op, val: r})
	}
	return out
}

func intKind(o types.OID) bool { return o == types.Int2 || o == types.Int4 || o == types.Int8 }
func strKind(o types.OID) bool { return o == types.Text || o == types.Varchar }

// indexPlan is a chosen index range.
type indexPlan struct {
	ri     *relIndex
	eq     []sql.Expr // equality values for the leading columns
	inPos  int        // with inList: the leading column given by a list
	inList []sql.Expr // col IN (list): one lookup per distinct value
	lo, hi sql.Expr   // range on the next column (nil: open)
	loIncl bool
	hiIncl bool
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
					break
				}
			}
			if eq == nil && p.inList == nil {
				for _, b := range bounds {
					if b.col == c && b.op == "in" {
						p.inPos, p.inList = len(p.eq), b.list
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

// openIndexScan evaluates the plan's values and opens the range (one range
// per distinct IN value).
func (x *execCtx) openIndexScan(p *indexPlan, reverse bool) (rowIter, error) {
	x.countIdxScan()
	prefix := make(index.Key, len(p.eq))
	for i, e := range p.eq {
		if p.inList != nil && i == p.inPos {
			continue
		}
		v, err := x.ev.eval(e, nil)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return emptyIter{}, nil
		}
		if prefix[i], err = keyValue(p.ri.types[i], e.Type(), v); err != nil {
			return nil, err
		}
	}
	if p.inList == nil {
		return x.openRange(p, prefix, reverse)
	}
	t := p.ri.types[p.inPos]
	var vals []types.Datum
	for _, e := range p.inList {
		v, err := x.ev.eval(e, nil)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue
		}
		if v, err = keyValue(t, e.Type(), v); err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	sort.Slice(vals, func(i, j int) bool { return types.Compare(t, vals[i], vals[j]) < 0 })
	its := &multiIter{}
	for i, v := range vals {
		if i > 0 && types.Compare(t, vals[i-1], v) == 0 {
			continue
		}
		k := append(index.Key(nil), prefix...)
		k[p.inPos] = v
		it, err := x.openRange(p, k, reverse)
		if err != nil {
			return nil, err
		}
		its.its = append(its.its, it)
	}
	return its, nil
}

// openRange opens the index range: entries starting with prefix, limited by
// the plan's range on the next column.
func (x *execCtx) openRange(p *indexPlan, prefix index.Key, reverse bool) (rowIter, error) {
	lo, hi := index.Unbounded, index.Unbounded
	if len(prefix) > 0 {
		lo, hi = index.Incl(prefix), index.Incl(prefix)
	}
	k := len(prefix)
	if p.lo != nil {
		v, err := x.ev.eval(p.lo, nil)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return emptyIter{}, nil
		}
		if v, err = keyValue(p.ri.types[k], p.lo.Type(), v); err != nil {
			return nil, err
		}
		key := append(append(index.Key{}, prefix...), v)
		lo = index.Bound{Key: key, Inclusive: p.loIncl}
	}
	if p.hi != nil {
		v, err := x.ev.eval(p.hi, nil)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return emptyIter{}, nil
		}
		if v, err = keyValue(p.ri.types[k], p.hi.Type(), v); err != nil {
			return nil, err
		}
		key := append(append(index.Key{}, prefix...), v)
		hi = index.Bound{Key: key, Inclusive: p.hiIncl}
	}
	return &indexScan{x: x, it: p.ri.ix.NewIterator(lo, hi, reverse), dec: x.scanDecoder()}, nil
}

// multiIter concatenates iterators.
type multiIter struct {
	its []rowIter
	i   int
}

func (it *multiIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	for it.i < len(it.its) {
		row, ok, err := it.its[it.i].Next(ctx)
		if err != nil || ok {
			return row, ok, err
		}
		it.i++
	}
	return nil, false, nil
}

func (it *multiIter) Close() {
	for _, c := range it.its {
		c.Close()
	}
}

// keyValue converts a comparison value to the index column's type.
func keyValue(colT, valT types.T, v types.Datum) (types.Datum, error) {
	if colT.OID == valT.OID || (intKind(colT.OID) && intKind(valT.OID)) {
		return v, nil
	}
	return types.Coerce(v, valT, types.T{OID: colT.OID, Typmod: -1}, false)
}

// scanDecoder returns a decoder for a scan of x.rel that decodes the
// columns in x.need (all when nil).
func (x *execCtx) scanDecoder() *decoder {
	d := newDecoder(x.rel)
	if x.needOwner == x {
		d.need, d.reuse = x.need, x.reuseRows
	}
	return d
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
	mark(st.Having)
	for _, e := range st.Group {
		mark(e)
	}
	for _, a := range st.Aggs {
		mark(a.Arg)
	}
	for _, e := range st.Targets {
		mark(e)
	}
	for _, n := range need {
		all = all && n
	}
	if all {
		return nil
	}
	return need
}

// source returns the rows of x.rel that satisfy where (an index range when
// one applies, else a sequential scan), filtered by where.
func (x *execCtx) source(where sql.Expr) (rowIter, error) {
	it, _, err := x.orderedSource(where, nil)
	return it, err
}

// orderedSource is source that also tries to return rows in the order of
// sort (keys over the scan row's columns); sorted reports success, in which
// case the caller need not sort.
func (x *execCtx) orderedSource(where sql.Expr, sort []sql.SortKey) (it rowIter, sorted bool, err error) {
	var in rowIter
	if v := x.rel.virtual; v != nil {
		rows, err := v.Rows(x.s.e)
		if err != nil {
			return nil, false, err
		}
		for i, r := range rows {
			rows[i] = append(r[:len(x.rel.types):len(x.rel.types)], nil) // no ctid
		}
		in = &sliceIter{rows: rows}
	} else if e := tidQual(where, len(x.rel.types)); e != nil {
		// ctid = const: fetch that one version.
		v, err := x.ev.eval(e, nil)
		if err != nil {
			return nil, false, err
		}
		in = &tidScan{x: x, tid: v}
	} else if p := chooseIndex(x.rel, where); p != nil {
		reverse, ok := indexOrder(p, sort)
		it, err := x.openIndexScan(p, reverse)
		if err != nil {
			return nil, false, err
		}
		in, sorted = it, ok
	} else {
		x.countSeqScan()
		in = &seqScan{x: x, sc: x.rel.heap.NewScan(x.snap), dec: x.scanDecoder()}
	}
	if where == nil {
		return in, sorted, nil
	}
	return &filterIter{in: in, ev: x.ev, pred: where}, sorted, nil
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

// tidQual finds a "ctid = constant" conjunct (ctid is slot ctidIdx).
func tidQual(where sql.Expr, ctidIdx int) sql.Expr {
	for _, c := range conjuncts(where, nil) {
		cmp, ok := c.(*sql.Cmp)
		if !ok || cmp.Op != "=" {
			continue
		}
		for _, pair := range [][2]sql.Expr{{cmp.L, cmp.R}, {cmp.R, cmp.L}} {
			if col, ok := pair[0].(*sql.ColRef); ok && col.Idx == ctidIdx && pair[1].Type().OID == types.TID && isConstExpr(pair[1]) {
				return pair[1]
			}
		}
	}
	return nil
}

// tidScan returns the version at one TID if the snapshot sees it.
type tidScan struct {
	x    *execCtx
	tid  types.Datum
	done bool
}

func (it *tidScan) Next(context.Context) ([]types.Datum, bool, error) {
	if it.done || it.tid == nil {
		return nil, false, nil
	}
	it.done = true
	tid := it.tid.(page.TID)
	tup, ok, err := it.x.rel.heap.Fetch(it.x.snap, tid)
	if err != nil || !ok {
		return nil, false, err
	}
	row, err := newDecoder(it.x.rel).decode(tup, tid)
	return row, err == nil, err
}

func (it *tidScan) Close() {}

// oneRow is the single empty row of a SELECT without FROM.
type oneRow struct{ done bool }

func (it *oneRow) Next(context.Context) ([]types.Datum, bool, error) {
	if it.done {
		return nil, false, nil
	}
	it.done = true
	return []types.Datum{}, true, nil
}
func (it *oneRow) Close() {}

// projectIter evaluates targets over each input row.
type projectIter struct {
	in      rowIter
	ev      *evalCtx
	targets []sql.Expr
}

func (it *projectIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	row, ok, err := it.in.Next(ctx)
	if err != nil || !ok {
		return nil, false, err
	}
	out := make([]types.Datum, len(it.targets))
	for i, t := range it.targets {
		if out[i], err = it.ev.eval(t, row); err != nil {
			return nil, false, err
		}
	}
	return out, true, nil
}

func (it *projectIter) Close() { it.in.Close() }

// trimIter cuts rows to their first n values (drops sort-only columns).
type trimIter struct {
	in rowIter
	n  int
}

func (it *trimIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	row, ok, err := it.in.Next(ctx)
	if err != nil || !ok {
		return nil, false, err
	}
	return row[:it.n], true, nil
}
func (it *trimIter) Close() { it.in.Close() }

// limitIter skips offset rows and stops after limit (-1: none).
type limitIter struct {
	in            rowIter
	offset, limit int64
	seen          int64
}

func (it *limitIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	for it.offset > 0 {
		_, ok, err := it.in.Next(ctx)
		if err != nil || !ok {
			return nil, false, err
		}
		it.offset--
	}
	if it.limit >= 0 && it.seen >= it.limit {
		return nil, false, nil
	}
	row, ok, err := it.in.Next(ctx)
	if err != nil || !ok {
		return nil, false, err
	}
	it.seen++
	return row, true, nil
}
func (it *limitIter) Close() { it.in.Close() }

// distinctIter drops rows equal (on the first n values) to an earlier one.
type distinctIter struct {
	in    rowIter
	n     int
	typs  []types.T
	seen  map[string]struct{}
	keybf []byte
}

func (it *distinctIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	for {
		row, ok, err := it.in.Next(ctx)
		if err != nil || !ok {
			return nil, false, err
		}
		it.keybf = it.keybf[:0]
		for i := 0; i < it.n; i++ {
			it.keybf = appendKeyNull(it.keybf, it.typs[i], row[i])
		}
		if _, dup := it.seen[string(it.keybf)]; dup {
			continue
		}
		it.seen[string(it.keybf)] = struct{}{}
		return row, true, nil
	}
}
func (it *distinctIter) Close() { it.in.Close() }

// appendKeyNull encodes a value (NULLs equal to each other) for hashing.
func appendKeyNull(buf []byte, t types.T, d types.Datum) []byte {
	if d == nil {
		return append(buf, 0)
	}
	buf = append(buf, 1)
	return types.AppendKey(buf, t, d)
}

// sortIter materializes its input and hands it out sorted.
type sortIter struct {
	in   rowIter
	keys []sql.SortKey
	rows [][]types.Datum
	i    int
	done bool
}

func compareRows(keys []sql.SortKey, a, b []types.Datum) int {
	for _, k := range keys {
		x, y := a[k.Idx], b[k.Idx]
		var c int
		switch {
		case x == nil && y == nil:
			c = 0
		case x == nil:
			c = 1
			if k.NullsFirst {
				c = -1
			}
			if k.Desc {
				c = -c
			}
		case y == nil:
			c = -1
			if k.NullsFirst {
				c = 1
			}
			if k.Desc {
				c = -c
			}
		default:
			c = types.Compare(k.T, x, y)
		}
		if c != 0 {
			if k.Desc {
				return -c
			}
			return c
		}
	}
	return 0
}

func (it *sortIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	if !it.done {
		for {
			row, ok, err := it.in.Next(ctx)
			if err != nil {
				return nil, false, err
			}
			if !ok {
				break
			}
			it.rows = append(it.rows, row)
		}
		it.done = true
		if err := canceled(ctx); err != nil {
			return nil, false, err
		}
		sort.SliceStable(it.rows, func(i, j int) bool { return compareRows(it.keys, it.rows[i], it.rows[j]) < 0 })
	}
	if it.i >= len(it.rows) {
		return nil, false, nil
	}
	it.i++
	return it.rows[it.i-1], true, nil
}
func (it *sortIter) Close() { it.in.Close() }

// lockIter locks each row (SELECT ... FOR UPDATE), following updates to the
// newest version and rechecking where on it.
type lockIter struct {
	in    rowIter
	x     *execCtx
	where sql.Expr
}

func (it *lockIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	for {
		row, ok, err := it.in.Next(ctx)
		if err != nil || !ok {
			return nil, false, err
		}
		row, ok, err = it.x.lockRow(row, it.where)
		if err != nil {
			return nil, false, err
		}
		if ok {
			return row, true, nil
		}
	}
}
func (it *lockIter) Close() { it.in.Close() }

// evalLimit evaluates a LIMIT/OFFSET expression (-1 for none/NULL).
func (x *execCtx) evalLimit(e sql.Expr, what string) (int64, error) {
	if e == nil {
		return -1, nil
	}
	v, err := x.ev.eval(e, nil)
	if err != nil {
		return 0, err
	}
	if v == nil {
		return -1, nil
	}
	n := v.(int64)
	if n < 0 {
		if what == "OFFSET" {
			return 0, pgerr.New(pgerr.Code("2201X"), "OFFSET must not be negative")
		}
		return 0, pgerr.New(pgerr.Code("2201W"), "LIMIT must not be negative")
	}
	return n, nil
}

// startSelect builds the SELECT pipeline:
// source -> filter -> [lock] -> [aggregate -> having] -> project -> [distinct] -> [sort] -> [limit] -> trim.
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
	pt.rows = it
	pt.tagFn = func(n int64) string { return "SELECT " + itoa(n) }
	return nil
}

// buildSelect builds st's pipeline over x.rel.
func (x *execCtx) buildSelect(st *sql.Select) (rowIter, error) {
	var it rowIter
	var err error
	sorted := false
	if len(st.From) > 1 {
		if it, err = x.joinSource(st); err != nil {
			return nil, err
		}
	} else if x.rel != nil {
		// Sort keys that are plain columns may be served by index order.
		var scanSort []sql.SortKey
		if !st.Grouped && !st.Distinct {
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
		if !st.ForUpdate {
			x.need = neededColumns(st, len(x.rel.types))
			x.reuseRows, x.needOwner = true, x
		}
		it, sorted, err = x.orderedSource(st.Where, scanSort)
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
		it = &aggIter{in: it, ev: x.ev, st: st}
		if st.Having != nil {
			it = &filterIter{in: it, ev: x.ev, pred: st.Having}
		}
	}
	it = &projectIter{in: it, ev: x.ev, targets: st.Targets}
	if st.Distinct {
		typs := make([]types.T, st.NVisible)
		for i := range typs {
			typs[i] = st.Targets[i].Type()
		}
		it = &distinctIter{in: it, n: st.NVisible, typs: typs, seen: map[string]struct{}{}}
	}
	if len(st.Sort) > 0 && !sorted {
		it = &sortIter{in: it, keys: st.Sort}
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

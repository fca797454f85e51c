package executor

// Scan iterators: the leaves of a plan. A sequential scan, an index range
// scan (and a union of ranges for IN lists), a fetch by ctid, the single
// empty row of SELECT without FROM, and no rows at all.

import (
	"context"
	"slices"
	"sort"

	"minipg/index"
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/types"
)

// seqScan reads every row the snapshot sees.
type seqScan struct {
	x    *execCtx
	sc   *heap.Scan
	dec  *decoder
	n    int
	read int64 // rows returned, counted in the table's statistics at Close
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
	it.read++
	row, err := it.dec.decode(tup, tid)
	return row, err == nil, err
}

func (it *seqScan) Close() {
	it.sc.Close()
	it.x.countRead(true, it.read)
	it.read = 0
}

// indexScan fetches the rows an index range points to.
type indexScan struct {
	x    *execCtx
	it   indexIterator
	dec  *decoder
	n    int
	read int64 // rows fetched, counted in the table's statistics at Close
	// open makes a fresh iterator over the same range (peekBlocks).
	open func() indexIterator
	// fetch keeps the last heap block pinned between entries; released
	// when the range ends and at Close.
	fetch *heap.IndexFetcher
	tup   []byte // the last tuple fetched (see Next)
	// plan and reverse are what the scan runs (EXPLAIN).
	plan    *indexPlan
	reverse bool
}

// blockPeeker is a row source that can tell, before it is read, the heap
// blocks of the rows it will return, in order (an index range scan).
type blockPeeker interface {
	// peekBlocks returns the distinct blocks of the source's index
	// entries, in scan order, and false if it has more than limit entries
	// (blocks is then nil).
	peekBlocks(limit int) (blocks []uint32, ok bool)
}

func (it *indexScan) peekBlocks(limit int) ([]uint32, bool) {
	var out []uint32
	ahead := it.open()
	for n := 0; ; n++ {
		tid, ok := ahead.Next()
		if !ok {
			if ahead.Err() != nil {
				return nil, false // the scan itself will report it
			}
			return out, true
		}
		if n == limit {
			return nil, false
		}
		if !slices.Contains(out, tid.Block) {
			out = append(out, tid.Block)
		}
	}
}

func (it *multiIter) peekBlocks(limit int) ([]uint32, bool) {
	var out []uint32
	for _, in := range it.its[it.i:] {
		bp, ok := in.(blockPeeker)
		if !ok {
			return nil, false
		}
		blocks, ok := bp.peekBlocks(limit)
		if !ok {
			return nil, false
		}
		for _, b := range blocks {
			if !slices.Contains(out, b) {
				out = append(out, b)
			}
		}
	}
	return out, true
}

func (it *filterIter) peekBlocks(limit int) ([]uint32, bool) {
	if bp, ok := it.in.(blockPeeker); ok {
		return bp.peekBlocks(limit)
	}
	return nil, false
}

func (it *indexScan) Next(ctx context.Context) ([]types.Datum, bool, error) {
	for {
		it.n++
		if it.n%checkEvery == 0 {
			if err := canceled(ctx); err != nil {
				return nil, false, err
			}
		}
		tid, ok := it.it.Next()
		if !ok {
			it.release()
			return nil, false, it.it.Err()
		}
		// The entry names the root of a HOT chain; the visible member
		// may be a later version on the same page.
		if it.fetch == nil {
			it.fetch = it.x.rel.heap.NewIndexFetcher()
			if d, ok := it.it.(entryDeleter); ok {
				it.fetch.SetOnDead(d.DeleteLast)
			}
		}
		// The decoded row copies what it keeps out of the tuple, so
		// each fetch reuses the previous one's buffer.
		vtid, tup, ok, err := it.fetch.FetchInto(it.x.snap, tid, it.tup)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			continue
		}
		it.tup = tup
		it.read++
		row, err := it.dec.decode(tup, vtid)
		return row, err == nil, err
	}
}

func (it *indexScan) Close() {
	it.release()
	if c, ok := it.it.(scanCloser); ok {
		c.Close()
	}
	it.x.countRead(false, it.read)
	it.read = 0
}

func (it *indexScan) release() {
	if it.fetch != nil {
		it.fetch.Release()
	}
}

// emptyIter produces nothing.
type emptyIter struct{}

func (emptyIter) Next(context.Context) ([]types.Datum, bool, error) { return nil, false, nil }

func (emptyIter) Close() {}

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
	if p.inSub != nil {
		res, err := x.ev.runSubquery(p.inSub)
		if err != nil {
			return nil, err
		}
		for _, v := range res.vals {
			if v, err = keyValue(t, p.inSub.CT, v); err != nil {
				return nil, err
			}
			vals = append(vals, v)
		}
	}
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
	ix := p.ri.ix
	return &indexScan{x: x, it: ix.NewIterator(lo, hi, reverse), dec: x.scanDecoder(), plan: p, reverse: reverse,
		open: func() indexIterator { return ix.NewIterator(lo, hi, reverse) }}, nil
}

// uniqueLookup reports whether src returns at most one row, found by
// equality on every column of a unique index (an UPDATE by primary key).
func uniqueLookup(src rowIter) bool {
	if f, ok := src.(*filterIter); ok {
		src = f.in
	}
	it, ok := src.(*indexScan)
	if !ok || it.plan == nil {
		return false
	}
	p := it.plan
	return p.ri.def.Unique && len(p.eq) == len(p.ri.cols) && p.inList == nil && p.inSub == nil
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
	d.ints = &x.s.ints
	return d
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

package executor

import (
	"reflect"

	"minipg/sql"
)

// pgQsort sorts a window's rows as PostgreSQL's tuplesort sorts them in
// memory (src/include/lib/sort_template.h, Bentley and McIlroy's
// quicksort with a presorted check): not a stable sort, so that rows the
// window's keys do not order (ties) come out in the order PostgreSQL
// gives them for the same input order.
func pgQsort(a []int, cmp func(x, y int) int) {
	c := func(i, j int) int { return cmp(a[i], a[j]) }
	swap := func(i, j int) { a[i], a[j] = a[j], a[i] }
	swapn := func(i, j, n int) {
		for k := 0; k < n; k++ {
			swap(i+k, j+k)
		}
	}
	med3 := func(x, y, z int) int {
		if c(x, y) < 0 {
			if c(y, z) < 0 {
				return y
			}
			if c(x, z) < 0 {
				return z
			}
			return x
		}
		if c(y, z) > 0 {
			return y
		}
		if c(x, z) < 0 {
			return x
		}
		return z
	}
	var sortRange func(lo, n int)
	sortRange = func(lo, n int) {
		for {
			if n < 7 {
				for pm := lo + 1; pm < lo+n; pm++ {
					for pl := pm; pl > lo && c(pl-1, pl) > 0; pl-- {
						swap(pl, pl-1)
					}
				}
				return
			}
			presorted := true
			for pm := lo + 1; pm < lo+n; pm++ {
				if c(pm-1, pm) > 0 {
					presorted = false
					break
				}
			}
			if presorted {
				return
			}
			pm := lo + n/2
			if n > 7 {
				pl, pn := lo, lo+n-1
				if n > 40 {
					d := n / 8
					pl = med3(pl, pl+d, pl+2*d)
					pm = med3(pm-d, pm, pm+d)
					pn = med3(pn-2*d, pn-d, pn)
				}
				pm = med3(pl, pm, pn)
			}
			swap(lo, pm)
			pa, pb := lo+1, lo+1
			pc, pd := lo+n-1, lo+n-1
			for {
				for pb <= pc {
					r := c(pb, lo)
					if r > 0 {
						break
					}
					if r == 0 {
						swap(pa, pb)
						pa++
					}
					pb++
				}
				for pb <= pc {
					r := c(pc, lo)
					if r < 0 {
						break
					}
					if r == 0 {
						swap(pc, pd)
						pd--
					}
					pc--
				}
				if pb > pc {
					break
				}
				swap(pb, pc)
				pb++
				pc--
			}
			pn := lo + n
			d1 := min(pa-lo, pb-pa)
			swapn(lo, pb-d1, d1)
			d1 = min(pd-pc, pn-pd-1)
			swapn(pb, pn-d1, d1)
			d1, d2 := pb-pa, pd-pc
			if d1 <= d2 {
				if d1 > 1 {
					sortRange(lo, d1)
				}
				if d2 <= 1 {
					return
				}
				lo, n = pn-d2, d2
			} else {
				if d2 > 1 {
					sortRange(pn-d2, d2)
				}
				if d1 <= 1 {
					return
				}
				n = d1
			}
		}
	}
	sortRange(0, len(a))
}

// winSortKey is one key of the sort a window needs: an expression of
// the window's PARTITION BY (ascending, NULLs last) or ORDER BY, and its
// position among the window's key values.
type winSortKey struct {
	x                sql.Expr
	desc, nullsFirst bool
	idx              int
}

func (k winSortKey) same(o winSortKey) bool {
	return k.desc == o.desc && k.nullsFirst == o.nullsFirst && reflect.DeepEqual(k.x, o.x)
}

// winSortStep is how the rows are sorted for one window: by keys, of
// which the first presorted already order the rows (the previous sort's);
// sort is false when the rows are in the window's order already.
type winSortStep struct {
	keys      []winSortKey
	presorted int
	sort      bool
}

// windowSortSteps plans the sorts of st's windows as PostgreSQL's
// create_one_window_path does: a window whose keys (an item repeated in
// ORDER BY after PARTITION BY counts once) lead the rows' current order
// needs no sort; one that shares a first part with it gets an incremental
// sort; any other a full sort.
func windowSortSteps(st *sql.Select) []winSortStep {
	var steps []winSortStep
	var current []winSortKey
	for _, w := range st.Windows {
		var keys []winSortKey
		add := func(k winSortKey) {
			for _, o := range keys {
				if reflect.DeepEqual(o.x, k.x) {
					return
				}
			}
			keys = append(keys, k)
		}
		for i, p := range w.Partition {
			add(winSortKey{x: p, idx: i})
		}
		for i, o := range w.Order {
			add(winSortKey{x: o.X, desc: o.Desc, nullsFirst: o.NullsFirst, idx: len(w.Partition) + i})
		}
		pre := 0
		for pre < len(keys) && pre < len(current) && keys[pre].same(current[pre]) {
			pre++
		}
		step := winSortStep{keys: keys, presorted: pre, sort: pre < len(keys)}
		if step.sort {
			current = keys
		}
		steps = append(steps, step)
	}
	return steps
}

// sortKeys are the step's keys as sort keys over a window's key values.
func (s winSortStep) sortKeys() []sql.SortKey {
	out := make([]sql.SortKey, len(s.keys))
	for i, k := range s.keys {
		out[i] = sql.SortKey{Idx: k.idx, Desc: k.desc, NullsFirst: k.nullsFirst, T: k.x.Type()}
	}
	return out
}

// Incremental sort's batch sizes (nodeIncrementalSort.c).
const (
	incsortMinGroup     = 32
	incsortMaxFullGroup = 2 * incsortMinGroup
)

// pgIncrementalSort orders a (row numbers in their current order, already
// sorted by the first presorted keys) as PostgreSQL's incremental sort
// does: batches of at least 32 rows that end where the presorted keys
// change are sorted by all the keys, and a batch that grows past 64 rows
// switches to sorting each group of equal presorted keys by the other
// keys only. cmp compares by all keys, cmpSuffix by the others, same
// reports equal presorted keys.
func pgIncrementalSort(a []int, cmp, cmpSuffix func(x, y int) int, same func(x, y int) bool) []int {
	const (
		loadFull = iota
		loadPrefix
		readFull
		readPrefix
	)
	out := make([]int, 0, len(a))
	pos := 0
	gp, transfer := -1, -1 // the group pivot (or carried row) and the transfer row
	status := loadFull
	outerDone := false
	var full, prefix []int
	fsIdx, nFullRemaining := 0, 0
	switchToPrefix := func() {
		prefix = prefix[:0]
		k := 0
		for ; k < nFullRemaining; k++ {
			if k == 0 && transfer >= 0 {
				prefix = append(prefix, transfer)
				gp = transfer
				continue
			}
			transfer = full[fsIdx]
			fsIdx++
			if gp < 0 {
				gp = transfer
			}
			if !same(gp, transfer) {
				gp = -1
				break
			}
			prefix = append(prefix, transfer)
		}
		nFullRemaining -= k
		if nFullRemaining == 0 {
			gp, transfer = transfer, -1
			status = loadPrefix
			return
		}
		pgQsort(prefix, cmpSuffix)
		status = readPrefix
	}
	for {
		switch status {
		case loadFull:
			full, fsIdx = nil, 0
			n := 0
			if gp >= 0 {
				full = append(full, gp)
				n++
				if n != incsortMinGroup {
					gp = -1
				}
			}
			for {
				if pos == len(a) {
					outerDone = true
					pgQsort(full, cmp)
					status = readFull
					break
				}
				t := a[pos]
				pos++
				if n < incsortMinGroup {
					full = append(full, t)
					n++
					if n == incsortMinGroup {
						gp = t
					}
				} else if same(gp, t) {
					full = append(full, t)
					n++
				} else {
					gp = t
					pgQsort(full, cmp)
					status = readFull
					break
				}
				if n > incsortMaxFullGroup {
					gp = -1
					pgQsort(full, cmp)
					nFullRemaining = n
					switchToPrefix()
					break
				}
			}
		case loadPrefix:
			for {
				if pos == len(a) {
					outerDone = true
					break
				}
				t := a[pos]
				pos++
				if !same(gp, t) {
					gp = t
					break
				}
				prefix = append(prefix, t)
			}
			pgQsort(prefix, cmpSuffix)
			status = readPrefix
		case readFull, readPrefix:
			if status == readFull {
				out = append(out, full[fsIdx:]...)
			} else {
				out = append(out, prefix...)
			}
			switch {
			case outerDone:
				return out
			case nFullRemaining > 0:
				switchToPrefix()
			default:
				status = loadFull
			}
		}
	}
}

package executor

// ORDER BY and DISTINCT: a materializing stable sort with PostgreSQL's NULL
// ordering, and duplicate removal by hashing the visible columns.

import (
	"context"
	"sort"

	"minipg/sql"
	"minipg/types"
)

// distinctIter drops rows equal (on the first n values) to an earlier one.
type distinctIter struct {
	in    rowIter
	mem   *memAccount
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
		if err := it.mem.charge(int64(len(it.keybf) + 48)); err != nil {
			return nil, false, err
		}
		return row, true, nil
	}
}

func (it *distinctIter) Close() { it.in.Close() }

// uniqueOnIter is SELECT DISTINCT ON's Unique node: of rows sorted by
// cols first, it keeps the first of each run equal on cols (NULLs equal).
type uniqueOnIter struct {
	in   rowIter
	cols []int
	typs []types.T
	prev []types.Datum // the kept row's values of cols; nil before the first
}

func (it *uniqueOnIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	for {
		row, ok, err := it.in.Next(ctx)
		if err != nil || !ok {
			return nil, false, err
		}
		if it.prev != nil && it.same(row) {
			continue
		}
		if it.prev == nil {
			it.prev = make([]types.Datum, len(it.cols))
		}
		for i, c := range it.cols {
			it.prev[i] = row[c]
		}
		return row, true, nil
	}
}

func (it *uniqueOnIter) same(row []types.Datum) bool {
	for i, c := range it.cols {
		a, b := it.prev[i], row[c]
		if (a == nil) != (b == nil) || a != nil && types.Compare(it.typs[i], a, b) != 0 {
			return false
		}
	}
	return true
}

func (it *uniqueOnIter) Close() { it.in.Close() }

// appendKeyNull encodes a value (NULLs equal to each other) for hashing.
func appendKeyNull(buf []byte, t types.T, d types.Datum) []byte {
	if d == nil {
		return append(buf, 0)
	}
	buf = append(buf, 1)
	return types.AppendKey(buf, t, d)
}

// sortIter materializes its input and hands it out sorted. Past workMem
// bytes of rows it sorts what it holds into a run on disk (spill.go) and
// goes on; at the end it merges the runs and the rows still in memory, as
// PostgreSQL's tuplesort does past work_mem.
type sortIter struct {
	in   rowIter
	keys []sql.SortKey
	rows [][]types.Datum
	i    int
	done bool

	typs    []types.T // every column's type, to write runs
	workMem int64     // 0: never spill
	tmpDir  string
	bytes   int64
	spill   *spillSet
	peak    int64 // most bytes of rows held at once (EXPLAIN ANALYZE)
	spilled int64 // bytes written to runs
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
			if it.workMem <= 0 {
				it.peak += rowSize(row)
				continue
			}
			it.bytes += rowSize(row)
			it.peak = max(it.peak, it.bytes)
			if it.bytes > it.workMem && len(it.rows) > 1 {
				if err := it.spillRun(ctx); err != nil {
					return nil, false, err
				}
			}
		}
		it.done = true
		if err := canceled(ctx); err != nil {
			return nil, false, err
		}
		it.sortRows()
		if it.spill != nil {
			if err := it.spill.startMerge(it.rows); err != nil {
				return nil, false, err
			}
			it.rows = nil
		}
	}
	if it.spill != nil {
		return it.spill.next(ctx)
	}
	if it.i >= len(it.rows) {
		return nil, false, nil
	}
	it.i++
	return it.rows[it.i-1], true, nil
}

func (it *sortIter) sortRows() {
	sort.SliceStable(it.rows, func(i, j int) bool { return compareRows(it.keys, it.rows[i], it.rows[j]) < 0 })
}

// spillRun sorts the rows held and writes them as a run.
func (it *sortIter) spillRun(ctx context.Context) error {
	if err := canceled(ctx); err != nil {
		return err
	}
	if it.spill == nil {
		it.spill = newSpillSet(it.tmpDir, it.typs, it.keys)
	}
	it.sortRows()
	n, err := it.spill.writeRun(it.rows)
	if err != nil {
		return err
	}
	it.spilled += n
	clear(it.rows)
	it.rows, it.bytes = it.rows[:0], 0
	return nil
}

func (it *sortIter) Close() {
	it.in.Close()
	if it.spill != nil {
		it.spill.close()
		it.spill = nil
	}
}

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

package executor

// LIMIT/OFFSET and SELECT ... FOR UPDATE: the iterators above the sort.

import (
	"context"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

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

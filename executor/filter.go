package executor

// Filter and projection: the iterators that drop rows failing a predicate
// (WHERE, HAVING), compute the target list, and cut the hidden sort columns
// off the output.

import (
	"context"

	"minipg/sql"
	"minipg/types"
)

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

// projectIter evaluates targets over each input row.
type projectIter struct {
	in      rowIter
	ev      *evalCtx
	targets []sql.Expr
	// reuse: Next returns the same row slice each time (its consumer
	// keeps no row past the next call; see reuseOutputRow).
	reuse bool
	out   []types.Datum
}

func (it *projectIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	row, ok, err := it.in.Next(ctx)
	if err != nil || !ok {
		return nil, false, err
	}
	var out []types.Datum
	if it.reuse {
		if it.out == nil {
			it.out = make([]types.Datum, len(it.targets))
		}
		out = it.out
	} else {
		out = make([]types.Datum, len(it.targets))
	}
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

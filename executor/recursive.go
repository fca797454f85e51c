package executor

// WITH RECURSIVE: the recursive union of a recursive CTE's query
// (sql.SetOpRecursive), evaluated as PostgreSQL's nodeRecursiveunion does.
// The non-recursive term's rows are handed out and kept as the work table;
// then the recursive term runs over the work table, its rows handed out
// and kept as the next work table, until a round produces no rows. Rows
// stream: a LIMIT above stops the rounds. With UNION (no ALL) a row
// already produced is dropped (NULLs equal), so the rounds end once no
// new row appears.

import (
	"context"

	"minipg/sql"
	"minipg/types"
)

// recursiveIter hands out the rows of a recursive union round by round.
type recursiveIter struct {
	x     *execCtx // its work map holds this union's work table
	st    *sql.Select
	in    rowIter             // the running term; nil when done
	round [][]types.Datum     // the rows the running term produced so far
	held  int64               // bytes of the work table being read and of round
	seen  map[string]struct{} // UNION: the rows produced, by key
	typs  []types.T
	key   []byte
}

// recursiveUnion starts the recursive union st: its non-recursive term
// runs first.
func (x *execCtx) recursiveUnion(st *sql.Select) (rowIter, error) {
	rx := *x
	rx.work = make(map[int][][]types.Datum, len(x.work)+1)
	for k, v := range x.work {
		rx.work[k] = v
	}
	in, err := rx.subSelect(st.Union[0])
	if err != nil {
		return nil, err
	}
	it := &recursiveIter{x: &rx, st: st, in: in}
	if !st.UnionAll {
		it.seen = map[string]struct{}{}
		for _, e := range st.Union[0].Targets[:st.NVisible] {
			it.typs = append(it.typs, e.Type()) // the terms' rows' types
		}
	}
	return it, nil
}

func (it *recursiveIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	n := it.st.NVisible
	for it.in != nil {
		row, ok, err := it.in.Next(ctx)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			if err := it.nextRound(ctx); err != nil {
				return nil, false, err
			}
			continue
		}
		if it.seen != nil {
			it.key = it.key[:0]
			for i := 0; i < n; i++ {
				it.key = appendKeyNull(it.key, it.typs[i], row[i])
			}
			if _, dup := it.seen[string(it.key)]; dup {
				continue
			}
			it.seen[string(it.key)] = struct{}{}
			if err := it.x.s.mem.charge(int64(len(it.key)) + 48); err != nil {
				return nil, false, err
			}
		}
		row = append([]types.Datum(nil), row[:n]...)
		sz := rowSize(row)
		if err := it.x.s.mem.charge(sz); err != nil {
			return nil, false, err
		}
		it.held += sz
		it.round = append(it.round, row)
		return row, true, nil
	}
	return nil, false, nil
}

// nextRound ends the running term: the rows it produced become the work
// table and the recursive term starts over them, or, when it produced
// none, the union is done.
func (it *recursiveIter) nextRound(ctx context.Context) error {
	it.in.Close()
	it.in = nil
	// The work table just read is no longer needed.
	var old int64
	for _, r := range it.x.work[it.st.WorkTable] {
		old += rowSize(r)
	}
	it.x.s.mem.release(old)
	it.held -= old
	if len(it.round) == 0 {
		delete(it.x.work, it.st.WorkTable)
		return nil
	}
	if err := canceled(ctx); err != nil {
		return err
	}
	it.x.work[it.st.WorkTable] = it.round
	it.round = nil
	in, err := it.x.subSelect(it.st.Union[1])
	if err != nil {
		return err
	}
	it.in = in
	return nil
}

func (it *recursiveIter) Close() {
	if it.in != nil {
		it.in.Close()
		it.in = nil
	}
	it.x.s.mem.release(it.held)
	it.held = 0
}

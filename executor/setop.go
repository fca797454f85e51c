package executor

// INTERSECT and EXCEPT: the rows of the two arms counted per distinct row,
// as PostgreSQL's nodeSetOp counts them (hashed: one entry per distinct row
// of the left arm, NULLs equal to each other).

import (
	"context"

	"minipg/sql"
	"minipg/types"
)

// setOpIter hands out the result of an INTERSECT or EXCEPT, computed at
// the first Next (so that EXPLAIN without ANALYZE runs neither arm).
type setOpIter struct {
	sliceIter
	x    *execCtx
	st   *sql.Select
	arms []rowIter // built, not run, until the first Next (EXPLAIN shows them)
	op   sql.SetOpKind
	all  bool
	done bool // the result is computed
}

func (it *setOpIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	if !it.done {
		it.done = true
		rows, err := it.x.runSetOp(it.st, it.arms)
		it.closeArms()
		if err != nil {
			return nil, false, err
		}
		it.rows = rows
	}
	return it.sliceIter.Next(ctx)
}

func (it *setOpIter) Close() {
	it.closeArms()
	it.sliceIter.Close()
}

func (it *setOpIter) closeArms() {
	for i, a := range it.arms {
		if a != nil {
			a.Close()
			it.arms[i] = nil
		}
	}
}

// setOpGroup is one distinct row of the left arm and how many copies of
// it each arm has.
type setOpGroup struct {
	row         []types.Datum
	left, right int64
}

// setOpCopies is how many copies of a row with left copies in the left
// arm and right in the right one the operation gives: INTERSECT ALL
// min(left, right), EXCEPT ALL max(left-right, 0); without ALL one copy
// when INTERSECT's row is in both arms or EXCEPT's only in the left one.
func setOpCopies(op sql.SetOpKind, all bool, left, right int64) int64 {
	switch {
	case op == sql.SetOpIntersect && all:
		return min(left, right)
	case op == sql.SetOpIntersect:
		if left > 0 && right > 0 {
			return 1
		}
	case all:
		return max(left-right, 0)
	default:
		if left > 0 && right == 0 {
			return 1
		}
	}
	return 0
}

// intersectExcept returns the iterator of st (SetOpIntersect or
// SetOpExcept), which runs the arms when first read.
func (x *execCtx) intersectExcept(st *sql.Select) (rowIter, error) {
	it := &setOpIter{x: x, st: st, op: st.SetOp, all: st.UnionAll}
	for _, arm := range st.Union {
		in, err := x.subSelect(arm)
		if err != nil {
			it.closeArms()
			return nil, err
		}
		it.arms = append(it.arms, in)
	}
	return it, nil
}

// runSetOp reads the two arms of st and returns the rows of the result, in
// the order of their first copy in the left arm.
func (x *execCtx) runSetOp(st *sql.Select, arms []rowIter) ([][]types.Datum, error) {
	n := st.NVisible
	typs := make([]types.T, n)
	for i := range typs {
		typs[i] = st.Union[0].Targets[i].Type() // the arms' rows' types
	}
	groups := map[string]*setOpGroup{}
	var order []*setOpGroup
	var key []byte
	for side, it := range arms {
		err := func() error {
			for {
				row, ok, err := it.Next(x.ctx)
				if err != nil || !ok {
					return err
				}
				key = key[:0]
				for i := 0; i < n; i++ {
					key = appendKeyNull(key, typs[i], row[i])
				}
				g := groups[string(key)]
				if side == 1 {
					if g != nil {
						g.right++
					}
					continue
				}
				if g == nil {
					g = &setOpGroup{row: append([]types.Datum(nil), row[:n]...)}
					groups[string(key)] = g
					order = append(order, g)
					if err := x.s.mem.charge(int64(len(key)) + rowSize(g.row) + 64); err != nil {
						return err
					}
				}
				g.left++
			}
		}()
		if err != nil {
			return nil, err
		}
	}
	var out [][]types.Datum
	for _, g := range order {
		for c := setOpCopies(st.SetOp, st.UnionAll, g.left, g.right); c > 0; c-- {
			out = append(out, g.row)
		}
	}
	return out, nil
}

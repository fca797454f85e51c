package executor

import (
	"context"

	"minipg/sql"
	"minipg/types"
)

// Inner joins run as nested loops in FROM order. Each WHERE/ON conjunct is
// applied at the first table where all the columns it reads are available;
// there the outer row's values are substituted as constants, so a
// condition like inner.k = outer.k becomes inner.k = <value> and can use an
// index of the inner table. The whole WHERE is checked again on the joined
// row.

// joinLevel is one table of the join.
type joinLevel struct {
	x     *execCtx // x.rel is the table
	base  int
	width int        // columns + ctid
	conds []sql.Expr // over the joined row up to this table
	left  bool       // LEFT JOIN: conds are its ON clause; no match => NULLs
}

func (x *execCtx) joinSource(st *sql.Select) (rowIter, error) {
	levels := make([]*joinLevel, len(st.From))
	for i, f := range st.From {
		rel, err := x.openRel(f.Table.OID)
		if err != nil {
			return nil, err
		}
		lx := *x
		lx.rel = rel
		levels[i] = &joinLevel{x: &lx, base: f.Base, width: len(rel.types) + 1, left: f.Left}
		if f.Left {
			levels[i].conds = conjuncts(f.On, nil)
		}
	}
	for _, c := range conjuncts(st.Where, nil) {
		lvl := 0
		sql.Walk(c, func(e sql.Expr) {
			if r, ok := e.(*sql.ColRef); ok {
				for i, l := range levels {
					if r.Idx >= l.base && r.Idx < l.base+l.width && i > lvl {
						lvl = i
					}
				}
			}
		})
		if levels[lvl].left {
			// A WHERE condition on a LEFT JOIN's table filters joined rows
			// (NULL-extended ones included): only the final filter runs it.
			continue
		}
		levels[lvl].conds = append(levels[lvl].conds, c)
	}
	var it rowIter = &joinIter{lvl: levels[0], outer: &oneRow{}}
	for _, l := range levels[1:] {
		it = &joinIter{lvl: l, outer: it}
	}
	return &filterIter{in: it, ev: x.ev, pred: st.Where}, nil
}

// joinIter pairs each outer row with the matching rows of one table.
type joinIter struct {
	lvl     *joinLevel
	outer   rowIter
	cur     []types.Datum // current outer row
	inner   rowIter
	matched bool // the current outer row had an inner row
}

// innerPred rewrites the level's conditions for one outer row: outer
// columns become constants, this table's columns move to its own row.
func (it *joinIter) innerPred(outer []types.Datum) sql.Expr {
	l := it.lvl
	var conds []sql.Expr
	for _, c := range l.conds {
		conds = append(conds, sql.Rewrite(c, func(e sql.Expr) (sql.Expr, bool) {
			r, ok := e.(*sql.ColRef)
			if !ok {
				return nil, false
			}
			if r.Idx < l.base {
				return &sql.Const{T: r.T, Val: outer[r.Idx]}, true
			}
			return &sql.ColRef{Idx: r.Idx - l.base, T: r.T, Name: r.Name}, true
		}))
	}
	switch len(conds) {
	case 0:
		return nil
	case 1:
		return conds[0]
	}
	return &sql.BoolOp{Op: "AND", Args: conds}
}

func (it *joinIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	for {
		if it.inner == nil {
			row, ok, err := it.outer.Next(ctx)
			if err != nil || !ok {
				return nil, false, err
			}
			if err := canceled(ctx); err != nil {
				return nil, false, err
			}
			it.cur, it.matched = row, false
			if it.inner, err = it.lvl.x.source(it.innerPred(row)); err != nil {
				return nil, false, err
			}
		}
		row, ok, err := it.inner.Next(ctx)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			it.inner.Close()
			it.inner = nil
			if it.lvl.left && !it.matched {
				out := make([]types.Datum, len(it.cur)+it.lvl.width)
				copy(out, it.cur)
				return out, true, nil
			}
			continue
		}
		it.matched = true
		out := make([]types.Datum, 0, len(it.cur)+len(row))
		out = append(append(out, it.cur...), row...)
		return out, true, nil
	}
}

func (it *joinIter) Close() {
	if it.inner != nil {
		it.inner.Close()
	}
	it.outer.Close()
}

package executor

import (
	"context"

	"github.com/cockroachdb/apd/v3"

	"minipg/sql"
	"minipg/types"
)

// aggState accumulates one aggregate of one group.
type aggState struct {
	count int64
	isum  int64        // sum of int2/int4
	dsum  *apd.Decimal // sum of int8/numeric (and avg)
	fsum  float64
	val   types.Datum // min/max
	seen  map[string]struct{}
}

var decCtx = apd.BaseContext.WithPrecision(1000)

func toDecimal(d types.Datum) *apd.Decimal {
	switch v := d.(type) {
	case int64:
		return apd.New(v, 0)
	case *apd.Decimal:
		return v
	case float64:
		x := new(apd.Decimal)
		_, _ = x.SetFloat64(v)
		return x
	}
	return apd.New(0, 0)
}

func (st *aggState) add(a *sql.Agg, v types.Datum) error {
	if a.Arg != nil && v == nil {
		return nil
	}
	if a.Distinct && a.Arg != nil {
		k := string(appendKeyNull(nil, a.Arg.Type(), v))
		if st.seen == nil {
			st.seen = map[string]struct{}{}
		}
		if _, dup := st.seen[k]; dup {
			return nil
		}
		st.seen[k] = struct{}{}
	}
	st.count++
	switch a.Name {
	case "count":
	case "sum", "avg":
		at := a.Arg.Type().OID
		switch {
		case at == types.Float4 || at == types.Float8:
			st.fsum += v.(float64)
		case a.Name == "sum" && (at == types.Int2 || at == types.Int4):
			st.isum += v.(int64) // cannot overflow: at most 2^32 rows of int4
		default:
			if st.dsum == nil {
				st.dsum = new(apd.Decimal)
			}
			if _, err := decCtx.Add(st.dsum, st.dsum, toDecimal(v)); err != nil {
				return err
			}
		}
	case "min", "max":
		if st.val == nil {
			st.val = v
			return nil
		}
		c := types.Compare(a.Arg.Type(), v, st.val)
		if (a.Name == "min" && c < 0) || (a.Name == "max" && c > 0) {
			st.val = v
		}
	}
	return nil
}

func (st *aggState) result(a *sql.Agg) (types.Datum, error) {
	switch a.Name {
	case "count":
		return st.count, nil
	case "min", "max":
		return st.val, nil
	}
	if st.count == 0 {
		return nil, nil
	}
	at := a.Arg.Type().OID
	if at == types.Float4 || at == types.Float8 {
		if a.Name == "avg" {
			return st.fsum / float64(st.count), nil
		}
		if a.T.OID == types.Float4 {
			return float64(float32(st.fsum)), nil
		}
		return st.fsum, nil
	}
	if a.Name == "sum" {
		if at == types.Int2 || at == types.Int4 {
			return st.isum, nil
		}
		return st.dsum, nil
	}
	// avg: numeric division as PostgreSQL's numeric_div picks the scale.
	return types.Arith('/', types.TNumeric, st.dsum, apd.New(st.count, 0))
}

// aggIter groups its input and produces one row per group: the group key
// values, then the aggregate results. Without GROUP BY there is exactly one
// group, even for no input.
type aggIter struct {
	in   rowIter
	ev   *evalCtx
	st   *sql.Select
	out  [][]types.Datum
	i    int
	done bool
	mem  *memAccount // nil: not counted
}

type group struct {
	keys   []types.Datum
	states []aggState
}

func (it *aggIter) build(ctx context.Context) error {
	st := it.st
	groups := map[string]*group{}
	var order []*group
	var kb []byte
	for {
		row, ok, err := it.in.Next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		keys := make([]types.Datum, len(st.Group))
		kb = kb[:0]
		for i, g := range st.Group {
			if keys[i], err = it.ev.eval(g, row); err != nil {
				return err
			}
			kb = appendKeyNull(kb, g.Type(), keys[i])
		}
		grp := groups[string(kb)]
		if grp == nil {
			grp = &group{keys: keys, states: make([]aggState, len(st.Aggs))}
			groups[string(kb)] = grp
			order = append(order, grp)
			if err := it.mem.charge(int64(len(kb)+64) + rowSize(keys) + 96*int64(len(st.Aggs))); err != nil {
				return err
			}
		}
		for i, a := range st.Aggs {
			var v types.Datum
			if a.Arg != nil {
				if v, err = it.ev.eval(a.Arg, row); err != nil {
					return err
				}
			}
			if err := grp.states[i].add(a, v); err != nil {
				return err
			}
		}
	}
	if len(order) == 0 && len(st.Group) == 0 {
		order = append(order, &group{states: make([]aggState, len(st.Aggs))})
	}
	for _, g := range order {
		row := make([]types.Datum, 0, len(st.Group)+len(st.Aggs))
		row = append(row, g.keys...)
		for i, a := range st.Aggs {
			v, err := g.states[i].result(a)
			if err != nil {
				return err
			}
			row = append(row, v)
		}
		it.out = append(it.out, row)
	}
	return nil
}

func (it *aggIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	if !it.done {
		it.done = true
		if err := it.build(ctx); err != nil {
			return nil, false, err
		}
	}
	if it.i >= len(it.out) {
		return nil, false, nil
	}
	it.i++
	return it.out[it.i-1], true, nil
}

func (it *aggIter) Close() { it.in.Close() }

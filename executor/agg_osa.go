package executor

import (
	"math"
	"strconv"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// The ordered-set aggregates (orderedset.c): percentile_cont,
// percentile_disc and mode over a group's non-NULL values, which arrive in
// the order WITHIN GROUP's ORDER BY asks.

// orderedSetResult is aggregate a over the group's sorted values with the
// direct argument frac (a fraction, an array of them, or nil). As in
// PostgreSQL, a single fraction is checked even for a group without
// values, an array of them only when there are values.
func orderedSetResult(a *sql.Agg, sorted []types.Datum, frac types.Datum) (types.Datum, error) {
	if a.Name == "mode" {
		if len(sorted) == 0 {
			return nil, nil
		}
		return mode(a.Arg.Type(), sorted), nil
	}
	if frac == nil {
		return nil, nil
	}
	one := func(p float64) (types.Datum, error) {
		if p < 0 || p > 1 || math.IsNaN(p) {
			return nil, pgerr.New(pgerr.NumericValueOutOfRange, "percentile value %s is not between 0 and 1",
				strconv.FormatFloat(p, 'g', -1, 64))
		}
		if len(sorted) == 0 {
			return nil, nil
		}
		if a.Name == "percentile_disc" {
			return percentileDisc(sorted, p), nil
		}
		return percentileCont(a.Arg.Type(), sorted, p)
	}
	arr, ok := frac.(*types.Array)
	if !ok {
		return one(frac.(float64))
	}
	if len(sorted) == 0 {
		return nil, nil
	}
	out := &types.Array{Dims: arr.Dims, Lbounds: arr.Lbounds, Elems: make([]types.Datum, len(arr.Elems))}
	for i, e := range arr.Elems {
		if e == nil {
			continue
		}
		v, err := one(e.(float64))
		if err != nil {
			return nil, err
		}
		out.Elems[i] = v
	}
	return out, nil
}

// percentileDisc is the first value whose position in the group is at
// least fraction p of it.
func percentileDisc(sorted []types.Datum, p float64) types.Datum {
	row := int(math.Ceil(p * float64(len(sorted))))
	if row < 1 {
		row = 1
	}
	return sorted[row-1]
}

// percentileCont interpolates linearly between the two values around
// fraction p of the group (double precision or interval).
func percentileCont(t types.T, sorted []types.Datum, p float64) (types.Datum, error) {
	pos := p * float64(len(sorted)-1)
	first, second := math.Floor(pos), math.Ceil(pos)
	lo := sorted[int(first)]
	if first == second {
		return lo, nil
	}
	hi, pct := sorted[int(second)], pos-first
	if t.OID != types.Interval {
		l, h := lo.(float64), hi.(float64)
		return l + (h-l)*pct, nil
	}
	diff, err := addInterval(hi.(types.IntervalValue), lo.(types.IntervalValue), -1)
	if err != nil {
		return nil, err
	}
	mul, err := intervalMul(diff.(types.IntervalValue), pct, false)
	if err != nil {
		return nil, err
	}
	return addInterval(lo.(types.IntervalValue), mul.(types.IntervalValue), 1)
}

// mode is the most frequent value; of equally frequent ones, the first in
// the sort order.
func mode(t types.T, sorted []types.Datum) types.Datum {
	best, bestN := sorted[0], 0
	cur, n := sorted[0], 0
	for _, v := range sorted {
		if types.Compare(t, v, cur) == 0 {
			n++
			continue
		}
		if n > bestN {
			best, bestN = cur, n
		}
		cur, n = v, 1
	}
	if n > bestN {
		best = cur
	}
	return best
}

package executor

import (
	"math"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// The statistical aggregates stddev, stddev_samp, stddev_pop, variance,
// var_samp and var_pop. Over floats they keep N, Sx and Sxx as
// float8_accum does (Youngs-Cramer); over integers and numeric they keep
// exact sums of x and x*x and finish as numeric_stddev_internal does.

func (st *aggState) addStat(a *sql.Agg, v types.Datum) error {
	switch a.Arg.Type().OID {
	case types.Float4, types.Float8:
		// float8_accum, with its rules for infinities and NaN: an
		// infinite or NaN input makes Sxx NaN, and so the result; a sum
		// that overflows from finite inputs is an error.
		x := v.(float64)
		n := float64(st.count)
		oldSum := st.fsum
		st.fsum += x
		if n > 1 {
			tmp := x*n - st.fsum
			st.fsxx += tmp * tmp / (n * (n - 1))
			if math.IsInf(st.fsum, 0) || math.IsInf(st.fsxx, 0) {
				if !math.IsInf(oldSum, 0) && !math.IsInf(x, 0) {
					return pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
				}
				st.fsxx = math.NaN()
			}
		} else if math.IsNaN(x) || math.IsInf(x, 0) {
			st.fsxx = math.NaN()
		}
		return nil
	}
	x := toDecimal(v)
	if st.countNonFinite(x) {
		return nil
	}
	if st.dsum == nil {
		st.dsum, st.dsum2 = new(apd.Decimal), new(apd.Decimal)
	}
	var sq apd.Decimal
	if _, err := decCtx.Mul(&sq, x, x); err != nil {
		return err
	}
	if _, err := decCtx.Add(st.dsum, st.dsum, x); err != nil {
		return err
	}
	_, err := decCtx.Add(st.dsum2, st.dsum2, &sq)
	return err
}

func (st *aggState) statResult(a *sql.Agg) (types.Datum, error) {
	sample := a.Name != "stddev_pop" && a.Name != "var_pop"
	root := a.Name == "stddev" || a.Name == "stddev_samp" || a.Name == "stddev_pop"
	if sample && st.count <= 1 {
		return nil, nil
	}
	if a.T.OID == types.Float8 {
		n := float64(st.count)
		d := n
		if sample {
			d = n - 1
		}
		r := st.fsxx / d
		if root {
			r = math.Sqrt(r)
		}
		return r, nil
	}
	nf := st.nonFinite
	if nf.nan > 0 || nf.pinf > 0 || nf.ninf > 0 {
		return &apd.Decimal{Form: apd.NaN}, nil // any infinity gives NaN, as over floats
	}
	// numeric_stddev_internal: (N * sumX2 - sumX * sumX) / (N * (N - 1))
	// (N * N for the population forms), divided to select_div_scale's
	// scale, then the square root at that scale.
	n := apd.New(st.count, 0)
	var num, sx2 apd.Decimal
	if _, err := decCtx.Mul(&num, n, st.dsum2); err != nil {
		return nil, err
	}
	if _, err := decCtx.Mul(&sx2, st.dsum, st.dsum); err != nil {
		return nil, err
	}
	if _, err := decCtx.Sub(&num, &num, &sx2); err != nil {
		return nil, err
	}
	if num.Sign() <= 0 {
		return apd.New(0, 0), nil
	}
	den := apd.New(st.count*st.count, 0)
	if sample {
		den = apd.New(st.count*(st.count-1), 0)
	}
	q, err := types.Arith('/', types.TNumeric, &num, den)
	if err != nil || !root {
		return q, err
	}
	qd := q.(*apd.Decimal)
	rscale := max(0, int(-qd.Exponent))
	out := new(apd.Decimal)
	ctx := apd.BaseContext.WithPrecision(uint32(int(qd.NumDigits()) + rscale + 12))
	if _, err := ctx.Sqrt(out, qd); err != nil {
		return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
	}
	return types.NumericRound(out, rscale), nil
}

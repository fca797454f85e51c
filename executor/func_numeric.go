package executor

// The numeric helpers of the math functions: ceil and floor, the scales
// PostgreSQL's numeric functions compute with, and the square root.

import (
	"math"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// numIntegral is ceil or floor over numeric (display scale 0): apd's
// Ceil or Floor, not a Quantize with a ceiling or floor rounding, which
// gives 0 for a value below 1 with more than one digit after the point
// (0.01).
func numIntegral(op func(*apd.Context, *apd.Decimal, *apd.Decimal) (apd.Condition, error)) sql.BuiltinFn {
	return func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		d := a[0].(*apd.Decimal)
		if d.Form != apd.Finite {
			return d, nil
		}
		ctx := apd.BaseContext.WithPrecision(2000)
		out := new(apd.Decimal)
		if _, err := op(ctx, out, d); err != nil {
			return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
		}
		if out.IsZero() {
			out.Negative = false
		}
		return out, nil
	}
}

// numTrimScale drops the trailing zeros after the decimal point.
func numTrimScale(d *apd.Decimal) *apd.Decimal {
	for s := numDscale(d); s > 0; s-- {
		r := types.NumericTrunc(d, s-1)
		if r.Cmp(d) != 0 {
			return types.NumericTrunc(d, s)
		}
	}
	return types.NumericTrunc(d, 0)
}

// numDscale is a numeric's display scale.
func numDscale(d *apd.Decimal) int { return max(0, int(-d.Exponent)) }

// numDweight is the decimal weight of a nonzero finite value: the power of
// ten of its first significant digit.
func numDweight(d *apd.Decimal) int { return int(d.NumDigits()) + int(d.Exponent) - 1 }

// numPGWeight is the weight in base-10000 digits that numeric.c's
// NumericVar carries (0 for zero).
func numPGWeight(d *apd.Decimal) int {
	if d.IsZero() {
		return 0
	}
	w := numDweight(d)
	if w < 0 {
		return -((-w + 3) / 4)
	}
	return w / 4
}

// clampScale applies the lower and upper display-scale limits.
func clampScale(rscale int, dscales ...int) int {
	for _, s := range dscales {
		rscale = max(rscale, s)
	}
	return min(max(rscale, 0), numMaxDisplayScale)
}

// numCtx is a context precise enough for a result of weight w to scale
// rscale.
func numCtx(w, rscale int) *apd.Context {
	return apd.BaseContext.WithPrecision(uint32(max(w, 0) + rscale + 12))
}

func errNumOverflow() error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
}

// numSqrt is numeric_sqrt.
func numSqrt(x *apd.Decimal) (types.Datum, error) {
	if x.Form == apd.NaN {
		return x, nil
	}
	if x.Negative && !x.IsZero() {
		return nil, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "cannot take square root of a negative number")
	}
	if x.Form == apd.Infinite {
		return x, nil
	}
	sweight := (numPGWeight(x)+1)*4/2 - 1
	rscale := clampScale(numMinSigDigits-sweight, numDscale(x))
	out := new(apd.Decimal)
	if _, err := numCtx(sweight+1, rscale).Sqrt(out, x); err != nil {
		return nil, errNumOverflow()
	}
	r := types.NumericRound(out, rscale)
	// The root was rounded twice (to the context's digits, then to
	// rscale): a root just below a half, 17.49999999999999999986, can
	// come out 18. PostgreSQL's is the exact root rounded once, so check
	// r against the squares of the half-way points around it.
	if x.IsZero() {
		return r, nil
	}
	half := apd.New(5, int32(-rscale-1))
	exact := apd.BaseContext.WithPrecision(uint32(2*(int(r.NumDigits())+rscale+2) + 10))
	var lo, hi, sq apd.Decimal
	_, _ = exact.Sub(&lo, r, half)
	_, _ = exact.Add(&hi, r, half)
	ulp := apd.New(1, int32(-rscale))
	if _, _ = exact.Mul(&sq, &lo, &lo); x.Cmp(&sq) < 0 {
		_, _ = exact.Sub(r, r, ulp)
	} else if _, _ = exact.Mul(&sq, &hi, &hi); x.Cmp(&sq) >= 0 {
		_, _ = exact.Add(r, r, ulp)
	}
	return r, nil
}

// numToFloat approximates a finite numeric as a float64 (±Inf past its range).
func numToFloat(d *apd.Decimal) float64 {
	f, err := d.Float64()
	if err != nil {
		if d.Negative {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	return f
}

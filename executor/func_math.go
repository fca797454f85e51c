package executor

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// The mathematical functions of PostgreSQL 15's section 9.3, over the
// integer types, float8 and numeric. Numeric results take the display scale
// PostgreSQL's numeric.c computes (sqrt_var, exp_var, ln_var, log_var,
// power_var), computed with apd to more digits than that scale and then
// rounded half away from zero.

const (
	i2 = types.Int2
	i4 = types.Int4
	i8 = types.Int8
	f8 = types.Float8
	nu = types.Numeric
	tx = types.Text
	bp = types.Bpchar
	ts = types.Timestamp
	dt = types.Date
	bo = types.Bool
)

const (
	numMinSigDigits    = 16   // NUMERIC_MIN_SIG_DIGITS
	numMaxDisplayScale = 1000 // NUMERIC_MAX_DISPLAY_SCALE
)

func init() {
	imm := sql.Immutable
	for _, t := range []types.OID{i2, i4, i8} {
		builtin("abs", oids(t), t, imm, func(_ any, a []types.Datum, f *sql.Func) (types.Datum, error) {
			v := a[0].(int64)
			if v < 0 {
				return types.Negate(f.T, v)
			}
			return v, nil
		})
		builtin("mod", oids(t, t), t, imm, func(_ any, a []types.Datum, f *sql.Func) (types.Datum, error) {
			return types.Arith('%', f.T, a[0], a[1])
		})
	}
	builtin("abs", oids(types.Float4), types.Float4, imm, f8Func(math.Abs))
	builtin("abs", oids(f8), f8, imm, f8Func(math.Abs))
	builtin("abs", oids(nu), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		d := new(apd.Decimal)
		d.Abs(a[0].(*apd.Decimal))
		return d, nil
	})
	builtin("mod", oids(nu, nu), nu, imm, func(_ any, a []types.Datum, f *sql.Func) (types.Datum, error) {
		return types.Arith('%', f.T, a[0], a[1])
	})
	for _, name := range []string{"ceil", "ceiling"} {
		builtin(name, oids(f8), f8, imm, f8Func(math.Ceil))
		builtin(name, oids(nu), nu, imm, numIntegral((*apd.Context).Ceil))
	}
	builtin("floor", oids(f8), f8, imm, f8Func(math.Floor))
	builtin("floor", oids(nu), nu, imm, numIntegral((*apd.Context).Floor))
	builtin("round", oids(f8), f8, imm, f8Func(math.RoundToEven))
	builtin("round", oids(nu), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return types.NumericRound(a[0].(*apd.Decimal), 0), nil
	})
	builtin("round", oids(nu, i4), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return types.NumericRound(a[0].(*apd.Decimal), int(a[1].(int64))), nil
	})
	builtin("trunc", oids(f8), f8, imm, f8Func(math.Trunc))
	builtin("trunc", oids(nu), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return types.NumericTrunc(a[0].(*apd.Decimal), 0), nil
	})
	builtin("trunc", oids(nu, i4), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return types.NumericTrunc(a[0].(*apd.Decimal), int(a[1].(int64))), nil
	})
	builtin("sign", oids(f8), f8, imm, f8Func(func(x float64) float64 {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return 0
	}))
	builtin("sign", oids(nu), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		d := a[0].(*apd.Decimal)
		if d.Form == apd.NaN {
			return d, nil
		}
		if d.IsZero() {
			return types.NumericFromInt64(0), nil
		}
		if d.Negative {
			return types.NumericFromInt64(-1), nil
		}
		return types.NumericFromInt64(1), nil
	})
	builtin("min_scale", oids(nu), i4, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		d := a[0].(*apd.Decimal)
		if d.Form != apd.Finite {
			return nil, nil
		}
		return int64(numDscale(numTrimScale(d))), nil
	})
	builtin("trim_scale", oids(nu), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		d := a[0].(*apd.Decimal)
		if d.Form != apd.Finite {
			return d, nil
		}
		return numTrimScale(d), nil
	})
	builtin("scale", oids(nu), i4, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		d := a[0].(*apd.Decimal)
		if d.Form != apd.Finite {
			return nil, nil
		}
		return int64(numDscale(d)), nil
	})

	builtin("sqrt", oids(nu), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) { return numSqrt(a[0].(*apd.Decimal)) })
	sqrtF := f8Checked(func(x float64) (float64, error) {
		if x < 0 {
			return 0, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "cannot take square root of a negative number")
		}
		return math.Sqrt(x), nil
	})
	// Go's Cbrt and glibc's may differ in the last bit (glibc gives
	// 3.0000000000000004 for 27).
	cbrtF := f8Func(math.Cbrt)
	for _, name := range []string{"sqrt", "dsqrt"} {
		builtin(name, oids(f8), f8, imm, sqrtF)
	}
	for _, name := range []string{"cbrt", "dcbrt"} {
		builtin(name, oids(f8), f8, imm, cbrtF)
	}
	builtin("exp", oids(f8), f8, imm, f8Checked(func(x float64) (float64, error) {
		r := math.Exp(x)
		if math.IsInf(r, 0) && !math.IsInf(x, 0) {
			return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
		}
		if r == 0 && !math.IsInf(x, 0) {
			return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: underflow")
		}
		return r, nil
	}))
	builtin("exp", oids(nu), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) { return numExp(a[0].(*apd.Decimal)) })
	builtin("ln", oids(f8), f8, imm, f8Checked(floatLog(math.Log)))
	builtin("ln", oids(nu), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) { return numLn(a[0].(*apd.Decimal)) })
	for _, name := range []string{"log", "log10"} {
		builtin(name, oids(f8), f8, imm, f8Checked(floatLog(math.Log10)))
		builtin(name, oids(nu), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			return numLog(types.NumericFromInt64(10), a[0].(*apd.Decimal))
		})
	}
	builtin("log", oids(nu, nu), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return numLog(a[0].(*apd.Decimal), a[1].(*apd.Decimal))
	})
	for _, name := range []string{"power", "pow"} {
		builtin(name, oids(f8, f8), f8, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			return floatPower(a[0].(float64), a[1].(float64))
		})
		builtin(name, oids(nu, nu), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			return numPower(a[0].(*apd.Decimal), a[1].(*apd.Decimal))
		})
	}
	builtin("div", oids(nu, nu), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		x, y := a[0].(*apd.Decimal), a[1].(*apd.Decimal)
		if x.Form == apd.NaN || y.Form == apd.NaN {
			return types.NumericNaN(), nil
		}
		if y.IsZero() {
			return nil, pgerr.New(pgerr.DivisionByZero, "division by zero")
		}
		ctx := apd.BaseContext.WithPrecision(2000)
		q := new(apd.Decimal)
		if _, err := ctx.QuoInteger(q, x, y); err != nil {
			return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
		}
		return types.NumericTrunc(q, 0), nil
	})
	for _, t := range []types.OID{i4, i8} {
		builtin("gcd", oids(t, t), t, imm, func(_ any, a []types.Datum, f *sql.Func) (types.Datum, error) {
			return intGcd(f.T.OID, a[0].(int64), a[1].(int64))
		})
		builtin("lcm", oids(t, t), t, imm, func(_ any, a []types.Datum, f *sql.Func) (types.Datum, error) {
			return intLcm(f.T.OID, a[0].(int64), a[1].(int64))
		})
	}
	builtin("gcd", oids(nu, nu), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return numGcdLcm(a[0].(*apd.Decimal), a[1].(*apd.Decimal), false)
	})
	builtin("lcm", oids(nu, nu), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return numGcdLcm(a[0].(*apd.Decimal), a[1].(*apd.Decimal), true)
	})
	builtin("factorial", oids(i8), nu, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		n := a[0].(int64)
		if n < 0 {
			return nil, pgerr.New(pgerr.NumericValueOutOfRange, "factorial of a negative number is undefined")
		}
		if n > 32177 {
			return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
		}
		r := apd.NewBigInt(1)
		for i := int64(2); i <= n; i++ {
			r.Mul(r, apd.NewBigInt(i))
		}
		return apd.NewWithBigInt(r, 0), nil
	})
	builtin("pi", nil, f8, imm, func(any, []types.Datum, *sql.Func) (types.Datum, error) { return math.Pi, nil })
	builtin("degrees", oids(f8), f8, imm, f8Func(func(x float64) float64 { return x / (math.Pi / 180) }))
	builtin("radians", oids(f8), f8, imm, f8Func(func(x float64) float64 { return x * (math.Pi / 180) }))
	builtin("width_bucket", oids(f8, f8, f8, i4), i4, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return widthBucketFloat(a[0].(float64), a[1].(float64), a[2].(float64), a[3].(int64))
	})
	builtin("width_bucket", oids(nu, nu, nu, i4), i4, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return widthBucketNumeric(a[0].(*apd.Decimal), a[1].(*apd.Decimal), a[2].(*apd.Decimal), a[3].(int64))
	})
	sql.RegisterBuiltin(sql.Builtin{Name: "random", Result: f8, Volatility: sql.Volatile, Strict: true,
		Fn: func(env any, _ []types.Datum, _ *sql.Func) (types.Datum, error) {
			return sessionRand(session(env)).Float64(), nil
		}})
	sql.RegisterBuiltin(sql.Builtin{Name: "setseed", Args: oids(f8), Result: types.Void, Volatility: sql.Volatile, Strict: true,
		Fn: func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			x := a[0].(float64)
			if x < -1 || x > 1 || math.IsNaN(x) {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "setseed parameter %s is out of allowed range [-1,1]", cfmtG(x))
			}
			session(env).rng = rand.New(rand.NewSource(int64(x * float64(math.MaxInt64>>1))))
			return "", nil
		}})
	registerTrig()
}

// sessionRand is the session's random number generator, seeded from the
// clock unless setseed seeded it.
func sessionRand(s *Session) *rand.Rand {
	if s.rng == nil {
		s.rng = rand.New(rand.NewSource(rand.Int63()))
	}
	return s.rng
}

// cfmtG formats x as C's %g does (Go's %g agrees for the values printed
// here: six significant digits, two-digit exponents).
func cfmtG(x float64) string { return fmt.Sprintf("%g", x) }

// f8Func is a float8 function of one argument that cannot fail.
func f8Func(fn func(float64) float64) sql.BuiltinFn {
	return func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) { return fn(a[0].(float64)), nil }
}

// f8Checked is a float8 function of one argument that may fail.
func f8Checked(fn func(float64) (float64, error)) sql.BuiltinFn {
	return func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		r, err := fn(a[0].(float64))
		if err != nil {
			return nil, err
		}
		return r, nil
	}
}

// floatLog is ln or log10 over float8 with PostgreSQL's errors.
func floatLog(fn func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		if x == 0 {
			return 0, pgerr.New(pgerr.InvalidArgumentForLogarithm, "cannot take logarithm of zero")
		}
		if x < 0 {
			return 0, pgerr.New(pgerr.InvalidArgumentForLogarithm, "cannot take logarithm of a negative number")
		}
		return fn(x), nil
	}
}

// floatPower is dpow.
func floatPower(x, y float64) (types.Datum, error) {
	if math.IsNaN(x) {
		if math.IsNaN(y) || y != 0 {
			return math.NaN(), nil
		}
		return 1.0, nil
	}
	if math.IsNaN(y) {
		if x != 1 {
			return math.NaN(), nil
		}
		return 1.0, nil
	}
	if x == 0 && y < 0 {
		return nil, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "zero raised to a negative power is undefined")
	}
	if x < 0 && math.Floor(y) != y {
		return nil, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "a negative number raised to a non-integer power yields a complex result")
	}
	r := math.Pow(x, y)
	if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
	}
	if r == 0 && x != 0 && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: underflow")
	}
	return r, nil
}

// numExp is numeric_exp.
func numExp(x *apd.Decimal) (types.Datum, error) {
	if x.Form == apd.NaN {
		return x, nil
	}
	if x.Form == apd.Infinite {
		if x.Negative {
			return types.NumericFromInt64(0), nil
		}
		return x, nil
	}
	val := numToFloat(x) * 0.434294481903252
	val = min(max(val, -2000), 2000)
	if numToFloat(x) > 300000 {
		return nil, errNumOverflow()
	}
	rscale := clampScale(numMinSigDigits-int(val), numDscale(x))
	out := new(apd.Decimal)
	if _, err := numCtx(int(val)+1, rscale).Exp(out, x); err != nil {
		return nil, errNumOverflow()
	}
	return types.NumericRound(out, rscale), nil
}

// estimateLnDweight is estimate_ln_dweight: the decimal weight of ln(x).
func estimateLnDweight(x *apd.Decimal) int {
	if x.Negative || x.IsZero() {
		return 0
	}
	lo, hi := apd.New(9, -1), apd.New(11, -1)
	if x.Cmp(lo) >= 0 && x.Cmp(hi) <= 0 {
		d := new(apd.Decimal)
		_, _ = apd.BaseContext.WithPrecision(2000).Sub(d, x, apd.New(1, 0))
		if d.IsZero() {
			return 0
		}
		return numDweight(d)
	}
	// x ~= mantissa * 10^dw with 1 <= mantissa < 10.
	dw := numDweight(x)
	m := new(apd.Decimal)
	m.Set(x)
	m.Exponent -= int32(dw)
	mf, _ := m.Float64()
	lnx := math.Log(mf) + float64(dw)*2.302585092994046
	return int(math.Log10(math.Abs(lnx)))
}

// numLnCheck reports ln's errors for x.
func numLnCheck(x *apd.Decimal) error {
	if x.IsZero() {
		return pgerr.New(pgerr.InvalidArgumentForLogarithm, "cannot take logarithm of zero")
	}
	if x.Negative {
		return pgerr.New(pgerr.InvalidArgumentForLogarithm, "cannot take logarithm of a negative number")
	}
	return nil
}

// numLn is numeric_ln.
func numLn(x *apd.Decimal) (types.Datum, error) {
	if x.Form == apd.NaN {
		return x, nil
	}
	if err := numLnCheck(x); err != nil {
		return nil, err
	}
	if x.Form == apd.Infinite {
		return x, nil
	}
	w := estimateLnDweight(x)
	rscale := clampScale(numMinSigDigits-w, numDscale(x))
	out := new(apd.Decimal)
	if _, err := numCtx(w+1, rscale).Ln(out, x); err != nil {
		return nil, errNumOverflow()
	}
	return types.NumericRound(out, rscale), nil
}

// numLog is numeric_log: the logarithm of x to base b.
func numLog(b, x *apd.Decimal) (types.Datum, error) {
	if b.Form == apd.NaN || x.Form == apd.NaN {
		return types.NumericNaN(), nil
	}
	if err := numLnCheck(b); err != nil {
		return nil, err
	}
	if err := numLnCheck(x); err != nil {
		return nil, err
	}
	if b.Form == apd.Infinite || x.Form == apd.Infinite {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "log of infinity is not supported")
	}
	w := estimateLnDweight(x) - estimateLnDweight(b)
	rscale := clampScale(numMinSigDigits-w, numDscale(b), numDscale(x))
	ctx := numCtx(max(w, 0)+estimateLnDweight(x)+20, rscale+20)
	lb, lx, out := new(apd.Decimal), new(apd.Decimal), new(apd.Decimal)
	if _, err := ctx.Ln(lb, b); err != nil {
		return nil, errNumOverflow()
	}
	if lb.IsZero() {
		return nil, pgerr.New(pgerr.DivisionByZero, "division by zero")
	}
	if _, err := ctx.Ln(lx, x); err != nil {
		return nil, errNumOverflow()
	}
	if _, err := ctx.Quo(out, lx, lb); err != nil {
		return nil, errNumOverflow()
	}
	return types.NumericRound(out, rscale), nil
}

// numPower is numeric_power.
func numPower(x, y *apd.Decimal) (types.Datum, error) {
	if x.Form == apd.NaN || y.Form == apd.NaN {
		if x.Form == apd.NaN && y.Form == apd.Finite && y.IsZero() {
			return types.NumericFromInt64(1), nil
		}
		if y.Form == apd.NaN && x.Form == apd.Finite && x.Cmp(apd.New(1, 0)) == 0 {
			return types.NumericFromInt64(1), nil
		}
		return types.NumericNaN(), nil
	}
	if x.Form == apd.Infinite || y.Form == apd.Infinite {
		fx, fy := numToFloat(x), numToFloat(y)
		r, err := floatPower(fx, fy)
		if err != nil {
			return nil, err
		}
		return floatToNumeric(r.(float64)), nil
	}
	yInt := y.Exponent >= 0 || func() bool {
		f := new(apd.Decimal)
		_, _ = apd.BaseContext.WithPrecision(2000).Floor(f, y)
		return f.Cmp(y) == 0
	}()
	if x.IsZero() && y.Negative && !y.IsZero() {
		return nil, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "zero raised to a negative power is undefined")
	}
	if x.Negative && !x.IsZero() && !yInt {
		return nil, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "a negative number raised to a non-integer power yields a complex result")
	}
	// An integral exponent takes NUMERIC_MIN_SIG_DIGITS digits after the
	// point (power_var's power_var_int path); otherwise the decimal
	// weight of the result, approximately y * log10|x|, sets the scale.
	if yv, err := y.Int64(); yInt && err == nil && yv >= math.MinInt32 && yv <= math.MaxInt32 {
		rscale := clampScale(numMinSigDigits, numDscale(x))
		if yv == 0 {
			return types.NumericRound(types.NumericFromInt64(1), rscale), nil
		}
		out := new(apd.Decimal)
		w := 0.0 // the result's decimal weight, approximately
		if !x.IsZero() {
			dw := numDweight(x)
			m := new(apd.Decimal).Set(x)
			m.Negative = false
			m.Exponent -= int32(dw)
			mf, _ := m.Float64()
			w = float64(yv) * (math.Log10(mf) + float64(dw))
		}
		if w > 131072 {
			return nil, errNumOverflow()
		}
		if w < -float64(rscale)-2 {
			return types.NumericRound(types.NumericFromInt64(0), rscale), nil
		}
		if _, err := numCtx(int(math.Max(w, 0))+2, rscale+10).Pow(out, x, y); err != nil {
			return nil, errNumOverflow()
		}
		return types.NumericRound(out, rscale), nil
	}
	var val float64
	if !x.IsZero() {
		dw := numDweight(x)
		m := new(apd.Decimal)
		m.Set(x)
		m.Negative = false
		m.Exponent -= int32(dw)
		mf, _ := m.Float64()
		val = numToFloat(y) * (math.Log10(mf) + float64(dw))
	}
	if val > 131072*1.01 {
		return nil, errNumOverflow()
	}
	rscale := clampScale(numMinSigDigits-int(val), numDscale(x), numDscale(y))
	if val < -float64(rscale)-2 {
		return types.NumericRound(types.NumericFromInt64(0), rscale), nil
	}
	if y.IsZero() {
		return types.NumericRound(types.NumericFromInt64(1), rscale), nil
	}
	out := new(apd.Decimal)
	ctx := numCtx(int(math.Ceil(val))+1, rscale+10)
	if _, err := ctx.Pow(out, x, y); err != nil {
		return nil, errNumOverflow()
	}
	return types.NumericRound(out, rscale), nil
}

// floatToNumeric converts a float (possibly infinite) to numeric.
func floatToNumeric(f float64) *apd.Decimal {
	switch {
	case math.IsNaN(f):
		return types.NumericNaN()
	case math.IsInf(f, 1):
		return &apd.Decimal{Form: apd.Infinite}
	case math.IsInf(f, -1):
		return &apd.Decimal{Form: apd.Infinite, Negative: true}
	}
	d := new(apd.Decimal)
	_, _ = d.SetFloat64(f)
	return d
}

func gcd64(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func absU(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

func intLimit(oid types.OID) uint64 {
	if oid == i4 {
		return math.MaxInt32
	}
	return math.MaxInt64
}

func errIntOut(oid types.OID) error {
	if oid == i4 {
		return pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
	}
	return pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
}

// intGcd is int4gcd / int8gcd.
func intGcd(oid types.OID, a, b int64) (types.Datum, error) {
	g := gcd64(absU(a), absU(b))
	if g > intLimit(oid) {
		return nil, errIntOut(oid)
	}
	return int64(g), nil
}

// intLcm is int4lcm / int8lcm.
func intLcm(oid types.OID, a, b int64) (types.Datum, error) {
	if a == 0 || b == 0 {
		return int64(0), nil
	}
	g := gcd64(absU(a), absU(b))
	q := absU(a) / g
	hi, lo := mulU(q, absU(b))
	if hi != 0 || lo > intLimit(oid) {
		return nil, errIntOut(oid)
	}
	return int64(lo), nil
}

func mulU(a, b uint64) (hi, lo uint64) {
	lo = a * b
	if a != 0 && lo/a != b {
		return 1, lo
	}
	return 0, lo
}

// numGcdLcm is numeric gcd or lcm: the operands are brought to a common
// scale and the result keeps it.
func numGcdLcm(a, b *apd.Decimal, lcm bool) (types.Datum, error) {
	if a.Form == apd.NaN || b.Form == apd.NaN {
		return types.NumericNaN(), nil
	}
	if a.Form == apd.Infinite || b.Form == apd.Infinite {
		return types.NumericNaN(), nil
	}
	scale := max(numDscale(a), numDscale(b))
	ia := types.NumericRound(a, scale)
	ib := types.NumericRound(b, scale)
	x, y := new(apd.BigInt).Abs(&ia.Coeff), new(apd.BigInt).Abs(&ib.Coeff)
	g := new(apd.BigInt).GCD(nil, nil, x, y)
	if !lcm {
		return apd.NewWithBigInt(g, int32(-scale)), nil
	}
	if x.Sign() == 0 || y.Sign() == 0 {
		return types.NumericRound(types.NumericFromInt64(0), scale), nil
	}
	r := new(apd.BigInt).Quo(x, g)
	r.Mul(r, y)
	return apd.NewWithBigInt(r, int32(-scale)), nil
}

// widthBucketFloat is width_bucket_float8.
func widthBucketFloat(op, lo, hi float64, count int64) (types.Datum, error) {
	if count <= 0 {
		return nil, pgerr.New(pgerr.InvalidArgumentForWidthBucketFunction, "count must be greater than zero")
	}
	if math.IsNaN(op) || math.IsNaN(lo) || math.IsNaN(hi) {
		return nil, pgerr.New(pgerr.InvalidArgumentForWidthBucketFunction, "operand, lower bound, and upper bound cannot be NaN")
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil, pgerr.New(pgerr.InvalidArgumentForWidthBucketFunction, "lower and upper bounds must be finite")
	}
	var r int64
	switch {
	case lo < hi:
		switch {
		case op < lo:
			r = 0
		case op >= hi:
			r = count + 1
		default:
			r = int64(float64(count)*((op-lo)/(hi-lo))) + 1
		}
	case lo > hi:
		switch {
		case op > lo:
			r = 0
		case op <= hi:
			r = count + 1
		default:
			r = int64(float64(count)*((lo-op)/(lo-hi))) + 1
		}
	default:
		return nil, pgerr.New(pgerr.InvalidArgumentForWidthBucketFunction, "lower bound cannot equal upper bound")
	}
	if r > math.MaxInt32 {
		return nil, pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
	}
	return r, nil
}

// widthBucketNumeric is width_bucket_numeric.
func widthBucketNumeric(op, lo, hi *apd.Decimal, count int64) (types.Datum, error) {
	if count <= 0 {
		return nil, pgerr.New(pgerr.InvalidArgumentForWidthBucketFunction, "count must be greater than zero")
	}
	if op.Form == apd.NaN || lo.Form == apd.NaN || hi.Form == apd.NaN {
		return nil, pgerr.New(pgerr.InvalidArgumentForWidthBucketFunction, "operand, lower bound, and upper bound cannot be NaN")
	}
	if lo.Form == apd.Infinite || hi.Form == apd.Infinite {
		return nil, pgerr.New(pgerr.InvalidArgumentForWidthBucketFunction, "lower and upper bounds must be finite")
	}
	c := lo.Cmp(hi)
	if c == 0 {
		return nil, pgerr.New(pgerr.InvalidArgumentForWidthBucketFunction, "lower bound cannot equal upper bound")
	}
	var r int64
	bucket := func(num1, num2 *apd.Decimal) int64 {
		ctx := apd.BaseContext.WithPrecision(2000)
		n, q := new(apd.Decimal), new(apd.Decimal)
		_, _ = ctx.Mul(n, num1, apd.New(count, 0))
		_, _ = ctx.Quo(q, n, num2)
		_, _ = ctx.Floor(q, q)
		v, _ := q.Int64()
		return v + 1
	}
	ctx := apd.BaseContext.WithPrecision(2000)
	d1, d2 := new(apd.Decimal), new(apd.Decimal)
	if c < 0 {
		switch {
		case op.Cmp(lo) < 0:
			r = 0
		case op.Cmp(hi) >= 0:
			r = count + 1
		default:
			_, _ = ctx.Sub(d1, op, lo)
			_, _ = ctx.Sub(d2, hi, lo)
			r = bucket(d1, d2)
		}
	} else {
		switch {
		case op.Cmp(lo) > 0:
			r = 0
		case op.Cmp(hi) <= 0:
			r = count + 1
		default:
			_, _ = ctx.Sub(d1, lo, op)
			_, _ = ctx.Sub(d2, lo, hi)
			r = bucket(d1, d2)
		}
	}
	if r > math.MaxInt32 {
		return nil, pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
	}
	return r, nil
}

// The trigonometric functions. The degree variants compute as PostgreSQL's
// float.c does, so that sind(30) is exactly 0.5.

// radiansPerDegree is a variable so that every product with it rounds as
// float8 arithmetic does at run time (a constant product would be exact).
var radiansPerDegree = 0.0174532925199432957692

var deg30, deg60 = 30.0, 60.0

var (
	sin30         = math.Sin(deg30 * radiansPerDegree)
	oneMinusCos60 = 1 - math.Cos(deg60*radiansPerDegree)
	asin05        = math.Asin(0.5)
	acos05        = math.Acos(0.5)
	atan10        = math.Atan(1.0)
	tan45         = sindQ1(45) / cosdQ1(45)
	cot45         = cosdQ1(45) / sindQ1(45)
	errInputRange = func() error { return pgerr.New(pgerr.NumericValueOutOfRange, "input is out of range") }
)

func sind0To30(x float64) float64 { return (math.Sin(x*radiansPerDegree) / sin30) / 2 }
func cosd0To60(x float64) float64 { return 1 - ((1-math.Cos(x*radiansPerDegree))/oneMinusCos60)/2 }
func sindQ1(x float64) float64 {
	if x <= 30 {
		return sind0To30(x)
	}
	return cosd0To60(90 - x)
}
func cosdQ1(x float64) float64 {
	if x <= 60 {
		return cosd0To60(x)
	}
	return sind0To30(90 - x)
}
func asindQ1(x float64) float64 {
	if x <= 0.5 {
		return (math.Asin(x) / asin05) * 30
	}
	return 90 - (math.Acos(x)/acos05)*60
}
func acosdQ1(x float64) float64 {
	if x <= 0.5 {
		return 90 - (math.Asin(x)/asin05)*30
	}
	return (math.Acos(x) / acos05) * 60
}

// finiteArg rejects an infinite argument (NaN passes through).
func finiteArg(fn func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		if math.IsInf(x, 0) {
			return 0, errInputRange()
		}
		return fn(x), nil
	}
}

// unitArg rejects an argument outside [-1, 1].
func unitArg(fn func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		if x < -1 || x > 1 {
			return 0, errInputRange()
		}
		return fn(x), nil
	}
}

func noNegZero(x float64) float64 {
	if x == 0 {
		return 0
	}
	return x
}

func registerTrig() {
	imm := sql.Immutable
	one := func(name string, fn func(float64) (float64, error)) {
		builtin(name, oids(f8), f8, imm, f8Checked(func(x float64) (float64, error) {
			if math.IsNaN(x) {
				return x, nil
			}
			return fn(x)
		}))
	}
	one("sin", finiteArg(math.Sin))
	one("cos", finiteArg(math.Cos))
	one("tan", finiteArg(math.Tan))
	one("cot", finiteArg(func(x float64) float64 { return 1 / math.Tan(x) }))
	one("asin", unitArg(math.Asin))
	one("acos", unitArg(math.Acos))
	one("atan", func(x float64) (float64, error) { return math.Atan(x), nil })
	one("sinh", func(x float64) (float64, error) { return math.Sinh(x), nil })
	one("cosh", func(x float64) (float64, error) { return math.Cosh(x), nil })
	one("tanh", func(x float64) (float64, error) { return math.Tanh(x), nil })
	one("asinh", func(x float64) (float64, error) { return math.Asinh(x), nil })
	one("acosh", func(x float64) (float64, error) {
		if x < 1 {
			return 0, errInputRange()
		}
		return math.Acosh(x), nil
	})
	one("atanh", func(x float64) (float64, error) {
		if x < -1 || x > 1 {
			return 0, errInputRange()
		}
		return math.Atanh(x), nil
	})
	one("sind", finiteArg(func(x float64) float64 {
		x = math.Mod(x, 360)
		sign := 1.0
		if x < 0 {
			x, sign = -x, -sign
		}
		if x > 180 {
			x, sign = x-180, -sign
		}
		if x > 90 {
			x = 180 - x
		}
		return noNegZero(sign * sindQ1(x))
	}))
	one("cosd", finiteArg(func(x float64) float64 {
		x = math.Mod(x, 360)
		if x < 0 {
			x = -x
		}
		if x > 180 {
			x = 360 - x
		}
		sign := 1.0
		if x > 90 {
			x, sign = 180-x, -sign
		}
		return noNegZero(sign * cosdQ1(x))
	}))
	tanLike := func(cot bool) func(float64) float64 {
		return func(x float64) float64 {
			x = math.Mod(x, 360)
			sign := 1.0
			if x < 0 {
				x, sign = -x, -sign
			}
			if x > 180 {
				x, sign = 360-x, -sign
			}
			if x > 90 {
				x, sign = 180-x, -sign
			}
			if cot {
				return noNegZero(sign * ((cosdQ1(x) / sindQ1(x)) / cot45))
			}
			return noNegZero(sign * ((sindQ1(x) / cosdQ1(x)) / tan45))
		}
	}
	one("tand", finiteArg(tanLike(false)))
	one("cotd", finiteArg(tanLike(true)))
	one("asind", unitArg(func(x float64) float64 {
		if x >= 0 {
			return asindQ1(x)
		}
		return -asindQ1(-x)
	}))
	one("acosd", unitArg(func(x float64) float64 {
		if x >= 0 {
			return acosdQ1(x)
		}
		return 90 + asindQ1(-x)
	}))
	one("atand", func(x float64) (float64, error) { return (math.Atan(x) / atan10) * 45, nil })
	builtin("atan2", oids(f8, f8), f8, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return math.Atan2(a[0].(float64), a[1].(float64)), nil
	})
	builtin("atan2d", oids(f8, f8), f8, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		y, x := a[0].(float64), a[1].(float64)
		if math.IsNaN(y) || math.IsNaN(x) {
			return math.NaN(), nil
		}
		return (math.Atan2(y, x) / atan10) * 45, nil
	})
}

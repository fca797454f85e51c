package types

import (
	"math"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
)

// ArithResultType resolves the result type of a binary arithmetic operator
// (+ - * / %) on operand types a and b as PostgreSQL's operator resolution
// does for the supported types: integers widen (int2+int2 is smallint,
// int4+int8 bigint), an integer with numeric is numeric, anything with a
// float is double precision except real op real, which is real. An unknown
// operand takes the other's type. ok is false when no operator exists
// (e.g. float % float, or non-numeric operands).
func ArithResultType(op byte, a, b OID) (OID, bool) {
	if a == Unknown {
		a = b
	}
	if b == Unknown {
		b = a
	}
	if !isNumericCategory(a) || !isNumericCategory(b) {
		return Invalid, false
	}
	var r OID
	switch {
	case isInt(a) && isInt(b):
		r = a
		if intRank(b) > intRank(a) {
			r = b
		}
	case a == Float4 && b == Float4:
		r = Float4
	case isFloat(a) || isFloat(b):
		r = Float8
	default:
		r = Numeric
	}
	if op == '%' && isFloat(r) {
		return Invalid, false
	}
	switch op {
	case '+', '-', '*', '/', '%':
		return r, true
	}
	return Invalid, false
}

func isNumericCategory(oid OID) bool { return isInt(oid) || isFloat(oid) || oid == Numeric }

func intRank(oid OID) int {
	switch oid {
	case Int2:
		return 1
	case Int4:
		return 2
	case Int8:
		return 3
	}
	return 0
}

func errDivByZero() error { return pgerr.New(pgerr.DivisionByZero, "division by zero") }

// Arith applies a binary arithmetic operator (+ - * / %) to two non-NULL
// values of type t (int2/int4/int8/float4/float8/numeric; convert operands
// to the type ArithResultType gives first) with PostgreSQL's results and
// errors: 22003 "integer out of range" (smallint/bigint), "value out of
// range: overflow"/"underflow" for floats, 22012 "division by zero".
// Integer division truncates toward zero; numeric division uses
// select_div_scale's result scale.
func Arith(op byte, t T, a, b Datum) (Datum, error) {
	switch {
	case isInt(t.OID):
		x, y, err := operands(t, a, b, asInt)
		if err != nil {
			return nil, err
		}
		return IntArith(op, t.OID, x, y)
	case isFloat(t.OID):
		x, y, err := operands(t, a, b, asFloat)
		if err != nil {
			return nil, err
		}
		return FloatArith(op, t.OID, x, y)
	case t.OID == Numeric:
		x, y, err := operands(t, a, b, asNumeric)
		if err != nil {
			return nil, err
		}
		return NumericArith(op, x, y)
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %c %s", t.Name(), op, t.Name())
}

// operands converts both operands of a binary operator with as.
func operands[V any](t T, a, b Datum, as func(T, Datum) (V, error)) (x, y V, err error) {
	if x, err = as(t, a); err == nil {
		y, err = as(t, b)
	}
	return x, y, err
}

// IntArith is int2/int4/int8 arithmetic of width oid.
func IntArith(op byte, oid OID, x, y int64) (int64, error) {
	var r int64
	switch op {
	case '+':
		r = x + y
		if (x >= 0) == (y >= 0) && (r >= 0) != (x >= 0) {
			return 0, errIntRange(oid)
		}
	case '-':
		r = x - y
		if (x >= 0) != (y >= 0) && (r >= 0) != (x >= 0) {
			return 0, errIntRange(oid)
		}
	case '*':
		r = x * y
		if (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) || (x != 0 && r/x != y) {
			return 0, errIntRange(oid)
		}
	case '/':
		if y == 0 {
			return 0, errDivByZero()
		}
		if y == -1 {
			if x == minOf(oid) {
				return 0, errIntRange(oid)
			}
			r = -x
		} else {
			r = x / y
		}
	case '%':
		if y == 0 {
			return 0, errDivByZero()
		}
		if y == -1 {
			return 0, nil
		}
		r = x % y
	default:
		return 0, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %c %s", intTypeName(oid), op, intTypeName(oid))
	}
	if err := intRange(oid, r); err != nil {
		return 0, err
	}
	return r, nil
}

func minOf(oid OID) int64 {
	switch oid {
	case Int2:
		return math.MinInt16
	case Int4:
		return math.MinInt32
	}
	return math.MinInt64
}

// FloatArith is float4/float8 arithmetic (float4 computed in 32 bits) with
// float.c's overflow/underflow/zero-divide checks.
func FloatArith(op byte, oid OID, x, y float64) (float64, error) {
	f4 := oid == Float4
	calc := func(r float64) float64 {
		if f4 {
			return float64(float32(r))
		}
		return r
	}
	var r float64
	switch op {
	case '+':
		r = calc(x + y)
		if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			return 0, errFloatOverflow()
		}
	case '-':
		r = calc(x - y)
		if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			return 0, errFloatOverflow()
		}
	case '*':
		r = calc(x * y)
		if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			return 0, errFloatOverflow()
		}
		if r == 0 && x != 0 && y != 0 {
			return 0, errFloatUnderflow()
		}
	case '/':
		if y == 0 && !math.IsNaN(x) {
			return 0, errDivByZero()
		}
		r = calc(x / y)
		if math.IsInf(r, 0) && !math.IsInf(x, 0) {
			return 0, errFloatOverflow()
		}
		if r == 0 && x != 0 && !math.IsInf(y, 0) {
			return 0, errFloatUnderflow()
		}
	default:
		n := T{oid, -1}.Name()
		return 0, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %c %s", n, op, n)
	}
	return r, nil
}

// NumericArith is numeric + - * / % as numeric.c computes them: exact sums,
// differences and products (product scale = sum of scales), quotients
// rounded half away from zero at select_div_scale's scale, remainders with
// the dividend's sign. NaN in gives NaN; infinities follow PostgreSQL 15.
func NumericArith(op byte, x, y *apd.Decimal) (*apd.Decimal, error) {
	x, y = numCanon(x), numCanon(y)
	if x.Form != apd.Finite || y.Form != apd.Finite {
		return numSpecialArith(op, x, y)
	}
	sx, sy := numScale(x), numScale(y)
	var r *apd.Decimal
	switch op {
	case '+', '-':
		s := max(sx, sy)
		var c apd.BigInt
		if op == '+' {
			c.Add(numSignedCoeff(x, s), numSignedCoeff(y, s))
		} else {
			c.Sub(numSignedCoeff(x, s), numSignedCoeff(y, s))
		}
		r = numFromSigned(&c, s)
	case '*':
		r = new(apd.Decimal)
		r.Coeff.Mul(&x.Coeff, &y.Coeff)
		r.Exponent = int32(-(sx + sy))
		r.Negative = x.Negative != y.Negative && r.Coeff.Sign() != 0
		if sx+sy > numericDscaleMax {
			r = numRound(r, numericDscaleMax)
		}
	case '/':
		if y.Coeff.Sign() == 0 {
			return nil, errDivByZero()
		}
		rscale := selectDivScale(x, y)
		r = numDiv(x, y, rscale)
	case '%':
		if y.Coeff.Sign() == 0 {
			return nil, errDivByZero()
		}
		s := max(sx, sy)
		var c apd.BigInt
		c.Rem(numSignedCoeff(x, s), numSignedCoeff(y, s))
		r = numFromSigned(&c, s)
	default:
		return nil, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: numeric %c numeric", op)
	}
	if r.Coeff.Sign() == 0 {
		r.Negative = false
	}
	if err := numCheckFormat(r); err != nil {
		return nil, err
	}
	return r, nil
}

// NumericDiv divides x by y rounding half away from zero to rscale digits
// (div_var with round = true); avg() uses it with select_div_scale's scale
// via NumericArith('/').
func numDiv(x, y *apd.Decimal, rscale int) *apd.Decimal {
	// q = x/y = (cx / 10^sx) / (cy / 10^sy); scaled by 10^rscale:
	// Q = cx * 10^(rscale + sy - sx) / cy
	sx, sy := numScale(x), numScale(y)
	var n apd.BigInt
	sh := rscale + sy - sx
	if sh >= 0 {
		n.Mul(&x.Coeff, pow10(sh))
	} else {
		n.Quo(&x.Coeff, pow10(-sh)) // cannot happen: rscale >= sx
	}
	var q, rem apd.BigInt
	q.QuoRem(&n, &y.Coeff, &rem)
	rem.Add(&rem, &rem)
	if rem.Cmp(&y.Coeff) >= 0 {
		q.Add(&q, apd.NewBigInt(1))
	}
	r := new(apd.Decimal)
	r.Coeff.Set(&q)
	r.Exponent = int32(-rscale)
	r.Negative = x.Negative != y.Negative && q.Sign() != 0
	return r
}

// numFirstDigit returns the weight and value of the first non-zero
// base-10000 digit (0, 0 for zero), as select_div_scale inspects them.
func numFirstDigit(d *apd.Decimal) (weight, first int) {
	if d.Coeff.Sign() == 0 {
		return 0, 0
	}
	var str []byte
	if d.Coeff.IsUint64() {
		str = appendUintDigits(nil, d.Coeff.Uint64())
	} else {
		str = d.Coeff.Append(nil, 10)
	}
	e := len(str) - 1 - numScale(d) // decimal exponent of the leading digit
	w := int(floorDiv(int64(e), 4))
	k := e - 4*w + 1 // digits in the first group, 1..4
	for i := 0; i < k; i++ {
		first *= 10
		if i < len(str) {
			first += int(str[i] - '0')
		}
	}
	return w, first
}

// selectDivScale is numeric.c's select_div_scale.
func selectDivScale(x, y *apd.Decimal) int {
	w1, f1 := numFirstDigit(x)
	w2, f2 := numFirstDigit(y)
	qweight := w1 - w2
	if f1 <= f2 {
		qweight--
	}
	rscale := numericMinSigDig - qweight*4
	rscale = max(rscale, numScale(x), numScale(y), 0)
	return min(rscale, numericMaxDispScl)
}

func numSpecialArith(op byte, x, y *apd.Decimal) (*apd.Decimal, error) {
	if x.Form == apd.NaN || y.Form == apd.NaN {
		return NumericNaN(), nil
	}
	sign := func(d *apd.Decimal) int {
		if d.Form == apd.Finite && d.Coeff.Sign() == 0 {
			return 0
		}
		if d.Negative {
			return -1
		}
		return 1
	}
	inf := func(neg bool) *apd.Decimal { return &apd.Decimal{Form: apd.Infinite, Negative: neg} }
	xi, yi := x.Form == apd.Infinite, y.Form == apd.Infinite
	switch op {
	case '+':
		if xi && yi && x.Negative != y.Negative {
			return NumericNaN(), nil
		}
		if xi {
			return x, nil
		}
		return y, nil
	case '-':
		if xi && yi && x.Negative == y.Negative {
			return NumericNaN(), nil
		}
		if xi {
			return x, nil
		}
		return inf(!y.Negative), nil
	case '*':
		if sign(x) == 0 || sign(y) == 0 {
			return NumericNaN(), nil
		}
		return inf(sign(x)*sign(y) < 0), nil
	case '/':
		if xi && yi {
			return NumericNaN(), nil
		}
		if !xi { // finite / inf
			return &apd.Decimal{}, nil
		}
		if sign(y) == 0 {
			return nil, errDivByZero()
		}
		return inf(sign(x)*sign(y) < 0), nil
	case '%':
		if yi && !xi {
			return x, nil
		}
		if !xi && sign(y) == 0 {
			return nil, errDivByZero()
		}
		if xi && sign(y) == 0 {
			return nil, errDivByZero()
		}
		return NumericNaN(), nil
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: numeric %c numeric", op)
}

// Negate is unary minus (int overflow: 22003).
func Negate(t T, a Datum) (Datum, error) {
	switch {
	case isInt(t.OID):
		x, err := asInt(t, a)
		if err != nil {
			return nil, err
		}
		if x == minOf(t.OID) {
			return nil, errIntRange(t.OID)
		}
		return -x, nil
	case isFloat(t.OID):
		x, err := asFloat(t, a)
		if err != nil {
			return nil, err
		}
		return -x, nil
	case t.OID == Numeric:
		x, err := asNumeric(t, a)
		if err != nil {
			return nil, err
		}
		if x.Form == apd.NaN || (x.Form == apd.Finite && x.Coeff.Sign() == 0) {
			return x, nil
		}
		r := new(apd.Decimal)
		r.Set(x)
		r.Negative = !x.Negative
		return r, nil
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: - %s", t.Name())
}

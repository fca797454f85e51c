package types

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"minipg/pgerr"
)

// NaN is the float NaN PostgreSQL produces (bits 0x7ff8000000000000; Go's
// math.NaN has a different payload).
var NaN = math.Float64frombits(0x7ff8000000000000)

// float8Bits is math.Float64bits with every NaN written as PostgreSQL's.
func float8Bits(f float64) uint64 {
	if f != f {
		return 0x7ff8000000000000
	}
	return math.Float64bits(f)
}

// parseFloat is float8in / float4in: glibc strtod/strtof syntax (decimal,
// hexadecimal, inf/infinity/nan in any case) with leading and trailing
// white space, out-of-range results (overflow, or underflow to zero) as 22003.
func parseFloat(in string, bits int) (Datum, error) {
	typ := "double precision"
	if bits == 32 {
		typ = "real"
	}
	syntax := func() error {
		return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", typ, in)
	}
	s := trimSpace(in)
	switch strings.ToLower(s) {
	case "nan", "+nan", "-nan":
		return NaN, nil
	case "infinity", "+infinity", "inf", "+inf":
		return math.Inf(1), nil
	case "-infinity", "-inf":
		return math.Inf(-1), nil
	}
	body := s
	if body != "" && (body[0] == '+' || body[0] == '-') {
		body = body[1:]
	}
	hex := len(body) > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')
	nonzero := false
	digits := 0
	if hex {
		mant := body[2:]
		exp := ""
		if i := strings.IndexAny(mant, "pP"); i >= 0 {
			mant, exp = mant[:i], mant[i+1:]
			if exp != "" && (exp[0] == '+' || exp[0] == '-') {
				exp = exp[1:]
			}
			if !allDigits(exp) {
				return nil, syntax()
			}
		} else {
			s += "p0"
		}
		seenPoint := false
		for i := 0; i < len(mant); i++ {
			c := mant[i]
			switch {
			case c == '.' && !seenPoint:
				seenPoint = true
			case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
				digits++
				if c != '0' {
					nonzero = true
				}
			default:
				return nil, syntax()
			}
		}
	} else {
		i := 0
		seenPoint := false
		for ; i < len(body); i++ {
			c := body[i]
			if c >= '0' && c <= '9' {
				digits++
				if c != '0' {
					nonzero = true
				}
			} else if c == '.' && !seenPoint {
				seenPoint = true
			} else {
				break
			}
		}
		if i < len(body) {
			if body[i] != 'e' && body[i] != 'E' {
				return nil, syntax()
			}
			e := body[i+1:]
			if e != "" && (e[0] == '+' || e[0] == '-') {
				e = e[1:]
			}
			if !allDigits(e) {
				return nil, syntax()
			}
		}
	}
	if digits == 0 {
		return nil, syntax()
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return nil, pgerr.New(pgerr.NumericValueOutOfRange, "\"%s\" is out of range for type %s", in, typ)
		}
		return nil, syntax()
	}
	if f == 0 && nonzero {
		return nil, pgerr.New(pgerr.NumericValueOutOfRange, "\"%s\" is out of range for type %s", in, typ)
	}
	return f, nil
}

// appendFloat is float8out/float4out with extra_float_digits > 0
// (PostgreSQL's Ryu): the shortest digit string strictly inside the
// rounding interval of the value (PostgreSQL does not accept the interval's
// bounds, so 1e23 prints as 9.999999999999999e+22), closest to the value;
// fixed notation for decimal exponents -4..14 (-4..5 for real), else
// d.ddde+XX.
func appendFloat(buf []byte, f float64, bits int) []byte {
	if out, ok := appendFloatSpecial(buf, f); ok {
		return out
	}
	if bits == 32 {
		f = float64(float32(f))
	}
	var tmp [40]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, bits)
	if f != 0 && onBound(f, bits, e) {
		maxDigits := 17
		if bits == 32 {
			maxDigits = 9
		}
		for p := countDigits(e); p <= maxDigits; p++ {
			c := strconv.AppendFloat(nil, f, 'e', p-1, bits)
			if !onOrOutside(f, bits, c) {
				e = trimMantissaZeros(c)
				break
			}
		}
	}
	limit := 15
	if bits == 32 {
		limit = 6
	}
	return appendDecimalLayout(buf, e, limit)
}

// appendFloatSpecial appends NaN, Infinity or -Infinity for those values
// and reports whether f was one.
func appendFloatSpecial(buf []byte, f float64) ([]byte, bool) {
	switch {
	case math.IsNaN(f):
		return append(buf, "NaN"...), true
	case math.IsInf(f, 1):
		return append(buf, "Infinity"...), true
	case math.IsInf(f, -1):
		return append(buf, "-Infinity"...), true
	}
	return buf, false
}

// appendFloatDigits is float8out (float4out for bits 32) with
// extra_float_digits = 1 - cut <= 0: %g with DBL_DIG (FLT_DIG) +
// extra_float_digits significant digits, at least one.
func appendFloatDigits(buf []byte, f float64, bits, cut int) []byte {
	if out, ok := appendFloatSpecial(buf, f); ok {
		return out
	}
	digits := 15 + 1 - cut
	if bits == 32 {
		f = float64(float32(f))
		digits = 6 + 1 - cut
	}
	return strconv.AppendFloat(buf, f, 'g', max(digits, 1), bits)
}

// countDigits counts mantissa digits in Go's 'e' form "-d.ddde±XX".
func countDigits(e []byte) int {
	n := 0
	for _, c := range e {
		if c == 'e' {
			break
		}
		if c >= '0' && c <= '9' {
			n++
		}
	}
	return n
}

// trimMantissaZeros removes trailing zeros of the mantissa of an 'e' form.
func trimMantissaZeros(e []byte) []byte {
	x := strings.IndexByte(string(e), 'e')
	m, rest := e[:x], e[x:]
	if strings.IndexByte(string(m), '.') >= 0 {
		m = []byte(strings.TrimRight(string(m), "0"))
		m = []byte(strings.TrimSuffix(string(m), "."))
	}
	return append(m, rest...)
}

// appendDecimalLayout turns "-d.ddde±XX" into PostgreSQL's layout.
func appendDecimalLayout(buf []byte, e []byte, limit int) []byte {
	x := strings.IndexByte(string(e), 'e')
	exp, _ := strconv.Atoi(string(e[x+1:]))
	if exp < -4 || exp >= limit {
		return append(buf, e...)
	}
	m := e[:x]
	if m[0] == '-' {
		buf = append(buf, '-')
		m = m[1:]
	}
	digits := make([]byte, 0, 20)
	for _, c := range m {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	if exp < 0 {
		buf = append(buf, '0', '.')
		for i := 0; i < -exp-1; i++ {
			buf = append(buf, '0')
		}
		return append(buf, digits...)
	}
	if len(digits) <= exp+1 {
		buf = append(buf, digits...)
		for i := len(digits); i <= exp; i++ {
			buf = append(buf, '0')
		}
		return buf
	}
	buf = append(buf, digits[:exp+1]...)
	buf = append(buf, '.')
	return append(buf, digits[exp+1:]...)
}

// onBound reports whether the decimal string e (which reads back as f)
// lies exactly on a bound of f's rounding interval. A cheap digit-count
// test rules out almost every value before the exact check.
func onBound(f float64, bits int, e []byte) bool {
	x := strings.IndexByte(string(e), 'e')
	exp10, _ := strconv.Atoi(string(e[x+1:]))
	nd := countDigits(e)
	fracDigits := nd - 1 - exp10 // decimal places of e
	if fracDigits < 0 {
		fracDigits = 0
	}
	_, bexp := math.Frexp(math.Abs(f))
	mbits := 53
	minExp := -1074
	if bits == 32 {
		mbits, minExp = 24, -149
	}
	ulpExp := bexp - mbits
	if ulpExp < minExp {
		ulpExp = minExp
	}
	// The bounds are odd multiples of 2^(ulpExp-1) (or 2^(ulpExp-2) below
	// a power of two): their decimal expansions have exactly that many
	// fractional digits when the exponent is negative.
	h := ulpExp - 1
	if h < 0 {
		if fracDigits != -h && fracDigits != -h+1 {
			return false
		}
	} else if fracDigits != 0 {
		return false
	}
	return onOrOutside(f, bits, e)
}

// onOrOutside reports whether decimal string d is not strictly inside f's
// rounding interval (midpoints to the neighbouring floats).
func onOrOutside(f float64, bits int, d []byte) bool {
	var lo, hi float64
	if bits == 32 {
		f32 := float32(f)
		lo = float64(math.Nextafter32(f32, float32(math.Inf(-1))))
		hi = float64(math.Nextafter32(f32, float32(math.Inf(1))))
	} else {
		lo = math.Nextafter(f, math.Inf(-1))
		hi = math.Nextafter(f, math.Inf(1))
	}
	v := new(big.Rat).SetFloat64(f)
	dv, ok := new(big.Rat).SetString(string(d))
	if !ok {
		return true
	}
	half := big.NewRat(1, 2)
	if !math.IsInf(lo, 0) {
		mlo := new(big.Rat).Add(v, new(big.Rat).SetFloat64(lo))
		mlo.Mul(mlo, half)
		if dv.Cmp(mlo) <= 0 {
			return true
		}
	}
	if !math.IsInf(hi, 0) {
		mhi := new(big.Rat).Add(v, new(big.Rat).SetFloat64(hi))
		mhi.Mul(mhi, half)
		if dv.Cmp(mhi) >= 0 {
			return true
		}
	}
	return false
}

package types

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
)

// Numeric values are *apd.Decimal. Values this package returns are
// canonical: a finite value has Exponent == -dscale (PostgreSQL's display
// scale, never negative), a non-negative Coeff, and Negative false when it is
// zero; NaN is Form NaN; ±Infinity is Form Infinite with Negative. Values
// built elsewhere (apd.New(5, 2)) are accepted and canonicalized on use.

// Limits of PostgreSQL's storage format.
const (
	numericDscaleMax   = 0x3FFF // NUMERIC_DSCALE_MAX
	numericWeightMax   = 0x7FFF // NUMERIC_WEIGHT_MAX (base-10000 digits)
	numericMaxIntDigit = (numericWeightMax + 1) * 4
	numericMinSigDig   = 16   // NUMERIC_MIN_SIG_DIGITS
	numericMaxDispScl  = 1000 // NUMERIC_MAX_DISPLAY_SCALE
)

var (
	numNaN     = &apd.Decimal{Form: apd.NaN}
	numPosInf  = &apd.Decimal{Form: apd.Infinite}
	numNegInf  = &apd.Decimal{Form: apd.Infinite, Negative: true}
	pow10Cache [40]apd.BigInt
)

func init() {
	pow10Cache[0].SetInt64(1)
	ten := apd.NewBigInt(10)
	for i := 1; i < len(pow10Cache); i++ {
		pow10Cache[i].Mul(&pow10Cache[i-1], ten)
	}
}

// pow10 returns 10^n (n >= 0); the result must not be modified.
func pow10(n int) *apd.BigInt {
	if n < len(pow10Cache) {
		return &pow10Cache[n]
	}
	var z apd.BigInt
	return z.Exp(apd.NewBigInt(10), apd.NewBigInt(int64(n)), nil)
}

// NumericFromInt64 returns the numeric value of i (scale 0).
func NumericFromInt64(i int64) *apd.Decimal {
	d := new(apd.Decimal)
	d.SetInt64(i)
	return d
}

// NumericNaN returns a numeric NaN.
func NumericNaN() *apd.Decimal { return &apd.Decimal{Form: apd.NaN} }

// numCanon returns d in canonical form (d itself when already canonical).
func numCanon(d *apd.Decimal) *apd.Decimal {
	if d.Form != apd.Finite {
		if d.Form == apd.NaNSignaling || (d.Form == apd.NaN && d.Negative) {
			return NumericNaN()
		}
		return d
	}
	if d.Exponent <= 0 && d.Coeff.Sign() > 0 {
		return d
	}
	if d.Exponent <= 0 && d.Coeff.Sign() == 0 && !d.Negative {
		return d
	}
	r := new(apd.Decimal)
	r.Coeff.Abs(&d.Coeff)
	r.Negative = d.Negative != (d.Coeff.Sign() < 0)
	r.Exponent = d.Exponent
	if r.Exponent > 0 {
		r.Coeff.Mul(&r.Coeff, pow10(int(r.Exponent)))
		r.Exponent = 0
	}
	if r.Coeff.Sign() == 0 {
		r.Negative = false
	}
	return r
}

// numScale is the display scale of a canonical finite value.
func numScale(d *apd.Decimal) int { return int(-d.Exponent) }

// numDigits is the number of decimal digits of |coeff| (0 for zero).
func numDigits(c *apd.BigInt) int {
	if c.Sign() == 0 {
		return 0
	}
	if c.IsUint64() {
		u := c.Uint64()
		n := 0
		for u > 0 {
			n++
			u /= 10
		}
		return n
	}
	return len(c.Text(10)) - boolInt(c.Sign() < 0)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

var errNumericOverflowFormat = func() error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
}

// numCheckFormat reports "value overflows numeric format" when a canonical
// value cannot be stored by PostgreSQL (more than 131072 digits before the
// point or a display scale above 16383).
func numCheckFormat(d *apd.Decimal) error {
	if d.Form != apd.Finite {
		return nil
	}
	if numScale(d) > numericDscaleMax {
		return errNumericOverflowFormat()
	}
	if numDigits(&d.Coeff)-numScale(d) > numericMaxIntDigit {
		return errNumericOverflowFormat()
	}
	return nil
}

// NumericRound is round(numeric, scale): half away from zero; a negative
// scale rounds to tens, hundreds...; NaN and infinities are returned as is.
func NumericRound(d *apd.Decimal, scale int) *apd.Decimal {
	return numRound(numCanon(d), max(min(scale, 2*NumericMaxPrecision), -2*NumericMaxPrecision))
}

// NumericTrunc is trunc(numeric, scale).
func NumericTrunc(d *apd.Decimal, scale int) *apd.Decimal {
	return numTrunc(numCanon(d), max(min(scale, 2*NumericMaxPrecision), -2*NumericMaxPrecision))
}

// numRound rounds a canonical value to scale digits after the point, half
// away from zero (PostgreSQL's round_var). A negative scale rounds to tens,
// hundreds...; the result's display scale is max(scale, 0).
func numRound(d *apd.Decimal, scale int) *apd.Decimal {
	return numRoundMode(d, scale, true)
}

// numTrunc truncates toward zero (trunc_var).
func numTrunc(d *apd.Decimal, scale int) *apd.Decimal {
	return numRoundMode(d, scale, false)
}

func numRoundMode(d *apd.Decimal, scale int, round bool) *apd.Decimal {
	if d.Form != apd.Finite {
		return d
	}
	cur := numScale(d)
	r := new(apd.Decimal)
	r.Negative = d.Negative
	if scale >= cur {
		r.Coeff.Mul(&d.Coeff, pow10(scale-cur))
		r.Exponent = int32(-scale)
		return r
	}
	drop := cur - scale
	var rem apd.BigInt
	r.Coeff.QuoRem(&d.Coeff, pow10(drop), &rem)
	if round {
		rem.Add(&rem, &rem)
		if rem.Cmp(pow10(drop)) >= 0 {
			r.Coeff.Add(&r.Coeff, apd.NewBigInt(1))
		}
	}
	if scale < 0 {
		r.Coeff.Mul(&r.Coeff, pow10(-scale))
		scale = 0
	}
	r.Exponent = int32(-scale)
	if r.Coeff.Sign() == 0 {
		r.Negative = false
	}
	return r
}

// numApplyTypmod enforces numeric(p,s) as apply_typmod does: round to s,
// then "numeric field overflow" if the integer part has more than p-s digits.
func numApplyTypmod(d *apd.Decimal, typmod int32) (*apd.Decimal, error) {
	t := T{Numeric, typmod}
	p, s, ok := t.NumericPrecScale()
	if !ok {
		return d, nil
	}
	if d.Form == apd.NaN {
		return d, nil
	}
	if d.Form == apd.Infinite {
		return nil, pgerr.New(pgerr.NumericValueOutOfRange, "numeric field overflow").
			WithDetail("A field with precision %d, scale %d cannot hold an infinite value.", p, s)
	}
	r := numRound(d, s)
	maxdigits := p - s
	if r.Coeff.Sign() != 0 && numDigits(&r.Coeff)-numScale(r) > maxdigits {
		e := pgerr.New(pgerr.NumericValueOutOfRange, "numeric field overflow")
		if maxdigits != 0 {
			e.WithDetail("A field with precision %d, scale %d must round to an absolute value less than 10^%d.", p, s, maxdigits)
		} else {
			e.WithDetail("A field with precision %d, scale %d must round to an absolute value less than 1.", p, s)
		}
		return nil, e
	}
	return r, nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// parseNumeric is numeric_in without the typmod.
func parseNumeric(in string) (*apd.Decimal, error) {
	bad := func() error {
		return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type numeric: \"%s\"", in)
	}
	s := trimSpace(in)
	switch strings.ToLower(s) {
	case "nan":
		return NumericNaN(), nil
	case "infinity", "+infinity", "inf", "+inf":
		return &apd.Decimal{Form: apd.Infinite}, nil
	case "-infinity", "-inf":
		return &apd.Decimal{Form: apd.Infinite, Negative: true}, nil
	}
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var digits []byte
	seenDigit, seenPoint := false, false
	frac := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			seenDigit = true
			if len(digits) > 0 || c != '0' {
				digits = append(digits, c)
			}
			if seenPoint {
				frac++
			}
		} else if c == '.' && !seenPoint {
			seenPoint = true
		} else {
			break
		}
	}
	if !seenDigit {
		return nil, bad()
	}
	exp := int64(0)
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		start := i
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if exp < 1<<40 {
				exp = exp*10 + int64(s[i]-'0')
			}
		}
		if i == start {
			return nil, bad()
		}
		if exp >= (1<<31-1)/2 {
			return nil, errNumericOverflowFormat()
		}
		if eneg {
			exp = -exp
		}
	}
	if i != len(s) {
		return nil, bad()
	}
	// value = digits * 10^(exp - frac); display scale = max(frac - exp, 0).
	dscale := int64(frac) - exp
	if dscale < 0 {
		dscale = 0
	}
	if dscale > numericDscaleMax {
		return nil, errNumericOverflowFormat()
	}
	if int64(len(digits))-int64(frac)+exp > numericMaxIntDigit {
		return nil, errNumericOverflowFormat()
	}
	d := new(apd.Decimal)
	if len(digits) > 0 {
		if len(digits) <= 18 {
			u, _ := strconv.ParseUint(string(digits), 10, 64)
			d.Coeff.SetUint64(u)
		} else {
			d.Coeff.SetString(string(digits), 10)
		}
	}
	shift := dscale - (int64(frac) - exp) // >= 0: digits to append
	if shift > 0 && len(digits) > 0 {
		d.Coeff.Mul(&d.Coeff, pow10(int(shift)))
	}
	d.Exponent = int32(-dscale)
	d.Negative = neg && d.Coeff.Sign() != 0
	return d, nil
}

// appendNumeric is numeric_out: plain notation at the display scale.
func appendNumeric(buf []byte, d *apd.Decimal) []byte {
	d = numCanon(d)
	switch d.Form {
	case apd.NaN:
		return append(buf, "NaN"...)
	case apd.Infinite:
		if d.Negative {
			return append(buf, "-Infinity"...)
		}
		return append(buf, "Infinity"...)
	}
	if d.Negative {
		buf = append(buf, '-')
	}
	scale := numScale(d)
	start := len(buf)
	if d.Coeff.IsUint64() {
		buf = strconv.AppendUint(buf, d.Coeff.Uint64(), 10)
	} else {
		buf = d.Coeff.Append(buf, 10)
	}
	if scale == 0 {
		return buf
	}
	n := len(buf) - start
	if n <= scale {
		// pad to "0.000ddd"
		pad := scale - n + 1
		buf = append(buf, make([]byte, pad)...)
		copy(buf[start+pad:], buf[start:start+n])
		for i := 0; i < pad; i++ {
			buf[start+i] = '0'
		}
		n += pad
	}
	buf = append(buf, 0)
	p := start + n - scale
	copy(buf[p+1:], buf[p:start+n])
	buf[p] = '.'
	return buf
}

// numToPG splits a canonical value into PostgreSQL's NumericVar parts:
// base-10000 digits (leading and trailing zero digits stripped), weight of
// the first digit, and display scale. Zero has no digits and weight 0.
func numToPG(d *apd.Decimal) (neg bool, weight, dscale int, digits []int16) {
	dscale = numScale(d)
	if d.Coeff.Sign() == 0 {
		return false, 0, dscale, nil
	}
	// Pad the fraction to a multiple of 4 digits.
	padded := (dscale + 3) / 4 * 4
	var c apd.BigInt
	c.Mul(&d.Coeff, pow10(padded-dscale))
	var str []byte
	if c.IsUint64() {
		str = strconv.AppendUint(nil, c.Uint64(), 10)
	} else {
		str = c.Append(nil, 10)
	}
	// Left-pad to a multiple of 4.
	if r := len(str) % 4; r != 0 {
		str = append(make([]byte, 4-r, len(str)+4-r), str...)
		for i := 0; i < 4-(r); i++ {
			str[i] = '0'
		}
	}
	ng := len(str) / 4
	digits = make([]int16, ng)
	for i := 0; i < ng; i++ {
		g := str[i*4 : i*4+4]
		digits[i] = int16((int(g[0]-'0')*1000 + int(g[1]-'0')*100 + int(g[2]-'0')*10 + int(g[3]-'0')))
	}
	weight = ng - 1 - padded/4
	for len(digits) > 0 && digits[0] == 0 {
		digits = digits[1:]
		weight--
	}
	for len(digits) > 0 && digits[len(digits)-1] == 0 {
		digits = digits[:len(digits)-1]
	}
	return d.Negative, weight, dscale, digits
}

// numFromPG builds a canonical value from NumericVar parts, truncating
// digits beyond dscale (as numeric_recv does). Digits must be 0..9999.
func numFromPG(neg bool, weight, dscale int, digits []int16) *apd.Decimal {
	d := new(apd.Decimal)
	// value = sum digits[i] * 10000^(weight-i)
	// Only digits with weight-i >= -(dscale+3)/4 can matter.
	keep := len(digits)
	if maxFrac := (dscale + 3) / 4; weight-keep+1 < -maxFrac {
		keep = weight + maxFrac + 1
		if keep < 0 {
			keep = 0
		}
	}
	digits = digits[:keep]
	if len(digits) <= 4 {
		var u uint64
		for _, g := range digits {
			u = u*10000 + uint64(g)
		}
		d.Coeff.SetUint64(u)
	} else {
		str := make([]byte, 0, 4*len(digits))
		for _, g := range digits {
			str = append(str, byte('0'+g/1000), byte('0'+g/100%10), byte('0'+g/10%10), byte('0'+g%10))
		}
		d.Coeff.SetString(string(str), 10)
	}
	// d = coeff * 10^(4*(weight-len+1))
	exp := 4 * (weight - len(digits) + 1)
	if len(digits) == 0 {
		exp = 0
	}
	if exp >= 0 {
		if d.Coeff.Sign() != 0 {
			d.Coeff.Mul(&d.Coeff, pow10(exp+dscale))
		}
	} else if -exp <= dscale {
		d.Coeff.Mul(&d.Coeff, pow10(dscale+exp))
	} else {
		d.Coeff.Quo(&d.Coeff, pow10(-exp-dscale))
	}
	d.Exponent = int32(-dscale)
	d.Negative = neg && d.Coeff.Sign() != 0
	return d
}

// numSignedCoeff returns the coefficient of a canonical finite value scaled
// to scale (>= its own), with the value's sign.
func numSignedCoeff(d *apd.Decimal, scale int) *apd.BigInt {
	var c apd.BigInt
	c.Mul(&d.Coeff, pow10(scale-numScale(d)))
	if d.Negative {
		c.Neg(&c)
	}
	return &c
}

// numFromSigned builds a canonical value from a signed coefficient and scale.
func numFromSigned(c *apd.BigInt, scale int) *apd.Decimal {
	d := new(apd.Decimal)
	d.Coeff.Abs(c)
	d.Negative = c.Sign() < 0
	d.Exponent = int32(-scale)
	return d
}

// numCmp compares canonical values with PostgreSQL's order:
// -Infinity < finite < +Infinity < NaN, NaN equal to NaN.
func numCmp(a, b *apd.Decimal) int {
	ra, rb := numRank(a), numRank(b)
	if ra != rb || ra != 1 {
		return cmp.Compare(ra, rb)
	}
	if a.Negative != b.Negative {
		if a.Negative {
			return -1
		}
		return 1
	}
	sa, sb := numScale(a), numScale(b)
	var c int
	if sa == sb {
		c = a.Coeff.Cmp(&b.Coeff)
	} else if sa < sb {
		var x apd.BigInt
		x.Mul(&a.Coeff, pow10(sb-sa))
		c = x.Cmp(&b.Coeff)
	} else {
		var x apd.BigInt
		x.Mul(&b.Coeff, pow10(sa-sb))
		c = a.Coeff.Cmp(&x)
	}
	if a.Negative {
		c = -c
	}
	return c
}

func numRank(d *apd.Decimal) int {
	switch d.Form {
	case apd.Finite:
		return 1
	case apd.Infinite:
		if d.Negative {
			return 0
		}
		return 2
	}
	return 3
}

// numStripZeros returns the value without trailing fractional zeros
// (for hashing and keys: 1.0 and 1.00 are equal).
func numStripZeros(d *apd.Decimal) *apd.Decimal {
	if d.Form != apd.Finite {
		return d
	}
	if d.Coeff.Sign() == 0 {
		return &apd.Decimal{}
	}
	if d.Exponent == 0 {
		return d
	}
	if d.Coeff.IsUint64() {
		u, e := d.Coeff.Uint64(), d.Exponent
		for e < 0 && u%10 == 0 {
			u /= 10
			e++
		}
		r := &apd.Decimal{Negative: d.Negative, Exponent: e}
		r.Coeff.SetUint64(u)
		return r
	}
	str := d.Coeff.Append(nil, 10)
	n := 0
	for n < -int(d.Exponent) && str[len(str)-1-n] == '0' {
		n++
	}
	if n == 0 {
		return d
	}
	r := &apd.Decimal{Negative: d.Negative, Exponent: d.Exponent + int32(n)}
	r.Coeff.SetString(string(str[:len(str)-n]), 10)
	return r
}

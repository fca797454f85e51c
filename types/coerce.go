package types

import (
	"math"
	"strconv"
	"time"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
)

// CastContext is pg_cast.castcontext.
type CastContext byte

// Cast contexts, from most to least restrictive; CastNone means no cast.
const (
	CastNone       CastContext = 0
	CastExplicit   CastContext = 'e'
	CastAssignment CastContext = 'a'
	CastImplicit   CastContext = 'i'
)

// Allows reports whether a cast of context c may be applied where ctx is
// required (an implicit cast may be used in an assignment, etc.).
func (c CastContext) Allows(ctx CastContext) bool {
	rank := func(x CastContext) int {
		switch x {
		case CastImplicit:
			return 3
		case CastAssignment:
			return 2
		case CastExplicit:
			return 1
		}
		return 0
	}
	return c != CastNone && rank(c) >= rank(ctx)
}

func isInt(oid OID) bool   { return oid == Int2 || oid == Int4 || oid == Int8 }
func isFloat(oid OID) bool { return oid == Float4 || oid == Float8 }
func isString(oid OID) bool {
	return oid == Text || oid == Varchar || oid == Bpchar || oid == Name || oid == Char
}

// CastContextOf returns the context in which a value of type from can be cast
// to type to, following pg_cast (and the automatic I/O casts: to a string
// type in assignment, from a string type explicitly). Same type: implicit.
// Unknown (an untyped literal) converts implicitly to anything.
func CastContextOf(from, to OID) CastContext {
	if from == to || from == Unknown {
		return CastImplicit
	}
	if c, ok := extCastContext(from, to); ok {
		return c
	}
	switch {
	case isInt(from) && isInt(to):
		if intRank(from) < intRank(to) {
			return CastImplicit
		}
		return CastAssignment
	case isInt(from) && (isFloat(to) || to == Numeric):
		return CastImplicit
	case isFloat(from) && isFloat(to):
		if from == Float4 {
			return CastImplicit
		}
		return CastAssignment
	case isFloat(from) && (isInt(to) || to == Numeric):
		return CastAssignment
	case from == Numeric && isFloat(to):
		return CastImplicit
	case from == Numeric && isInt(to):
		return CastAssignment
	case from == Int4 && to == Bool, from == Bool && to == Int4:
		return CastExplicit
	case isString(from) && isString(to):
		return CastImplicit
	case from == Date && (to == Timestamp || to == TimestampTZ), from == Timestamp && to == TimestampTZ:
		return CastImplicit
	case (from == Timestamp || from == TimestampTZ) && to == Date, from == TimestampTZ && to == Timestamp:
		return CastAssignment
	case isString(to) && Known(from) && from != Void:
		return CastAssignment
	case isString(from) && Known(to) && to != Void && to != Unknown:
		return CastExplicit
	}
	return CastNone
}

// Coerce converts d from type from to type to, as an assignment (or
// implicit) cast when explicit is false and as CAST(... AS to) when explicit
// is true, then enforces to's typmod (length coercion: varchar(n)/char(n)
// truncate only when explicit, else 22001 unless the excess is blanks;
// numeric(p,s) rounds half away from zero, 22003 on overflow; timestamp(p)
// rounds). nil stays nil. 42846 when no such cast exists.
func Coerce(d Datum, from, to T, explicit bool) (Datum, error) {
	return CoerceIn(d, from, to, explicit, time.UTC)
}

// CoerceIn is Coerce with loc as the session's TimeZone (casts between
// timestamptz and text, timestamp and date read it).
func CoerceIn(d Datum, from, to T, explicit bool, loc *time.Location) (Datum, error) {
	return CoerceConv(d, from, to, explicit, Conv{Loc: loc})
}

// CoerceConv is Coerce with the session's TimeZone and IntervalStyle
// (casts between interval and text read it).
func CoerceConv(d Datum, from, to T, explicit bool, cv Conv) (Datum, error) {
	loc := cv.loc()
	cv.Loc = loc
	if d == nil {
		return nil, nil
	}
	ctx := CastContextOf(from.OID, to.OID)
	if ctx == CastNone || (!explicit && !ctx.Allows(CastAssignment)) {
		return nil, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", from.Name(), to.Name())
	}
	if from == to && !explicit {
		return d, nil
	}
	if IsArray(from.OID) && IsArray(to.OID) {
		return coerceArray(d, from, to, explicit, cv)
	}
	if v, ok, err := coerceChar(d, from, to, cv); ok {
		return v, err
	}
	if v, ok, err := coerceSys(d, from, to); ok {
		return v, err
	}
	if v, ok, err := coerceTime(d, from, to, cv); ok {
		return v, err
	}
	if v, ok, err := coerceJSON(d, from, to); ok {
		return v, err
	}
	switch {
	case from.OID == Unknown || (isString(from.OID) && !isString(to.OID)):
		s, err := asString(from, d)
		if err != nil {
			return nil, err
		}
		// (An I/O cast reads char(n) with its padding: bpcharout keeps it.)
		if isString(to.OID) {
			if err := checkEncoding(s); err != nil {
				return nil, err
			}
			return charApplyTypmod(s, to, explicit)
		}
		if to.OID == Interval && from.OID != Unknown {
			// An I/O cast reads the text with no typmod; the length
			// coercion applies it after.
			v, err := ParseIntervalStyle(s, -1, cv.IntervalStyle)
			if err != nil {
				return nil, err
			}
			return IntervalApplyTypmod(v, to.Typmod), nil
		}
		return ParseTextConv(to, s, cv)
	case isString(to.OID):
		var s string
		switch {
		case from.OID == Bool:
			b, err := asBool(from, d)
			if err != nil {
				return nil, err
			}
			s = "false"
			if b {
				s = "true"
			}
			if to.OID == Name {
				// bool to name is an I/O cast (boolout), not text(bool).
				s = s[:1]
			}
		case from.OID == Bpchar && to.OID != Bpchar:
			v, err := asString(from, d)
			if err != nil {
				return nil, err
			}
			s = bpcharTrim(v)
		case isString(from.OID):
			v, err := asString(from, d)
			if err != nil {
				return nil, err
			}
			s = v
		default:
			s = string(AppendTextConv(nil, from, d, cv))
		}
		if to.OID == Name {
			return s[:charClipBytes(s, NameDataLen-1)], nil
		}
		return charApplyTypmod(s, to, explicit)
	case isInt(from.OID):
		v, err := asInt(from, d)
		if err != nil {
			return nil, err
		}
		switch {
		case isInt(to.OID):
			if err := intRange(to.OID, v); err != nil {
				return nil, err
			}
			return v, nil
		case to.OID == Float4:
			return float64(float32(v)), nil
		case to.OID == Float8:
			return float64(v), nil
		case to.OID == Numeric:
			return numApplyTypmod(NumericFromInt64(v), to.Typmod)
		case to.OID == Bool:
			return v != 0, nil
		}
	case isFloat(from.OID):
		v, err := asFloat(from, d)
		if err != nil {
			return nil, err
		}
		switch {
		case to.OID == Float8:
			return v, nil
		case to.OID == Float4:
			return float8ToFloat4(v)
		case isInt(to.OID):
			return floatToInt(v, to.OID)
		case to.OID == Numeric:
			n, err := floatToNumeric(v, from.OID == Float4)
			if err != nil {
				return nil, err
			}
			return numApplyTypmod(n, to.Typmod)
		}
	case from.OID == Numeric:
		v, err := asNumeric(from, d)
		if err != nil {
			return nil, err
		}
		switch {
		case to.OID == Numeric:
			return numApplyTypmod(v, to.Typmod)
		case isInt(to.OID):
			return NumericToInt(v, to.OID)
		case isFloat(to.OID):
			return numericToFloat(v, to.OID)
		}
	case from.OID == Bool && to.OID == Int4:
		v, err := asBool(from, d)
		if err != nil {
			return nil, err
		}
		return int64(boolInt(v)), nil
	case from.OID == TimestampTZ:
		v, err := asTime(from, d)
		if err != nil {
			return nil, err
		}
		switch to.OID {
		case TimestampTZ:
			return timestampApplyTypmod(v, to.Typmod), nil
		case Timestamp:
			r, err := TZToTimestamp(v, loc)
			if err != nil {
				return nil, err
			}
			return timestampApplyTypmod(r, to.Typmod), nil
		case Date:
			r, err := TZToTimestamp(v, loc)
			if err != nil {
				return nil, err
			}
			return CoerceConv(r, TTimestamp, TDate, explicit, cv)
		}
	case from.OID == Interval && to.OID == Interval:
		v, err := asInterval(from, d)
		if err != nil {
			return nil, err
		}
		return IntervalApplyTypmod(v, to.Typmod), nil
	case from.OID == Timestamp:
		v, err := asTime(from, d)
		if err != nil {
			return nil, err
		}
		switch to.OID {
		case TimestampTZ:
			r, err := TimestampToTZ(v, loc)
			if err != nil {
				return nil, err
			}
			return timestampApplyTypmod(r, to.Typmod), nil
		case Timestamp:
			return timestampApplyTypmod(v, to.Typmod), nil
		case Date:
			us := TimestampMicros(v)
			switch us {
			case math.MaxInt64:
				return DateInfinity, nil
			case math.MinInt64:
				return DateNegInfinity, nil
			}
			return DaysToDate(int32(floorDiv(us, 86400e6))), nil
		}
	case from.OID == Date:
		v, err := asTime(from, d)
		if err != nil {
			return nil, err
		}
		switch to.OID {
		case Date:
			return v, nil
		case Timestamp, TimestampTZ:
			days := DateDays(v)
			switch days {
			case math.MaxInt32:
				return TimestampInfinity, nil
			case math.MinInt32:
				return TimestampNegInfinity, nil
			}
			us := int64(days) * 86400e6
			if days >= int32(endTimestamp/86400e6) {
				return nil, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range for timestamp")
			}
			if to.OID == TimestampTZ {
				return TimestampToTZ(MicrosToTimestamp(us), loc)
			}
			return MicrosToTimestamp(us), nil
		}
	case from.OID == to.OID:
		return d, nil
	}
	return nil, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", from.Name(), to.Name())
}

func intTypeName(oid OID) string {
	switch oid {
	case Int2:
		return "smallint"
	case Int8:
		return "bigint"
	}
	return "integer"
}

func errIntRange(oid OID) error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "%s out of range", intTypeName(oid))
}

// floatToInt is dtoi2/dtoi4/dtoi8: round half to even, range check.
func floatToInt(v float64, to OID) (Datum, error) {
	r := math.RoundToEven(v)
	var ok bool
	switch to {
	case Int2:
		ok = r >= math.MinInt16 && r < -math.MinInt16
	case Int4:
		ok = r >= math.MinInt32 && r < -math.MinInt32
	default:
		ok = r >= math.MinInt64 && r < -math.MinInt64
	}
	if math.IsNaN(r) || !ok {
		return nil, errIntRange(to)
	}
	return int64(r), nil
}

func errFloatOverflow() error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
}

func errFloatUnderflow() error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: underflow")
}

func float8ToFloat4(v float64) (Datum, error) {
	r := float32(v)
	if math.IsInf(float64(r), 0) && !math.IsInf(v, 0) {
		return nil, errFloatOverflow()
	}
	if r == 0 && v != 0 {
		return nil, errFloatUnderflow()
	}
	return float64(r), nil
}

// floatToNumeric is float8_numeric / float4_numeric: the value printed with
// DBL_DIG (15) or FLT_DIG (6) significant digits.
func floatToNumeric(v float64, f4 bool) (*apd.Decimal, error) {
	switch {
	case math.IsNaN(v):
		return NumericNaN(), nil
	case math.IsInf(v, 1):
		return &apd.Decimal{Form: apd.Infinite}, nil
	case math.IsInf(v, -1):
		return &apd.Decimal{Form: apd.Infinite, Negative: true}, nil
	}
	var s string
	if f4 {
		s = strconv.FormatFloat(float64(float32(v)), 'g', 6, 32)
	} else {
		s = strconv.FormatFloat(v, 'g', 15, 64)
	}
	return parseNumeric(s)
}

// NumericToInt is numeric_int2/4/8: round half away from zero, range check.
func NumericToInt(v *apd.Decimal, to OID) (Datum, error) {
	v = numCanon(v)
	switch v.Form {
	case apd.NaN, apd.NaNSignaling:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot convert NaN to %s", intTypeName(to))
	case apd.Infinite:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot convert infinity to %s", intTypeName(to))
	}
	r := numRound(v, 0)
	if !r.Coeff.IsInt64() && !(r.Negative && r.Coeff.IsUint64() && r.Coeff.Uint64() == 1<<63) {
		return nil, errIntRange(to)
	}
	var i int64
	if r.Coeff.IsInt64() {
		i = r.Coeff.Int64()
		if r.Negative {
			i = -i
		}
	} else {
		i = math.MinInt64
	}
	if err := intRange(to, i); err != nil {
		return nil, err
	}
	return i, nil
}

// numericToFloat is numeric_float8 / numeric_float4 (through the text form).
func numericToFloat(v *apd.Decimal, to OID) (Datum, error) {
	switch v.Form {
	case apd.NaN, apd.NaNSignaling:
		return NaN, nil
	case apd.Infinite:
		if v.Negative {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	}
	bits := 64
	if to == Float4 {
		bits = 32
	}
	return parseFloat(string(appendNumeric(nil, v)), bits)
}

// Now returns the current time as a timestamp Datum (microsecond precision),
// as 'now' reads it.
func Now() time.Time { return MicrosToTimestamp(Conv{}.nowMicros()) }

// CommonType is PostgreSQL's select_common_type for the supported types:
// the type that CASE branches, UNION columns, VALUES rows and IN lists are
// resolved to. Pass the types in the order PostgreSQL considers them (for
// CASE the ELSE branch first). Unknown inputs take the others' type (all
// unknown: text). A new type replaces the current one when the current one
// is not its category's preferred type and converts to it implicitly but
// not the other way round. ok is false when the categories differ (the
// caller reports 42804 "<context> types %s and %s cannot be matched").
// The typmod is kept when all inputs share it, else -1.
func CommonType(ts []T) (T, bool) {
	cur := TUnknown
	for _, n := range ts {
		if n.OID == Unknown || n.OID == cur.OID {
			continue
		}
		if cur.OID == Unknown {
			cur = T{n.OID, -1}
			continue
		}
		if Category(n.OID) != Category(cur.OID) {
			return T{}, false
		}
		if !IsPreferred(cur.OID) && CastContextOf(cur.OID, n.OID) == CastImplicit &&
			CastContextOf(n.OID, cur.OID) != CastImplicit {
			cur = T{n.OID, -1}
		}
	}
	if cur.OID == Unknown {
		return TText, true
	}
	// select_common_typmod
	mod, first := int32(-1), true
	for _, n := range ts {
		if n.OID == Unknown {
			continue
		}
		if n.OID != cur.OID {
			return cur, true
		}
		if first {
			mod, first = n.Typmod, false
		} else if n.Typmod != mod {
			return cur, true
		}
	}
	cur.Typmod = mod
	return cur, true
}

package executor

import (
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// date_bin and pg_size_bytes, as PostgreSQL 15 computes them.

func init() {
	for _, t := range []types.OID{ts, tsz} {
		builtin("date_bin", oids(iv, t, t), t, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			return dateBin(a[0].(types.IntervalValue), a[1].(time.Time), a[2].(time.Time))
		})
	}
	builtin("pg_size_bytes", oids(tx), i8, sql.Immutable, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		return sizeBytes(a[0].(string))
	})
}

// dateBin is date_bin(stride, source, origin): the start of the bin of
// width stride, counted from origin, that holds source. A timestamp and a
// timestamptz bin alike, by microseconds, without a time zone.
func dateBin(stride types.IntervalValue, source, origin time.Time) (types.Datum, error) {
	if !isFiniteTS(source) {
		return source, nil
	}
	if !isFiniteTS(origin) {
		return nil, pgerr.New(pgerr.DatetimeValueOutOfRange, "origin out of range")
	}
	if stride.Months != 0 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "timestamps cannot be binned into intervals containing months or years")
	}
	days := int64(stride.Days) * types.USecsPerDay // |days| < 2^31 * 2^37
	strideUS, ok := addInt64(days, stride.Micros)
	if !ok {
		return nil, pgerr.New(pgerr.DatetimeValueOutOfRange, "interval out of range")
	}
	if strideUS <= 0 {
		return nil, pgerr.New(pgerr.DatetimeValueOutOfRange, "stride must be greater than zero")
	}
	src, org := types.TimestampMicros(source), types.TimestampMicros(origin)
	diff, ok := addInt64(src, -org)
	if !ok {
		return nil, pgerr.New(pgerr.DatetimeValueOutOfRange, "interval out of range")
	}
	delta := diff - diff%strideUS
	// Rounded towards minus infinity when source lies before origin, not
	// on a bin's start.
	if diff < 0 && diff%strideUS != 0 {
		delta -= strideUS
	}
	res, ok := addInt64(org, delta)
	if !ok || res < minTimestampUS || res >= endTimestampUS {
		return nil, errTimestampRange()
	}
	return types.MicrosToTimestamp(res), nil
}

// addInt64 is a + b and whether it did not overflow.
func addInt64(a, b int64) (int64, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

// sizeUnits are pg_size_bytes's units, matched without regard to case,
// with their shifts.
var sizeUnits = []struct {
	name  string
	shift uint
}{{"bytes", 0}, {"kB", 10}, {"MB", 20}, {"GB", 30}, {"TB", 40}, {"PB", 50}}

// sizeBytes is pg_size_bytes: a number (sign, digits, fraction,
// exponent), optional white space and a unit, read as numeric, scaled and
// rounded to bigint.
func sizeBytes(s string) (types.Datum, error) {
	invalid := func() *pgerr.Error { return pgerr.New(pgerr.InvalidParameterValue, "invalid size: \"%s\"", s) }
	str := strings.TrimLeft(s, " \t\n\r\v\f")
	end := 0
	if end < len(str) && (str[end] == '-' || str[end] == '+') {
		end++
	}
	digits := false
	for end < len(str) && str[end] >= '0' && str[end] <= '9' {
		end, digits = end+1, true
	}
	if end < len(str) && str[end] == '.' {
		end++
		for end < len(str) && str[end] >= '0' && str[end] <= '9' {
			end, digits = end+1, true
		}
	}
	if !digits {
		return nil, invalid()
	}
	if end < len(str) && (str[end] == 'e' || str[end] == 'E') {
		// An exponent only if digits follow (else "E..." is a unit).
		j := end + 1
		if j < len(str) && (str[j] == '-' || str[j] == '+') {
			j++
		}
		k := j
		for k < len(str) && str[k] >= '0' && str[k] <= '9' {
			k++
		}
		if k > j {
			end = k
		}
	}
	num, _, err := apd.NewFromString(str[:end])
	if err != nil {
		return nil, invalid()
	}
	unit := strings.Trim(str[end:], " \t\n\r\v\f")
	if unit != "" {
		found := false
		for _, u := range sizeUnits {
			if strings.EqualFold(unit, u.name) {
				if u.shift > 0 {
					if _, err := apd.BaseContext.WithPrecision(1000).Mul(num, num, apd.New(int64(1)<<u.shift, 0)); err != nil {
						return nil, invalid()
					}
				}
				found = true
				break
			}
		}
		if !found {
			return nil, invalid().WithDetail("Invalid size unit: \"%s\".", unit).
				WithHint("Valid units are \"bytes\", \"kB\", \"MB\", \"GB\", \"TB\", and \"PB\".")
		}
	}
	return types.NumericToInt(num, types.Int8)
}

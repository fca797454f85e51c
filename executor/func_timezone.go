package executor

import (
	"time"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// AT TIME ZONE, which the grammar turns into timezone(zone, value):
// timestamp AT TIME ZONE z reads the timestamp as local time in z and gives
// the instant (timestamptz); timestamptz AT TIME ZONE z gives the local
// time in z (timestamp). The zone is a text (an abbreviation with a fixed
// offset, a tz database name, or a POSIX offset such as '+05' or 'UTC+3',
// counted west) or an interval (an offset east, whole seconds, without
// months or days): timestamp_zone, timestamptz_zone, timestamp_izone and
// timestamptz_izone of PostgreSQL 15.

func init() {
	imm := sql.Immutable
	builtin("timezone", oids(tx, ts), tsz, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		z, err := atZone(a[0].(string))
		if err != nil {
			return nil, err
		}
		return localToZone(a[1].(time.Time), z)
	})
	builtin("timezone", oids(tx, tsz), ts, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		z, err := atZone(a[0].(string))
		if err != nil {
			return nil, err
		}
		return zoneToLocal(a[1].(time.Time), z)
	})
	builtin("timezone", oids(iv, ts), tsz, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		z, err := intervalZone(a[0].(types.IntervalValue))
		if err != nil {
			return nil, err
		}
		return localToZone(a[1].(time.Time), z)
	})
	builtin("timezone", oids(iv, tsz), ts, imm, func(_ any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		z, err := intervalZone(a[0].(types.IntervalValue))
		if err != nil {
			return nil, err
		}
		return zoneToLocal(a[1].(time.Time), z)
	})
}

// tzSpec is a resolved zone argument: a fixed offset (seconds east) or a
// zone whose offset depends on the date.
type tzSpec struct {
	loc *time.Location // nil: fixed offset
	off int
}

// atZone resolves a text zone argument as timestamp_zone does: the
// abbreviations first, then the tz database, then a POSIX specification.
func atZone(name string) (tzSpec, error) {
	if off, ok := types.ZoneAbbrevOffset(name); ok {
		return tzSpec{off: off}, nil
	}
	if loc, _, ok := types.LoadZone(name); ok {
		return tzSpec{loc: loc}, nil
	}
	if off, ok := types.PosixZoneOffset(name); ok {
		return tzSpec{off: off}, nil
	}
	return tzSpec{}, pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" not recognized", name)
}

// intervalZone is an interval zone argument: its time part, truncated to
// whole seconds, east of UTC.
func intervalZone(v types.IntervalValue) (tzSpec, error) {
	if v.Months != 0 || v.Days != 0 {
		return tzSpec{}, pgerr.New(pgerr.InvalidParameterValue, "interval time zone \"%s\" must not include months or days", types.FormatInterval(v))
	}
	return tzSpec{off: int(v.Micros / 1e6)}, nil
}

// localToZone reads t (a timestamp) as local time in z: the instant.
func localToZone(t time.Time, z tzSpec) (types.Datum, error) {
	if !isFiniteTS(t) {
		return t, nil
	}
	us := types.TimestampMicros(t)
	if z.loc != nil {
		us = types.LocalToUTC(us, z.loc)
	} else {
		us -= int64(z.off) * 1e6
	}
	if !validTS(us) {
		return nil, errTimestampRange()
	}
	return types.MicrosToTimestamp(us), nil
}

// zoneToLocal is the local time in z of the instant t.
func zoneToLocal(t time.Time, z tzSpec) (types.Datum, error) {
	if !isFiniteTS(t) {
		return t, nil
	}
	us := types.TimestampMicros(t)
	if z.loc != nil {
		us, _ = types.UTCToLocal(us, z.loc)
	} else {
		us += int64(z.off) * 1e6
	}
	if !validTS(us) {
		return nil, errTimestampRange()
	}
	return types.MicrosToTimestamp(us), nil
}

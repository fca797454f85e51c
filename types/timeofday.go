package types

import (
	"cmp"
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"time"

	"minipg/pgerr"
)

// time and time with time zone (timetz), as PostgreSQL 15 has them:
//
//	time     TimeValue     int64 microseconds since midnight, 0 .. 24:00:00
//	                       inclusive; 8 bytes binary and on disk
//	timetz   TimeTZValue   the local time of day and the zone's offset in
//	                       seconds west of UTC (PostgreSQL's TimeTzADT.zone,
//	                       so -08 is stored as +28800); 12 bytes:
//
//	 0               8       12
//	+---------------+-------+
//	| time µs int64 | zone  |   (big-endian on the wire, little-endian on disk)
//	+---------------+-------+
//
// A timetz orders by its UTC time (time + zone), then by zone, as
// timetz_cmp_internal does: '04:00-08' and '07:00-05' are distinct but
// sort by the instant of the day they name.

// The OIDs of time and timetz.
const (
	Time   OID = 1083
	TimeTZ OID = 1266
)

// Ready-made time types.
var (
	TTime   = T{Time, -1}
	TTimeTZ = T{TimeTZ, -1}
)

// TimeValue is a time (without time zone): microseconds since midnight.
type TimeValue int64

// TimeTZValue is a time with time zone.
type TimeTZValue struct {
	Micros int64 // local time of day
	Zone   int32 // seconds west of UTC
}

// tzDispLimit is TZDISP_LIMIT: a zone offset must lie strictly within it.
const tzDispLimit = (15 + 1) * 3600

func isTimeType(oid OID) bool { return oid == Time || oid == TimeTZ }

// TimeT returns time(p); TimeTZT time(p) with time zone (0 <= p <= 6).
func TimeT(p int) T   { return T{Time, int32(p)} }
func TimeTZT(p int) T { return T{TimeTZ, int32(p)} }

// timeName is format_type of time and timetz.
func timeName(t T) string {
	base, zone := "time", " without time zone"
	if t.OID == TimeTZ {
		zone = " with time zone"
	}
	if t.Typmod >= 0 {
		base += "(" + strconv.Itoa(int(t.Typmod)) + ")"
	}
	return base + zone
}

// timeTypmodIn is time_typmodin / timetztypmodin.
func timeTypmodIn(oid OID, mods []int32) (T, error) {
	if len(mods) != 1 {
		return T{}, pgerr.New(pgerr.InvalidParameterValue, "invalid type modifier")
	}
	if mods[0] < 0 {
		if oid == TimeTZ {
			return T{}, pgerr.New(pgerr.InvalidParameterValue, "TIME(%d) WITH TIME ZONE precision must not be negative", mods[0])
		}
		return T{}, pgerr.New(pgerr.InvalidParameterValue, "TIME(%d) precision must not be negative", mods[0])
	}
	// PostgreSQL warns "TIME(%d) precision reduced to maximum allowed, 6".
	return T{oid, min(mods[0], MaxTimestampPrec)}, nil
}

// TimeApplyTypmod is AdjustTimeForTypmod: round half away from zero to
// typmod fractional digits (23:59:59.9 as time(0) is 24:00:00).
func TimeApplyTypmod(us int64, typmod int32) int64 {
	if typmod < 0 || typmod >= MaxTimestampPrec {
		return us
	}
	scale := int64(math.Pow10(int(MaxTimestampPrec - typmod)))
	if us >= 0 {
		return (us + scale/2) / scale * scale
	}
	return -((-us + scale/2) / scale * scale)
}

func applyTimeTypmod(t T, d Datum) Datum {
	switch v := d.(type) {
	case TimeValue:
		return TimeValue(TimeApplyTypmod(int64(v), t.Typmod))
	case TimeTZValue:
		v.Micros = TimeApplyTypmod(v.Micros, t.Typmod)
		return v
	}
	return d
}

// appendTimeOfDay is EncodeTimeOnly's time part: HH:MM:SS[.ffffff] with
// trailing zeros of the fraction dropped.
func appendTimeOfDay(buf []byte, us int64) []byte {
	h := us / USecsPerHour
	us -= h * USecsPerHour
	m := us / USecsPerMin
	us -= m * USecsPerMin
	buf = appendPad(buf, int(h), 2)
	buf = append(buf, ':')
	buf = appendPad(buf, int(m), 2)
	buf = append(buf, ':')
	return appendSeconds(buf, us/USecsPerSec, us%USecsPerSec, true)
}

// appendTimeTZ is timetz_out with DateStyle ISO: the time and the offset
// east of UTC (+hh[:mm[:ss]]).
func appendTimeTZ(buf []byte, v TimeTZValue) []byte {
	return appendTZOffset(appendTimeOfDay(buf, v.Micros), -int(v.Zone))
}

// timeFields is the result of decodeTimeOnly.
type timeFields struct {
	us      int64
	hasZone bool
	zone    int // seconds west of UTC
}

// decodeTimeOnly is PostgreSQL's ParseDateTime and DecodeTimeOnly for the
// forms minipg accepts: 'HH:MM[:SS[.ffffff]]', 'HHMM', 'HHMMSS[.ffffff]',
// an optional leading T, AM/PM, 'allballs', a zone (+hh, -hh:mm, -hhmm,
// z, an abbreviation such as PST), or a date followed by a time (the date
// only resolves a zone name's offset). typ names the type in errors; cv
// gives 'now' and the session zone timetz reads when the input has none
// (wantZone).
func decodeTimeOnly(in, typ string, wantZone bool, cv Conv) (timeFields, error) {
	bad := func() error {
		return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type %s: \"%s\"", typ, in)
	}
	rangeErr := func() error {
		return pgerr.New(pgerr.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", in)
	}
	var r timeFields
	s := strings.ToLower(trimSpace(in))
	switch s {
	case "allballs":
		return timeFields{hasZone: true}, nil
	case "now":
		local, off := UTCToLocal(cv.nowMicros(), cv.loc())
		return timeFields{us: local - floorDiv(local, USecsPerDay)*USecsPerDay, hasZone: true, zone: -off}, nil
	}
	var hour, minute, sec int
	var frac int64
	haveTime, am, pm := false, false, false
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case isDigit(c):
			j := i
			for j < len(s) && (isDigit(s[j]) || s[j] == ':' || s[j] == '.') {
				j++
			}
			if j < len(s) && (s[j] == '-' || s[j] == '/') && !strings.Contains(s[i:j], ":") {
				// A date: let the date/time decoder read the whole input.
				return decodeTimeWithDate(in, typ, wantZone)
			}
			if haveTime {
				return r, bad()
			}
			fld := s[i:j]
			var ok bool
			if strings.IndexByte(fld, ':') >= 0 {
				hour, minute, sec, frac, ok = splitClock(fld)
			} else {
				hour, minute, sec, frac, ok = splitConcatenatedTime(fld)
			}
			if !ok {
				return r, bad()
			}
			haveTime = true
			i = j
		case (c == '+' || c == '-') && haveTime:
			j := i + 1
			for j < len(s) && (isDigit(s[j]) || s[j] == ':') {
				j++
			}
			off, err := decodeTZDisplacement(s[i+1:j], in)
			if err != nil {
				return r, err
			}
			if off == badTZ || r.hasZone {
				return r, bad()
			}
			if c == '+' {
				off = -off
			}
			r.hasZone, r.zone = true, off
			i = j
		case c >= 'a' && c <= 'z':
			j := i
			for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] == '/' || s[j] == '_' || s[j] == '.') {
				j++
			}
			w := s[i:j]
			i = j
			switch {
			case w == "t" && !haveTime:
			case w == "am" && !am && !pm:
				am = true
			case w == "pm" && !am && !pm:
				pm = true
			case w == "allballs" && !haveTime:
				haveTime = true
				r.hasZone, r.zone = true, 0
			default:
				if off, ok := zoneAbbrevs[w]; ok && !r.hasZone {
					r.hasZone, r.zone = true, -off
					continue
				}
				if strings.IndexByte(w, '/') > 0 {
					name := w
					if orig := trimSpace(in); len(orig) == len(s) {
						name = orig[i-len(w) : i]
					}
					if _, _, ok := LoadZone(name); !ok {
						return r, pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" not recognized", name)
					}
				}
				// A zone with daylight-saving rules needs a date.
				return r, bad()
			}
		default:
			return r, bad()
		}
	}
	if !haveTime {
		return r, bad()
	}
	if am || pm {
		if hour > 12 {
			return r, rangeErr()
		}
		if am && hour == 12 {
			hour = 0
		} else if pm && hour != 12 {
			hour += 12
		}
	}
	if hour > 24 || minute > 59 || sec > 60 || frac > USecsPerSec ||
		(hour == 24 && (minute > 0 || sec > 0 || frac > 0)) {
		return r, rangeErr()
	}
	r.us = int64(hour)*USecsPerHour + int64(minute)*USecsPerMin + int64(sec)*USecsPerSec + frac
	if r.us > USecsPerDay {
		return r, rangeErr()
	}
	if wantZone && !r.hasZone {
		r.hasZone, r.zone = true, sessionZoneToday(r.us, cv)
	}
	return r, nil
}

// sessionZoneToday is the zone (seconds west) the session's TimeZone has at
// time of day us on the current date, as time_timetz and timetz_in read
// it.
func sessionZoneToday(us int64, cv Conv) int {
	local, _ := UTCToLocal(cv.nowMicros(), cv.loc())
	day := floorDiv(local, USecsPerDay)
	return -ZoneOffsetForLocal(day*USecsPerDay+us, cv.loc())
}

// decodeTimeWithDate reads a date followed by a time ('2003-04-12
// 04:05:06 America/New_York'); the date is dropped, but resolves a zone
// name's offset for timetz.
func decodeTimeWithDate(in, typ string, wantZone bool) (timeFields, error) {
	f, ok := decodeDateTime(in)
	if !ok || f.special != "" || !strings.Contains(in, ":") {
		if f.badZone {
			return timeFields{}, pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" not recognized", f.zoneName)
		}
		return timeFields{}, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type %s: \"%s\"", typ, in)
	}
	days, tod, ok := f.resolve()
	if !ok {
		return timeFields{}, dtRangeError(in, &f)
	}
	r := timeFields{us: tod}
	switch {
	case f.hasOffset:
		r.hasZone, r.zone = true, -f.offset
	case f.zoneLoc != nil:
		r.hasZone, r.zone = true, -ZoneOffsetForLocal(days*USecsPerDay+tod, f.zoneLoc)
	case wantZone:
		// The session's zone on that date.
		return r, errNeedSessionZone
	}
	return r, nil
}

// errNeedSessionZone marks a date and time without a zone given to timetz:
// the caller resolves the zone on that date (see parseTimeTZ).
var errNeedSessionZone = pgerr.New(pgerr.InternalError, "types: timetz input needs the session zone")

const badTZ = math.MinInt32

// decodeTZDisplacement is DecodeTimezone after the sign: hh, hhmm,
// hh:mm, hh:mm:ss, in seconds; badTZ on a syntax error, 22009 when a
// field is out of range.
func decodeTZDisplacement(z, in string) (int, error) {
	var h, m, sec int
	p := strings.Split(z, ":")
	switch {
	case len(p) == 1 && allDigits(p[0]) && len(p[0]) <= 2:
		h = atoiSmall(p[0])
	case len(p) == 1 && allDigits(p[0]) && (len(p[0]) == 3 || len(p[0]) == 4):
		h, m = atoiSmall(p[0][:len(p[0])-2]), atoiSmall(p[0][len(p[0])-2:])
	case len(p) == 1 && allDigits(p[0]) && (len(p[0]) == 5 || len(p[0]) == 6):
		n := len(p[0])
		h, m, sec = atoiSmall(p[0][:n-4]), atoiSmall(p[0][n-4:n-2]), atoiSmall(p[0][n-2:])
	case len(p) == 2 && allDigits(p[0]) && allDigits(p[1]) && len(p[0]) <= 2 && len(p[1]) <= 2:
		h, m = atoiSmall(p[0]), atoiSmall(p[1])
	case len(p) == 3 && allDigits(p[0]) && allDigits(p[1]) && allDigits(p[2]) && len(p[0]) <= 2 && len(p[1]) <= 2 && len(p[2]) <= 2:
		h, m, sec = atoiSmall(p[0]), atoiSmall(p[1]), atoiSmall(p[2])
	default:
		return badTZ, nil
	}
	if h > 15 || m > 59 || sec > 59 {
		return 0, pgerr.New(pgerr.InvalidTimeZoneDisplacementValue, "time zone displacement out of range: \"%s\"", in)
	}
	return h*3600 + m*60 + sec, nil
}

// splitClock reads H:M, H:M:S or H:M:S.f (one or two digits a field).
func splitClock(fld string) (h, m, s int, frac int64, ok bool) {
	p := strings.Split(fld, ":")
	if len(p) < 2 || len(p) > 3 {
		return
	}
	if !allDigits(p[0]) || !allDigits(p[1]) || len(p[0]) > 2 || len(p[1]) > 2 {
		return
	}
	h, m = atoiSmall(p[0]), atoiSmall(p[1])
	if len(p) == 3 {
		sec, fr, _ := strings.Cut(p[2], ".")
		if !allDigits(sec) || len(sec) > 2 || (fr != "" && !allDigits(fr)) {
			return
		}
		s = atoiSmall(sec)
		frac = parseFrac(fr)
	}
	return h, m, s, frac, true
}

// splitConcatenatedTime reads HHMM, HHMMSS or HHMMSS.f (DecodeNumberField).
func splitConcatenatedTime(fld string) (h, m, s int, frac int64, ok bool) {
	digits, fr, hasFrac := strings.Cut(fld, ".")
	if !allDigits(digits) || (fr != "" && !allDigits(fr)) || strings.Contains(fr, ".") {
		return
	}
	switch {
	case len(digits) == 6:
		h, m, s = atoiSmall(digits[:2]), atoiSmall(digits[2:4]), atoiSmall(digits[4:])
	case len(digits) == 4 && !hasFrac:
		h, m = atoiSmall(digits[:2]), atoiSmall(digits[2:])
	default:
		return
	}
	return h, m, s, parseFrac(fr), true
}

// parseFrac is ParseFractionalSecond: rint(0.digits * 1e6).
func parseFrac(fr string) int64 {
	if fr == "" {
		return 0
	}
	v, _ := strconv.ParseFloat("0."+fr, 64)
	return int64(math.RoundToEven(v * 1e6))
}

// parseTime is time_in.
func parseTime(t T, in string, cv Conv) (Datum, error) {
	f, err := decodeTimeOnly(in, "time", false, cv)
	if err != nil {
		return nil, err
	}
	return TimeValue(TimeApplyTypmod(f.us, t.Typmod)), nil
}

// parseTimeTZ is timetz_in: without a zone in the input, the session's
// TimeZone on the current date (or on the date given) applies.
func parseTimeTZ(t T, in string, cv Conv) (Datum, error) {
	f, err := decodeTimeOnly(in, "time with time zone", true, cv)
	if err == errNeedSessionZone {
		df, _ := decodeDateTime(in)
		days, tod, _ := df.resolve()
		f = timeFields{us: tod, hasZone: true, zone: -ZoneOffsetForLocal(days*USecsPerDay+tod, cv.loc())}
	} else if err != nil {
		return nil, err
	}
	if f.zone <= -tzDispLimit || f.zone >= tzDispLimit {
		return nil, pgerr.New(pgerr.InvalidTimeZoneDisplacementValue, "time zone displacement out of range: \"%s\"", in)
	}
	return TimeTZValue{Micros: TimeApplyTypmod(f.us, t.Typmod), Zone: int32(f.zone)}, nil
}

func asTimeValue(t T, d Datum) (TimeValue, error) {
	if v, ok := d.(TimeValue); ok {
		return v, nil
	}
	return 0, badDatum(t, d)
}

func asTimeTZ(t T, d Datum) (TimeTZValue, error) {
	if v, ok := d.(TimeTZValue); ok {
		return v, nil
	}
	return TimeTZValue{}, badDatum(t, d)
}

// appendTimeBytes is time_send / timetz_send in order (and the on-disk
// form in little-endian).
func appendTimeBytes(buf []byte, order binary.AppendByteOrder, t T, d Datum) ([]byte, error) {
	if t.OID == Time {
		v, err := asTimeValue(t, d)
		if err != nil {
			return nil, err
		}
		return order.AppendUint64(buf, uint64(v)), nil
	}
	v, err := asTimeTZ(t, d)
	if err != nil {
		return nil, err
	}
	buf = order.AppendUint64(buf, uint64(v.Micros))
	return order.AppendUint32(buf, uint32(v.Zone)), nil
}

// decodeTimeBytes is time_recv / timetz_recv; ok is false for a wrong
// length or a value out of range (PostgreSQL: "time out of range",
// "time zone displacement out of range"; reported as bad binary data).
func decodeTimeBytes(order binary.ByteOrder, t T, b []byte) (Datum, bool) {
	if t.OID == Time {
		if len(b) != 8 {
			return nil, false
		}
		us := int64(order.Uint64(b))
		if us < 0 || us > USecsPerDay {
			return nil, false
		}
		return TimeValue(us), true
	}
	if len(b) != 12 {
		return nil, false
	}
	us, zone := int64(order.Uint64(b)), int32(order.Uint32(b[8:]))
	if us < 0 || us > USecsPerDay || zone <= -tzDispLimit || zone >= tzDispLimit {
		return nil, false
	}
	return TimeTZValue{Micros: us, Zone: zone}, true
}

// CompareTimeTZ is timetz_cmp_internal: by UTC time, then by zone.
func CompareTimeTZ(a, b TimeTZValue) int {
	if c := cmp.Compare(a.Micros+int64(a.Zone)*USecsPerSec, b.Micros+int64(b.Zone)*USecsPerSec); c != 0 {
		return c
	}
	return cmp.Compare(a.Zone, b.Zone)
}

// compareTime orders time and timetz values; ok is false for other Datums.
func compareTime(a, b Datum) (int, bool) {
	switch x := a.(type) {
	case TimeValue:
		if y, ok := b.(TimeValue); ok {
			return cmp.Compare(x, y), true
		}
	case TimeTZValue:
		if y, ok := b.(TimeTZValue); ok {
			return CompareTimeTZ(x, y), true
		}
	}
	return 0, false
}

// appendTimeKey is the index key: time 0x01 | µs, sign bit flipped;
// timetz 0x01 | UTC µs, sign bit flipped | zone, sign bit flipped.
func appendTimeKey(buf []byte, d Datum) ([]byte, bool) {
	switch v := d.(type) {
	case TimeValue:
		return binary.BigEndian.AppendUint64(append(buf, keyValue), uint64(v)^(1<<63)), true
	case TimeTZValue:
		buf = binary.BigEndian.AppendUint64(append(buf, keyValue), uint64(v.Micros+int64(v.Zone)*USecsPerSec)^(1<<63))
		return binary.BigEndian.AppendUint32(buf, uint32(v.Zone)^(1<<31)), true
	}
	return nil, false
}

// timeCastContext is pg_cast for time and timetz.
func timeCastContext(from, to OID) (CastContext, bool) {
	if !isTimeType(from) && !isTimeType(to) {
		return CastNone, false
	}
	switch {
	case from == Time && (to == Interval || to == TimeTZ):
		return CastImplicit, true
	case (from == Timestamp || from == TimestampTZ) && to == Time,
		from == TimestampTZ && to == TimeTZ,
		from == Interval && to == Time,
		from == TimeTZ && to == Time:
		return CastAssignment, true
	case isStrCat(to):
		return CastAssignment, true
	case isStrCat(from):
		return CastExplicit, true
	}
	return CastNone, true
}

// coerceTime is the casts of time and timetz other than the I/O casts,
// followed by the target's typmod. ok is false when neither side is one.
func coerceTime(d Datum, from, to T, cv Conv) (Datum, bool, error) {
	if !isTimeType(to.OID) && !(isTimeType(from.OID) && to.OID == Interval) {
		return nil, false, nil
	}
	if isStrCat(from.OID) || from.OID == Unknown {
		return nil, false, nil
	}
	var r Datum
	switch {
	case from.OID == to.OID:
		r = d
	case from.OID == Time && to.OID == Interval:
		v, err := asTimeValue(from, d)
		if err != nil {
			return nil, true, err
		}
		return IntervalApplyTypmod(IntervalValue{Micros: int64(v)}, to.Typmod), true, nil
	case from.OID == Interval && to.OID == Time:
		v, err := asInterval(from, d)
		if err != nil {
			return nil, true, err
		}
		us := v.Micros % USecsPerDay
		if us < 0 {
			us += USecsPerDay
		}
		r = TimeValue(us)
	case from.OID == Time && to.OID == TimeTZ:
		v, err := asTimeValue(from, d)
		if err != nil {
			return nil, true, err
		}
		r = TimeTZValue{Micros: int64(v), Zone: int32(sessionZoneToday(int64(v), cv))}
	case from.OID == TimeTZ && to.OID == Time:
		v, err := asTimeTZ(from, d)
		if err != nil {
			return nil, true, err
		}
		r = TimeValue(v.Micros)
	case from.OID == Timestamp || from.OID == TimestampTZ:
		v, err := asTime(from, d)
		if err != nil {
			return nil, true, err
		}
		us := TimestampMicros(v)
		if !timestampFinite(us) {
			return nil, true, nil
		}
		off := 0
		if from.OID == TimestampTZ {
			us, off = UTCToLocal(us, cv.loc())
		}
		tod := us - floorDiv(us, USecsPerDay)*USecsPerDay
		if to.OID == Time {
			r = TimeValue(tod)
		} else if from.OID == TimestampTZ {
			r = TimeTZValue{Micros: tod, Zone: int32(-off)}
		} else {
			return nil, false, nil
		}
	default:
		return nil, false, nil
	}
	return applyTimeTypmod(to, r), true, nil
}

// TimeToInterval is time -> interval.
func TimeToInterval(v TimeValue) IntervalValue { return IntervalValue{Micros: int64(v)} }

// TimePlusMicros is time_pl_interval's wrap-around: us added to a time of
// day, modulo 24 hours (a result of 24:00:00 is midnight).
func TimePlusMicros(t int64, us int64) int64 {
	r := t + us
	r -= r / USecsPerDay * USecsPerDay
	if r < 0 {
		r += USecsPerDay
	}
	return r
}

// TimeTZToUTCMicros is the instant of v's time on day 0 (the time plus its
// zone), as date + timetz adds it.
func TimeTZToUTCMicros(v TimeTZValue) int64 { return v.Micros + int64(v.Zone)*USecsPerSec }

// LocalTimeTZ is the current time of day in loc as a timetz (CURRENT_TIME).
func LocalTimeTZ(now time.Time, loc *time.Location) TimeTZValue {
	local, off := UTCToLocal(TimestampMicros(now), loc)
	return TimeTZValue{Micros: local - floorDiv(local, USecsPerDay)*USecsPerDay, Zone: int32(-off)}
}

package types

import (
	"math"
	"strings"
	"time"
	_ "time/tzdata" // zone data independent of the host's /usr/share/zoneinfo

	"minipg/pgerr"
)

// timestamp with time zone is, like timestamp, int64 microseconds since
// 2000-01-01 00:00:00 UTC; its Datum is the instant as a time.Time in UTC.
// The session's TimeZone (a *time.Location) only matters for text input
// without an explicit zone, text output, and the calendar arithmetic and
// field functions that work in local time.

// zoneAbbrevs are PostgreSQL's "Default" time zone abbreviations that
// minipg accepts in input, with their offsets in seconds east of UTC.
var zoneAbbrevs = map[string]int{
	"z": 0, "zulu": 0, "utc": 0, "gmt": 0, "ut": 0,
	"pst": -8 * 3600, "pdt": -7 * 3600, "mst": -7 * 3600, "mdt": -6 * 3600,
	"cst": -6 * 3600, "cdt": -5 * 3600, "est": -5 * 3600, "edt": -4 * 3600,
	"akst": -9 * 3600, "akdt": -8 * 3600, "hst": -10 * 3600,
	"cet": 3600, "cest": 2 * 3600, "eet": 2 * 3600, "eest": 3 * 3600, "wet": 0, "west": 3600,
	"bst": 3600, "ist": 2 * 3600, "jst": 9 * 3600, "kst": 9 * 3600, "msk": 3 * 3600,
	"aest": 10 * 3600, "aedt": 11 * 3600, "nzst": 12 * 3600, "nzdt": 13 * 3600,
}

// LoadZone resolves a TimeZone setting: a tz database name (matched without
// regard to case, shown in its canonical spelling) or UTC/GMT. ok is false
// for an unknown zone.
func LoadZone(name string) (loc *time.Location, canonical string, ok bool) {
	n := strings.TrimSpace(name)
	switch strings.ToLower(n) {
	case "utc", "gmt", "z", "zulu", "uct", "universal", "etc/utc":
		if strings.EqualFold(n, "gmt") {
			return time.UTC, "GMT", true
		}
		if strings.EqualFold(n, "etc/utc") {
			return time.UTC, "Etc/UTC", true
		}
		return time.UTC, "UTC", true
	case "", "local":
		return nil, "", false
	}
	if strings.ContainsAny(n, " .\\") && strings.Contains(n, "..") {
		return nil, "", false
	}
	for _, cand := range []string{n, canonicalZoneName(n), strings.ToUpper(n)} {
		if l, err := time.LoadLocation(cand); err == nil {
			return l, cand, true
		}
	}
	return nil, "", false
}

// canonicalZoneName capitalises each word of a tz name: america/new_york
// becomes America/New_York.
func canonicalZoneName(n string) string {
	b := []byte(strings.ToLower(n))
	up := true
	for i, c := range b {
		if up && c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
		up = c == '/' || c == '_' || c == '-'
	}
	return string(b)
}

// LocalToUTC converts local wall-clock microseconds (since 2000-01-01 in
// loc) to an instant, resolving a time in a daylight-saving gap with the
// offset in force before the change and an ambiguous time with the offset
// after it, as PostgreSQL's DetermineTimeZoneOffset does.
func LocalToUTC(local int64, loc *time.Location) int64 {
	return local - int64(ZoneOffsetForLocal(local, loc))*1e6
}

// ZoneOffsetForLocal is the UTC offset (seconds east) that applies to the
// local time local in loc (see LocalToUTC).
func ZoneOffsetForLocal(local int64, loc *time.Location) int {
	if loc == nil || loc == time.UTC {
		return 0
	}
	t := floorDiv(local, 1e6) + pgEpochUnix // local seconds as if UTC
	prev := time.Unix(t-86400, 0).In(loc)
	_, before := prev.Zone()
	_, end := prev.ZoneBounds()
	if end.IsZero() {
		return before
	}
	_, after := end.In(loc).Zone()
	boundary := end.Unix()
	bt, at := t-int64(before), t-int64(after)
	switch {
	case bt < boundary && at < boundary:
		return before
	case bt > boundary && at >= boundary:
		return after
	case bt > at:
		return before
	}
	return after
}

// UTCToLocal returns the local wall-clock microseconds of instant us in loc
// and the offset applied (seconds east).
func UTCToLocal(us int64, loc *time.Location) (int64, int) {
	if loc == nil || loc == time.UTC || !timestampFinite(us) {
		return us, 0
	}
	_, off := MicrosToTimestamp(us).In(loc).Zone()
	return us + int64(off)*1e6, off
}

// appendTZOffset is EncodeTimezone: +hh, +hh:mm or +hh:mm:ss.
func appendTZOffset(buf []byte, off int) []byte {
	if off < 0 {
		buf = append(buf, '-')
		off = -off
	} else {
		buf = append(buf, '+')
	}
	h, m, s := off/3600, off/60%60, off%60
	buf = appendPad(buf, h, 2)
	if m != 0 || s != 0 {
		buf = append(buf, ':')
		buf = appendPad(buf, m, 2)
	}
	if s != 0 {
		buf = append(buf, ':')
		buf = appendPad(buf, s, 2)
	}
	return buf
}

// appendTimestampTZ is timestamptz_out with DateStyle ISO in loc.
func appendTimestampTZ(buf []byte, t time.Time, loc *time.Location) []byte {
	us := TimestampMicros(t)
	switch us {
	case math.MaxInt64:
		return append(buf, "infinity"...)
	case math.MinInt64:
		return append(buf, "-infinity"...)
	}
	local, off := UTCToLocal(us, loc)
	lt := MicrosToTimestamp(local)
	y, _, _ := lt.Date()
	if y <= 0 {
		buf = appendTimestamp(buf, lt)
		buf = buf[:len(buf)-3] // " BC", re-added after the offset
		buf = appendTZOffset(buf, off)
		return append(buf, " BC"...)
	}
	buf = appendTimestamp(buf, lt)
	return appendTZOffset(buf, off)
}

// parseTZOffset reads +hh, +hhmm, +hh:mm, +hh:mm:ss (seconds east).
func parseTZOffset(z string) (int, bool) {
	if z == "z" {
		return 0, true
	}
	if len(z) < 2 || (z[0] != '+' && z[0] != '-') {
		return 0, false
	}
	sign := 1
	if z[0] == '-' {
		sign = -1
	}
	p := strings.Split(z[1:], ":")
	var h, m, s int
	switch {
	case len(p) == 1 && allDigits(p[0]) && len(p[0]) <= 2:
		h = atoiSmall(p[0])
	case len(p) == 1 && allDigits(p[0]) && len(p[0]) == 4:
		h, m = atoiSmall(p[0][:2]), atoiSmall(p[0][2:])
	case len(p) == 2 && allDigits(p[0]) && allDigits(p[1]) && len(p[0]) <= 2 && len(p[1]) == 2:
		h, m = atoiSmall(p[0]), atoiSmall(p[1])
	case len(p) == 3 && allDigits(p[0]) && allDigits(p[1]) && allDigits(p[2]) && len(p[0]) <= 2 && len(p[1]) == 2 && len(p[2]) == 2:
		h, m, s = atoiSmall(p[0]), atoiSmall(p[1]), atoiSmall(p[2])
	default:
		return 0, false
	}
	if h > 15 || m > 59 || s > 59 {
		return 0, false
	}
	return sign * (h*3600 + m*60 + s), true
}

// parseTimestampTZ is timestamptz_in with loc as the session's TimeZone.
func parseTimestampTZ(in string, loc *time.Location, cv Conv) (time.Time, error) {
	f, ok := decodeDateTime(in)
	if !ok || f.badZone {
		if f.zoneName != "" && f.badZone {
			return time.Time{}, pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" not recognized", f.zoneName)
		}
		return time.Time{}, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type timestamp with time zone: \"%s\"", in)
	}
	return timestampFromFields(in, &f, loc, cv)
}

// TimestampToTZ is the timestamp -> timestamptz cast: the wall-clock time
// read in loc.
func TimestampToTZ(t time.Time, loc *time.Location) (time.Time, error) {
	us := TimestampMicros(t)
	if !timestampFinite(us) {
		return t, nil
	}
	r := LocalToUTC(us, loc)
	if !timestampValid(r) {
		return time.Time{}, pgerr.New(pgerr.DatetimeValueOutOfRange, "timestamp out of range")
	}
	return MicrosToTimestamp(r), nil
}

// TZToTimestamp is the timestamptz -> timestamp cast: the wall-clock time
// of the instant in loc.
func TZToTimestamp(t time.Time, loc *time.Location) (time.Time, error) {
	us := TimestampMicros(t)
	if !timestampFinite(us) {
		return t, nil
	}
	r, _ := UTCToLocal(us, loc)
	if !timestampValid(r) {
		return time.Time{}, pgerr.New(pgerr.DatetimeValueOutOfRange, "timestamp out of range")
	}
	return MicrosToTimestamp(r), nil
}

// ZoneAbbrevOffset is the offset (seconds east of UTC) of a time zone
// abbreviation minipg knows (case insensitive); ok is false otherwise.
func ZoneAbbrevOffset(name string) (off int, ok bool) {
	off, ok = zoneAbbrevs[strings.ToLower(name)]
	return off, ok
}

// PosixZoneOffset reads a POSIX time zone specification without daylight
// rules, as PostgreSQL's tzparse does for a name no tz file has: an
// optional standard-time name (letters, or <...>) and an offset
// [+-]hh[:mm[:ss]] counted west of Greenwich ("+05" and "UTC+5" are five
// hours behind UTC). The result is seconds east.
func PosixZoneOffset(s string) (off int, ok bool) {
	i := 0
	if strings.HasPrefix(s, "<") {
		j := strings.IndexByte(s, '>')
		if j < 0 {
			return 0, false
		}
		i = j + 1
	} else {
		for i < len(s) && !isDigit(s[i]) && s[i] != ',' && s[i] != '-' && s[i] != '+' {
			i++
		}
	}
	if i == len(s) {
		return 0, false
	}
	neg := false
	if s[i] == '+' || s[i] == '-' {
		neg = s[i] == '-'
		i++
	}
	var parts [3]int
	n := 0
	for n < 3 {
		j := i
		for j < len(s) && isDigit(s[j]) && j-i < 3 {
			j++
		}
		if j == i {
			return 0, false
		}
		parts[n] = atoiSmall(s[i:j])
		n++
		i = j
		if i == len(s) || s[i] != ':' {
			break
		}
		i++
	}
	if i != len(s) || parts[0] > 24*7-1 || parts[1] > 59 || parts[2] > 60 {
		return 0, false
	}
	secs := parts[0]*3600 + parts[1]*60 + parts[2]
	if neg {
		return secs, true
	}
	return -secs, true
}

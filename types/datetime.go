package types

import (
	"math"
	"strconv"
	"strings"
	"time"

	"minipg/pgerr"
)

// timestamp is int64 microseconds and date int32 days since 2000-01-01
// (PostgreSQL's epoch); as Datums both are time.Time in UTC. ±infinity are
// the times at the extreme int64/int32 values (DT_NOBEGIN/DT_NOEND,
// DATEVAL_NOBEGIN/DATEVAL_NOEND).

const pgEpochUnix = 946684800 // 2000-01-01 00:00:00 UTC in Unix seconds

var (
	// TimestampInfinity and TimestampNegInfinity are 'infinity' and '-infinity'.
	TimestampInfinity    = MicrosToTimestamp(math.MaxInt64)
	TimestampNegInfinity = MicrosToTimestamp(math.MinInt64)
	// DateInfinity and DateNegInfinity are the date infinities.
	DateInfinity    = DaysToDate(math.MaxInt32)
	DateNegInfinity = DaysToDate(math.MinInt32)

	// Valid ranges: 4714-11-24 BC .. 294276-12-31 (timestamp),
	// 4714-11-24 BC .. 5874897-12-31 (date).
	minTimestamp int64 = -211813488000000000 // MIN_TIMESTAMP
	endTimestamp int64 = 9223371331200000000 // END_TIMESTAMP (exclusive)
	minDate      int32 = -2451545            // DATETIME_MIN_JULIAN - POSTGRES_EPOCH_JDATE
	endDate      int32 = 2145031949          // DATE_END_JULIAN - POSTGRES_EPOCH_JDATE (exclusive)
)

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// TimestampMicros returns t as microseconds since 2000-01-01 00:00:00.
func TimestampMicros(t time.Time) int64 {
	sec := t.Unix() - pgEpochUnix
	us := int64(t.Nanosecond() / 1000)
	if sec > math.MaxInt64/1000000-1 {
		return math.MaxInt64
	}
	if sec < math.MinInt64/1000000+1 {
		return math.MinInt64
	}
	r := sec * 1e6
	if us > 0 && r > math.MaxInt64-us {
		return math.MaxInt64
	}
	return r + us
}

// MicrosToTimestamp is TimestampMicros's inverse.
func MicrosToTimestamp(us int64) time.Time {
	sec := floorDiv(us, 1e6)
	rem := us - sec*1e6
	return time.Unix(sec+pgEpochUnix, rem*1000).UTC()
}

// DateDays returns t's date as days since 2000-01-01.
func DateDays(t time.Time) int32 {
	d := floorDiv(t.Unix()-pgEpochUnix, 86400)
	if d > math.MaxInt32 {
		return math.MaxInt32
	}
	if d < math.MinInt32 {
		return math.MinInt32
	}
	return int32(d)
}

// DaysToDate is DateDays's inverse (midnight UTC).
func DaysToDate(days int32) time.Time {
	return time.Unix(int64(days)*86400+pgEpochUnix, 0).UTC()
}

func timestampFinite(us int64) bool { return us != math.MaxInt64 && us != math.MinInt64 }
func dateFinite(d int32) bool       { return d != math.MaxInt32 && d != math.MinInt32 }
func timestampValid(us int64) bool  { return us >= minTimestamp && us < endTimestamp }
func dateValid(d int32) bool        { return d >= minDate && d < endDate }

// timestampApplyTypmod rounds to timestamp(p)'s precision
// (AdjustTimestampForTypmod: half away from zero).
func timestampApplyTypmod(t time.Time, typmod int32) time.Time {
	if typmod < 0 || typmod >= MaxTimestampPrec {
		return t
	}
	us := TimestampMicros(t)
	if !timestampFinite(us) {
		return t
	}
	scale := int64(math.Pow10(int(MaxTimestampPrec - typmod)))
	off := scale / 2
	if us >= 0 {
		us = (us + off) / scale * scale
	} else {
		us = -(((-us) + off) / scale * scale)
	}
	return MicrosToTimestamp(us)
}

func appendYMD(buf []byte, y int, m time.Month, d int) []byte {
	if y <= 0 {
		y = 1 - y
	}
	buf = appendPad(buf, y, 4)
	buf = append(buf, '-')
	buf = appendPad(buf, int(m), 2)
	buf = append(buf, '-')
	return appendPad(buf, d, 2)
}

func appendPad(buf []byte, v, width int) []byte {
	s := strconv.Itoa(v)
	for i := len(s); i < width; i++ {
		buf = append(buf, '0')
	}
	return append(buf, s...)
}

// appendTimestamp is timestamp_out with DateStyle ISO.
func appendTimestamp(buf []byte, t time.Time) []byte {
	us := TimestampMicros(t)
	switch us {
	case math.MaxInt64:
		return append(buf, "infinity"...)
	case math.MinInt64:
		return append(buf, "-infinity"...)
	}
	t = t.UTC()
	y, m, d := t.Date()
	buf = appendYMD(buf, y, m, d)
	buf = append(buf, ' ')
	buf = appendPad(buf, t.Hour(), 2)
	buf = append(buf, ':')
	buf = appendPad(buf, t.Minute(), 2)
	buf = append(buf, ':')
	buf = appendPad(buf, t.Second(), 2)
	if frac := t.Nanosecond() / 1000; frac != 0 {
		s := strconv.Itoa(frac + 1000000)[1:]
		buf = append(buf, '.')
		buf = append(buf, strings.TrimRight(s, "0")...)
	}
	if y <= 0 {
		buf = append(buf, " BC"...)
	}
	return buf
}

// appendDate is date_out with DateStyle ISO.
func appendDate(buf []byte, t time.Time) []byte {
	switch DateDays(t) {
	case math.MaxInt32:
		return append(buf, "infinity"...)
	case math.MinInt32:
		return append(buf, "-infinity"...)
	}
	y, m, d := t.UTC().Date()
	buf = appendYMD(buf, y, m, d)
	if y <= 0 {
		buf = append(buf, " BC"...)
	}
	return buf
}

// dtFields is a decoded date/time string.
type dtFields struct {
	special  string // "infinity", "-infinity", "epoch", "now", "today", ...
	year     int
	month    int
	day      int
	hasDate  bool
	hour     int
	min      int
	sec      int
	micros   int64
	bc       bool
	year2    bool // the year was written with two digits: 1970-2069 unless BC
	pm, am   bool
	rangeErr bool // a field is out of range (22008)
	mdHint   bool

	// An explicit zone (ignored by timestamp without time zone).
	hasOffset bool           // offset holds a fixed offset (seconds east)
	offset    int            //
	zoneLoc   *time.Location // a tz database name
	zoneName  string         // the name as written, for errors
	badZone   bool           // zoneName is not a known zone
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoiSmall(s string) int {
	if len(s) > 9 {
		return math.MaxInt32
	}
	n, _ := strconv.Atoi(s)
	return n
}

var monthNames = []string{"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december"}

var dayNames = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// monthByName returns 1..12 for "mar", "march", "sept" ...; 0 if none.
func monthByName(s string) int {
	if len(s) < 3 {
		return 0
	}
	for i, m := range monthNames {
		if strings.HasPrefix(m, s) || (s == "sept" && i == 8) {
			return i + 1
		}
	}
	return 0
}

func isDayName(s string) bool {
	if len(s) < 3 {
		return false
	}
	for _, d := range dayNames {
		if strings.HasPrefix(d, s) || (len(s) >= 3 && strings.HasPrefix(s, d[:3]) && strings.HasPrefix(d, strings.TrimSuffix(s, "."))) {
			return true
		}
	}
	return s == "tues" || s == "wednes" || s == "thur" || s == "thurs"
}

// zoneNames are time zone abbreviations accepted (and ignored: a timestamp
// without time zone drops the zone, as PostgreSQL does).
var zoneNames = map[string]bool{
	"z": true, "zulu": true, "utc": true, "gmt": true, "ut": true, "pst": true, "pdt": true,
	"mst": true, "mdt": true, "cst": true, "cdt": true, "est": true, "edt": true, "akst": true,
	"akdt": true, "hst": true, "cet": true, "cest": true, "eet": true, "eest": true, "wet": true,
	"west": true, "bst": true, "ist": true, "jst": true, "kst": true, "msk": true, "aest": true,
	"aedt": true, "nzst": true, "nzdt": true,
}

// twoDigitYear records year y written with digits digits; a year of two
// digits or fewer is taken to 1970-2069 once the input is read, unless it
// is BC (ValidateDate's is2digits).
func (f *dtFields) twoDigitYear(y int, digits int) int {
	f.year2 = digits <= 2
	return y
}

// decodeDateTime parses the date/time forms minipg accepts (a subset of
// PostgreSQL's ParseDateTime/DecodeDateTime with DateStyle ISO, MDY):
// 'YYYY-MM-DD', 'YYYYMMDD', 'YYYY/MM/DD', 'YYYY.MM.DD', 'MM/DD/YYYY', month
// names ('Mar 5 2024', '5 March 2024', '2024-Mar-05', '05-Mar-2024'),
// optional weekday names, a time 'HH:MM[:SS[.ffffff]]' after a blank or T,
// AM/PM, BC/AD, and a time zone (+hh[:mm], -hhmm, Z, UTC, PST, Area/City)
// that is accepted and ignored, as for timestamp without time zone. ok is
// false on a syntax error.
func decodeDateTime(in string) (f dtFields, ok bool) {
	s := strings.ToLower(trimSpace(in))
	switch s {
	case "infinity", "-infinity", "epoch", "now", "today", "tomorrow", "yesterday":
		f.special = s
		return f, true
	}
	s = strings.ReplaceAll(s, ",", " ")
	// Split "dateTtime" into two fields.
	fields := strings.Fields(s)
	if len(fields) > 0 {
		if i := strings.IndexByte(fields[0], 't'); i > 0 && i < len(fields[0])-1 && fields[0][0] >= '0' && fields[0][0] <= '9' {
			fields = append([]string{fields[0][:i], fields[0][i+1:]}, fields[1:]...)
		}
	}
	hasTime := false
	var nums []string // bare numbers next to a month name
	namedMonth := false
	for _, fld := range fields {
		switch {
		case fld == "bc":
			f.bc = true
		case fld == "ad":
		case fld == "am":
			f.am = true
		case fld == "pm":
			f.pm = true
		case zoneNames[fld]:
			if off, ok := zoneAbbrevs[fld]; ok {
				f.hasOffset, f.offset = true, off
			}
		case !namedMonth && !f.hasDate && monthByName(strings.TrimSuffix(fld, ".")) > 0:
			f.month = monthByName(strings.TrimSuffix(fld, "."))
			namedMonth = true
		case isDayName(strings.TrimSuffix(fld, ".")):
		case hasTime && strings.IndexByte(fld, '/') > 0 && !allDigits(strings.ReplaceAll(fld, "/", "")):
			// a zone name such as europe/paris
			f.zoneName = fld
			if l, _, ok := LoadZone(fld); ok {
				f.zoneLoc = l
			} else {
				f.badZone = true
			}
		case !f.hasDate && !namedMonth && strings.IndexByte(fld, '-') > 0 && fld[0] != '+':
			p := strings.Split(fld, "-")
			if len(p) != 3 {
				return f, false
			}
			switch {
			case allDigits(p[0]) && allDigits(p[1]) && allDigits(p[2]):
				if len(p[0]) <= 2 { // MM-DD-YY[YY], DateStyle MDY ('99-01-08' has month 99)
					f.month, f.day, f.year = atoiSmall(p[0]), atoiSmall(p[1]), f.twoDigitYear(atoiSmall(p[2]), len(p[2]))
				} else {
					f.year, f.month, f.day = atoiSmall(p[0]), atoiSmall(p[1]), atoiSmall(p[2])
				}
			case allDigits(p[0]) && monthByName(p[1]) > 0 && allDigits(p[2]):
				f.month = monthByName(p[1])
				if len(p[0]) >= 3 { // YYYY-Mon-DD
					f.year, f.day = atoiSmall(p[0]), atoiSmall(p[2])
				} else { // DD-Mon-YYYY
					f.day, f.year = atoiSmall(p[0]), f.twoDigitYear(atoiSmall(p[2]), len(p[2]))
				}
			case monthByName(p[0]) > 0 && allDigits(p[1]) && allDigits(p[2]): // Mon-DD-YYYY
				f.month, f.day, f.year = monthByName(p[0]), atoiSmall(p[1]), f.twoDigitYear(atoiSmall(p[2]), len(p[2]))
			default:
				return f, false
			}
			f.hasDate = true
		case !f.hasDate && !namedMonth && (strings.IndexByte(fld, '/') > 0 || strings.Count(fld, ".") == 2):
			sep := "/"
			if strings.IndexByte(fld, '/') < 0 {
				sep = "."
			}
			p := strings.Split(fld, sep)
			if len(p) != 3 || !allDigits(p[0]) || !allDigits(p[1]) || !allDigits(p[2]) {
				return f, false
			}
			if len(p[0]) >= 3 { // YYYY/MM/DD
				f.year, f.month, f.day = atoiSmall(p[0]), atoiSmall(p[1]), atoiSmall(p[2])
			} else { // MDY
				f.month, f.day, f.year = atoiSmall(p[0]), atoiSmall(p[1]), f.twoDigitYear(atoiSmall(p[2]), len(p[2]))
			}
			f.hasDate = true
		case !f.hasDate && !namedMonth && len(fld) == 8 && allDigits(fld):
			f.year, f.month, f.day = atoiSmall(fld[:4]), atoiSmall(fld[4:6]), atoiSmall(fld[6:])
			f.hasDate = true
		case !f.hasDate && !namedMonth && len(fld) == 6 && allDigits(fld) && len(nums) == 0: // YYMMDD
			f.year, f.month, f.day = f.twoDigitYear(atoiSmall(fld[:2]), 2), atoiSmall(fld[2:4]), atoiSmall(fld[4:])
			f.hasDate = true
		case !f.hasDate && allDigits(fld) && (len(nums) < 2 || len(nums) < 3 && !namedMonth):
			nums = append(nums, fld) // day and year next to a month name, or month, day and year
		case !hasTime && strings.IndexByte(fld, ':') > 0:
			// time, possibly followed by a zone: +hh[:mm], -hh[:mm], z
			tm := fld
			if i := strings.IndexAny(tm, "+-z"); i > 0 {
				if !validZone(tm[i:]) {
					return f, false
				}
				if off, ok := parseTZOffset(tm[i:]); ok {
					f.hasOffset, f.offset = true, off
				}
				tm = tm[:i]
			}
			if !decodeTime(tm, &f) {
				return f, false
			}
			hasTime = true
		case (fld[0] == '+' || fld[0] == '-') && hasTime:
			if !validZone(fld) {
				return f, false
			}
			if off, ok := parseTZOffset(fld); ok {
				f.hasOffset, f.offset = true, off
			}
		default:
			return f, false
		}
	}
	if namedMonth && !f.hasDate && len(nums) == 2 {
		d, y := nums[0], nums[1]
		if len(d) >= 3 || atoiSmall(d) > 31 {
			d, y = y, d
		}
		f.day, f.year = atoiSmall(d), f.twoDigitYear(atoiSmall(y), len(y))
		f.hasDate = true
	} else if !namedMonth && !f.hasDate && len(nums) == 3 && len(nums[0]) <= 2 && len(nums[1]) <= 2 {
		// '08 01 99': month, day and year, DateStyle MDY.
		f.month, f.day = atoiSmall(nums[0]), atoiSmall(nums[1])
		f.year = f.twoDigitYear(atoiSmall(nums[2]), len(nums[2]))
		f.hasDate = true
	} else if len(nums) > 0 {
		return f, false
	}
	if f.year2 && !f.bc {
		if f.year < 70 {
			f.year += 2000
		} else if f.year < 100 {
			f.year += 1900
		}
	}
	if !f.hasDate {
		return f, false
	}
	if f.pm || f.am {
		if f.hour < 1 || f.hour > 12 {
			f.rangeErr = true
		} else if f.pm && f.hour != 12 {
			f.hour += 12
		} else if f.am && f.hour == 12 {
			f.hour = 0
		}
	}
	return f, true
}

func validZone(z string) bool {
	if z == "z" {
		return true
	}
	if len(z) < 2 || (z[0] != '+' && z[0] != '-') {
		return false
	}
	z = z[1:]
	if i := strings.IndexByte(z, ':'); i >= 0 {
		return allDigits(z[:i]) && i <= 2 && allDigits(z[i+1:]) && len(z)-i-1 == 2
	}
	return allDigits(z) && len(z) <= 4
}

func decodeTime(tm string, f *dtFields) bool {
	p := strings.Split(tm, ":")
	if len(p) < 2 || len(p) > 3 {
		return false
	}
	if !allDigits(p[0]) || !allDigits(p[1]) || len(p[0]) > 2 || len(p[1]) > 2 {
		return false
	}
	f.hour, f.min = atoiSmall(p[0]), atoiSmall(p[1])
	if len(p) == 3 {
		sec := p[2]
		frac := ""
		if i := strings.IndexByte(sec, '.'); i >= 0 {
			sec, frac = sec[:i], sec[i+1:]
			if frac != "" && !allDigits(frac) {
				return false
			}
		}
		if !allDigits(sec) || len(sec) > 2 {
			return false
		}
		f.sec = atoiSmall(sec)
		if frac != "" {
			v, _ := strconv.ParseFloat("0."+frac, 64)
			f.micros = int64(math.RoundToEven(v * 1e6))
		}
	}
	return true
}

// resolve turns fields into days since 2000-01-01 and microseconds since
// midnight (which may be a whole day, for 24:00:00 or rounding).
func (f *dtFields) resolve() (days, tod int64, ok bool) {
	if f.rangeErr || f.year < 1 || f.month < 1 || f.month > 12 || f.day < 1 {
		f.mdHint = f.month > 12
		return 0, 0, false
	}
	if f.year > 6000000 {
		return 0, 0, false
	}
	y := f.year
	if f.bc {
		y = 1 - y
	}
	if f.day > time.Date(y, time.Month(f.month)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return 0, 0, false
	}
	if f.hour < 0 || f.hour > 24 || f.min < 0 || f.min > 59 || f.sec < 0 || f.sec > 60 ||
		(f.hour == 24 && (f.min != 0 || f.sec != 0 || f.micros != 0)) {
		return 0, 0, false
	}
	days = floorDiv(time.Date(y, time.Month(f.month), f.day, 0, 0, 0, 0, time.UTC).Unix()-pgEpochUnix, 86400)
	tod = int64(f.hour)*3600e6 + int64(f.min)*60e6 + int64(f.sec)*1e6 + f.micros
	return days, tod, true
}

func dtRangeError(in string, f *dtFields) error {
	e := pgerr.New(pgerr.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", in)
	if f.mdHint {
		e.WithHint("Perhaps you need a different \"datestyle\" setting.")
	}
	return e
}

// ReadsNow reports whether date, timestamp or timestamptz input in
// depends on the current time ('now', 'today', 'tomorrow', 'yesterday'),
// so that its value is the transaction's and not the one it is bound in.
func ReadsNow(in string) bool {
	f, ok := decodeDateTime(in)
	switch {
	case !ok:
		return false
	case f.special == "now", f.special == "today", f.special == "tomorrow", f.special == "yesterday":
		return true
	}
	return false
}

// parseTimestamp is timestamp_in (without the typmod); cv gives 'now'
// and the zone 'now' and 'today' are read in.
func parseTimestamp(in string, cv Conv) (time.Time, error) {
	f, ok := decodeDateTime(in)
	if !ok {
		return time.Time{}, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type timestamp: \"%s\"", in)
	}
	return timestampFromFields(in, &f, nil, cv)
}

// timestampFromFields is the end of timestamp_in and timestamptz_in: the
// special values, or the decoded date and time range-checked. With loc
// nil the fields are the timestamp itself (a zone in the input is ignored,
// as timestamp_in ignores it); else they are a local time in the input's
// zone or offset, or in loc, turned into UTC.
//
// The special values 'now', 'today', 'tomorrow' and 'yesterday' read the
// current transaction's start (cv.Now) in the session's TimeZone (cv.Loc),
// as PostgreSQL's GetCurrentTransactionStartTimestamp does.
func timestampFromFields(in string, f *dtFields, loc *time.Location, cv Conv) (time.Time, error) {
	var us int64
	switch f.special {
	case "infinity":
		return TimestampInfinity, nil
	case "-infinity":
		return TimestampNegInfinity, nil
	case "epoch":
		us = -pgEpochUnix * 1e6
	case "now":
		us = cv.nowMicros()
		if loc == nil {
			us, _ = UTCToLocal(us, cv.loc())
		}
	case "today", "tomorrow", "yesterday":
		local, _ := UTCToLocal(cv.nowMicros(), cv.loc())
		day := floorDiv(local, 86400e6)
		if f.special == "tomorrow" {
			day++
		} else if f.special == "yesterday" {
			day--
		}
		us = day * 86400e6
		if loc != nil {
			us = LocalToUTC(us, loc)
		}
	default:
		days, tod, ok := f.resolve()
		if !ok {
			return time.Time{}, dtRangeError(in, f)
		}
		if days > endTimestamp/86400e6+1 || days < minTimestamp/86400e6-1 {
			return time.Time{}, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range: \"%s\"", in)
		}
		us = days*86400e6 + tod
		switch {
		case loc == nil:
		case f.hasOffset:
			us -= int64(f.offset) * 1e6
		case f.zoneLoc != nil:
			us = LocalToUTC(us, f.zoneLoc)
		default:
			us = LocalToUTC(us, loc)
		}
		if !timestampValid(us) {
			return time.Time{}, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range: \"%s\"", in)
		}
	}
	return MicrosToTimestamp(us), nil
}

// parseDate is date_in.
func parseDate(in string, cv Conv) (Datum, error) {
	f, ok := decodeDateTime(in)
	if !ok {
		return nil, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type date: \"%s\"", in)
	}
	var days int32
	switch f.special {
	case "infinity":
		return DateInfinity, nil
	case "-infinity":
		return DateNegInfinity, nil
	case "epoch":
		days = -pgEpochUnix / 86400
	case "now", "today", "tomorrow", "yesterday":
		local, _ := UTCToLocal(cv.nowMicros(), cv.loc())
		days = int32(floorDiv(local, 86400e6))
		if f.special == "tomorrow" {
			days++
		} else if f.special == "yesterday" {
			days--
		}
	default:
		d, _, ok := f.resolve()
		if !ok {
			return nil, dtRangeError(in, &f)
		}
		if d < int64(minDate) || d >= int64(endDate) {
			return nil, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range: \"%s\"", in)
		}
		days = int32(d)
	}
	return DaysToDate(days), nil
}

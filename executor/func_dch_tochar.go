package executor

import (
	"strconv"
	"strings"
	"time"

	"minipg/pgerr"
	"minipg/types"
)

// to_char over timestamp, timestamptz and interval: DCH_to_char. The value
// is first broken into a dchTm (timestamp2tm, or interval2itm for an
// interval, whose fields may be negative and whose hours are not reduced
// to days); each pattern then prints a field of it.

// dchTm is the struct pg_tm plus fractional seconds and zone that
// DCH_to_char reads. year is astronomical (0 is 1 BC) for timestamps and
// the interval's years for an interval.
type dchTm struct {
	year, mon, mday   int64
	hour, min, sec    int64
	fsec              int64 // microseconds
	yday, wday        int64
	gmtoff            int    // seconds east of UTC
	zone              string // abbreviation; "" when there is none
	interval, hasZone bool
}

// tmFromTime breaks a wall-clock time (a UTC time.Time) into a dchTm.
func tmFromTime(t time.Time) *dchTm {
	us := types.TimestampMicros(t)
	days := floorDivInt(us, types.USecsPerDay)
	tod := us - days*types.USecsPerDay
	j := days + 2451545
	y, m, d := j2date(j)
	return &dchTm{
		year: y, mon: m, mday: d,
		hour: tod / 3600e6, min: tod / 60e6 % 60, sec: tod / 1e6 % 60, fsec: tod % 1e6,
		wday: j2day(j), yday: j - date2j(y, 1, 1) + 1,
	}
}

// tmFromInterval is interval2itm as interval_to_char uses it.
func tmFromInterval(v types.IntervalValue) *dchTm {
	tm := &dchTm{interval: true}
	tm.year = int64(v.Months / 12)
	tm.mon = int64(v.Months % 12)
	tm.mday = int64(v.Days)
	t := v.Micros
	tm.hour = int64(int32(t / types.USecsPerHour)) // tm_hour is an int there
	t -= t / types.USecsPerHour * types.USecsPerHour
	tm.min = t / types.USecsPerMin
	t -= tm.min * types.USecsPerMin
	tm.sec = t / types.USecsPerSec
	tm.fsec = t - tm.sec*types.USecsPerSec
	tm.yday = (tm.year*12+tm.mon)*types.DaysPerMonth + tm.mday
	return tm
}

// adjustYear is ADJUST_YEAR: 1 BC is 1 for timestamps.
func (tm *dchTm) adjustYear(y int64) int64 {
	if tm.interval || y > 0 {
		return y
	}
	return -(y - 1)
}

func errIntervalFormat() error {
	return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid format specification for an interval value").
		WithHint("Intervals are not tied to specific calendar dates.")
}

// numTH is get_th: the ordinal suffix of the number printed last.
func numTH(num string, upper bool) (string, error) {
	if num == "" || num[len(num)-1] < '0' || num[len(num)-1] > '9' {
		return "", pgerr.New(pgerr.InvalidTextRepresentation, "\"%s\" is not a number", num)
	}
	last := num[len(num)-1]
	if len(num) > 1 && num[len(num)-2] == '1' {
		last = 0
	}
	s := "th"
	switch last {
	case '1':
		s = "st"
	case '2':
		s = "nd"
	case '3':
		s = "rd"
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s, nil
}

var monthAbbrevs = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
var dayAbbrevs = []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
var romanMonthsUpper = []string{"XII", "XI", "X", "IX", "VIII", "VII", "VI", "V", "IV", "III", "II", "I"}

// casedWord prints a name in the case of its pattern (NAME, Name, name),
// right-padded to width unless in fill mode.
func casedWord(name, pattern string, width int, fm bool) string {
	switch {
	case pattern == strings.ToUpper(pattern):
		name = strings.ToUpper(name)
	case pattern == strings.ToLower(pattern):
		name = strings.ToLower(name)
	}
	if !fm && len(name) < width {
		name += strings.Repeat(" ", width-len(name))
	}
	return name
}

// dchToChar is DCH_to_char.
func dchToChar(tm *dchTm, format string) (string, error) {
	var b strings.Builder
	nodes := parseDCH(format)
	for i := range nodes {
		n := &nodes[i]
		if n.typ != dchAction {
			b.WriteString(n.char)
			continue
		}
		fm := n.fm()
		w := func(width int) int {
			if fm {
				return 0
			}
			return width
		}
		signW := func(v int64, width int) int {
			if fm {
				return 0
			}
			if v < 0 {
				return width + 1
			}
			return width
		}
		out, numeric := "", true
		name := n.key.name
		switch n.key.id {
		case "A.M.", "P.M.", "AM", "PM":
			numeric = false
			pm := tm.hour%24 >= 12
			out = map[bool]string{false: "AM", true: "PM"}[pm]
			if strings.Contains(name, ".") {
				out = out[:1] + "." + out[1:] + "."
			}
			if name[0] >= 'a' {
				out = strings.ToLower(out)
			}
		case "HH", "HH12":
			h := tm.hour % 12
			if h == 0 {
				h = 12
			}
			out = cPad(h, signW(tm.hour, 2))
		case "HH24":
			out = cPad(tm.hour, signW(tm.hour, 2))
		case "MI":
			out = cPad(tm.min, signW(tm.min, 2))
		case "SS":
			out = cPad(tm.sec, signW(tm.sec, 2))
		case "FF1", "FF2", "FF3", "FF4", "FF5", "FF6":
			d := int(name[2] - '0')
			v := tm.fsec
			for k := 6; k > d; k-- {
				v /= 10
			}
			out = cPad(v, d)
		case "MS":
			out = cPad(tm.fsec/1000, 3)
		case "US":
			out = cPad(tm.fsec, 6)
		case "SSSS", "SSSSS":
			out = strconv.FormatInt(tm.hour*3600+tm.min*60+tm.sec, 10)
		case "TZ":
			numeric = false
			if tm.interval {
				return "", errIntervalFormat()
			}
			if tm.hasZone {
				out = tm.zone
				if name == "tz" {
					out = strings.ToLower(out)
				}
			}
		case "TZH":
			numeric = false
			if tm.interval {
				return "", errIntervalFormat()
			}
			out = offSign(tm.gmtoff) + cPad(int64(absInt(tm.gmtoff)/3600), 2)
		case "TZM":
			numeric = false
			if tm.interval {
				return "", errIntervalFormat()
			}
			out = cPad(int64(absInt(tm.gmtoff)%3600/60), 2)
		case "OF":
			numeric = false
			if tm.interval {
				return "", errIntervalFormat()
			}
			out = offSign(tm.gmtoff) + cPad(int64(absInt(tm.gmtoff)/3600), w(2))
			if absInt(tm.gmtoff)%3600 != 0 {
				out += ":" + cPad(int64(absInt(tm.gmtoff)%3600/60), 2)
			}
		case "A.D.", "B.C.", "AD", "BC":
			numeric = false
			if tm.interval {
				return "", errIntervalFormat()
			}
			out = "AD"
			if tm.year <= 0 {
				out = "BC"
			}
			if strings.Contains(name, ".") {
				out = out[:1] + "." + out[1:] + "."
			}
			if name[0] >= 'a' {
				out = strings.ToLower(out)
			}
		case "MONTH", "MON":
			numeric = false
			if tm.interval {
				return "", errIntervalFormat()
			}
			if tm.mon == 0 {
				break
			}
			if n.key.id == "MONTH" {
				out = casedWord(monthNames[tm.mon-1], name, 9, fm || n.suffix&dchTM != 0)
			} else {
				out = casedWord(monthAbbrevs[tm.mon-1], name, 0, true)
			}
		case "MM":
			out = cPad(tm.mon, signW(tm.mon, 2))
		case "DAY", "DY":
			numeric = false
			if tm.interval {
				return "", errIntervalFormat()
			}
			if n.key.id == "DAY" {
				out = casedWord(dayNames[tm.wday], name, 9, fm || n.suffix&dchTM != 0)
			} else {
				out = casedWord(dayAbbrevs[tm.wday], name, 0, true)
			}
		case "DDD":
			out = cPad(tm.yday, w(3))
		case "IDDD":
			out = cPad(date2isoyearday(tm.year, tm.mon, tm.mday), w(3))
		case "DD":
			out = cPad(tm.mday, w(2))
		case "D":
			if tm.interval {
				return "", errIntervalFormat()
			}
			out = strconv.FormatInt(tm.wday+1, 10)
		case "ID":
			if tm.interval {
				return "", errIntervalFormat()
			}
			d := tm.wday
			if d == 0 {
				d = 7
			}
			out = strconv.FormatInt(d, 10)
		case "WW":
			out = cPad((tm.yday-1)/7+1, w(2))
		case "IW":
			out = cPad(date2isoweek(tm.year, tm.mon, tm.mday), w(2))
		case "Q":
			if tm.mon == 0 {
				numeric = false
				break
			}
			out = strconv.FormatInt((tm.mon-1)/3+1, 10)
		case "CC":
			var c int64
			switch {
			case tm.interval:
				c = tm.year / 100
			case tm.year > 0:
				c = (tm.year-1)/100 + 1
			default:
				c = tm.year/100 - 1
			}
			if c <= 99 && c >= -99 {
				out = cPad(c, signW(c, 2))
			} else {
				out = strconv.FormatInt(c, 10)
			}
		case "Y,YYY":
			y := tm.adjustYear(tm.year)
			k := y / 1000
			out = strconv.FormatInt(k, 10) + "," + cPad(y-k*1000, 3)
		case "YYYY", "IYYY", "YYY", "IYY", "YY", "IY", "Y", "I":
			y := tm.adjustYear(tm.year)
			v := y
			if n.key.id[0] == 'I' {
				v = tm.adjustYear(date2isoyear(tm.year, tm.mon, tm.mday))
			}
			switch len(n.key.id) {
			case 4:
				out = cPad(v, signW(y, 4))
			case 3:
				out = cPad(v%1000, signW(y, 3))
			case 2:
				out = cPad(v%100, signW(y, 2))
			default:
				out = cPad(v%10, 1)
			}
		case "RM":
			numeric = false
			if tm.mon == 0 && tm.year == 0 {
				break
			}
			var k int64
			switch {
			case tm.mon == 0:
				if tm.year < 0 {
					k = 11
				}
			case tm.mon < 0:
				k = -(tm.mon + 1)
			default:
				k = 12 - tm.mon
			}
			out = romanMonthsUpper[k]
			if name == "rm" {
				out = strings.ToLower(out)
			}
			if !fm {
				out += strings.Repeat(" ", 4-len(out))
			}
		case "W":
			out = strconv.FormatInt((tm.mday-1)/7+1, 10)
		case "J":
			out = strconv.FormatInt(date2j(tm.year, tm.mon, tm.mday), 10)
		default: // FX
			numeric = false
		}
		b.WriteString(out)
		if numeric && n.thth() {
			th, err := numTH(out, n.suffix&dchTH != 0)
			if err != nil {
				return "", err
			}
			b.WriteString(th)
		}
	}
	return b.String(), nil
}

func offSign(off int) string {
	if off >= 0 {
		return "+"
	}
	return "-"
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

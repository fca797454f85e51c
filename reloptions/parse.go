package reloptions

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"minipg/pgerr"
)

// timeUnits are PostgreSQL's time units in milliseconds.
var timeUnits = map[string]float64{"us": 0.001, "ms": 1, "s": 1000, "min": 60000, "h": 3600000, "d": 86400000}

// memoryUnits are PostgreSQL's memory units in bytes.
var memoryUnits = map[string]float64{"B": 1, "kB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}

// memoryBases are the base units a memory setting may have: its values
// count kilobytes, 8 kB blocks or megabytes, as PostgreSQL's GUC_UNIT_KB,
// GUC_UNIT_BLOCKS and GUC_UNIT_MB do.
var memoryBases = map[string]float64{"kB": 1 << 10, "8kB": 8 << 10, "MB": 1 << 20}

const (
	timeUnitHint   = `Valid units for this parameter are "us", "ms", "s", "min", "h", and "d".`
	memoryUnitHint = `Valid units for this parameter are "B", "kB", "MB", "GB", and "TB".`
)

// unitScale returns the units a value of a parameter with base unit base
// may be written in, and the size of base in the same measure.
func unitScale(base string) (units map[string]float64, size float64) {
	if b, ok := memoryBases[base]; ok {
		return memoryUnits, b
	}
	return timeUnits, timeUnits[base]
}

// unitHint is the HINT of a value with a unit base does not take.
func unitHint(base string) string {
	if _, ok := memoryBases[base]; ok {
		return memoryUnitHint
	}
	return timeUnitHint
}

// CheckReloption validates value for the storage parameter name, as
// CREATE TABLE ... WITH (...) and ALTER TABLE ... SET (...) must, and
// returns its canonical form. Errors are PostgreSQL 15's (reloptions.c
// parse_one_reloption), all 22023: "unrecognized parameter", "invalid
// value for integer option", "value N out of bounds for option" with the
// bounds in the DETAIL, and so on. A parameter written without a value
// (WITH (autovacuum_enabled)) has the value "true", as in PostgreSQL.
func CheckReloption(name, value string) (string, error) {
	p, ok := Lookup(name)
	// Unlike settings, storage parameters match their names exactly
	// ("Fillfactor" is not fillfactor).
	if !ok || !p.Table || name != p.Name {
		return "", pgerr.New(pgerr.InvalidParameterValue, "unrecognized parameter \"%s\"", name)
	}
	return p.ParseReloption(value)
}

// IsReloption reports whether name is a declared storage parameter.
func IsReloption(name string) bool {
	p, ok := Lookup(name)
	return ok && p.Table
}

// ParseReloption validates value as a storage parameter and returns its
// canonical form (see CheckReloption). Units are not accepted, as in
// PostgreSQL.
func (p *Param) ParseReloption(value string) (string, error) {
	bad := func(format string, args ...any) *pgerr.Error {
		return pgerr.New(pgerr.InvalidParameterValue, format, args...)
	}
	switch p.Kind {
	case Bool:
		b, ok := parseBool(value)
		if !ok {
			return "", bad("invalid value for boolean option \"%s\": %s", p.Name, value)
		}
		return boolText(b), nil
	case Int:
		v, ok := parseInt(value, "")
		if !ok {
			return "", bad("invalid value for integer option \"%s\": %s", p.Name, value)
		}
		if float64(v) < p.Min || float64(v) > p.Max {
			return "", bad("value %s out of bounds for option \"%s\"", value, p.Name).
				WithDetail("Valid values are between \"%d\" and \"%d\".", int64(p.Min), int64(p.Max))
		}
		return p.checked(strconv.FormatInt(v, 10))
	case Real:
		v, ok := parseReal(value, "")
		if !ok {
			return "", bad("invalid value for floating point option \"%s\": %s", p.Name, value)
		}
		if v < p.Min || v > p.Max {
			return "", bad("value %s out of bounds for option \"%s\"", value, p.Name).
				WithDetail("Valid values are between \"%f\" and \"%f\".", p.Min, p.Max)
		}
		return p.checked(formatReal(v))
	case Enum:
		if w, ok := p.enumWord(value); ok {
			return w, nil
		}
		return "", bad("invalid value for enum option \"%s\": %s", p.Name, value).
			WithDetail("Valid values are %s.", QuotedList(p.Values()))
	}
	return p.checked(value)
}

// ParseSetting validates value as the server setting p (-c, SET, the
// startup packet's options) and returns its canonical form, the one SHOW
// prints. Errors are PostgreSQL 15's (guc.c parse_and_validate_value),
// all 22023. Time settings accept a unit.
func (p *Param) ParseSetting(value string) (string, error) {
	invalid := func() *pgerr.Error {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", p.Name, value)
	}
	unit := ""
	if p.Unit != "" {
		unit = " " + p.Unit
	}
	switch p.Kind {
	case Bool:
		b, ok := parseBool(value)
		if !ok {
			return "", pgerr.New(pgerr.InvalidParameterValue, "parameter \"%s\" requires a Boolean value", p.Name)
		}
		return boolText(b), nil
	case Int, Real:
		v, ok := parseReal(value, p.Unit)
		if p.Kind == Int {
			n, intOK := parseInt(value, p.Unit)
			if !intOK && ok {
				return "", invalid().WithHint("Value exceeds integer range.")
			}
			ok, v = intOK, float64(n)
		}
		if !ok {
			e := invalid()
			if p.Unit != "" && hasBadUnit(value) {
				e = e.WithHint("%s", unitHint(p.Unit))
			}
			return "", e
		}
		if p.Kind == Int {
			if v < p.Min || v > p.Max {
				return "", pgerr.New(pgerr.InvalidParameterValue, "%d%s is outside the valid range for parameter \"%s\" (%d .. %d)",
					int64(v), unit, p.Name, int64(p.Min), int64(p.Max))
			}
			return p.checked(formatTime(v, p.Unit, true))
		}
		if v < p.Min || v > p.Max {
			return "", pgerr.New(pgerr.InvalidParameterValue, "%s%s is outside the valid range for parameter \"%s\" (%s .. %s)",
				cG(v), unit, p.Name, cG(p.Min), cG(p.Max))
		}
		return p.checked(formatTime(v, p.Unit, false))
	case Enum:
		if w, ok := p.enumWord(value); ok {
			return w, nil
		}
		return "", invalid().WithHint("Available values: %s.", strings.Join(p.Values(), ", "))
	}
	return p.checked(value)
}

// checked applies p.Check to a canonical value.
func (p *Param) checked(v string) (string, error) {
	if p.Check != nil {
		if msg := p.Check(v); msg != "" {
			return "", pgerr.New(pgerr.InvalidParameterValue, "%s", msg)
		}
	}
	return v, nil
}

// number parses a canonical Int or Real value (with its unit, if any) in
// the base unit.
func (p *Param) number(v string) float64 {
	f, _ := parseReal(v, p.Unit)
	return f
}

// enumWord returns the word of p's Values that value names. An enum with
// "on" and "off" among its words also takes true, yes and 1 for "on" and
// false, no and 0 for "off", as PostgreSQL's enums of that kind do
// (huge_pages, vacuum_index_cleanup): hidden words, left out of the
// messages that list the valid values.
func (p *Param) enumWord(value string) (string, bool) {
	words := p.Values()
	for _, w := range words {
		if strings.EqualFold(w, value) {
			return w, true
		}
	}
	if slices.Contains(words, "on") && slices.Contains(words, "off") {
		switch strings.ToLower(value) {
		case "true", "yes", "1":
			return "on", true
		case "false", "no", "0":
			return "off", true
		}
	}
	return "", false
}

// QuotedList renders words as PostgreSQL's enum reloption DETAILs do:
// "a", "a" and "b", or "a", "b", and "c".
func QuotedList(words []string) string {
	q := make([]string, len(words))
	for i, n := range words {
		q[i] = `"` + n + `"`
	}
	switch len(q) {
	case 0:
		return "none"
	case 1:
		return q[0]
	case 2:
		return q[0] + " and " + q[1]
	}
	return strings.Join(q[:len(q)-1], ", ") + ", and " + q[len(q)-1]
}

func boolText(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// parseBool is PostgreSQL's parse_bool: a prefix of true, false, yes or
// no, on, off (at least "of"), 1 or 0, case-insensitive, no spaces.
func parseBool(v string) (bool, bool) {
	l := strings.ToLower(v)
	if l == "" {
		return false, false
	}
	prefixOf := func(word string) bool { return strings.HasPrefix(word, l) }
	switch l[0] {
	case 't':
		return true, prefixOf("true")
	case 'f':
		return false, prefixOf("false")
	case 'y':
		return true, prefixOf("yes")
	case 'n':
		return false, prefixOf("no")
	case 'o':
		if len(l) >= 2 && prefixOf("on") {
			return true, true
		}
		if len(l) >= 2 && prefixOf("off") {
			return false, true
		}
	case '1':
		return true, l == "1"
	case '0':
		return false, l == "0"
	}
	return false, false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func trimSpaceLeft(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	return s
}

// parseInt is PostgreSQL's parse_int: an integer in C's strtol base 0
// (0x hex, leading-0 octal) or a number with a fraction or exponent,
// rounded half to even; leading and trailing spaces allowed; then, for a
// setting with a time unit, an optional unit. The result must fit in 32
// bits.
func parseInt(s, unit string) (int64, bool) {
	t := trimSpaceLeft(s)
	i := 0
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		i++
	}
	base, start := 10, i
	if i+1 < len(t) && t[i] == '0' && (t[i+1] == 'x' || t[i+1] == 'X') {
		base, start = 16, i+2
	} else if i < len(t) && t[i] == '0' {
		base = 8
	}
	j := start
	for j < len(t) && digitVal(t[j]) < base {
		j++
	}
	if j == start || (j < len(t) && (t[j] == '.' || t[j] == 'e' || t[j] == 'E')) {
		f, ok := parseReal(s, unit)
		if !ok {
			return 0, false
		}
		f = math.RoundToEven(f)
		if f > math.MaxInt32 || f < math.MinInt32 {
			return 0, false
		}
		return int64(f), true
	}
	n, err := strconv.ParseInt(t[start:j], base, 64)
	if err != nil {
		return 0, false
	}
	if t[0] == '-' {
		n = -n
	}
	f, ok := applyUnit(float64(n), t[j:], unit)
	if !ok || f > math.MaxInt32 || f < math.MinInt32 {
		return 0, false
	}
	return int64(math.RoundToEven(f)), true
}

func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 99
}

// parseReal is PostgreSQL's parse_real: C's strtod (decimal, exponent,
// inf), not NaN, spaces around; then, for a time setting, an optional
// unit, the result converted to the base unit.
func parseReal(s, unit string) (float64, bool) {
	t := trimSpaceLeft(s)
	j := floatPrefix(t)
	if j == 0 {
		return 0, false
	}
	f, err := strconv.ParseFloat(t[:j], 64)
	if err != nil || math.IsNaN(f) { // ERANGE, or "nan"
		return 0, false
	}
	return applyUnit(f, t[j:], unit)
}

// floatPrefix is the length of the longest prefix of t that strtod reads.
func floatPrefix(t string) int {
	i := 0
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		i++
	}
	rest := strings.ToLower(t[i:])
	for _, w := range []string{"infinity", "inf", "nan"} {
		if strings.HasPrefix(rest, w) {
			return i + len(w)
		}
	}
	digits := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(t) && t[i] == '.' {
		i++
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return 0
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		k := i + 1
		if k < len(t) && (t[k] == '+' || t[k] == '-') {
			k++
		}
		if k < len(t) && t[k] >= '0' && t[k] <= '9' {
			for k < len(t) && t[k] >= '0' && t[k] <= '9' {
				k++
			}
			i = k
		}
	}
	return i
}

// applyUnit reads what follows a number: spaces, then (only when the
// parameter has a base unit) an optional time unit and spaces, and returns
// the number in the base unit.
func applyUnit(f float64, rest, unit string) (float64, bool) {
	rest = trimSpaceLeft(rest)
	if rest == "" {
		return f, true
	}
	if unit == "" {
		return 0, false
	}
	k := 0
	for k < len(rest) && (rest[k] >= 'a' && rest[k] <= 'z' || rest[k] >= 'A' && rest[k] <= 'Z') {
		k++
	}
	units, size := unitScale(unit)
	u, ok := units[rest[:k]]
	if !ok || trimSpaceLeft(rest[k:]) != "" {
		return 0, false
	}
	return f * u / size, true
}

// hasBadUnit reports whether a value that did not parse is a number
// followed by something that is not a time unit (PostgreSQL then hints at
// the valid units).
func hasBadUnit(v string) bool {
	t := trimSpaceLeft(v)
	j := floatPrefix(t)
	return j > 0 && strings.TrimSpace(t[j:]) != ""
}

// formatTime is the canonical text of a number in base unit unit: plain
// for a parameter without a unit; for a time or memory parameter, the
// largest unit that divides it exactly (1min, 30s, 200ms; 4GB, 8kB), as
// SHOW prints it.
func formatTime(v float64, unit string, integer bool) string {
	if unit == "" || v == 0 {
		return formatNumber(v, integer)
	}
	units, size := unitScale(unit)
	order := []string{"d", "h", "min", "s", "ms"}
	if _, ok := memoryBases[unit]; ok {
		// Every memory base is a whole number of kilobytes.
		order = []string{"TB", "GB", "MB", "kB"}
	}
	x := v * size
	for _, u := range order {
		if units[u] < size && units[u] != memoryUnits["kB"] {
			break
		}
		if n := x / units[u]; n == math.Trunc(n) {
			return formatNumber(n, true) + u
		}
	}
	return formatNumber(v, integer) + unit
}

func formatNumber(v float64, integer bool) string {
	if integer {
		return strconv.FormatInt(int64(v), 10)
	}
	return formatReal(v)
}

// cG is C's %g: six significant digits.
func cG(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

func formatReal(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

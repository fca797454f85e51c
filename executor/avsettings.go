package executor

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"minipg/autovacuum"
	"minipg/pgerr"
)

// roSighup marks a setting PostgreSQL reads from its configuration file
// (context sighup): SET refuses it; minipg takes it from -c at start-up.
const roSighup = "sighup"

// The autovacuum and cost-based vacuum delay settings, with PostgreSQL
// 15's names, defaults, ranges and units.
var vacuumGUCs = []struct {
	name, def, readOnly string
	check               func(name, v string) (string, error)
}{
	{"autovacuum", "on", roSighup, checkBoolGUC},
	{"autovacuum_max_workers", "3", roPostmaster, intGUC(1, 262143)},
	{"autovacuum_naptime", "1min", roSighup, timeGUC(time.Second, 1, 2147483)},
	{"autovacuum_vacuum_threshold", "50", roSighup, intGUC(0, math.MaxInt32)},
	{"autovacuum_vacuum_insert_threshold", "1000", roSighup, intGUC(-1, math.MaxInt32)},
	{"autovacuum_analyze_threshold", "50", roSighup, intGUC(0, math.MaxInt32)},
	{"autovacuum_vacuum_scale_factor", "0.2", roSighup, realGUC(0, 100)},
	{"autovacuum_vacuum_insert_scale_factor", "0.2", roSighup, realGUC(0, 100)},
	{"autovacuum_analyze_scale_factor", "0.1", roSighup, realGUC(0, 100)},
	{"autovacuum_vacuum_cost_delay", "2ms", roSighup, msGUC(-1, 100)},
	{"autovacuum_vacuum_cost_limit", "-1", roSighup, intGUC(-1, 10000)},
	{"log_autovacuum_min_duration", "10min", roSighup, timeGUC(time.Millisecond, -1, math.MaxInt32)},
	{"vacuum_cost_delay", "0", "", msGUC(0, 100)},
	{"vacuum_cost_limit", "200", "", intGUC(1, 10000)},
	{"vacuum_cost_page_hit", "1", "", intGUC(0, 10000)},
	{"vacuum_cost_page_miss", "2", "", intGUC(0, 10000)},
	{"vacuum_cost_page_dirty", "20", "", intGUC(0, 10000)},
}

// gucChecks validates settings not handled in checkGUC's switch.
var gucChecks = map[string]func(name, v string) (string, error){}

func init() {
	for _, g := range vacuumGUCs {
		gucTable[g.name] = gucDef{def: g.def, readOnly: g.readOnly}
		gucChecks[g.name] = g.check
	}
}

func badValue(name, v string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v)
}

func checkBoolGUC(name, v string) (string, error) {
	b, ok := parseBool(v)
	if !ok {
		return "", pgerr.New(pgerr.InvalidParameterValue, "parameter \"%s\" requires a Boolean value", name)
	}
	if b {
		return "on", nil
	}
	return "off", nil
}

func intGUC(lo, hi int64) func(name, v string) (string, error) {
	return func(name, v string) (string, error) {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			f, ferr := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if ferr != nil {
				return "", badValue(name, v)
			}
			n = int64(math.RoundToEven(f))
		}
		if n < lo || n > hi {
			return "", pgerr.New(pgerr.InvalidParameterValue, "%d is outside the valid range for parameter \"%s\" (%d .. %d)", n, name, lo, hi)
		}
		return strconv.FormatInt(n, 10), nil
	}
}

func realGUC(lo, hi float64) func(name, v string) (string, error) {
	return func(name, v string) (string, error) {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return "", badValue(name, v)
		}
		if f < lo || f > hi {
			return "", pgerr.New(pgerr.InvalidParameterValue, "%g is outside the valid range for parameter \"%s\" (%g .. %g)", f, name, lo, hi)
		}
		return strconv.FormatFloat(f, 'g', -1, 64), nil
	}
}

// timeUnits are PostgreSQL's time units.
var timeUnits = map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second,
	"min": time.Minute, "h": time.Hour, "d": 24 * time.Hour}

// parseTimeValue parses a number with an optional time unit; a bare
// number counts unit.
func parseTimeValue(name, v string, unit time.Duration) (float64, error) {
	s := strings.TrimSpace(v)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || (i == 0 && (s[i] == '-' || s[i] == '+'))) {
		i++
	}
	num, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, badValue(name, v)
	}
	u := strings.TrimSpace(s[i:])
	if u == "" {
		return num, nil
	}
	d, ok := timeUnits[u]
	if !ok {
		return 0, badValue(name, v).WithHint("Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".")
	}
	return num * float64(d) / float64(unit), nil
}

// formatTime prints n units as SHOW does: in the largest unit that divides
// it exactly; 0 and negative values bare.
func formatTime(n float64, unit time.Duration) string {
	if n <= 0 {
		return strconv.FormatFloat(n, 'g', -1, 64)
	}
	d := time.Duration(math.Round(n * float64(unit)))
	for _, u := range []struct {
		name string
		d    time.Duration
	}{{"d", 24 * time.Hour}, {"h", time.Hour}, {"min", time.Minute}, {"s", time.Second}, {"ms", time.Millisecond}, {"us", time.Microsecond}} {
		if u.d >= unit || u.d == time.Microsecond || unit == time.Millisecond && u.d == time.Millisecond {
			if d%u.d == 0 {
				return fmt.Sprintf("%d%s", d/u.d, u.name)
			}
		}
	}
	return fmt.Sprintf("%dus", d/time.Microsecond)
}

// timeGUC is an integer time setting counted in unit.
func timeGUC(unit time.Duration, lo, hi int64) func(name, v string) (string, error) {
	return func(name, v string) (string, error) {
		f, err := parseTimeValue(name, v, unit)
		if err != nil {
			return "", err
		}
		n := int64(math.RoundToEven(f))
		if n < lo || n > hi {
			return "", pgerr.New(pgerr.InvalidParameterValue, "%d%s is outside the valid range for parameter \"%s\" (%d .. %d)", n, unitName(unit), name, lo, hi)
		}
		return formatTime(float64(n), unit), nil
	}
}

// msGUC is a real setting in milliseconds (the cost delays).
func msGUC(lo, hi float64) func(name, v string) (string, error) {
	return func(name, v string) (string, error) {
		f, err := parseTimeValue(name, v, time.Millisecond)
		if err != nil {
			return "", err
		}
		if f < lo || f > hi {
			return "", pgerr.New(pgerr.InvalidParameterValue, "%g ms is outside the valid range for parameter \"%s\" (%g .. %g)", f, name, lo, hi)
		}
		return formatTime(f, time.Millisecond), nil
	}
}

func unitName(u time.Duration) string {
	if u == time.Second {
		return " s"
	}
	return " ms"
}

// settingDuration reads a time setting as checkGUC normalized it.
func settingDuration(v string, unit time.Duration) time.Duration {
	f, err := parseTimeValue("", v, unit)
	if err != nil {
		return 0
	}
	if f < 0 {
		return -1
	}
	return time.Duration(f * float64(unit))
}

func settingFloat(v string) float64 {
	f, _ := strconv.ParseFloat(v, 64)
	return f
}

func settingInt(v string) int {
	n, _ := strconv.Atoi(v)
	return n
}

// autovacuumSettings are the engine's autovacuum settings.
func (e *Engine) autovacuumSettings() autovacuum.Settings {
	g := e.settings
	return autovacuum.Settings{
		Enabled:                 g["autovacuum"] == "on",
		MaxWorkers:              settingInt(g["autovacuum_max_workers"]),
		Naptime:                 settingDuration(g["autovacuum_naptime"], time.Second),
		VacuumThreshold:         settingFloat(g["autovacuum_vacuum_threshold"]),
		VacuumScaleFactor:       settingFloat(g["autovacuum_vacuum_scale_factor"]),
		VacuumInsertThreshold:   settingFloat(g["autovacuum_vacuum_insert_threshold"]),
		VacuumInsertScaleFactor: settingFloat(g["autovacuum_vacuum_insert_scale_factor"]),
		AnalyzeThreshold:        settingFloat(g["autovacuum_analyze_threshold"]),
		AnalyzeScaleFactor:      settingFloat(g["autovacuum_analyze_scale_factor"]),
		VacuumCostDelay:         settingDuration(g["autovacuum_vacuum_cost_delay"], time.Millisecond),
		VacuumCostLimit:         settingInt(g["autovacuum_vacuum_cost_limit"]),
		BaseCostDelay:           settingDuration(g["vacuum_cost_delay"], time.Millisecond),
		BaseCostLimit:           settingInt(g["vacuum_cost_limit"]),
		PageHit:                 settingInt(g["vacuum_cost_page_hit"]),
		PageMiss:                settingInt(g["vacuum_cost_page_miss"]),
		PageDirty:               settingInt(g["vacuum_cost_page_dirty"]),
		LogMinDuration:          settingDuration(g["log_autovacuum_min_duration"], time.Millisecond),
	}
}

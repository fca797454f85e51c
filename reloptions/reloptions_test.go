package reloptions

import (
	"math"
	"testing"

	"minipg/pgerr"
)

// Parameters shaped like PostgreSQL's own, so that the errors can be
// compared with what PostgreSQL 15 says for them.
var (
	tInt = Declare(Param{Name: "autovacuum_vacuum_threshold", Kind: Int, Default: "50", Min: 0, Max: math.MaxInt32,
		Table: true, Setting: Sighup})
	tReal = Declare(Param{Name: "autovacuum_vacuum_scale_factor", Kind: Real, Default: "0.2", Min: 0, Max: 100,
		Table: true, Setting: Sighup})
	tBool = Declare(Param{Name: "autovacuum_enabled", Kind: Bool, Default: "on", Table: true})
	tEnum = Declare(Param{Name: "vacuum_index_cleanup", Kind: Enum, Default: "auto",
		Values: func() []string { return []string{"on", "off", "auto"} }, Table: true})
	tEFD  = Declare(Param{Name: "extra_float_digits", Kind: Int, Default: "1", Min: -15, Max: 3, Setting: UserSet})
	tTime = Declare(Param{Name: "statement_timeout", Kind: Int, Default: "0", Min: 0, Max: math.MaxInt32, Unit: "ms",
		Setting: UserSet})
	tNap = Declare(Param{Name: "autovacuum_naptime", Kind: Int, Default: "60", Min: 1, Max: math.MaxInt32 / 1000, Unit: "s",
		Setting: Sighup})
	tCost   = Declare(Param{Name: "seq_page_cost", Kind: Real, Default: "1", Min: 0, Max: math.MaxFloat64, Setting: UserSet})
	tBlocks = Declare(Param{Name: "effective_cache_size", Kind: Int, Default: "4GB", Min: 1, Max: math.MaxInt32, Unit: "8kB",
		Setting: UserSet})
	tKB = Declare(Param{Name: "work_mem", Kind: Int, Default: "4MB", Min: 64, Max: math.MaxInt32, Unit: "kB",
		Setting: UserSet})
)

type errCase struct {
	in, msg, detail, hint string
	out                   string // canonical value when there is no error
}

func check(t *testing.T, what string, f func(string) (string, error), cases []errCase) {
	t.Helper()
	for _, c := range cases {
		got, err := f(c.in)
		if c.msg == "" {
			if err != nil || got != c.out {
				t.Errorf("%s(%q) = %q, %v; want %q", what, c.in, got, err, c.out)
			}
			continue
		}
		pe, ok := err.(*pgerr.Error)
		if !ok || pe.Code != pgerr.InvalidParameterValue || pe.Message != c.msg || pe.Detail != c.detail || pe.Hint != c.hint {
			t.Errorf("%s(%q):\n got %#v\nwant 22023 %q detail %q hint %q", what, c.in, err, c.msg, c.detail, c.hint)
		}
	}
}

// The expected texts are PostgreSQL 15's for the same parameters
// (CREATE TABLE ... WITH (...) and SET).
func TestParseReloption(t *testing.T) {
	check(t, "fillfactor-like int", tInt.ParseReloption, []errCase{
		{in: "-1", msg: `value -1 out of bounds for option "autovacuum_vacuum_threshold"`, detail: `Valid values are between "0" and "2147483647".`},
		{in: "99999999999", msg: `invalid value for integer option "autovacuum_vacuum_threshold": 99999999999`},
		{in: "x", msg: `invalid value for integer option "autovacuum_vacuum_threshold": x`},
		{in: "5ms", msg: `invalid value for integer option "autovacuum_vacuum_threshold": 5ms`},
		{in: " 50 ", out: "50"}, {in: "0x20", out: "32"}, {in: "010", out: "8"}, {in: "10.5", out: "10"}, {in: "1e2", out: "100"},
	})
	check(t, "real", tReal.ParseReloption, []errCase{
		{in: "x", msg: `invalid value for floating point option "autovacuum_vacuum_scale_factor": x`},
		{in: "200", msg: `value 200 out of bounds for option "autovacuum_vacuum_scale_factor"`, detail: `Valid values are between "0.000000" and "100.000000".`},
		{in: "-1", msg: `value -1 out of bounds for option "autovacuum_vacuum_scale_factor"`, detail: `Valid values are between "0.000000" and "100.000000".`},
		{in: "1e1", out: "10"}, {in: "0.05", out: "0.05"},
	})
	check(t, "bool", tBool.ParseReloption, []errCase{
		{in: "bogus", msg: `invalid value for boolean option "autovacuum_enabled": bogus`},
		{in: " on", msg: `invalid value for boolean option "autovacuum_enabled":  on`},
		{in: "o", msg: `invalid value for boolean option "autovacuum_enabled": o`},
		{in: "of", out: "off"}, {in: "TRUE", out: "on"}, {in: "1", out: "on"}, {in: "n", out: "off"},
	})
	check(t, "enum", tEnum.ParseReloption, []errCase{
		{in: "bogus", msg: `invalid value for enum option "vacuum_index_cleanup": bogus`, detail: `Valid values are "on", "off", and "auto".`},
		{in: "AUTO", out: "auto"},
		// An enum with on and off takes PostgreSQL's boolean words.
		{in: "True", out: "on"}, {in: "no", out: "off"}, {in: "1", out: "on"}, {in: "0", out: "off"},
		{in: "t", msg: `invalid value for enum option "vacuum_index_cleanup": t`, detail: `Valid values are "on", "off", and "auto".`},
	})
	if _, err := CheckReloption("x", "1"); err == nil || err.Error() != `unrecognized parameter "x"` {
		t.Errorf("unknown: %v", err)
	}
	if _, err := CheckReloption("extra_float_digits", "1"); err == nil || err.Error() != `unrecognized parameter "extra_float_digits"` {
		t.Errorf("a setting that is not a storage parameter: %v", err)
	}
}

func TestParseSetting(t *testing.T) {
	check(t, "int", tEFD.ParseSetting, []errCase{
		{in: "10", msg: `10 is outside the valid range for parameter "extra_float_digits" (-15 .. 3)`},
		{in: "x", msg: `invalid value for parameter "extra_float_digits": "x"`},
		{in: "99999999999", msg: `invalid value for parameter "extra_float_digits": "99999999999"`, hint: "Value exceeds integer range."},
		{in: "0x2", out: "2"}, {in: " 2 ", out: "2"}, {in: "2.5", out: "2"},
	})
	check(t, "time", tTime.ParseSetting, []errCase{
		{in: "5 fortnights", msg: `invalid value for parameter "statement_timeout": "5 fortnights"`,
			hint: `Valid units for this parameter are "us", "ms", "s", "min", "h", and "d".`},
		{in: "-5", msg: `-5 ms is outside the valid range for parameter "statement_timeout" (0 .. 2147483647)`},
		{in: "60000", out: "1min"}, {in: "1.5s", out: "1500ms"}, {in: "2 h", out: "2h"}, {in: "0", out: "0"},
	})
	check(t, "time in seconds", tNap.ParseSetting, []errCase{
		{in: "90", out: "90s"}, {in: "2min", out: "2min"}, {in: "1500ms", out: "2s"},
		{in: "0", msg: `0 s is outside the valid range for parameter "autovacuum_naptime" (1 .. 2147483)`},
	})
	check(t, "memory in blocks", tBlocks.ParseSetting, []errCase{
		{in: "1 furlong", msg: `invalid value for parameter "effective_cache_size": "1 furlong"`,
			hint: `Valid units for this parameter are "B", "kB", "MB", "GB", and "TB".`},
		{in: "0", msg: `0 8kB is outside the valid range for parameter "effective_cache_size" (1 .. 2147483647)`},
		{in: "1000", out: "8000kB"}, {in: "10 MB", out: "10MB"}, {in: "1GB", out: "1GB"}, {in: "1", out: "8kB"},
		{in: "12kB", out: "16kB"}, {in: "1TB", out: "1TB"},
	})
	check(t, "memory in kilobytes", tKB.ParseSetting, []errCase{
		{in: "63", msg: `63 kB is outside the valid range for parameter "work_mem" (64 .. 2147483647)`},
		{in: "1024", out: "1MB"}, {in: "1000", out: "1000kB"}, {in: "2048kB", out: "2MB"}, {in: "65537B", out: "64kB"},
	})
	if tBlocks.Default != "4GB" || tKB.Default != "4MB" {
		t.Errorf("memory defaults: %q %q", tBlocks.Default, tKB.Default)
	}
	check(t, "real", tCost.ParseSetting, []errCase{
		{in: "x", msg: `invalid value for parameter "seq_page_cost": "x"`},
		{in: "-1", msg: `-1 is outside the valid range for parameter "seq_page_cost" (0 .. 1.79769e+308)`},
		{in: "4", out: "4"},
	})
	check(t, "bool", tBool.ParseSetting, []errCase{
		{in: " on", msg: `parameter "autovacuum_enabled" requires a Boolean value`},
		{in: "of", out: "off"},
	})
	check(t, "enum", tEnum.ParseSetting, []errCase{
		{in: "bogus", msg: `invalid value for parameter "vacuum_index_cleanup": "bogus"`, hint: "Available values: on, off, auto."},
		{in: "YES", out: "on"}, {in: "false", out: "off"},
	})
}

func TestGet(t *testing.T) {
	table := map[string]string{"autovacuum_vacuum_threshold": "7", "autovacuum_enabled": "off"}
	server := map[string]string{"autovacuum_vacuum_threshold": "100", "autovacuum_vacuum_scale_factor": "0.05",
		"autovacuum_naptime": "2min", "vacuum_index_cleanup": "no longer valid"}
	src := Layers(table, nil, server)
	if got := tInt.Int(src); got != 7 {
		t.Errorf("table option: %d, want 7", got)
	}
	if got := tReal.Real(src); got != 0.05 {
		t.Errorf("server setting: %g, want 0.05", got)
	}
	if tBool.Bool(src) || !tBool.Bool(nil) {
		t.Error("bool: the table's off, the default on")
	}
	if got := tNap.Int(src); got != 120 {
		t.Errorf("naptime: %d s, want 120", got)
	}
	if got := tEnum.Get(src); got != "auto" {
		t.Errorf("invalid stored value: %q, want the default", got)
	}
	if p, ok := Lookup("AUTOVACUUM_ENABLED"); !ok || p != tBool {
		t.Error("Lookup is case-insensitive and returns the declared parameter")
	}
}

func TestDeclarePanics(t *testing.T) {
	for _, p := range []Param{
		{Name: "autovacuum_enabled", Kind: Bool, Default: "on", Table: true}, // twice
		{Name: "Upper", Kind: Bool, Default: "on", Table: true},
		{Name: "nowhere", Kind: Bool, Default: "on"},
		{Name: "bad_default", Kind: Int, Default: "200", Max: 100, Table: true},
		{Name: "no_values", Kind: Enum, Default: "a", Table: true},
		{Name: "bad_unit", Kind: Int, Default: "1", Max: 10, Unit: "fortnight", Setting: UserSet},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Declare(%+v) did not panic", p)
				}
			}()
			Declare(p)
		}()
	}
}

func TestCheckAndString(t *testing.T) {
	p := Declare(Param{Name: "test_string_param", Kind: String, Default: "a", Table: true, Setting: UserSet,
		Check: func(v string) string {
			if v == "" {
				return `parameter "test_string_param" must not be empty`
			}
			return ""
		}})
	if v, err := p.ParseReloption("b c"); err != nil || v != "b c" {
		t.Fatalf("%q %v", v, err)
	}
	for _, f := range []func(string) (string, error){p.ParseReloption, p.ParseSetting} {
		if _, err := f(""); err == nil || err.Error() != `parameter "test_string_param" must not be empty` || pgerr.CodeOf(err) != pgerr.InvalidParameterValue {
			t.Fatalf("empty: %v", err)
		}
	}
}

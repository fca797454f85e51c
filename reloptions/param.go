package reloptions

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
)

// Kind is a parameter's type (reloptions.c's relopt_type).
type Kind uint8

const (
	Int    Kind = iota + 1 // a 32-bit integer with bounds
	Real                   // a float8 with bounds
	Bool                   // on/off, true/false, yes/no, 1/0
	Enum                   // one of the words Values returns
	String                 // any string Check accepts
)

func (k Kind) String() string {
	switch k {
	case Int:
		return "integer"
	case Real:
		return "floating point"
	case Bool:
		return "boolean"
	case Enum:
		return "enum"
	case String:
		return "string"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Context says whether a parameter is also a server setting, and who may
// change it (PostgreSQL's GucContext, reduced to what minipg has).
type Context uint8

const (
	// NoSetting: a storage parameter only (fillfactor).
	NoSetting Context = iota
	// UserSet: -c at start-up, the startup packet's options, and SET in a
	// session (PGC_USERSET).
	UserSet
	// Sighup: -c at start-up only; SET refuses it with "cannot be changed
	// now" (PGC_SIGHUP; minipg has no configuration reload).
	Sighup
	// Postmaster: -c at start-up only; SET refuses it with "cannot be
	// changed without restarting the server" (PGC_POSTMASTER).
	Postmaster
)

// Param declares one parameter. Declare registers it; the registered value
// must not be changed afterwards.
type Param struct {
	// Name is the parameter's name, lower-case.
	Name string
	Kind Kind
	// Desc says what the parameter does, in one line.
	Desc string
	// Default is the value when neither the table nor the server sets it,
	// as SHOW prints it. Declare canonicalizes it.
	Default string
	// Min and Max bound an Int or Real parameter (inclusive).
	Min, Max float64
	// Unit is the base unit of an Int or Real time setting ("ms", "s" or
	// "min") or memory setting ("kB", "8kB" for blocks, or "MB"); empty: a
	// plain number.
	Unit string
	// Category is the setting's group in pg_settings ("Query Tuning /
	// Planner Cost Constants"); empty: "minipg".
	Category string
	// Values returns an Enum parameter's words (matched case-insensitively).
	// It is called at each validation, so the set may grow after Declare.
	Values func() []string
	// Check, if set, vets a canonical value after the kind's own checks; it
	// returns the whole message of a 22023 error, or "" to accept.
	Check func(v string) string
	// Table: the parameter is a storage parameter, settable per table with
	// CREATE TABLE ... WITH (...) and ALTER TABLE ... SET/RESET (...).
	Table bool
	// Setting says whether (and how) the parameter is a server setting.
	Setting Context
	// SessionDefault: CREATE TABLE records the creating session's value
	// of this setting as the new table's option when it differs from the
	// server's (so that SET fsm_policy = classic before CREATE TABLE makes
	// a classic table, as default_table_access_method does in PostgreSQL).
	SessionDefault bool
}

var registry = struct {
	sync.RWMutex // protects m
	m            map[string]*Param
}{m: map[string]*Param{}}

// Declare registers p and returns the registered parameter, the handle the
// declaring package reads values through. It panics on a duplicate name or
// an inconsistent declaration (a programming error); call it from a
// package-level variable or init, before any server starts.
func Declare(p Param) *Param {
	bad := func(why string) { panic("reloptions: parameter " + p.Name + ": " + why) }
	if p.Name == "" || p.Name != strings.ToLower(p.Name) || strings.ContainsAny(p.Name, " .=") {
		bad("name must be a non-empty lower-case word")
	}
	if !p.Table && p.Setting == NoSetting {
		bad("neither a storage parameter nor a setting")
	}
	switch p.Kind {
	case Int, Real:
		if p.Min > p.Max || (p.Kind == Int && (p.Min < math.MinInt32 || p.Max > math.MaxInt32)) {
			bad("bad bounds")
		}
		_, isTime := timeUnits[p.Unit]
		_, isMemory := memoryBases[p.Unit]
		if p.Unit != "" && !isTime && !isMemory {
			bad("unit must be a time unit (\"ms\", \"s\", \"min\") or a memory one (\"kB\", \"8kB\", \"MB\")")
		}
	case Enum:
		if p.Values == nil {
			bad("an enum needs Values")
		}
	case Bool, String:
	default:
		bad("no kind")
	}
	if p.Kind != Enum {
		// An enum's words may not be registered yet.
		v, err := p.ParseSetting(p.Default)
		if err != nil {
			bad("default: " + err.Error())
		}
		p.Default = v
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.m[p.Name]; dup {
		bad("declared twice")
	}
	out := &p
	registry.m[p.Name] = out
	return out
}

// Lookup returns the parameter declared under name (case-insensitive).
func Lookup(name string) (*Param, bool) {
	registry.RLock()
	p, ok := registry.m[strings.ToLower(name)]
	registry.RUnlock()
	return p, ok
}

// All returns every declared parameter, sorted by name.
func All() []*Param {
	registry.RLock()
	out := make([]*Param, 0, len(registry.m))
	for _, p := range registry.m {
		out = append(out, p)
	}
	registry.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Source returns the raw value of a parameter by name and whether it is
// set.
type Source func(name string) (string, bool)

// Layers is a Source that looks name up in each map in turn: the first
// that has it wins (a table's options, then the server's settings). Nil
// maps are skipped.
func Layers(maps ...map[string]string) Source {
	return func(name string) (string, bool) {
		for _, m := range maps {
			if v, ok := m[name]; ok {
				return v, true
			}
		}
		return "", false
	}
}

// Get returns the canonical value of p in src, or its default when src is
// nil, does not set it, or holds a value that is no longer valid (a stored
// option whose bounds have since changed).
func (p *Param) Get(src Source) string {
	if src != nil {
		if v, ok := src(p.Name); ok {
			if c, err := p.ParseSetting(v); err == nil {
				return c
			}
		}
	}
	return p.Default
}

// Int returns an Int parameter's value in force (in its base unit).
func (p *Param) Int(src Source) int {
	return int(p.number(p.Get(src)))
}

// Real returns a Real parameter's value in force (in its base unit).
func (p *Param) Real(src Source) float64 {
	return p.number(p.Get(src))
}

// Bool returns a Bool parameter's value in force.
func (p *Param) Bool(src Source) bool { return p.Get(src) == "on" }

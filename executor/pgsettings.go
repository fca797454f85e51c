package executor

// pg_settings: the session's settings as PostgreSQL 15's view shows them,
// a numeric setting with a unit in that unit (work_mem 4096 kB, not 4MB),
// with its context, type, source, and the boot and reset values.

import (
	"math"
	"strconv"
	"strings"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/reloptions"
	"minipg/sql"
	"minipg/types"
)

// settingUnits are pg_settings.unit of the settings that have one.
var settingUnits = map[string]string{
	"shared_buffers": "8kB", "work_mem": "kB", "maintenance_work_mem": "kB", "session_memory_limit": "kB",
	"max_wal_size": "MB", "min_wal_size": "MB",
	"statement_timeout": "ms", "lock_timeout": "ms", "idle_in_transaction_session_timeout": "ms",
	"autovacuum_vacuum_cost_delay": "ms", "vacuum_cost_delay": "ms", "log_autovacuum_min_duration": "ms",
	"autovacuum_naptime": "s", "checkpoint_timeout": "s",
}

// inUnit is a setting's value v (as SHOW prints it, "4MB", "1min") in
// unit, as pg_settings.setting gives it; v itself when it has no unit.
func inUnit(v, unit string) string {
	if unit == "" {
		return v
	}
	s := strings.TrimSpace(v)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == '-') {
		i++
	}
	n, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return v
	}
	bytes := map[string]float64{"B": 1, "kB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40, "8kB": 8 << 10}
	ms := map[string]float64{"us": 0.001, "ms": 1, "s": 1000, "min": 60000, "h": 3600000, "d": 86400000}
	suffix := strings.TrimSpace(s[i:])
	var x float64
	switch {
	case suffix == "":
		return v
	case bytes[suffix] > 0 && bytes[unit] > 0:
		x = n * bytes[suffix] / bytes[unit]
	case ms[suffix] > 0 && ms[unit] > 0:
		x = n * ms[suffix] / ms[unit]
	default:
		return v
	}
	if x == math.Trunc(x) {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// settingTypes are the vartypes the boot value does not tell.
var settingTypes = map[string]string{
	"server_version": "string", "synchronous_commit": "enum", "client_min_messages": "enum",
	"bytea_output": "enum", "intervalstyle": "enum", "default_transaction_isolation": "enum",
	"transaction_isolation": "enum", "index_storage": "enum",
}

// settingType is pg_settings.vartype.
func settingType(name, boot string) string {
	if t, ok := settingTypes[name]; ok {
		return t
	}
	if p, ok := reloptions.Lookup(name); ok {
		switch p.Kind {
		case reloptions.Bool:
			return "bool"
		case reloptions.Int:
			return "integer"
		case reloptions.Real:
			return "real"
		case reloptions.Enum:
			return "enum"
		}
		return "string"
	}
	switch {
	case boot == "on" || boot == "off":
		return "bool"
	case settingUnits[name] != "":
		if name == "vacuum_cost_delay" || name == "autovacuum_vacuum_cost_delay" {
			return "real"
		}
		return "integer"
	}
	if _, err := strconv.ParseInt(boot, 10, 64); err == nil {
		return "integer"
	}
	if _, err := strconv.ParseFloat(boot, 64); err == nil {
		return "real"
	}
	return "string"
}

// settingContext is pg_settings.context.
func settingContext(def gucDef) string {
	switch def.readOnly {
	case roInternal:
		return "internal"
	case roPostmaster:
		return "postmaster"
	case roSighup:
		return "sighup"
	}
	return "user"
}

func (s *Session) pgSettingsRows() [][]types.Datum {
	var out [][]types.Datum
	for _, name := range sortedSettings(s.settings) {
		def, ok := gucTable[name]
		if !ok {
			continue
		}
		unit := settingUnits[name]
		v, boot, reset := s.settings[name], def.def, s.resetValue(name)
		category, desc := "Ungrouped", ""
		var minV, maxV, enumV types.Datum
		if p, ok := reloptions.Lookup(name); ok {
			category, desc, boot = "minipg", p.Desc, p.Default
			if p.Category != "" {
				category = p.Category
			}
			if p.Unit != "" {
				unit = p.Unit
			}
			switch p.Kind {
			case reloptions.Int:
				minV, maxV = strconv.FormatInt(int64(p.Min), 10), strconv.FormatInt(int64(p.Max), 10)
			case reloptions.Real: // %g, as guc.c prints them
				minV, maxV = strconv.FormatFloat(p.Min, 'g', 6, 64), strconv.FormatFloat(p.Max, 'g', 6, 64)
			}
			if p.Kind == reloptions.Enum && p.Values != nil {
				enumV = textArray(p.Values())
			}
		}
		source := "default"
		switch {
		case v != reset:
			source = "session"
		case s.startup[name] != "":
			source = "client"
		case v != boot:
			source = "command line"
		}
		var u types.Datum
		if unit != "" {
			u = unit
		}
		out = append(out, []types.Datum{reportName(name), inUnit(v, unit), u, category, desc, nil,
			settingContext(def), settingType(name, boot), source, minV, maxV, enumV,
			inUnit(boot, unit), inUnit(reset, unit), nil, nil, false})
	}
	return out
}

func init() {
	col := func(name string, t types.OID) catalog.Column {
		return catalog.Column{Name: name, TypeOID: uint32(t), Typmod: -1}
	}
	v := sql.RegisterVirtualTable("pg_settings", []catalog.Column{
		col("name", types.Text), col("setting", types.Text), col("unit", types.Text), col("category", types.Text),
		col("short_desc", types.Text), col("extra_desc", types.Text), col("context", types.Text),
		col("vartype", types.Text), col("source", types.Text), col("min_val", types.Text), col("max_val", types.Text),
		{Name: "enumvals", TypeOID: uint32(types.ArrayOID(types.Text)), Typmod: -1},
		col("boot_val", types.Text), col("reset_val", types.Text), col("sourcefile", types.Text),
		col("sourceline", types.Int4), col("pending_restart", types.Bool),
	}, func(env any) ([][]types.Datum, error) {
		return env.(*Session).pgSettingsRows(), nil
	})
	v.Session = true
}

// current_setting(name [, missing_ok]) and set_config(name, value,
// is_local): SHOW and SET as functions.
func init() {
	tx, b := types.Text, types.Bool
	current := func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		s := session(env)
		name := strings.ToLower(a[0].(string))
		if name == "transaction_read_only" && !s.explicit {
			name = "default_transaction_read_only"
		}
		v, ok := s.settings[name]
		if !ok {
			if len(a) > 1 && a[1] == true {
				return nil, nil
			}
			return nil, pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter \"%s\"", a[0].(string))
		}
		return v, nil
	}
	builtin("current_setting", oids(tx), tx, sql.Stable, current)
	builtin("current_setting", oids(tx, b), tx, sql.Stable, current)
	sql.RegisterBuiltin(sql.Builtin{Name: "set_config", Args: oids(tx, tx, b), Result: tx, Volatility: sql.Volatile,
		Fn: func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
			if a[0] == nil {
				return nil, pgerr.New(pgerr.NullValueNotAllowed, "SET requires parameter name")
			}
			s := session(env)
			name := strings.ToLower(a[0].(string))
			st := &sql.Set{Name: name, Local: a[2] == true}
			if a[1] == nil {
				st.Reset = true
			} else {
				st.Value = a[1].(string)
			}
			if _, err := s.set(st); err != nil {
				return nil, err
			}
			return s.settings[name], nil
		}})
}

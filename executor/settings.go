package executor

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"minipg/pgerr"
	"minipg/reloptions"
	"minipg/storage/wal"
	"minipg/types"
)

// gucDef describes one configuration parameter.
type gucDef struct {
	def      string
	report   bool   // GUC_REPORT: sent as ParameterStatus when it changes
	readOnly string // non-empty: why SET is refused
}

const (
	roInternal   = "internal"
	roPostmaster = "postmaster"
	roSighup     = "sighup" // -c only; SET says "cannot be changed now"
)

// gucTable lists the settings minipg knows: those psql, pgx and JDBC send or
// read at start-up, plus minipg's own. The parameters declared in package
// reloptions as server settings (fsm_policy, ...) join it when the first
// engine opens (addParamSettings).
var gucTable = map[string]gucDef{
	"server_version":                      {def: "15.18", report: true, readOnly: roInternal},
	"server_version_num":                  {def: "150018", readOnly: roInternal},
	"server_encoding":                     {def: "UTF8", report: true, readOnly: roInternal},
	"client_encoding":                     {def: "UTF8", report: true},
	"datestyle":                           {def: "ISO, MDY", report: true},
	"intervalstyle":                       {def: "postgres", report: true},
	"timezone":                            {def: "UTC", report: true},
	"application_name":                    {def: "", report: true},
	"integer_datetimes":                   {def: "on", report: true, readOnly: roInternal},
	"standard_conforming_strings":         {def: "on", report: true},
	"is_superuser":                        {def: "on", report: true, readOnly: roInternal},
	"session_authorization":               {def: "postgres", report: true, readOnly: roInternal},
	"search_path":                         {def: `"$user", public`},
	"extra_float_digits":                  {def: "1"},
	"client_min_messages":                 {def: "notice"},
	"statement_timeout":                   {def: "0"},
	"lock_timeout":                        {def: "0"},
	"idle_in_transaction_session_timeout": {def: "0"},
	"default_transaction_isolation":       {def: "read committed"},
	"transaction_isolation":               {def: "read committed"},
	"default_transaction_read_only":       {def: "off"},
	"transaction_read_only":               {def: "off"},
	"bytea_output":                        {def: "hex"},
	"lc_messages":                         {def: "C"},
	"lc_monetary":                         {def: "C"},
	"lc_numeric":                          {def: "C"},
	"lc_time":                             {def: "C"},
	"max_identifier_length":               {def: "63", readOnly: roInternal},
	"block_size":                          {def: "8192", readOnly: roInternal},
	"synchronous_commit":                  {def: "on"},
	"full_page_writes":                    {def: "on"},
	"wal_compression":                     {def: "off"},
	"max_connections":                     {def: "100", readOnly: roPostmaster},
	"shared_buffers":                      {def: "128MB", readOnly: roPostmaster},
	"jit":                                 {def: "off"},
	"row_security":                        {def: "on"},
	"escape_string_warning":               {def: "on"},
	"geqo":                                {def: "on"},
	"work_mem":                            {def: "4MB"},
	"session_memory_limit":                {def: "1GB"},
	"maintenance_work_mem":                {def: "64MB"},
	"default_with_oids":                   {def: "off"},
	"checkpoint_timeout":                  {def: "5min", readOnly: roSighup},
	"max_wal_size":                        {def: "1GB", readOnly: roSighup},
	"min_wal_size":                        {def: "80MB", readOnly: roSighup},
	"checkpoint_completion_target":        {def: "0.9", readOnly: roSighup},
	"wal_level":                           {def: "replica", readOnly: roPostmaster},
	"commit_delay":                        {def: "0"},
	"wal_sync_method":                     {def: "fdatasync", readOnly: roPostmaster},
	"listen_addresses":                    {def: "127.0.0.1", readOnly: roPostmaster},
	"port":                                {def: "5433", readOnly: roPostmaster},
	"data_directory":                      {def: "", readOnly: roPostmaster},
	"debug_pprof_addr":                    {def: "", readOnly: roPostmaster}, // served by cmd/minipg
}

// RegisterSetting adds a configuration parameter (e.g. one a storage
// subsystem reads with Engine.Setting). readOnly is "" (settable with SET),
// "internal" or "postmaster" (only with -c at start-up). Call it before
// Open; it is not safe for concurrent use with sessions.
func RegisterSetting(name, def, readOnly string, report bool) {
	gucTable[strings.ToLower(name)] = gucDef{def: def, report: report, readOnly: readOnly}
}

var paramSettingsOnce sync.Once

// addParamSettings adds to gucTable every parameter declared in package
// reloptions as a server setting. Engine.Open calls it, once: parameters
// are declared by package initialization, before any engine opens.
func addParamSettings() {
	paramSettingsOnce.Do(func() {
		for _, p := range reloptions.All() {
			var ro string
			switch p.Setting {
			case reloptions.NoSetting:
				continue
			case reloptions.Sighup:
				ro = roSighup
			case reloptions.Postmaster:
				ro = roPostmaster
			}
			gucTable[p.Name] = gucDef{def: p.Default, readOnly: ro}
		}
	})
}

// checkPlaceholder accepts name, which is not a known setting, as a
// custom setting (a placeholder, in PostgreSQL's words): two or more
// identifiers joined by dots, such as myapp.user_id, which SET and
// set_config create and current_setting reads, as applications use them.
// typed is the name as the statement gave it, for the messages.
func checkPlaceholder(name, typed string) error {
	if !strings.Contains(name, ".") {
		return pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter \"%s\"", typed)
	}
	for _, part := range strings.Split(name, ".") {
		ok := part != ""
		for i := 0; ok && i < len(part); i++ {
			c := part[i]
			letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
			ok = letter || i > 0 && (c >= '0' && c <= '9' || c == '$')
		}
		if !ok {
			return pgerr.New(pgerr.InvalidName, "invalid configuration parameter name \"%s\"", typed).
				WithDetail("Custom parameter names must be two or more simple identifiers separated by dots.")
		}
	}
	return nil
}

// checkGUC validates and normalizes a value for name.
func checkGUC(name, v string) (string, error) {
	if p, ok := reloptions.Lookup(name); ok && p.Setting != reloptions.NoSetting {
		return p.ParseSetting(v)
	}
	bad := func() error {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v)
	}
	switch name {
	case "index_storage":
		return checkIndexStorage(strings.ToLower(strings.TrimSpace(v)))
	case "timezone":
		if _, canon, ok := types.LoadZone(v); ok {
			return canon, nil
		}
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"TimeZone\": \"%s\"", v)
	case "intervalstyle":
		st, err := types.IntervalStyleByName(v)
		if err != nil {
			return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v).
				WithHint("Available values: postgres, postgres_verbose, sql_standard, iso_8601.")
		}
		return st.String(), nil
	case "client_encoding":
		switch strings.ToUpper(strings.ReplaceAll(strings.ReplaceAll(v, "-", ""), "_", "")) {
		case "UTF8", "UNICODE":
			return "UTF8", nil
		case "SQLASCII":
			return "SQL_ASCII", nil
		}
		return "", pgerr.New(pgerr.FeatureNotSupported, "conversion between %s and UTF8 is not supported", v)
	case "standard_conforming_strings":
		b, ok := parseBool(v)
		if !ok {
			return "", bad()
		}
		if !b {
			return "", pgerr.New(pgerr.FeatureNotSupported, "standard_conforming_strings = off is not supported")
		}
		return "on", nil
	case "extra_float_digits":
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < -15 || n > 3 {
			return "", pgerr.New(pgerr.InvalidParameterValue, "%s is outside the valid range for parameter \"extra_float_digits\" (-15 .. 3)", v)
		}
		return strconv.Itoa(n), nil
	case "synchronous_commit":
		switch lv := strings.ToLower(strings.TrimSpace(v)); lv {
		case "local", "remote_write", "remote_apply", "on", "off":
			return lv, nil
		case "true", "yes", "1":
			return "on", nil
		case "false", "no", "0":
			return "off", nil
		}
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v).
			WithHint("Available values: local, remote_write, remote_apply, on, off.")
	case "full_page_writes", "jit", "row_security", "escape_string_warning", "geqo",
		"default_transaction_read_only", "transaction_read_only":
		b, ok := parseBool(v)
		if !ok {
			return "", pgerr.New(pgerr.InvalidParameterValue, "parameter \"%s\" requires a Boolean value", name)
		}
		if b {
			return "on", nil
		}
		return "off", nil
	case "bytea_output":
		switch lv := strings.ToLower(strings.TrimSpace(v)); lv {
		case "hex", "escape":
			return lv, nil
		}
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v).
			WithHint("Available values: escape, hex.")
	case "default_with_oids":
		b, ok := parseBool(v)
		if !ok {
			return "", bad()
		}
		if b {
			return "", pgerr.New(pgerr.FeatureNotSupported, "tables declared WITH OIDS are not supported")
		}
		return "off", nil
	case "default_transaction_isolation", "transaction_isolation":
		lv := strings.ToLower(v)
		if lv != "read committed" && lv != "read uncommitted" {
			return "", pgerr.New(pgerr.FeatureNotSupported, "isolation level \"%s\" is not supported", v)
		}
		return "read committed", nil
	case "datestyle":
		for _, p := range strings.Split(v, ",") {
			switch strings.ToLower(strings.TrimSpace(p)) {
			case "iso", "mdy", "us", "noneuropean", "default":
			default:
				return "", pgerr.New(pgerr.FeatureNotSupported, "DateStyle %s is not supported", v).WithHint("minipg supports \"ISO, MDY\".")
			}
		}
		return "ISO, MDY", nil
	case "statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout":
		return checkTimeout(name, v)
	case "client_min_messages":
		lv := strings.ToLower(strings.TrimSpace(v))
		if lv == "debug" {
			return "debug2", nil
		}
		if _, ok := messageLevels[lv]; ok {
			return lv, nil
		}
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v).
			WithHint("Available values: debug5, debug4, debug3, debug2, debug1, log, notice, warning, error.")
	case "checkpoint_completion_target":
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(f) {
			return "", bad()
		}
		if f < 0 || f > 1 {
			return "", pgerr.New(pgerr.InvalidParameterValue, "%s is outside the valid range for parameter \"%s\" (0 .. 1)", strconv.FormatFloat(f, 'g', -1, 64), name)
		}
		return strconv.FormatFloat(f, 'g', -1, 64), nil
	case "wal_compression":
		c, ok := wal.ParseCompression(v)
		if !ok {
			return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v).
				WithHint("Available values: pglz, lz4, zstd, on, off.")
		}
		return c.String(), nil
	case "session_memory_limit":
		n, err := parseKB(name, v, 1024, math.MaxInt32)
		if err != nil {
			return "", err
		}
		return formatMemory(n << 10), nil
	case "maintenance_work_mem":
		n, err := parseKB(name, v, 1024, math.MaxInt32)
		if err != nil {
			return "", err
		}
		return formatMemory(n << 10), nil
	case "work_mem":
		n, err := parseKB(name, v, 64, math.MaxInt32)
		if err != nil {
			return "", err
		}
		return formatMemory(n << 10), nil
	case "shared_buffers":
		n, err := parseMemory(v)
		if err != nil {
			return "", err
		}
		return formatMemory(n), nil
	}
	return v, nil
}

// checkTimeout validates a time setting kept in milliseconds (a number
// with an optional unit us, ms, s, min, h or d; 0 .. INT_MAX ms) and
// returns it as SHOW prints it, in the largest unit that divides it.
func checkTimeout(name, v string) (string, error) {
	s := strings.TrimSpace(v)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || (i == 0 && (s[i] == '-' || s[i] == '+'))) {
		i++
	}
	num, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v)
	}
	mult := map[string]float64{"": 1, "us": 0.001, "ms": 1, "s": 1000, "min": 60000, "h": 3600000, "d": 86400000}
	m, ok := mult[strings.TrimSpace(s[i:])]
	if !ok {
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v).
			WithHint("Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".")
	}
	ms := math.RoundToEven(num * m)
	if ms > math.MaxInt32 || ms < math.MinInt32 {
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v).
			WithHint("Value exceeds integer range.")
	}
	if ms < 0 {
		return "", pgerr.New(pgerr.InvalidParameterValue, "%d ms is outside the valid range for parameter \"%s\" (0 .. 2147483647)", int64(ms), name)
	}
	n := int64(ms)
	if n == 0 {
		return "0", nil
	}
	for _, u := range []struct {
		name string
		ms   int64
	}{{"d", 86400000}, {"h", 3600000}, {"min", 60000}, {"s", 1000}} {
		if n%u.ms == 0 {
			return fmt.Sprintf("%d%s", n/u.ms, u.name), nil
		}
	}
	return fmt.Sprintf("%dms", n), nil
}

func parseBool(v string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "yes", "1", "t", "y":
		return true, true
	case "off", "false", "no", "0", "f", "n":
		return false, true
	}
	return false, false
}

// splitUnit splits a setting such as "128MB" or "200 ms" into its leading
// unsigned number and the unit after it (spaces trimmed).
func splitUnit(v string) (n int64, unit string, err error) {
	s := strings.TrimSpace(v)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, err = strconv.ParseInt(s[:i], 10, 64)
	return n, strings.TrimSpace(s[i:]), err
}

// parseMemory parses a memory size with PostgreSQL units (kB, MB, GB, TB;
// a bare number counts 8kB pages, as shared_buffers does).
func parseMemory(v string) (int64, error) {
	n, suffix, err := splitUnit(v)
	if err != nil {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"shared_buffers\": \"%s\"", v)
	}
	switch suffix {
	case "":
		return n * 8192, nil
	case "B":
		return n, nil
	case "kB":
		return n << 10, nil
	case "MB":
		return n << 20, nil
	case "GB":
		return n << 30, nil
	case "TB":
		return n << 40, nil
	}
	return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"shared_buffers\": \"%s\"", v).
		WithHint("Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".")
}

// parseKB parses a memory setting kept in kB (a bare number is kB, as for
// work_mem), within lo .. hi kB, with PostgreSQL's messages.
func parseKB(name, v string, lo, hi int64) (int64, error) {
	n, suffix, err := splitUnit(v)
	// Formed only on failure: sessionMemoryLimit parses its setting for
	// every statement.
	bad := func() *pgerr.Error {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v)
	}
	if err != nil {
		return 0, bad()
	}
	var kb int64
	switch suffix {
	case "", "kB":
		kb = n
	case "B":
		kb = (n + 1023) >> 10
	case "MB":
		kb = n << 10
	case "GB":
		kb = n << 20
	case "TB":
		kb = n << 30
	default:
		return 0, bad().WithHint("Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".")
	}
	if kb > math.MaxInt32 {
		return 0, bad().WithHint("Value exceeds integer range.")
	}
	if kb < lo || kb > hi {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "%d kB is outside the valid range for parameter \"%s\" (%d .. %d)", kb, name, lo, hi)
	}
	return kb, nil
}

// workMem is the session's work_mem in bytes.
func (s *Session) workMem() int64 {
	v, _ := s.Setting("work_mem")
	kb, err := parseKB("work_mem", v, 64, math.MaxInt32)
	if err != nil {
		return 4 << 20
	}
	return kb << 10
}

// maintenanceWorkMem is the session's maintenance_work_mem in bytes (what
// an index build sorts in memory before it spills runs to disk).
func (s *Session) maintenanceWorkMem() int64 {
	v, _ := s.Setting("maintenance_work_mem")
	kb, err := parseKB("maintenance_work_mem", v, 1024, math.MaxInt32)
	if err != nil {
		return defaultMaintenanceWorkMem
	}
	return kb << 10
}

// defaultMaintenanceWorkMem is maintenance_work_mem's default, for builds
// outside a session.
const defaultMaintenanceWorkMem = 64 << 20

func formatMemory(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMB", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%dkB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

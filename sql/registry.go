package sql

import (
	"strings"
	"sync"

	"minipg/catalog"
	"minipg/types"
)

// Function is a scalar function registered by another package (for
// example the WAL's pg_current_wal_lsn()). Calls are strict: a NULL
// argument gives NULL without calling Fn. env is what the executor passes
// (its *executor.Engine).
type Function struct {
	Name string
	Args []types.OID // argument types; unknown literals are converted to them
	// MinArgs, when set, lets calls leave out the arguments after the
	// first MinArgs (as PostgreSQL's overloads of pg_get_expr,
	// pg_get_indexdef, ... do).
	MinArgs int
	Result  types.T
	Fn      func(env any, args []types.Datum) (types.Datum, error)
	// NonStrict functions are called with NULL (nil) arguments; the others
	// give NULL for any NULL argument without being called.
	NonStrict bool
}

// VirtualTable is a read-only relation computed on each scan (system views
// such as pg_stat_wal). Rows returns the rows' column values in order.
type VirtualTable struct {
	Table *catalog.Table // name, columns and a reserved OID (below FirstNormalObjectID)
	Rows  func(env any) ([][]types.Datum, error)
	// Session: Rows is given the querying session instead of the engine
	// (a view of the session's own state, such as pg_settings).
	Session bool
}

var registry struct {
	sync.RWMutex
	funcs   map[string]*Function
	views   map[string]*VirtualTable
	byOID   map[uint32]*VirtualTable
	nextOID uint32
}

// RegisterFunction makes f callable from SQL (replacing a function of the
// same name). Built-in functions take precedence.
func RegisterFunction(f Function) {
	registry.Lock()
	defer registry.Unlock()
	if registry.funcs == nil {
		registry.funcs = map[string]*Function{}
	}
	f.Name = strings.ToLower(f.Name)
	registry.funcs[f.Name] = &f
}

// LookupFunction returns a registered function.
func LookupFunction(name string) *Function {
	registry.RLock()
	defer registry.RUnlock()
	return registry.funcs[name]
}

// RegisterVirtualTable makes a read-only relation called name available to
// SELECT (a table of the same name in the catalog hides it). Registering a
// name again replaces its definition but keeps its OID.
func RegisterVirtualTable(name string, cols []catalog.Column, rows func(env any) ([][]types.Datum, error)) *VirtualTable {
	registry.Lock()
	defer registry.Unlock()
	if registry.views == nil {
		registry.views = map[string]*VirtualTable{}
		registry.byOID = map[uint32]*VirtualTable{}
		registry.nextOID = 9000
	}
	oid, fixed := catalogOIDs[name]
	switch old := registry.views[name]; {
	case old != nil:
		oid = old.Table.OID
	case !fixed:
		oid = registry.nextOID
		registry.nextOID++
	}
	v := &VirtualTable{Table: &catalog.Table{OID: oid, Name: name, Columns: cols}, Rows: rows}
	registry.views[name] = v
	registry.byOID[oid] = v
	return v
}

// catalogOIDs are PostgreSQL 15's OIDs of the system catalogs minipg
// computes, so that 'pg_class'::regclass is 1259 as pg_description's
// classoid and psql's queries expect; other virtual tables are numbered
// from 9000.
var catalogOIDs = map[string]uint32{
	"pg_type": 1247, "pg_attribute": 1249, "pg_proc": 1255, "pg_class": 1259, "pg_authid": 1260,
	"pg_database": 1262, "pg_tablespace": 1213, "pg_am": 2601, "pg_attrdef": 2604, "pg_constraint": 2606,
	"pg_depend": 2608, "pg_description": 2609, "pg_index": 2610, "pg_inherits": 2611, "pg_rewrite": 2618,
	"pg_statistic": 2619, "pg_trigger": 2620, "pg_namespace": 2615, "pg_sequence": 2224, "pg_extension": 3079,
	"pg_collation": 3456,
}

// VirtualTableByOID returns the virtual table with the given OID.
func VirtualTableByOID(oid uint32) *VirtualTable {
	registry.RLock()
	defer registry.RUnlock()
	return registry.byOID[oid]
}

func lookupVirtual(name string) *VirtualTable {
	registry.RLock()
	defer registry.RUnlock()
	return registry.views[name]
}

// LookupVirtualTable returns the virtual table called name (nil: none).
func LookupVirtualTable(name string) *VirtualTable { return lookupVirtual(name) }

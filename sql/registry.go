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
	oid := registry.nextOID
	if old := registry.views[name]; old != nil {
		oid = old.Table.OID
	} else {
		registry.nextOID++
	}
	v := &VirtualTable{Table: &catalog.Table{OID: oid, Name: name, Columns: cols}, Rows: rows}
	registry.views[name] = v
	registry.byOID[oid] = v
	return v
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

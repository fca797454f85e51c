package sql

import (
	"strings"
	"sync"

	"minipg/pgerr"
	"minipg/types"
)

// Table functions: functions that return rows of named columns, as
// PostgreSQL's functions with OUT parameters do (SETOF record, or one
// record). They are called in FROM (SELECT * FROM page_header(...)), and
// their columns are read in a select list as (page_header(...)).lower or
// (page_header(...)).*, which liftRecordFields moves to FROM; the
// executor runs Fn once per call with the evaluated arguments and streams
// the rows it returns.
//
// A function may belong to an extension (pageinspect, pg_freespacemap,
// pg_walinspect): it is visible only while the extension is installed,
// and otherwise binds as a function that does not exist (42883). The
// extension's scalar functions are Builtins with the same Extension field.

// TableFuncCol is one output column of a table function.
type TableFuncCol struct {
	Name string
	T    types.T
}

// TableFunction is one overload of a table function.
type TableFunction struct {
	Name string
	Args []types.OID
	// Defaults are the values of the last len(Defaults) parameters when a
	// call leaves them out (DEFAULT in CREATE FUNCTION).
	Defaults  []types.Datum
	Cols      []TableFuncCol
	Strict    bool   // a NULL argument gives no rows without calling Fn
	Extension string // the extension that provides it ("": always there)
	// Fn computes the rows; env is the executor's evaluation context.
	Fn func(env any, args []types.Datum) ([][]types.Datum, error)
}

var tableFuncs struct {
	sync.RWMutex
	byName map[string][]*TableFunction
}

// RegisterTableFunction adds an overload of a table function.
func RegisterTableFunction(f TableFunction) {
	tableFuncs.Lock()
	defer tableFuncs.Unlock()
	if tableFuncs.byName == nil {
		tableFuncs.byName = map[string][]*TableFunction{}
	}
	f.Name = strings.ToLower(f.Name)
	tableFuncs.byName[f.Name] = append(tableFuncs.byName[f.Name], &f)
}

// lookupTableFuncs returns the overloads of name.
func lookupTableFuncs(name string) []*TableFunction {
	tableFuncs.RLock()
	defer tableFuncs.RUnlock()
	return tableFuncs.byName[name]
}

// ExtensionCatalog is implemented by a Catalog that records installed
// extensions; a Catalog without it has none.
type ExtensionCatalog interface {
	HasExtension(name string) bool
}

// extensionInstalled reports whether ext is "" or installed.
func (b *binder) extensionInstalled(ext string) bool {
	if ext == "" {
		return true
	}
	ec, ok := b.cat.(ExtensionCatalog)
	return ok && ec.HasExtension(ext)
}

// tableFunction binds a call of a table function when one of that name
// takes this many arguments (found is false otherwise): the arguments
// convert implicitly to its parameter types, omitted ones take their
// defaults. Table functions return records, which minipg has only in FROM
// (a select list's field selections are moved there first).
func (c *call) tableFunction() (e Expr, found bool, err error) {
	n := len(c.args)
	for _, f := range lookupTableFuncs(c.name) {
		if !c.b.extensionInstalled(f.Extension) || n > len(f.Args) || n < len(f.Args)-len(f.Defaults) {
			continue
		}
		ok := true
		for i := 0; i < n; i++ {
			if !types.CastContextOf(c.argTypes[i].OID, f.Args[i]).Allows(types.CastImplicit) {
				ok = false
			}
		}
		if !ok {
			continue
		}
		if !c.b.srfOK || c.b.aggErr != fromFunctions {
			return nil, true, c.b.errAt(c.fc.Location, pgerr.FeatureNotSupported, "function %s returns a record, which minipg supports only in FROM", c.name).
				WithHint("Call it in FROM: SELECT * FROM %s(...).", c.name)
		}
		for i := 0; i < n; i++ {
			if err := c.coerceArg(i, types.T{OID: f.Args[i], Typmod: -1}); err != nil {
				return nil, true, err
			}
		}
		args := c.args
		for i := n; i < len(f.Args); i++ {
			d := f.Defaults[i-(len(f.Args)-len(f.Defaults))]
			args = append(args, &Const{T: types.T{OID: f.Args[i], Typmod: -1}, Val: d})
		}
		return &SRFCall{Name: c.name, Args: args, T: f.Cols[0].T, Table: f}, true, nil
	}
	return nil, false, nil
}

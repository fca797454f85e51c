package catalog

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"minipg/pgerr"
)

// Functions written in SQL (pg_proc rows of prolang sql). A function keeps
// its body as SQL text, which the executor binds and runs at each call.
// Like views, functions follow their transaction (CreatedXid, DroppingXid).
// Functions share the OIDs with relations; their names are their own
// namespace, where overloads differ by argument types. Keys:
//
//	catalog/v1/function/<oid, 10 decimal digits>  -> JSON of Function
const (
	funcPrefix    = "catalog/v1/function/"
	funcPrefixEnd = "catalog/v1/function0"
)

// Function is one function's definition. A *Function handed out is never
// modified.
type Function struct {
	OID  uint32 `json:"oid"`
	Name string `json:"name"`
	// ArgNames, ArgTypes and ArgDefaults describe the parameters: a name
	// ("" for none), a type OID, and the SQL text of the default ("" for
	// none; only trailing parameters have one).
	ArgNames    []string `json:"arg_names,omitempty"`
	ArgTypes    []uint32 `json:"arg_types,omitempty"`
	ArgDefaults []string `json:"arg_defaults,omitempty"`
	RetType     uint32   `json:"ret_type"`
	RetSet      bool     `json:"ret_set,omitempty"` // SETOF or TABLE
	// RetCols are the columns of RETURNS TABLE (...), nil otherwise.
	RetCols []Column `json:"ret_cols,omitempty"`
	// Body is the SQL text of the body: prosrc for AS '...', or the
	// query "SELECT expr" of RETURN expr (Return set), whose prosrc is
	// empty, as PostgreSQL stores such a body in prosqlbody.
	Body       string `json:"body"`
	Return     bool   `json:"return,omitempty"`
	Volatility byte   `json:"volatility"` // 'i', 's' or 'v'
	Strict     bool   `json:"strict,omitempty"`
	// CreatedXid is the creating transaction until it commits; a function
	// whose creator did not commit before a crash is dropped at start-up.
	CreatedXid uint32 `json:"created_xid,omitempty"`
	// DroppingXid marks a function a transaction still running dropped:
	// it is not found by name; the commit deletes it, an abort gives it
	// back.
	DroppingXid uint32 `json:"dropping_xid,omitempty"`
	// ReplacedXid marks a definition CREATE OR REPLACE wrote in a
	// transaction still running; Previous is the definition it replaced,
	// which an abort (or start-up, after a crash) puts back.
	ReplacedXid uint32    `json:"replaced_xid,omitempty"`
	Previous    *Function `json:"previous,omitempty"`
}

// Prosrc is pg_proc.prosrc: the body as written, "" for RETURN expr.
func (f *Function) Prosrc() string {
	if f.Return {
		return ""
	}
	return f.Body
}

func funcKey(oid uint32) []byte { return fmt.Appendf(nil, "%s%010d", funcPrefix, oid) }

// loadFunctions reads the stored functions into the cache (at open).
func (c *Catalog) loadFunctions() error {
	c.mu.funcs = map[string][]*Function{}
	c.mu.funcByOID = map[uint32]*Function{}
	return c.scanPrefix(funcPrefix, funcPrefixEnd, func(key, value []byte) error {
		var f Function
		oid, perr := strconv.ParseUint(strings.TrimPrefix(string(key), funcPrefix), 10, 32)
		if err := json.Unmarshal(value, &f); err != nil || perr != nil || f.OID != uint32(oid) || f.Name == "" {
			return corrupt("key %q: bad function definition", key)
		}
		c.publishFunctionLocked(&f)
		c.mu.nextOID = max(c.mu.nextOID, f.OID+1)
		return nil
	})
}

// publishFunctionLocked puts f in the cache, by name unless it is being
// dropped. Caller holds mu (or is loading).
func (c *Catalog) publishFunctionLocked(f *Function) {
	c.unpublishFunctionLocked(f.OID)
	c.mu.funcByOID[f.OID] = f
	if f.DroppingXid == 0 {
		c.mu.funcs[f.Name] = append(c.mu.funcs[f.Name], f)
	}
}

// unpublishFunctionLocked takes function oid out of the name index.
func (c *Catalog) unpublishFunctionLocked(oid uint32) {
	old := c.mu.funcByOID[oid]
	if old == nil {
		return
	}
	list := slices.DeleteFunc(slices.Clone(c.mu.funcs[old.Name]), func(g *Function) bool { return g.OID == oid })
	if len(list) == 0 {
		delete(c.mu.funcs, old.Name)
	} else {
		c.mu.funcs[old.Name] = list
	}
}

// Functions returns the functions called name (not those being dropped),
// ordered by OID.
func (c *Catalog) Functions(name string) []*Function {
	c.mu.RLock()
	out := slices.Clone(c.mu.funcs[name])
	c.mu.RUnlock()
	slices.SortFunc(out, func(a, b *Function) int { return cmp.Compare(a.OID, b.OID) })
	return out
}

// FunctionByOID returns function oid, also one being dropped.
func (c *Catalog) FunctionByOID(oid uint32) (*Function, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	f, ok := c.mu.funcByOID[oid]
	return f, ok
}

// AllFunctions returns every function, those being dropped included,
// ordered by OID.
func (c *Catalog) AllFunctions() []*Function {
	c.mu.RLock()
	out := slices.Collect(maps.Values(c.mu.funcByOID))
	c.mu.RUnlock()
	slices.SortFunc(out, func(a, b *Function) int { return cmp.Compare(a.OID, b.OID) })
	return out
}

// CreateFunction stores a new function (its OID assigned here) in one
// synced batch. The caller has checked that no function of the name has
// its argument types.
func (c *Catalog) CreateFunction(def Function) (*Function, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return nil, err
	}
	f := def
	f.OID = c.mu.nextOID
	if err := c.writeFunctionLocked(f.OID+1, &f, 0); err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.mu.nextOID = f.OID + 1
	c.publishFunctionLocked(&f)
	c.mu.version++
	c.mu.Unlock()
	return &f, nil
}

// UpdateFunction stores a changed definition of function oid (CREATE OR
// REPLACE, a drop marked or unmarked, the creator's mark cleared): change
// edits a copy. 42883 if the function is gone.
func (c *Catalog) UpdateFunction(oid uint32, change func(f *Function) error) (*Function, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return nil, err
	}
	old, ok := c.mu.funcByOID[oid]
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function with OID %d does not exist", oid)
	}
	f := *old
	f.ArgNames, f.ArgTypes, f.ArgDefaults = slices.Clone(old.ArgNames), slices.Clone(old.ArgTypes), slices.Clone(old.ArgDefaults)
	f.RetCols = slices.Clone(old.RetCols)
	if err := change(&f); err != nil {
		return nil, err
	}
	if err := c.writeFunctionLocked(c.mu.nextOID, &f, 0); err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.publishFunctionLocked(&f)
	c.mu.version++
	c.mu.Unlock()
	return &f, nil
}

// DropFunction deletes function oid in one synced batch. 42883 if it is
// gone.
func (c *Catalog) DropFunction(oid uint32) error {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return err
	}
	if _, ok := c.mu.funcByOID[oid]; !ok {
		return pgerr.New(pgerr.UndefinedFunction, "function with OID %d does not exist", oid)
	}
	if err := c.writeFunctionLocked(c.mu.nextOID, nil, oid); err != nil {
		return err
	}
	c.mu.Lock()
	c.unpublishFunctionLocked(oid)
	delete(c.mu.funcByOID, oid)
	c.mu.version++
	c.mu.Unlock()
	return nil
}

// writeFunctionLocked writes one synced batch: the OID counter, put if not
// nil, and the deletion of function del if not 0. Caller holds ddlMu.
func (c *Catalog) writeFunctionLocked(nextOID uint32, put *Function, del uint32) error {
	var key, val []byte
	if put != nil {
		var err error
		if val, err = json.Marshal(put); err != nil {
			return pgerr.Wrapf(err, pgerr.InternalError, "could not encode function %q", put.Name)
		}
		key = funcKey(put.OID)
	}
	var delKey []byte
	if del != 0 {
		delKey = funcKey(del)
	}
	return c.writeObjectLocked(nextOID, key, val, delKey)
}

package catalog

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"minipg/pgerr"
)

// Extensions (pg_extension). minipg's extensions are built in: CREATE
// EXTENSION records one here, which makes its functions visible, and DROP
// EXTENSION removes it. Keys:
//
//	catalog/v1/extension/<name>  -> JSON of Extension
const (
	extPrefix    = "catalog/v1/extension/"
	extPrefixEnd = "catalog/v1/extension0"
)

// Extension is one installed extension, as pg_extension lists it.
type Extension struct {
	OID         uint32
	Name        string
	Version     string // extversion
	Schema      string // the schema named WITH SCHEMA ("public" by default)
	Relocatable bool   // extrelocatable
}

func extKey(name string) []byte { return []byte(extPrefix + name) }

// loadExtensions reads the installed extensions into the cache.
func (c *Catalog) loadExtensions() error {
	c.mu.exts = map[string]*Extension{}
	return c.scanPrefix(extPrefix, extPrefixEnd, func(key, value []byte) error {
		var x Extension
		name := strings.TrimPrefix(string(key), extPrefix)
		if err := json.Unmarshal(value, &x); err != nil || x.Name != name {
			return corrupt("key %q: bad extension definition", key)
		}
		c.mu.exts[name] = &x
		c.mu.nextOID = max(c.mu.nextOID, x.OID+1)
		return nil
	})
}

// HasExtension reports whether the extension named name is installed.
func (c *Catalog) HasExtension(name string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.exts[name] != nil
}

// Extensions returns the installed extensions ordered by OID.
func (c *Catalog) Extensions() []Extension {
	c.mu.RLock()
	out := make([]Extension, 0, len(c.mu.exts))
	for _, x := range c.mu.exts {
		out = append(out, *x)
	}
	c.mu.RUnlock()
	slices.SortFunc(out, func(a, b Extension) int { return int(a.OID) - int(b.OID) })
	return out
}

// CreateExtension records def (its OID assigned here) in one synced batch.
// 42710 if an extension of that name is installed.
func (c *Catalog) CreateExtension(def Extension) (*Extension, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return nil, err
	}
	if c.HasExtension(def.Name) {
		return nil, pgerr.New(pgerr.DuplicateObject, "extension \"%s\" already exists", def.Name)
	}
	x := def
	x.OID = c.mu.nextOID
	v, err := json.Marshal(&x)
	if err != nil {
		return nil, pgerr.Wrapf(err, pgerr.InternalError, "could not encode extension %q", x.Name)
	}
	b := c.db.NewBatch()
	defer b.Close()
	if err := b.Set([]byte(oidSeqKey), []byte(strconv.FormatUint(uint64(x.OID+1), 10)), nil); err != nil {
		return nil, pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
	}
	if err := b.Set(extKey(x.Name), v, nil); err != nil {
		return nil, pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
	}
	if err := c.commit(b); err != nil {
		return nil, pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
	}
	c.mu.Lock()
	c.mu.nextOID = x.OID + 1
	c.mu.exts[x.Name] = &x
	c.mu.version++
	c.mu.Unlock()
	return &x, nil
}

// DropExtension removes the extension named name in one synced batch.
// 42704 if it is not installed.
func (c *Catalog) DropExtension(name string) error {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return err
	}
	if !c.HasExtension(name) {
		return pgerr.New(pgerr.UndefinedObject, "extension \"%s\" does not exist", name)
	}
	b := c.db.NewBatch()
	defer b.Close()
	if err := b.Delete(extKey(name), nil); err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
	}
	if err := c.commit(b); err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
	}
	c.mu.Lock()
	delete(c.mu.exts, name)
	c.mu.version++
	c.mu.Unlock()
	return nil
}

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

// Views (pg_class rows of relkind 'v'). A view keeps its defining query
// as SQL text, which the binder parses and binds in place of each
// reference, and its output columns as they were when it was created.
// Views share the relation namespace and the OIDs with tables, indexes
// and sequences. Keys:
//
//	catalog/v1/view/<oid, 10 decimal digits>  -> JSON of View
const (
	viewPrefix    = "catalog/v1/view/"
	viewPrefixEnd = "catalog/v1/view0"
)

// View is one view's definition. A *View handed out is never modified.
type View struct {
	OID     uint32   `json:"oid"`
	Name    string   `json:"name"`
	Columns []Column `json:"columns"` // name, type and typmod of each output column
	// Query is the defining SELECT as SQL text (pg_query's deparse of the
	// statement as written, so names resolve as they did at creation).
	Query string `json:"query"`
	// Relations are the OIDs of the tables and views the query reads: a
	// DROP of one of them fails, or with CASCADE drops the view too.
	Relations []uint32 `json:"relations,omitempty"`
	// CreatedXid is the creating transaction until it commits; a view
	// whose creator did not commit before a crash is dropped at start-up.
	CreatedXid uint32 `json:"created_xid,omitempty"`
	// DroppingXid marks a view a transaction still running dropped: it is
	// found neither by name nor in the system catalogs, and its name is
	// free; the commit deletes it, an abort gives it back.
	DroppingXid uint32 `json:"dropping_xid,omitempty"`
	// CheckOption is WITH LOCAL or CASCADED CHECK OPTION ("local",
	// "cascaded"; "" for none).
	CheckOption string `json:"check_option,omitempty"`
}

func viewKey(oid uint32) []byte { return fmt.Appendf(nil, "%s%010d", viewPrefix, oid) }

// loadViews reads the stored views into the cache (at open).
func (c *Catalog) loadViews() error {
	c.mu.views = map[string]*View{}
	c.mu.viewByOID = map[uint32]*View{}
	return c.scanPrefix(viewPrefix, viewPrefixEnd, func(key, value []byte) error {
		var v View
		oid, perr := strconv.ParseUint(strings.TrimPrefix(string(key), viewPrefix), 10, 32)
		if err := json.Unmarshal(value, &v); err != nil || perr != nil || v.OID != uint32(oid) || v.Name == "" {
			return corrupt("key %q: bad view definition", key)
		}
		c.publishViewLocked(&v)
		c.mu.nextOID = max(c.mu.nextOID, v.OID+1)
		return nil
	})
}

// publishViewLocked puts v in the cache: by name unless it is being
// dropped. Caller holds mu (or is loading).
func (c *Catalog) publishViewLocked(v *View) {
	if old := c.mu.viewByOID[v.OID]; old != nil && c.mu.views[old.Name] == old {
		delete(c.mu.views, old.Name)
	}
	c.mu.viewByOID[v.OID] = v
	if v.DroppingXid == 0 {
		c.mu.views[v.Name] = v
	}
}

// View returns the view called name (not one being dropped).
func (c *Catalog) View(name string) (*View, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.mu.views[name]
	return v, ok
}

// ViewByOID returns the view with the given OID, also one being dropped.
func (c *Catalog) ViewByOID(oid uint32) (*View, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.mu.viewByOID[oid]
	return v, ok
}

// Views returns every view, those being dropped included, ordered by OID.
func (c *Catalog) Views() []*View {
	c.mu.RLock()
	out := slices.Collect(maps.Values(c.mu.viewByOID))
	c.mu.RUnlock()
	slices.SortFunc(out, func(a, b *View) int { return cmp.Compare(a.OID, b.OID) })
	return out
}

// DependentViews returns the views (not being dropped) whose query reads
// relation oid, ordered by OID.
func (c *Catalog) DependentViews(oid uint32) []*View {
	var out []*View
	for _, v := range c.Views() {
		if v.DroppingXid == 0 && slices.Contains(v.Relations, oid) {
			out = append(out, v)
		}
	}
	return out
}

// CreateView stores a new view (its OID assigned here) in one synced
// batch. 42P07 if a relation has the name.
func (c *Catalog) CreateView(def View) (*View, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return nil, err
	}
	if c.relationExistsLocked(def.Name) {
		return nil, errRelationExists(def.Name)
	}
	v := def
	v.OID = c.mu.nextOID
	if err := c.writeViewLocked(v.OID+1, &v, 0); err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.mu.nextOID = v.OID + 1
	c.publishViewLocked(&v)
	c.mu.version++
	c.mu.Unlock()
	return &v, nil
}

// UpdateView stores a changed definition of view oid (CREATE OR REPLACE
// VIEW, a drop marked or unmarked, the creator's mark cleared): change
// edits a copy. 42P01 if the view is gone; 42P07 if the change gives it
// back a name another relation has taken.
func (c *Catalog) UpdateView(oid uint32, change func(v *View) error) (*View, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return nil, err
	}
	old, ok := c.mu.viewByOID[oid]
	if !ok {
		return nil, errNoTable(oid)
	}
	v := *old
	v.Columns = slices.Clone(old.Columns)
	v.Relations = slices.Clone(old.Relations)
	if err := change(&v); err != nil {
		return nil, err
	}
	if v.DroppingXid == 0 && c.mu.views[v.Name] != old && c.relationExistsLocked(v.Name) {
		return nil, pgerr.New(pgerr.DuplicateTable, "cannot restore view \"%s\": its name is taken", v.Name)
	}
	if err := c.writeViewLocked(c.mu.nextOID, &v, 0); err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.publishViewLocked(&v)
	c.mu.version++
	c.mu.Unlock()
	return &v, nil
}

// DropView deletes view oid in one synced batch. 42P01 if it is gone.
func (c *Catalog) DropView(oid uint32) error {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return err
	}
	v, ok := c.mu.viewByOID[oid]
	if !ok {
		return errNoTable(oid)
	}
	if err := c.writeViewLocked(c.mu.nextOID, nil, oid); err != nil {
		return err
	}
	c.mu.Lock()
	if c.mu.views[v.Name] == v {
		delete(c.mu.views, v.Name)
	}
	delete(c.mu.viewByOID, oid)
	c.mu.version++
	c.mu.Unlock()
	return nil
}

// writeViewLocked writes one synced batch: the OID counter, put if not
// nil, and the deletion of view del if not 0. Caller holds ddlMu.
func (c *Catalog) writeViewLocked(nextOID uint32, put *View, del uint32) error {
	var key, val []byte
	if put != nil {
		var err error
		if val, err = json.Marshal(put); err != nil {
			return pgerr.Wrapf(err, pgerr.InternalError, "could not encode view %q", put.Name)
		}
		key = viewKey(put.OID)
	}
	var delKey []byte
	if del != 0 {
		delKey = viewKey(del)
	}
	return c.writeObjectLocked(nextOID, key, val, delKey)
}

// writeObjectLocked writes one synced batch: the OID counter, value val
// under key if key is not nil, and the deletion of delKey if not nil.
// Caller holds ddlMu.
func (c *Catalog) writeObjectLocked(nextOID uint32, key, val, delKey []byte) error {
	b := c.db.NewBatch()
	defer b.Close()
	if err := b.Set([]byte(oidSeqKey), []byte(strconv.FormatUint(uint64(nextOID), 10)), nil); err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
	}
	if key != nil {
		if err := b.Set(key, val, nil); err != nil {
			return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
		}
	}
	if delKey != nil {
		if err := b.Delete(delKey, nil); err != nil {
			return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
		}
	}
	if err := c.commit(b); err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
	}
	return nil
}

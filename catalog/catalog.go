package catalog

import (
	"sync"

	"github.com/cockroachdb/pebble"
)

// FirstNormalObjectID is the first OID given to user objects, as in
// PostgreSQL (FirstNormalObjectId).
const FirstNormalObjectID uint32 = 16384

// NameDataLen is NAMEDATALEN: identifiers are at most NameDataLen-1 bytes.
const NameDataLen = 64

// Column is one column of a table (a pg_attribute row). Its attribute number
// is its 1-based position in Table.Columns.
type Column struct {
	Name    string `json:"name"`
	TypeOID uint32 `json:"type"`   // types.OID
	Typmod  int32  `json:"typmod"` // -1 for none, as in pg_attribute.atttypmod
	NotNull bool   `json:"not_null,omitempty"`
	Default string `json:"default,omitempty"` // DEFAULT expression as SQL text; "" for none
}

// Index describes one index of a table (a pg_index/pg_class pair).
type Index struct {
	Name    string  `json:"name"`
	OID     uint32  `json:"oid"`
	Columns []int16 `json:"columns"` // attribute numbers (1-based), in key order
	Unique  bool    `json:"unique,omitempty"`
	Primary bool    `json:"primary,omitempty"`
}

// Table is the definition of one table. A *Table returned by the catalog is
// immutable: every DDL builds a new one, so a caller may keep and read it
// without locks, and must not modify it (use Clone for a changed copy).
type Table struct {
	OID         uint32            `json:"oid"`
	Name        string            `json:"name"`
	RelFileNode uint32            `json:"relfilenode"`
	Columns     []Column          `json:"columns"`
	Options     map[string]string `json:"options,omitempty"` // reloptions: fillfactor, fsm_policy, ...
	Indexes     []Index           `json:"indexes,omitempty"`
}

// Catalog is the table catalog, stored in pebble with an in-memory copy.
//
// Locking: ddlMu serializes DDL (each one reads the cache, writes one synced
// pebble batch, then publishes the new cache); mu guards the cache and is held
// only briefly, never across I/O. Lock order: ddlMu, then mu.
type Catalog struct {
	db *pebble.DB

	ddlMu sync.Mutex // serializes DDL, including the synced batch

	mu struct {
		sync.RWMutex
		version uint64            // bumped by every DDL
		nextOID uint32            // next OID to assign
		byOID   map[uint32]*Table // all tables
		byName  map[string]*Table // all tables by name
		indexes map[string]uint32 // index name -> table OID
	}
}

// Open opens (creating if needed) the catalog stored in dir.
func Open(dir string) (*Catalog, error) { panic("unimplemented") }

// Close closes the store. The catalog must not be used afterwards.
func (c *Catalog) Close() error { panic("unimplemented") }

// Version returns a counter bumped by every successful DDL; a plan cache may
// compare it to decide whether its bound statements are stale.
func (c *Catalog) Version() uint64 { panic("unimplemented") }

// Table returns the table named name (exact, case-sensitive match: the SQL
// layer folds unquoted identifiers to lower case before asking).
func (c *Catalog) Table(name string) (*Table, bool) { panic("unimplemented") }

// TableByOID returns the table with the given OID.
func (c *Catalog) TableByOID(oid uint32) (*Table, bool) { panic("unimplemented") }

// Tables returns all tables ordered by OID.
func (c *Catalog) Tables() []*Table { panic("unimplemented") }

// IndexByName returns the index named name and its table.
func (c *Catalog) IndexByName(name string) (*Table, Index, bool) { panic("unimplemented") }

// RelationExists reports whether a table or an index is called name (they
// share one namespace, as relations in pg_class do).
func (c *Catalog) RelationExists(name string) bool { panic("unimplemented") }

// CreateTable stores a new table. def gives Name, Columns, Options and
// Indexes (index OIDs are ignored); the catalog assigns the table's OID, its
// RelFileNode (equal to the OID, as PostgreSQL does for a new relation) and
// the index OIDs, writes one synced batch and returns the stored definition.
// Errors: 42P07 if the table or one of its index names is taken by any
// relation; 42701 for a duplicate column name; 42P16 for more than one
// primary key.
// The caller creates the heap file for RelFileNode (before or after, as its
// crash story needs: a file without a catalog entry is garbage, a catalog
// entry without a file is not).
func (c *Catalog) CreateTable(def *Table) (*Table, error) { panic("unimplemented") }

// DropTable removes a table and its indexes in one synced batch and returns
// the removed definition, so that the caller can drop its heap file and its
// in-memory indexes. 42P01 if there is no such table.
func (c *Catalog) DropTable(oid uint32) (*Table, error) { panic("unimplemented") }

// AddIndex adds an index to a table; idx.OID is assigned. 42P07 if any
// relation has idx.Name; 42P16 if idx is primary and the table already has
// a primary key; 42P01 if the table is gone. Returns the updated table.
func (c *Catalog) AddIndex(tableOID uint32, idx Index) (*Table, Index, error) {
	panic("unimplemented")
}

// DropIndex removes the index called name; 42704 if there is none. Returns
// the updated table and the removed index.
func (c *Catalog) DropIndex(name string) (*Table, Index, error) { panic("unimplemented") }

// SetOptions merges opts into the table's options (ALTER TABLE ... SET);
// an option whose value is "" is removed (ALTER TABLE ... RESET). Values are
// stored as given: the SQL layer validates them. Returns the updated table.
func (c *Catalog) SetOptions(tableOID uint32, opts map[string]string) (*Table, error) {
	panic("unimplemented")
}

// ChooseRelationName picks a relation name that is not in use, as
// PostgreSQL's ChooseRelationName does: name1_name2_label, cut to fit
// NameDataLen-1 bytes, with a number appended to label ("t_a_idx1", ...)
// until free. name2 may be "". The name is only free at the time of the call:
// CreateTable/AddIndex still check.
func (c *Catalog) ChooseRelationName(name1, name2, label string) string {
	panic("unimplemented")
}

// Clone returns a deep copy of t that the caller may modify.
func (t *Table) Clone() *Table { panic("unimplemented") }

// ColumnIndex returns the 0-based position of the column called name, or -1.
func (t *Table) ColumnIndex(name string) int { panic("unimplemented") }

// PrimaryKey returns the table's primary key index.
func (t *Table) PrimaryKey() (Index, bool) { panic("unimplemented") }

// Option returns the value of reloption name.
func (t *Table) Option(name string) (string, bool) { panic("unimplemented") }

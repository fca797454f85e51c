package catalog

import (
	"cmp"
	"encoding/json"
	"errors"
	"log"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/vfs"

	"minipg/pgerr"
)

// FirstNormalObjectID is the first OID given to user objects, as in
// PostgreSQL (FirstNormalObjectId).
const FirstNormalObjectID uint32 = 16384

// NameDataLen is NAMEDATALEN: identifiers are at most NameDataLen-1 bytes.
const NameDataLen = 64

// MaxColumns is MaxHeapAttributeNumber.
const MaxColumns = 1600

// Column is one column of a table (a pg_attribute row). Its attribute number
// is its 1-based position in Table.Columns.
type Column struct {
	Name    string `json:"name"`
	TypeOID uint32 `json:"type"`   // types.OID
	Typmod  int32  `json:"typmod"` // -1 for none, as in pg_attribute.atttypmod
	NotNull bool   `json:"not_null,omitempty"`
	Default string `json:"default,omitempty"` // DEFAULT expression as SQL text; "" for none
	// Identity is pg_attribute.attidentity: "a" GENERATED ALWAYS, "d" BY
	// DEFAULT AS IDENTITY, "" none. An identity column's Default is nextval
	// of its owned sequence.
	Identity string `json:"identity,omitempty"`
	// Missing is the value of the column in the rows stored before ALTER
	// TABLE ... ADD COLUMN added it with a DEFAULT (PostgreSQL's
	// attmissingval): the value's text form; nil for none (NULL). A
	// tuple with fewer attributes than the table's columns reads it.
	Missing *string `json:"missing,omitempty"`
	// Dropped is pg_attribute.attisdropped: ALTER TABLE ... DROP COLUMN
	// removed the column, which keeps its attribute number, its place in
	// the stored tuples and its type (for their length and alignment) but
	// is seen by nothing in SQL (DropColumns).
	Dropped bool `json:"dropped,omitempty"`
}

// Index describes one index of a table (a pg_index/pg_class pair). Primary
// implies Unique and Constraint.
type Index struct {
	Name    string  `json:"name"`
	OID     uint32  `json:"oid"`
	Columns []int16 `json:"columns"` // attribute numbers (1-based), in key order
	Unique  bool    `json:"unique,omitempty"`
	Primary bool    `json:"primary,omitempty"`
	// Constraint marks the index of a UNIQUE constraint (a pg_constraint
	// row of the same name owns it): it is dropped with ALTER TABLE ... DROP
	// CONSTRAINT, never with DROP INDEX. A primary key is always one.
	Constraint bool `json:"constraint,omitempty"`
	// RelFileNode is the file of an index kept on disk (storage/nbtree),
	// reserved with AllocOID before the file was built; 0 for an index
	// kept in memory and rebuilt from the heap at start-up.
	RelFileNode uint32 `json:"relfilenode,omitempty"`
	// KeyFormat is the key encoding of a disk index's entries
	// (types.KeyFormat): the one current when it was built. Indexes made
	// before the field existed have 0, integers in 9 bytes.
	KeyFormat uint8 `json:"key_format,omitempty"`
	// Options are the index's storage parameters (CREATE INDEX ... WITH
	// (fillfactor = 70)), name to canonical value.
	Options map[string]string `json:"options,omitempty"`
	// Clustered marks the index the table was last clustered on
	// (pg_index.indisclustered), which CLUSTER without USING takes.
	Clustered bool `json:"clustered,omitempty"`
}

// OnDisk reports whether idx is stored in a relation file of its own.
func (idx Index) OnDisk() bool { return idx.RelFileNode != 0 }

// Referential actions of a foreign key (pg_constraint.confdeltype and
// confupdtype).
const (
	FKNoAction   = "a"
	FKRestrict   = "r"
	FKCascade    = "c"
	FKSetNull    = "n"
	FKSetDefault = "d"
)

// ForeignKey is a FOREIGN KEY constraint of the table that holds it (the
// referencing table): Columns of this table reference RefColumns of table
// RefTable, which a unique index of RefTable covers (the SQL layer checks).
// MATCH SIMPLE: a row with a NULL in any of Columns is not checked.
type ForeignKey struct {
	Name       string  `json:"name"`
	Columns    []int16 `json:"columns"`
	RefTable   uint32  `json:"ref_table"`
	RefColumns []int16 `json:"ref_columns"`
	OnDelete   string  `json:"on_delete,omitempty"` // FKNoAction when ""
	OnUpdate   string  `json:"on_update,omitempty"`
}

// IsConstraint reports whether idx belongs to a PRIMARY KEY or UNIQUE
// constraint rather than being a plain CREATE INDEX.
func (idx Index) IsConstraint() bool { return idx.Primary || idx.Constraint }

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
	ForeignKeys []ForeignKey      `json:"foreign_keys,omitempty"`
	Checks      []Check           `json:"checks,omitempty"`
	// Dropping marks a table whose DROP waits for its transaction's end
	// (HideTable); nil for every other table.
	Dropping *PendingDrop `json:"dropping,omitempty"`
	// CreatedXid is the transaction that created the table until it
	// commits (ClearCreated); a table whose creator did not commit before
	// a crash is dropped at start-up. 0 once committed.
	CreatedXid uint32 `json:"created_xid,omitempty"`
}

// Catalog is the table catalog, stored in pebble with an in-memory copy.
//
// Locking: ddlMu serializes DDL (each one reads the cache, writes one synced
// pebble batch, then publishes the new cache); mu guards the cache and is held
// only briefly, never across I/O. The cache is modified only with both held,
// so a DDL may read it holding ddlMu alone. Lock order: ddlMu, then mu.
type Catalog struct {
	db *pebble.DB

	// commit writes a DDL batch; b.Commit(pebble.Sync) except in tests.
	commit func(b *pebble.Batch) error

	ddlMu sync.Mutex // serializes DDL, including the synced batch

	mu struct {
		sync.RWMutex
		version uint64            // bumped by every DDL
		nextOID uint32            // next OID to assign
		byOID   map[uint32]*Table // all tables
		byName  map[string]*Table // all tables by name
		indexes map[string]uint32 // index name -> table OID

		seqs     map[string]*seqState // sequences by name
		seqByOID map[uint32]*seqState // sequences by OID

		exts map[string]*Extension // installed extensions by name

		views     map[string]*View // views by name (not those being dropped)
		viewByOID map[uint32]*View // every view by OID

		funcs     map[string][]*Function // functions by name (not those being dropped)
		funcByOID map[uint32]*Function   // every function by OID

		comments map[commentKey]Comment // pg_description (comment.go)
	}
}

// quietLogger drops pebble's informational messages.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	log.Printf("catalog: pebble: "+format, args...)
	os.Exit(1)
}

// Open opens (creating if needed) the catalog stored in dir.
func Open(dir string) (*Catalog, error) {
	if err := ensureDir(dir); err != nil {
		return nil, err
	}
	return open(dir, nil)
}

// ensureDir creates dir if needed and makes its directory entry durable.
func ensureDir(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not create directory %q", dir)
	}
	d, err := os.Open(filepath.Dir(filepath.Clean(dir)))
	if err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not open directory %q", filepath.Dir(dir))
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not fsync directory %q", filepath.Dir(dir))
	}
	return nil
}

// open opens the catalog on fs (nil: the OS file system).
func open(dir string, fs vfs.FS) (*Catalog, error) {
	opts := &pebble.Options{Logger: quietLogger{}, FS: fs}
	db, err := pebble.Open(dir, opts)
	if err != nil {
		return nil, pgerr.Wrapf(err, pgerr.IOError, "could not open catalog in %q", dir)
	}
	c := &Catalog{db: db}
	c.commit = func(b *pebble.Batch) error { return b.Commit(pebble.Sync) }
	if err := c.load(); err != nil {
		db.Close()
		return nil, err
	}
	return c, nil
}

// load reads every table and the OID counter into the cache.
func (c *Catalog) load() error {
	c.mu.byOID = make(map[uint32]*Table)
	c.mu.byName = make(map[string]*Table)
	c.mu.indexes = make(map[string]uint32)
	c.mu.nextOID = FirstNormalObjectID

	iter, err := c.db.NewIter(&pebble.IterOptions{
		LowerBound: []byte(tablePrefix),
		UpperBound: []byte(tablePrefixEnd),
	})
	if err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not read catalog")
	}
	for iter.First(); iter.Valid(); iter.Next() {
		t, err := decodeTable(iter.Key(), iter.Value())
		if err != nil {
			iter.Close()
			return err
		}
		c.publishLocked(t)
		c.mu.nextOID = max(c.mu.nextOID, t.maxOID()+1)
	}
	if err := iter.Close(); err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not read catalog")
	}
	if err := c.loadSequences(); err != nil {
		return err
	}
	if err := c.loadExtensions(); err != nil {
		return err
	}
	if err := c.loadViews(); err != nil {
		return err
	}
	if err := c.loadFunctions(); err != nil {
		return err
	}
	if err := c.loadComments(); err != nil {
		return err
	}
	v, closer, err := c.db.Get([]byte(oidSeqKey))
	switch {
	case errors.Is(err, pebble.ErrNotFound):
	case err != nil:
		return pgerr.Wrapf(err, pgerr.IOError, "could not read catalog")
	default:
		n, perr := strconv.ParseUint(string(v), 10, 32)
		closer.Close()
		if perr != nil {
			return corrupt("key %q: %v", oidSeqKey, perr)
		}
		c.mu.nextOID = max(c.mu.nextOID, uint32(n))
	}
	return nil
}

// Close closes the store. The catalog must not be used afterwards.
func (c *Catalog) Close() error {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if c.db == nil {
		return nil
	}
	err := c.db.Close()
	c.db = nil
	if err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not close catalog")
	}
	return nil
}

// Version returns a counter bumped by every successful DDL; a plan cache may
// compare it to decide whether its bound statements are stale.
func (c *Catalog) Version() uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.version
}

// Table returns the table named name (exact, case-sensitive match: the SQL
// layer folds unquoted identifiers to lower case before asking). A table
// a running transaction dropped (Dropping) is not found by its hidden
// name.
func (c *Catalog) Table(name string) (*Table, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, ok := c.mu.byName[name]
	if ok && t.Dropping != nil {
		return nil, false
	}
	return t, ok
}

// TableByOID returns the table with the given OID.
func (c *Catalog) TableByOID(oid uint32) (*Table, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, ok := c.mu.byOID[oid]
	return t, ok
}

// Tables returns all tables ordered by OID.
func (c *Catalog) Tables() []*Table {
	c.mu.RLock()
	out := slices.Collect(maps.Values(c.mu.byOID))
	c.mu.RUnlock()
	slices.SortFunc(out, func(a, b *Table) int { return cmp.Compare(a.OID, b.OID) })
	return out
}

// IndexByName returns the index named name and its table.
func (c *Catalog) IndexByName(name string) (*Table, Index, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	oid, ok := c.mu.indexes[name]
	if !ok {
		return nil, Index{}, false
	}
	t := c.mu.byOID[oid]
	if t.Dropping != nil {
		return nil, Index{}, false
	}
	for _, idx := range t.Indexes {
		if idx.Name == name {
			return t, idx, true
		}
	}
	return nil, Index{}, false
}

// RelationExists reports whether a table, an index, a sequence or a view
// is called name (they share one namespace, as relations in pg_class do).
func (c *Catalog) RelationExists(name string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.relationExistsLocked(name)
}

func (c *Catalog) relationExistsLocked(name string) bool {
	_, t := c.mu.byName[name]
	_, i := c.mu.indexes[name]
	_, s := c.mu.seqs[name]
	_, v := c.mu.views[name]
	return t || i || s || v
}

// CreateTable stores a new table. def gives Name, Columns, Options and
// Indexes (index OIDs are ignored); the catalog assigns the table's OID, its
// RelFileNode (equal to the OID, as PostgreSQL does for a new relation) and
// the index OIDs, marks primary-key columns NOT NULL and primary indexes
// unique, writes one synced batch and returns the stored definition (def
// itself is not kept or changed).
// Errors: 42P07 if the table or one of its index names is taken by any
// relation; 42701 for a duplicate column name; 42P16 for more than one
// primary key; 54011 for more than 1600 columns.
// The caller creates the heap file for RelFileNode (a file without a catalog
// entry is garbage; a catalog entry without a file is not).
func (c *Catalog) CreateTable(def *Table) (*Table, error) {
	t, _, err := c.CreateTableWithSequences(def, nil)
	return t, err
}

// CreateTableWithSequences is CreateTable that also creates, in the same
// batch, the sequences of the table's serial columns: each of seqs is
// validated as CreateSequence would and owned by the new table's column
// OwnedByColumn. Their names must be free (42P07).
func (c *Catalog) CreateTableWithSequences(def *Table, seqs []Sequence) (*Table, []*Sequence, error) {
	t, made, err := c.createTable(def, seqs, nil)
	return t, made, err
}

// AssignRelFileNode, as the RelFileNode of an index given to
// CreateTableWithFiles, asks for an index kept on disk: the catalog sets
// its RelFileNode to its OID (PostgreSQL's choice for a new relation).
const AssignRelFileNode = ^uint32(0)

// CreateTableWithFiles is CreateTableWithSequences that lets the caller
// make relation files before the catalog names them: makeFiles is called
// with the definition about to be stored (OIDs and relfilenodes assigned;
// it must not change it), under the catalog's DDL lock, before the batch
// is written; if it fails nothing is stored (the caller removes what it
// made; a crash leaves orphans, which start-up removes).
func (c *Catalog) CreateTableWithFiles(def *Table, seqs []Sequence, makeFiles func(t *Table) error) (*Table, []*Sequence, error) {
	return c.createTable(def, seqs, makeFiles)
}

func (c *Catalog) createTable(def *Table, seqDefs []Sequence, makeFiles func(t *Table) error) (*Table, []*Sequence, error) {
	t := def.Clone()
	if len(t.Columns) > MaxColumns {
		return nil, nil, pgerr.New(pgerr.TooManyColumns, "tables can have at most %d columns", MaxColumns)
	}
	seen := make(map[string]bool, len(t.Columns))
	for _, col := range t.Columns {
		if seen[col.Name] {
			return nil, nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", col.Name)
		}
		seen[col.Name] = true
	}
	if len(t.Options) == 0 {
		t.Options = nil
	}

	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return nil, nil, err
	}
	if c.relationExistsLocked(t.Name) {
		return nil, nil, errRelationExists(t.Name)
	}
	next := c.mu.nextOID
	t.OID = next
	t.RelFileNode = next
	next++
	for i := range t.ForeignKeys {
		if t.ForeignKeys[i].RefTable == 0 { // references the new table itself
			t.ForeignKeys[i].RefTable = t.OID
		} else if _, ok := c.mu.byOID[t.ForeignKeys[i].RefTable]; !ok {
			return nil, nil, errNoTable(t.ForeignKeys[i].RefTable)
		}
	}
	names := map[string]bool{t.Name: true}
	primary := false
	for i := range t.Indexes {
		idx := &t.Indexes[i]
		if idx.Name == "" {
			return nil, nil, pgerr.New(pgerr.InternalError, "an index of table \"%s\" has no name", t.Name)
		}
		if names[idx.Name] || c.relationExistsLocked(idx.Name) {
			return nil, nil, errRelationExists(idx.Name)
		}
		names[idx.Name] = true
		if idx.Primary {
			if primary {
				return nil, nil, errMultiplePrimaryKeys(t.Name)
			}
			primary = true
		}
		if err := t.fixIndex(idx); err != nil {
			return nil, nil, err
		}
		idx.OID = next
		next++
		if idx.RelFileNode == AssignRelFileNode {
			idx.RelFileNode = idx.OID
		} else if idx.RelFileNode != 0 {
			return nil, nil, pgerr.New(pgerr.InternalError, "index \"%s\" has a relfilenode already", idx.Name)
		}
	}
	var seqs []*Sequence
	for _, sd := range seqDefs {
		q := sd
		if names[q.Name] || c.relationExistsLocked(q.Name) {
			return nil, nil, errRelationExists(q.Name)
		}
		names[q.Name] = true
		q.OID = next
		next++
		q.OwnedByTable = t.OID
		q.LastValue, q.IsCalled = q.Start, false
		seqs = append(seqs, &q)
	}
	if makeFiles != nil {
		if err := makeFiles(t); err != nil {
			return nil, nil, err
		}
	}
	if err := c.writeBatchLocked(next, []*Table{t}, nil, seqs, nil); err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	c.mu.nextOID = next
	c.publishLocked(t)
	for _, q := range seqs {
		st := &seqState{def: q, last: q.LastValue}
		c.mu.seqs[q.Name] = st
		c.mu.seqByOID[q.OID] = st
	}
	c.mu.version++
	c.mu.Unlock()
	return t, seqs, nil
}

// DropTable removes a table, its indexes and the sequences its columns own
// in one synced batch and returns the removed definition, so that the
// caller can drop its heap file and its in-memory indexes. 42P01 if there
// is no such table.
func (c *Catalog) DropTable(oid uint32) (*Table, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	t, err := c.tableLocked(oid)
	if err != nil {
		return nil, err
	}
	for _, other := range c.mu.byOID {
		if other.OID == oid {
			continue
		}
		for _, fk := range other.ForeignKeys {
			if fk.RefTable == oid {
				return nil, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop table %s because other objects depend on it", t.Name).
					WithDetail("constraint %s on table %s depends on table %s", fk.Name, other.Name, t.Name).
					WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
			}
		}
	}
	owned := c.ownedSequencesLocked(oid)
	var seqs []uint32
	for _, st := range owned {
		seqs = append(seqs, st.def.OID)
	}
	if err := c.writeBatchLocked(c.mu.nextOID, nil, []uint32{oid}, nil, seqs); err != nil {
		return nil, err
	}
	for _, st := range owned {
		c.dropSeqLocked(st)
	}
	c.mu.Lock()
	c.unpublishLocked(t)
	c.mu.version++
	c.mu.Unlock()
	return t, nil
}

// AddIndex adds an index to a table; idx.OID is assigned (for an index
// on disk, its RelFileNode, which AllocOID reserved: OID and relfilenode
// are equal, as for any new relation in PostgreSQL). 42P07 if any
// relation has idx.Name; 42P16 if idx is primary and the table already has
// a primary key; 42P01 if the table is gone. A primary key marks its columns
// NOT NULL (the caller has checked the rows). Returns the updated table and
// the stored index.
func (c *Catalog) AddIndex(tableOID uint32, idx Index) (*Table, Index, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	old, err := c.tableLocked(tableOID)
	if err != nil {
		return nil, Index{}, err
	}
	if c.relationExistsLocked(idx.Name) {
		return nil, Index{}, errRelationExists(idx.Name)
	}
	if _, has := old.PrimaryKey(); has && idx.Primary {
		return nil, Index{}, errMultiplePrimaryKeys(old.Name)
	}
	t := old.Clone()
	idx.Columns = slices.Clone(idx.Columns)
	if err := t.fixIndex(&idx); err != nil {
		return nil, Index{}, err
	}
	next := c.mu.nextOID
	if idx.OnDisk() {
		idx.OID = idx.RelFileNode // reserved by AllocOID
	} else {
		idx.OID = next
		next++
	}
	t.Indexes = append(t.Indexes, idx)
	if err := c.writeLocked(next, []*Table{t}, nil); err != nil {
		return nil, Index{}, err
	}
	c.mu.Lock()
	c.mu.nextOID = next
	c.unpublishLocked(old)
	c.publishLocked(t)
	c.mu.version++
	c.mu.Unlock()
	return t, idx, nil
}

// DropIndex removes the index called name; 42704 if there is none, 2BP01
// for the index of a constraint (PostgreSQL drops it only with its
// constraint). Returns the updated table and the removed index.
func (c *Catalog) DropIndex(name string) (*Table, Index, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return nil, Index{}, err
	}
	oid, ok := c.mu.indexes[name]
	if !ok {
		return nil, Index{}, pgerr.New(pgerr.UndefinedObject, "index \"%s\" does not exist", name)
	}
	old := c.mu.byOID[oid]
	t := old.Clone()
	var removed Index
	for i, idx := range t.Indexes {
		if idx.Name == name {
			removed = idx
			t.Indexes = slices.Delete(t.Indexes, i, i+1)
			break
		}
	}
	if removed.IsConstraint() {
		return nil, Index{}, pgerr.New(pgerr.DependentObjectsStillExist,
			"cannot drop index %s because constraint %s on table %s requires it", name, name, t.Name).
			WithHint("You can drop constraint %s on table %s instead.", name, t.Name)
	}
	if err := c.writeLocked(c.mu.nextOID, []*Table{t}, nil); err != nil {
		return nil, Index{}, err
	}
	c.replace(old, t)
	return t, removed, nil
}

// AlterConstraints drops the constraints named in drop (with their indexes)
// and then adds the indexes in add (each a constraint: Primary or
// Constraint set), in one synced batch, as one ALTER TABLE does. The added
// indexes get their OIDs (an index on disk its RelFileNode, which AllocOID
// reserved); a primary key marks its columns NOT NULL, and a
// dropped one leaves them NOT NULL (PostgreSQL 15 does not undo attnotnull).
// Errors: 42704 if a name in drop is not a constraint of the table; 42P07 if
// an added name is taken by a relation that is not dropped here (or by an
// earlier index of add); 42P16 for a second primary key; 42P01 if the table
// is gone. The caller has checked the rows (uniqueness, no NULLs in new
// NOT NULL columns). Returns the updated table and the stored added indexes.
func (c *Catalog) AlterConstraints(tableOID uint32, drop []string, add []Index) (*Table, []Index, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	old, err := c.tableLocked(tableOID)
	if err != nil {
		return nil, nil, err
	}
	t := old.Clone()
	dropped := make(map[string]bool, len(drop))
	for _, name := range drop {
		i := slices.IndexFunc(t.Indexes, func(idx Index) bool { return idx.Name == name && idx.IsConstraint() })
		if i < 0 {
			return nil, nil, pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" of relation \"%s\" does not exist", name, t.Name)
		}
		t.Indexes = slices.Delete(t.Indexes, i, i+1)
		dropped[name] = true
	}
	next := c.mu.nextOID
	added := make([]Index, 0, len(add))
	for _, idx := range add {
		if !idx.IsConstraint() {
			return nil, nil, pgerr.New(pgerr.InternalError, "index \"%s\" is not a constraint", idx.Name)
		}
		taken := c.relationExistsLocked(idx.Name) && !dropped[idx.Name]
		if taken || slices.ContainsFunc(added, func(a Index) bool { return a.Name == idx.Name }) {
			return nil, nil, errRelationExists(idx.Name)
		}
		if _, has := t.PrimaryKey(); has && idx.Primary {
			return nil, nil, errMultiplePrimaryKeys(t.Name)
		}
		idx.Columns = slices.Clone(idx.Columns)
		if err := t.fixIndex(&idx); err != nil {
			return nil, nil, err
		}
		if idx.OnDisk() {
			idx.OID = idx.RelFileNode // reserved by AllocOID
		} else {
			idx.OID = next
			next++
		}
		t.Indexes = append(t.Indexes, idx)
		added = append(added, idx)
	}
	if err := c.writeLocked(next, []*Table{t}, nil); err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	c.mu.nextOID = next
	c.unpublishLocked(old)
	c.publishLocked(t)
	c.mu.version++
	c.mu.Unlock()
	return t, added, nil
}

// SetOptions merges opts into the table's options (ALTER TABLE ... SET);
// an option whose value is "" is removed (ALTER TABLE ... RESET). Values are
// stored as given: the SQL layer validates them. Returns the updated table.
func (c *Catalog) SetOptions(tableOID uint32, opts map[string]string) (*Table, error) {
	return c.updateTable(tableOID, func(t *Table) error {
		if t.Options == nil {
			t.Options = make(map[string]string, len(opts))
		}
		for k, v := range opts {
			if v == "" {
				delete(t.Options, k)
			} else {
				t.Options[k] = v
			}
		}
		if len(t.Options) == 0 {
			t.Options = nil
		}
		return nil
	})
}

// tableLocked returns the table a DDL is about to change: 42P01 if there
// is no table with that OID, an error if the catalog is closed. Caller holds
// ddlMu.
func (c *Catalog) tableLocked(oid uint32) (*Table, error) {
	if err := c.usableLocked(); err != nil {
		return nil, err
	}
	t, ok := c.mu.byOID[oid]
	if !ok {
		return nil, errNoTable(oid)
	}
	return t, nil
}

// replace publishes t in the place of old once the DDL's batch is written.
// Caller holds ddlMu, not mu.
func (c *Catalog) replace(old, t *Table) {
	c.mu.Lock()
	c.unpublishLocked(old)
	c.publishLocked(t)
	c.mu.version++
	c.mu.Unlock()
}

// usableLocked fails if the catalog is closed. Caller holds ddlMu.
func (c *Catalog) usableLocked() error {
	if c.db == nil {
		return pgerr.New(pgerr.InternalError, "catalog: closed")
	}
	return nil
}

// writeLocked writes one synced batch: the OID counter, the tables in put
// and the deletion of the tables in del. Caller holds ddlMu.
func (c *Catalog) writeLocked(nextOID uint32, put []*Table, del []uint32) error {
	return c.writeBatchLocked(nextOID, put, del, nil, nil)
}

// writeBatchLocked is writeLocked with sequence definitions to store
// (seqPut) and delete (seqDel) in the same batch. Caller holds ddlMu.
func (c *Catalog) writeBatchLocked(nextOID uint32, put []*Table, del []uint32, seqPut []*Sequence, seqDel []uint32) error {
	b := c.db.NewBatch()
	defer b.Close()
	if err := b.Set([]byte(oidSeqKey), []byte(strconv.FormatUint(uint64(nextOID), 10)), nil); err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
	}
	for _, t := range put {
		v, err := json.Marshal(t)
		if err != nil {
			return pgerr.Wrapf(err, pgerr.InternalError, "could not encode table %q", t.Name)
		}
		if err := b.Set(tableKey(t.OID), v, nil); err != nil {
			return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
		}
	}
	for _, oid := range del {
		if err := b.Delete(tableKey(oid), nil); err != nil {
			return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
		}
	}
	if err := putSeqs(b, seqPut, seqDel); err != nil {
		return err
	}
	if err := c.commit(b); err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
	}
	return nil
}

// publishLocked adds t to the cache. Caller holds mu (or is loading).
func (c *Catalog) publishLocked(t *Table) {
	c.mu.byOID[t.OID] = t
	c.mu.byName[t.Name] = t
	for _, idx := range t.Indexes {
		c.mu.indexes[idx.Name] = t.OID
	}
}

// unpublishLocked removes t from the cache. Caller holds mu.
func (c *Catalog) unpublishLocked(t *Table) {
	delete(c.mu.byOID, t.OID)
	delete(c.mu.byName, t.Name)
	for _, idx := range t.Indexes {
		delete(c.mu.indexes, idx.Name)
	}
}

// fixIndex checks idx's columns against t and applies the primary-key
// rules (unique, columns NOT NULL).
func (t *Table) fixIndex(idx *Index) error {
	if len(idx.Columns) == 0 {
		return pgerr.New(pgerr.InvalidTableDefinition, "index \"%s\" has no columns", idx.Name)
	}
	for _, a := range idx.Columns {
		if a < 1 || int(a) > len(t.Columns) || t.Columns[a-1].Dropped {
			return pgerr.New(pgerr.UndefinedColumn, "index \"%s\": column number %d of table \"%s\" does not exist",
				idx.Name, a, t.Name)
		}
	}
	if idx.Primary {
		idx.Unique = true
		for _, a := range idx.Columns {
			t.Columns[a-1].NotNull = true
		}
	}
	return nil
}

// Clone returns a deep copy of t that the caller may modify.
func (t *Table) Clone() *Table {
	c := *t
	c.Columns = slices.Clone(t.Columns)
	c.Options = maps.Clone(t.Options)
	c.Indexes = slices.Clone(t.Indexes)
	for i := range c.Indexes {
		c.Indexes[i].Columns = slices.Clone(c.Indexes[i].Columns)
	}
	if t.Dropping != nil {
		pd := *t.Dropping
		pd.Indexes = slices.Clone(pd.Indexes)
		c.Dropping = &pd
	}
	c.Checks = slices.Clone(t.Checks)
	c.ForeignKeys = slices.Clone(t.ForeignKeys)
	for i := range c.ForeignKeys {
		fk := &c.ForeignKeys[i]
		fk.Columns, fk.RefColumns = slices.Clone(fk.Columns), slices.Clone(fk.RefColumns)
	}
	return &c
}

// ColumnIndex returns the 0-based position of the column called name, or
// -1; a dropped column is not found.
func (t *Table) ColumnIndex(name string) int {
	for i, col := range t.Columns {
		if col.Name == name && !col.Dropped {
			return i
		}
	}
	return -1
}

// nameTaken reports whether an attribute of t, dropped or not, is called
// name: PostgreSQL's pg_attribute lookup by name sees dropped columns too,
// so a new or renamed column cannot take a dropped one's name.
func (t *Table) nameTaken(name string) bool {
	return slices.ContainsFunc(t.Columns, func(c Column) bool { return c.Name == name })
}

// LiveColumns returns the 0-based positions of t's columns that are not
// dropped, in order: the columns SELECT * and INSERT without a column list
// see.
func (t *Table) LiveColumns() []int {
	out := make([]int, 0, len(t.Columns))
	for i, c := range t.Columns {
		if !c.Dropped {
			out = append(out, i)
		}
	}
	return out
}

// HasDropped reports whether a column of t is dropped.
func (t *Table) HasDropped() bool {
	return slices.ContainsFunc(t.Columns, func(c Column) bool { return c.Dropped })
}

// PrimaryKey returns the table's primary key index.
func (t *Table) PrimaryKey() (Index, bool) {
	for _, idx := range t.Indexes {
		if idx.Primary {
			return idx, true
		}
	}
	return Index{}, false
}

// Option returns the value of reloption name.
func (t *Table) Option(name string) (string, bool) {
	v, ok := t.Options[name]
	return v, ok
}

// maxOID is the largest OID t uses.
func (t *Table) maxOID() uint32 {
	m := max(t.OID, t.RelFileNode)
	for _, idx := range t.Indexes {
		m = max(m, idx.OID, idx.RelFileNode)
	}
	return m
}

// SetColumnDefault sets (expr != "") or drops (expr == "") the DEFAULT of
// column col (0-based), as ALTER TABLE ... ALTER COLUMN ... SET/DROP
// DEFAULT does; expr is SQL text the SQL layer has bound once. Returns the
// updated table.
func (c *Catalog) SetColumnDefault(tableOID uint32, col int, expr string) (*Table, error) {
	return c.alterColumn(tableOID, col, func(cl *Column) { cl.Default = expr })
}

// alterColumn changes column col of a table by change, in one synced
// batch, and returns the updated table.
func (c *Catalog) alterColumn(tableOID uint32, col int, change func(*Column)) (*Table, error) {
	return c.updateTable(tableOID, func(t *Table) error {
		if col < 0 || col >= len(t.Columns) {
			return pgerr.New(pgerr.UndefinedColumn, "column number %d of relation \"%s\" does not exist", col+1, t.Name)
		}
		change(&t.Columns[col])
		return nil
	})
}

// updateTable is one table's DDL: under the DDL lock, change gets a copy of
// table tableOID to modify (or an error to refuse), the copy is written in
// one synced batch and replaces the old definition. Returns the updated
// table; 42P01 if the table is gone.
func (c *Catalog) updateTable(tableOID uint32, change func(t *Table) error) (*Table, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	old, err := c.tableLocked(tableOID)
	if err != nil {
		return nil, err
	}
	t := old.Clone()
	if err := change(t); err != nil {
		return nil, err
	}
	if err := c.writeLocked(c.mu.nextOID, []*Table{t}, nil); err != nil {
		return nil, err
	}
	c.replace(old, t)
	return t, nil
}

// SetClustered marks index indexOID of table tableOID as the one the table
// is clustered on, and no other (0: none). Returns the updated table.
func (c *Catalog) SetClustered(tableOID, indexOID uint32) (*Table, error) {
	return c.updateTable(tableOID, func(t *Table) error {
		for i := range t.Indexes {
			t.Indexes[i].Clustered = t.Indexes[i].OID == indexOID
		}
		return nil
	})
}

// AddForeignKey adds a FOREIGN KEY constraint to table tableOID (the
// caller has checked its columns, the referenced table's unique index and
// the existing rows). 42710 if the table has a constraint of that name;
// 42P01 if either table is gone. Returns the updated table.
func (c *Catalog) AddForeignKey(tableOID uint32, fk ForeignKey) (*Table, error) {
	return c.updateTable(tableOID, func(t *Table) error {
		if _, ok := c.mu.byOID[fk.RefTable]; !ok {
			return errNoTable(fk.RefTable)
		}
		if t.HasConstraint(fk.Name) {
			return pgerr.New(pgerr.DuplicateObject, "constraint \"%s\" for relation \"%s\" already exists", fk.Name, t.Name)
		}
		fk.Columns, fk.RefColumns = slices.Clone(fk.Columns), slices.Clone(fk.RefColumns)
		t.ForeignKeys = append(t.ForeignKeys, fk)
		return nil
	})
}

// DropForeignKey removes the FOREIGN KEY constraint name of table
// tableOID; 42704 if it has none of that name. Returns the updated table.
func (c *Catalog) DropForeignKey(tableOID uint32, name string) (*Table, error) {
	return c.updateTable(tableOID, func(t *Table) error {
		i := slices.IndexFunc(t.ForeignKeys, func(fk ForeignKey) bool { return fk.Name == name })
		if i < 0 {
			return pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" of relation \"%s\" does not exist", name, t.Name)
		}
		t.ForeignKeys = slices.Delete(t.ForeignKeys, i, i+1)
		return nil
	})
}

// HasConstraint reports whether t has a constraint (a key's index or a
// foreign key) called name.
func (t *Table) HasConstraint(name string) bool {
	return slices.ContainsFunc(t.Indexes, func(idx Index) bool { return idx.IsConstraint() && idx.Name == name }) ||
		slices.ContainsFunc(t.ForeignKeys, func(fk ForeignKey) bool { return fk.Name == name }) ||
		slices.ContainsFunc(t.Checks, func(c Check) bool { return c.Name == name })
}

// ForeignKey returns t's foreign key called name.
func (t *Table) ForeignKey(name string) (ForeignKey, bool) {
	for _, fk := range t.ForeignKeys {
		if fk.Name == name {
			return fk, true
		}
	}
	return ForeignKey{}, false
}

// SetColumnNotNull sets or clears NOT NULL of column col (0-based), as
// ALTER TABLE ... ALTER COLUMN ... SET/DROP NOT NULL does (the caller has
// checked the rows, and that a dropped one is not a primary key column).
// Returns the updated table.
func (c *Catalog) SetColumnNotNull(tableOID uint32, col int, notNull bool) (*Table, error) {
	return c.alterColumn(tableOID, col, func(cl *Column) { cl.NotNull = notNull })
}

// AddColumns appends columns to table tableOID (ALTER TABLE ... ADD
// COLUMN), in one synced batch, and returns the updated table. 42701 if a
// column of the name exists; 54011 past MaxColumns.
func (c *Catalog) AddColumns(tableOID uint32, cols []Column) (*Table, error) {
	return c.updateTable(tableOID, func(t *Table) error {
		for _, col := range cols {
			if t.nameTaken(col.Name) {
				return pgerr.New(pgerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", col.Name, t.Name)
			}
			t.Columns = append(t.Columns, col)
		}
		if len(t.Columns) > MaxColumns {
			return pgerr.New(pgerr.TooManyColumns, "tables can have at most %d columns", MaxColumns)
		}
		return nil
	})
}

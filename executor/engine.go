package executor

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"minipg/autovacuum"
	"minipg/catalog"
	"minipg/index"
	"minipg/pgerr"
	"minipg/pgstat"
	"minipg/reloptions"
	"minipg/sql"
	"minipg/storage/buffer"
	"minipg/storage/fsm"
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/txn"
	"minipg/types"
)

// Config configures an Engine.
type Config struct {
	DataDir       string
	SharedBuffers int64             // bytes; 0 means the shared_buffers setting or 128MB
	Settings      map[string]string // -c name=value
}

// DefaultSharedBuffers is shared_buffers when not configured.
const DefaultSharedBuffers = 128 << 20

// Engine is one open data directory: catalog, buffer pool, transaction
// manager and one heap (plus in-memory indexes) per table. It is shared by
// all sessions.
type Engine struct {
	cfg      Config
	log      *slog.Logger
	cat      catalogStore
	pool     *buffer.Pool
	txns     *txn.Manager
	settings map[string]string // server-wide values (defaults + -c)

	checkpointHook func() error // set once before use; nil = flush + save
	wal            *engineWAL   // write-ahead log (wal.go)
	bgw            bgwStats     // pg_stat_bgwriter's reset baseline (bgwriter.go)

	stats *pgstat.Collector // table statistics (stats.go)
	// advisory is the advisory lock table (advisory.go).
	advisory advisoryTable
	av       *autovacuum.Launcher // started last by Open, stopped first by Close
	// pruner prunes behind the updates and deletes of the tables with
	// heap_prune_behind on (auto: locality's tables); started with the
	// transaction manager, stopped after autovacuum.
	pruner *heap.Pruner
	// vacSlots holds each table's *vacSlot (vacuum.go): one VACUUM,
	// ANALYZE or autovacuum run per table at a time.
	vacSlots sync.Map
	fkRefs   fkRefCache                           // foreign keys by referenced table (fkey.go)
	sessions sessionRegistry                      // open sessions (pg_stat_activity, activity.go)
	signal   func(pid int32, terminate bool) bool // SetBackendSignal; nil = none

	closeOnce sync.Once // Close runs once
	closeErr  error     // what it returned

	mu struct {
		sync.RWMutex
		rels map[uint32]*relation // table OID -> open relation
	}
}

// catalogStore is the part of *catalog.Catalog the executor uses.
type catalogStore interface {
	Version() uint64
	Table(name string) (*catalog.Table, bool)
	Tables() []*catalog.Table
	RelationExists(name string) bool
	CreateTable(def *catalog.Table) (*catalog.Table, error)
	CreateTableWithFiles(def *catalog.Table, seqs []catalog.Sequence, makeFiles func(t *catalog.Table) error) (*catalog.Table, []*catalog.Sequence, error)
	DropTable(oid uint32) (*catalog.Table, error)
	HideTable(oid, xid uint32) (*catalog.Table, error)
	UnhideTable(oid uint32) (*catalog.Table, error)
	ClearCreated(oid uint32) error
	AddIndex(tableOID uint32, idx catalog.Index) (*catalog.Table, catalog.Index, error)
	SetOptions(tableOID uint32, opts map[string]string) (*catalog.Table, error)
	IndexByName(name string) (*catalog.Table, catalog.Index, bool)
	DropIndex(name string) (*catalog.Table, catalog.Index, error)
	AlterConstraints(tableOID uint32, drop []string, add []catalog.Index) (*catalog.Table, []catalog.Index, error)
	ChooseRelationName(name1, name2, label string) string
	TableByOID(oid uint32) (*catalog.Table, bool)
	SetColumnDefault(tableOID uint32, col int, expr string) (*catalog.Table, error)
	SetColumnNotNull(tableOID uint32, col int, notNull bool) (*catalog.Table, error)
	AddForeignKey(tableOID uint32, fk catalog.ForeignKey) (*catalog.Table, error)
	NewRelFileNode(tableOID uint32, indexes map[uint32]uint32) (*catalog.Table, error)
	AllocOID() (uint32, error)
	Sequences() []*catalog.Sequence
	DropForeignKey(tableOID uint32, name string) (*catalog.Table, error)
	CreateSequence(def catalog.Sequence) (*catalog.Sequence, error)
	DropSequence(oid uint32) error
	Sequence(name string) (*catalog.Sequence, bool)
	SequenceByOID(oid uint32) (*catalog.Sequence, bool)
	NextVal(oid uint32) (first, last int64, err error)
	SetVal(oid uint32, value int64, isCalled bool) error
	SequenceState(oid uint32) (last int64, called bool, err error)
	HasExtension(name string) bool
	Extensions() []catalog.Extension
	CreateExtension(def catalog.Extension) (*catalog.Extension, error)
	DropExtension(name string) error
	AddColumns(tableOID uint32, cols []catalog.Column) (*catalog.Table, error)
	DropColumns(tableOID uint32, cols []int, checks []string) (*catalog.Table, []catalog.Index, error)
	AlterColumnTypes(tableOID uint32, cols []catalog.ColumnType, rw *catalog.TableRewrite) (*catalog.Table, error)
	RenameTable(tableOID uint32, name string) (*catalog.Table, error)
	RenameIndex(tableOID uint32, old, name string) (*catalog.Table, error)
	RenameColumn(tableOID uint32, col int, name string) (*catalog.Table, error)
	RenameSequence(oid uint32, name string) error
	AlterSequence(oid uint32, def catalog.Sequence, restart *int64) error
	SetChecks(tableOID uint32, drop []string, add []catalog.Check) (*catalog.Table, error)
	SetComment(classOID, objOID uint32, subID int32, text string) error
	Comments() []catalog.Comment
	CommentOf(classOID, objOID uint32, subID int32) string
	View(name string) (*catalog.View, bool)
	ViewByOID(oid uint32) (*catalog.View, bool)
	Views() []*catalog.View
	DependentViews(oid uint32) []*catalog.View
	CreateView(def catalog.View) (*catalog.View, error)
	UpdateView(oid uint32, change func(v *catalog.View) error) (*catalog.View, error)
	DropView(oid uint32) error
	Functions(name string) []*catalog.Function
	FunctionByOID(oid uint32) (*catalog.Function, bool)
	AllFunctions() []*catalog.Function
	CreateFunction(def catalog.Function) (*catalog.Function, error)
	UpdateFunction(oid uint32, change func(f *catalog.Function) error) (*catalog.Function, error)
	SetClustered(tableOID, indexOID uint32) (*catalog.Table, error)
	DropFunction(oid uint32) error
	Close() error
}

// openCatalog opens the catalog of a data directory (tests may replace it).
var openCatalog = func(dir string) (catalogStore, error) { return catalog.Open(dir) }

// relation is an open table.
type relation struct {
	def      *catalog.Table
	heap     *heap.Relation
	desc     heap.TupleDesc
	types    []types.T
	indexes  []*relIndex
	defaults []sql.Expr // bound DEFAULT expressions (nil: NULL)
	// missing holds, per column, the value a tuple stored before ADD
	// COLUMN reads past its attributes (addcolumn.go); nil if none has one.
	missing []types.Datum
	// dropped marks, per column, one ALTER TABLE ... DROP COLUMN dropped:
	// its attribute stays in the tuples, but decoding leaves it NULL, so
	// that no statement reads it and an UPDATE stores NULL there, as
	// PostgreSQL does. nil if no column is dropped.
	dropped []bool
	checks  []sql.Expr        // bound CHECK constraints, in def.Checks' order
	virtual *sql.VirtualTable // a system view: no heap
}

// relIndex is one index of a table.
type relIndex struct {
	def   catalog.Index
	cols  []int // 0-based column positions
	types []types.T
	ix    indexStore // in memory or on disk (indexstore.go)
}

// Open opens (creating if needed) the data directory.
func Open(cfg Config, log *slog.Logger) (*Engine, error) {
	if log == nil {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	if cfg.DataDir == "" {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "no data directory given")
	}
	e := &Engine{cfg: cfg, log: log, settings: map[string]string{}}
	addParamSettings()
	for name, def := range gucTable {
		e.settings[name] = def.def
	}
	for k, v := range cfg.Settings {
		name := strings.ToLower(k)
		if _, ok := gucTable[name]; !ok {
			if err := checkPlaceholder(name, k); err != nil {
				return nil, err
			}
		}
		nv, err := checkGUC(name, v)
		if err != nil {
			return nil, err
		}
		e.settings[name] = nv
	}
	sb := cfg.SharedBuffers
	if sb <= 0 {
		n, err := parseMemory(e.settings["shared_buffers"])
		if err != nil {
			return nil, err
		}
		sb = n
	}
	e.settings["shared_buffers"] = formatMemory(sb)
	e.settings["data_directory"] = cfg.DataDir
	for _, d := range []string{"", "base", "pg_xact"} {
		if err := os.MkdirAll(filepath.Join(cfg.DataDir, d), 0o700); err != nil {
			return nil, pgerr.Wrapf(err, pgerr.IOError, "could not create directory \"%s\"", filepath.Join(cfg.DataDir, d))
		}
	}
	var err error
	if e.cat, err = openCatalog(filepath.Join(cfg.DataDir, "catalog")); err != nil {
		return nil, err
	}
	nbuf := int(sb / page.BlockSize)
	if nbuf < 16 {
		nbuf = 16
	}
	if err = e.openWAL(); err != nil {
		e.cat.Close()
		return nil, err
	}
	poolOpts := buffer.Options{Dir: filepath.Join(cfg.DataDir, "base"), NBuffers: nbuf, FlushWAL: e.flushWAL,
		WALFlushed: e.wal.log.FlushedLSN}
	if e.pool, err = buffer.NewPool(poolOpts); err != nil {
		e.closeWAL()
		e.cat.Close()
		return nil, err
	}
	if e.txns, err = txn.Open(filepath.Join(cfg.DataDir, "pg_xact")); err != nil {
		e.pool.Close()
		e.closeWAL()
		e.cat.Close()
		return nil, err
	}
	e.pruner = heap.NewPruner(e.txns)
	if e.stats, err = pgstat.Open(filepath.Join(cfg.DataDir, "pg_stat")); err != nil {
		e.Close()
		return nil, err
	}
	if err := e.recoverWAL(); err != nil {
		e.Close()
		return nil, err
	}
	e.mu.rels = map[uint32]*relation{}
	var rels []*relation
	for _, t := range e.cat.Tables() {
		r, err := e.openRelation(t)
		if err != nil {
			e.Close()
			return nil, err
		}
		rels = append(rels, r)
		e.mu.rels[t.OID] = r
	}
	if err := e.rebuildAllIndexes(rels); err != nil {
		e.Close()
		return nil, err
	}
	if err := e.startWAL(); err != nil {
		e.Close()
		return nil, err
	}
	if err := e.settleHiddenTables(); err != nil {
		e.Close()
		return nil, err
	}
	if err := e.settleFunctions(); err != nil {
		e.Close()
		return nil, err
	}
	if err := e.settleViews(); err != nil {
		e.Close()
		return nil, err
	}
	if err := e.startAutovacuum(); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// Pool returns the buffer pool (for storage-level hooks such as WAL).
func (e *Engine) Pool() *buffer.Pool { return e.pool }

// Txns returns the transaction manager.
func (e *Engine) Txns() *txn.Manager { return e.txns }

// Catalog returns the catalog.
func (e *Engine) Catalog() *catalog.Catalog {
	c, _ := e.cat.(*catalog.Catalog)
	return c
}

// SetCheckpointHook replaces what CHECKPOINT does (default: flush all
// buffers, fsync, save the commit log). Set it before the first session.
func (e *Engine) SetCheckpointHook(fn func() error) { e.checkpointHook = fn }

// Checkpoint runs the checkpoint hook.
func (e *Engine) Checkpoint() error {
	if e.checkpointHook != nil {
		return e.checkpointHook()
	}
	if err := e.pool.FlushAll(); err != nil {
		return err
	}
	if err := e.pool.Sync(); err != nil {
		return err
	}
	return e.txns.Save()
}

// Close flushes and closes the engine: it stops the checkpointer, writes the
// shutdown checkpoint and closes the pool, commit log, WAL and catalog (a
// CHECKPOINT racing it fails with 55000 once the checkpointer has stopped).
// Later calls wait for the first and return its result (a second shutdown
// would save a stale commit log).
func (e *Engine) Close() error {
	e.closeOnce.Do(func() { e.closeErr = e.close() })
	return e.closeErr
}

func (e *Engine) close() error {
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	if e.av != nil {
		e.av.Stop()
	}
	if e.pruner != nil {
		e.pruner.Close()
	}
	keep(e.shutdownWAL())
	if e.stats != nil && first == nil {
		keep(e.stats.Save())
	}
	if e.pool != nil {
		keep(e.pool.Close())
	}
	if e.txns != nil {
		keep(e.txns.Close())
	}
	keep(e.closeWAL())
	if e.cat != nil {
		keep(e.cat.Close())
	}
	return first
}

// Setting returns a server-wide setting.
func (e *Engine) Setting(name string) (string, bool) {
	v, ok := e.settings[strings.ToLower(name)]
	return v, ok
}

func colTypes(t *catalog.Table) []types.T {
	out := make([]types.T, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = types.T{OID: types.OID(c.TypeOID), Typmod: c.Typmod}
	}
	return out
}

// openRelation opens the heap of t and creates (empty) index structures.
func (e *Engine) openRelation(t *catalog.Table) (*relation, error) {
	r := &relation{def: t, types: colTypes(t)}
	var err error
	if r.missing, err = missingValues(t); err != nil {
		return nil, err
	}
	for _, ct := range r.types {
		r.desc = append(r.desc, heap.Attr{Len: ct.Len(), Align: ct.Align()})
	}
	if t.HasDropped() {
		r.dropped = make([]bool, len(t.Columns))
		for i, c := range t.Columns {
			r.dropped[i] = c.Dropped
		}
	}
	for i, v := range r.missing {
		if v == nil {
			continue
		}
		// A tuple stored before ADD COLUMN reads the default it had then
		// (heap.Attr.Missing), in scans as in the heap's own HOT check.
		b, err := types.EncodeDisk(r.types[i], v)
		if err != nil {
			return nil, err
		}
		r.desc[i].Missing = b
	}
	// Storage parameters: the table's own options win over the server's
	// settings, which win over the declared defaults.
	src := reloptions.Layers(t.Options, e.settings)
	opts := heap.Options{FillFactor: heap.FillFactorParam.Int(src)}
	pol, err := fsm.NewPolicy(src)
	if err != nil {
		e.log.Warn("unknown fsm_policy, using classic", "table", t.Name, "policy", t.Options[fsm.PolicyParam.Name])
		pol = fsm.NewClassic()
	}
	opts.Policy = pol
	opts.WAL = e.walLog()
	opts.OnPrune = func(n int) { e.stats.Pruned(t.OID, n) }
	if heap.PrunesBehind(src, pol) {
		opts.Pruner = e.pruner
		if heap.ReclaimBehindParam.Bool(src) {
			opts.Reclaim = e.reclaimer(t.OID)
		}
	}
	rfn := buffer.RelFileNode(t.RelFileNode)
	if !e.pool.Exists(rfn, buffer.MainFork) {
		if err := e.pool.CreateRel(rfn); err != nil {
			return nil, err
		}
	}
	r.heap = heap.Open(e.pool, rfn, r.desc, opts)
	for _, idef := range t.Indexes {
		r.indexes = append(r.indexes, e.newRelIndex(r, idef))
	}
	setIndexAttrs(r)
	if r.defaults, err = sql.Defaults(t); err != nil {
		return nil, err
	}
	if r.checks, err = sql.CheckExprs(t); err != nil {
		return nil, err
	}
	return r, nil
}

// appendKey encodes k (ri's key or a prefix of it) as the index stores it:
// types.AppendKey of each column in the index's key format, which orders
// as types.Compare does with NULLs last.
func (ri *relIndex) appendKey(dst []byte, k index.Key) []byte {
	f := ri.keyFormat()
	for i, v := range k {
		dst = types.AppendKeyFormat(dst, ri.types[i], v, f)
	}
	return dst
}

// keyFormat is the key encoding of ri's entries: a disk index keeps the
// one it was built with (catalog.Index.KeyFormat); an in-memory index,
// rebuilt at every start, uses the current one.
func (ri *relIndex) keyFormat() types.KeyFormat {
	if ri.def.OnDisk() {
		return types.KeyFormat(ri.def.KeyFormat)
	}
	return types.CurrentKeyFormat
}

// indexColumns returns the columns a decoder must decode for idxs' keys
// (not the ctid).
func indexColumns(r *relation, idxs ...*relIndex) []bool {
	need := make([]bool, len(r.types)+1)
	for _, ri := range idxs {
		for _, c := range ri.cols {
			need[c] = true
		}
	}
	return need
}

// key extracts ri's key from a table row.
func (ri *relIndex) key(row []types.Datum) (index.Key, bool) {
	k := make(index.Key, len(ri.cols))
	hasNull := false
	for i, c := range ri.cols {
		k[i] = row[c]
		if row[c] == nil {
			hasNull = true
		}
	}
	return k, hasNull
}

// rebuildAllIndexes rebuilds the indexes of rels at start-up, several
// tables at once (one per CPU); it returns the first error.
func (e *Engine) rebuildAllIndexes(rels []*relation) error {
	work := make(chan *relation)
	errs := make(chan error, len(rels))
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(rels)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range work {
				errs <- e.rebuildIndexes(r)
			}
		}()
	}
	for _, r := range rels {
		work <- r
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// rebuildIndexes fills r's in-memory indexes from the rows of the heap
// that a new snapshot sees (at start-up nothing is in progress). Disk
// indexes are opened as they are.
func (e *Engine) rebuildIndexes(r *relation) error {
	var mem []*relIndex
	for _, ri := range r.indexes {
		if !ri.def.OnDisk() {
			mem = append(mem, ri)
		}
	}
	if len(mem) == 0 {
		return nil
	}
	tx := e.txns.Begin()
	defer tx.Abort()
	return e.fillIndexes(context.Background(), r, tx.Snapshot(), mem)
}

// fillIndexes adds an entry to each of idxs for every row snap sees.
func (e *Engine) fillIndexes(ctx context.Context, r *relation, snap *heap.Snapshot, idxs []*relIndex) error {
	sc := r.heap.NewScan(snap)
	sc.TrackRootTIDs()
	defer sc.Close()
	dec := newDecoder(r)
	dec.need, dec.reuse = indexColumns(r, idxs...), true // keys are copied out of the row
	blds := make([]indexBuilder, len(idxs))
	for i, ri := range idxs {
		blds[i] = ri.ix.NewBuilder(defaultMaintenanceWorkMem)
		defer blds[i].Close()
	}
	for {
		tid, tup, ok, err := sc.Next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		row, err := dec.decode(tup, tid)
		if err != nil {
			return err
		}
		for i, ri := range idxs {
			k, _ := ri.key(row)
			blds[i].Add(k, sc.RootTID()) // the HOT chain's root
		}
	}
	for _, b := range blds {
		if err := b.Finish(); err != nil {
			return err
		}
	}
	return nil
}

// rel returns the open relation of table oid.
func (e *Engine) rel(oid uint32) (*relation, error) {
	e.mu.RLock()
	r := e.mu.rels[oid]
	e.mu.RUnlock()
	if r == nil {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation with OID %d does not exist", oid)
	}
	return r, nil
}

// relByName returns the open relation called name.
func (e *Engine) relByName(name string) (*relation, error) {
	t, ok := e.cat.Table(name)
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", name)
	}
	return e.rel(t.OID)
}

func (e *Engine) String() string { return fmt.Sprintf("minipg engine %s", e.cfg.DataDir) }

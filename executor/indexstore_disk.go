package executor

// diskStore: an index kept in a relation file of its own, a B-tree of
// storage/nbtree read and written through the shared buffer pool and
// WAL-logged (the Btree resource manager), opened as it is at start-up.
// Entries are the key's order-preserving encoding (relIndex.appendKey, as
// the in-memory indexes encode it) followed by the TID (nbtree.AppendTID).

import (
	"path/filepath"
	"strconv"

	"minipg/catalog"
	"minipg/index"
	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/storage/nbtree"
	"minipg/storage/page"
	"minipg/types"
)

// diskStore is an indexStore in an nbtree relation.
type diskStore struct {
	e     *Engine
	ri    *relIndex
	table string // the indexed table's name (errors)
	rel   buffer.RelFileNode
	ix    *nbtree.Index
}

// openDiskStore opens ri's index file (made by a build or
// createEmptyIndex; nothing is read until it is used). A multi-column
// index tells the tree how to find the length of its first column in an
// entry (for the types whose encoding says it in its first byte), so that
// its leaf splits recognise localized ascending inserts (an order's lines,
// a district's orders) and leave full pages behind them.
func (e *Engine) openDiskStore(r *relation, ri *relIndex) *diskStore {
	rel := buffer.RelFileNode(ri.def.RelFileNode)
	opts := e.nbtreeOptions(ri.def)
	if len(ri.types) > 1 {
		t, f := ri.types[0], ri.keyFormat()
		opts.LeadingColumnLen = func(entry []byte) int { return types.KeyValueLen(t, entry, f) }
	}
	return &diskStore{e: e, ri: ri, table: r.def.Name, rel: rel, ix: nbtree.Open(e.pool, rel, opts)}
}

// indexFillFactor is the storage parameter of an index's leaf fillfactor.
const indexFillFactor = "fillfactor"

// nbtreeOptions are the options of disk index def: its fillfactor, and
// the transaction manager, which dates page deletions (a deleted page is
// reused once no transaction running at its deletion is left).
func (e *Engine) nbtreeOptions(def catalog.Index) nbtree.Options {
	opts := nbtree.Options{WAL: e.walLog()}
	if ff, err := strconv.Atoi(def.Options[indexFillFactor]); err == nil {
		opts.FillFactor = ff
	}
	if e.txns != nil {
		opts.Horizon = e.txns
	}
	return opts
}

// entry encodes (key, tid) as an nbtree entry.
func (d *diskStore) entry(key index.Key, tid page.TID) []byte {
	return nbtree.AppendTID(d.ri.appendKey(make([]byte, 0, 32), key), tid)
}

// checkSize refuses an entry too big for a page with PostgreSQL's error
// (_bt_check_third_page), naming the index and the tuple.
func (d *diskStore) checkSize(entry []byte, tid page.TID) error {
	if len(entry) <= nbtree.MaxEntrySize {
		return nil
	}
	return pgerr.New(pgerr.ProgramLimitExceeded, "index row size %d exceeds btree version 4 maximum %d for index \"%s\"",
		len(entry), nbtree.MaxEntrySize, d.ri.def.Name).
		WithDetail("Index row references tuple (%d,%d) in relation \"%s\".", tid.Block, tid.Offset, d.table).
		WithHint("Values larger than 1/3 of a buffer page cannot be indexed.\nConsider a function index of an MD5 hash of the value, or use full text indexing.")
}

func (d *diskStore) Insert(key index.Key, tid page.TID) error {
	e := d.entry(key, tid)
	if err := d.checkSize(e, tid); err != nil {
		return err
	}
	return d.ix.Insert(e)
}

// InsertUnique runs check under the exclusive lock of the first leaf page
// the key can be on (nbtree.InsertUnique, PostgreSQL's _bt_check_unique).
func (d *diskStore) InsertUnique(key index.Key, tid page.TID, check func([]page.TID) (bool, error)) (bool, error) {
	e := d.entry(key, tid)
	if err := d.checkSize(e, tid); err != nil {
		return false, err
	}
	return d.ix.InsertUnique(e, nbtree.UniqueCheck(check))
}

func (d *diskStore) Delete(key index.Key, tid page.TID) error {
	_, err := d.ix.Delete(d.entry(key, tid))
	return err
}

func (d *diskStore) DeleteFreeing(keys []index.Key, tids []page.TID) error {
	entries := make([][]byte, len(keys))
	for i, key := range keys {
		entries[i] = d.entry(key, tids[i])
	}
	_, err := d.ix.DeleteFreeing(entries)
	return err
}

func (d *diskStore) DeleteTIDs(tids map[page.TID]struct{}, point nbtree.VacuumPoint, s *buffer.Strategy) (int, error) {
	return d.ix.DeleteTIDsWith(tids, point, s)
}

func (d *diskStore) VacuumCleanup(point nbtree.VacuumPoint, s *buffer.Strategy) error {
	return d.ix.VacuumCleanupWith(point, s)
}

func (d *diskStore) NewIterator(lo, hi index.Bound, reverse bool) indexIterator {
	var l, h nbtree.Bound
	if lo.Key != nil {
		l = nbtree.Bound{Key: d.ri.appendKey(nil, lo.Key), Inclusive: lo.Inclusive}
	}
	if hi.Key != nil {
		h = nbtree.Bound{Key: d.ri.appendKey(nil, hi.Key), Inclusive: hi.Inclusive}
	}
	return d.ix.NewIterator(l, h, reverse)
}

// Check runs nbtree's structure check (bt_index_check).
func (d *diskStore) Check() (nbtree.CheckStats, error) { return d.ix.Check() }

// Size is the index file's size in bytes.
func (d *diskStore) Size() (int64, error) {
	n, err := d.e.pool.NBlocks(d.rel, buffer.MainFork)
	return int64(n) * page.BlockSize, err
}

// FSMSize is the size of the index's free space map (its FSM fork, where
// VACUUM records the deleted pages splits may reuse); 0 when it has none.
func (d *diskStore) FSMSize() (int64, error) {
	n, err := d.e.pool.NBlocks(d.rel, buffer.FSMFork)
	return int64(n) * page.BlockSize, err
}

// diskStoreByName returns the disk store of the index called name, or nil
// if there is no such index or it is kept in memory.
func (e *Engine) diskStoreByName(name string) (*diskStore, error) {
	t, idx, ok := e.cat.IndexByName(name)
	if !ok || !idx.OnDisk() {
		return nil, nil
	}
	r, err := e.rel(t.OID)
	if err != nil {
		return nil, err
	}
	if ri := r.indexByOID(idx.OID); ri != nil {
		d, _ := ri.ix.(*diskStore)
		return d, nil
	}
	return nil, nil
}

// indexByOID returns r's index with that OID, or nil.
func (r *relation) indexByOID(oid uint32) *relIndex {
	for _, ri := range r.indexes {
		if ri.def.OID == oid {
			return ri
		}
	}
	return nil
}

func (d *diskStore) NewBuilder(mem int64) indexBuilder {
	return &diskBuilder{d: d, mem: mem, tmpDir: filepath.Join(d.e.cfg.DataDir, "base", "pgsql_tmp")}
}

// createEmptyIndex makes the file rfn of a disk index of a table being
// created or truncated, holding an empty index, and flushes its WAL.
func (e *Engine) createEmptyIndex(rfn uint32) error {
	if _, err := nbtree.Create(e.pool, buffer.RelFileNode(rfn), e.nbtreeOptions(catalog.Index{})); err != nil {
		return err
	}
	return e.walLog().FlushAll()
}

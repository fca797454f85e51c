package executor

// amcheck 1.3 (PostgreSQL 15's contrib module), in part, built in and
// visible while the extension is installed (extension.go):
//
//	bt_index_check(index regclass) void
//	bt_index_check(index regclass, heapallindexed boolean) void
//
// It verifies a disk index (index_storage = disk) with storage/nbtree's
// checker (the structure: page order, high keys, sibling links, downlinks;
// more than PostgreSQL's bt_index_check, about what its
// bt_index_parent_check does) and, with heapallindexed, that every row
// version a fresh snapshot sees in the table has its entry (PostgreSQL
// fingerprints the index into a Bloom filter; minipg keeps the entries in
// a set). A problem is an XX002 index_corrupted error; success is void.
// The table is locked exclusively while the check runs (nbtree's checker
// needs the index without writers). An index kept in memory cannot be
// checked: 0A000.

import (
	"context"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/nbtree"
	"minipg/types"
)

func init() {
	const ext = "amcheck"
	fn := func(env any, args []types.Datum, _ *sql.Func) (types.Datum, error) {
		ec := env.(*evalCtx)
		heapAll := len(args) > 1 && args[1].(bool)
		oid, _ := types.OIDValue(args[0])
		if err := ec.btIndexCheck(oid, heapAll); err != nil {
			return nil, err
		}
		return "", nil // void
	}
	sql.RegisterBuiltin(sql.Builtin{Name: "bt_index_check", Args: oids(types.RegClass), Result: types.Void,
		Volatility: sql.Volatile, Strict: true, Extension: ext, Fn: fn})
	sql.RegisterBuiltin(sql.Builtin{Name: "bt_index_check", Args: oids(types.RegClass, types.Bool), Result: types.Void,
		Volatility: sql.Volatile, Strict: true, Extension: ext, Fn: fn})
}

// btIndexCheck is bt_index_check(oid, heapallindexed).
func (ec *evalCtx) btIndexCheck(oid uint32, heapAll bool) error {
	e := ec.s.e
	ri := e.indexByOID(oid)
	if ri == nil {
		if name := e.relationName(oid); name != "" {
			return pgerr.New(pgerr.WrongObjectType, "\"%s\" is not an index", name)
		}
		return pgerr.New(pgerr.UndefinedTable, "could not open relation with OID %d", oid)
	}
	name := ri.def.Name
	t, idx, ok := e.cat.IndexByName(name)
	if !ok {
		return pgerr.New(pgerr.UndefinedTable, "could not open relation with OID %d", oid)
	}
	if !idx.OnDisk() {
		return pgerr.New(pgerr.FeatureNotSupported, "index \"%s\" is kept in memory", name).
			WithDetail("bt_index_check verifies indexes stored on disk.").
			WithHint("Indexes created while the server runs with index_storage = disk are stored on disk.")
	}
	ctx := context.Background()
	if ec.x != nil {
		ctx = ec.x.ctx
		if ec.x.pt != nil && ec.x.pt.shared[t.OID] {
			return pgerr.New(pgerr.ObjectInUse, "cannot check index \"%s\" in a statement that reads table \"%s\"", name, t.Name)
		}
	}
	release, err := e.txns.LockRelation(ctx, t.OID, true)
	if err != nil {
		return mapCtxErr(ctx, err)
	}
	defer release()
	r, err := e.rel(t.OID)
	if err != nil {
		return err
	}
	if ri = r.indexByOID(oid); ri == nil {
		return pgerr.New(pgerr.UndefinedTable, "could not open relation with OID %d", oid) // dropped meanwhile
	}
	d, ok := ri.ix.(*diskStore)
	if !ok {
		return pgerr.New(pgerr.FeatureNotSupported, "index \"%s\" is kept in memory", name)
	}
	if _, err := d.Check(); err != nil {
		return err
	}
	if heapAll {
		return e.checkHeapAllIndexed(ctx, r, ri, d)
	}
	return nil
}

// checkHeapAllIndexed verifies that every row version a new snapshot sees
// in r has its entry in d (at the root of its HOT chain), as amcheck's
// heapallindexed does. The caller holds r's exclusive lock.
func (e *Engine) checkHeapAllIndexed(ctx context.Context, r *relation, ri *relIndex, d *diskStore) error {
	entries := map[string]struct{}{}
	it := d.ix.NewIterator(nbtree.Bound{}, nbtree.Bound{}, false)
	for {
		if _, ok := it.Next(); !ok {
			break
		}
		entries[string(it.Entry())] = struct{}{}
	}
	if err := it.Err(); err != nil {
		return err
	}
	tx := e.txns.Begin()
	defer tx.Abort()
	sc := r.heap.NewScan(tx.Snapshot())
	sc.TrackRootTIDs()
	defer sc.Close()
	dec := newDecoder(r)
	dec.need = indexColumns(r, ri)
	var buf []byte
	for n := 0; ; n++ {
		if n%checkEvery == 0 {
			if err := canceled(ctx); err != nil {
				return err
			}
		}
		tid, tup, ok, err := sc.Next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		row, err := dec.decode(tup, tid)
		if err != nil {
			return err
		}
		key, _ := ri.key(row)
		root := sc.RootTID()
		buf = nbtree.AppendTID(ri.appendKey(buf[:0], key), root)
		if _, ok := entries[string(buf)]; !ok {
			return pgerr.New(pgerr.IndexCorrupted, "heap tuple (%d,%d) from table \"%s\" lacks matching index tuple within index \"%s\"",
				root.Block, root.Offset, r.def.Name, ri.def.Name)
		}
	}
}

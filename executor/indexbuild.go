package executor

import (
	"errors"

	"minipg/index"
	"minipg/pgerr"
	"minipg/storage/heap"
	"minipg/storage/page"
)

// buildIndex fills ri, a new index of x.rel, from the heap; the caller
// holds the table's exclusive lock. Every row version that anyone may still
// see (SnapshotAny minus the certainly dead; a version this transaction
// deleted is not, as it may abort) gets an entry pointing at the root of
// its HOT chain (heap_get_root_tuples), and a unique ri is checked among
// the live versions (23505 "could not create unique index").
//
// notNull lists columns about to become NOT NULL: the first live version in
// heap order with a NULL in one of them is reported as nullCol (the first
// such column in attribute order; -1 if none) for the caller to raise once
// all of its statement's indexes are built, as PostgreSQL verifies new NOT
// NULL columns after the indexes.
//
// A version whose inserter or deleter (another transaction) is still
// running makes a unique build or a NOT NULL check stop and return that
// transaction as wait: PostgreSQL's ALTER TABLE and CREATE UNIQUE INDEX
// would have waited for it (for their table lock), and so must the caller,
// after releasing the table lock, before starting over. The entries added
// so far are garbage then.
func (x *execCtx) buildIndex(ri *relIndex, notNull []int) (nullCol int, wait uint32, err error) {
	r, ctx := x.rel, x.ctx
	nullCol = -1
	nblocks, err := r.heap.NBlocks()
	if err != nil {
		return -1, 0, err
	}
	dec := newDecoder(r)
	dec.need, dec.reuse = indexColumns(r, ri), true // keys are copied out of the row
	for _, c := range notNull {
		dec.need[c] = true
	}
	bld := ri.ix.NewBuilder(x.s.maintenanceWorkMem())
	defer bld.Close()
	// A disk index checks uniqueness as it sorts (so that the check too
	// stays within maintenance_work_mem); a memory index here, in the
	// order of the heap.
	ub, sorted := bld.(uniqueSortBuilder)
	seen := map[string]struct{}{} // encoded keys of live rows (unique, memory)
	for blk := uint32(0); blk < nblocks; blk++ {
		if err := canceled(ctx); err != nil {
			return -1, 0, err
		}
		roots, err := r.heap.HotRoots(blk)
		if err != nil {
			return -1, 0, err
		}
		// len(roots) is the page's MaxOffset+1 (no tuples beyond it, and the
		// exclusive lock keeps inserters out).
		for off := uint16(1); int(off) < len(roots); off++ {
			tid := page.TID{Block: blk, Offset: off}
			tup, ok, err := r.heap.FetchAny(tid)
			if err != nil {
				return -1, 0, err
			}
			if !ok {
				continue
			}
			live, w := heap.SatisfiesDirty(tup, x.s.ownXids(), x.s.e.txns)
			if !live && w == 0 && !heap.DeletedBy(tup, x.s.ownXids()) {
				continue // dead whatever this transaction does
			}
			if w != 0 && (ri.def.Unique || len(notNull) > 0) {
				return -1, w, nil
			}
			row, err := dec.decode(tup, tid)
			if err != nil {
				return -1, 0, err
			}
			if nullCol < 0 && live {
				for _, c := range notNull {
					if row[c] == nil && (nullCol < 0 || c < nullCol) {
						nullCol = c
					}
				}
			}
			key, hasNull := ri.key(row)
			root := tid
			if roots[off] != 0 {
				root.Offset = roots[off]
			}
			if sorted && ri.def.Unique {
				ub.AddUnique(key, root, tid, !hasNull && live)
				continue
			}
			// enc is the key's encoding, equal for equal keys.
			enc := bld.Add(key, root)
			if ri.def.Unique && !hasNull && live {
				if _, dup := seen[enc]; dup {
					return -1, 0, uniqueBuildError(r, ri, key)
				}
				seen[enc] = struct{}{}
			}
		}
	}
	if err := bld.Finish(); err != nil {
		var de *dupKeyError
		if errors.As(err, &de) {
			return -1, 0, x.uniqueBuildErrorAt(ri, dec, de.at)
		}
		return -1, 0, err
	}
	return nullCol, 0, nil
}

// uniqueSortBuilder is an indexBuilder that checks a unique index's keys
// as it sorts them (diskBuilder): Finish returns a *dupKeyError naming a
// version with a duplicated key.
type uniqueSortBuilder interface {
	AddUnique(key index.Key, tid, at page.TID, checked bool)
}

// uniqueBuildErrorAt is uniqueBuildError for the key of the version at
// (still there: the caller holds the table's exclusive lock).
func (x *execCtx) uniqueBuildErrorAt(ri *relIndex, dec *decoder, at page.TID) error {
	tup, ok, err := x.rel.heap.FetchAny(at)
	if err != nil {
		return err
	}
	if !ok {
		return pgerr.New(pgerr.InternalError, "could not create unique index \"%s\": duplicated version (%d,%d) is gone", ri.def.Name, at.Block, at.Offset)
	}
	row, err := dec.decode(tup, at)
	if err != nil {
		return err
	}
	key, _ := ri.key(row)
	return uniqueBuildError(x.rel, ri, key)
}

func uniqueBuildError(r *relation, ri *relIndex, key index.Key) error {
	names, vals := r.keyText(ri, key)
	return pgerr.New(pgerr.UniqueViolation, "could not create unique index \"%s\"", ri.def.Name).
		WithDetail("Key (%s)=(%s) is duplicated.", names, vals).
		WithTable(publicSchema, r.def.Name).WithConstraint(ri.def.Name)
}

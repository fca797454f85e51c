package executor

// VACUUM FULL and CLUSTER: the table is written anew, as PostgreSQL's
// cluster.c and rewriteheap.c write it, under its exclusive lock once no transaction
// that changed it is still running: its live row versions, in TID order
// (CLUSTER: in the order of an index's key, ties in TID order), onto new
// pages filled to the fill factor one after the other, each
// page logged as a full image; every copy keeps its xmin, xmax and cmin
// (storage/heap/rewrite.go). Then the indexes are built anew and the
// catalog switches the table to the new files, as ALTER COLUMN TYPE's
// rewrite does (altertype.go), and the old files go. The statistics get
// the new size.

import (
	"bytes"
	"context"
	"slices"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/pgstat"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/storage/page"
)

// vacuumFull rewrites table oid; a table dropped meanwhile is skipped.
func (s *Session) vacuumFull(ctx context.Context, pt *Portal, oid uint32) error {
	return s.rewriteLive(ctx, pt, oid, 0)
}

// rewriteLive rewrites table oid with its live rows in TID order, or in
// the key order of index byIndex (CLUSTER) when it is not 0, and records
// the new size; a table dropped meanwhile is skipped.
func (s *Session) rewriteLive(ctx context.Context, pt *Portal, oid, byIndex uint32) error {
	var live int64
	err := s.underTableLock(ctx, oid, func() (uint32, error) {
		r, err := s.e.rel(oid)
		if err != nil {
			return 0, nil // dropped
		}
		var order *relIndex
		for _, ri := range r.indexes {
			if ri.def.OID == byIndex {
				order = ri
			}
		}
		if byIndex != 0 && order == nil {
			return 0, pgerr.New(pgerr.UndefinedObject, "index with OID %d of table \"%s\" is gone", byIndex, r.def.Name)
		}
		live = 0
		copyLive := func(x *execCtx, r, nr *relation) error {
			n, err := x.copyLive(r, nr, order)
			live = n
			return err
		}
		return s.rewriteTable(ctx, pt, r, r.def.Clone(), copyLive, nil, nil, nil)
	})
	if err != nil {
		return err
	}
	r, err := s.e.rel(oid)
	if err != nil {
		return nil
	}
	n, err := r.heap.NBlocks()
	if err != nil {
		return err
	}
	return s.e.stats.SetRelSize(oid, pgstat.RelSize{RelPages: n, RelTuples: float64(live)})
}

// cluster runs CLUSTER: one table on the named index (which it marks
// clustered) or on the one marked before, or, without a table, every
// table that has a clustered index.
func (s *Session) cluster(ctx context.Context, pt *Portal, st *sql.Cluster) (string, error) {
	if s.explicit {
		if st.Table == nil {
			return "", pgerr.New(pgerr.ActiveSQLTransaction, "CLUSTER cannot run inside a transaction block")
		}
		// minipg's rewrite does not follow the transaction (altertype.go).
		return "", pgerr.New(pgerr.FeatureNotSupported, "CLUSTER inside a transaction block is not supported")
	}
	if st.Table == nil {
		for _, t := range s.e.cat.Tables() {
			for _, idx := range t.Indexes {
				if idx.Clustered {
					if err := s.rewriteLive(ctx, pt, t.OID, idx.OID); err != nil {
						return "", mapCtxErr(ctx, err)
					}
				}
			}
		}
		return "CLUSTER", nil
	}
	t, ok := s.e.cat.TableByOID(st.Table.OID)
	if !ok {
		return "", pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", st.Table.Name)
	}
	var idx *catalog.Index
	for i := range t.Indexes {
		if st.Index == "" && t.Indexes[i].Clustered || st.Index != "" && t.Indexes[i].Name == st.Index {
			idx = &t.Indexes[i]
		}
	}
	switch {
	case idx == nil && st.Index == "":
		return "", pgerr.New(pgerr.UndefinedObject, "there is no previously clustered index for table \"%s\"", t.Name)
	case idx == nil && s.e.cat.RelationExists(st.Index):
		return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not an index", st.Index)
	case idx == nil:
		return "", pgerr.New(pgerr.UndefinedObject, "index \"%s\" for table \"%s\" does not exist", st.Index, t.Name)
	}
	if _, err := s.e.cat.SetClustered(t.OID, idx.OID); err != nil {
		return "", err
	}
	if err := s.rewriteLive(ctx, pt, t.OID, idx.OID); err != nil {
		return "", mapCtxErr(ctx, err)
	}
	return "CLUSTER", nil
}

// copyLive copies the live row versions of r into nr, formed anew (a
// dropped column's value NULL, an added column's stored) and keeping their
// visibility, in TID order or, with order, in that index's key order, and
// returns how many it copied.
func (x *execCtx) copyLive(r, nr *relation, order *relIndex) (int64, error) {
	w := nr.heap.NewRewriteWriter()
	dec := newDecoder(r)
	oracle := x.s.e.txns
	type sortedCopy struct {
		key []byte
		tup []byte
	}
	var sorted []sortedCopy
	var n int64
	err := scanVersions(x.ctx, r, func(tid page.TID, tup []byte) (bool, error) {
		switch fate, wait := heap.RewriteFate(tup, x.s.ownXids(), oracle); {
		case wait != 0:
			return false, pgerr.New(pgerr.InternalError, "rewrite of \"%s\" met transaction %d still running", r.def.Name, wait)
		case fate == heap.CopyNone:
			return true, nil
		case fate != heap.CopyFrozen:
			return false, pgerr.New(pgerr.InternalError, "rewrite of \"%s\" met a row version of its own transaction", r.def.Name)
		}
		row, err := dec.decode(tup, tid)
		if err != nil {
			return false, err
		}
		copyTup, err := nr.encode(row)
		if err != nil {
			return false, err
		}
		heap.RewriteHeader(copyTup, tup, oracle)
		n++
		if order != nil {
			k, _ := order.key(row)
			sorted = append(sorted, sortedCopy{key: order.appendKey(nil, k), tup: copyTup})
			return true, nil
		}
		_, err = w.Add(copyTup)
		return err == nil, err
	})
	if err != nil {
		return n, err
	}
	// The key encoding orders as the index does (NULLs last); a stable
	// sort keeps equal keys in TID order.
	slices.SortStableFunc(sorted, func(a, b sortedCopy) int { return bytes.Compare(a.key, b.key) })
	for _, c := range sorted {
		if _, err := w.Add(c.tup); err != nil {
			return n, err
		}
	}
	return n, w.Finish()
}

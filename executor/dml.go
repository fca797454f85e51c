package executor

import (
	"strings"

	"minipg/index"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/types"
)

// checkNotNull raises 23502 for a NULL in a NOT NULL column.
func (r *relation) checkNotNull(row []types.Datum) error {
	for i, c := range r.def.Columns {
		if c.NotNull && row[i] == nil {
			return pgerr.New(pgerr.NotNullViolation, "null value in column \"%s\" of relation \"%s\" violates not-null constraint", c.Name, r.def.Name).
				WithDetail("Failing row contains (%s).", r.formatRow(row)).
				WithTable(publicSchema, r.def.Name).WithColumn(c.Name)
		}
	}
	return nil
}

// formatRow is a row as "Failing row contains (...)" shows it: the
// values of the columns not dropped.
func (r *relation) formatRow(row []types.Datum) string {
	parts := make([]string, 0, len(r.types))
	for i, t := range r.types {
		switch {
		case r.isDropped(i):
		case row[i] == nil:
			parts = append(parts, "null")
		default:
			parts = append(parts, types.FormatText(t, row[i]))
		}
	}
	return strings.Join(parts, ", ")
}

func (ri *relIndex) keyEqual(key index.Key, row []types.Datum) bool {
	for i, c := range ri.cols {
		if row[c] == nil || key[i] == nil {
			if row[c] != key[i] {
				return false
			}
			continue
		}
		if types.Compare(ri.types[i], key[i], row[c]) != 0 {
			return false
		}
	}
	return true
}

func (r *relation) uniqueViolation(ri *relIndex, key index.Key) error {
	names, vals := r.keyText(ri, key)
	return pgerr.New(pgerr.UniqueViolation, "duplicate key value violates unique constraint \"%s\"", ri.def.Name).
		WithDetail("Key (%s)=(%s) already exists.", names, vals).
		WithTable(publicSchema, r.def.Name).WithConstraint(ri.def.Name)
}

// keyText gives an index key's column names and values as the details of
// unique violations print them.
func (r *relation) keyText(ri *relIndex, key index.Key) (names, vals string) {
	var ns, vs []string
	for i, c := range ri.cols {
		ns = append(ns, r.def.Columns[c].Name)
		vs = append(vs, types.FormatText(ri.types[i], key[i]))
	}
	return strings.Join(ns, ", "), strings.Join(vs, ", ")
}

// publicSchema is the schema of every table (minipg has no other).
const publicSchema = "public"

// setIndexAttrs tells the heap which columns r's indexes cover, for its HOT
// decision (an update that changes none of them and stays on its page makes
// no index entries) and HEAP_KEYS_UPDATED (columns of unique indexes). Call
// it whenever r.indexes changes, under the exclusive relation lock.
func setIndexAttrs(r *relation) {
	var a heap.IndexAttrs
	for _, ri := range r.indexes {
		a.Indexed = append(a.Indexed, ri.cols...)
		if ri.def.Unique || ri.def.Primary {
			a.Key = append(a.Key, ri.cols...)
		}
	}
	r.heap.SetIndexAttrs(a)
}

// insertIndexEntries adds row's entries (at tid) to every index of x.rel,
// checking unique indexes: a live row with the same key (heap.SatisfiesDirty)
// raises 23505; a row whose inserter or deleter is still running is waited
// for, then rechecked.
//
// old is the previous version of the row for an UPDATE (nil for INSERT): a
// unique key it already had needs no check, since the old version held it.
func (x *execCtx) insertIndexEntries(row []types.Datum, tid page.TID, old []types.Datum) error {
	r := x.rel
	for _, ri := range r.indexes {
		key, hasNull := ri.key(row)
		if !ri.def.Unique || hasNull || (old != nil && ri.keyEqual(key, old)) {
			if err := ri.ix.Insert(key, tid); err != nil {
				return err
			}
			continue
		}
		for {
			var dead []page.TID
			inserted, err := ri.ix.InsertUnique(key, tid, func(others []page.TID) (bool, error) {
				return x.uniqueCheck(ri, key, others, &dead)
			})
			for _, d := range dead {
				// Pruned to a dead line pointer: the entry is useless
				// (VACUUM would drop it before the TID is reused).
				if derr := ri.ix.Delete(key, d); derr != nil && err == nil {
					err = derr
				}
			}
			if wait := waitXidOf(err); wait != 0 {
				if err := x.tx.WaitFor(x.ctx, wait); err != nil {
					return mapCtxErr(x.ctx, err)
				}
				continue
			}
			if err != nil {
				return err
			}
			if !inserted {
				return r.uniqueViolation(ri, key)
			}
			break
		}
	}
	return nil
}

// uniqueCheck decides whether key may go into the unique index ri, given
// the TIDs of the other entries with the key (PostgreSQL's
// _bt_check_unique): false if one is a live row with the key, errWaitXid
// if one's inserter or deleter is still running, true otherwise. TIDs whose
// HOT chain is all dead go to *dead, for the caller to delete once the
// index is no longer locked.
func (x *execCtx) uniqueCheck(ri *relIndex, key index.Key, others []page.TID, dead *[]page.TID) (bool, error) {
	r := x.rel
	for _, other := range others {
		// other is the root of a HOT chain: check its live member.
		_, tup, ok, allDead, err := r.heap.FetchHotMatch(other, func(t []byte) bool {
			live, _ := heap.SatisfiesDirty(t, x.xid, x.s.e.txns)
			return live
		})
		if err != nil {
			return false, err
		}
		if !ok {
			if allDead {
				*dead = append(*dead, other)
			}
			continue
		}
		live, w := heap.SatisfiesDirty(tup, x.xid, x.s.e.txns)
		if !live {
			continue
		}
		orow, err := newDecoder(r).decode(tup, other)
		if err != nil {
			return false, err
		}
		if !ri.keyEqual(key, orow) {
			continue // stale entry
		}
		if w != 0 {
			return false, errWaitXid{w}
		}
		return false, nil
	}
	return true, nil
}

// insertRow stores one new row (values for the table's columns).
func (x *execCtx) insertRow(row []types.Datum) (page.TID, error) {
	r := x.rel
	if err := r.checkNotNull(row); err != nil {
		return page.TID{}, err
	}
	if err := x.checkConstraints(r, row); err != nil {
		return page.TID{}, err
	}
	tup, err := r.encode(row)
	if err != nil {
		return page.TID{}, err
	}
	x.s.ist.RowShares(x.s.lastIns.shares(x, row))
	tid, err := r.heap.Insert(tup, x.xid, x.cid, x.s.ist)
	if err != nil {
		x.s.lastIns.forget()
		return page.TID{}, err
	}
	x.s.lastIns.remember(x, row)
	x.countInsert(1)
	row[len(r.types)] = tid
	if err := x.insertIndexEntries(row, tid, nil); err != nil {
		return page.TID{}, err
	}
	if len(r.def.ForeignKeys) > 0 {
		if err := x.checkReferencing(r, row, nil); err != nil {
			return page.TID{}, err
		}
	}
	return tid, nil
}

// lastInserted is the leading columns of the row a session inserted
// last, with its table and transaction: the heap's insert path tells by
// them which rows form groups (heap.InsertState.RowShares), as an order's
// lines share warehouse, district and order.
type lastInserted struct {
	oid, xid uint32 // oid 0: none
	lead     []types.Datum
}

// maxSharedColumns is how many leading columns lastInserted compares.
const maxSharedColumns = 8

// shares is how many leading columns row, about to be inserted into x's
// table, shares with the last row: -1 when that row was inserted into
// another table or by another transaction.
func (l *lastInserted) shares(x *execCtx, row []types.Datum) int {
	r := x.rel
	if l.oid != r.def.OID || l.xid != x.xid {
		return -1
	}
	n := 0
	for n < len(l.lead) && row[n] != nil && l.lead[n] != nil && types.Compare(r.types[n], l.lead[n], row[n]) == 0 {
		n++
	}
	return n
}

// remember makes row, just inserted into x's table, the last row. Its
// values are kept as they are: a value a later statement changed in place
// would only make a group start or end where it does not.
func (l *lastInserted) remember(x *execCtx, row []types.Datum) {
	l.oid, l.xid = x.rel.def.OID, x.xid
	l.lead = append(l.lead[:0], row[:min(len(x.rel.types), maxSharedColumns)]...)
}

// forget drops the last row (at the end of a transaction, so that its
// values are not kept).
func (l *lastInserted) forget() {
	clear(l.lead)
	l.oid, l.lead = 0, l.lead[:0]
}

func (x *execCtx) returning(exprs []sql.Expr, row []types.Datum) error {
	if x.emitReturning == nil {
		return nil
	}
	out := make([]types.Datum, len(exprs))
	for i, e := range exprs {
		v, err := x.ev.eval(e, row)
		if err != nil {
			return err
		}
		out[i] = v
	}
	x.emitReturning(out)
	return nil
}

func (x *execCtx) insert(st *sql.Insert) (int64, error) {
	r := x.rel
	ncols := len(r.types)
	given := make([]bool, ncols)
	for _, c := range st.Cols {
		given[c] = true
	}
	build := func(vals []types.Datum, dflt []bool) ([]types.Datum, error) {
		row := make([]types.Datum, ncols+1)
		need := make([]bool, ncols)
		for c := range need {
			need[c] = !given[c]
		}
		for i, c := range st.Cols {
			if dflt != nil && dflt[i] {
				need[c] = true
				continue
			}
			row[c] = vals[i]
		}
		for c := 0; c < ncols; c++ {
			if !need[c] || st.Defaults[c] == nil {
				continue
			}
			v, err := x.ev.eval(st.Defaults[c], nil)
			if err != nil {
				return nil, err
			}
			row[c] = v
		}
		return row, nil
	}
	var n int64
	emit := func(row []types.Datum) error {
		if _, err := x.insertRow(row); err != nil {
			return err
		}
		n++
		if n%checkEvery == 0 {
			if err := canceled(x.ctx); err != nil {
				return err
			}
		}
		return x.returning(st.Returning, row)
	}
	if st.Source != nil {
		var src rowIter
		var err error
		sx := *x
		sx.emitReturning = nil
		if st.Source.Table != nil {
			if sx.rel, err = x.openRel(st.Source.Table.OID); err != nil {
				return 0, err
			}
		} else {
			sx.rel = nil
		}
		if src, err = sx.buildSelect(st.Source); err != nil {
			return 0, err
		}
		src = x.explainedSource(src)
		defer src.Close()
		for {
			vals, ok, err := src.Next(x.ctx)
			if err != nil {
				return n, err
			}
			if !ok {
				return n, nil
			}
			row, err := build(vals, nil)
			if err != nil {
				return n, err
			}
			if err := emit(row); err != nil {
				return n, err
			}
		}
	}
	for _, exprs := range st.Values {
		vals := make([]types.Datum, len(exprs))
		dflt := make([]bool, len(exprs))
		for i, e := range exprs {
			if e == nil {
				dflt[i] = true
				continue
			}
			v, err := x.ev.eval(e, nil)
			if err != nil {
				return n, err
			}
			vals[i] = v
		}
		row, err := build(vals, dflt)
		if err != nil {
			return n, err
		}
		if err := emit(row); err != nil {
			return n, err
		}
	}
	return n, nil
}

// modify applies fn (Update or Delete of the version at tid) with
// PostgreSQL's READ COMMITTED rules: wait for a running modifier, follow a
// committed update to the newest version and recheck it there
// (EvalPlanQual: recheck says whether that version still qualifies). It
// returns the row it was applied to, or ok=false if the row is gone or no
// longer qualifies.
func (x *execCtx) modify(row []types.Datum, recheck func(next []types.Datum) (bool, error), fn func(row []types.Datum, tid page.TID) (heap.Result, heap.FailureData, error)) ([]types.Datum, bool, error) {
	r := x.rel
	ncols := len(r.types)
	for {
		tid := row[ncols].(page.TID)
		res, fd, err := fn(row, tid)
		if err != nil {
			return nil, false, err
		}
		switch res {
		case heap.TMOk:
			return row, true, nil
		case heap.TMSelfModified, heap.TMDeleted, heap.TMInvisible:
			return nil, false, nil
		case heap.TMBeingModified:
			if err := x.tx.WaitFor(x.ctx, fd.Xmax); err != nil {
				return nil, false, mapCtxErr(x.ctx, err)
			}
			continue
		case heap.TMUpdated:
			next, ok, err := x.fetchNewer(fd.Ctid, fd.Xmax)
			if err != nil || !ok {
				return nil, false, err
			}
			pass, err := recheck(next)
			if err != nil {
				return nil, false, err
			}
			if !pass {
				return nil, false, nil
			}
			row = next
		default:
			return nil, false, pgerr.New(pgerr.InternalError, "unexpected heap result %v", res)
		}
	}
}

// fetchNewer reads the version at tid that transaction updater created,
// waiting while its inserter runs.
func (x *execCtx) fetchNewer(tid page.TID, updater uint32) ([]types.Datum, bool, error) {
	for {
		if err := canceled(x.ctx); err != nil {
			return nil, false, err
		}
		tup, ok, err := x.rel.heap.FetchAny(tid)
		if err != nil || !ok {
			return nil, false, err
		}
		xmin := heap.Xmin(tup)
		if updater != 0 && xmin != updater {
			return nil, false, nil // the slot was reused: the row is gone
		}
		if xmin != x.xid {
			switch x.s.e.txns.Status(xmin) {
			case heap.XidAborted:
				return nil, false, nil
			case heap.XidInProgress:
				if err := x.tx.WaitFor(x.ctx, xmin); err != nil {
					return nil, false, mapCtxErr(x.ctx, err)
				}
				continue
			}
		}
		row, err := newDecoder(x.rel).decode(tup, tid)
		return row, err == nil, err
	}
}

// whereCheck is modify's recheck of a newer version of a row of x.rel:
// where evaluated over it.
func (x *execCtx) whereCheck(where sql.Expr) func(next []types.Datum) (bool, error) {
	return func(next []types.Datum) (bool, error) { return x.ev.evalBool(where, next) }
}

// lockRow takes a FOR UPDATE lock on row, returning the (possibly newer)
// version locked.
func (x *execCtx) lockRow(row []types.Datum, where sql.Expr) ([]types.Datum, bool, error) {
	return x.modify(row, x.whereCheck(where), func(_ []types.Datum, tid page.TID) (heap.Result, heap.FailureData, error) {
		return x.rel.heap.Lock(x.snap, tid, x.xid, x.cid)
	})
}

// modifyRows is the row loop of UPDATE and DELETE: for every row of x.rel
// that satisfies where it runs apply through modify (READ COMMITTED wait,
// update-chain follow and recheck), then finish on the row it was applied
// to, which returns the row RETURNING sees (the new version for UPDATE). It
// returns the number of rows changed.
func (x *execCtx) modifyRows(where sql.Expr, returning []sql.Expr,
	apply func(old []types.Datum, tid page.TID) (heap.Result, heap.FailureData, error),
	finish func(row []types.Datum) ([]types.Datum, error), update bool) (int64, error) {
	src, err := x.stmtSource(where)
	if err != nil {
		return 0, err
	}
	defer src.Close()
	if update {
		// The rows one UPDATE changes belong together: the heap may ask
		// where they are, when a new version must leave its page, so that
		// it can join siblings the statement has not reached yet. Only for
		// a statement of a few rows, whose index entries are cheap to read
		// twice and which are related in a useful sense.
		var ahead func() []uint32
		if bp, ok := src.(blockPeeker); ok {
			ahead = func() []uint32 {
				blocks, _ := bp.peekBlocks(maxPeekEntries)
				return blocks
			}
		}
		x.s.ist.SetStatementBlocks(x.rel.heap, x.xid, ahead)
		defer x.s.ist.SetStatementBlocks(x.rel.heap, x.xid, nil)
		if uniqueLookup(src) {
			// One row, found by a unique key: no siblings to join.
			x.s.ist.SetStatementSingleRow(x.rel.heap, x.xid, true)
			defer x.s.ist.SetStatementSingleRow(x.rel.heap, x.xid, false)
		}
	}
	src = x.explainedSource(src)

	recheck := x.whereCheck(where)
	var n int64
	for {
		row, ok, err := src.Next(x.ctx)
		if err != nil {
			return n, err
		}
		if !ok {
			return n, nil
		}
		row, ok, err = x.modify(row, recheck, apply)
		if err != nil {
			return n, err
		}
		if !ok {
			continue
		}
		if row, err = finish(row); err != nil {
			return n, err
		}
		n++
		if err := x.returning(returning, row); err != nil {
			return n, err
		}
	}
}

func (x *execCtx) update(st *sql.Update) (int64, error) {
	r := x.rel
	ncols := len(r.types)
	var newRow []types.Datum
	hot := false
	// over is the row SET reads, given the old version: the version itself,
	// or the joined row of UPDATE ... FROM with it in the target's slots.
	over := func(old []types.Datum) []types.Datum { return old }
	var jr *joinedRow
	if st.From != nil {
		jr = &joinedRow{base: st.From.TargetBase(), n: ncols + 1}
		over = jr.with
	}
	apply := func(old []types.Datum, tid page.TID) (heap.Result, heap.FailureData, error) {
		newRow, hot = make([]types.Datum, ncols+1), false
		copy(newRow, old)
		in := over(old)
		// SET (a, b) = (SELECT ...): each subquery runs once for the row.
		multi := make([][]types.Datum, len(st.Multi))
		for i, sp := range st.Multi {
			vals, err := x.ev.rowSubPlan(sp, in)
			if err != nil {
				return 0, heap.FailureData{}, err
			}
			multi[i] = vals
		}
		for _, it := range st.Set {
			src := in
			if it.Multi > 0 {
				src = multi[it.Multi-1]
			}
			v, err := x.ev.eval(it.E, src)
			if err != nil {
				return 0, heap.FailureData{}, err
			}
			newRow[it.Col] = v
		}
		if err := r.checkNotNull(newRow); err != nil {
			return 0, heap.FailureData{}, err
		}
		if err := x.checkConstraints(r, newRow); err != nil {
			return 0, heap.FailureData{}, err
		}
		tup, err := r.encode(newRow)
		if err != nil {
			return 0, heap.FailureData{}, err
		}
		ntid, res, fd, err := r.heap.Update(x.snap, tid, tup, x.xid, x.cid, x.s.ist)
		if err == nil && res == heap.TMOk {
			newRow[ncols] = ntid
			hot = heap.IsHeapOnly(tup)
		}
		return res, fd, err
	}
	refs := x.s.e.referencing(r.def.OID)
	finish := func(row []types.Datum) ([]types.Datum, error) {
		// A HOT update changed no indexed column and its new version is
		// reached through the chain root the index entries point at.
		x.countUpdate(hot)
		if !hot {
			if err := x.insertIndexEntries(newRow, newRow[ncols].(page.TID), row); err != nil {
				return nil, err
			}
		}
		if len(r.def.ForeignKeys) > 0 {
			if err := x.checkReferencing(r, newRow, row); err != nil {
				return nil, err
			}
		}
		if len(refs) > 0 {
			if err := x.checkReferenced(r, refs, row, newRow); err != nil {
				return nil, err
			}
		}
		return newRow, nil
	}
	if jr != nil {
		return x.modifyJoined(st.From, jr, st.Where, st.Returning, apply, finish)
	}
	return x.modifyRows(st.Where, st.Returning, apply, finish, true)
}

// maxPeekEntries is the most index entries an UPDATE reads ahead to tell
// the heap where its rows are.
const maxPeekEntries = 64

func (x *execCtx) delete(st *sql.Delete) (int64, error) {
	r := x.rel
	apply := func(_ []types.Datum, tid page.TID) (heap.Result, heap.FailureData, error) {
		return r.heap.Delete(x.snap, tid, x.xid, x.cid)
	}
	refs := x.s.e.referencing(r.def.OID)
	if x.skipReferenced {
		refs = nil
	}
	finish := func(row []types.Datum) ([]types.Datum, error) {
		if len(refs) > 0 {
			if err := x.checkReferenced(r, refs, row, nil); err != nil {
				return nil, err
			}
		}
		x.countDelete()
		return row, nil
	}
	if st.From != nil {
		jr := &joinedRow{base: st.From.TargetBase(), n: len(r.types) + 1}
		return x.modifyJoined(st.From, jr, st.Where, st.Returning, apply, finish)
	}
	return x.modifyRows(st.Where, st.Returning, apply, finish, false)
}
